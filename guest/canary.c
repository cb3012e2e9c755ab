/* guest/canary.c - the contention canary's kernel, its timing and the
 * judgement whether it moved (see canary.h). */
#include "compat.h"

#include <string.h>

#include "bench.h"
#include "canary.h"
#include "samples.h"

uint64_t canary_kernel(unsigned extra)
{
	static uint64_t table[CANARY_WORDS];
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15), acc = 0;

	for (unsigned round = 0; round <= extra; round++) {
		for (unsigned i = 0; i < CANARY_STEPS; i++) {
			uint64_t *w;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			w = &table[(x ^ acc) & (CANARY_WORDS - 1)];
			*w += x;
			acc += *w >> 3;
		}
	}
	return acc;
}

void canary_time(uint64_t *ns, unsigned n, unsigned extra)
{
	static volatile uint64_t sink;

	/* once untimed: the table into the cache, the code into the
	 * predictors */
	sink += canary_kernel(0);
	for (unsigned i = 0; i < n; i++) {
		uint64_t t0 = bench_cpu_ns(), t;

		sink += canary_kernel(extra);
		t = bench_cpu_ns() - t0;
		ns[i] = t > 0 ? t : 1;
	}
}

/* Median and relative interquartile range of the N values of V. */
static uint64_t side(const uint64_t *v, unsigned n, double *iqr)
{
	uint64_t s[64], med;

	memcpy(s, v, n * sizeof(*v));
	samples_sort(s, n);
	med = samples_quartile(s, n, 2);
	*iqr = med ? (double)(samples_quartile(s, n, 3) -
			      samples_quartile(s, n, 1)) / (double)med : 0;
	return med;
}

int canary_judge(const uint64_t *before, const uint64_t *after, unsigned n,
		 struct canary *c)
{
	double ib, ia, change;

	memset(c, 0, sizeof(*c));
	if (n < 1 || n > 64)
		return -1;
	c->before_ns = side(before, n, &ib);
	c->after_ns = side(after, n, &ia);
	c->noise = 2 * (ib > ia ? ib : ia);
	if (c->noise < CANARY_MIN_NOISE)
		c->noise = CANARY_MIN_NOISE;
	change = (double)c->after_ns / (double)c->before_ns - 1;
	c->moved = change > c->noise || -change > c->noise;
	return 0;
}

bool canary_may_remeasure(uint64_t sweeps, uint64_t remeasured,
			  unsigned pct)
{
	if (pct == 0)
		return false;
	if (pct >= 100)
		return true;
	return remeasured <= sweeps * pct / 100;
}
