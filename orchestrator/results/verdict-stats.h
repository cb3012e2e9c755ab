/* verdict-stats.h - the statistics behind the per-curve verdicts of
 * compare (orchestrator/results/verdicts.md): medians, two-sided normal and
 * Student's t p-values, the Benjamini-Hochberg adjustment and a
 * reproducible percentile bootstrap. */
#ifndef BENCHORCH_VERDICT_STATS_H
#define BENCHORCH_VERDICT_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Median of the N values of V (V is left unchanged; a sorted copy is
 * made): the middle value, or the mean of the two middle values when N is
 * even. Returns NAN when N is 0. Same unit as V. */
double vstat_median(const double *v, size_t n);

/* Two-sided p-value of a standard normal statistic Z: P(|N(0,1)| >= |Z|)
 * = erfc(|Z| / sqrt(2)). Returns a value in [0, 1]. */
double vstat_normal_p(double z);

/* Two-sided p-value of Student's t statistic T with DF degrees of
 * freedom: P(|T_df| >= |T|) = I_x(DF/2, 1/2) with x = DF / (DF + T^2),
 * the regularized incomplete beta function computed by its continued
 * fraction (Abramowitz and Stegun, "Handbook of Mathematical Functions",
 * 26.5.8 and 26.7.1). DF > 0 (need not be an integer); DF of 1e6 or more
 * is the normal distribution (vstat_normal_p). Returns a value in
 * [0, 1]. */
double vstat_t_p(double t, double df);

/* The two-sided critical value of Student's t with DF degrees of freedom
 * at level ALPHA (0.05: the t of a 95 % interval), found by bisection on
 * vstat_t_p. DF > 0, 0 < ALPHA < 1. */
double vstat_t_crit(double df, double alpha);

/* Benjamini-Hochberg adjusted p-values ("q-values") of the N p-values P,
 * written to Q (N entries, same order as P; Q may equal P): with the
 * p-values ranked ascending p(1) <= ... <= p(N), q(i) = min over j >= i of
 * N p(j) / j, capped at 1 (Benjamini and Hochberg, "Controlling the false
 * discovery rate", J. R. Statist. Soc. B 57(1), 1995, step-up procedure).
 * Rejecting every hypothesis with q <= alpha controls the false discovery
 * rate at alpha. N = 0 does nothing. */
void vstat_bh_adjust(const double *p, double *q, size_t n);

/* A small deterministic random generator (SplitMix64, Steele, Lea and
 * Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
 * the bootstrap draws from it so that a verdict can be re-derived from
 * the stored data and gives the same interval. */
struct vstat_rng {
	uint64_t s;
};

/* Next 64 random bits of R. */
uint64_t vstat_rng_next(struct vstat_rng *r);

/* A uniform integer in [0, N) from R; N >= 1. */
size_t vstat_rng_below(struct vstat_rng *r, size_t n);

/* 64-bit FNV-1a hash of the string S continued from H (start with
 * VSTAT_FNV_INIT): seeds a curve's bootstrap from its name. */
#define VSTAT_FNV_INIT 0xcbf29ce484222325ULL
uint64_t vstat_hash(uint64_t h, const char *s);

/* Percentile interval of statistic STAT over NREP bootstrap replicates
 * (Efron and Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13):
 * STAT(CTX, RNG) computes the statistic on one resample it draws itself
 * from RNG; the replicates are sorted and *LO, *HI get the LEVEL/2 and
 * 1 - LEVEL/2 quantiles (LEVEL 0.05 for a 95 % interval; type-7
 * interpolation). Returns 0, or -1 when NREP < 2 or a replicate is not
 * finite (then *LO and *HI are untouched). */
int vstat_bootstrap(double (*stat)(void *ctx, struct vstat_rng *rng),
		    void *ctx, uint64_t seed, size_t nrep, double level,
		    double *lo, double *hi);

/* The digamma function psi(X) = d/dx ln Gamma(x), its derivative
 * (trigamma, psi') and second derivative (psi''), for X > 0: the
 * recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the asymptotic
 * series (Abramowitz and Stegun 6.3.5, 6.3.18, 6.4.11 and 6.4.12);
 * relative error below 1e-10. NAN for X <= 0. */
double vstat_digamma(double x);
double vstat_trigamma(double x);
double vstat_tetragamma(double x);

/* The X > 0 with trigamma(X) = Y, for Y > 0, by Newton's method on
 * 1 / trigamma (Smyth, "Linear models and empirical Bayes methods for
 * assessing differential expression in microarray experiments", Stat.
 * Appl. Genet. Mol. Biol. 3(1), 2004, and the limma package's
 * trigammaInverse). NAN for Y <= 0. */
double vstat_trigamma_inverse(double y);

/* The prior of the empirical Bayes moderated variance (Smyth 2004, as
 * above, section 6.2): fitted to N variance estimates S2 (each > 0, in
 * the squared units of the variance) with DF degrees of freedom each (>
 * 0; entries with S2 or DF <= 0 are left out), by the method of moments
 * on log S2 - the scaled F distribution they follow if their true
 * variances scatter around S0SQ like a scaled inverse chi-square with D0
 * degrees of freedom. *S0SQ gets the prior variance, *D0 its degrees of
 * freedom: INFINITY when the estimates scatter no more than their own
 * degrees of freedom explain (every curve has the same variance), small
 * when they differ much. A curve's moderated variance is then
 * (D0 S0SQ + d s2) / (D0 + d) with D0 + d degrees of freedom. Returns 0,
 * or -1 with fewer than 3 usable estimates (*S0SQ and *D0 untouched). */
int vstat_moderate_fit(const double *s2, const double *df, size_t n,
		       double *s0sq, double *d0);

#endif
