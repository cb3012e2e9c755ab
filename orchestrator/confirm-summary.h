/* confirm-summary.h - what a confirmation run measured, previous image
 * beside new, for a person (table) or a program (csv, json). */
#ifndef BENCHORCH_CONFIRM_SUMMARY_H
#define BENCHORCH_CONFIRM_SUMMARY_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "orchestrator/format.h"
#include "orchestrator/util.h"

/* Print to F, for confirmation run RUN_ID in DB, one row per point (distro,
 * library, algorithm, operation, mode, buffer bytes) of the curves it was
 * asked to measure again: the median throughput in MB/s (10^6 B/s) over
 * the invocations of the previous image and over those of the new one
 * (empty without a previous image), the change new / previous - 1 in per
 * cent, and the number of invocations of each. FORMAT_TABLE aligned with
 * a header, FORMAT_CSV with a header row (RFC 4180), FORMAT_JSON an
 * array of objects. Returns 0, or -1 with err set (database error). */
int confirm_summary_print(FILE *f, sqlite3 *db, int64_t run_id,
			  enum format fmt, bo_err *err);

#endif
