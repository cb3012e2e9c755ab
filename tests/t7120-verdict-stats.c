/* t7120-verdict-stats - the statistics of the per-curve verdicts with
 * known values: Benjamini-Hochberg on the paper's own example, the
 * SplitMix64 reference outputs, the two-sided normal and Student's t
 * p-values, medians and the percentile bootstrap. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "orchestrator/results/verdict-stats.h"
#include "tests/tap.h"

/* A statistic that ignores the data: one integer drawn uniformly from
 * 0..99, so that its 2.5 % and 97.5 % quantiles are known. */
static double uniform100(void *ctx, struct vstat_rng *rng)
{
	(void)ctx;
	return (double)vstat_rng_below(rng, 100);
}

struct sample {
	const double *v;
	size_t n;
	double tmp[16];
};

/* The median of a resample (with replacement) of the sample CTX. */
static double boot_median(void *ctx, struct vstat_rng *rng)
{
	struct sample *s = ctx;
	size_t k;

	for (k = 0; k < s->n; k++)
		s->tmp[k] = s->v[vstat_rng_below(rng, s->n)];
	return vstat_median(s->tmp, s->n);
}

static double constant(void *ctx, struct vstat_rng *rng)
{
	(void)ctx;
	(void)rng;
	return 0.25;
}

static double not_finite(void *ctx, struct vstat_rng *rng)
{
	(void)ctx;
	(void)rng;
	return NAN;
}

