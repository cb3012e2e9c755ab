/* paired-verdict.h - a verdict on one curve from paired rounds: the new
 * side (an image, a build, a package update) against the base, both
 * measured in the same rounds, block by block (DESIGN.md, "What is
 * compared is measured interleaved, and judged in pairs").
 *
 * A round gives, at each of a few buffer sizes, the paired difference of
 * log throughput d = ln(new MB/s) - ln(base MB/s) of two blocks measured
 * milliseconds apart, so that a drift of the host shared by both cancels.
 * The round's statistic is the median of d over the sizes
 * (pv_round_stat): one size alone cannot move a curve. The effect is the
 * mean of the rounds' statistics, its standard error their standard
 * deviation over sqrt(rounds), with Student's t (rounds - 1 degrees of
 * freedom) - the rounds are the replicates (Kalibera and Jones,
 * "Rigorous benchmarking in reasonable time", ISMM 2013: replicate at the
 * level where the variation is).
 *
 * The decision is sequential, at looks after PV looks' rounds
 * (pv_is_look: min_rounds, then doubling up to max_rounds), each look
 * at alpha / (number of looks) so that looking again does not spend more
 * than alpha in all (Bonferroni), and alpha itself divided among the
 * tested library's curves (ntested; the untouched libraries, the
 * controls, are judged and reported but do not widen it):
 *  - slower / faster: p <= the look's alpha and |effect| >= threshold;
 *  - same: the 90 % interval lies inside +-threshold (two one-sided
 *    tests, an equivalence test: Schuirmann, J. Pharmacokinet.
 *    Biopharm. 15(6), 1987);
 *  - otherwise more rounds, up to max_rounds; then undecided.
 * Models: duet benchmarking (Bulej et al., "Duet benchmarking: improving
 * measurement accuracy in the cloud", Empirical Software Engineering 25,
 * 2020) and Chromium Pinpoint's DIFFERENT / SAME / UNKNOWN. */
#ifndef BENCHORCH_PAIRED_VERDICT_H
#define BENCHORCH_PAIRED_VERDICT_H

#include <stddef.h>

enum pv_verdict {
	PV_MORE = 0,		/* not decided yet: measure more rounds */
	PV_SLOWER,		/* the new side is slower */
	PV_FASTER,		/* the new side is faster */
	PV_SAME,		/* within +-threshold (equivalent) */
	PV_UNDECIDED		/* max_rounds reached, neither */
};

/* How to judge. */
struct pv_params {
	double threshold;	/* smallest effect that matters, a fraction
				 * (0.02 = 2 %), > 0 */
	double alpha;		/* error rate of the tested library's
				 * curves, all looks included (0.05) */
	unsigned ntested;	/* curves of the tested library, >= 1 */
	unsigned min_rounds;	/* the first look, >= 3 */
	unsigned max_rounds;	/* the last look, >= min_rounds */
};

/* A curve's verdict after some rounds. Effects are fractions of the base's
 * throughput: -0.05 is 5 % slower (exp of the mean log ratio, minus 1). */
struct pv_result {
	enum pv_verdict verdict;
	unsigned rounds;	/* rounds judged */
	double effect;		/* the mean effect */
	double low, high;	/* its 95 % interval */
	double p;		/* two-sided p-value of "no effect" */
	double mde;		/* the minimum detectable effect at these
				 * rounds: the effect this look would find
				 * with 80 % power, a fraction > 0 */
};

/* The statistic of one round: the median of the NSIZES (>= 1) paired log
 * differences D (ln new - ln base, one per buffer size), in the same
 * unit. D is not changed. */
double pv_round_stat(const double *d, size_t nsizes);

/* 1 when ROUNDS is a look of P (min_rounds, 2 min_rounds, 4 ...,
 * max_rounds), else 0. */
int pv_is_look(unsigned rounds, const struct pv_params *p);

/* The number of looks of P. */
unsigned pv_looks(const struct pv_params *p);

/* Judge the ROUNDS round statistics M (pv_round_stat's, log ratios) by P
 * into *R. Between looks, and below min_rounds, the verdict is PV_MORE
 * (the figures are still filled from 2 rounds on). */
void pv_judge(const double *m, unsigned rounds, const struct pv_params *p,
	      struct pv_result *r);

/* Judge a curve whose mean round statistic is MEAN (a log ratio) with
 * standard error SE (same unit) on DF (>= 1) degrees of freedom, after
 * ROUNDS rounds, by P into *R, as pv_judge does from the rounds. */
void pv_decide(double mean, double se, double df, unsigned rounds,
	       const struct pv_params *p, struct pv_result *r);

/* The rounds of a curve split by the pairs of processes (guests) that
 * measured them: the two levels of its variance (Kalibera and Jones,
 * ISMM 2013: rounds within a process, and processes). A process pair
 * may carry a bias of its own (placement) that pairing within it
 * cannot see; the rounds of two or more pairs estimate it. */
struct pv_levels {
	unsigned rounds;	/* rounds in all */
	unsigned groups;	/* process pairs with at least one round */
	double mean;		/* mean round statistic, log ratio */
	double ss_within;	/* sum of squares about each pair's mean */
	double q_between;	/* sum over pairs of rounds x (pair mean -
				 * mean)^2 */
	double n0;		/* the between variance's coefficient in
				 * E[q_between]: rounds - sum n_j^2 / rounds */
	double weight2;		/* sum over pairs of (n_j / rounds)^2: the
				 * share of the between variance left in
				 * the mean */
};

/* The levels of the ROUNDS round statistics M, whose pair j begins at
 * round START[j] (NSTART ascending starts, START[0] = 0; the last pair
 * runs to ROUNDS; starts at or past ROUNDS are ignored; START NULL or
 * NSTART 0: one pair) into *L. */
void pv_levels(const double *m, unsigned rounds, const unsigned *start,
	       unsigned nstart, struct pv_levels *l);

/* Judge the curve of L by P into *R, with a standard error of its mean
 * from both levels: the variance within pairs over the rounds, plus
 * VAR_BETWEEN (the variance of a process pair's bias, log ratio squared,
 * pooled over curves by the caller; negative counts as 0) times
 * L->weight2; degrees of freedom rounds - groups. With one pair, as
 * pv_judge. */
void pv_judge_levels(const struct pv_levels *l, double var_between,
		     const struct pv_params *p, struct pv_result *r);

/* "slower", "faster", "same", "undecided" or "more". Static. */
const char *pv_verdict_name(enum pv_verdict v);

#endif
