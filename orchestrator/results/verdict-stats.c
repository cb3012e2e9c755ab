/* verdict-stats.c - medians, normal p-values, Benjamini-Hochberg and the
 * percentile bootstrap of the per-curve verdicts. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "orchestrator/results/verdict-stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double vstat_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double vstat_normal_p(double z)
{
	double p = erfc(fabs(z) / sqrt(2.0));

	return p > 1 ? 1 : p;
}

/* The continued fraction of the incomplete beta function (A&S 26.5.8),
 * evaluated by the modified Lentz method. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-14;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, del;

		/* even step: m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		/* odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b) (A&S 26.5.1). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	/* the fraction converges fast below the mean; above it, use the
	 * symmetry I_x(a, b) = 1 - I_(1-x)(b, a) */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double vstat_t_p(double t, double df)
{
	double p;

	if (df >= 1e6)
		return vstat_normal_p(t);
	p = beta_inc(df / 2, 0.5, df / (df + t * t));
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

double vstat_t_crit(double df, double alpha)
{
	double lo = 0, hi = 1e6;
	int k;

	for (k = 0; k < 200 && hi - lo > 1e-12 * (1 + lo); k++) {
		double mid = (lo + hi) / 2;

		if (vstat_t_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void vstat_bh_adjust(const double *p, double *q, size_t n)
{
	struct ranked *r;
	double run = 1;
	size_t k;

	if (n == 0)
		return;
	r = xmalloc(n * sizeof(*r));
	for (k = 0; k < n; k++)
		r[k] = (struct ranked){ p[k], k };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* step up from the largest p-value: the running minimum of
	 * N p(j) / j */
	for (k = n; k-- > 0;) {
		double v = r[k].p * (double)n / (double)(k + 1);

		if (v < run)
			run = v;
		q[r[k].i] = run;
	}
	free(r);
}

uint64_t vstat_rng_next(struct vstat_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t vstat_rng_below(struct vstat_rng *r, size_t n)
{
	/* the top 53 bits as a fraction: the bias for the small N used
	 * here (resamples of a few hundred values) is below 2^-40 */
	double u = (double)(vstat_rng_next(r) >> 11) / 9007199254740992.0;
	size_t k = (size_t)(u * (double)n);

	return k < n ? k : n - 1;
}

uint64_t vstat_hash(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Type-7 quantile of the N sorted values S at probability P. */
static double quantile7(const double *s, size_t n, double p)
{
	double h = p * (double)(n - 1);
	size_t j = (size_t)floor(h);

	if (j + 1 >= n)
		return s[n - 1];
	return s[j] + (h - (double)j) * (s[j + 1] - s[j]);
}

int vstat_bootstrap(double (*stat)(void *ctx, struct vstat_rng *rng),
		    void *ctx, uint64_t seed, size_t nrep, double level,
		    double *lo, double *hi)
{
	struct vstat_rng rng = { seed };
	double *rep;
	size_t k;

	if (nrep < 2)
		return -1;
	rep = xmalloc(nrep * sizeof(*rep));
	for (k = 0; k < nrep; k++) {
		rep[k] = stat(ctx, &rng);
		if (!isfinite(rep[k])) {
			free(rep);
			return -1;
		}
	}
	qsort(rep, nrep, sizeof(*rep), cmp_double);
	*lo = quantile7(rep, nrep, level / 2);
	*hi = quantile7(rep, nrep, 1 - level / 2);
	free(rep);
	return 0;
}

double vstat_digamma(double x)
{
	double r = 0, x2;

	if (!(x > 0))
		return NAN;
	while (x < 6) {
		r -= 1 / x;
		x += 1;
	}
	x2 = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       x2 * (1.0 / 12 - x2 * (1.0 / 120 - x2 * (1.0 / 252 -
	       x2 * (1.0 / 240 - x2 * (1.0 / 132)))));
}

double vstat_trigamma(double x)
{
	double r = 0, x2;

	if (!(x > 0))
		return NAN;
	while (x < 6) {
		r += 1 / (x * x);
		x += 1;
	}
	x2 = 1 / (x * x);
	return r + 1 / x + x2 / 2 +
	       x2 / x * (1.0 / 6 - x2 * (1.0 / 30 - x2 * (1.0 / 42 -
	       x2 * (1.0 / 30 - x2 * (5.0 / 66)))));
}

double vstat_tetragamma(double x)
{
	double r = 0, x2;

	if (!(x > 0))
		return NAN;
	while (x < 6) {
		r -= 2 / (x * x * x);
		x += 1;
	}
	x2 = 1 / (x * x);
	return r - x2 - x2 / x -
	       x2 * x2 * (0.5 - x2 * (1.0 / 6 - x2 * (1.0 / 6 -
	       x2 * (3.0 / 10 - x2 * (5.0 / 6)))));
}

double vstat_trigamma_inverse(double y)
{
	double x;

	if (!(y > 0))
		return NAN;
	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	x = 0.5 + 1 / y;
	for (int i = 0; i < 50; i++) {
		double tri = vstat_trigamma(x);
		double dif = tri * (1 - tri / y) / vstat_tetragamma(x);

		x += dif;
		if (-dif / x < 1e-8)
			break;
	}
	return x;
}

int vstat_moderate_fit(const double *s2, const double *df, size_t n,
		       double *s0sq, double *d0)
{
	double sum = 0, sum2 = 0, tri = 0, mean, var;
	size_t m = 0, i;

	for (i = 0; i < n; i++) {
		double e;

		if (!(s2[i] > 0) || !(df[i] > 0))
			continue;
		e = log(s2[i]) - vstat_digamma(df[i] / 2) + log(df[i] / 2);
		sum += e;
		sum2 += e * e;
		tri += vstat_trigamma(df[i] / 2);
		m++;
	}
	if (m < 3)
		return -1;
	mean = sum / (double)m;
	/* the spread of log s2 beyond what each estimate's own degrees of
	 * freedom give it */
	var = (sum2 - (double)m * mean * mean) / (double)(m - 1) -
	      tri / (double)m;
	if (var > 0) {
		*d0 = 2 * vstat_trigamma_inverse(var);
		*s0sq = exp(mean + vstat_digamma(*d0 / 2) - log(*d0 / 2));
	} else {
		*d0 = INFINITY;
		*s0sq = exp(mean);
	}
	return 0;
}
