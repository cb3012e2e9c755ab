/* stats.c - significance of a change, rank test, overhead/slope fit. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

struct ranked {
	double v;
	int side;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double ra = 0, ties = 0, u, mu, sigma2, z;

	if (na == 0 || nb == 0)
		return 1;
	r = malloc(n * sizeof(*r));
	if (!r)
		return 1;
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		rank = (double)(i + 1 + j) / 2.0;	/* mean of ranks i+1..j */
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (r[k].side == 0)
				ra += rank;
	}
	free(r);
	u = ra - (double)na * (double)(na + 1) / 2.0;
	mu = (double)na * (double)nb / 2.0;
	sigma2 = (double)na * (double)nb / 12.0 *
		 ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (sigma2 <= 0)
		return 1;
	z = (fabs(u - mu) - 0.5) / sqrt(sigma2);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}

struct stats_verdict stats_compare(const struct stats_point *base,
				   const struct stats_point *new,
				   double threshold)
{
	struct stats_verdict v = { 0, 0, STATS_RANGES, -1 };
	int big;

	if (base->median <= 0)
		return v;
	v.change = (new->median - base->median) / base->median;
	big = fabs(v.change) > threshold;
	if (base->samples && new->samples && base->nsamples >= 5 &&
	    new->nsamples >= 5) {
		v.method = STATS_MANN_WHITNEY;
		v.p = stats_mann_whitney(base->samples, base->nsamples,
					 new->samples, new->nsamples);
		v.significant = big && v.p < 0.05;
	} else if (v.change < 0) {
		v.significant = big && new->best < base->median;
	} else {
		v.significant = big && new->median > base->best;
	}
	return v;
}

int stats_fit_linear(const double *x, const double *t, size_t n,
		     double *overhead_ns, double *ns_per_byte)
{
	double sw = 0, sx = 0, st = 0, sxx = 0, sxt = 0, det;
	size_t i, distinct = 0;

	for (i = 0; i < n; i++) {
		double w;

		if (t[i] <= 0)
			continue;
		if (i == 0 || x[i] != x[0])
			distinct += i == 0 || distinct < 2;
		w = 1.0 / (t[i] * t[i]);
		sw += w;
		sx += w * x[i];
		st += w * t[i];
		sxx += w * x[i] * x[i];
		sxt += w * x[i] * t[i];
	}
	det = sw * sxx - sx * sx;
	if (distinct < 2 || det <= 0 || fabs(det) < 1e-300)
		return -1;
	*ns_per_byte = (sw * sxt - sx * st) / det;
	*overhead_ns = (st - *ns_per_byte * sx) / sw;
	if (*overhead_ns >= 0)
		return 0;
	/* a start-up cost below zero is no cost: the line through the
	 * origin, t = bytes x slope, with the same weights */
	*overhead_ns = 0;
	*ns_per_byte = sxt / sxx;
	return 1;
}

int64_t stats_quartile(const int64_t *sorted, size_t n, unsigned k)
{
	uint64_t pos, lo, rem, d;

	if (n == 0 || k > 4)
		return -1;
	pos = (uint64_t)k * (n - 1);	/* k (n - 1) / 4 = lo + rem / 4 */
	lo = pos / 4;
	rem = pos % 4;
	if (rem == 0)
		return sorted[lo];
	d = (uint64_t)(sorted[lo + 1] - sorted[lo]);
	return sorted[lo] + (int64_t)((d / 4) * rem + ((d % 4) * rem + 2) / 4);
}

double stats_cv(const int64_t *v, size_t n)
{
	double mean = 0, ss = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		mean += (double)v[i];
	mean /= (double)n;
	if (mean <= 0)
		return 0;
	for (i = 0; i < n; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	return sqrt(ss / (double)(n - 1)) / mean;
}

double stats_nominal_ghz(const char *model_name)
{
	const char *at = model_name ? strrchr(model_name, '@') : NULL;
	double ghz;
	char *end;

	if (!at)
		return 0;
	ghz = strtod(at + 1, &end);
	while (*end == ' ')
		end++;
	if (ghz <= 0 || strncmp(end, "GHz", 3) != 0)
		return 0;
	return ghz;
}
