/* guest/bench.h - timing batches of calls in the measuring thread's CPU
 * time (CLOCK_THREAD_CPUTIME_ID).
 *
 * Method (DESIGN.md, "Where the numbers come from"): time batches, not
 * single calls; calibrate the batch so it lasts at least min_batch_ns; warm
 * up; repeat and keep every raw sample; report median, quartiles and
 * minimum per batch; measure every point in several sets and report the
 * median of their medians.
 *
 *  1. calibration: find the call count that makes one batch last at least
 *     min_batch_ns. Without a hint: batches of 1, then growing call
 *     counts, until one batch lasts >= min_batch_ns (this also warms
 *     caches, branch predictors and the CPU clock). With a hint (the
 *     previous point of the same curve, struct bench_hint): the call count
 *     is predicted from that point's throughput; since a larger buffer
 *     has the same or a higher throughput, that first batch lasts between
 *     about half and 1.05 times min_batch_ns when the size doubles. If it
 *     lasts at least half of min_batch_ns, the call count is scaled from
 *     it (time is proportional to calls at a fixed size) and it was the
 *     warm-up; otherwise the count grows as without a hint. So across a
 *     sweep of sizes the calibration costs one batch per point;
 *  2. one more warm-up batch of the calibrated size, discarded - only when
 *     no hint was used and the very first batch (one call) already lasted
 *     min_batch_ns but less than 4 x min_batch_ns: otherwise the last
 *     calibration batch ran at the final size (after smaller ones, or
 *     predicted) and was the warm-up, or one call is so long that a cold
 *     start is lost in it;
 *  3. SETS sets of `repetitions` timed batches of that size each, one
 *     after the other (the samples, all kept, set after set);
 *  4. the point's time is the median of the sets' medians
 *     (guest/samples.h: samples_median_of_sets), the same estimator for
 *     every point whatever its spread: a set disturbed by another process
 *     moves one of the medians, not the reported value. An earlier guest
 *     re-ran a set only while its coefficient of variation (CV) exceeded
 *     max_cv and reported the set with the lowest CV; that chose on
 *     spread, not level, and two runs of one point used different
 *     estimators whenever only one of them was re-run. The CV of all the
 *     samples is still reported, as a description: the point is `noisy`
 *     when it exceeds max_cv.
 *
 * Where the CPU has an invariant TSC (guest/cpuclock.h) it is also read
 * around every batch, and the median of the sets' medians of the TSC
 * ticks per batch is kept (reference cycles at the TSC rate, not core
 * cycles).
 */
#ifndef GUEST_BENCH_H
#define GUEST_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Upper bound for repetitions (samples per set). A protocol line must fit
 * in 4096 bytes with every sample written out: 150 samples of at most 20
 * digits and a comma take 3150 bytes, the other members of a result line
 * fewer than 900 (guest/PROTOCOL.md). */
#define BENCH_MAX_REPETITIONS 150
/* Upper bound for sets per point (repetitions x sets is at most
 * BENCH_MAX_REPETITIONS as well). */
#define BENCH_MAX_SETS 10

/* Run CALLS (>= 1) calls of the measured operation on ARG. Returns 0, or -1
 * if a call failed (the measurement is then abandoned). */
typedef int (*bench_batch_fn)(void *arg, uint64_t calls);

/* How to measure. */
struct bench_params {
	uint64_t min_batch_ns;	/* shortest timed batch, ns, >= 1 */
	unsigned repetitions;	/* samples per set, 1 .. BENCH_MAX_REPETITIONS */
	unsigned sets;		/* sets per point, 1 .. BENCH_MAX_SETS;
				 * repetitions x sets <= BENCH_MAX_REPETITIONS */
	double max_cv;		/* a point whose CV exceeds this fraction
				 * (0.02 = 2 %) is flagged noisy, >= 0 */
	bool tsc;		/* read the invariant TSC around each batch */
};

/* The previous point of the same curve (same library, algorithm,
 * operation and mode), from which the call count of the next buffer size
 * is predicted. bytes_per_call 0 = nothing measured yet. */
struct bench_hint {
	size_t bytes_per_call;	/* bytes per call of that point */
	double ns_per_call;	/* its median ns per call */
};

