/* verdict-judge.c - the statistics of a verdict: each curve's effect,
 * its bootstrap interval, its p and q, the noise it was judged against,
 * its state, and the smallest change each library's noise lets the
 * comparison detect (see verdict-judge.h, verdicts.md). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/verdict-curve.h"
#include "orchestrator/results/verdict-judge.h"
#include "orchestrator/results/verdict-stats.h"
#include "orchestrator/results/verdict.h"

/* z(0.975) + z(0.80): the minimum detectable effect at 80 % power */
#define Z_MDE (1.959964 + 0.841621)

struct boot {
	const struct ccurve *c;
	int shape;
	size_t *bi, *ni;	/* resampled invocations */
	const double *diffs;	/* per-size log-ratios (by sizes) */
	double *tmp;
	size_t nd;
};

static double boot_invocations(void *ctx, struct vstat_rng *rng)
{
	struct boot *b = ctx;
	size_t k;

	for (k = 0; k < b->c->b.ninv; k++)
		b->bi[k] = vstat_rng_below(rng, b->c->b.ninv);
	for (k = 0; k < b->c->n.ninv; k++)
		b->ni[k] = vstat_rng_below(rng, b->c->n.ninv);
	return vc_effect(b->c, b->shape, b->bi, b->c->b.ninv, b->ni,
			 b->c->n.ninv);
}

static double boot_sizes(void *ctx, struct vstat_rng *rng)
{
	struct boot *b = ctx;
	size_t k;

	for (k = 0; k < b->nd; k++)
		b->tmp[k] = b->diffs[vstat_rng_below(rng, b->nd)];
	return vstat_median(b->tmp, b->nd);
}

/* Bootstrap interval of C's log effect on SHAPE: over invocations when
 * both sides have two or more, else over sizes. Returns 0 or -1. */
static int boot_ci(const struct ccurve *c, int shape, double *lo, double *hi)
{
	struct boot b = { .c = c, .shape = shape };
	uint64_t seed = VSTAT_FNV_INIT;
	double *d = xmalloc(c->ns * sizeof(*d));
	size_t si;
	int k, rc;

	for (k = 0; k < VK_N; k++)
		seed = vstat_hash(seed, c->name->k[k]);
	seed ^= (uint64_t)shape;
	if (c->b.ninv >= 2 && c->n.ninv >= 2) {
		b.bi = xmalloc(c->b.ninv * sizeof(*b.bi));
		b.ni = xmalloc(c->n.ninv * sizeof(*b.ni));
		rc = vstat_bootstrap(boot_invocations, &b, seed,
				     VERDICT_BOOTSTRAP_REPS, 0.05, lo, hi);
		free(b.bi);
		free(b.ni);
	} else {
		for (si = 0; si < c->ns; si++) {
			double mb = vc_side_mean(&c->b, si, NULL, 0);
			double mn = vc_side_mean(&c->n, si, NULL, 0);

			if (vc_in_shape(c->ns, shape, si) && !isnan(mb) && !isnan(mn))
				d[b.nd++] = mn - mb;
		}
		b.diffs = d;
		b.tmp = xmalloc((b.nd ? b.nd : 1) * sizeof(*b.tmp));
		rc = b.nd ? vstat_bootstrap(boot_sizes, &b, seed,
					    VERDICT_BOOTSTRAP_REPS, 0.05, lo, hi) : -1;
		free(b.tmp);
	}
	free(d);
	return rc;
}

/* Does the effect on SHAPE hold in both halves of each side's
 * invocations (even and odd positions in measuring order): same sign as
 * E and at least THRESHOLD in size? 1 yes, 0 no, -1 not testable. */
