/* report-builds.h - the report's table of rebuilt libraries against the
 * shipped ones (`run --builds`; the study's table: algorithm by build). */
#ifndef BENCHORCH_REPORT_BUILDS_H
#define BENCHORCH_REPORT_BUILDS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

/* Write to F a <section id="builds">: for each run of the NRUNS in RUNS,
 * distribution, variant and library with builds, a table of algorithms
 * (rows: bulk encryption or hashing at BYTES bytes) by build (columns,
 * headed by compiler and CFLAGS), each cell the build's throughput as a
 * fraction of the shipped library's with its interval ("0.52 (0.50 ..
 * 0.55)"), "=" before it where the interval holds 1. Writes nothing when
 * no run has a build paired with its shipped library (or the schema has
 * no builds). Returns the number of cells written, or -1 with err set on
 * a database error. */
long report_write_builds(FILE *f, sqlite3 *db, const int64_t *runs,
			 size_t nruns, int64_t bytes, bo_err *err);

#endif
