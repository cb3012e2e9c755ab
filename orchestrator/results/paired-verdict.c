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

void pv_judge(const double *m, unsigned rounds, const struct pv_params *p,
	      struct pv_result *r)
{
	double mean = 0, var = 0, se, df, t95, t90, alpha_look, tlook, tpow;
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->verdict = PV_MORE;
	r->rounds = rounds;
	r->p = 1;
	if (rounds < 2)
		return;
	for (i = 0; i < rounds; i++)
		mean += m[i];
	mean /= rounds;
	for (i = 0; i < rounds; i++)
		var += (m[i] - mean) * (m[i] - mean);
	var /= rounds - 1;
	se = sqrt(var / rounds);
	df = rounds - 1;
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
