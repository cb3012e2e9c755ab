/* duet-judge.h - the verdicts of a duet: per curve (library, algorithm,
 * operation, mode), the new image against the base from the blocks the
 * two guests measured in paired turns (duet-run.h), by the paired
 * verdict engine (orchestrator/results/paired-verdict.h). */
#ifndef BENCHORCH_DUET_JUDGE_H
#define BENCHORCH_DUET_JUDGE_H

#include <stddef.h>

#include "lib/guest_output.h"
#include "orchestrator/results/paired-verdict.h"

/* The sizes a curve's round statistic takes the median over, when the
 * curve has more than DUET_ALL_SIZES_MAX sizes: 16 B, 256 B, 4 KiB,
 * 64 KiB and 1 MiB, a size per decade or so, each curve's published
 * sizes kept whole. With fewer sizes (--quick: 4), all of them. */
#define DUET_ALL_SIZES_MAX 6

/* One curve's verdict. Strings are borrowed from the new side's output. */
struct duet_curve {
	const char *library, *algorithm, *operation, *mode;
	int tested;		/* 1: a library under test; 0: a control */
	size_t nsizes;		/* sizes in the round statistic */
	struct pv_result r;	/* effect, interval, verdict, rounds, mde */
};

/* How to judge. */
struct duet_judge_params {
	double threshold;	/* the smallest effect that matters, a
				 * fraction (0.02) */
	double alpha;		/* per library, over its curves (0.05) */
	/* Libraries under test (NULL-terminated names), or NULL: every
	 * library is under test. The others are controls: judged the same
	 * way and reported, never counted as a regression. */
	const char *const *tested;
	/* The looks (pv_params): the first after FIRST_LOOK rounds, the
	 * last at MAX_ROUNDS (>= FIRST_LOOK), doubling between them; 0 and
	 * 0: one look at the rounds a curve has. */
	unsigned first_look, max_rounds;
	/* The pairs of guests the rounds come from: pair j measured rounds
	 * PASS_START[j] .. PASS_START[j + 1] - 1 of every curve it measured
	 * (NPASSES ascending starts, the first 0), or NULL and 0: one pair.
	 * With two pairs or more, a curve's interval holds the variance
	 * between pairs too, pooled over its library's curves of its mode
	 * (pv_judge_levels). */
	const unsigned *pass_start;
	unsigned npasses;
};

/* Pair the results of BASE and NEW (two guests' outputs of one duet,
 * whose result lines hold one sample per round, in round order) point by
 * point, and judge each curve both have: per round, the median over its
 * sizes of ln(new MB/s) - ln(base MB/s) (the same point's blocks of the
 * same round), judged over the rounds by pv_judge at P's looks (or one
 * look at the rounds measured; at least 3: a curve with fewer is left
 * out), alpha divided among the library's curves. With P's pairs of
 * guests, the standard error adds the variance of a pair's bias, pooled
 * over the library's curves of the same mode (bulk, oneshot):
 * sum(q_between - (groups - 1) var_within) /
 * sum(n0), at least 0 (one-way random effects, moment estimate). A curve between looks
 * or short of the last look undecided is PV_MORE: measure more rounds
 * (duet-pass.h). Returns the count and *ret, sorted
 * by library, algorithm, operation and mode (caller frees the array; its
 * strings stay owned by NEW); *ret is NULL when 0. */
size_t duet_judge(const struct guest_output *base,
		  const struct guest_output *new_out,
		  const struct duet_judge_params *p, struct duet_curve **ret);

/* Whether LIBRARY is one of the NULL-terminated TESTED (duet_judge_params
 * .tested); every library is when TESTED is NULL. 1 or 0. */
int duet_is_tested(const char *const *tested, const char *library);

/* The median of the curves' minimum detectable effects (fractions), of
 * the tested libraries' curves only when TESTED_ONLY; 0 when none. */
double duet_median_mde(const struct duet_curve *c, size_t n,
		       int tested_only);

#endif /* BENCHORCH_DUET_JUDGE_H */
