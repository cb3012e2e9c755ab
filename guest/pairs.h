/* guest/pairs.h - paired estimates of one library's speed against
 * another's, from blocks measured taking turns (guest/interleave.h).
 *
 * In round r every library of a point times one block, one after the
 * other within milliseconds, so whatever moves the host over seconds
 * and minutes moves both blocks of a pair alike. The ratio of two
 * libraries is estimated from the per-round ratios
 *     q[r] = t_ref[r] / t_lib[r]
 * (t: ns per byte of the block, so q is LIB's throughput as a fraction of
 * REF's): the median of the q[r], and a distribution-free interval for
 * that median from the order statistics (the sign-test interval: for n
 * rounds, [q(k), q(n+1-k)] with the largest k such that
 * 2 P(Binomial(n, 1/2) <= k - 1) <= 0.05 covers the median with at least
 * 95 % probability; W. J. Conover, Practical Nonparametric Statistics,
 * 3rd ed., 1999, section 3.2). The rounds' ratios are used as they are,
 * not averaged over the run: the median is robust to a block disturbed
 * in one round, and an interval from the order statistics assumes no
 * distribution. Only libc (no libm): order statistics are the same for a
 * ratio and its logarithm.
 */
#ifndef GUEST_PAIRS_H
#define GUEST_PAIRS_H

#include <stdbool.h>
#include <stddef.h>

/* Most rounds a point is measured in (--rounds). */
#define PAIRS_MAX_ROUNDS 150

/* The estimate of one library against the reference. */
struct pair_est {
	double ratio;		/* median of the rounds' q, > 0: the library's
				 * throughput over the reference's */
	double low, high;	/* the interval of the median, low <= ratio
				 * <= high */
	double coverage;	/* its confidence, 0 .. 1 (>= 0.95 from 6
				 * rounds on; less below, see
				 * pairs_interval_rank) */
	unsigned rounds;	/* rounds both libraries have a block in */
	bool tie;		/* the interval holds 1: not told apart from
				 * the reference */
};

/* The rank K (1-based) of the lower end of the interval of a median from
 * N >= 1 values: the largest K with 2 P(Binomial(N, 1/2) <= K - 1) <=
 * 0.05, the interval being the K-th smallest to the K-th largest; 1 when
 * no K reaches 95 % (N < 6: the whole range). Its coverage,
 * 1 - 2 P(Binomial(N, 1/2) <= K - 1), into *COVERAGE when not NULL. */
unsigned pairs_interval_rank(unsigned n, double *coverage);

/* The index of the reference among NLIBS libraries: the one with the
 * lowest median ns per byte over the rounds it has. T holds, for library
 * l and round r, T[l * ROUNDS + r]: ns per byte of its block (> 0), or 0
 * for a round it has no block in. Returns -1 when no library has a
 * block. */
int pairs_reference(const double *t, size_t nlibs, unsigned rounds);

/* The estimate of library LIB against REF (each ROUNDS values of ns per
 * byte, 0 = no block in that round: the round is left out) into *E.
 * Returns 0, or -1 when no round has both (then *E is zeroed). */
int pairs_estimate(const double *ref, const double *lib, unsigned rounds,
		   struct pair_est *e);

#endif /* GUEST_PAIRS_H */
