/* verdict.h - per-curve verdicts between two stored measurements (two
 * runs, or two images of one run): is a curve's throughput changed, by
 * how much, how sure, and against which noise (orchestrator/results/verdicts.md). */
#ifndef BENCHORCH_VERDICT_H
#define BENCHORCH_VERDICT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "orchestrator/results/pkgchanges.h"
#include "lib/util.h"

/* Default false discovery rate of the Benjamini-Hochberg step over the
 * curves compared. */
#define VERDICT_DEFAULT_ALPHA 0.05
/* Smallest change (a fraction) reported, whatever its p-value. */
#define VERDICT_DEFAULT_THRESHOLD 0.03
/* Noise (standard deviation of a curve's log-ratio effect) assumed when a
 * curve has neither two invocations on a side nor history: 5 %, half the
 * +-10 % that `openssl speed` itself moved between runs seconds apart on
 * the machines this project runs on (DESIGN.md, "Noise"). Deliberately
 * large: without a measured noise only large changes are reported. */
#define VERDICT_NOISE_FALLBACK 0.05
/* Lower bound of any measured noise (0.5 %): a few invocations can agree
 * by chance far better than the machine repeats. */
#define VERDICT_NOISE_MIN 0.005
/* Curves of the other libraries a comparison needs for the noise across
 * curves. The median absolute deviation of 12 normal values has a
 * standard error of about a third of the spread it estimates (its
 * efficiency is 37 %: SE ~ 1 / sqrt(2 x 0.37 x 12)): a floor against
 * a shared drift, not a precise noise. */
#define VERDICT_ACROSS_MIN 12
/* History: at most this many earlier runs per curve, newest first. */
#define VERDICT_HISTORY_RUNS 10
/* Bootstrap replicates per curve. */
#define VERDICT_BOOTSTRAP_REPS 1000

/* Which stored measurements one side of a comparison is: a run, and
 * optionally one image of it (0 = every image the run measured). Two
 * images of one run compare the previous and the new image measured in
 * alternating rounds. */
struct verdict_sel {
	int64_t run;
	int64_t image;
};

/* Where a curve's noise came from. */
enum verdict_noise_source {
	VERDICT_NOISE_INVOCATIONS,	/* the two runs' own invocations */
	VERDICT_NOISE_HISTORY,		/* earlier runs, same CPU and package */
	VERDICT_NOISE_ASSUMED,		/* neither: VERDICT_NOISE_FALLBACK */
	VERDICT_NOISE_CURVES,		/* no history: the spread of every
					 * curve's effect (larger than the
					 * others) */
};

/* Which part of the curve the decisive effect was measured on. */
enum verdict_shape {
	VERDICT_SHAPE_SHIFT,	/* every size: a shift of the whole curve */
	VERDICT_SHAPE_STARTUP,	/* the smaller half of the sizes: start-up
				 * cost (the fit's overhead dominates) */
	VERDICT_SHAPE_PERBYTE,	/* the larger half: cost per byte */
};

enum verdict_state {
	VERDICT_UNCHANGED,	/* no change beyond noise and threshold */
	VERDICT_CHANGED,	/* q <= alpha and |effect| >= threshold */
	VERDICT_CONFIRMED,	/* changed, and held by the finished
				 * confirmation run of the new run when
				 * that measured the curve; else held in
				 * both halves of each side's invocations
				 * and beyond every change seen in
				 * history */
	VERDICT_FLAGGED,	/* a contention canary moved: no verdict */
};

/* The verdict on one curve: (distro, library, algorithm, operation, mode,
 * variant) measured on both sides. Strings owned by the result. */
struct verdict_curve {
	char *distro;		/* "debian:bookworm" */
	char *library, *algorithm, *operation, *mode, *variant;
	char *package;		/* package shipping the library, "" unknown */
	char *base_version, *new_version;	/* its versions on each side */
	size_t nsizes;		/* buffer sizes measured on both sides */
	size_t base_inv, new_inv;	/* invocations that measured it */
	double effect;		/* new/base throughput - 1, a fraction: the
				 * median over the shape's sizes of the
				 * log-ratio of mean log throughputs */
	double ci_low, ci_high;	/* 95 % interval of effect, fractions */
	double p, q;		/* two-sided p-value; Benjamini-Hochberg q */
	enum verdict_shape shape;
	double noise;		/* SD of the log effect used, log units */
	double noise_within;	/* from the invocations; -1 when none */
	double noise_history;	/* from history (moderated by its
				 * library's); -1 when none */
	double noise_df;	/* degrees of freedom of noise: of Student's
				 * t the p-value and interval came from
				 * (1e6: the noise was taken as known) */
	enum verdict_noise_source source;
	int history_runs;	/* earlier runs the history used */
	double clock_ratio;	/* new/base mean measured core clock; 0
				 * when a side stored none */
	double regime_slope;	/* the slope the curve's points were
				 * adjusted for the host's speed by (log
				 * throughput per log canary time, <= 0;
				 * 0: not adjusted; verdict-regime.h) */
	int canary_moved;	/* a canary moved in either side */
	int confirmation;	/* changed curves only: 1 the confirmation
				 * run found the same change, 0 it measured
				 * the curve and did not, -1 it did not
				 * measure it or there is none */
	int paired;		/* 1: the duet of a confirmation decided
				 * the curve, its library under test there
				 * (its package or build differs between
				 * the previous and the new image) */
	int halves;		/* 1 held in both halves, 0 did not, -1 not
				 * testable (a side has one invocation) */
	enum verdict_state state;
};