struct bench_result {
	uint64_t calls_per_batch;	/* calls in each timed batch, >= 1 */
	unsigned repetitions;		/* samples per set */
	unsigned sets;			/* sets measured */
	uint64_t samples_ns[BENCH_MAX_REPETITIONS];	/* repetitions x sets
					 * samples, ns per batch, in the order
					 * measured (set after set) */
	uint64_t median_ns;		/* median of the sets' medians, ns per
					 * batch, >= 1 */
	uint64_t min_ns;		/* ns per batch, >= 1, <= p25_ns */
	uint64_t p25_ns, p75_ns;	/* quartiles of all samples, ns per
					 * batch */
	double cv;			/* coefficient of variation of all
					 * samples, a fraction */
	unsigned reruns;		/* sets measured after the first */
	bool noisy;			/* cv > max_cv */
	uint64_t tsc_cycles;		/* median of the sets' median TSC ticks
					 * per batch; 0 = TSC not read */
	double mb_per_s;		/* 10^6 bytes/s at the median:
					 * bytes_per_batch / median_ns * 1000 */
	uint64_t spent_ns;		/* ns spent in every batch run here,
					 * calibration, warm-up and every set
					 * included */
	unsigned calibration_batches;	/* batches run before the first set,
					 * warm-up included */
	uint64_t maxrss_kib;		/* set by the caller, not by
					 * bench_measure: the measuring process's
					 * peak resident set right after this
					 * point, KiB (guest/rusage.h); 0 =
					 * unknown */
};

/* Current CLOCK_MONOTONIC time in ns (deadlines, elapsed time). */
uint64_t bench_now_ns(void);

/* The CPU time the calling thread has used, ns (CLOCK_THREAD_CPUTIME_ID,
 * POSIX.1-2008): the clock every batch and the canary are timed with.
 * It does not advance while the thread waits - another process holding
 * the CPU, the hypervisor's steal time where the kernel accounts it -
 * so a batch preempted half-way costs what its own instructions took;
 * what stays in it is what slows the instructions themselves (a lower
 * core clock, caches another process filled, a busy hyperthread
 * sibling), which the canary watches. This is the divisor `openssl
 * speed` uses by default (user CPU time; -elapsed for wall-clock time).
 * Falls back to CLOCK_MONOTONIC for good if the CPU-time clock fails. */
uint64_t bench_cpu_ns(void);

/* "thread-cpu" while bench_cpu_ns reads CLOCK_THREAD_CPUTIME_ID,
 * "monotonic" after it fell back (the hello line's `timer`). Static
 * string. */
const char *bench_timer_name(void);

/* Time one batch: FN(ARG, CALLS) in the thread's CPU time, into *NS (ns,
 * >= 1) and, when TSC is set, its TSC ticks into *TICKS (may be NULL);
 * adds the ns to *SPENT. Returns FN's result (0, or -1 when a call
 * failed). */
int bench_batch(bench_batch_fn fn, void *arg, uint64_t calls, bool tsc,
		uint64_t *ns, uint64_t *ticks, uint64_t *spent);

/* Steps 1 and 2 above: the call count per batch for FN(ARG, calls), each
 * call processing BYTES_PER_CALL bytes, into *CALLS, predicted from HINT
 * when it is not NULL and has a point. Adds to r->spent_ns and
 * r->calibration_batches (nothing else of *r is touched). Returns 0, or -1
 * if FN failed. */
int bench_calibrate(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		    const struct bench_params *p,
		    const struct bench_hint *hint, uint64_t *calls,
		    struct bench_result *r);

/* Steps 3 and 4 above with CALLS (>= 1) calls per batch: p->sets sets of
 * p->repetitions samples; fills every member of *r
 * but calibration_batches, and adds to r->spent_ns. Returns 0, or -1 if
 * FN failed or P is out of range. */
int bench_sample(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		 uint64_t calls, const struct bench_params *p,
		 struct bench_result *r);

/* Measure FN(ARG, calls), each call processing BYTES_PER_CALL bytes, as
 * P says (steps 1-4 above: bench_calibrate, then bench_sample). HINT may be NULL (no prediction); when given
 * it is used for the call count and, on success, replaced by this point
 * (BYTES_PER_CALL and the median ns per call). Fills *r. Returns 0, or -1
 * if FN failed or P is out of range (r->spent_ns is set even then). */
int bench_measure(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		  const struct bench_params *p, struct bench_hint *hint,
		  struct bench_result *r);

#endif /* GUEST_BENCH_H */
