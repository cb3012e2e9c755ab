/* results-kdf.c - print the stored key derivation results (see
 * results-kdf.h). */
#include "config.h"

#include <stdlib.h>

#include "db/db.h"
#include "orchestrator/results/results-kdf.h"

/* The rows, grouped over a run's invocations: the table's columns
 * (human units) and the machine columns. */
static const char table_cols[] =
	"SELECT run_id AS run, distro || coalesce(':' || release, '') AS distro,"
	" variant, CASE WHEN build = 'shipped' THEN library"
	" ELSE library || '@' || build END AS library,"
	" package_version AS version, algorithm, params,"
	" round(1e9 / avg(ns_per_op), 1) AS \"ops/s\","
	" coalesce(max(tied), '') AS tie,"
	" CAST(round(avg(ns_per_op) / 1000) AS INTEGER) AS \"us/op\","
	" count(*) AS invocations,"
	" CASE WHEN min(verified) = 1 THEN 'yes'"
	" ELSE 'NO' || coalesce(': ' || min(unverified_reason), '') END"
	" AS verified";
static const char machine_cols[] =
	"SELECT run_id, distro, release, variant, library, library_version,"
	" package, package_version, algorithm, params, iterations, memory_kib,"
	" parallelism, output_bytes, build,"
	" 1e9 / avg(ns_per_op) AS ops_per_s, avg(ns_per_op) AS ns_per_op,"
	" min(verified) AS verified, count(*) AS invocations,"
	" max(confirmed_by) AS confirmed_by, max(rejected_by) AS rejected_by,"
	" min(unverified_reason) AS unverified_reason";
static const char group_order[] =
	" GROUP BY run_id, distro, release, variant, library, library_version,"
	" package, package_version, algorithm, params, iterations, memory_kib,"
	" parallelism, output_bytes, build"
	" ORDER BY run_id, distro, release, variant, algorithm,"
	" 1e9 / avg(ns_per_op) DESC, library";

/* kdf_v and unverified_reason (results-kdf.h): the order of its cases
 * follows the guest's rule (guest/kdf.c, report()); a library is a
 * judge when its own known answers ran and passed, and a result with
 * neither confirmed_by nor rejected_by had no judge. */
static const char source[] =
	"(SELECT k.*, CASE WHEN k.verified = 1 THEN NULL"
	" WHEN k.kat_ok = 0 THEN 'a known-answer test failed'"
	" WHEN k.rejected_by <> '' AND k.confirmed_by = ''"
	"  THEN 'derived another key than ' || replace(k.rejected_by, ',', ', ')"
	" WHEN k.rejected_by <> ''"
	"  THEN 'outvoted: ' || replace(k.rejected_by, ',', ', ')"
	"   || ' derived another key, only ' || replace(k.confirmed_by, ',', ', ')"
	"   || ' the same'"
	" WHEN k.confirmed_by = '' AND k.kat_ok IS NULL THEN CASE WHEN EXISTS"
	"  (SELECT 1 FROM kdf_results o WHERE o.invocation_id = k.invocation_id"
	"   AND o.algorithm = k.algorithm AND o.id <> k.kdf_result_id)"
	"  THEN 'no known answer, and no other library with known answers"
	" to compare'"
	"  ELSE 'no known answer and no other library to compare' END"
	" ELSE 'not confirmed by another library' END AS unverified_reason"
	" FROM kdf_v k)";

const char *results_kdf_source(void)
{
	return source;
}

long results_kdf(FILE *out, sqlite3 *db, const struct ops_filter *f,
		 enum format fmt, bo_err *err)
{
	struct ops_query q = { "kdf_v", NULL, table_cols, machine_cols,
			       group_order };
	char *from = results_ops_tied_from(source, "kdf", "'derive'");
	long n;

	q.from = from;
	n = results_ops_print(out, db, &q, f, fmt, err);
	free(from);
	return n;
}

/* The lines of results_kdf_line about run RUN_ID's unverified results,
 * one per distribution, variant, library (build) and algorithm, to OUT.
 * Returns their number, or -1 with err set on a database error. */
static long unverified_lines(FILE *out, sqlite3 *db, int64_t run_id,
			     bo_err *err)
{
	sqlite3_stmt *st;
	char *sql = xasprintf("SELECT distro || coalesce(':' || release, ''),"
			      " variant, CASE WHEN build = 'shipped' THEN"
			      " library ELSE library || '@' || build END,"
			      " algorithm, min(unverified_reason) FROM %s"
			      " WHERE run_id = ?1 AND verified = 0 GROUP BY"
			      " distro, release, variant, library, build,"
			      " algorithm ORDER BY 1, 2, 4, 3", source);
	long n = 0;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	free(sql);
	if (rc != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *why = sqlite3_column_text(st, 4);

		fprintf(out, "benchorch: run %lld: key derivation: %s %s on %s (%s) not verified: %s\n",
			(long long)run_id, sqlite3_column_text(st, 2),
			sqlite3_column_text(st, 3), sqlite3_column_text(st, 0),
			sqlite3_column_text(st, 1),
			why ? (const char *)why : "no reason recorded");
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return n;
}

long results_kdf_line(FILE *out, sqlite3 *db, int64_t run_id, bo_err *err)
{
	long n = results_ops_line(out, db, run_id, "kdf_v", "key derivation",
				  "--kdf", err);

	if (n > 0 && unverified_lines(out, db, run_id, err) < 0)
		return -1;
	return n;
}
