/* guest/bench.h - timing batches of calls with CLOCK_MONOTONIC.
 *
 * Method (DESIGN.md, "Where the numbers come from"): time batches, not
 * single calls; calibrate the batch so it lasts at least min_batch_ns; warm
 * up; repeat; report median and minimum per batch.
 *
 *  1. calibration: batches of 1, then growing call counts, until one batch
 *     lasts >= min_batch_ns (this also warms caches, branch predictors and
 *     the CPU clock);
 *  2. one more warm-up batch of the calibrated size, discarded - only when
 *     the very first batch (one call) already lasted min_batch_ns but less
 *     than 4 x min_batch_ns: otherwise the last calibration batch ran at
 *     the final size after smaller ones and was the warm-up, or one call
 *     is so long that a cold start is lost in it;
 *  3. `repetitions` timed batches of that size.
 */
#ifndef GUEST_BENCH_H
#define GUEST_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Upper bound accepted for repetitions. */
#define BENCH_MAX_REPETITIONS 1000

/* Run CALLS (>= 1) calls of the measured operation on ARG. Returns 0, or -1
 * if a call failed (the measurement is then abandoned). */
typedef int (*bench_batch_fn)(void *arg, uint64_t calls);

struct bench_result {
	uint64_t calls_per_batch;	/* calls in each timed batch, >= 1 */
	unsigned repetitions;		/* timed batches */
	uint64_t median_ns;		/* ns per batch, >= 1 */
	uint64_t min_ns;		/* ns per batch, >= 1, <= median_ns */
	double mb_per_s;		/* 10^6 bytes/s at the median:
					 * bytes_per_batch / median_ns * 1000 */
	uint64_t spent_ns;		/* ns spent in every batch run here,
					 * calibration and warm-up included */
};

/* Current CLOCK_MONOTONIC time in ns. */
uint64_t bench_now_ns(void);

/* Measure FN(ARG, calls), each call processing BYTES_PER_CALL bytes, with
 * batches of at least MIN_BATCH_NS ns (>= 1) and REPETITIONS (1 ..
 * BENCH_MAX_REPETITIONS) timed batches. Fills *r. Returns 0, or -1 if FN
 * failed or the arguments are out of range (r->spent_ns is set even then). */
int bench_measure(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		  uint64_t min_batch_ns, unsigned repetitions,
		  struct bench_result *r);

#endif /* GUEST_BENCH_H */
