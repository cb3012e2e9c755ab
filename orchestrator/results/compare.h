/* compare.h - compare two runs point by point: change in median
 * throughput, its significance, and the package versions that changed. */
#ifndef BENCHORCH_COMPARE_H
#define BENCHORCH_COMPARE_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "orchestrator/results/pkgchanges.h"
#include "lib/stats.h"
#include "lib/util.h"

/* Default threshold: changes of at most 3 % are noise. */
#define COMPARE_DEFAULT_THRESHOLD 0.03

/* One (distro, library, algorithm, operation, size) measured in both runs.
 * Throughputs in MB/s (10^6 B/s). */
struct compare_point {
	char *distro;		/* "debian:bookworm" */
	char *library, *algorithm, *operation;
	char *mode;		/* "bulk" or "oneshot" */
	char *package;		/* package shipping the library, or "" */
	char *base_version, *new_version;	/* its package versions */
	int64_t bytes;		/* buffer size */
	struct stats_point base, new;	/* median and best MB/s, and the raw
					 * samples in MB/s when stored */
	double *base_samples, *new_samples;	/* owned; NULL when none */
	struct stats_verdict v;
	int kind;		/* -1 regression, +1 improvement, 0 neither */
};

/* Everything compare_runs found; all memory owned by the struct. */
struct compare_result {
	int64_t base_run, new_run;
	char *base_variant;	/* the run's variants ("hw", "nohw", "hw,nohw";
				 * "" without results), owned */
	char *new_variant;
	double threshold;	/* fraction */
	size_t npoints, nchanges, nregressions, nimprovements;
	size_t nranked;		/* points judged by the rank test */
	struct compare_point *points;	/* sorted by distro, library, ... */
	struct package_change *changes;	/* sorted by distro, package */
};

/* Compare run NEW_RUN against BASE_RUN in DB: every point present in both
 * (matched on distro, release, library, algorithm, operation and buffer
 * size; points in only one run are ignored), judged by stats_compare with
 * THRESHOLD (a fraction) - on the raw samples of both points (table
 * samples, as MB/s) where stored, so that the rank test decides - plus
 * every image package whose version changed per distro. Returns 0 with *ret filled (free with compare_result_free),
 * or -1 with err set (a run id that does not exist, database error). */
int compare_runs(sqlite3 *db, int64_t base_run, int64_t new_run,
		 double threshold, struct compare_result *ret, bo_err *err);

void compare_result_free(struct compare_result *r);

/* The runs `compare --latest 2` compares, among the finished library
 * runs (latest_runs_v, kind 'library': by start time, then id):
 * *ret_new the latest (latest_pick, which says on stderr which newer
 * runs it skipped), *ret_base the most recent before it made alike
 * (db_base_run: the same --quick flag, --nohw or not, --interleave or
 * not). Returns 0; -2 with err set when
 * there is no such pair; -1 with err set on a database error. */
int compare_latest_two(sqlite3 *db, int64_t *ret_base, int64_t *ret_new,
		       bo_err *err);

/* Print R to F. FORMAT_TABLE: a header naming each run's variants (and
 * a note when the two runs share none: the changes are then the hardware
 * acceleration's), one aligned row per point (only significant ones
 * unless ALL_POINTS), then the regressions and improvements, each
 * with its library's package change, and every changed package per
 * distro. FORMAT_CSV: every point, one row each. FORMAT_JSON: one object
 * with base_variant, new_variant, points, regressions, improvements and
 * package_changes. */
void compare_print(FILE *f, const struct compare_result *r,
		   enum format fmt, int all_points);

/* The object FORMAT_JSON prints for R (a new reference: the caller
 * json_decref()s it). */
json_t *compare_json(const struct compare_result *r);

#endif
