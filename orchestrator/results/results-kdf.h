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


/* The rows results_kdf and the report read: an SQL subquery
 * "(SELECT ...)" giving every column of kdf_v and, last,
 * unverified_reason: NULL for a verified result, else why the guest did
 * not verify it, as read from kat_ok, confirmed_by, rejected_by and the
 * other libraries of its invocation that derived the algorithm: "a
 * known-answer test failed", "derived another key than LIBS",
 * "outvoted: LIBS derived another key, only LIBS the same", "no known
 * answer and no other library to compare", "no known answer, and no
 * other library with known answers to compare" or "not confirmed by
 * another library". Static storage; needs kdf_v (migration 22). */
const char *results_kdf_source(void);

/* Print to OUT in FMT the key derivation results of DB that F selects,
 * one row per run, distribution, variant, library (and package version,
 * build) and algorithm with its cost, its invocations folded: ops_per_s
 * (derivations per second) is 10^9 over the mean of their ns per
 * derivation, verified 1 only when all are; with the number of
 * invocations. The table shows the cost (params), ops/s to 0.1, tie
 * ("= a,b": the libraries it was not told apart from in some
 * invocation, run --interleave's pairs; results_ops_tied_from), us per
 * derivation rounded, the invocations and last verified as yes, or NO
 * and why ("NO: no known answer and no other library to compare");
 * csv and json the columns run_id, distro, release, variant, library,
 * library_version, package, package_version, algorithm, params,
 * iterations, memory_kib, parallelism, output_bytes, build, ops_per_s,
 * ns_per_op, verified, invocations, confirmed_by, rejected_by and
 * unverified_reason (null when verified; results_kdf_source). An empty
 * table prints nothing
 * (csv its header, json []). Returns the number of rows (0 also for a
 * database whose schema predates migration 22), or -1 with err set on a
 * database error. */
long results_kdf(FILE *out, sqlite3 *db, const struct ops_filter *f,
		 enum format fmt, bo_err *err);

/* One line to OUT about run RUN_ID's key derivation results, "benchorch:
 * run N: key derivation: R results (ALGORITHMS) of L libraries, V
 * verified; `benchorch results --kdf --run N` shows them", with a
 * newline, then one line per distribution, variant, library and
 * algorithm not verified, "benchorch: run N: key derivation: LIBRARY
 * ALGORITHM on DISTRO (VARIANT) not verified: REASON" (the
 * unverified_reason of results_kdf_source); nothing when it has no
 * results. Returns the number of results (0: nothing printed), or -1
 * with err set on a database error. */
long results_kdf_line(FILE *out, sqlite3 *db, int64_t run_id, bo_err *err);

#endif
