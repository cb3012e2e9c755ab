/* results-points.h - the points `benchorch results` prints: the query
 * of the stored points a set of filters selects, and the human table of
 * them (split from cmd-results.c). */
#ifndef BENCHORCH_RESULTS_POINTS_H
#define BENCHORCH_RESULTS_POINTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "lib/format.h"
#include "lib/util.h"

/* What results selects: --all or --latest (flags), the --run ids (RUNS,
 * NRUNS; none: the latest run), and the filters of one value each (NULL,
 * or SIZE 0: any). The pointers are borrowed. */
struct filters {
	int all, latest;
	int64_t *runs;
	size_t nruns;
	const char *distro, *lib, *algo, *op;
	int64_t size;		/* bytes; 0 = any */
};

/* Prepare in *ST (sqlite3_finalize) the query of the points F selects in
 * DB (at PATH, for the messages): with FMT table the columns people read
 * (for results_print_human), else the stored columns (format_stmt), then
 * mode, variant, p25_ns, p75_ns, cv, noisy and cycles_per_byte; its
 * parameters bound. Returns 0, or EXIT_ENV after printing "benchorch:
 * database error in 'PATH': ..." (*ST NULL). */
int results_prepare_points(sqlite3 *db, const char *path,
			   const struct filters *f, enum format fmt,
			   sqlite3_stmt **st);

/* Print the rows of ST (prepared with FMT table) on OUT as the human
 * table, after a line per run on its CPU state and its warnings. A
 * throughput of a noisy point gets a '~'; *RET_NOISY counts them.
 * Returns the rows printed, or -1 with err set on a database error. */
long results_print_human(FILE *out, sqlite3_stmt *st, long *ret_noisy,
			 bo_err *err);

#endif
