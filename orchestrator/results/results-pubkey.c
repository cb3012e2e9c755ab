/* results-pubkey.c - print the stored public-key results (see
 * results-pubkey.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/results-pubkey.h"

/* The rows, grouped over a run's invocations: the table's columns
 * (human units) and the machine columns. */
static const char table_cols[] =
	"SELECT run_id AS run, distro || coalesce(':' || release, '') AS distro,"
	" variant, CASE WHEN build = 'shipped' THEN library"
	" ELSE library || '@' || build END AS library,"
	" package_version AS version, algorithm, operation,"
	" CAST(round(1e9 / avg(ns_per_op)) AS INTEGER) AS \"ops/s\","
	" CAST(round(avg(ns_per_op)) AS INTEGER) AS \"ns/op\","
	" CASE WHEN min(verified) = 1 THEN 'yes' ELSE 'NO' END AS verified,"
	" count(*) AS invocations";
static const char machine_cols[] =
	"SELECT run_id, distro, release, variant, library, library_version,"
	" package, package_version, algorithm, operation,"
	" 1e9 / avg(ns_per_op) AS ops_per_s, avg(ns_per_op) AS ns_per_op,"
	" min(verified) AS verified, count(*) AS invocations,"
	" max(confirmed_by) AS confirmed_by, max(rejected_by) AS rejected_by,"
	" build";
static const char group_order[] =
	" GROUP BY run_id, distro, release, variant, library, build,"
	" library_version, package, package_version, algorithm, operation"
	" ORDER BY run_id, distro, release, variant, algorithm, operation,"
	" 1e9 / avg(ns_per_op) DESC, library";

/* The run shown when F names none: the latest finished run (status
 * done, by started_at, then id) with public-key results. */
static const char latest_sql[] =
	"(SELECT r.id FROM runs r WHERE r.status = 'done' AND EXISTS"
	" (SELECT 1 FROM pubkey_v p WHERE p.run_id = r.id)"
	" ORDER BY r.started_at DESC, r.id DESC LIMIT 1)";

/* The query for F and FMT, of pubkey_v; of a schema before its build
 * column (migration 23) every row is the shipped library's when HAS_BUILD
 * is 0. Caller frees. */
static char *build(const struct pubkey_filter *f, enum format fmt,
		   int has_build)
{
	char *sql, *t;

	sql = xasprintf("%s FROM %s WHERE 1",
			fmt == FORMAT_TABLE ? table_cols : machine_cols,
			has_build ? "pubkey_v" :
			"(SELECT *, 'shipped' AS build FROM pubkey_v)");
	if (f->nruns && !f->all) {
		char *in = sql_in_list("run_id", f->nruns);

		t = xasprintf("%s AND %s", sql, in);
		free(in);
	} else if (!f->all) {
		t = xasprintf("%s AND run_id = %s", sql, latest_sql);
	} else {
		t = xstrdup(sql);
	}
	free(sql);
	sql = t;
	if (f->distro) {
		t = xasprintf("%s AND (distro = ? OR distro || ':' || release = ?)",
			      sql);
		free(sql);
		sql = t;
	}
	if (f->lib) {
		t = xasprintf("%s AND library = ?", sql);
		free(sql);
		sql = t;
	}
	if (f->algo) {
		t = xasprintf("%s AND algorithm = ?", sql);
		free(sql);
		sql = t;
	}
	t = xasprintf("%s%s", sql, group_order);
	free(sql);
	return t;
}

/* Bind F's values in the order build() placed them. */
static void bind(sqlite3_stmt *st, const struct pubkey_filter *f)
{
	int k = 1;

	if (f->nruns && !f->all)
		for (size_t i = 0; i < f->nruns; i++)
			sqlite3_bind_int64(st, k++, f->runs[i]);
	if (f->distro) {
		sqlite3_bind_text(st, k++, f->distro, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, k++, f->distro, -1, SQLITE_STATIC);
	}
	if (f->lib)
		sqlite3_bind_text(st, k++, f->lib, -1, SQLITE_STATIC);
	if (f->algo)
		sqlite3_bind_text(st, k++, f->algo, -1, SQLITE_STATIC);
}

/* Prepare SQL with F bound into *RET. Returns 0, or -1 with err set. */
static int prepare(sqlite3 *db, const char *sql,
		   const struct pubkey_filter *f, sqlite3_stmt **ret,
		   bo_err *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, ret, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	bind(*ret, f);
	return 0;
}

long results_pubkey(FILE *out, sqlite3 *db, const struct pubkey_filter *f,
		    enum format fmt, bo_err *err)
{
	sqlite3_stmt *st;
	char *sql;
	long n;
	int has_build;

	/* a database of an older schema, opened read-only, has none */
	switch (db_has(db, "pubkey_v")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	has_build = db_has_column(db, "pubkey_v", "build");
	if (has_build < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sql = build(f, fmt, has_build);
	if (fmt == FORMAT_TABLE) {
		/* an empty table prints nothing, not even its header (csv
		 * and json print their empty document) */
		char *count = xasprintf("SELECT count(*) FROM (%s)", sql);

		st = NULL;
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
	if (prepare(db, sql, f, &st, err) < 0) {
		free(sql);
		return -1;
	}
	free(sql);
	n = format_stmt(out, st, fmt, err);
	sqlite3_finalize(st);
	return n;
}

long results_pubkey_line(FILE *out, sqlite3 *db, int64_t run_id,
			 bo_err *err)
{
	sqlite3_stmt *st;
	long n = 0, verified = 0, libs = 0;
	char *algos = NULL;
	int rc;

	switch (db_has(db, "pubkey_v")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	if (sqlite3_prepare_v2(db, "SELECT count(*), coalesce(sum(verified), 0),"
			       " count(DISTINCT library), (SELECT"
			       " group_concat(algorithm, ', ') FROM (SELECT"
			       " DISTINCT algorithm FROM pubkey_v WHERE run_id"
			       " = ?1 ORDER BY algorithm DESC)) FROM pubkey_v"
			       " WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK)
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
		fprintf(out, "benchorch: run %lld: public key: %ld results (%s) of %ld %s, %ld verified; `benchorch results --pubkey --run %lld` shows them\n",
			(long long)run_id, n, algos ? algos : "", libs,
			libs == 1 ? "library" : "libraries", verified,
			(long long)run_id);
	free(algos);
	return n;
}
