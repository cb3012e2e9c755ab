/* paired-verdict.c - a curve's verdict from paired rounds (see
 * paired-verdict.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "orchestrator/results/paired-verdict.h"
#include "orchestrator/results/verdict-stats.h"

double pv_round_stat(const double *d, size_t nsizes)
{
	return vstat_median(d, nsizes);
}

unsigned pv_looks(const struct pv_params *p)
{
	unsigned n = 0, r;

	for (r = p->min_rounds; r < p->max_rounds; r *= 2)
		n++;
	return n + 1;
}

int pv_is_look(unsigned rounds, const struct pv_params *p)
{
	unsigned r;

	if (rounds == p->max_rounds)
		return 1;
	for (r = p->min_rounds; r < p->max_rounds; r *= 2)
		if (r == rounds)
			return 1;
	return 0;
}

const char *pv_verdict_name(enum pv_verdict v)
{
	switch (v) {
	case PV_SLOWER:
		return "slower";
	case PV_FASTER:
		return "faster";
	case PV_SAME:
		return "same";
	case PV_UNDECIDED:
		return "undecided";
	default:
		return "more";
	}
}

void pv_decide(double mean, double se, double df, unsigned rounds,
	       const struct pv_params *p, struct pv_result *r)
{
	double t95, t90, alpha_look, tlook, tpow;

	memset(r, 0, sizeof(*r));
	r->verdict = PV_MORE;
	r->rounds = rounds;
	r->p = 1;
	if (rounds < 2 || df < 1)
		return;
	t95 = vstat_t_crit(df, 0.05);
	t90 = vstat_t_crit(df, 0.10);
	alpha_look = p->alpha / (p->ntested ? p->ntested : 1) / pv_looks(p);
	tlook = vstat_t_crit(df, alpha_look);
	tpow = vstat_t_crit(df, 0.40);	/* one-sided 0.20: 80 % power */
	r->effect = expm1(mean);
	r->low = expm1(mean - t95 * se);
	r->high = expm1(mean + t95 * se);
	r->p = se > 0 ? vstat_t_p(mean / se, df) : mean != 0 ? 0 : 1;
	r->mde = expm1((tlook + tpow) * se);
	if (rounds < p->min_rounds || !pv_is_look(rounds, p))
		return;
	if (r->p <= alpha_look && fabs(r->effect) >= p->threshold)
		r->verdict = mean < 0 ? PV_SLOWER : PV_FASTER;
	else if (expm1(mean - t90 * se) >= -p->threshold &&
		 expm1(mean + t90 * se) <= p->threshold)
		r->verdict = PV_SAME;
	else if (rounds >= p->max_rounds)
		r->verdict = PV_UNDECIDED;
}

void pv_judge(const double *m, unsigned rounds, const struct pv_params *p,
	      struct pv_result *r)
{
	double mean = 0, var = 0;
	unsigned i;

	if (rounds < 2) {
		pv_decide(0, 0, 0, rounds, p, r);
		return;
	}
	for (i = 0; i < rounds; i++)
		mean += m[i];
	mean /= rounds;
	for (i = 0; i < rounds; i++)
		var += (m[i] - mean) * (m[i] - mean);
	var /= rounds - 1;
	pv_decide(mean, sqrt(var / rounds), rounds - 1, rounds, p, r);
}

void pv_levels(const double *m, unsigned rounds, const unsigned *start,
	       unsigned nstart, struct pv_levels *l)
{
	static const unsigned zero = 0;

	memset(l, 0, sizeof(*l));
	l->rounds = rounds;
	if (!rounds)
		return;
	for (unsigned i = 0; i < rounds; i++)
		l->mean += m[i];
	l->mean /= rounds;
	if (!start || !nstart) {
		start = &zero;	/* one pair */
		nstart = 1;
	}
	for (unsigned j = 0; j < nstart && start[j] < rounds; j++) {
		unsigned a = start[j], b = rounds, n;
		double gm = 0;

		if (j + 1 < nstart && start[j + 1] < rounds)
			b = start[j + 1];
		if (b <= a)
			continue;
		n = b - a;
		for (unsigned i = a; i < b; i++)
			gm += m[i];
		gm /= n;
		for (unsigned i = a; i < b; i++)
			l->ss_within += (m[i] - gm) * (m[i] - gm);
		l->q_between += n * (gm - l->mean) * (gm - l->mean);
		l->weight2 += ((double)n / rounds) * ((double)n / rounds);
		l->groups++;
	}
	/* E[Q] = (groups - 1) var_within + n0 var_between (one-way random
	 * effects, unequal groups) */
	l->n0 = rounds * (1 - l->weight2);
}

void pv_judge_levels(const struct pv_levels *l, double var_between,
		     const struct pv_params *p, struct pv_result *r)
{
	double df = (double)l->rounds - l->groups, var_within, se;

	if (l->groups < 2 || df < 1) {
		/* one group: the rounds' own spread, as pv_judge */
		double var = l->rounds > 1 ? (l->ss_within + l->q_between) /
					     (l->rounds - 1) : 0;

		pv_decide(l->mean, l->rounds ? sqrt(var / l->rounds) : 0,
			  (double)l->rounds - 1, l->rounds, p, r);
		return;
	}
	var_within = l->ss_within / df;
	se = sqrt(var_within / l->rounds +
		  (var_between > 0 ? var_between : 0) * l->weight2);
	pv_decide(l->mean, se, df, l->rounds, p, r);
}
