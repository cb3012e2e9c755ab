/* guest/bench.c - timing batches of calls with CLOCK_MONOTONIC. */
#include "compat.h"

#include <string.h>
#include <time.h>

#include "bench.h"

/* Never let a batch grow past this many calls (a 16-byte call takes
 * nanoseconds; 2^40 of them would take hours). */
#define BENCH_MAX_CALLS (UINT64_C(1) << 40)

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

/* Time one batch of CALLS into *ns (>= 1). Returns FN's result. */
static int timed_batch(bench_batch_fn fn, void *arg, uint64_t calls,
		       uint64_t *ns, uint64_t *spent)
{
	uint64_t t0 = bench_now_ns();
	int rc = fn(arg, calls);
	uint64_t t = bench_now_ns() - t0;

	*spent += t;
	*ns = t > 0 ? t : 1;
	return rc;
}

/* Next call count after a batch of CALLS took NS < TARGET ns: aim 5 % past
 * the target, grow at least by one and at most 64-fold per step. */
static uint64_t next_calls(uint64_t calls, uint64_t ns, uint64_t target)
{
	double want;
	uint64_t next;

	if (ns < 1000)		/* too short to extrapolate from */
		return calls * 16;
	want = (double)calls * (double)target * 1.05 / (double)ns;
	if (want > (double)calls * 64.0)
		want = (double)calls * 64.0;
	next = (uint64_t)want;
	return next > calls ? next : calls + 1;
}

/* Sort N values ascending (N is small: insertion sort). */
static void sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int bench_measure(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		  uint64_t min_batch_ns, unsigned repetitions,
		  struct bench_result *r)
{
	uint64_t samples[BENCH_MAX_REPETITIONS];
	uint64_t calls = 1, ns;
	unsigned steps;

	memset(r, 0, sizeof(*r));
	if (min_batch_ns < 1 || repetitions < 1 ||
	    repetitions > BENCH_MAX_REPETITIONS)
		return -1;

	/* 1. calibration (and warm-up) */
	for (steps = 1;; steps++) {
		if (timed_batch(fn, arg, calls, &ns, &r->spent_ns) != 0)
			return -1;
		if (ns >= min_batch_ns || calls >= BENCH_MAX_CALLS)
			break;
		calls = next_calls(calls, ns, min_batch_ns);
		if (calls > BENCH_MAX_CALLS)
			calls = BENCH_MAX_CALLS;
	}
	/* 2. one more warm-up batch at the final size, unless the last
	 * calibration batch already ran at that size after smaller ones (it
	 * then was the warm-up), or a single call lasted 4 batches' time (a
	 * cold start is then lost in it) */
	if (steps == 1 && ns < 4 * min_batch_ns &&
	    timed_batch(fn, arg, calls, &ns, &r->spent_ns) != 0)
		return -1;
	/* 3. the timed repetitions */
	for (unsigned i = 0; i < repetitions; i++)
		if (timed_batch(fn, arg, calls, &samples[i], &r->spent_ns) != 0)
			return -1;

	sort_u64(samples, repetitions);
	r->calls_per_batch = calls;
	r->repetitions = repetitions;
	r->min_ns = samples[0];
	if (repetitions % 2)
		r->median_ns = samples[repetitions / 2];
	else
		r->median_ns = (samples[repetitions / 2 - 1] +
				samples[repetitions / 2] + 1) / 2;
	r->mb_per_s = (double)bytes_per_call * (double)calls /
		      (double)r->median_ns * 1000.0;
	return 0;
}
