/* t1045-guest-shuffle - the seeded generator and permutations of
 * lib/shuffle.c: known SplitMix64 outputs, every element exactly once,
 * the same seed giving the same order and other seeds other orders, and
 * no visible bias. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "lib/shuffle.h"
#include "tests/tap.h"

#define N 32

/* 1 when ORDER[0..n) holds each of 0..n-1 exactly once. */
static int is_permutation(const size_t *order, size_t n)
{
	unsigned char seen[64];
	size_t i;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++) {
		if (order[i] >= n || seen[order[i]])
			return 0;
		seen[order[i]] = 1;
	}
	return 1;
}

static void permutation(uint64_t seed, size_t *order, size_t n)
{
	struct shuffle_rng r;

	shuffle_seed(&r, seed);
	shuffle_permutation(&r, order, n);
}

int main(void)
{
	/* The first outputs of SplitMix64 from state 0, as printed by the
	 * reference implementation (S. Vigna, splitmix64.c). */
	static const uint64_t known[3] = { UINT64_C(0xe220a8397b1dcdaf),
					   UINT64_C(0x6e789e6aa1b965f4),
					   UINT64_C(0x06c45d188009454f) };
	struct shuffle_rng r;
	size_t a[N], b[N], n, i, same, bad;
	uint64_t seed;
	long counts[6] = { 0 }, below[3] = { 0 };
	int ok;

	shuffle_seed(&r, 0);
	ok = 1;
	for (i = 0; i < 3; i++)
		ok = ok && shuffle_next(&r) == known[i];
	tap_ok(ok, "SplitMix64 from seed 0 gives the reference outputs");

	bad = 0;
	for (seed = 0; seed < 200; seed++)
		for (n = 0; n <= N; n++) {
			permutation(seed, a, n);
			if (!is_permutation(a, n))
				bad++;
		}
	tap_ok(bad == 0, "every element exactly once, sizes 0..%d, 200 seeds (%zu bad)",
	       N, bad);

	permutation(12345, a, N);
	permutation(12345, b, N);
	tap_ok(memcmp(a, b, sizeof(a)) == 0, "the same seed gives the same order");

	same = 0;
	for (seed = 1; seed <= 1000; seed++) {
		permutation(seed - 1, a, N);
		permutation(seed, b, N);
		if (memcmp(a, b, sizeof(a)) == 0)
			same++;
	}
	tap_ok(same == 0, "1000 pairs of neighbouring seeds give different orders (%zu equal)",
	       same);

	for (i = 0; i < N; i++)
		a[i] = i;
	permutation(SHUFFLE_SEED_MAX, b, N);
	tap_ok(memcmp(a, b, sizeof(a)) != 0, "the largest seed shuffles too");

	/* Each of the 6 orders of 3 elements from 60000 seeds: expected
	 * 10000 each; a bias of a few percent would show. */
	for (seed = 0; seed < 60000; seed++) {
		permutation(seed, a, 3);
		counts[a[0] * 2 + (a[1] > a[2])]++;
	}
	ok = 1;
	for (i = 0; i < 6; i++)
		ok = ok && counts[i] > 9500 && counts[i] < 10500;
	tap_ok(ok, "the 6 orders of 3 elements are equally likely (%ld %ld %ld %ld %ld %ld of 60000)",
	       counts[0], counts[1], counts[2], counts[3], counts[4],
	       counts[5]);

	shuffle_seed(&r, 7);
	ok = 1;
	for (i = 0; i < 30000; i++) {
		uint64_t x = shuffle_below(&r, 3);

		if (x >= 3)
			ok = 0;
		else
			below[x]++;
	}
	tap_ok(ok && below[0] > 9500 && below[1] > 9500 && below[2] > 9500,
	       "shuffle_below(3) stays below 3, evenly (%ld %ld %ld)", below[0],
	       below[1], below[2]);
	shuffle_seed(&r, 7);
	tap_ok(shuffle_below(&r, 1) == 0, "shuffle_below(1) is 0");
	return tap_done();
}
