/* t7125-paired-verdict - the paired verdict of a curve
 * (orchestrator/results/paired-verdict.h) on synthetic rounds whose truth
 * is known: each round, base and new blocks at five sizes share a drift
 * of the host (tens of per cent, as DESIGN.md measured over minutes) and
 * each has noise of its own (2 % standard deviation, lognormal). Checked:
 * A/A over 400 curves is called slower or faster in at most 1 % of them
 * and same in most; a 5 % slowdown on every size is found as slower in at
 * least 95 % of 400 curves, its interval covering the truth in at least
 * 90 %; a 20 % shift at one size of five is not a curve's change; a 30 %
 * slowdown is decided at the first look; noise of 20 % stays undecided at
 * the cap; the looks double from min_rounds to max_rounds; the tested
 * library's curves divide alpha, the controls do not; with rounds from
 * two pairs of processes that each carry a bias, the interval of both
 * levels (pv_judge_levels) covers the truth where the rounds' alone
 * does not. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "orchestrator/results/paired-verdict.h"
#include "tests/tap.h"

#define SIZES 5
#define MAXR 40

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): uniform in (0, 1). */
static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box and Muller, Ann. Math. Statist. 29, 1958). */
static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* One curve: ROUNDS rounds of paired blocks at SIZES sizes; the new side
 * is SHIFT[s] (a fraction, -0.05 = 5 % slower) off the base at size s;
 * each block has noise NOISE (SD of its log); both share a drift per
 * round. Judged by P at each look until a verdict, into *R. */
static void curve(const double *shift, double noise, const struct pv_params *p,
		  struct pv_result *r)
{
	double m[MAXR], d[SIZES];

	for (unsigned k = 1; k <= p->max_rounds; k++) {
		double drift = 0.4 * normal();	/* x0.5 .. x2 */

		for (int s = 0; s < SIZES; s++) {
			double base = drift + noise * normal();
			double new = drift + log1p(shift[s]) + noise * normal();

			d[s] = new - base;
		}
		m[k - 1] = pv_round_stat(d, SIZES);
		pv_judge(m, k, p, r);
		if (r->verdict != PV_MORE)
			return;
	}
}

/* pv_levels on rounds whose sums are known by hand: pairs {1, 3} and
 * {5, 7, 9}: mean 5, within sum of squares 2 + 8 = 10, between
 * 2 (2 - 5)^2 + 3 (7 - 5)^2 = 30, weight2 (2/5)^2 + (3/5)^2 = 0.52,
 * n0 5 (1 - 0.52) = 2.4. */
static void levels_arithmetic(void)
{
	double m[5] = { 1, 3, 5, 7, 9 };
	unsigned start[3] = { 0, 2, 9 };	/* the last starts past the
						 * rounds: ignored */
	struct pv_levels l;

	pv_levels(m, 5, start, 3, &l);
	tap_ok(l.rounds == 5 && l.groups == 2 && fabs(l.mean - 5) < 1e-12 &&
	       fabs(l.ss_within - 10) < 1e-12 &&
	       fabs(l.q_between - 30) < 1e-12 &&
	       fabs(l.weight2 - 0.52) < 1e-12 && fabs(l.n0 - 2.4) < 1e-12,
	       "levels of two pairs: mean %g, within %g, between %g, weight2 "
	       "%g, n0 %g", l.mean, l.ss_within, l.q_between, l.weight2, l.n0);
}

/* A duet's NCURVES curves, each of 12 rounds from two pairs of
 * processes (6 rounds each) whose pair carries a bias of its own
 * (normal, SD BIAS of the log ratio, the same for every round of the
 * pair: a placement) beside a per-round noise of 1 %. The truth is
 * TRUTH on every curve. Counts, over the curves, the 95 % intervals
 * holding the truth, judged by pv_judge (one level: the rounds alone)
 * into *ONE and by pv_judge_levels with the between-pair variance pooled
 * over the curves into *TWO, and the curves called slower or faster by
 * the latter into *CALLED. */
