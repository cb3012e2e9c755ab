/* results-kdf.h - `benchorch results --kdf` and the line `run` ends
 * with: the stored key derivation results (kdf_v, migration 22). */
#ifndef BENCHORCH_RESULTS_KDF_H
#define BENCHORCH_RESULTS_KDF_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"
#include "orchestrator/results/results-ops.h"


/* Print to OUT in FMT the key derivation results of DB that F selects,
 * one row per run, distribution, variant, library (and package version,
 * build) and algorithm with its cost, its invocations folded: ops_per_s
 * (derivations per second) is 10^9 over the mean of their ns per
 * derivation, verified 1 only when all are; with the number of
 * invocations. The table shows the cost (params), ops/s to 0.1, us per
 * derivation rounded and verified as yes or NO; csv and json the columns
 * run_id, distro, release, variant, library, library_version, package,
 * package_version, algorithm, params, iterations, memory_kib,
 * parallelism, output_bytes, build, ops_per_s, ns_per_op, verified,
 * invocations, confirmed_by, rejected_by. An empty table prints nothing
 * (csv its header, json []). Returns the number of rows (0 also for a
 * database whose schema predates migration 22), or -1 with err set on a
 * database error. */
long results_kdf(FILE *out, sqlite3 *db, const struct ops_filter *f,
		 enum format fmt, bo_err *err);

/* One line to OUT about run RUN_ID's key derivation results, "benchorch:
 * run N: key derivation: R results (ALGORITHMS) of L libraries, V
 * verified; `benchorch results --kdf --run N` shows them", with a
 * newline, or nothing when it has none. Returns the number of results
 * (0: nothing printed), or -1 with err set on a database error. */
long results_kdf_line(FILE *out, sqlite3 *db, int64_t run_id, bo_err *err);

#endif
