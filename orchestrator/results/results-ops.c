/* results-ops.c - results counted in operations per second (see
 * results-ops.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/results-ops.h"

/* The query of Q for F and FMT. Caller frees. */
static char *build(const struct ops_query *q, const struct ops_filter *f,
		   enum format fmt)
{
	char *sql, *t;

	sql = xasprintf("%s FROM %s WHERE 1",
			fmt == FORMAT_TABLE ? q->table_cols : q->machine_cols,
			q->from);
	if (f->nruns && !f->all) {
		char *in = sql_in_list("run_id", f->nruns);

		t = xasprintf("%s AND %s", sql, in);
		free(in);
	} else if (!f->all) {
		/* the latest finished run (status done, by started_at, then
		 * id) with such results */
		t = xasprintf("%s AND run_id = (SELECT r.id FROM runs r"
			      " WHERE r.status = 'done' AND EXISTS (SELECT 1"
			      " FROM %s p WHERE p.run_id = r.id)"
			      " ORDER BY r.started_at DESC, r.id DESC LIMIT 1)",
			      sql, q->view);
	} else {
		t = xstrdup(sql);
	}
	free(sql);
	sql = t;
	t = xasprintf("%s%s%s%s%s", sql,
		      f->distro ? " AND (distro = ? OR distro || ':' ||"
				  " release = ?)" : "",
		      f->lib ? " AND library = ?" : "",
		      f->algo ? " AND algorithm = ?" : "", q->group_order);
	free(sql);
	return t;
}

/* Prepare SQL with F's values bound in the order build() placed them,
 * into *RET. Returns 0, or -1 with err set. */
static int prepare(sqlite3 *db, const char *sql, const struct ops_filter *f,
		   sqlite3_stmt **ret, bo_err *err)
{
	int k = 1;

	if (sqlite3_prepare_v2(db, sql, -1, ret, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (f->nruns && !f->all)
		for (size_t i = 0; i < f->nruns; i++)
			sqlite3_bind_int64(*ret, k++, f->runs[i]);
	if (f->distro) {
		sqlite3_bind_text(*ret, k++, f->distro, -1, SQLITE_STATIC);
		sqlite3_bind_text(*ret, k++, f->distro, -1, SQLITE_STATIC);
	}
	if (f->lib)
		sqlite3_bind_text(*ret, k++, f->lib, -1, SQLITE_STATIC);
	if (f->algo)
		sqlite3_bind_text(*ret, k++, f->algo, -1, SQLITE_STATIC);
	return 0;
}

char *results_ops_tied_from(const char *inner, const char *mode,
			    const char *op_expr)
{
	return xasprintf(
		"(SELECT x.*, (SELECT '= ' || group_concat(DISTINCT CASE"
		" WHEN p.library = x.library AND p.build = x.build"
		" THEN p.versus || CASE WHEN p.versus_build = 'shipped'"
		" THEN '' ELSE '@' || p.versus_build END"
		" ELSE p.library || CASE WHEN p.build = 'shipped' THEN ''"
		" ELSE '@' || p.build END END)"
		" FROM pairs_v p WHERE p.run_id = x.run_id"
		" AND p.mode = '%s' AND p.tie = 1"
		" AND p.algorithm = x.algorithm AND p.operation = %s"
		" AND p.variant = x.variant AND p.distro IS x.distro"
		" AND p.release IS x.release"
		" AND ((p.library = x.library AND p.build = x.build)"
		" OR (p.versus = x.library AND p.versus_build = x.build)))"
		" AS tied FROM %s x)", mode, op_expr, inner);
}

long results_ops_print(FILE *out, sqlite3 *db, const struct ops_query *q,
		       const struct ops_filter *f, enum format fmt,
		       bo_err *err)
{
	sqlite3_stmt *st = NULL;
	char *sql;
	long n;

	/* a database of an older schema, opened read-only, has none */
	switch (db_has(db, q->view)) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	sql = build(q, f, fmt);
	if (fmt == FORMAT_TABLE) {
		/* an empty table prints nothing, not even its header (csv
		 * and json print their empty document) */
		char *count = xasprintf("SELECT count(*) FROM (%s)", sql);

		n = prepare(db, count, f, &st, err);
		free(count);
		if (n == 0)
			n = sqlite3_step(st) == SQLITE_ROW ?
			    sqlite3_column_int(st, 0) :
			    bo_err_set(err, "database error: %s",
				       sqlite3_errmsg(db));
		sqlite3_finalize(st);
		if (n <= 0) {
			free(sql);
			return n;
		}
	}
	n = prepare(db, sql, f, &st, err);
	free(sql);
	if (n < 0)
		return -1;
	n = format_stmt(out, st, fmt, err);
	sqlite3_finalize(st);
	return n;
}

long results_ops_line(FILE *out, sqlite3 *db, int64_t run_id,
		      const char *view, const char *what, const char *option,
		      bo_err *err)
{
	sqlite3_stmt *st;
	long n = 0, verified = 0, libs = 0;
	char *algos = NULL, *sql;
	int rc;

	switch (db_has(db, view)) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	sql = xasprintf("SELECT count(*), coalesce(sum(verified), 0),"
			" count(DISTINCT library), (SELECT"
			" group_concat(algorithm, ', ') FROM (SELECT DISTINCT"
			" algorithm FROM %s WHERE run_id = ?1 ORDER BY"
			" algorithm DESC)) FROM %s WHERE run_id = ?1", view,
			view);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
		verified = sqlite3_column_int(st, 1);
		libs = sqlite3_column_int(st, 2);
		if (sqlite3_column_text(st, 3))
			algos = xstrdup((const char *)sqlite3_column_text(st, 3));
	} else {
		n = bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	if (n > 0)
		fprintf(out, "benchorch: run %lld: %s: %ld result%s (%s) of %ld %s, %ld verified; `benchorch results %s --run %lld` shows them\n",
			(long long)run_id, what, n, n == 1 ? "" : "s",
			algos ? algos : "", libs,
			libs == 1 ? "library" : "libraries", verified, option,
			(long long)run_id);
	free(algos);
	return n;
}
