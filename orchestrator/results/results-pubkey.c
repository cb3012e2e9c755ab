/* results-pubkey.c - print the stored public-key results (see
 * results-pubkey.h). */
#include "config.h"

#include <stdlib.h>

#include "db/db.h"
#include "orchestrator/results/results-pubkey.h"

/* The rows, grouped over a run's invocations: the table's columns
 * (human units) and the machine columns. */
static const char table_cols[] =
	"SELECT run_id AS run, distro || coalesce(':' || release, '') AS distro,"
	" variant, CASE WHEN build = 'shipped' THEN library"
	" ELSE library || '@' || build END AS library,"
	" package_version AS version, algorithm, operation,"
	" CAST(round(1e9 / avg(ns_per_op)) AS INTEGER) AS \"ops/s\","
	" coalesce(max(tied), '') AS tie,"
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

long results_pubkey(FILE *out, sqlite3 *db, const struct ops_filter *f,
		    enum format fmt, bo_err *err)
{
	struct ops_query q = { "pubkey_v", NULL, table_cols, machine_cols,
			       group_order };
	int has_build = db_has(db, "pubkey_v") == 1 ?
			db_has_column(db, "pubkey_v", "build") : 1;
	char *from = NULL;
	long n;

	if (has_build < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	/* a schema before its build column (migration 23): every row is
	 * the shipped library's, and no pair is a public key's */
	if (!has_build)
		q.from = "(SELECT *, 'shipped' AS build, NULL AS tied"
			 " FROM pubkey_v)";
	else
		q.from = from = results_ops_tied_from("pubkey_v", "pubkey",
						      "x.operation");
	n = results_ops_print(out, db, &q, f, fmt, err);
	free(from);
	return n;
}

long results_pubkey_line(FILE *out, sqlite3 *db, int64_t run_id,
			 bo_err *err)
{
	return results_ops_line(out, db, run_id, "pubkey_v", "public key",
				"--pubkey", err);
}
