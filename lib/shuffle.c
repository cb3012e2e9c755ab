/* lib/shuffle.c - SplitMix64 and Fisher-Yates (see shuffle.h). */
#include "lib/shuffle.h"

void shuffle_seed(struct shuffle_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t shuffle_next(struct shuffle_rng *r)
{
	uint64_t z;

	r->state += UINT64_C(0x9e3779b97f4a7c15);
	z = r->state;
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t shuffle_below(struct shuffle_rng *r, uint64_t n)
{
	/* 2^64 mod n, computed in 64 bits as (2^64 - n) mod n */
	uint64_t min = (UINT64_C(0) - n) % n, x;

	do
		x = shuffle_next(r);
	while (x < min);
	return x % n;
}

void shuffle_permutation(struct shuffle_rng *r, size_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)shuffle_below(r, (uint64_t)i);
		size_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}
