/* results-kdf.c - print the stored key derivation results (see
 * results-kdf.h). */
#include "config.h"

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
	" CAST(round(avg(ns_per_op) / 1000) AS INTEGER) AS \"us/op\","
	" CASE WHEN min(verified) = 1 THEN 'yes' ELSE 'NO' END AS verified,"
	" count(*) AS invocations";
static const char machine_cols[] =
	"SELECT run_id, distro, release, variant, library, library_version,"
	" package, package_version, algorithm, params, iterations, memory_kib,"
	" parallelism, output_bytes, build,"
	" 1e9 / avg(ns_per_op) AS ops_per_s, avg(ns_per_op) AS ns_per_op,"
	" min(verified) AS verified, count(*) AS invocations,"
	" max(confirmed_by) AS confirmed_by, max(rejected_by) AS rejected_by";
static const char group_order[] =
	" GROUP BY run_id, distro, release, variant, library, library_version,"
	" package, package_version, algorithm, params, iterations, memory_kib,"
	" parallelism, output_bytes, build"
	" ORDER BY run_id, distro, release, variant, algorithm,"
	" 1e9 / avg(ns_per_op) DESC, library";

long results_kdf(FILE *out, sqlite3 *db, const struct ops_filter *f,
		 enum format fmt, bo_err *err)
{
	static const struct ops_query q = { "kdf_v", "kdf_v", table_cols,
					    machine_cols, group_order };

	return results_ops_print(out, db, &q, f, fmt, err);
}

long results_kdf_line(FILE *out, sqlite3 *db, int64_t run_id, bo_err *err)
{
	return results_ops_line(out, db, run_id, "kdf_v", "key derivation",
				"--kdf", err);
}
