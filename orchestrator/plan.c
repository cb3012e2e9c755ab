/* plan.c - draw a run's rounds and order from its seed (see plan.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "guest/shuffle.h"
#include "orchestrator/plan.h"
#include "orchestrator/util.h"

void plan_make(uint64_t seed, const char *const *algos, size_t nalgos,
	       size_t nspecs, size_t max_rounds, struct plan *p)
{
	struct shuffle_rng r;
	size_t *order = xcalloc(nalgos + nspecs + 1, sizeof(size_t));
	size_t *sorder = order + nalgos, i, k, step;
	uint64_t *seeds;

	memset(p, 0, sizeof(*p));
	p->seed = seed;
	p->nrounds = nalgos < max_rounds ? nalgos : max_rounds;
	p->algos = xcalloc(p->nrounds + 1, sizeof(char *));
	shuffle_seed(&r, seed);
	shuffle_permutation(&r, order, nalgos);
	for (i = 0; i < p->nrounds; i++) {
		/* round i gets positions [i * n / R, (i + 1) * n / R) */
		size_t from = i * nalgos / p->nrounds;
		size_t to = (i + 1) * nalgos / p->nrounds;
		size_t len = 1;
		char *s;

		for (k = from; k < to; k++)
			len += strlen(algos[order[k]]) + 1;
		s = xmalloc(len);
		s[0] = '\0';
		for (k = from; k < to; k++) {
			if (k > from)
				strcat(s, ",");
			strcat(s, algos[order[k]]);
		}
		p->algos[i] = s;
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
	for (i = 0; i < p->nsteps; i++)
		seeds[i] = shuffle_next(&r) >> 32;
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
	memset(p, 0, sizeof(*p));
}
