/* db/resources.h - store what each library's process cost besides time:
 * CPU time, peak and footprint resident set, and the peak per algorithm
 * (tables library_resources and algorithm_resources, migration 9). */
#ifndef BENCHORCH_DB_RESOURCES_H
#define BENCHORCH_DB_RESOURCES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* One algorithm's memory in one library's process, derived from the
 * high-water mark the guest reported after each point (maxrss_kib of its
 * results, in the order printed). */
struct db_algo_peak {
	const char *library, *algorithm;	/* borrowed from the output */
	int64_t peak_kib;	/* the mark after the algorithm's last point,
				 * KiB */
	int64_t raise_kib;	/* how far the algorithm raised the mark above
				 * where it stood before its first point
				 * (the library's footprint, or the peak of
				 * the algorithms before it), KiB, >= 0;
				 * -1 when the library has no footprint */
};

/* The per-algorithm peaks of OUT, one per (library, algorithm) with at
 * least one result carrying maxrss_kib, in the order of OUT's results,
 * into *RET (caller frees the array, not the strings). Returns the count;
 * *RET is NULL when 0. */
size_t db_algo_peaks(const struct guest_output *out, struct db_algo_peak **ret);

/* Insert the resource rows of OUT for invocation INV_ID: one row of
 * library_resources per library with a footprint or an rusage entry, and
 * db_algo_peaks' rows in algorithm_resources. Zero sizes (unknown) are
 * stored NULL. Call inside the caller's transaction. Returns 0, or -1
 * with err set. */
int db_store_resources(sqlite3 *db, int64_t inv_id,
		       const struct guest_output *out, bo_err *err);

#endif
