/* plan-interleave.c - draw a confirmation's alternating rounds (see
 * plan-interleave.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/shuffle.h"
#include "orchestrator/run/plan-interleave.h"
#include "lib/util.h"

/* The distinct groups of GROUP[0 .. n), in first-seen order, into OUT
 * (room for n). Returns their count. */
static size_t distinct_groups(const size_t *group, size_t n, size_t *out)
{
	size_t i, k, ng = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < ng && out[k] != group[i]; k++)
			;
		if (k == ng)
			out[ng++] = group[i];
	}
	return ng;
}

void plan_make_interleaved(uint64_t seed, const char *const *algos,
			   size_t nalgos, const size_t *group, size_t nspecs,
			   size_t nrounds, struct plan *p)
{
	struct shuffle_rng r;
	size_t *order = xcalloc(nalgos + 3 * nspecs + 1, sizeof(size_t));
	size_t *groups = order + nalgos, *gorder = groups + nspecs;
	size_t *members = gorder + nspecs;
	size_t i, k, j, ng, len = 1, step = 0;
	uint64_t *seeds;
	char *s;

	memset(p, 0, sizeof(*p));
	p->seed = seed;
	p->nrounds = nrounds;
	shuffle_seed(&r, seed);
	shuffle_permutation(&r, order, nalgos);
	for (k = 0; k < nalgos; k++)
		len += strlen(algos[k]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (k = 0; k < nalgos; k++) {
		if (k)
			strcat(s, ",");
		strcat(s, algos[order[k]]);
	}
	p->algos = xcalloc(nrounds + 1, sizeof(char *));
	for (i = 0; i < nrounds; i++)
		p->algos[i] = xstrdup(s);
	free(s);
	ng = distinct_groups(group, nspecs, groups);
	p->nsteps = nrounds * nspecs;
	p->steps = xcalloc(p->nsteps + 1, sizeof(*p->steps));
	for (i = 0; i < nrounds; i++) {
		shuffle_permutation(&r, gorder, ng);
		for (k = 0; k < ng; k++) {
			size_t nm = 0, perm[2], *mo;

			for (j = 0; j < nspecs; j++)
				if (group[j] == groups[gorder[k]])
					members[nm++] = j;
			mo = nm <= 2 ? perm : xcalloc(nm, sizeof(size_t));
			shuffle_permutation(&r, mo, nm);
			for (j = 0; j < nm; j++, step++) {
				p->steps[step].round = i;
				p->steps[step].spec = members[mo[j]];
			}
			if (mo != perm)
				free(mo);
		}
	}
	seeds = xcalloc(p->nsteps + 1, sizeof(*seeds));
	for (i = 0; i < p->nsteps; i++)
		seeds[i] = shuffle_next(&r) >> 32;
	for (i = 0; i < p->nsteps; i++)
		p->steps[i].guest_seed =
			seeds[p->steps[i].round * nspecs + p->steps[i].spec];
	free(seeds);
	free(order);
}
