/* confirm-curves.c - the curves of a run that look changed (see
 * confirm-curves.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/confirm-curves.h"
#include "orchestrator/verdict.h"

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
	static const char sql[] =
		"SELECT max(b.run_id) FROM invocations b"
		" JOIN images bim ON bim.id = b.image_id"
		" JOIN runs br ON br.id = b.run_id"
		" WHERE b.run_id < ?1 AND br.status = 'done'"
		" AND br.quick = (SELECT quick FROM runs WHERE id = ?1)"
		" AND b.run_id NOT IN (SELECT run_id FROM confirmations)"
		" AND EXISTS (SELECT 1 FROM invocations n"
		"  JOIN images nim ON nim.id = n.image_id"
		"  WHERE n.run_id = ?1 AND nim.distro = bim.distro"
		"  AND nim.release = bim.release)";
	sqlite3_stmt *st;
	int64_t id = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);	/* NULL reads 0 */
	sqlite3_finalize(st);
	return id;
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
		if (k < 2 || k > 4 || !*f[0] || !*f[1] ||
		    (f[2] && strcmp(f[2], "encrypt") && strcmp(f[2], "decrypt") &&
		     strcmp(f[2], "hash")) ||
		    (f[3] && strcmp(f[3], "bulk") && strcmp(f[3], "oneshot")))
			rc = bo_err_set(err, "invalid curve '%s': want "
					"LIBRARY/ALGORITHM[/OPERATION[/MODE]], "
					"OPERATION encrypt, decrypt or hash, "
					"MODE bulk or oneshot", shown);
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