static int halves_hold(const struct ccurve *c, int shape, double e,
		       double threshold)
{
	size_t bi[2][64], ni[2][64], nb[2] = { 0, 0 }, nn[2] = { 0, 0 }, k;
	int h;

	if (c->b.ninv < 2 || c->n.ninv < 2)
		return -1;
	for (k = 0; k < c->b.ninv && k < 128; k++)
		bi[k % 2][nb[k % 2]++] = k;
	for (k = 0; k < c->n.ninv && k < 128; k++)
		ni[k % 2][nn[k % 2]++] = k;
	for (h = 0; h < 2; h++) {
		double eh = vc_effect(c, shape, bi[h], nb[h], ni[h], nn[h]);

		if (isnan(eh) || (eh < 0) != (e < 0) || fabs(expm1(eh)) < threshold)
			return 0;
	}
	return 1;
}

static void pool_library(struct ccurve *cs, size_t nc, size_t i,
			 double *pss, double *pdf)
{
	size_t k;
	int s;

	for (s = 0; s < NSHAPES; s++)
		pss[s] = pdf[s] = 0;
	for (k = 0; k < nc; k++) {
		if (strcmp(cs[k].name->k[VK_DISTRO], cs[i].name->k[VK_DISTRO]) ||
		    strcmp(cs[k].name->k[VK_LIBRARY], cs[i].name->k[VK_LIBRARY]))
			continue;
		for (s = 0; s < NSHAPES; s++) {
			pss[s] += cs[k].ss[s];
			pdf[s] += cs[k].df[s];
		}
	}
}

/* The prior of the history noise of library cs[I]'s curves on its
 * distribution, per shape: the empirical Bayes fit (vstat_moderate_fit)
 * to the history variances of the library's curves (hist_sigma squared,
 * hist_pairs degrees of freedom each) into S0SQ and D0. A curve's own
 * history has few pairs (one less than its history runs); alone, its
 * Student's t with 2 or 3 degrees of freedom cannot reach a p-value that
 * survives the correction over hundreds of curves, whatever the effect.
 * Moderated, it borrows the degrees of freedom its library's curves
 * share, as much as their variances agree. D0 is capped at the pool's
 * degrees of freedom (a prior carries no more than the data it came
 * from), and 0 when fewer than 3 curves have a history (no prior). */
static void history_prior(const struct ccurve *cs, size_t nc, size_t i,
			  double *s0sq, double *d0)
{
	double *s2 = xmalloc((nc ? nc : 1) * sizeof(*s2));
	double *df = xmalloc((nc ? nc : 1) * sizeof(*df));
	int s;

	for (s = 0; s < NSHAPES; s++) {
		double pool = 0;
		size_t k, m = 0;

		for (k = 0; k < nc; k++) {
			if (strcmp(cs[k].name->k[VK_DISTRO], cs[i].name->k[VK_DISTRO]) ||
			    strcmp(cs[k].name->k[VK_LIBRARY], cs[i].name->k[VK_LIBRARY]) ||
			    cs[k].hist_pairs[s] < 1 || !(cs[k].hist_sigma[s] > 0))
				continue;
			s2[m] = cs[k].hist_sigma[s] * cs[k].hist_sigma[s];
			df[m] = cs[k].hist_pairs[s];
			pool += df[m++];
		}
		d0[s] = 0;
		s0sq[s] = 0;
		if (vstat_moderate_fit(s2, df, m, &s0sq[s], &d0[s]) < 0) {
			d0[s] = 0;
			s0sq[s] = 0;
		} else if (d0[s] > pool) {
			d0[s] = pool;
		}
	}
	free(s2);
	free(df);
}

/* The noise across the curves of a comparison for a curve of library
 * LIBRARY on DISTRO: 1.4826 x the median of |log effect| over every curve
 * of the other libraries (any distribution) whose canary did not move
 * (the median absolute deviation about zero, scaled to a standard
 * deviation for normal data; Rousseeuw and Croux, JASA 88, 1993). A
 * package update touches one library, so the others' curves measure how
 * far the two sides drift apart as a whole, a shift shared by every curve
 * included, without the change being judged (a --nohw run that changes
 * most of OpenSSL's curves does not hide them in their own spread).
 * -1 with fewer than VERDICT_ACROSS_MIN such curves (a comparison of one
 * library has none). */
