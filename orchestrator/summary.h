/* summary.h - the short table `benchorch run` prints at the end. */
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

#endif
