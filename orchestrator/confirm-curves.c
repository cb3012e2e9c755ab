/* confirm-curves.c - the curves of a run that look changed (see
 * confirm-curves.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/compare.h"
#include "orchestrator/confirm-curves.h"

static int same_curve(const struct compare_point *a,
		      const struct compare_point *b)
{
	return strcmp(a->distro, b->distro) == 0 &&
	       strcmp(a->library, b->library) == 0 &&
	       strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0 &&
	       strcmp(a->mode, b->mode) == 0;
}

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

int confirm_changed_curves(sqlite3 *db, int64_t base_run, int64_t new_run,
			   struct confirm_curve **ret, size_t *ret_n,
			   bo_err *err)
{
	struct compare_result r;
	size_t i, j;

	*ret = NULL;
	*ret_n = 0;
	if (compare_runs(db, base_run, new_run, COMPARE_DEFAULT_THRESHOLD, &r,
			 err) < 0)
		return -1;
	/* compare_runs sorts its points by distro, library, algorithm,
	 * operation, mode and size: a curve is a run of equal keys */
	for (i = 0; i < r.npoints; i = j) {
		size_t slower = 0, faster = 0, n;

		for (j = i; j < r.npoints && same_curve(&r.points[i],
							&r.points[j]); j++) {
			slower += r.points[j].kind < 0;
			faster += r.points[j].kind > 0;
		}
		n = j - i;
		if ((slower && faster) || 2 * (slower + faster) <= n)
			continue;
		add_curve(ret, ret_n, r.points[i].distro, r.points[i].library,
			  r.points[i].algorithm, r.points[i].operation,
			  r.points[i].mode, slower ? -1 : 1);
	}
	compare_result_free(&r);
	return 0;
}

int64_t confirm_base_run(sqlite3 *db, int64_t run_id)
{
	static const char sql[] =
		"SELECT max(b.run_id) FROM invocations b"
		" JOIN images bim ON bim.id = b.image_id"
		" JOIN runs br ON br.id = b.run_id"
		" WHERE b.run_id < ?1 AND br.status = 'done'"
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
