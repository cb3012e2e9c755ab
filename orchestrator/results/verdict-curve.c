/* verdict-curve.c - the curves of a comparison as matrices of log
 * throughputs (sizes x invocations) per side, with their history: what
 * verdict.c judges (orchestrator/results/verdicts.md). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/verdict-curve.h"
#include "orchestrator/results/verdict-regime.h"
#include "orchestrator/results/verdict-stats.h"

int vc_in_shape(size_t ns, int shape, size_t si)
{
	if (shape == VERDICT_SHAPE_STARTUP)
		return si < (ns + 1) / 2;
	if (shape == VERDICT_SHAPE_PERBYTE)
		return si >= ns / 2;
	return 1;
}

/* Halves are judged only when each has at least three sizes, so that no
 * single size can decide them. */
int vc_shape_usable(size_t ns, int shape)
{
	return shape == VERDICT_SHAPE_SHIFT ? ns >= 3 : ns >= 6;
}

/* Mean of side S at size SI over its invocations IDX[0..NIDX) (all when
 * IDX is NULL), NAN when none measured it. */
double vc_side_mean(const struct cside *s, size_t si, const size_t *idx,
			size_t nidx)
{
	double sum = 0;
	size_t k, m = 0, n = idx ? nidx : s->ninv;

	for (k = 0; k < n; k++) {
		double v = s->x[si * s->ninv + (idx ? idx[k] : k)];

		if (!isnan(v)) {
			sum += v;
			m++;
		}
	}
	return m ? sum / (double)m : NAN;
}

/* The log effect of C on SHAPE: the median over the shape's sizes of
 * (mean log throughput of new - of base), over the chosen invocations
 * (NULL: all). NAN when no size is measured on both sides. */
double vc_effect(const struct ccurve *c, int shape, const size_t *bi,
			size_t nbi, const size_t *ni, size_t nni)
{
	double *d = xmalloc(c->ns * sizeof(*d)), e;
	size_t si, m = 0;

	for (si = 0; si < c->ns; si++) {
		double mb, mn;

		if (!vc_in_shape(c->ns, shape, si))
			continue;
		mb = vc_side_mean(&c->b, si, bi, nbi);
		mn = vc_side_mean(&c->n, si, ni, nni);
		if (!isnan(mb) && !isnan(mn))
			d[m++] = mn - mb;
	}
	e = vstat_median(d, m);
	free(d);
	return e;
}

/* Add side S's between-invocation deviations on SHAPE to *ss and *df:
 * each invocation's curve-level deviation is the median over the sizes
 * of its log throughput minus the size's mean over the side. */
void vc_side_within(const struct cside *s, size_t ns, int shape,
			double *ss, double *df)
{
	double *dev, *mean;
	size_t k, si;

	if (s->ninv < 2)
		return;
	dev = xmalloc(ns * sizeof(*dev));
	mean = xmalloc(ns * sizeof(*mean));
	for (si = 0; si < ns; si++)
		mean[si] = vc_side_mean(s, si, NULL, 0);
	for (k = 0; k < s->ninv; k++) {
		size_t m = 0;

		for (si = 0; si < ns; si++) {
			double v = s->x[si * s->ninv + k];

			if (vc_in_shape(ns, shape, si) && !isnan(v) && !isnan(mean[si]))
				dev[m++] = v - mean[si];
		}
		if (m) {
			double d = vstat_median(dev, m);

			*ss += d * d;
		}
	}
	*df += (double)(s->ninv - 1);
	free(dev);
	free(mean);
}

/* Fill side S of curve C from the rows R[lo..hi) (one curve, sorted by
 * size and invocation), keeping the sizes of C->bytes. */
