/* plan-interleave.h - the order of a confirmation run: the same curves
 * measured in the previous and the new image of a distribution in
 * alternating rounds, so that a drift of the machine during the run
 * falls on both images alike instead of looking like the package
 * change. Each round measures every image of a group once, in an order
 * drawn per round (a coin flip for a pair), so that neither image is
 * always first: A/B interleaving with randomised order, as in
 * randomised block designs for A/B performance comparisons. */
#ifndef BENCHORCH_PLAN_INTERLEAVE_H
#define BENCHORCH_PLAN_INTERLEAVE_H

#include <stddef.h>
#include <stdint.h>

#include "orchestrator/run/plan.h"

/* Rounds of a confirmation when none is asked for: two, so that each
 * image is measured twice (A B, then B A or A B) - two independent
 * invocations per image give a spread between invocations. */
#define PLAN_INTERLEAVE_ROUNDS 2

/* Draw the plan of a confirmation from SEED (0 .. 2^32 - 1): NROUNDS
 * (>= 1) rounds, each measuring all NALGOS (>= 1) algorithms ALGOS (one
 * group, in a random order drawn once) in every one of the NSPECS images.
 * GROUP[i] names the group of image i (the previous and new image of one
 * distribution share a group; a distribution measured again without a
 * previous is a group of one). In each round the groups come in a random
 * order and, within a group, its images in a random order, so a pair
 * reads AB or BA at random, round after round. Each step gets a guest
 * seed drawn per (round, image index). All draws come from one
 * SplitMix64 stream seeded with SEED (lib/shuffle.h): the algorithm
 * permutation, then per round the group permutation and per group its
 * image permutation, then the guest seeds, rounds first. Fills *ret
 * (release with plan_release). */
void plan_make_interleaved(uint64_t seed, const char *const *algos,
			   size_t nalgos, const size_t *group, size_t nspecs,
			   size_t nrounds, struct plan *ret);

#endif
