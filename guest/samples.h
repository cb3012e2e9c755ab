/* guest/samples.h - summary statistics of the timed batches of one
 * measured point, and the estimator it reports (the median of its sets'
 * medians).
 *
 * A sample is the duration of one timed batch in ns (>= 1). Quartiles are
 * the linear interpolation between order statistics that Hyndman and Fan
 * call type 7 ("Sample quantiles in statistical packages", The American
 * Statistician 50(4), 1996; the default of R's quantile() and NumPy's
 * percentile()): for the sorted samples x[0] <= ... <= x[n-1], quartile k
 * (0 .. 4) is x[j] + f * (x[j+1] - x[j]) where j + f = k * (n - 1) / 4,
 * computed in integers and rounded half up to whole ns. Quartile 2 is
 * the median (the mean of the two middle samples for an even count).
 * guest/PROTOCOL.md states the same, and the orchestrator recomputes it
 * from the samples it receives (lib/stats.c).
 *
 * The coefficient of variation is the sample standard deviation (n - 1
 * in the denominator) divided by the mean; 0 for a single sample.
 */
#ifndef GUEST_SAMPLES_H
#define GUEST_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>

/* The summary of N >= 1 samples, in ns per batch (cv is a fraction). */
struct samples_summary {
	uint64_t min_ns;	/* quartile 0 */
	uint64_t p25_ns;	/* quartile 1 */
	uint64_t median_ns;	/* quartile 2 */
	uint64_t p75_ns;	/* quartile 3 */
	double cv;		/* standard deviation / mean, >= 0 */
};

/* Sort the N values of V ascending, in place. */
void samples_sort(uint64_t *v, unsigned n);

/* Quartile K (0 = minimum, 2 = median, 4 = maximum) of the N >= 1 values
 * of SORTED (ascending), type 7 as above, rounded half up. Returns 0
 * when N is 0 or K > 4. */
uint64_t samples_quartile(const uint64_t *sorted, unsigned n, unsigned k);

/* Coefficient of variation of the N values of V (any order): sample
 * standard deviation over mean. Returns 0 when N < 2 or the mean is 0. */
double samples_cv(const uint64_t *v, unsigned n);

/* Summarise the N (1 .. SAMPLES_MAX) values of V (any order; V is not
 * changed) into *s. Returns 0, or -1 when N is out of range. */
#define SAMPLES_MAX 1000
int samples_summarise(const uint64_t *v, unsigned n,
		      struct samples_summary *s);

/* The estimator every measured point reports (guest/PROTOCOL.md,
 * "Samples"): V holds SETS sets of PER_SET samples each, set after set
 * (sample i of set k at V[k * PER_SET + i]); each set's median goes to
 * MEDIANS[k] (SETS values, caller's array), and the median of those
 * medians, both as quartile 2 above, is returned (ns per batch). Returns 0
 * when PER_SET or SETS is 0 or above SAMPLES_MAX. */
uint64_t samples_median_of_sets(const uint64_t *v, unsigned per_set,
				unsigned sets, uint64_t *medians);

#endif /* GUEST_SAMPLES_H */
