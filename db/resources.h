/* db/resources.h - store what each library's process cost besides time:
 * CPU time, peak and footprint resident set, and the peak per algorithm
 * (tables library_resources and algorithm_resources, migration 9). */
#ifndef BENCHORCH_DB_RESOURCES_H
#define BENCHORCH_DB_RESOURCES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* Insert the resource rows of OUT for invocation INV_ID: one row of
 * library_resources per library with a footprint or an rusage entry, and
 * one row of algorithm_resources per peak of JUDGED (its algo_peaks,
 * guest_output_algo_peaks). Zero sizes (unknown) are stored NULL. Call
 * inside the caller's transaction. Returns 0, or -1 with err set. */
int db_store_resources(sqlite3 *db, int64_t inv_id,
		       const struct guest_output *out,
		       const struct guest_judgement *judged, bo_err *err);

#endif
