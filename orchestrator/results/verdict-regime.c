/* verdict-regime.c - adjust a curve for the host's speed regime (see
 * verdict-regime.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "orchestrator/results/verdict-regime.h"

/* One invocation's point of the fit: its log canary time and its mean
 * log throughput over the sizes, each about its group's mean. */
struct ipoint {
	int64_t inv, run;
	double x, y;
	size_t ny;
};

/* The rows of one group: pointers into the callers' arrays. */
struct group {
	const struct vrow **r;
	size_t n;
	struct ipoint *p;
	size_t np;
};

static void group_add(struct group *g, const struct vrow *r)
{
	g->r = xrealloc(g->r, (g->n + 1) * sizeof(*g->r));
	g->r[g->n++] = r;
}

/* Centre G's rows on each size's mean and reduce them to one point per
 * invocation (x about the group's mean of the points). One pass for the
 * sizes' means, one for the points: a history of 40 runs holds over a
 * thousand rows a curve. */
static void group_points(struct group *g)
{
	int64_t *bytes = NULL;
	double *sum = NULL, xs = 0;
	size_t *cnt = NULL, ns = 0, i, k;

	for (i = 0; i < g->n; i++) {
		for (k = 0; k < ns && bytes[k] != g->r[i]->bytes; k++)
			;
		if (k == ns) {
			bytes = xrealloc(bytes, (ns + 1) * sizeof(*bytes));
			sum = xrealloc(sum, (ns + 1) * sizeof(*sum));
			cnt = xrealloc(cnt, (ns + 1) * sizeof(*cnt));
			bytes[ns] = g->r[i]->bytes;
			sum[ns] = 0;
			cnt[ns++] = 0;
		}
		sum[k] += g->r[i]->logthr;
		cnt[k]++;
	}
	for (i = 0; i < g->n; i++) {
		struct ipoint *p = NULL;
		size_t si;

		for (si = 0; bytes[si] != g->r[i]->bytes; si++)
			;
		for (k = g->np; k-- > 0;)
			if (g->p[k].inv == g->r[i]->inv) {
				p = &g->p[k];
				break;
			}
		if (!p) {
			g->p = xrealloc(g->p, (g->np + 1) * sizeof(*g->p));
			p = &g->p[g->np++];
			memset(p, 0, sizeof(*p));
			p->inv = g->r[i]->inv;
			p->run = g->r[i]->run;
			p->x = g->r[i]->logcan;
		}
		p->y += g->r[i]->logthr - sum[si] / (double)cnt[si];
		p->ny++;
	}
	for (k = 0; k < g->np; k++) {
		g->p[k].y /= (double)g->p[k].ny;
		xs += g->p[k].x;
	}
	for (k = 0; k < g->np; k++)
		g->p[k].x -= xs / (double)g->np;
	free(bytes);
	free(sum);
	free(cnt);
}

/* Distinct runs among G's points. */
static size_t group_runs(const struct group *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->np; i++) {
		size_t k;

		for (k = 0; k < i && g->p[k].run != g->p[i].run; k++)
			;
		n += k == i;
	}
	return n;
}

/* Mean logcan of R[0..N). */
static double mean_can(const struct vrow *r, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += r[i].logcan;
	return n ? s / (double)n : 0;
}

/* Take the host's share, SLOPE x (logcan - REF), from each row's logthr. */
static void shift(struct vrow *r, size_t n, double slope, double ref)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(r[i].logcan))
			r[i].logthr -= slope * (r[i].logcan - ref);
}

double vregime_adjust(struct vrow *b, size_t nb, struct vrow *n, size_t nn,
		      struct vrow *h, size_t nh, const char *base_version,
		      double *se_shift)
{
	struct group g[2] = { { 0 }, { 0 } };
	int64_t base_run = nb ? b[0].run : -1;
	double sxx = 0, sxy = 0, syy = 0, slope = 0, ref = 0, resid;
	size_t i, np = 0;
	int k;

	*se_shift = 0;
	if (!nb || !nn)
		return 0;
	for (i = 0; i < nb; i++)
		if (isnan(b[i].logcan))
			return 0;
	for (i = 0; i < nn; i++)
		if (isnan(n[i].logcan))
			return 0;
	/* the base side with its history of the same version; the new side */
	for (i = 0; i < nb; i++)
		group_add(&g[0], &b[i]);
	for (i = 0; i < nh; i++)
		if (!isnan(h[i].logcan) && h[i].run != base_run &&
		    strcmp(h[i].version, base_version) == 0)
			group_add(&g[0], &h[i]);
	for (i = 0; i < nn; i++)
		group_add(&g[1], &n[i]);
	for (k = 0; k < 2; k++) {
		group_points(&g[k]);
		for (i = 0; i < g[k].np; i++) {
			sxx += g[k].p[i].x * g[k].p[i].x;
			sxy += g[k].p[i].x * g[k].p[i].y;
			syy += g[k].p[i].y * g[k].p[i].y;
		}
		np += g[k].np;
	}
	if (group_runs(&g[0]) >= VREGIME_MIN_RUNS && np >= VREGIME_MIN_POINTS &&
	    sxx / (double)np >= VREGIME_MIN_SPREAD * VREGIME_MIN_SPREAD) {
		slope = sxy / sxx;
		if (slope > 0)
			slope = 0;
		if (slope < VREGIME_SLOPE_MIN)
			slope = VREGIME_SLOPE_MIN;
	}
	if (slope != 0) {
		/* the slope's standard error (residuals over their degrees of
		 * freedom: one mean per group and the slope taken), times the
		 * canary's difference between the sides it is applied across */
		resid = syy - 2 * slope * sxy + slope * slope * sxx;
		if (resid < 0)
			resid = 0;
		*se_shift = sqrt(resid / (double)(np - 3) / sxx) *
			    fabs(mean_can(n, nn) - mean_can(b, nb));
		for (i = 0; i < g[0].n; i++)
			ref += g[0].r[i]->logcan;
		ref /= (double)g[0].n;
		shift(b, nb, slope, ref);
		shift(n, nn, slope, ref);
		shift(h, nh, slope, ref);
	}
	for (k = 0; k < 2; k++) {
		free(g[k].r);
		free(g[k].p);
	}
	return slope;
}
