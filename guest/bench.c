/* guest/bench.c - timing batches of calls in the measuring thread's CPU
 * time (see bench.h). */
#include "compat.h"

#include <string.h>
#include <time.h>

#include "bench.h"
#include "samples.h"
#include "tsc.h"

/* Never let a batch grow past this many calls (a 16-byte call takes
 * nanoseconds; 2^40 of them would take hours). */
#define BENCH_MAX_CALLS (UINT64_C(1) << 40)
/* Calibration aims this far past min_batch_ns, so that a batch of the
 * chosen size does not fall short of it by a hair. */
#define BENCH_AIM 1.05

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

/* 1 once CLOCK_THREAD_CPUTIME_ID failed: CLOCK_MONOTONIC from then on. */
static int cpu_clock_broken;

uint64_t bench_cpu_ns(void)
{
	struct timespec ts;

	if (!cpu_clock_broken &&
	    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
		       (uint64_t)ts.tv_nsec;
	cpu_clock_broken = 1;
	return bench_now_ns();
}

const char *bench_timer_name(void)
{
	struct timespec ts;

	if (!cpu_clock_broken &&
	    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		return "thread-cpu";
	return "monotonic";
}

int bench_batch(bench_batch_fn fn, void *arg, uint64_t calls, bool tsc,
		uint64_t *ns, uint64_t *ticks, uint64_t *spent)
{
	uint64_t c0 = tsc ? cpuclock_tsc() : 0;
	uint64_t t0 = bench_cpu_ns();
	int rc = fn(arg, calls);
	uint64_t t = bench_cpu_ns() - t0;
	uint64_t c = tsc ? cpuclock_tsc() - c0 : 0;

	*spent += t;
	*ns = t > 0 ? t : 1;
	if (ticks)
		*ticks = c;
	return rc;
}

/* Clamp a wanted call count to 1 .. BENCH_MAX_CALLS. */
static uint64_t clamp_calls(double want)
{
	if (want >= (double)BENCH_MAX_CALLS)
		return BENCH_MAX_CALLS;
	if (want < 1)
		return 1;
	return (uint64_t)want;
}

/* Next call count after a batch of CALLS took NS < TARGET ns: aim 5 % past
 * the target, grow at least by one and at most 64-fold per step. */
static uint64_t next_calls(uint64_t calls, uint64_t ns, uint64_t target)
{
	double want;
	uint64_t next;

	if (ns < 1000)		/* too short to extrapolate from */
		return calls * 16;
	want = (double)calls * (double)target * BENCH_AIM / (double)ns;
	if (want > (double)calls * 64.0)
		want = (double)calls * 64.0;
	next = (uint64_t)want;
	return next > calls ? next : calls + 1;
}

/* The call count predicted from HINT for BYTES-byte calls and a TARGET-ns
 * batch, assuming the throughput (bytes per ns) of the hint's point; 0
 * when HINT has nothing to predict from. A larger buffer has the same or a
 * higher throughput in practice (the per-call overhead is amortised), so
 * the batch lasts between about half and BENCH_AIM times TARGET when the
 * size doubles. */
static uint64_t predicted_calls(const struct bench_hint *hint, size_t bytes,
				uint64_t target)
{
	double ns_per_call;

	if (!hint || hint->bytes_per_call == 0 || hint->ns_per_call <= 0 ||
	    bytes == 0)
		return 0;
	ns_per_call = hint->ns_per_call * (double)bytes /
		      (double)hint->bytes_per_call;
	return clamp_calls((double)target * BENCH_AIM / ns_per_call);
}

int bench_calibrate(bench_batch_fn fn, void *arg, size_t bytes,
		    const struct bench_params *p,
		    const struct bench_hint *hint, uint64_t *calls,
		    struct bench_result *r)
{
	uint64_t target = p->min_batch_ns, n, ns;
	bool predicted;
	unsigned steps;

	n = predicted_calls(hint, bytes, target);
	predicted = n > 0;
	if (!predicted)
		n = 1;
	for (steps = 1;; steps++) {
		r->calibration_batches++;
		if (bench_batch(fn, arg, n, false, &ns, NULL, &r->spent_ns) != 0)
			return -1;
		if (ns >= target || n >= BENCH_MAX_CALLS)
			break;
		/* a predicted batch of at least half the target is long
		 * enough to scale from */
		if (predicted && steps == 1 && ns >= target / 2)
			break;
		n = next_calls(n, ns, target);
		if (n > BENCH_MAX_CALLS)
			n = BENCH_MAX_CALLS;
	}
	if (predicted && steps == 1) {
		/* the predicted batch ran at this size and was the warm-up:
		 * scale its call count to the target (time is proportional
		 * to calls at a fixed size) */
		n = clamp_calls((double)n * (double)target * BENCH_AIM /
				(double)ns);
	} else if (!predicted && steps == 1 && ns < 4 * target) {
		/* one call already lasted a batch: warm up once more */
		r->calibration_batches++;
		if (bench_batch(fn, arg, n, false, &ns, NULL, &r->spent_ns) != 0)
			return -1;
	}
	*calls = n;
	return 0;
}

int bench_sample(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		 uint64_t calls, const struct bench_params *p,
		 struct bench_result *r)
{
	uint64_t ticks[BENCH_MAX_REPETITIONS];
	uint64_t medians[BENCH_MAX_SETS];
	unsigned reps = p->repetitions, sets = p->sets, n;
	struct samples_summary s;

	if (calls < 1 || reps < 1 || sets < 1 || sets > BENCH_MAX_SETS ||
	    reps * sets > BENCH_MAX_REPETITIONS || !(p->max_cv >= 0))
		return -1;
	n = reps * sets;
	/* steps 3 and 4: every set, one after the other, all kept */
	for (unsigned i = 0; i < n; i++)
		if (bench_batch(fn, arg, calls, p->tsc, &r->samples_ns[i],
				&ticks[i], &r->spent_ns) != 0)
			return -1;
	if (samples_median_of_sets(r->samples_ns, reps, sets, medians) == 0)
		return -1;
	samples_summarise(r->samples_ns, n, &s);
	r->calls_per_batch = calls;
	r->repetitions = reps;
	r->sets = sets;
	r->reruns = sets - 1;
	r->min_ns = s.min_ns;
	r->p25_ns = s.p25_ns;
	r->median_ns = samples_median_of_sets(r->samples_ns, reps, sets,
					      medians);
	r->p75_ns = s.p75_ns;
	r->cv = s.cv;
	r->noisy = s.cv > p->max_cv;
	r->tsc_cycles = 0;
	if (p->tsc)
		r->tsc_cycles = samples_median_of_sets(ticks, reps, sets,
						       medians);
	r->mb_per_s = (double)bytes_per_call * (double)calls /
		      (double)r->median_ns * 1000.0;
	return 0;
}

int bench_measure(bench_batch_fn fn, void *arg, size_t bytes_per_call,
		  const struct bench_params *p, struct bench_hint *hint,
		  struct bench_result *r)
{
	uint64_t calls;

	memset(r, 0, sizeof(*r));
	if (p->min_batch_ns < 1 || p->repetitions < 1 || p->sets < 1 ||
	    p->sets > BENCH_MAX_SETS ||
	    p->repetitions * p->sets > BENCH_MAX_REPETITIONS ||
	    !(p->max_cv >= 0))
		return -1;
	if (bench_calibrate(fn, arg, bytes_per_call, p, hint, &calls, r) < 0 ||
	    bench_sample(fn, arg, bytes_per_call, calls, p, r) < 0)
		return -1;
	if (hint) {
		hint->bytes_per_call = bytes_per_call;
		hint->ns_per_call = (double)r->median_ns / (double)calls;
	}
	return 0;
}
