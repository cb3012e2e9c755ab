/* summary.h - the short table `benchorch run` prints at the end, and the
 * package versions that changed since the previous run. */
#ifndef BENCHORCH_SUMMARY_H
#define BENCHORCH_SUMMARY_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "orchestrator/format.h"
#include "orchestrator/util.h"

/* Print, for run RUN_ID, one row per distro × library × algorithm ×
 * operation with the throughput (MB/s = 10^6 B/s) at 16 B, 1 KiB, 16 KiB
 * and 1 MiB buffers. Returns the number of rows, or -1 with err set. */
long summary_print(FILE *f, sqlite3 *db, int64_t run_id, enum format fmt,
		   bo_err *err);

/* Number of results of RUN_ID stored with verified = 0 (-1 on error). */
long summary_unverified(sqlite3 *db, int64_t run_id);

/* Measurements (results and key setups) of RUN_ID that stayed noisy: their
 * samples' coefficient of variation exceeded the guest's limit after every
 * re-run (noisy = 1). Returns the count and the number of measurements in
 * *ret_total, or -1 on a database error. */
long summary_noisy(sqlite3 *db, int64_t run_id, long *ret_total);

/* How many changed packages the end-of-run summary lists at most: a
 * refreshed image can bring dozens; the rest are counted and the query
 * that lists them is named. */
#define SUMMARY_MAX_CHANGES 20

/* Print on F, when run RUN_ID recorded package version changes since the
 * previous run of its distributions, a heading line and one line per
 * change ("  debian:bookworm libssl3 3.0.11-1 -> 3.0.13-1 (since run 4)"),
 * at most SUMMARY_MAX_CHANGES. Prints nothing when there are none.
 * Returns the number of changes, or -1 with err set. */
long summary_package_changes(FILE *f, sqlite3 *db, int64_t run_id,
			     bo_err *err);

#endif
