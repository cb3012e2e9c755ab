/* stats.h - the statistics behind compare and report: when a change in
 * throughput is significant, and the start-up/per-byte fit of a curve. */
#ifndef BENCHORCH_STATS_H
#define BENCHORCH_STATS_H

#include <stddef.h>

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
 * fit. Returns 0, or -1 when fewer than two distinct sizes are given. */
int stats_fit_linear(const double *x, const double *t, size_t n,
		     double *overhead_ns, double *ns_per_byte);

/* Nominal clock in GHz read from a CPU model name ("... @ 2.20GHz"), or 0
 * when the name has none. */
double stats_nominal_ghz(const char *model_name);

#endif
