/* verdict-load.h - what the verdict engine reads from the database: the
 * points of each side, the history of earlier runs, the canaries that
 * moved, the package changes and the caveats of a comparison. Internal to
 * verdict*.c. */
#ifndef BENCHORCH_VERDICT_LOAD_H
#define BENCHORCH_VERDICT_LOAD_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"
#include "orchestrator/results/verdict.h"

/* The fields naming a curve, in sort order. */
enum { VK_DISTRO, VK_LIBRARY, VK_ALGORITHM, VK_OPERATION, VK_MODE,
       VK_VARIANT, VK_N };

/* One stored point of one invocation. */
struct vrow {
	char *k[VK_N];		/* the curve's name, owned */
	int64_t bytes;		/* buffer size */
	int64_t inv;		/* invocation id */
	int64_t run;		/* run id */
	char *started;		/* the run's start, ISO 8601 (history only) */
	double logthr;		/* natural log of the throughput, MB/s */
	double clock_hz;	/* mean measured core clock of the
				 * invocation, Hz; 0 when not stored */
	double logcan;		/* natural log of the contention canary's
				 * time around the curve in the
				 * invocation (mean of its medians before
				 * and after, ns); NAN when not stored */
	char *package, *version;	/* the library's package, owned */
};

struct vrows {
	struct vrow *v;
	size_t n;
};

/* Compare two rows' curve names field by field (strcmp order). */
int vrow_key_cmp(const struct vrow *a, const struct vrow *b);

/* Points of SEL in DB, sorted by curve, size and invocation. ANY_VARIANT
 * stores "*" as every row's variant (sides that share no variant are
 * matched regardless of it). Returns 0 or -1 with err set. */
int vload_side(sqlite3 *db, struct verdict_sel sel, int any_variant,
	       struct vrows *ret, bo_err *err);

/* The points of the history of a comparison of BASE against NEW: runs on
 * the CPU of BASE's run, of its quick flag, that started no later than
 * NEW's run, other than NEW's run (and BASE's when both sides are the same
 * run), sorted by curve, then newest run first, then size. Returns 0 or -1
 * with err set. */
int vload_history(sqlite3 *db, struct verdict_sel base, struct verdict_sel new,
		  int any_variant, struct vrows *ret, bo_err *err);

void vrows_free(struct vrows *r);

/* Curve names (as "distro|library|algorithm|operation|mode|variant",
 * variant "*" when ANY_VARIANT) whose canary moved in SEL: a sorted array
 * of owned strings in *ret (NULL for none), its length in *ret_n. A
 * schema without canaries (db_has 0) gives none. Returns 0, or -1 with
 * err set on a database error (*ret NULL, *ret_n 0). */
int vload_moved_canaries(sqlite3 *db, struct verdict_sel sel,
			 int any_variant, char ***ret, size_t *ret_n,
			 bo_err *err);

/* The variants SEL measured, sorted and joined with ',' ("" for none),
 * as an owned string in *ret. Returns 0, or -1 with err set (*ret NULL)
 * on a database error. */
int vload_variants(sqlite3 *db, struct verdict_sel sel, char **ret,
		   bo_err *err);

/* Append to R->caveats what makes the two sides not alike: --quick on one
 * side only, other repetitions or --min-batch-ms, other variants, other
 * CPUs, CPU warnings stored with either run. Returns 0, or -1 with err
 * set on a database error (the caveats appended before it stay). */
int vload_caveats(sqlite3 *db, struct verdict_result *r,
		  const char *base_variants, const char *new_variants,
		  bo_err *err);

/* Append a caveat (printf format) to R. */
void verdict_add_caveat(struct verdict_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Does SEL exist in DB (the run, and the image in that run)? 0 yes; -2
 * no, -1 on a database error, both with err set. */
int vload_check_sel(sqlite3 *db, struct verdict_sel sel, bo_err *err);

#endif
