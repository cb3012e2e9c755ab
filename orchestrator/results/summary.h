/* summary.h - the short table `benchorch run` prints at the end, and the
 * package versions that changed since the previous run. */
#ifndef BENCHORCH_SUMMARY_H
#define BENCHORCH_SUMMARY_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* Print on F in FMT (csv or json), for run RUN_ID, one row per
 * distribution × library × algorithm × operation × variant of its bulk
 * points: distro, release, library, library_version, package_version,
 * algorithm, operation, variant, the throughput (MB/s = 10^6 B/s, one
 * decimal; null where not measured) at 16 B, 1 KiB, 16 KiB, 256 KiB
 * and 1 MiB buffers as mb_per_s_16, mb_per_s_1024, mb_per_s_16384,
 * mb_per_s_262144 and mb_per_s_1048576 (a --quick run measures no
 * 1 MiB), and verified (1 when every point of the row was, else
 * 0), the names results --format uses for the same things. Returns the
 * number of rows, or -1 with err set. */
long summary_print(FILE *f, sqlite3 *db, int64_t run_id, enum format fmt,
		   bo_err *err);

/* Print on F the answer for run RUN_ID: per distribution, a line with its
 * libraries' short versions (fastest_short_version), then per algorithm
 * the fastest library at 16 KiB with its MB/s (10^6 B/s) and cycles per
 * byte (at the core clock the guest measured), the runner-up and the
 * slowest as a fraction of that MB/s, and the fastest at 16 B with its
 * MB/s; noisy values marked ~, unverified ones !. With two distributions
 * or more, one line per library with its spread between them (median and
 * largest, in %). Ends with a line naming the commands that show every
 * point and the charts, with --db PATH when DB_PATH (the database read,
 * or NULL) is not the default one, however it was chosen (paths_db_opt).
 * With the longest library and algorithm names the guest knows and the
 * default database, every line fits 120 columns (117 at most).
 * Returns the number of (distribution, algorithm) rows (0: nothing
 * printed, the run has no bulk results at 16 B or 16 KiB), or -1 with err
 * set. */
long summary_fastest(FILE *f, sqlite3 *db, int64_t run_id,
		     const char *db_path, bo_err *err);

/* What `benchorch run` prints on F at the end of run RUN_ID: with FMT
 * table, summary_fastest (naming DB_PATH in its closing line unless it is
 * the default database); with csv or json, the point table of
 * summary_print. Returns the rows printed, or -1 with err set. */
long summary_run(FILE *f, sqlite3 *db, int64_t run_id, enum format fmt,
		 const char *db_path, bo_err *err);

/* Number of results of RUN_ID stored with verified = 0 (-1 on error). */
long summary_unverified(sqlite3 *db, int64_t run_id);

/* Measurements (results and key setups) of RUN_ID that were noisy: the
 * coefficient of variation of all their samples exceeded the guest's
 * limit (noisy = 1). Returns the count and the number of measurements in
 * *ret_total, or -1 on a database error. */
long summary_noisy(sqlite3 *db, int64_t run_id, long *ret_total);

/* Curves of RUN_ID whose contention canary moved in the sweep stored
 * (canaries.moved = 1: the guest measured them again and the canary moved
 * again). Returns the count and the number of curves with a canary in
 * *ret_total, or -1 on a database error. */
long summary_canaries_moved(sqlite3 *db, int64_t run_id, long *ret_total);

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