#define NCURVES 60
static void duet_of_pairs(double truth, double bias, unsigned *one,
			  unsigned *two, unsigned *called)
{
	struct pv_params p = { .threshold = 0.03, .alpha = 0.05,
			       .ntested = NCURVES, .min_rounds = 12,
			       .max_rounds = 12 };
	unsigned start[2] = { 0, 6 };
	double m[NCURVES][12], num = 0, den = 0, vb;
	struct pv_levels l[NCURVES];
	struct pv_result r;

	for (int c = 0; c < NCURVES; c++) {
		double b[2] = { bias * normal(), bias * normal() };

		for (int k = 0; k < 12; k++)
			m[c][k] = log1p(truth) + b[k / 6] + 0.01 * normal();
		pv_levels(m[c], 12, start, 2, &l[c]);
		num += l[c].q_between - l[c].ss_within / 10;
		den += l[c].n0;
	}
	vb = num > 0 ? num / den : 0;
	for (int c = 0; c < NCURVES; c++) {
		pv_judge(m[c], 12, &p, &r);
		*one += r.low <= truth && truth <= r.high;
		pv_judge_levels(&l[c], vb, &p, &r);
		*two += r.low <= truth && truth <= r.high;
		*called += truth == 0 && (r.verdict == PV_SLOWER ||
					  r.verdict == PV_FASTER);
	}
}

/* Two pairs of processes with a bias each (1.5 %, as A/A duets of one
 * image showed between two processes): the rounds alone undercover the
 * truth, both levels cover it; without a bias both levels cost little. */
static void two_pairs(void)
{
	unsigned one = 0, two = 0, called = 0, n = 20 * NCURVES;
	struct pv_levels l;
	struct pv_params p = { .threshold = 0.03, .alpha = 0.05, .ntested = 1,
			       .min_rounds = 12, .max_rounds = 12 };
	struct pv_result a, b;
	double m[12];
	unsigned start[2] = { 0, 6 };

	for (int d = 0; d < 20; d++)
		duet_of_pairs(-0.05, 0.015, &one, &two, &called);
	tap_ok(two >= n * 90 / 100 && one < n * 80 / 100,
	       "a bias per pair of processes: the 95 %% interval of both "
	       "levels holds -5 %% in %u of %u curves (at least 90 %%), of "
	       "the rounds alone in %u (below 80 %%)", two, n, one);
	one = two = called = 0;
	for (int d = 0; d < 20; d++)
		duet_of_pairs(0, 0.015, &one, &two, &called);
	tap_ok(called <= n / 100 && two >= n * 90 / 100,
	       "and A/A with that bias: %u of %u curves called changed, %u "
	       "intervals hold 0", called, n, two);

	/* no bias: pooled between variance 0, the interval as the rounds'
	 * own within the pairs */
	for (int k = 0; k < 12; k++)
		m[k] = -0.05 + 0.01 * normal();
	pv_levels(m, 12, start, 2, &l);
	pv_judge(m, 12, &p, &a);
	pv_judge_levels(&l, 0, &p, &b);
	tap_ok(b.verdict == PV_SLOWER && fabs(a.effect - b.effect) < 1e-12 &&
	       b.high - b.low < 1.3 * (a.high - a.low),
	       "no bias between pairs: the same effect, an interval about "
	       "as wide (%.4f against %.4f), %s", b.high - b.low,
	       a.high - a.low, pv_verdict_name(b.verdict));
	/* one pair: exactly pv_judge */
	pv_levels(m, 12, start, 1, &l);
	pv_judge_levels(&l, 0.01, &p, &b);
	tap_ok(l.groups == 1 && a.low == b.low && a.high == b.high &&
	       a.verdict == b.verdict, "one pair: as pv_judge");
}

