/* tests/t1040-guest-stats.c - the guest's timing statistics: quartiles and
 * coefficient of variation against hand-computed values, the median of
 * sets' medians, the sets and calibration of bench_measure on a batch function
 * whose durations this test controls, and the longest possible result
 * line. Prints TAP. */
#include "guest/compat.h"
#include "config.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "guest/bench.h"
#include "guest/emit.h"
#include "guest/rusage.h"
#include "guest/json.h"
#include "guest/samples.h"
#include "tests/tap.h"

/* Quartiles 0..4 of the N values V (unsorted) into Q. */
static void quartiles(const uint64_t *v, unsigned n, uint64_t q[5])
{
	uint64_t s[16];

	memcpy(s, v, n * sizeof(*v));
	samples_sort(s, n);
	for (unsigned k = 0; k < 5; k++)
		q[k] = samples_quartile(s, n, k);
}

static int q_is(const uint64_t *v, unsigned n, uint64_t a, uint64_t b,
		uint64_t c, uint64_t d, uint64_t e)
{
	uint64_t q[5];

	quartiles(v, n, q);
	if (q[0] == a && q[1] == b && q[2] == c && q[3] == d && q[4] == e)
		return 1;
	tap_diag("got %llu %llu %llu %llu %llu", (unsigned long long)q[0],
		 (unsigned long long)q[1], (unsigned long long)q[2],
		 (unsigned long long)q[3], (unsigned long long)q[4]);
	return 0;
}

/* A batch function whose batches last calls x 1 us of busy waiting on
 * the thread's CPU time (the clock batches are timed with), except that batch SLOW_AT (1-based) of each set of SET
 * batches lasts 4 times longer, in the first SLOW_SETS sets (-1: all;
 * SLOW_AT 0: never). */
struct spin {
	unsigned batches, set, slow_at;
	int slow_sets;
};

static int spin_batch(void *arg, uint64_t calls)
{
	struct spin *s = arg;
	uint64_t ns = calls * 1000, t0 = bench_cpu_ns();
	unsigned b = s->batches++;

	if (s->slow_at && b % s->set + 1 == s->slow_at &&
	    (s->slow_sets < 0 || b / s->set < (unsigned)s->slow_sets))
		ns *= 4;
	while (bench_cpu_ns() - t0 < ns)
		;
	return 0;
}

/* A batch function that waits off the CPU for 20 ms (nanosleep) and
 * then spins for calls x 1 us of its own CPU time: a batch preempted
 * for 20 ms, as far as the clock is concerned. */
static int sleepy_batch(void *arg, uint64_t calls)
{
	struct timespec nap = { 0, 20000000 };
	uint64_t t0;

	(void)arg;
	nanosleep(&nap, NULL);
	t0 = bench_cpu_ns();
	while (bench_cpu_ns() - t0 < calls * 1000)
		;
	return 0;
}

