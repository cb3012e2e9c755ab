/* confirm-curves.c - the curves of a run that look changed (see
 * confirm-curves.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/latest.h"
#include "lib/algorithms.h"
#include "orchestrator/run/confirm-curves.h"
#include "orchestrator/results/verdict.h"

static void add_curve(struct confirm_curve **v, size_t *n, const char *distro,
		      const char *library, const char *algorithm,
		      const char *operation, const char *mode, int kind)
{
	struct confirm_curve *c;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	c = &(*v)[(*n)++];
	c->distro = distro ? xstrdup(distro) : NULL;
	c->library = xstrdup(library);
	c->algorithm = xstrdup(algorithm);
	c->operation = xstrdup(operation ? operation : "");
	c->mode = xstrdup(mode ? mode : "");
	c->kind = kind;
}

/* 1 when V[0..N) already holds the curve of C (variants fall together). */
static int listed(const struct confirm_curve *v, size_t n,
		  const struct verdict_curve *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].distro, c->distro) &&
		    !strcmp(v[i].library, c->library) &&
		    !strcmp(v[i].algorithm, c->algorithm) &&
		    !strcmp(v[i].operation, c->operation) &&
		    !strcmp(v[i].mode, c->mode))
			return 1;
	return 0;
}

int confirm_changed_curves(sqlite3 *db, int64_t base_run, int64_t new_run,
			   struct confirm_curve **ret, size_t *ret_n,
			   bo_err *err)
{
	struct verdict_sel base = { base_run, 0 }, new = { new_run, 0 };
	struct verdict_result r;
	size_t i;

	*ret = NULL;
	*ret_n = 0;
	if (verdict_compare(db, base, new, VERDICT_DEFAULT_THRESHOLD,
			    VERDICT_DEFAULT_ALPHA, &r, err) < 0)
		return -1;
	/* verdict_compare sorts its curves by distro, library, algorithm,
	 * operation, mode and variant */
	for (i = 0; i < r.ncurves; i++) {
		const struct verdict_curve *c = &r.curves[i];

		if ((c->state != VERDICT_CHANGED &&
		     c->state != VERDICT_CONFIRMED &&
		     c->state != VERDICT_FLAGGED) || listed(*ret, *ret_n, c))
			continue;
		add_curve(ret, ret_n, c->distro, c->library, c->algorithm,
			  c->operation, c->mode, c->effect < 0 ? -1 : 1);
	}
	verdict_result_free(&r);
	return 0;
}

int64_t confirm_base_run(sqlite3 *db, int64_t run_id)
{
	/* one rule with compare --latest 2, restricted to the run's
	 * distributions */
	return db_base_run(db, run_id, DB_BASE_SHARED_DISTRO, NULL);
}

/* The names NAME(0), NAME(1), ... comma-separated into BUF (LEN bytes),
 * for a message. Returns BUF. */
static const char *known_names(const char *(*name)(size_t), char *buf,
			       size_t len)
{
	size_t i, at = 0;
	const char *nm;

	buf[0] = '\0';
	for (i = 0; (nm = name(i)) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i ? ", " : "", nm);
	return buf;
}

/* Check the fields F[0..K) of the curve SHOWN: their form, then the
 * library, the algorithm, the operation (one the algorithm has) and the
 * mode against the guest's. Returns 0, or -1 with err set. */
static int check_curve(char *const *f, size_t k, const char *shown,
		       bo_err *err)
{
	const struct algorithm *a;
	char names[1024];

	if (k < 2 || k > 4 || !*f[0] || !*f[1])
		return bo_err_set(err, "invalid curve '%s': want "
				  "LIBRARY/ALGORITHM[/OPERATION[/MODE]], "
				  "OPERATION encrypt, decrypt or hash, "
				  "MODE bulk or oneshot", shown);
	if (!library_known(f[0]))
		return bo_err_set(err, "invalid curve '%s': unknown library '%s' (known: %s)",
				  shown, f[0],
				  known_names(library_name, names, sizeof(names)));
	a = algorithm_find(f[1]);
	if (!a)
		return bo_err_set(err, "invalid curve '%s': unknown algorithm '%s' (known: %s)",
				  shown, f[1],
				  known_names(algorithm_name, names, sizeof(names)));
	if (f[2] && strcmp(f[2], "encrypt") && strcmp(f[2], "decrypt") &&
	    strcmp(f[2], "hash"))
		return bo_err_set(err, "invalid curve '%s': unknown operation '%s' (known: encrypt, decrypt, hash)",
				  shown, f[2]);
	if (f[2] && !algorithm_has_operation(a, f[2]))
		return bo_err_set(err, "invalid curve '%s': %s has no operation '%s' (it has: %s)",
				  shown, f[1], f[2], a->kind == ALGO_HASH ?
				  "hash" : "encrypt, decrypt");
	if (f[3] && strcmp(f[3], "bulk") && strcmp(f[3], "oneshot"))
		return bo_err_set(err, "invalid curve '%s': unknown mode '%s' (known: bulk, oneshot)",
				  shown, f[3]);
	return 0;
}

int confirm_curves_parse(const char *list, const char *distro,
			 struct confirm_curve **ret, size_t *ret_n,
			 bo_err *err)
{
	char *copy = xstrdup(list), *item, *save = NULL;
	int rc = 0;

	*ret = NULL;
	*ret_n = 0;
	for (item = strtok_r(copy, ",", &save); item && rc == 0;
	     item = strtok_r(NULL, ",", &save)) {
		char *f[5] = { NULL }, *s = item, *slash;
		char *shown = xstrdup(item);
		size_t k = 0;

		while (k < 5) {
			f[k++] = s;
			slash = strchr(s, '/');
			if (!slash)
				break;
			*slash = '\0';
			s = slash + 1;
		}
		if (check_curve(f, k, shown, err) < 0)
			rc = -1;
		else
			add_curve(ret, ret_n, distro, f[0], f[1], f[2], f[3], 0);
		free(shown);
	}
	free(copy);
	if (rc < 0) {
		confirm_curves_free(*ret, *ret_n);
		*ret = NULL;
		*ret_n = 0;
	}
	return rc;
}

void confirm_curves_free(struct confirm_curve *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].distro);
		free(v[i].library);
		free(v[i].algorithm);
		free(v[i].operation);
		free(v[i].mode);
	}
	free(v);
}
