/* tests/t1040-guest-stats.c - the guest's timing statistics: quartiles and
 * coefficient of variation against hand-computed values, the re-run
 * decision, re-runs and calibration of bench_measure on a batch function
 * whose durations this test controls, and the longest possible result
 * line. Prints TAP. */
#include "guest/compat.h"
#include "config.h"

#include <math.h>
#include <string.h>

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
 * CLOCK_MONOTONIC, except that batch SLOW_AT (1-based) of each set of SET
 * batches lasts 4 times longer, in the first SLOW_SETS sets (-1: all;
 * SLOW_AT 0: never). */
struct spin {
	unsigned batches, set, slow_at;
	int slow_sets;
};

static int spin_batch(void *arg, uint64_t calls)
{
	struct spin *s = arg;
	uint64_t ns = calls * 1000, t0 = bench_now_ns();
	unsigned b = s->batches++;

	if (s->slow_at && b % s->set + 1 == s->slow_at &&
	    (s->slow_sets < 0 || b / s->set < (unsigned)s->slow_sets))
		ns *= 4;
	while (bench_now_ns() - t0 < ns)
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
				  .max_cv = 0.2, .max_reruns = 2 };
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

	/* the re-run decision */
	tap_ok(samples_rerun_wanted(0.03, 0.02, 0, 2) &&
	       samples_rerun_wanted(0.03, 0.02, 1, 2),
	       "cv 3 %% above a 2 %% limit: re-run while reruns < max");
	tap_ok(!samples_rerun_wanted(0.03, 0.02, 2, 2),
	       "no re-run once max_reruns are done");
	tap_ok(!samples_rerun_wanted(0.02, 0.02, 0, 2) &&
	       !samples_rerun_wanted(0.01, 0.02, 0, 2),
	       "cv at or below the limit: no re-run");
	tap_ok(!samples_rerun_wanted(0.5, 0.02, 0, 0), "max_reruns 0: never");

	/* bench_sample: one batch 4 x slower in the first set only (the CV
	 * of 1 1 4 1 1 is 0.95): re-run, a quiet later set is reported.
	 * 200 calls of 1 us per batch; up to 10 re-runs, in case this
	 * machine is busy enough to disturb a later set as well. */
	sp = (struct spin){ .set = 5, .slow_at = 3, .slow_sets = 1 };
	memset(&r, 0, sizeof(r));
	p.max_reruns = 10;
	rc = bench_sample(spin_batch, &sp, 1, 200, &p, &r);
	p.max_reruns = 2;
	tap_ok(rc == 0 && r.reruns >= 1 && !r.noisy && r.cv <= p.max_cv &&
	       r.repetitions == 5 && r.calls_per_batch == 200 &&
	       sp.batches == 5 * (r.reruns + 1),
	       "a noisy first set is re-run, a quiet one reported (re-runs %u, cv %.3f)",
	       r.reruns, r.cv);
	tap_ok(r.min_ns <= r.p25_ns && r.p25_ns <= r.median_ns &&
	       r.median_ns <= r.p75_ns && r.median_ns >= 200000 &&
	       r.p75_ns < 2 * r.min_ns,
	       "quartiles ordered, no slow batch among the reported samples");
	sp = (struct spin){ .set = 5, .slow_at = 2, .slow_sets = -1 };
	memset(&r, 0, sizeof(r));
	rc = bench_sample(spin_batch, &sp, 1, 200, &p, &r);
	tap_ok(rc == 0 && r.reruns == 2 && r.noisy && r.cv > p.max_cv &&
	       sp.batches == 15,
	       "noisy in every set: max_reruns re-runs, 15 batches, flagged noisy (cv %.3f)",
	       r.cv);

	/* calibration, without and with a hint */
	memset(&sp, 0, sizeof(sp));
	sp.set = 1;
	memset(&r, 0, sizeof(r));
	rc = bench_measure(spin_batch, &sp, 16, &p, &hint, &r);
	tap_ok(rc == 0 && r.calibration_batches >= 2 &&
	       hint.bytes_per_call == 16 && hint.ns_per_call > 0,
	       "without a hint the calibration grows from one call (%u batches)",
	       r.calibration_batches);
	hint.bytes_per_call = 8;	/* as if 8-byte calls took as long */
	memset(&r, 0, sizeof(r));
	rc = bench_measure(spin_batch, &sp, 16, &p, &hint, &r);
	tap_ok(rc == 0 && r.calibration_batches == 1 &&
	       r.median_ns >= p.min_batch_ns,
	       "with a hint one batch calibrates (%u), batches still long enough",
	       r.calibration_batches);

	/* the longest result line fits: 150 samples of 20 digits, every
	 * number at its maximum, names cut to their budget */
	memset(&r, 0, sizeof(r));
	r.calls_per_batch = UINT64_MAX;
	r.repetitions = BENCH_MAX_REPETITIONS;
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
