/* guest_output.h - what one guest invocation reported, after validation. */
#ifndef BENCHORCH_GUEST_OUTPUT_H
#define BENCHORCH_GUEST_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/util.h"

/* Protocol version this orchestrator speaks (guest/PROTOCOL.md). */
#define GUEST_PROTOCOL 3
/* Longest line accepted from the guest, in bytes. */
#define GUEST_MAX_LINE 4096
/* Largest buffer the guest may report, in bytes (1 MiB). */
#define GUEST_MAX_BUFFER (1024 * 1024)
/* Most samples (repetitions) per result or keysetup line (guest/PROTOCOL.md:
 * 150 samples of up to 20 digits keep a line under 4096 bytes). */
#define GUEST_MAX_REPETITIONS 150
/* Most re-runs of a point the protocol allows (sets after the first). */
#define GUEST_MAX_RERUNS 100
/* Most sets of samples per point ('sets'; guest/bench.h BENCH_MAX_SETS). */
#define GUEST_MAX_SETS 10
/* The host/guest clock cross-check (guest_output_check_clock): the
 * guest's hello-to-done time may differ from the host's by this fraction
 * of the host's, plus GUEST_CLOCK_SLACK_NS for pipe latency and
 * scheduling (writing, reading and parsing one line each end). */
#define GUEST_CLOCK_TOLERANCE 0.05
#define GUEST_CLOCK_SLACK_NS INT64_C(20000000)	/* 20 ms */

struct guest_library {
	char *name;
	int loaded;		/* 1 = "loaded", 0 = "absent" or "failed" */
	int failed;		/* 1 = "failed": the file is there but could
				 * not be loaded or used */
	char *message;		/* why it failed; NULL unless failed */
	char *soname, *path, *version;	/* NULL unless loaded */
	char *build_id;		/* lowercase hex, "" if none; NULL when
				 * absent */
	int64_t rss_before_load_kib;	/* resident set of its process before
				 * loading it, KiB; -1 = not reported */
	int64_t footprint_kib;	/* and right after loading, KiB; -1 = not
				 * reported (guest/PROTOCOL.md "Resources") */
};

struct guest_kat {
	char *library, *algorithm, *source;
	int ok;
};

struct guest_unsupported {
	char *library, *algorithm;
};

struct guest_error {
	char *library, *algorithm, *message;
};

/* The timing of one measured point (protocol 3), shared by `result` and
 * `keysetup`: checked against its own samples by the validator. */
struct guest_timing {
	int64_t repetitions;		/* samples per set, 1 ..
					 * GUEST_MAX_REPETITIONS */
	int64_t sets;			/* sets, 1 .. GUEST_MAX_SETS; 1 when the
					 * line has no 'sets' */
	int64_t nsamples;		/* repetitions x sets, <=
					 * GUEST_MAX_REPETITIONS */
	int64_t median_ns;		/* median of the sets' medians, ns per
					 * batch */
	int64_t min_ns;			/* ns per batch */
	int64_t p25_ns, p75_ns;		/* quartiles, ns per batch */
	double cv;			/* coefficient of variation, fraction */
	int64_t reruns;			/* sets measured after the first */
	int noisy;			/* cv stayed above the guest's --max-cv */
	int64_t tsc_cycles;		/* median TSC ticks per batch, 0 = none */
	int64_t *samples_ns;		/* nsamples values, ns per batch, in
					 * the order measured, set after set;
					 * owned */
};

struct guest_result {
	char *library, *algorithm, *operation;
	char *mode;			/* "bulk" or "oneshot" */
	int64_t buffer_bytes;		/* bytes per call */
	int64_t calls_per_batch;
	int64_t bytes_per_batch;	/* bytes */
	struct guest_timing t;
	double mb_per_s;		/* 10^6 B/s at the median */
	int verified;
	int64_t maxrss_kib;		/* the measuring process's peak resident
					 * set right after this point, KiB;
					 * -1 = not reported */
};

/* One library's process as the guest's wait4() reported it (`done`
 * member `rusage`, guest/PROTOCOL.md "Resources"). */
struct guest_rusage {
	char *library;
	int64_t user_us, sys_us;	/* CPU time, microseconds */
	int64_t maxrss_kib;		/* peak resident set, KiB; 0 = unknown */
};

/* Key setup alone (`keysetup`). */
struct guest_keysetup {
	char *library, *algorithm, *operation;	/* encrypt or decrypt */
	int64_t calls_per_batch;
	struct guest_timing t;
	double ns_per_call;		/* median_ns / calls_per_batch */
	int verified;
};

