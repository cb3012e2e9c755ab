/* results-resources.h - `benchorch results --resources`: what each
 * library's process cost besides time (library_resources and
 * algorithm_resources, migration 9). */
#ifndef BENCHORCH_RESULTS_RESOURCES_H
#define BENCHORCH_RESULTS_RESOURCES_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* Which rows to print. */
struct resources_filter {
	int all;		/* every run */
	const int64_t *runs;	/* these runs (nruns > 0), else the latest
				 * run with results */
	size_t nruns;
	const char *distro;	/* NAME or NAME:RELEASE, NULL = any */
	const char *lib;	/* library name, NULL = any */
	const char *algo;	/* NULL: one row per invocation and library;
				 * else that algorithm's peak per invocation
				 * and library */
};

/* Print the resource rows of DB matching F to OUT in FMT. The table shows
 * CPU times in ms and sizes in MiB; csv and json the stored columns (CPU
 * times in microseconds, sizes in KiB). Returns the number of rows
 * printed (0 = none match, also for a database whose schema predates
 * the figures), or -1 with err set on a database error. */
long results_resources(FILE *out, sqlite3 *db,
		       const struct resources_filter *f, enum format fmt,
		       bo_err *err);

#endif