/* Per library, the smallest change this comparison could report: the
 * minimum detectable effect at 80 % power for a two-sided 5 % test
 * ((1.96 + 0.84) x the median noise of its curves), never below the
 * threshold. A fraction. */
struct verdict_mde {
	char *library;
	double mde;
};

/* Everything verdict_compare found; all memory owned by the struct. */
struct verdict_result {
	struct verdict_sel base, new;
	double threshold, alpha;	/* fractions */
	char *base_variant, *new_variant;	/* each side's variants, sorted,
					 * ','-joined ("hw", "nohw", "hw,nohw") */
	size_t ncurves, nchanged, nconfirmed, nflagged;
	size_t nregressions, nimprovements;	/* of the changed */
	size_t nconfirmed_regressions;
	int64_t confirm_run;	/* the finished confirmation run of the
				 * new run whose verdicts decided
				 * "confirmed"; 0 none */
	struct verdict_curve *curves;	/* sorted by distro, library, ... */
	struct package_change *changes;	size_t nchanges;
	struct verdict_mde *mdes;	size_t nmdes;
	char **caveats;			size_t ncaveats;
};

/* Judge every curve measured on both sides BASE and NEW in DB (schema 5 or
 * later), with THRESHOLD and ALPHA (fractions). The method, noise model
 * and states are those of orchestrator/results/verdicts.md. When both sides are
 * whole runs (image 0) and a finished confirmation run of NEW.run exists
 * (db_confirmed_by; schema 12 or later), a changed curve that run
 * measured is confirmed exactly when the confirmation's own verdict
 * (its previous image against its new one, or BASE.run against it when
 * it had no previous image) found the same curve changed in the same
 * direction; a caveat names the changes it did not hold. When that
 * confirmation ran a duet of the previous against the new image, the
 * duet's paired verdicts stand for the curves of its libraries under
 * test, changed or not (verdict_apply_duet). Returns 0 with *ret filled
 * (free with verdict_result_free), or -1 with err set (a run or image
 * that does not exist, a schema too old, a database error). */
int verdict_compare(sqlite3 *db, struct verdict_sel base, struct verdict_sel new,
		    double threshold, double alpha, struct verdict_result *ret,
		    bo_err *err);

void verdict_result_free(struct verdict_result *r);

/* The confirmed regressions of R that a gate (compare
 * --fail-on-regression) fails on: those with something that differs
 * between the sides to explain them - the library's package version (or
 * a package benchorch does not know, so cannot rule out), the variant
 * (hw against nohw), two images compared within runs, or a curve a
 * confirmation's duet decided (paired: its library's package or build
 * differs between the previous and the new image). Without any
 * such difference a confirmed regression is the host's drift: the
 * nightly comparison is then a drift screen and does not fail by itself
 * (issue "Side by side"; orchestrator/results/verdicts.md, "Confirmed").
 * Returns their count. */
size_t verdict_gating_regressions(const struct verdict_result *r);

/* Store R in DB (schema 11 or later, opened for writing) as one row of
 * verdicts (SOURCE: "compare", "daemon" or "confirm") and one row of
 * verdict_curves per curve, replacing a verdict stored before for the
 * same sides, source, threshold and alpha (and its curves). *ret_id gets
 * the verdict's id when not NULL. Returns 0, or -1 with err set. */
int verdict_store(sqlite3 *db, const struct verdict_result *r,
		  const char *source, int64_t *ret_id, bo_err *err);

const char *verdict_state_name(enum verdict_state s);
const char *verdict_shape_name(enum verdict_shape s);
const char *verdict_source_name(enum verdict_noise_source s);

#endif
