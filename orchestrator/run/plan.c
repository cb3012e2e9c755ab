/* plan.c - draw a run's rounds and order from its seed (see plan.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/shuffle.h"
#include "orchestrator/run/plan.h"
#include "lib/util.h"

/* The position within pass K (0-based) of the round that measures group
 * I of H in a plan of PASSES passes: every pass a permutation of the
 * groups, and the positions of each group summing to the same for all,
 * so that each group's rounds sit about the middle of the run alike.
 * Two passes: the second mirrors the first. Three (H odd): the second
 * shifted by (H + 1) / 2, the third what makes each group's sum
 * 3 (H - 1) / 2 (the rows of a magic-sum Latin rectangle: with
 * p1 = i + (H + 1) / 2 mod H, 3 (H - 1) / 2 - i - p1 runs over 0 .. H-1
 * once as i does). */
static size_t plan_position(size_t passes, size_t h, size_t k, size_t i)
{
	size_t shifted = (i + (h + 1) / 2) % h;

	if (k == 0)
		return i;
	if (passes == 2)
		return h - 1 - i;
	return k == 1 ? shifted : 3 * (h - 1) / 2 - i - shifted;
}

/* The algorithms of group [FROM, TO) of ORDER over ALGOS,
 * comma-separated, backwards when REVERSED. Returns a new string. */
static char *plan_group(const char *const *algos, const size_t *order,
			size_t from, size_t to, int reversed)
{
	size_t k, len = 1;
	char *s;

	for (k = from; k < to; k++)
		len += strlen(algos[order[k]]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (k = from; k < to; k++) {
		if (k > from)
			strcat(s, ",");
		strcat(s, algos[order[reversed ? to - 1 - (k - from) : k]]);
	}
	return s;
}

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
	p->passes = passes >= 1 && passes <= 3 ? passes : PLAN_PASSES;
	if (p->passes == 3 && half >= 2 && half % 2 == 0)
		half--;		/* three passes balance an odd count */
	if (half < 1)
		half = 1;
	p->nrounds = p->passes * half;
	p->algos = xcalloc(p->nrounds + 1, sizeof(char *));
	shuffle_seed(&r, seed);
	shuffle_permutation(&r, order, nalgos);
	/* group i gets positions [i * n / H, (i + 1) * n / H) of the
	 * permutation, and in pass k the round k H + plan_position; every
	 * other pass lists its algorithms in the reverse order */
	for (k = 0; k < p->passes; k++)
		for (i = 0; i < half; i++)
			p->algos[k * half + plan_position(p->passes, half, k, i)] =
				plan_group(algos, order, i * nalgos / half,
					   (i + 1) * nalgos / half, k % 2);
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
		/* a distribution's invocations of an algorithm must not
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
