/* t3056-plan-interleave - the order of a confirmation: every round
 * measures every image exactly once with every algorithm, the images of
 * a group (previous and new of one distribution) come one after the
 * other in each round, both orders occur across rounds, the first image
 * is not fixed, and the same seed gives the same plan. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/run/plan-interleave.h"
#include "lib/util.h"
#include "tests/tap.h"

static const char *const algos[] = { "aes-128-cbc", "sha-256", "chacha20" };

/* 1 when every round of P measures each of the NSPECS images once, and
 * every round's algorithms are all three of algos[]. */
static int each_round_once(const struct plan *p, size_t nspecs)
{
	size_t i, k;

	if (p->nsteps != p->nrounds * nspecs)
		return 0;
	for (i = 0; i < p->nrounds; i++) {
		int *seen = xcalloc(nspecs, sizeof(int)), ok = 1;

		for (k = 0; k < p->nsteps; k++)
			if (p->steps[k].round == i)
				seen[p->steps[k].spec]++;
		for (k = 0; k < nspecs; k++)
			ok &= seen[k] == 1;
		free(seen);
		if (!ok)
			return 0;
		for (k = 0; k < 3; k++)
			if (!strstr(p->algos[i], algos[k]))
				return 0;
		if (strlen(p->algos[i]) != strlen("aes-128-cbc,sha-256,chacha20"))
			return 0;
	}
	/* rounds in order: round r's steps before round r + 1's */
	for (k = 1; k < p->nsteps; k++)
		if (p->steps[k].round < p->steps[k - 1].round)
			return 0;
	return 1;
}

/* 1 when, in every round of P, the images of each group are adjacent. */
static int groups_adjacent(const struct plan *p, const size_t *group)
{
	size_t k;

	for (k = 0; k + 2 < p->nsteps; k++) {
		size_t a = p->steps[k].spec, b = p->steps[k + 1].spec;
		size_t c = p->steps[k + 2].spec;

		/* a group of two split by another group's image */
		if (p->steps[k].round == p->steps[k + 2].round &&
		    group[a] == group[c] && group[a] != group[b])
			return 0;
	}
	return 1;
}

int main(void)
{
	const size_t pair[] = { 0, 0 };
	const size_t mixed[] = { 0, 0, 1, 2, 2 };
	struct plan p, q;
	size_t seed, k, ab = 0, ba = 0, first0 = 0, first1 = 0, ndraws = 0;
	int ok = 1, same = 1, alternating = 1;

	/* 1. A pair over many seeds: each round AB or BA, both occur. */
	for (seed = 0; seed < 200; seed++) {
		plan_make_interleaved(seed, algos, 3, pair, 2, 4, &p);
		ok &= p.nrounds == 4 && each_round_once(&p, 2);
		for (k = 0; k + 1 < p.nsteps; k += 2) {
			ab += p.steps[k].spec == 0;
			ba += p.steps[k].spec == 1;
			ndraws++;
		}
		first0 += p.steps[0].spec == 0;
		first1 += p.steps[0].spec == 1;
		/* every round is a whole pair: steps 2r and 2r+1 */
		for (k = 0; k < p.nsteps; k++)
			alternating &= p.steps[k].round == k / 2;
		plan_release(&p);
	}
	tap_ok(ok, "a pair: every round measures both images once, with every algorithm");
	tap_ok(alternating, "a pair: rounds alternate, each round one image then the other");
	/* 800 fair coin flips: each order between 320 and 480 is a
	 * 5-sigma band (sd = sqrt(800 / 4) = 14.1) */
	tap_ok(ab > 320 && ab < 480 && ba == ndraws - ab,
	       "a pair: AB and BA drawn alike per round (%zu AB, %zu BA)", ab,
	       ba);
	tap_ok(first0 > 60 && first1 > 60,
	       "the first image of a confirmation is not fixed (%zu, %zu of 200)",
	       first0, first1);

	/* 2. Several distributions: groups stay together per round. */
	ok = 1;
	for (seed = 0; seed < 100; seed++) {
		plan_make_interleaved(seed, algos, 3, mixed, 5, 3, &p);
		ok &= each_round_once(&p, 5) && groups_adjacent(&p, mixed);
		plan_release(&p);
	}
	tap_ok(ok, "groups of two and of one: each round measures every image once, a group's images together");

	/* 3. One round, one image: a re-measure. */
	plan_make_interleaved(7, algos, 3, pair, 1, 1, &p);
	tap_ok(p.nrounds == 1 && p.nsteps == 1 && p.steps[0].spec == 0 &&
	       p.steps[0].round == 0, "a re-measure is one invocation");
	plan_release(&p);

	/* 4. Reproducible from the seed, different for another seed. */
	plan_make_interleaved(42, algos, 3, mixed, 5, 6, &p);
	plan_make_interleaved(42, algos, 3, mixed, 5, 6, &q);
	for (k = 0; k < p.nsteps; k++)
		same &= p.steps[k].spec == q.steps[k].spec &&
			p.steps[k].guest_seed == q.steps[k].guest_seed;
	same &= strcmp(p.algos[0], q.algos[0]) == 0;
	tap_ok(same, "the same seed gives the same plan");
	plan_release(&q);
	plan_make_interleaved(43, algos, 3, mixed, 5, 6, &q);
	same = 1;
	for (k = 0; k < p.nsteps; k++)
		same &= p.steps[k].spec == q.steps[k].spec &&
			p.steps[k].guest_seed == q.steps[k].guest_seed;
	tap_ok(!same, "another seed gives another plan");
	plan_release(&p);
	plan_release(&q);
	return tap_done();
}