/* One timed public-key operation (`pkresult`, guest/PROTOCOL.md
 * "Public key"). */
struct guest_pkresult {
	char *library, *algorithm;	/* lib/pubkey-table.h names */
	char *operation;		/* import, derive, sign, verify */
	int64_t calls_per_batch;	/* operations per batch, >= 1 */
	struct guest_timing t;
	double ns_per_call;		/* median_ns / calls_per_batch, ns per
					 * operation */
	double ops_per_s;		/* operations per second at the median */
	int verified;			/* as the guest judged it */
};

/* One timed key derivation (`kdfresult`, guest/PROTOCOL.md "Key
 * derivation"). */
struct guest_kdfresult {
	char *library, *algorithm;	/* lib/kdf-table.h names */
	char *params;			/* the cost as text, the table's */
	int64_t iterations, memory_kib;	/* the cost: lib/kdf-table.h */
	int64_t parallelism, output_bytes;
	int64_t calls_per_batch;	/* derivations per batch, >= 1 */
	struct guest_timing t;
	double ns_per_call;		/* median_ns / calls_per_batch, ns per
					 * derivation */
	double ops_per_s;		/* derivations per second at the
					 * median */
	int verified;			/* as the guest judged it */
};

/* Which libraries confirmed or rejected one library's timed public-key
 * output (`pkcheck`), or derived the same or another key (`kdfcheck`). */
struct guest_pkcheck {
	char *library, *algorithm;
	char *confirmed_by;		/* library names joined by ",", "" none */
	char *rejected_by;		/* the same */
};

/* One library's output on the cross-library check (protocol 2
 * `crosscheck`), and the verdict of guest_output_crosscheck(). */
struct guest_crosscheck {
	char *library, *algorithm;
	int64_t input_bytes, output_bytes;
	char digest[17];	/* FNV-1a 64 of the output, 16 hex digits */
	int roundtrip;		/* decryption restored the input */
	int agrees;		/* 1 agrees with the majority of the other
				 * libraries, 0 does not (or no majority, or
				 * no round trip), -1 no other library to
				 * compare with */
};

/* The contention canary of one curve (protocol 3 `canary`,
 * guest/canary.h). */
struct guest_canary {
	char *library, *algorithm, *operation;
	char *mode;			/* "bulk" or "oneshot" */
	int64_t before_ns, after_ns;	/* the reference kernel's median, ns */
	double noise;			/* fraction it was judged against */
	int moved;			/* it moved in the sweep kept */
	int remeasured;			/* the first sweep's moved: measured
					 * again */
};

/* One library against the fastest at a point, from interleaved blocks
 * (a `pair` line). */
struct guest_pair {
	char *library, *versus;		/* versus: the point's fastest */
	char *algorithm, *operation, *mode;
	int64_t buffer_bytes;
	double ratio;			/* library's throughput / versus' */
	double low, high;		/* its interval */
	double coverage;		/* the interval's confidence, 0 .. 1 */
	int64_t rounds;			/* blocks each, paired */
	int64_t span_ns;		/* first block to last, ns */
	int tie;			/* low <= 1 <= high */
};

/* Everything one invocation printed. All memory owned by the struct. */
struct guest_output {
	int have_hello, have_done;
	char *guest_version, *libc;
	char *variant;		/* "hw" or "nohw" */
	int cpu;
	int64_t seed;		/* hello's seed (guest --seed), -1 = none */
	size_t nlibraries, nkats, nunsupported, nerrors, nresults;
	size_t nkeysetups, ncrosschecks, ncanaries;
	struct guest_canary *canaries;
	struct guest_pair *pairs;	/* --interleave only */
	size_t npairs;
	struct guest_pkresult *pkresults;	/* --pubkey only */
	size_t npkresults;
	struct guest_pkcheck *pkchecks;		/* --pubkey only */
	size_t npkchecks;
	struct guest_kdfresult *kdfresults;	/* --kdf only */
	size_t nkdfresults;
	struct guest_pkcheck *kdfchecks;	/* --kdf only */
	size_t nkdfchecks;
	struct guest_keysetup *keysetups;
	struct guest_crosscheck *crosschecks;
	struct guest_library *libraries;
	struct guest_kat *kats;
	struct guest_unsupported *unsupported;
	struct guest_error *errors;
	struct guest_result *results;
	int64_t done_results;
	int64_t measure_ns;	/* guest's total timed ns */
	int64_t clock_start_hz;	/* core clock measured at hello, Hz */
	int64_t clock_end_hz;	/* and at done */
	int64_t tsc_hz;		/* invariant TSC rate, Hz; 0 = none */
	int64_t elapsed_ns;	/* guest's own hello-to-done time */
	int64_t host_elapsed_ns;	/* the host's, between receiving hello
				 * and done; 0 = not measured */
	size_t lines;		/* lines accepted so far */
	int64_t turns;		/* `turn` lines so far (a duet's) */
	struct guest_rusage *rusage;	/* done's rusage, owned; NULL when
				 * not reported (older guest, --no-fork) */
	size_t nrusage;
};