static void fill_side(struct cside *s, const struct ccurve *c,
		      const struct vrow *r, size_t lo, size_t hi)
{
	size_t i, k, si;
	double csum = 0;
	size_t cn = 0;

	s->inv = NULL;
	s->ninv = 0;
	for (i = lo; i < hi; i++) {
		for (k = 0; k < s->ninv && s->inv[k] != r[i].inv; k++)
			;
		if (k == s->ninv) {
			s->inv = xrealloc(s->inv, (s->ninv + 1) * sizeof(*s->inv));
			s->inv[s->ninv++] = r[i].inv;
			if (r[i].clock_hz > 0) {
				csum += r[i].clock_hz;
				cn++;
			}
		}
	}
	/* ascending ids: the halves alternate in measuring order */
	for (i = 1; i < s->ninv; i++)
		for (k = i; k > 0 && s->inv[k - 1] > s->inv[k]; k--) {
			int64_t t = s->inv[k];

			s->inv[k] = s->inv[k - 1];
			s->inv[k - 1] = t;
		}
	s->clock_hz = cn ? csum / (double)cn : 0;
	s->x = xmalloc((c->ns ? c->ns : 1) * (s->ninv ? s->ninv : 1) * sizeof(*s->x));
	for (i = 0; i < c->ns * s->ninv; i++)
		s->x[i] = NAN;
	for (i = lo; i < hi; i++) {
		for (si = 0; si < c->ns && c->bytes[si] != r[i].bytes; si++)
			;
		if (si == c->ns)
			continue;
		for (k = 0; s->inv[k] != r[i].inv; k++)
			;
		s->x[si * s->ninv + k] = r[i].logthr;
	}
	s->package = r[lo].package;
	s->version = r[lo].version;
}

/* The sizes measured in both B[blo..bhi) and N[nlo..nhi) into C. */
static void common_sizes(struct ccurve *c, const struct vrow *b, size_t blo,
			 size_t bhi, const struct vrow *n, size_t nlo, size_t nhi)
{
	size_t i = blo, j = nlo;

	c->ns = 0;
	c->bytes = NULL;
	while (i < bhi && j < nhi) {
		if (b[i].bytes < n[j].bytes) {
			i++;
		} else if (b[i].bytes > n[j].bytes) {
			j++;
		} else {
			int64_t v = b[i].bytes;

			c->bytes = xrealloc(c->bytes, (c->ns + 1) * sizeof(*c->bytes));
			c->bytes[c->ns++] = v;
			while (i < bhi && b[i].bytes == v)
				i++;
			while (j < nhi && n[j].bytes == v)
				j++;
		}
	}
}

/* History of C from the rows H[lo..hi) (one curve, newest run first):
 * runs with the base side's package version, at most
 * VERDICT_HISTORY_RUNS; the A/A change between each two consecutive of
 * them on every shape gives hist_sigma (root mean square) and hist_max
 * (largest magnitude). */
