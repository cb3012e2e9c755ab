/* stats.h - the statistics behind compare and report: when a change in
 * throughput is significant, and the start-up/per-byte fit of a curve. */
#ifndef BENCHORCH_STATS_H
#define BENCHORCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* What is known about one measured point, as throughputs in MB/s. Today
 * the database keeps only the median and the best (minimum-time)
 * repetition; when raw per-repetition samples are stored, fill SAMPLES and
 * the rank test is used instead (nothing else changes for callers). */
struct stats_point {
	double median;		/* MB/s at the median time */
	double best;		/* MB/s at the minimum time (>= median) */
	const double *samples;	/* raw MB/s per repetition, or NULL */
	size_t nsamples;
};

/* Which test decided stats_compare's verdict. */
enum stats_method {
	STATS_RANGES,		/* [median, best] ranges must not overlap */
	STATS_MANN_WHITNEY,	/* two-sided rank test, p < 0.05 */
};

struct stats_verdict {
	double change;		/* (new.median - base.median) / base.median */
	int significant;	/* 1 when the change is real and > threshold */
	enum stats_method method;
	double p;		/* rank test p-value; -1 for STATS_RANGES */
};

/* Compare NEW against BASE. THRESHOLD is a fraction (0.03 = 3 %). The
 * change is significant when |change| > THRESHOLD and:
 *  - both points carry >= 5 raw samples: a two-sided Mann-Whitney U test
 *    (normal approximation, tie-corrected) gives p < 0.05;
 *  - otherwise (only median and best stored): the ranges [median, best]
 *    of the two points do not overlap, i.e. a slowdown counts only if
 *    even NEW's best repetition is slower than BASE's median, and a
 *    speed-up only if NEW's median beats BASE's best.
 * A BASE median <= 0 gives change 0, not significant. */
struct stats_verdict stats_compare(const struct stats_point *base,
				   const struct stats_point *new,
				   double threshold);

/* Two-sided p-value of the Mann-Whitney U test between A (NA values) and
 * B (NB values), normal approximation with tie correction and continuity
 * correction. Returns 1 when either side is empty or all values tie. */
double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb);

/* Fit time per call t = overhead + bytes * slope over N points (X bytes,
 * T ns), by least squares weighted by 1/T^2 (relative errors, so small
 * and large buffers count alike). *overhead_ns and *ns_per_byte get the
 * fit. An overhead that fits below zero (the start-up cost is below what
 * the points resolve) is clamped to 0 and the slope refitted through the
 * origin with the same weights. Returns 0, 1 when the overhead was
 * clamped, or -1 when fewer than two distinct sizes are given. */
int stats_fit_linear(const double *x, const double *t, size_t n,
		     double *overhead_ns, double *ns_per_byte);

/* Quartile K (0 = minimum, 1, 2 = median, 3, 4 = maximum) of the N >= 1
 * values of SORTED (ascending, each >= 0): the linear interpolation
 * between order statistics that Hyndman and Fan call type 7 ("Sample
 * quantiles in statistical packages", The American Statistician 50(4),
 * 1996; R's and NumPy's default): with j + f = K * (N - 1) / 4, the value
 * SORTED[j] + f * (SORTED[j+1] - SORTED[j]), computed in integers and
 * rounded half up - the guest's definition (guest/PROTOCOL.md). Returns
 * -1 when N is 0 or K > 4. */
int64_t stats_quartile(const int64_t *sorted, size_t n, unsigned k);

/* Coefficient of variation of the N values of V: sample standard
 * deviation (N - 1 in the denominator) over the mean, as a fraction.
 * Returns 0 when N < 2 or the mean is not positive. */
double stats_cv(const int64_t *v, size_t n);

/* Nominal clock in GHz read from a CPU model name ("... @ 2.20GHz"), or 0
 * when the name has none. */
double stats_nominal_ghz(const char *model_name);

#endif