/* A library of one invocation that failed: it could not be loaded or its
 * process ended before it reported itself (library status "failed"), or
 * its process crashed, hung and was killed, ended early, or the library
 * wrote to stdout (an error line starting "library crashed", "library
 * hung", "library process ended" or "library wrote to stdout",
 * guest/PROTOCOL.md, "Crash isolation"). */
struct guest_fault {
	const char *library;	/* borrowed from the output */
	const char *what;	/* the guest's message, borrowed */
};

/* The faults of OUT, at most one per library (the first), in the order
 * the guest reported them, into *ret (caller frees the array; the strings
 * stay owned by OUT). Returns their count; *ret is NULL when 0. */
size_t guest_output_faults(const struct guest_output *out,
			   struct guest_fault **ret);

/* Initialise an empty output. */
void guest_output_init(struct guest_output *out);

/* Release everything out owns (out itself is not freed). */
void guest_output_release(struct guest_output *out);

/* Release what OUT holds but the figures a run reads after its
 * invocations are stored (the clocks measured at start and end, Hz, and
 * the host's elapsed time, ns), so that a stored invocation costs the
 * run no memory per result. */
void guest_output_shrink(struct guest_output *out);

/* Validate one line of guest output (LEN bytes, no newline; LINENO counts
 * from 1) and add it to out. Checks: length <= GUEST_MAX_LINE, valid JSON
 * object, known "type", every member's type and range, known algorithm and
 * operation names, hello first, nothing after done, results naming a library
 * reported as loaded. Returns 0, or -1 with err set to a message naming the
 * line ("guest output line 3: 'mb_per_s' must be a positive number"). */
int guest_output_add_line(struct guest_output *out, const char *line,
			  size_t len, size_t lineno, bo_err *err);

/* Check the invocation is complete (hello and done seen, done's result count
 * matches, TSC ticks only where done reports a TSC rate). Returns 0, or -1
 * with err set. */
int guest_output_finish(const struct guest_output *out, bo_err *err);

/* The host/guest clock cross-check: HOST_ELAPSED_NS (the host's
 * CLOCK_MONOTONIC between receiving the hello and the done line) against
 * the guest's own elapsed_ns from done. They must agree within
 * GUEST_CLOCK_TOLERANCE of the host's time plus GUEST_CLOCK_SLACK_NS;
 * otherwise one of the two clocks cannot be trusted and neither can any
 * time the guest reported. Stores HOST_ELAPSED_NS in out. Returns 0, or -1
 * with err set ("guest clock disagrees with the host: ..."). */
int guest_output_check_clock(struct guest_output *out,
			     int64_t host_elapsed_ns, bo_err *err);

/* Find the result for (library, algorithm, operation, mode, buffer_bytes),
 * or NULL. */
const struct guest_result *guest_output_find(const struct guest_output *out,
					     const char *library,
					     const char *algorithm,
					     const char *operation,
					     const char *mode,
					     int64_t buffer_bytes);

/* The cross-library check: for each algorithm, compare the `crosscheck`
 * digests of every library that reported one for the same input size.
 * Only libraries whose round trip worked and that failed none of the
 * algorithm's known-answer tests (`kat` lines) vote: a library that
 * computes wrong answers costs only itself. A voting library agrees when
 * its digest is the one held by strictly more voting libraries than any
 * other digest, and at least two; with no such majority (e.g. two voting
 * libraries that differ) none agrees; with no other voter it has nothing
 * to compare (agrees -1). A library that does not vote never agrees.
 * Sets every crosschecks[].agrees. Idempotent. */
void guest_output_crosscheck(struct guest_output *out);

/* 0 when LIBRARY disagreed on ALGORITHM in the cross-check (agrees == 0),
 * else 1 (agreed, or nothing to compare). */
int guest_output_crosscheck_ok(const struct guest_output *out,
			       const char *library, const char *algorithm);

/* Is NAME an algorithm of protocol GUEST_PROTOCOL? */
int guest_algorithm_known(const char *name);

#endif