int main(void)
{
	static const uint64_t five[] = { 50, 10, 40, 20, 30 };
	static const uint64_t four[] = { 4, 1, 3, 2 };
	static const uint64_t two[] = { 300, 100 };
	static const uint64_t halves[] = { 0, 1 };
	static const uint64_t one[] = { 7 };
	static const uint64_t spread[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static const uint64_t same[] = { 10, 10, 10 };
	static const uint64_t pair[] = { 90, 110 };
	uint64_t copy[5];
	struct samples_summary s;
	struct bench_params p = { .min_batch_ns = 200000, .repetitions = 5,
				  .sets = 3, .max_cv = 0.2 };
	struct bench_hint hint = { 0, 0 };
	struct bench_result r;
	struct spin sp;
	struct json_line j;
	char name[200];
	int rc;

	/* quartiles: type 7, hand-computed (R: quantile(x, c(0, .25, .5,
	 * .75, 1)) gives the unrounded values noted) */
	tap_ok(q_is(five, 5, 10, 20, 30, 40, 50),
	       "quartiles of 10..50 (five values): 10 20 30 40 50");
	tap_ok(q_is(four, 4, 1, 2, 3, 3, 4),
	       "quartiles of 1..4: 1.75 -> 2, 2.5 -> 3, 3.25 -> 3");
	tap_ok(q_is(two, 2, 100, 150, 200, 250, 300),
	       "quartiles of 100, 300: 150 200 250");
	tap_ok(q_is(halves, 2, 0, 0, 1, 1, 1),
	       "rounding half up: 0.25 -> 0, 0.5 -> 1, 0.75 -> 1");
	tap_ok(q_is(one, 1, 7, 7, 7, 7, 7), "one sample is every quartile");
	tap_ok(samples_quartile(five, 0, 2) == 0 &&
	       samples_quartile(five, 5, 5) == 0,
	       "no samples or k > 4: 0");

	/* coefficient of variation: sample standard deviation / mean */
	tap_ok(fabs(samples_cv(spread, 8) - sqrt(32.0 / 7.0) / 5.0) < 1e-12,
	       "cv of 2 4 4 4 5 5 7 9: sqrt(32/7)/5 = 0.42762 (%.5f)",
	       samples_cv(spread, 8));
	tap_ok(fabs(samples_cv(pair, 2) - 0.14142135623730950) < 1e-12,
	       "cv of 90, 110: 14.142/100 (%.6f)", samples_cv(pair, 2));
	tap_ok(samples_cv(same, 3) == 0 && samples_cv(one, 1) == 0,
	       "cv of equal samples, and of one sample, is 0");

	memcpy(copy, five, sizeof(copy));
	tap_ok(samples_summarise(copy, 5, &s) == 0 && s.min_ns == 10 &&
	       s.p25_ns == 20 && s.median_ns == 30 && s.p75_ns == 40 &&
	       fabs(s.cv - sqrt(250.0) / 30.0) < 1e-12 &&
	       memcmp(copy, five, sizeof(copy)) == 0,
	       "samples_summarise: quartiles and cv, input left unsorted");
	tap_ok(samples_summarise(copy, 0, &s) < 0, "no samples: refused");

	/* the estimator: median of the sets' medians, by hand */
	{
		static const uint64_t pairs[] = { 10, 20, 30, 1000, 15, 25 };
		static const uint64_t threes[] = { 1, 2, 100, 5, 6, 7,
						   3, 4, 1000 };
		static const uint64_t even[] = { 10, 20, 30, 50 };
		uint64_t med[3];

		tap_ok(samples_median_of_sets(pairs, 2, 3, med) == 20 &&
		       med[0] == 15 && med[1] == 515 && med[2] == 20,
		       "sets {10,20} {30,1000} {15,25}: medians 15 515 20, reported 20");
		tap_ok(samples_median_of_sets(threes, 3, 3, med) == 4 &&
		       med[0] == 2 && med[1] == 6 && med[2] == 4,
		       "sets {1,2,100} {5,6,7} {3,4,1000}: medians 2 6 4, reported 4");
		tap_ok(samples_median_of_sets(even, 2, 2, med) == 28,
		       "two sets {10,20} {30,50}: medians 15 40, reported 27.5 -> 28");
		tap_ok(samples_median_of_sets(threes, 9, 1, med) == 5,
		       "one set of nine: its median, 5");
		tap_ok(samples_median_of_sets(threes, 0, 3, med) == 0 &&
		       samples_median_of_sets(threes, 3, 0, med) == 0,
		       "no samples per set, or no set: 0");
	}

	/* bench_sample: every point is measured in p.sets sets, whatever
	 * its spread, and all the samples are kept. One batch 4 x slower in
	 * the first set only: still three sets (an earlier guest stopped
	 * after a quiet first set and re-ran only noisy ones), and the
	 * reported median is that of the three sets' medians, not inflated
	 * by the slow batch. 200 calls of 1 us per batch. */
	sp = (struct spin){ .set = 5, .slow_at = 3, .slow_sets = 1 };
	memset(&r, 0, sizeof(r));
	rc = bench_sample(spin_batch, &sp, 1, 200, &p, &r);
	tap_ok(rc == 0 && r.sets == 3 && r.reruns == 2 &&
	       r.repetitions == 5 && r.calls_per_batch == 200 &&
	       sp.batches == 15,
	       "three sets of five batches, every time (%u batches)",
	       sp.batches);
	{
		uint64_t med[3];

		tap_ok(r.median_ns ==
			       samples_median_of_sets(r.samples_ns, 5, 3, med) &&
		       r.median_ns >= 200000 && r.median_ns < 2 * r.min_ns &&
		       r.samples_ns[2] >= 3 * r.min_ns,
		       "all 15 samples kept in order (the slow third one too), median of the sets' medians reported");
	}
	tap_ok(r.min_ns <= r.p25_ns && r.p25_ns <= r.median_ns &&
	       r.median_ns <= r.p75_ns,
	       "quartiles of all samples ordered around the median");
	tap_ok(r.noisy == (r.cv > p.max_cv) && r.cv > 0.2,
	       "cv of all 15 samples kept as a description (%.3f), noisy above max_cv",
	       r.cv);
	sp = (struct spin){ .set = 5, .slow_at = 0 };
	memset(&r, 0, sizeof(r));
	rc = bench_sample(spin_batch, &sp, 1, 200, &p, &r);
	tap_ok(rc == 0 && sp.batches == 15 && r.sets == 3,
	       "a quiet point gets the same three sets (%u batches)",
	       sp.batches);
	p.sets = 0;
	tap_ok(bench_sample(spin_batch, &sp, 1, 200, &p, &r) < 0,
	       "no set: refused");
	p.sets = 31;
	p.repetitions = 5;
	tap_ok(bench_sample(spin_batch, &sp, 1, 200, &p, &r) < 0,
	       "more than %d samples per point: refused", BENCH_MAX_REPETITIONS);
	p.sets = 3;

	/* the timer: the thread's CPU time, so that 20 ms off the CPU
	 * in every batch do not count (a batch of 2000 calls spins 2 ms) */
	tap_ok(strcmp(bench_timer_name(), "thread-cpu") == 0,
	       "batches are timed in the thread's CPU time (%s)",
	       bench_timer_name());
	memset(&r, 0, sizeof(r));
	{
		struct bench_params q = { .min_batch_ns = 1000000,
					  .repetitions = 2, .sets = 1,
					  .max_cv = 1 };
		uint64_t w0 = bench_now_ns(), wall;

		rc = bench_sample(sleepy_batch, NULL, 1, 2000, &q, &r);
		wall = bench_now_ns() - w0;
		tap_ok(rc == 0 && wall >= 40000000 &&
		       r.median_ns >= 2000000 && r.median_ns < 10000000,
		       "a batch that waited 20 ms off the CPU is timed by its own 2 ms of CPU time (%.2f ms; %.1f ms wall for two)",
		       (double)r.median_ns / 1e6, (double)wall / 1e6);
	}

	/* calibration, without and with a hint */
	memset(&sp, 0, sizeof(sp));
	sp.set = 1;
	memset(&r, 0, sizeof(r));
	rc = bench_measure(spin_batch, &sp, 16, &p, &hint, &r);
	tap_ok(rc == 0 && r.calibration_batches >= 2 &&
	       hint.bytes_per_call == 16 && hint.ns_per_call > 0,
	       "without a hint the calibration grows from one call (%u batches)",
	       r.calibration_batches);
	/* a virtual machine's core can slow by half for a second: a
	 * calibration batch timed in such a span sizes the batches after it
	 * short, so the length is asked of one of three measurements (the
	 * single calibration batch of each is asked of all three) */
	{
		int one_batch = 1, long_enough = 0;

		for (int k = 0; k < 3; k++) {
			hint.bytes_per_call = 8;	/* as if 8-byte calls took as long */
			memset(&r, 0, sizeof(r));
			rc = bench_measure(spin_batch, &sp, 16, &p, &hint, &r);
			one_batch &= rc == 0 && r.calibration_batches == 1;
			long_enough |= rc == 0 && r.median_ns >= p.min_batch_ns;
		}
		tap_ok(one_batch && long_enough,
		       "with a hint one batch calibrates (%u), batches still long enough",
		       r.calibration_batches);
	}

	/* the longest result line fits: 150 samples of 20 digits, every
	 * number at its maximum, names cut to their budget */
	memset(&r, 0, sizeof(r));
	r.calls_per_batch = UINT64_MAX;
	r.repetitions = BENCH_MAX_REPETITIONS / BENCH_MAX_SETS;
	r.sets = BENCH_MAX_SETS;
	for (unsigned i = 0; i < BENCH_MAX_REPETITIONS; i++)
		r.samples_ns[i] = UINT64_MAX;
	r.median_ns = r.min_ns = r.p25_ns = r.p75_ns = UINT64_MAX;
	r.cv = 1.234567890123e-300;
	r.reruns = 4000000000u;
	r.tsc_cycles = UINT64_MAX;
	r.maxrss_kib = UINT64_MAX;
	r.mb_per_s = -1.234567890123e+300;
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	emit_format_result(&j, name, name, "encrypt", "oneshot", (size_t)-1,
			   &r, false);
	tap_ok(json_end(&j) == 0 && j.len <= JSON_LINE_MAX,
	       "the longest result line fits in %d bytes (%zu)", JSON_LINE_MAX,
	       j.len);
	emit_format_keysetup(&j, name, name, "encrypt", &r, false);
	tap_ok(json_end(&j) == 0 && j.len <= JSON_LINE_MAX,
	       "the longest keysetup line fits too (%zu)", j.len);

	/* the longest done line: every member at its maximum and an rusage
	 * entry for as many libraries as --libs takes (32; there are 10
	 * backends), each under the longest backend name, CPU times and
	 * peaks at the largest the orchestrator accepts (2^50 us, 2^30 KiB) */
	{
		struct rusage_lib libs[32];

		for (size_t i = 0; i < 32; i++) {
			libs[i].library = "libtomcrypt";
			libs[i].user_us = libs[i].sys_us = UINT64_C(1) << 50;
			libs[i].maxrss_kib = UINT64_C(1) << 30;
		}
		json_begin(&j);
		json_add_str(&j, "type", "done");
		json_add_uint(&j, "results", UINT64_MAX);
		json_add_uint(&j, "measure_ns", UINT64_MAX);
		json_add_uint(&j, "elapsed_ns", UINT64_MAX);
		json_add_uint(&j, "clock_hz", UINT64_MAX);
		json_add_str(&j, "clock_source", "chain");
		json_add_uint(&j, "tsc_hz", UINT64_MAX);
		rusage_add_json(&j, "rusage", libs, 32);
		tap_ok(json_end(&j) == 0 && j.len <= JSON_LINE_MAX &&
		       strstr(j.buf, ",\"rusage\":[{\"library\":\"libtomcrypt\",\"user_us\":1125899906842624,\"sys_us\":1125899906842624,\"maxrss_kib\":1073741824},{"),
		       "the longest done line, with 32 libraries' rusage, fits (%zu)",
		       j.len);
	}
	return tap_done();
}
