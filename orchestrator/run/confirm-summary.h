/* confirm-summary.h - what a confirmation run measured, previous image
 * beside new (or the confirmed run beside its measurement again), for a
 * person (table) or a program (csv, json). */
#ifndef BENCHORCH_CONFIRM_SUMMARY_H
#define BENCHORCH_CONFIRM_SUMMARY_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* Print to F, for confirmation run RUN_ID in DB, one row per point (distro,
 * library, algorithm, operation, mode, buffer bytes) of the curves it was
 * asked to measure again: the median throughput in MB/s (10^6 B/s) over
 * the invocations of the before side and over those of this run's (new)
 * image, the change new / before - 1 in per cent, and the number of
 * invocations of each. The before side is the previous image, measured
 * in this run (columns "prev MB/s", "new MB/s", "prev", "new"; csv and
 * json previous_mb_per_s, new_mb_per_s, previous_invocations,
 * new_invocations); for a distribution without a previous image it is
 * the confirmed run N's own results (columns "run N MB/s", "again MB/s",
 * "run N", "again"; csv and json confirmed_run, confirmed_mb_per_s,
 * again_mb_per_s, confirmed_invocations, again_invocations). When only
 * some distributions had a previous image, a column "against" names per
 * point what it is compared with ("previous", "run N"; csv and json
 * against, before_ and again_mb_per_s, before_ and again_invocations).
 * FORMAT_TABLE aligned with a header, FORMAT_CSV with a header row (RFC
 * 4180), FORMAT_JSON an array of objects (no before_mb_per_s/change_pct
 * where the before side has no result). Nothing is written to F until
 * every row is read. Returns 0, or -1 with err set (database error; F
 * gets nothing). */
int confirm_summary_print(FILE *f, sqlite3 *db, int64_t run_id,
			  enum format fmt, bo_err *err);

#endif
