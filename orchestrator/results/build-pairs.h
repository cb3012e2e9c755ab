/* build-pairs.h - rebuilt libraries against the shipped ones: a run's
 * pairs of each build with its shipped library (`run --builds`, pairs_v
 * with versus_build 'shipped', migration 21), one figure per point over
 * the run's invocations. The report (report-builds.c) and `results
 * --builds` (results-builds.c) print them. */
#ifndef BENCHORCH_BUILD_PAIRS_H
#define BENCHORCH_BUILD_PAIRS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* One build at one point of one run: its throughput as a fraction of its
 * shipped library's, from blocks that took turns. */
struct build_ratio {
	int64_t run_id;
	char *distro;		/* "debian:bookworm" */
	char *variant;		/* hw, nohw */
	char *library;		/* the shipped library's name: nettle */
	char *build;		/* the build's name: gcc-o0 */
	char *compiler;		/* as given to rebuild: gcc, clang */
	char *cflags;		/* the build's effective CFLAGS */
	char *algorithm;
	char *operation;	/* encrypt, decrypt, hash */
	char *mode;		/* bulk, oneshot */
	int64_t buffer_bytes;
	double ratio;		/* the median of the invocations' ratios */
	double low, high;	/* the widest of their intervals */
	double coverage;	/* the lowest of their coverages (0 .. 1) */
	int invocations;	/* how many paired this point */
	int tie;		/* 1: low <= 1 <= high, "same" */
};

/* The build ratios of the NRUNS runs in RUNS at BYTES bytes (every size
 * when BYTES is 0) into *RET (*RET_N of them), ordered by run,
 * distribution, variant, library, algorithm, operation, mode, size and
 * build; the caller frees them with build_ratios_free. A schema without
 * builds gives none. Returns 0, or -1 with err set on a database error. */
int build_ratios_load(sqlite3 *db, const int64_t *runs, size_t nruns,
		      int64_t bytes, struct build_ratio **ret, size_t *ret_n,
		      bo_err *err);

/* Free the N ratios V (NULL is ignored). */
void build_ratios_free(struct build_ratio *v, size_t n);

#endif