static double across_curves(const struct ccurve *cs, size_t nc,
			    const char *library)
{
	double *e = xmalloc((nc ? nc : 1) * sizeof(*e)), m;
	size_t i, n = 0;

	for (i = 0; i < nc; i++) {
		double v;

		if (cs[i].moved ||
		    !strcmp(cs[i].name->k[VK_LIBRARY], library))
			continue;
		v = vc_effect(&cs[i], VERDICT_SHAPE_SHIFT, NULL, 0, NULL, 0);
		if (!isnan(v))
			e[n++] = fabs(v);
	}
	m = n >= VERDICT_ACROSS_MIN ? 1.4826 * vstat_median(e, n) : -1;
	free(e);
	return m;
}

/* Judge curve C into V (p, effect, interval, noise; q and state later). */
static void judge(const struct ccurve *c, const double *pss, const double *pdf,
		  const double *h_s0sq, const double *h_d0, double across,
		  double threshold, struct verdict_curve *v)
{
	double best_p = 2;
	int shape, nshapes = 0;

	v->p = 1;
	v->effect = 0;
	v->ci_low = v->ci_high = 0;
	v->shape = VERDICT_SHAPE_SHIFT;
	v->noise = VERDICT_NOISE_FALLBACK;
	v->noise_within = v->noise_history = -1;
	v->noise_df = 1e6;
	v->source = VERDICT_NOISE_ASSUMED;
	v->halves = -1;
	for (shape = 0; shape < NSHAPES; shape++)
		nshapes += vc_shape_usable(c->ns, shape);
	for (shape = 0; shape < NSHAPES; shape++) {
		double e, sw = -1, sh = c->hist_sigma[shape], sigma, p, lo, hi;
		double dfw = 0, df = 1e6;	/* degrees of freedom of sigma */
		double dfh = c->hist_pairs[shape];	/* of sh */
		enum verdict_noise_source src = VERDICT_NOISE_ASSUMED;

		if (!vc_shape_usable(c->ns, shape) && !(shape == 0 && nshapes == 0))
			continue;
		e = vc_effect(c, shape, NULL, 0, NULL, 0);
		if (isnan(e))
			continue;
		/* the history noise moderated by its library's (history_prior) */
		if (sh >= 0 && dfh >= 1 && h_d0[shape] > 0) {
			sh = sqrt((h_d0[shape] * h_s0sq[shape] + dfh * sh * sh) /
				  (h_d0[shape] + dfh));
			dfh += h_d0[shape];
		}
		if (pdf[shape] >= 1) {
			double sc = c->df[shape] >= 1 ? sqrt(c->ss[shape] / c->df[shape]) : 0;
			double sp = sqrt(pss[shape] / pdf[shape]);

			sw = (sc > sp ? sc : sp) *
			     sqrt(1.0 / (double)c->b.ninv + 1.0 / (double)c->n.ninv);
			dfw = pdf[shape];	/* the pool's: the max above is the caution */
		}
		/* an estimate from few degrees of freedom is uncertain itself:
		 * the p-value and interval come from Student's t with the
		 * estimate's degrees of freedom (the assumed noise: normal) */
		if (sw < 0 && sh < 0) {
			sigma = VERDICT_NOISE_FALLBACK;
		} else if (sh > sw) {
			sigma = sh;
			df = dfh;
			src = VERDICT_NOISE_HISTORY;
		} else {
			sigma = sw;
			df = dfw;
			src = VERDICT_NOISE_INVOCATIONS;
		}
		/* without history nothing measured says how far two runs
		 * drift apart: the spread of the effects of all the curves
		 * compared, about zero, is such a measure */
		if (sh < 0 && across > sigma) {
			sigma = across;
			df = 1e6;
			src = VERDICT_NOISE_CURVES;
		}
		if (sigma < VERDICT_NOISE_MIN)
			sigma = VERDICT_NOISE_MIN;
		/* the uncertainty of the host-speed adjustment */
		sigma = sqrt(sigma * sigma + c->regime_se * c->regime_se);
		p = vstat_t_p(e / sigma, df);
		if (p >= best_p)
			continue;
		best_p = p;
		lo = e - vstat_t_crit(df, 0.05) * sigma;
		hi = e + vstat_t_crit(df, 0.05) * sigma;
		{
			double blo, bhi;

			/* the wider of the model's and the bootstrap's */
			if (boot_ci(c, shape, &blo, &bhi) == 0) {
				if (blo < lo)
					lo = blo;
				if (bhi > hi)
					hi = bhi;
			}
		}
		v->shape = (enum verdict_shape)shape;
		v->effect = expm1(e);
		v->ci_low = expm1(lo);
		v->ci_high = expm1(hi);
		v->noise = sigma;
		v->noise_within = sw;
		v->noise_history = sh;
		v->noise_df = df;
		v->source = src;
		/* Bonferroni over the shapes tried, within the curve */
		v->p = p * (nshapes ? nshapes : 1);
		if (v->p > 1)
			v->p = 1;
		v->halves = halves_hold(c, shape, e, threshold);
	}
}

