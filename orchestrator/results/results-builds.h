/* results-builds.h - `benchorch results --builds`: each rebuilt library
 * against its shipped one, from the pairs of `run --builds`
 * (build-pairs.h). */
#ifndef BENCHORCH_RESULTS_BUILDS_H
#define BENCHORCH_RESULTS_BUILDS_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* Which figures to print. */
struct builds_filter {
	int all;		/* every run with builds */
	const int64_t *runs;	/* these runs (nruns > 0), else the latest
				 * run with builds */
	size_t nruns;
	const char *distro;	/* NAME or NAME:RELEASE, NULL = any */
	const char *lib;	/* shipped library name, NULL = any */
	const char *algo;	/* algorithm, NULL = any */
	const char *op;		/* encrypt, decrypt, hash; NULL = any */
	int64_t bytes;		/* buffer size; 0 = 16384 in a table,
				 * every size in csv and json */
};

/* Print to OUT in FMT the build ratios of DB that F selects. The table:
 * per run, distribution, variant and library a block with a heading
 * line, then one row per algorithm and operation (bulk; encryption and
 * hashing unless F's op says which), one column per build, "0.52 (0.50..0.55)" the build's throughput as a fraction of the
 * shipped library's with its interval, "=" before it where that holds 1.
 * csv and json: one row per point and build with the columns run_id,
 * distro, variant, library, build, compiler, cflags, algorithm,
 * operation, mode, buffer_bytes, ratio, low, high, coverage, tie,
 * invocations (an empty csv prints its header, json []). Returns the
 * number of figures (0 also for a schema without builds), or -1 with err
 * set on a database error. */
long results_builds(FILE *out, sqlite3 *db, const struct builds_filter *f,
		    enum format fmt, bo_err *err);

/* One line to OUT per build of run RUN_ID paired with its shipped
 * library: "benchorch: run N: build LIB@NAME (DISTRO): 0.46 of the
 * shipped library's throughput at 16 KiB (the median over A algorithms,
 * bulk encryption and hashing): S slower, T same, F faster; `benchorch
 * results --builds --run N` shows them", or nothing when it has none.
 * Returns the number of builds (0: nothing printed), or -1 with err set
 * on a database error. */
long results_builds_line(FILE *out, sqlite3 *db, int64_t run_id,
			 bo_err *err);

#endif