int main(void)
{
	/* Benjamini and Hochberg (1995), section 4.1: fifteen p-values of
	 * one study; at q* = 0.05 the procedure rejects the four smallest
	 * (p <= 0.0095), where Bonferroni rejects three. The adjusted values
	 * below follow from the definition q(i) = min over j >= i of
	 * 15 p(j) / j. The p-values are given out of order to check that
	 * the results come back in the input's order. */
	static const double p[15] = { 0.0459, 0.0001, 0.3240, 0.0004, 0.4262,
		0.0019, 0.5719, 0.0095, 0.6528, 0.0201, 0.7590, 0.0278, 1.000,
		0.0298, 0.0344 };
	static const double want[15] = { 0.0765, 0.0015, 0.486, 0.003,
		0.581182, 0.0095, 0.714875, 0.035625, 0.753231, 0.0603,
		0.813214, 0.063857, 1, 0.063857, 0.0645 };
	static const double nine[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	double q[15], lo = -1, hi = -1, lo2, hi2;
	struct vstat_rng r = { 0 };
	struct sample s = { nine, 9, { 0 } };
	size_t i, rejected = 0, close = 0;
	double single = 0.03, qs;
	int rc;

	vstat_bh_adjust(p, q, 15);
	for (i = 0; i < 15; i++) {
		close += fabs(q[i] - want[i]) < 1e-6;
		rejected += q[i] <= 0.05;
	}
	tap_ok(close == 15, "BH q-values of the 1995 example (%zu of 15 as computed)",
	       close);
	tap_ok(rejected == 4, "BH at 0.05 rejects the paper's four hypotheses (%zu)",
	       rejected);
	vstat_bh_adjust(&single, &qs, 1);
	tap_ok(qs == 0.03, "one p-value is its own q");
	memcpy(q, p, sizeof(q));
	vstat_bh_adjust(q, q, 15);
	tap_ok(fabs(q[7] - 0.035625) < 1e-9, "in place (Q = P) gives the same");

	/* SplitMix64 from seed 0: the reference implementation's first
	 * outputs (Vigna, splitmix64.c, prng.di.unimi.it) */
	tap_ok(vstat_rng_next(&r) == 0xe220a8397b1dcdafULL &&
	       vstat_rng_next(&r) == 0x6e789e6aa1b965f4ULL,
	       "SplitMix64 reference outputs");

	/* standard normal: P(|Z| >= 1.959964) = 0.05, >= 2.575829 = 0.01 */
	tap_ok(fabs(vstat_normal_p(1.959964) - 0.05) < 1e-6 &&
	       fabs(vstat_normal_p(-2.575829) - 0.01) < 1e-6 &&
	       vstat_normal_p(0) == 1, "two-sided normal p-values");

	/* Student's t: the critical values of the NIST/SEMATECH e-Handbook of
	 * Statistical Methods, table 1.3.6.7.2 (upper tail 0.025: two-sided
	 * 0.05; upper tail 0.005: two-sided 0.01) */
	tap_ok(fabs(vstat_t_p(12.706, 1) - 0.05) < 1e-4 &&
	       fabs(vstat_t_p(4.303, 2) - 0.05) < 1e-4 &&
	       fabs(vstat_t_p(-2.228, 10) - 0.05) < 1e-4 &&
	       fabs(vstat_t_p(2.750, 30) - 0.01) < 1e-4 && vstat_t_p(0, 5) == 1,
	       "Student's t p-values at the table's critical values");
	tap_ok(fabs(vstat_t_crit(2, 0.05) - 4.303) < 1e-3 &&
	       fabs(vstat_t_crit(10, 0.05) - 2.228) < 1e-3 &&
	       fabs(vstat_t_crit(100, 0.05) - 1.984) < 1e-3,
	       "Student's t critical values (2, 10, 100 degrees of freedom)");
	tap_ok(fabs(vstat_t_p(1.959964, 1e6) - 0.05) < 1e-6,
	       "a million degrees of freedom: the normal distribution");

	tap_ok(vstat_median(nine, 9) == 5 && vstat_median(nine, 4) == 2.5 &&
	       isnan(vstat_median(nine, 0)), "medians: odd, even, none");

	rc = vstat_bootstrap(uniform100, NULL, 1, 4000, 0.05, &lo, &hi);
	tap_ok(rc == 0 && lo >= 1 && lo <= 4 && hi >= 95 && hi <= 98,
	       "percentile interval of a uniform 0..99: [%g, %g], about [2.5, 96.5]",
	       lo, hi);
	tap_ok(vstat_bootstrap(constant, NULL, 7, 100, 0.05, &lo, &hi) == 0 &&
	       lo == 0.25 && hi == 0.25, "a constant statistic: a zero-width interval");
	rc = vstat_bootstrap(boot_median, &s, 42, 1000, 0.05, &lo, &hi);
	tap_ok(rc == 0 && lo >= 2 && lo < 5 && hi > 5 && hi <= 8,
	       "median of 1..9 resampled: [%g, %g] around 5", lo, hi);
	tap_ok(vstat_bootstrap(boot_median, &s, 42, 1000, 0.05, &lo2, &hi2) == 0 &&
	       lo2 == lo && hi2 == hi, "the same seed gives the same interval");
	lo = hi = 7;
	tap_ok(vstat_bootstrap(not_finite, NULL, 1, 10, 0.05, &lo, &hi) < 0 &&
	       lo == 7 && hi == 7 &&
	       vstat_bootstrap(constant, NULL, 1, 1, 0.05, &lo, &hi) < 0,
	       "a replicate that is not finite, or one replicate: refused");
	tap_ok(vstat_hash(VSTAT_FNV_INIT, "a") == 0xaf63dc4c8601ec8cULL,
	       "FNV-1a 64 of 'a' (the published test vector)");

	/* psi, psi', psi'' at 1 and 1/2 (Abramowitz and Stegun 6.3.2,
	 * 6.3.3, 6.4.2 and 6.4.4: -gamma, -gamma - 2 ln 2, pi^2 / 6,
	 * pi^2 / 2, -2 zeta(3)) */
	tap_ok(fabs(vstat_digamma(1) + 0.5772156649015329) < 1e-10 &&
	       fabs(vstat_digamma(0.5) + 1.9635100260214235) < 1e-10 &&
	       fabs(vstat_digamma(20) - 2.9705239922421490) < 1e-10,
	       "digamma(1) = -0.5772156649, digamma(0.5) = -1.9635100260, digamma(20) = 2.9705239922");
	tap_ok(fabs(vstat_trigamma(1) - 1.6449340668482264) < 1e-10 &&
	       fabs(vstat_trigamma(0.5) - 4.9348022005446793) < 1e-10 &&
	       fabs(vstat_tetragamma(1) + 2.4041138063191885) < 1e-9,
	       "trigamma(1) = pi^2/6, trigamma(0.5) = pi^2/2, tetragamma(1) = -2 zeta(3)");
	tap_ok(isnan(vstat_digamma(0)) && isnan(vstat_trigamma(-1)) &&
	       isnan(vstat_trigamma_inverse(0)),
	       "outside their domain: NAN");
	{
		int good = 1;
		static const double xs[] = { 0.05, 0.5, 1, 3.7, 12, 250 };

		for (size_t k = 0; k < sizeof(xs) / sizeof(xs[0]); k++) {
			double y = vstat_trigamma(xs[k]);
			double x = vstat_trigamma_inverse(y);

			if (fabs(x - xs[k]) > 1e-6 * xs[k])
				good = 0;
		}
		tap_ok(good, "trigamma_inverse undoes trigamma from 0.05 to 250");
	}
	{
		static const double same[] = { 0.04, 0.04, 0.04, 0.04 };
		static const double wide[] = { 0.0001, 1, 0.01, 100, 0.1, 10 };
		static const double df3[] = { 3, 3, 3, 3, 3, 3 };
		double s0 = -1, d0 = -1;

		rc = vstat_moderate_fit(same, df3, 4, &s0, &d0);
		tap_ok(rc == 0 && isinf(d0) &&
		       fabs(s0 - 0.04 * exp(log(1.5) - vstat_digamma(1.5))) < 1e-12,
		       "equal variances: an infinite prior, at their level corrected for log's bias (%g)",
		       s0);
		rc = vstat_moderate_fit(wide, df3, 6, &s0, &d0);
		tap_ok(rc == 0 && d0 > 0 && d0 < 1,
		       "variances six decades apart: a prior of little weight (d0 = %g)",
		       d0);
		s0 = d0 = -1;
		tap_ok(vstat_moderate_fit(same, df3, 2, &s0, &d0) == -1 &&
		       s0 == -1 && d0 == -1,
		       "fewer than three estimates: no prior");
	}
	return tap_done();
}
