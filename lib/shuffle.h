/* lib/shuffle.h - a small seeded pseudo-random generator and random
 * permutations, to put the measurements of a run in an order that is
 * random yet reproducible from one number (the seed).
 *
 * Pure computation: no libc call, no state outside the caller's struct.
 * The guest shuffles its libraries and algorithms with it (--seed); the
 * orchestrator links the same file to order a run's rounds, so both sides
 * draw from one generator.
 */
#ifndef GUEST_SHUFFLE_H
#define GUEST_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

/* Largest seed accepted on a command line (guest --seed, benchorch run
 * --seed): 2^32 - 1, short enough to read and type. */
#define SHUFFLE_SEED_MAX UINT64_C(4294967295)

/* SplitMix64 state (one 64-bit counter). */
struct shuffle_rng {
	uint64_t state;
};

/* Start a generator from SEED (any value). */
void shuffle_seed(struct shuffle_rng *r, uint64_t seed);

/* The next 64-bit output of SplitMix64 (G. L. Steele, D. Lea, C. H.
 * Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014),
 * with the output mix of S. Vigna's splitmix64 (David Stafford's
 * "Mix13" constants): a Weyl sequence with step 0x9e3779b97f4a7c15
 * (2^64 / golden ratio), then xor-shift-multiply finalisation. Not
 * cryptographic: it only has to be uniform and cheap. */
uint64_t shuffle_next(struct shuffle_rng *r);

/* A uniform integer in [0, N) (N >= 1), unbiased: outputs below
 * 2^64 mod N are rejected before reducing modulo N (the method of
 * OpenBSD's arc4random_uniform). */
uint64_t shuffle_below(struct shuffle_rng *r, uint64_t n);

/* Fill ORDER[0..N) with a uniformly random permutation of 0..N-1:
 * Fisher-Yates, in R. Durstenfeld's form (CACM 7(7), 1964; D. E. Knuth,
 * TAOCP vol. 2, 3.4.2, Algorithm P). N = 0 does nothing. */
void shuffle_permutation(struct shuffle_rng *r, size_t *order, size_t n);

#endif /* GUEST_SHUFFLE_H */
