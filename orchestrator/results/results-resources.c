/* results-resources.c - print the stored resource figures (see
 * results-resources.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/latest.h"
#include "db/db.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/results-resources.h"

/* One row per invocation and library: table (human units) and machine
 * columns, from resources_v (db/migrations/0009-resources.sql). */
static const char lib_table[] =
	"SELECT run_id AS run, distro || coalesce(':' || release, '') AS distro,"
	" variant, round, library, coalesce(library_version, '') AS version,"
	" status, user_us / 1000 AS user_ms, sys_us / 1000 AS sys_ms,"
	" round(maxrss_kib / 1024.0, 1) AS peak_mib,"
	" round(footprint_kib / 1024.0, 1) AS footprint_mib,"
	" round((footprint_kib - rss_before_load_kib) / 1024.0, 1) AS load_mib,"
	" CASE WHEN top_raise_kib > 0 THEN top_algorithm || ' +' || top_raise_kib || ' KiB' ELSE '' END"
	"  AS most_raised_by";
static const char lib_machine[] =
	"SELECT run_id, distro, release, variant, round, library,"
	" library_version, status, user_us, sys_us, maxrss_kib,"
	" rss_before_load_kib, footprint_kib, top_algorithm, top_raise_kib";
static const char lib_from[] = " FROM resources_v WHERE 1";
static const char lib_order[] =
	" ORDER BY run_id, distro, release, variant, round, library";

/* With --algo: one row per invocation and library for that algorithm. */
static const char algo_table[] =
	"SELECT v.run_id AS run,"
	" v.distro || coalesce(':' || v.release, '') AS distro, v.variant,"
	" v.round, v.library, ar.algorithm,"
	" round(ar.peak_kib / 1024.0, 1) AS peak_mib, ar.raise_kib";
static const char algo_machine[] =
	"SELECT v.run_id, v.distro, v.release, v.variant, v.round, v.library,"
	" v.library_version, ar.algorithm, ar.peak_kib, ar.raise_kib";
static const char algo_from[] =
	" FROM algorithm_resources ar JOIN resources_v v"
	" ON v.invocation_id = ar.invocation_id AND v.library = ar.library"
	" WHERE ar.algorithm = ?";
static const char algo_order[] =
	" ORDER BY v.run_id, v.distro, v.release, v.variant, v.round, v.library";

/* The query for F and FMT; LATEST is the run shown when F names none
 * (db_latest_run_sql). Caller frees. */
static char *build(const struct resources_filter *f, enum format fmt,
		   const char *latest)
{
	const char *p = f->algo ? "v." : "";
	char *sql, *t;

	if (f->algo)
		sql = xasprintf("%s%s", fmt == FORMAT_TABLE ? algo_table :
				algo_machine, algo_from);
	else
		sql = xasprintf("%s%s", fmt == FORMAT_TABLE ? lib_table :
				lib_machine, lib_from);
	if (f->nruns && !f->all) {
		char *col = xasprintf("%srun_id", p);
		char *in = sql_in_list(col, f->nruns);

		t = xasprintf("%s AND %s", sql, in);
		free(in);
		free(col);
	} else if (!f->all) {
		t = xasprintf("%s AND %srun_id = %s", sql, p, latest);
	} else {
		t = xstrdup(sql);
	}
	free(sql);
	sql = t;
	if (f->distro) {
		t = xasprintf("%s AND (%sdistro = ? OR %sdistro || ':' || %srelease = ?)",
			      sql, p, p, p);
		free(sql);
		sql = t;
	}
	if (f->lib) {
		t = xasprintf("%s AND %slibrary = ?", sql, p);
		free(sql);
		sql = t;
	}
	t = xasprintf("%s%s", sql, f->algo ? algo_order : lib_order);
	free(sql);
	return t;
}

/* Bind F's values in the order build() placed them. */
static void bind(sqlite3_stmt *st, const struct resources_filter *f)
{
	int k = 1;

	if (f->algo)
		sqlite3_bind_text(st, k++, f->algo, -1, SQLITE_STATIC);
	if (f->nruns && !f->all)
		for (size_t i = 0; i < f->nruns; i++)
			sqlite3_bind_int64(st, k++, f->runs[i]);
	if (f->distro) {
		sqlite3_bind_text(st, k++, f->distro, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, k++, f->distro, -1, SQLITE_STATIC);
	}
	if (f->lib)
		sqlite3_bind_text(st, k++, f->lib, -1, SQLITE_STATIC);
}

long results_resources(FILE *out, sqlite3 *db,
		       const struct resources_filter *f, enum format fmt,
		       bo_err *err)
{
	sqlite3_stmt *st;
	char *sql, *latest;
	long n;

	/* a database of an older schema, opened read-only, has none */
	switch (db_has(db, "resources_v")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	latest = db_latest_run_sql(db, DB_RUN_LIBRARY);
	if (!latest)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sql = build(f, fmt, latest);
	free(latest);
	if (fmt == FORMAT_TABLE) {
		/* an empty table prints nothing, not even its header (csv
		 * and json print their empty document) */
		char *count = xasprintf("SELECT count(*) FROM (%s)", sql);
		int rc = sqlite3_prepare_v2(db, count, -1, &st, NULL);

		free(count);
		if (rc != SQLITE_OK) {
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
			free(sql);
			return -1;
		}
		bind(st, f);
		if (sqlite3_step(st) != SQLITE_ROW) {
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
			sqlite3_finalize(st);
			free(sql);
			return -1;
		}
		rc = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (rc == 0) {
			free(sql);
			return 0;
		}
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		free(sql);
		return -1;
	}
	free(sql);
	bind(st, f);
	n = format_stmt(out, st, fmt, err);
	sqlite3_finalize(st);
	return n;
}
