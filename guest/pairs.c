/* guest/pairs.c - paired estimates from interleaved blocks (see
 * pairs.h). */
#include "compat.h"

#include <string.h>

#include "pairs.h"

/* Sort the N doubles of V ascending, in place (insertion sort: N is at
 * most PAIRS_MAX_ROUNDS). */
static void sort_doubles(double *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		double x = v[i];
		unsigned j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The median of the N >= 1 sorted values of V. */
static double median_sorted(const double *v, unsigned n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

unsigned pairs_interval_rank(unsigned n, double *coverage)
{
	/* P(X = j) for X ~ Binomial(n, 1/2), from P(X = 0) = 2^-n by
	 * P(X = j + 1) = P(X = j) (n - j) / (j + 1); K = j + 1 has the
	 * tail 2 P(X <= j) */
	double p = 1, cdf;
	unsigned k = 1;

	if (n < 1) {
		if (coverage)
			*coverage = 0;
		return 1;
	}
	for (unsigned i = 0; i < n; i++)
		p /= 2;
	cdf = p;		/* P(X <= 0): K = 1, the whole range */
	for (unsigned j = 0; j < n / 2; j++) {
		double next = p * (double)(n - j) / (double)(j + 1);

		if (2 * (cdf + next) > 0.05)
			break;
		p = next;
		cdf += next;
		k = j + 2;
	}
	if (coverage)
		*coverage = 1 - 2 * cdf;
	return k;
}

int pairs_reference(const double *t, size_t nlibs, unsigned rounds)
{
	double v[PAIRS_MAX_ROUNDS], best = 0;
	int ref = -1;

	if (rounds > PAIRS_MAX_ROUNDS)
		rounds = PAIRS_MAX_ROUNDS;
	for (size_t l = 0; l < nlibs; l++) {
		unsigned n = 0;
		double m;

		for (unsigned r = 0; r < rounds; r++)
			if (t[l * rounds + r] > 0)
				v[n++] = t[l * rounds + r];
		if (n == 0)
			continue;
		sort_doubles(v, n);
		m = median_sorted(v, n);
		if (ref < 0 || m < best) {
			best = m;
			ref = (int)l;
		}
	}
	return ref;
}

int pairs_estimate(const double *ref, const double *lib, unsigned rounds,
		   struct pair_est *e)
{
	double q[PAIRS_MAX_ROUNDS];
	unsigned n = 0, k;

	memset(e, 0, sizeof(*e));
	if (rounds > PAIRS_MAX_ROUNDS)
		rounds = PAIRS_MAX_ROUNDS;
	for (unsigned r = 0; r < rounds; r++)
		if (ref[r] > 0 && lib[r] > 0)
			q[n++] = ref[r] / lib[r];
	if (n == 0)
		return -1;
	sort_doubles(q, n);
	k = pairs_interval_rank(n, &e->coverage);
	e->rounds = n;
	e->ratio = median_sorted(q, n);
	e->low = q[k - 1];
	e->high = q[n - k];
	e->tie = e->low <= 1 && e->high >= 1;
	return 0;
}