static void history(struct ccurve *c, const struct vrow *h, size_t lo,
		    size_t hi)
{
	double *lvl = NULL;	/* runs x sizes mean log throughput */
	size_t nruns = 0, i = lo, si, k;
	int shape;

	for (shape = 0; shape < NSHAPES; shape++) {
		c->hist_sigma[shape] = c->hist_max[shape] = -1;
		c->hist_pairs[shape] = 0;
	}
	c->hist_runs = 0;
	while (i < hi && nruns < VERDICT_HISTORY_RUNS) {
		size_t j = i;
		int64_t run = h[i].run;
		double *sum, *cnt;

		while (j < hi && h[j].run == run)
			j++;
		if (strcmp(h[i].version, c->b.version) != 0) {
			i = j;
			continue;
		}
		lvl = xrealloc(lvl, (nruns + 1) * c->ns * sizeof(*lvl));
		sum = &lvl[nruns * c->ns];
		cnt = xcalloc(c->ns, sizeof(*cnt));
		for (si = 0; si < c->ns; si++)
			sum[si] = 0;
		for (; i < j; i++)
			for (si = 0; si < c->ns; si++)
				if (c->bytes[si] == h[i].bytes) {
					sum[si] += h[i].logthr;
					cnt[si]++;
				}
		for (si = 0; si < c->ns; si++)
			sum[si] = cnt[si] ? sum[si] / cnt[si] : NAN;
		free(cnt);
		nruns++;
	}
	c->hist_runs = (int)nruns;
	for (shape = 0; shape < NSHAPES; shape++) {
		double ss = 0, mx = 0, *d = xmalloc(c->ns * sizeof(*d));
		size_t pairs = 0;

		for (k = 0; k + 1 < nruns; k++) {
			size_t m = 0;

			for (si = 0; si < c->ns; si++) {
				double a = lvl[k * c->ns + si], b = lvl[(k + 1) * c->ns + si];

				if (vc_in_shape(c->ns, shape, si) && !isnan(a) && !isnan(b))
					d[m++] = a - b;
			}
			if (m) {
				double e = vstat_median(d, m);

				ss += e * e;
				if (fabs(e) > mx)
					mx = fabs(e);
				pairs++;
			}
		}
		free(d);
		/* two A/A pairs at least: one says little about a spread */
		if (pairs >= 2) {
			c->hist_sigma[shape] = sqrt(ss / (double)pairs);
			c->hist_max[shape] = mx;
			c->hist_pairs[shape] = (int)pairs;
		}
	}
	free(lvl);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int key_in(char **list, size_t n, const struct vrow *r)
{
	char *key = xasprintf("%s|%s|%s|%s|%s|%s", r->k[VK_DISTRO],
			      r->k[VK_LIBRARY], r->k[VK_ALGORITHM],
			      r->k[VK_OPERATION], r->k[VK_MODE], r->k[VK_VARIANT]);
	int found = n && bsearch(&key, list, n, sizeof(*list), cmp_str) != NULL;

	free(key);
	return found;
}


/* End of the group of rows from I naming the same curve. */
static size_t group_end(const struct vrows *r, size_t i)
{
	size_t j = i + 1;

	while (j < r->n && vrow_key_cmp(&r->v[i], &r->v[j]) == 0)
		j++;
	return j;
}

/* Pair the curves of B and N (and their history in H) into *ret. */
size_t vc_build(struct vrows *b, struct vrows *n,
			   struct vrows *h, char **mb, size_t nmb,
			   char **mn, size_t nmn, struct ccurve **ret)
{
	struct ccurve *cs = NULL;
	size_t i = 0, j = 0, hk = 0, nc = 0;

	while (i < b->n && j < n->n) {
		int c = vrow_key_cmp(&b->v[i], &n->v[j]);
		size_t ie, je, he;
		struct ccurve *cc;

		if (c < 0) {
			i = group_end(b, i);
			continue;
		}
		if (c > 0) {
			j = group_end(n, j);
			continue;
		}
		ie = group_end(b, i);
		je = group_end(n, j);
		while (hk < h->n && vrow_key_cmp(&h->v[hk], &b->v[i]) < 0)
			hk++;
		he = hk;
		while (he < h->n && vrow_key_cmp(&h->v[he], &b->v[i]) == 0)
			he++;
		cs = xrealloc(cs, (nc + 1) * sizeof(*cs));
		cc = &cs[nc];
		memset(cc, 0, sizeof(*cc));
		cc->name = &b->v[i];
		common_sizes(cc, b->v, i, ie, n->v, j, je);
		if (cc->ns == 0) {
			free(cc->bytes);
			i = ie;
			j = je;
			hk = he;
			continue;
		}
		/* the host's speed out first: sides, history, noise */
		cc->regime_slope = vregime_adjust(&b->v[i], ie - i, &n->v[j],
						  je - j, &h->v[hk], he - hk,
						  b->v[i].version,
						  &cc->regime_se);
		fill_side(&cc->b, cc, b->v, i, ie);
		fill_side(&cc->n, cc, n->v, j, je);
		history(cc, h->v, hk, he);
		hk = he;
		cc->moved = key_in(mb, nmb, cc->name) || key_in(mn, nmn, cc->name);
		nc++;
		i = ie;
		j = je;
	}
	*ret = cs;
	return nc;
}

void vc_free(struct ccurve *cs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(cs[i].bytes);
		free(cs[i].b.inv);
		free(cs[i].b.x);
		free(cs[i].n.inv);
		free(cs[i].n.x);
	}
	free(cs);
}

/* Pooled within-run variance per (distro, library) and shape: curves of
 * one library share their invocations, and a pool has far more degrees
 * of freedom than a curve. */