/* plan.c - draw a run's rounds and order from its seed (see plan.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/shuffle.h"
#include "orchestrator/run/plan.h"
#include "lib/util.h"

void plan_make(uint64_t seed, const char *const *algos, size_t nalgos,
	       size_t nspecs, size_t max_rounds, size_t passes,
	       struct plan *p)
{
	struct shuffle_rng r;
	size_t *order = xcalloc(nalgos + nspecs + 1, sizeof(size_t));
	size_t *sorder = order + nalgos, i, k, step, half;
	uint64_t *seeds;

	memset(p, 0, sizeof(*p));
	p->seed = seed;
	half = nalgos < max_rounds ? nalgos : max_rounds;
	if (half < 1)
		half = 1;
	p->passes = passes == 1 ? 1 : PLAN_PASSES;
	p->nrounds = p->passes * half;
	p->algos = xcalloc(p->nrounds + 1, sizeof(char *));
	shuffle_seed(&r, seed);
	shuffle_permutation(&r, order, nalgos);
	for (i = 0; i < half; i++) {
		/* round i gets positions [i * n / H, (i + 1) * n / H) of the
		 * permutation; round 2H - 1 - i the same algorithms in the
		 * reverse order (the second pass mirrors the first; with
		 * one pass, the same round) */
		size_t from = i * nalgos / half;
		size_t to = (i + 1) * nalgos / half;
		size_t len = 1;
		char *s, *m;

		for (k = from; k < to; k++)
			len += strlen(algos[order[k]]) + 1;
		s = xmalloc(len);
		m = xmalloc(len);
		s[0] = m[0] = '\0';
		for (k = from; k < to; k++) {
			if (k > from) {
				strcat(s, ",");
				strcat(m, ",");
			}
			strcat(s, algos[order[k]]);
			strcat(m, algos[order[to - 1 - (k - from)]]);
		}
		p->algos[i] = s;
		if (p->passes == 1)
			free(m);
		else
			p->algos[p->nrounds - 1 - i] = m;
	}
	p->nsteps = p->nrounds * nspecs;
	p->steps = xcalloc(p->nsteps + 1, sizeof(*p->steps));
	for (i = 0, step = 0; i < p->nrounds; i++) {
		shuffle_permutation(&r, sorder, nspecs);
		for (k = 0; k < nspecs; k++, step++) {
			p->steps[step].round = i;
			p->steps[step].spec = sorder[k];
		}
	}
	/* guest seeds by (round, distribution index), not by run order, so
	 * that each one depends only on where it is in the plan */
	seeds = xcalloc(p->nsteps + 1, sizeof(*seeds));
	for (i = 0; i < p->nsteps; i++) {
		/* a distribution's two invocations of an algorithm must not
		 * run its libraries in the same order: no two guest seeds of
		 * one distribution alike */
		do {
			seeds[i] = shuffle_next(&r) >> 32;
			for (k = i % nspecs; k < i && seeds[k] != seeds[i];
			     k += nspecs)
				;
		} while (k < i);
	}
	for (i = 0; i < p->nsteps; i++)
		p->steps[i].guest_seed =
			seeds[p->steps[i].round * nspecs + p->steps[i].spec];
	free(seeds);
	free(order);
}

void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nrounds; i++)
		free(p->algos[i]);
	free(p->algos);
	free(p->steps);
	free(p->pubkey);
	free(p->kdf);
	memset(p, 0, sizeof(*p));
}

int plan_round_has_kdf(const struct plan *p, size_t round)
{
	return p->kdf && p->nrounds && round == 0;
}

int plan_round_has_pubkey(const struct plan *p, size_t round)
{
	return p->pubkey && p->nrounds &&
	       ((round == 0 && p->passes != 1) || round == p->nrounds - 1);
}
