/* guest/samples.c - quartiles, coefficient of variation, re-run decision
 * (see samples.h). */
#include "compat.h"

#include <string.h>

#include "samples.h"

void samples_sort(uint64_t *v, unsigned n)
{
	/* insertion sort: n is at most a few hundred */
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

uint64_t samples_quartile(const uint64_t *sorted, unsigned n, unsigned k)
{
	uint64_t pos, lo, rem, a, b;

	if (n == 0 || k > 4)
		return 0;
	/* position k * (n - 1) / 4 = lo + rem / 4 */
	pos = (uint64_t)k * (n - 1);
	lo = pos / 4;
	rem = pos % 4;
	a = sorted[lo];
	if (rem == 0)
		return a;
	b = sorted[lo + 1];
	/* a + (b - a) * rem / 4, rounded half up; b >= a */
	return a + ((b - a) / 4) * rem + (((b - a) % 4) * rem + 2) / 4;
}

/* Square root of X >= 0 by Newton's iteration (the guest does not link
 * libm, whose sqrt() would add a library and a symbol version). Exact to
 * the last bit or two, which is all a coefficient of variation needs. */
static double square_root(double x)
{
	double r, prev;

	if (x <= 0)
		return 0;
	r = x >= 1 ? x : 1;
	/* from above, halving at worst: ~1100 steps cover every double */
	for (int i = 0; i < 2200; i++) {
		prev = r;
		r = 0.5 * (r + x / r);
		if (r >= prev)	/* decreasing from above until converged */
			break;
	}
	return r;
}

double samples_cv(const uint64_t *v, unsigned n)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return 0;
	for (unsigned i = 0; i < n; i++)
		mean += (double)v[i];
	mean /= n;
	if (mean <= 0)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		double d = (double)v[i] - mean;

		ss += d * d;
	}
	return square_root(ss / (n - 1)) / mean;
}

int samples_summarise(const uint64_t *v, unsigned n,
		      struct samples_summary *s)
{
	uint64_t sorted[SAMPLES_MAX];

	memset(s, 0, sizeof(*s));
	if (n < 1 || n > SAMPLES_MAX)
		return -1;
	memcpy(sorted, v, n * sizeof(*v));
	samples_sort(sorted, n);
	s->min_ns = sorted[0];
	s->p25_ns = samples_quartile(sorted, n, 1);
	s->median_ns = samples_quartile(sorted, n, 2);
	s->p75_ns = samples_quartile(sorted, n, 3);
	s->cv = samples_cv(v, n);
	return 0;
}

uint64_t samples_median_of_sets(const uint64_t *v, unsigned per_set,
				unsigned sets, uint64_t *medians)
{
	uint64_t sorted[SAMPLES_MAX];

	if (per_set < 1 || sets < 1 || per_set > SAMPLES_MAX ||
	    sets > SAMPLES_MAX)
		return 0;
	for (unsigned k = 0; k < sets; k++) {
		memcpy(sorted, v + (size_t)k * per_set,
		       per_set * sizeof(*v));
		samples_sort(sorted, per_set);
		medians[k] = samples_quartile(sorted, per_set, 2);
	}
	memcpy(sorted, medians, sets * sizeof(*medians));
	samples_sort(sorted, sets);
	return samples_quartile(sorted, sets, 2);
}