int main(void)
{
	struct pv_params p = { .threshold = 0.02, .alpha = 0.05, .ntested = 20,
			       .min_rounds = 5, .max_rounds = 40 };
	double none[SIZES] = { 0 }, five[SIZES], one[SIZES] = { 0 };
	double thirty[SIZES];
	struct pv_result r;
	unsigned called = 0, same = 0, found = 0, covered = 0, n = 400;
	double mde_sum = 0;

	for (int s = 0; s < SIZES; s++) {
		five[s] = -0.05;
		thirty[s] = -0.30;
	}
	one[2] = -0.20;

	tap_ok(pv_looks(&p) == 4 && pv_is_look(5, &p) && pv_is_look(10, &p) &&
	       pv_is_look(20, &p) && pv_is_look(40, &p) &&
	       !pv_is_look(6, &p) && !pv_is_look(30, &p),
	       "looks at 5, 10, 20 and 40 rounds (%u looks)", pv_looks(&p));

	for (unsigned i = 0; i < n; i++) {
		curve(none, 0.02, &p, &r);
		called += r.verdict == PV_SLOWER || r.verdict == PV_FASTER;
		same += r.verdict == PV_SAME;
		mde_sum += r.mde;
	}
	tap_ok(called <= n / 100, "A/A: %u of %u curves called slower or "
	       "faster (at most 1 %%)", called, n);
	tap_ok(same >= n * 9 / 10, "A/A: %u of %u curves same (at least "
	       "90 %%)", same, n);
	tap_diag("A/A: mean minimum detectable effect at the verdict %.2f %%",
		 100 * mde_sum / n);

	for (unsigned i = 0; i < n; i++) {
		curve(five, 0.02, &p, &r);
		found += r.verdict == PV_SLOWER;
		covered += r.low <= -0.05 && -0.05 <= r.high;
	}
	tap_ok(found >= n * 95 / 100, "5 %% slower on every size: slower in "
	       "%u of %u curves (at least 95 %%)", found, n);
	tap_ok(covered >= n * 90 / 100, "its 95 %% interval covers -5 %% in "
	       "%u of %u (at least 90 %%)", covered, n);

	called = 0;
	for (unsigned i = 0; i < n; i++) {
		curve(one, 0.02, &p, &r);
		called += r.verdict == PV_SLOWER || r.verdict == PV_FASTER;
	}
	tap_ok(called <= n / 100, "20 %% slower at one size of five: not the "
	       "curve's change (%u of %u called)", called, n);

	curve(thirty, 0.02, &p, &r);
	tap_ok(r.verdict == PV_SLOWER && r.rounds == 5 &&
	       fabs(r.effect + 0.30) < 0.03,
	       "30 %% slower: decided at the first look (%s after %u rounds, "
	       "effect %.3f)", pv_verdict_name(r.verdict), r.rounds, r.effect);

	curve(none, 0.20, &p, &r);
	tap_ok(r.verdict == PV_UNDECIDED && r.rounds == 40,
	       "noise of 20 %%: undecided at the cap (%s after %u rounds, "
	       "interval %.3f .. %.3f)", pv_verdict_name(r.verdict), r.rounds,
	       r.low, r.high);

	/* the same borderline data: decided for one tested curve, not when
	 * alpha is split among 10^6 (the controls never count) */
	{
		double m[5] = { -0.030, -0.026, -0.034, -0.028, -0.032 };
		struct pv_params one_curve = p, many = p;

		one_curve.ntested = 1;
		many.ntested = 1000000;
		pv_judge(m, 5, &one_curve, &r);
		tap_ok(r.verdict == PV_SLOWER, "3 %% slower, tight: slower for "
		       "one tested curve (p %.2g)", r.p);
		pv_judge(m, 5, &many, &r);
		tap_ok(r.verdict == PV_MORE, "and more rounds when alpha is "
		       "split among a million (%s)", pv_verdict_name(r.verdict));
		pv_judge(m, 4, &one_curve, &r);
		tap_ok(r.verdict == PV_MORE && r.rounds == 4,
		       "below the first look: more rounds");
	}
	levels_arithmetic();
	two_pairs();
	return tap_done();
}
