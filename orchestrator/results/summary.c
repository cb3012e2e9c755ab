/* summary.c - the end-of-run summary: one pivot query over the run's
 * points (points_v: a point measured by several invocations is one
 * figure, the median of theirs), the package versions that changed since
 * the previous run. */
#include "config.h"

#include <stdlib.h>

#include "db/package-changes.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/summary.h"
#include "lib/util.h"

/* The pivot over a view (the second %s: results_schema's points_view),
 * with names a program reads: the release apart from the distribution,
 * one column per buffer size named by its bytes, verified 1 or 0; a
 * build's library as "LIBRARY@NAME" (the first %s: results_schema's
 * library_label), each build a group of its own (the third: its
 * build). */
static const char summary_sql[] =
	"SELECT distro, release, %s AS library, library_version,"
	" package_version,"
	" algorithm, operation, variant,"
	" round(max(CASE WHEN buffer_bytes = 16 THEN mb_per_s END), 1)"
	"   AS mb_per_s_16,"
	" round(max(CASE WHEN buffer_bytes = 1024 THEN mb_per_s END), 1)"
	"   AS mb_per_s_1024,"
	" round(max(CASE WHEN buffer_bytes = 16384 THEN mb_per_s END), 1)"
	"   AS mb_per_s_16384,"
	" round(max(CASE WHEN buffer_bytes = 262144 THEN mb_per_s END), 1)"
	"   AS mb_per_s_262144,"
	" round(max(CASE WHEN buffer_bytes = 1048576 THEN mb_per_s END), 1)"
	"   AS mb_per_s_1048576,"
	" min(verified) = 1 AS verified"
	" FROM %s WHERE run_id = ?1 AND mode = 'bulk'"
	" GROUP BY distro, release, library, %s, library_version,"
	"  package_version, algorithm, operation, variant"
	" ORDER BY distro, release, library, algorithm,"
	"  operation DESC";

long summary_print(FILE *f, sqlite3 *db, int64_t run_id, enum format fmt,
		   bo_err *err)
{
	struct results_schema rs;
	sqlite3_stmt *st;
	char *sql;
	long n;
	int rc;

	if (results_schema(db, &rs, err) < 0)
		return -1;
	sql = xasprintf(summary_sql, rs.library_label, rs.points_view,
			rs.build);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	n = format_stmt(f, st, fmt, err);
	sqlite3_finalize(st);
	return n;
}

long summary_unverified(sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *st;
	long n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM results_v WHERE"
			       " run_id = ?1 AND verified = 0", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

long summary_canaries_moved(sqlite3 *db, int64_t run_id, long *ret_total)
{
	sqlite3_stmt *st;
	long n = -1;

	*ret_total = 0;
	if (sqlite3_prepare_v2(db, "SELECT coalesce(sum(c.moved), 0), count(*)"
			       " FROM canaries c JOIN invocations i ON"
			       " i.id = c.invocation_id WHERE i.run_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = (long)sqlite3_column_int64(st, 0);
		*ret_total = (long)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return n;
}

long summary_noisy(sqlite3 *db, int64_t run_id, long *ret_total)
{
	sqlite3_stmt *st;
	long n = -1;

	*ret_total = 0;
	if (sqlite3_prepare_v2(db, "SELECT coalesce(sum(noisy), 0), count(*) FROM"
			       " (SELECT r.noisy FROM results r JOIN invocations i"
			       "  ON i.id = r.invocation_id WHERE i.run_id = ?1"
			       "  UNION ALL SELECT k.noisy FROM keysetups k JOIN"
			       "  invocations i ON i.id = k.invocation_id WHERE"
			       "  i.run_id = ?1)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = (long)sqlite3_column_int64(st, 0);
		*ret_total = (long)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return n;
}

long summary_package_changes(FILE *f, sqlite3 *db, int64_t run_id,
			     bo_err *err)
{
	struct pkg_change *v;
	size_t n, i;

	if (db_package_changes(db, run_id, &v, &n, err) < 0)
		return -1;
	if (n)
		fprintf(f, "benchorch: %zu package version%s changed since the previous run of the same distribution:\n",
			n, n == 1 ? "" : "s");
	for (i = 0; i < n && i < SUMMARY_MAX_CHANGES; i++) {
		fprintf(f, "  %s %s %s -> %s", v[i].spec, v[i].package,
			v[i].old_version ? v[i].old_version : "(none)",
			v[i].new_version ? v[i].new_version : "(removed)");
		if (v[i].previous_run > 0)
			fprintf(f, " (since run %lld)",
				(long long)v[i].previous_run);
		fputc('\n', f);
	}
	if (n > SUMMARY_MAX_CHANGES)
		fprintf(f, "  and %zu more: select * from package_changes_v where run_id = %lld\n",
			n - SUMMARY_MAX_CHANGES, (long long)run_id);
	pkg_changes_free(v, n);
	return (long)n;
}
