/* compare-ops.h - what compare shows of the public-key and key
 * derivation results two runs both have: the ratio of their rates, a
 * description only. The two runs measured them minutes (or days) apart,
 * not taking turns, so no ratio is judged a regression or an
 * improvement, and none counts for --fail-on-regression: a duet
 * (`benchorch duet`) measures two libraries side by side. */
#ifndef BENCHORCH_COMPARE_OPS_H
#define BENCHORCH_COMPARE_OPS_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"
#include "orchestrator/results/ops-load.h"

/* The words every output of the ratios carries. */
#define COMPARE_OPS_NOTE "measured minutes apart: not a verdict; use a duet"

/* One result present in both runs: the same distribution, variant,
 * build, library, algorithm and operation (key derivation: cost
 * parameters). BASE and NEW borrow their run's row. */
struct compare_op {
	const struct ops_row *base, *new;
	double ratio;		/* new ops/s over base ops/s */
};

/* The ratios of one kind. Owns the rows and the pairs. */
struct compare_ops_kind {
	struct ops_row *base_rows, *new_rows;
	size_t nbase, nnew;
	struct compare_op *pairs;	/* in the new run's row order */
	size_t npairs;
};

/* Both kinds, for runs BASE_RUN and NEW_RUN. */
struct compare_ops {
	int64_t base_run, new_run;
	struct compare_ops_kind pubkey, kdf;
};

/* Pair the public-key and key derivation results (ops_rows_load) of
 * NEW_RUN with BASE_RUN's in DB into *RET (release with
 * compare_ops_free); a result in one run only is left out. A schema
 * that predates them gives no pairs. Returns the number of pairs of both
 * kinds, or -1 with err set on a database error (*RET then holds
 * nothing to release). */
long compare_ops_load(sqlite3 *db, int64_t base_run, int64_t new_run,
		      struct compare_ops *ret, bo_err *err);

void compare_ops_free(struct compare_ops *c);

/* Print C to F as compare's table output ends: nothing without pairs;
 * else per kind with pairs a heading that says COMPARE_OPS_NOTE and an
 * aligned table: distro, library (LIBRARY@BUILD for a build), algorithm,
 * operation (parameters), base and new ops/s (fmt_ops), ratio new/base
 * (x0.80), and "NO" under "verified" when either side was not. */
void compare_ops_print_table(FILE *f, const struct compare_ops *c);

/* Print C to F as CSV (RFC 4180, CRLF): the header kind, distro,
 * variant, build, library, algorithm, operation, base_ops_per_s,
 * new_ops_per_s, ratio, base_verified, new_verified, base_version,
 * new_version, note, then one row per pair (kind "pubkey" or "kdf";
 * note COMPARE_OPS_NOTE). */
void compare_ops_print_csv(FILE *f, const struct compare_ops *c);

/* A new JSON object {"pubkey": [...], "kdf": [...], "ops_note":
 * COMPARE_OPS_NOTE}, each array one object per pair with distro,
 * variant, build, library, algorithm, operation, base_ops_per_s,
 * new_ops_per_s, ratio, base_verified, new_verified, base_version,
 * new_version and "verdict": null (never a regression or improvement).
 * The caller json_decref()s it. */
json_t *compare_ops_json(const struct compare_ops *c);

#endif