/* Fill R's curves from CS: judge, adjust, set states. The spread across
 * the curves serves as noise only when USE_ACROSS: it assumes that most
 * curves compared did not change, which does not hold for a
 * confirmation's own verdict (it measured again only curves that looked
 * changed, so their spread is the change itself). */
void verdict_decide(struct verdict_result *r, struct ccurve *cs, size_t nc,
		    int use_across)
{
	double *p = xmalloc((nc ? nc : 1) * sizeof(*p)), *q;
	size_t i, m = 0, *idx = xmalloc((nc ? nc : 1) * sizeof(*idx));
	double *clock = xmalloc((nc ? nc : 1) * sizeof(*clock));
	size_t nclock = 0, nassumed = 0, nacross = 0;
	double across = -1, across_max = -1;
	double h_s0sq[NSHAPES] = { 0 }, h_d0[NSHAPES] = { 0 };

	r->curves = xcalloc(nc ? nc : 1, sizeof(*r->curves));
	r->ncurves = nc;
	for (i = 0; i < nc; i++) {
		struct ccurve *c = &cs[i];
		int k;

		for (k = 0; k < NSHAPES; k++) {
			vc_side_within(&c->b, c->ns, k, &c->ss[k], &c->df[k]);
			vc_side_within(&c->n, c->ns, k, &c->ss[k], &c->df[k]);
		}
	}
	for (i = 0; i < nc; i++) {
		struct ccurve *c = &cs[i];
		struct verdict_curve *v = &r->curves[i];
		double pss[NSHAPES], pdf[NSHAPES];

		v->distro = xstrdup(c->name->k[VK_DISTRO]);
		v->library = xstrdup(c->name->k[VK_LIBRARY]);
		v->algorithm = xstrdup(c->name->k[VK_ALGORITHM]);
		v->operation = xstrdup(c->name->k[VK_OPERATION]);
		v->mode = xstrdup(c->name->k[VK_MODE]);
		v->variant = xstrdup(c->name->k[VK_VARIANT]);
		v->package = xstrdup(c->n.package);
		v->base_version = xstrdup(c->b.version);
		v->new_version = xstrdup(c->n.version);
		v->nsizes = c->ns;
		v->base_inv = c->b.ninv;
		v->new_inv = c->n.ninv;
		v->history_runs = c->hist_runs;
		v->regime_slope = c->regime_slope;
		v->clock_ratio = c->b.clock_hz > 0 && c->n.clock_hz > 0 ?
				 c->n.clock_hz / c->b.clock_hz : 0;
		if (v->clock_ratio > 0)
			clock[nclock++] = v->clock_ratio;
		v->canary_moved = c->moved;
		v->confirmation = -1;
		v->q = 1;
		pool_library(cs, nc, i, pss, pdf);
		/* once per library: the curves are sorted by distro and
		 * library, so the last value serves until it changes */
		if (use_across && (i == 0 ||
				   strcmp(cs[i - 1].name->k[VK_LIBRARY],
					  c->name->k[VK_LIBRARY])))
			across = across_curves(cs, nc, c->name->k[VK_LIBRARY]);
		/* likewise once per distribution and library */
		if (i == 0 || strcmp(cs[i - 1].name->k[VK_LIBRARY],
				     c->name->k[VK_LIBRARY]) ||
		    strcmp(cs[i - 1].name->k[VK_DISTRO], c->name->k[VK_DISTRO]))
			history_prior(cs, nc, i, h_s0sq, h_d0);
		judge(c, pss, pdf, h_s0sq, h_d0, across, r->threshold, v);
		if (v->source == VERDICT_NOISE_CURVES && across > across_max)
			across_max = across;
		if (v->source == VERDICT_NOISE_ASSUMED)
			nassumed++;
		if (v->source == VERDICT_NOISE_CURVES)
			nacross++;
		if (c->moved) {
			v->state = VERDICT_FLAGGED;
			r->nflagged++;
			continue;
		}
		p[m] = v->p;
		idx[m++] = i;
	}
	q = xmalloc((m ? m : 1) * sizeof(*q));
	vstat_bh_adjust(p, q, m);
	for (i = 0; i < m; i++) {
		struct verdict_curve *v = &r->curves[idx[i]];
		const struct ccurve *c = &cs[idx[i]];

		v->q = q[i];
		v->state = VERDICT_UNCHANGED;
		if (v->q > r->alpha || fabs(v->effect) <= r->threshold)
			continue;
		v->state = VERDICT_CHANGED;
		r->nchanged++;
		if (v->effect < 0)
			r->nregressions++;
		else
			r->nimprovements++;
		if (v->halves == 1 && (c->hist_max[v->shape] < 0 ||
				       fabs(log1p(v->effect)) > c->hist_max[v->shape])) {
			v->state = VERDICT_CONFIRMED;
			r->nconfirmed++;
			if (v->effect < 0)
				r->nconfirmed_regressions++;
		}
	}
	if (nclock) {
		double med = vstat_median(clock, nclock);

		if (fabs(med - 1) > 0.02)
			verdict_add_caveat(r, "the core clock the guests measured differs by %+.1f %% (new against base): CPU-bound curves move with it; effects are not corrected for it",
					   100 * (med - 1));
	}
	if (nassumed)
		verdict_add_caveat(r, "%zu curve%s had neither two invocations on a side nor history: judged against an assumed noise of %.0f %%",
				   nassumed, nassumed == 1 ? "" : "s",
				   100 * VERDICT_NOISE_FALLBACK);
	if (nacross)
		verdict_add_caveat(r, "%zu curve%s had no history: judged against the spread of the effects of the other libraries' curves (up to %.1f %%), larger than their own",
				   nacross, nacross == 1 ? "" : "s", 100 * across_max);
	free(p);
	free(q);
	free(idx);
	free(clock);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Per library, the minimum detectable effect. */
void verdict_mdes(struct verdict_result *r)
{
	size_t i, k;

	for (i = 0; i < r->ncurves; i++) {
		const char *lib = r->curves[i].library;
		double *noise = NULL, m;
		size_t n = 0;

		for (k = 0; k < r->nmdes && strcmp(r->mdes[k].library, lib); k++)
			;
		if (k < r->nmdes)
			continue;
		for (k = 0; k < r->ncurves; k++)
			if (strcmp(r->curves[k].library, lib) == 0 &&
			    r->curves[k].state != VERDICT_FLAGGED) {
				noise = xrealloc(noise, (n + 1) * sizeof(*noise));
				noise[n++] = r->curves[k].noise;
			}
		if (!n)
			continue;
		qsort(noise, n, sizeof(*noise), cmp_double);
		m = expm1(Z_MDE * vstat_median(noise, n));
		free(noise);
		r->mdes = xrealloc(r->mdes, (r->nmdes + 1) * sizeof(*r->mdes));
		r->mdes[r->nmdes].library = xstrdup(lib);
		r->mdes[r->nmdes++].mde = m > r->threshold ? m : r->threshold;
	}
}
