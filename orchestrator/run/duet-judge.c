/* duet-judge.c - a duet's verdicts per curve (see duet-judge.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "orchestrator/run/duet-judge.h"
#include "orchestrator/results/verdict-stats.h"

/* The sizes of a curve with many (DUET_ALL_SIZES_MAX), bytes. */
static const long long judged_sizes[] = { 16, 256, 4096, 65536, 1048576 };

/* Order two results by library, algorithm, operation, mode, size. */
static int cmp_point(const struct guest_result *a,
		     const struct guest_result *b, int with_size)
{
	int c;

	if ((c = strcmp(a->library, b->library)) ||
	    (c = strcmp(a->algorithm, b->algorithm)) ||
	    (c = strcmp(a->operation, b->operation)) ||
	    (c = strcmp(a->mode, b->mode)))
		return c;
	if (!with_size)
		return 0;
	return (a->buffer_bytes > b->buffer_bytes) -
	       (a->buffer_bytes < b->buffer_bytes);
}

static int cmp_ptr(const void *a, const void *b)
{
	return cmp_point(*(const struct guest_result *const *)a,
			 *(const struct guest_result *const *)b, 1);
}

/* OUT's results, sorted (cmp_point), in a new array of N pointers. */
static const struct guest_result **sorted(const struct guest_output *out)
{
	const struct guest_result **v =
		xcalloc(out->nresults + 1, sizeof(*v));

	for (size_t i = 0; i < out->nresults; i++)
		v[i] = &out->results[i];
	qsort(v, out->nresults, sizeof(*v), cmp_ptr);
	return v;
}

/* The base's twin of R in the sorted B (N of them), or NULL. */
static const struct guest_result *twin(const struct guest_result **b,
				       size_t n, const struct guest_result *r)
{
	const struct guest_result **f = bsearch(&r, b, n, sizeof(*b), cmp_ptr);

	return f ? *f : NULL;
}

/* Whether SIZE is one of judged_sizes. */
static int judged(long long size)
{
	for (size_t i = 0; i < sizeof(judged_sizes) / sizeof(judged_sizes[0]);
	     i++)
		if (judged_sizes[i] == size)
			return 1;
	return 0;
}

/* The rounds a result holds one block each of (a duet's: one set), or
 * 0 when it holds none. */
static unsigned rounds_of(const struct guest_result *r)
{
	if (r->t.sets != 1 || !r->t.samples_ns || r->calls_per_batch <= 0)
		return 0;
	return (unsigned)r->t.nsamples;
}

/* ln(bytes per ns) of R's block of round K. */
static double log_rate(const struct guest_result *r, unsigned k)
{
	return log((double)r->calls_per_batch / (double)r->t.samples_ns[k]);
}

/* A curve being gathered: its points' twins and round statistics. */
struct gathered {
	struct duet_curve c;
	double m[GUEST_MAX_REPETITIONS];	/* round statistics */
	unsigned rounds;
};

/* Gather the curve whose new points are N[0..count) into G: the sizes
 * to judge (all, or judged_sizes when there are many) that have a twin in
 * B (NB of them), and the round statistics. Returns 0, or -1 when fewer
 * than 3 rounds pair up. */
static int gather(const struct guest_result **n, size_t count,
		  const struct guest_result **b, size_t nb,
		  struct gathered *g)
{
	const struct guest_result *pn[64], *pb[64];
	double d[64];
	size_t k = 0;
	unsigned rounds = GUEST_MAX_REPETITIONS;

	for (size_t i = 0; i < count && k < 64; i++) {
		const struct guest_result *t;

		if (count > DUET_ALL_SIZES_MAX && !judged(n[i]->buffer_bytes))
			continue;
		if (!(t = twin(b, nb, n[i])) || !rounds_of(n[i]) ||
		    !rounds_of(t))
			continue;
		pn[k] = n[i];
		pb[k] = t;
		if (rounds_of(n[i]) < rounds)
			rounds = rounds_of(n[i]);
		if (rounds_of(t) < rounds)
			rounds = rounds_of(t);
		k++;
	}
	if (k == 0 || rounds < 3)
		return -1;
	memset(g, 0, sizeof(*g));
	g->c.library = n[0]->library;
	g->c.algorithm = n[0]->algorithm;
	g->c.operation = n[0]->operation;
	g->c.mode = n[0]->mode;
	g->c.nsizes = k;
	g->rounds = rounds;
	for (unsigned r = 0; r < rounds; r++) {
		for (size_t i = 0; i < k; i++)
			d[i] = log_rate(pn[i], r) - log_rate(pb[i], r);
		g->m[r] = pv_round_stat(d, k);
	}
	return 0;
}

