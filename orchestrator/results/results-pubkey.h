/* results-pubkey.h - `benchorch results --pubkey` and the line `run`
 * ends with: the stored public-key results (pubkey_v, migration 19). */
#ifndef BENCHORCH_RESULTS_PUBKEY_H
#define BENCHORCH_RESULTS_PUBKEY_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"
#include "orchestrator/results/results-ops.h"


/* Print to OUT in FMT the public-key results of DB that F selects, one
 * row per run, distribution, variant, library (and package version),
 * algorithm and operation, its invocations folded: ops_per_s is 10^9
 * over the mean of their ns per operation (for the two invocations of a
 * run, their median), verified 1 only when all are; with the number of
 * invocations. The table shows ops/s, tie ("= a,b": the libraries it
 * was not told apart from in some invocation, run --interleave's pairs;
 * results_ops_tied_from), ns/op rounded and verified as yes or NO; csv and json the columns run_id, distro, release, variant,
 * library, library_version, package, package_version, algorithm,
 * operation, ops_per_s, ns_per_op, verified, invocations, confirmed_by,
 * rejected_by. An empty table prints nothing (csv its header, json []).
 * Returns the number of rows (0 also for a database whose schema
 * predates migration 19), or -1 with err set on a database error. */
long results_pubkey(FILE *out, sqlite3 *db, const struct ops_filter *f,
		    enum format fmt, bo_err *err);

/* One line to OUT about run RUN_ID's public-key results, "benchorch: run
 * N: public key: R results (ALGORITHMS) of L libraries, V verified;
 * `benchorch results --pubkey --run N` shows them", with a newline, or
 * nothing when it has none. Returns the number of results (0: nothing
 * printed), or -1 with err set on a database error. */
long results_pubkey_line(FILE *out, sqlite3 *db, int64_t run_id,
			 bo_err *err);

#endif