/* The variance of a pair of guests' bias (log ratio squared) for
 * LIBRARY's curves of MODE (bulk or oneshot: a one-shot call's cost is
 * mostly per-call work, placed elsewhere), pooled over those curves in G
 * with levels LV (N of them) that span two pairs or more (duet-judge.h);
 * 0 when none does. */
static double var_between(const struct pv_levels *lv,
			  const struct gathered *g, size_t n,
			  const char *library, const char *mode)
{
	double num = 0, den = 0;

	for (size_t i = 0; i < n; i++) {
		double df = (double)lv[i].rounds - lv[i].groups;

		if (strcmp(g[i].c.library, library) ||
		    strcmp(g[i].c.mode, mode) || lv[i].groups < 2 || df < 1)
			continue;
		num += lv[i].q_between -
		       (lv[i].groups - 1) * lv[i].ss_within / df;
		den += lv[i].n0;
	}
	return den > 0 && num > 0 ? num / den : 0;
}

int duet_is_tested(const char *const *tested, const char *library)
{
	if (!tested)
		return 1;
	for (size_t i = 0; tested[i]; i++)
		if (strcmp(tested[i], library) == 0)
			return 1;
	return 0;
}

size_t duet_judge(const struct guest_output *base,
		  const struct guest_output *new_out,
		  const struct duet_judge_params *p, struct duet_curve **ret)
{
	const struct guest_result **b = sorted(base), **n = sorted(new_out);
	struct gathered *g = xcalloc(new_out->nresults + 1, sizeof(*g));
	struct duet_curve *out;
	struct pv_levels *lv;
	size_t ng = 0, i = 0;

	while (i < new_out->nresults) {
		size_t j = i + 1;

		while (j < new_out->nresults && !cmp_point(n[i], n[j], 0))
			j++;
		if (gather(n + i, j - i, b, base->nresults, &g[ng]) == 0)
			ng++;
		i = j;
	}
	out = ng ? xcalloc(ng, sizeof(*out)) : NULL;
	lv = ng ? xcalloc(ng, sizeof(*lv)) : NULL;
	for (i = 0; i < ng; i++)
		pv_levels(g[i].m, g[i].rounds, p->pass_start,
			  p->pass_start ? p->npasses : 0, &lv[i]);
	for (i = 0; i < ng; i++) {
		struct pv_params pp = {
			.threshold = p->threshold,
			.alpha = p->alpha,
			.min_rounds = g[i].rounds,
			.max_rounds = g[i].rounds,
		};

		if (p->first_look >= 3 && p->max_rounds >= p->first_look) {
			pp.min_rounds = p->first_look;
			pp.max_rounds = p->max_rounds;
		}

		/* alpha over the library's curves: the tested library's
		 * family, and each control's its own */
		for (size_t k = 0; k < ng; k++)
			if (!strcmp(g[k].c.library, g[i].c.library))
				pp.ntested++;
		out[i] = g[i].c;
		out[i].tested = duet_is_tested(p->tested, g[i].c.library);
		pv_judge_levels(&lv[i], var_between(lv, g, ng, g[i].c.library,
					       g[i].c.mode),
				&pp, &out[i].r);
	}
	free(lv);
	free(g);
	free(b);
	free(n);
	*ret = out;
	return ng;
}

double duet_median_mde(const struct duet_curve *c, size_t n,
		       int tested_only)
{
	double *v = xcalloc(n + 1, sizeof(*v)), m;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!tested_only || c[i].tested)
			v[k++] = c[i].r.mde;
	m = k ? vstat_median(v, k) : 0;
	free(v);
	return m;
}
