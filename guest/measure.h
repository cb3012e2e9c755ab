/* guest/measure.h - the measuring loop of one library: its algorithms,
 * their known-answer tests, the cross-library check, the sweeps of buffer
 * sizes with the contention canary, and the timed points (measure.c).
 * main.c runs it for each library, in a child process or in-process. */
#ifndef GUEST_MEASURE_H
#define GUEST_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "backend.h"
#include "bench.h"
#include "options.h"
#include "place.h"
#include "rusage.h"

struct pk_shared;
struct kdf_shared;

/* The buffers of one run, each BUFFER_BYTES, 64-byte aligned: room for
 * the largest buffer at any offset a block's placement draws (below
 * PLACE_SPAN, guest/place.h) and, right after it, an AEAD tag
 * (guest/PROTOCOL.md, "Buffers"). */
#define BUFFER_BYTES (MAX_BUFFER + PLACE_SPAN + 64)
struct buffers {
	uint8_t *pt;		/* benchmark plaintext / message */
	uint8_t *ct;		/* its ciphertext (valid AEAD message, the
				 * tag right after it) */
	uint8_t *work;		/* what the timed calls write */
	uint8_t *scratch;	/* verification */
};

/* What the parent and a library's child process share (MAP_SHARED), so
 * that the parent can finish the `done` line and say where a child died. */
struct shared_counts {
	uint64_t results;	/* result lines printed */
	uint64_t measure_ns;	/* ns spent in timed batches */
	uint64_t sweeps;	/* sweeps of sizes begun (canary_disturb) */
	uint64_t first_sweeps;	/* of them first attempts */
	uint64_t remeasured;	/* of them measured again */
	uint64_t held;		/* result lines of the current sweep, held
				 * (emit_hold): counted in results only
				 * when written, so that a library that
				 * dies in a sweep leaves a true count */
	int algo;		/* algorithm being worked on, -1 = none */
	int finished;		/* 1 when the child got through its list */
	int reported;		/* 1 once the child printed its library
				 * line (loaded, absent or failed) */
	int stdout_gone;	/* 1 when the child could not write a line
				 * (check_emit): the guest ends, status 1 */
};

/* Run state shared by the loops below. */
struct run {
	const struct options *o;
	struct bench_params params;	/* from o, and whether to read the TSC */
	struct buffers bufs;
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV];
	struct shared_counts *counts;
	/* each library's child process, as wait4() reported it (parent) */
	struct rusage_lib rusage[MAX_LIBS];
	size_t nrusage;
	/* --pubkey: the public-key outcomes, shared with the libraries'
	 * processes (guest/pubkey.h); NULL without --pubkey */
	struct pk_shared *pk;
	/* --kdf: the key derivation outcomes, shared with the libraries'
	 * processes (guest/kdf.h); NULL without --kdf */
	struct kdf_shared *kdf;
};

/* RC is what an emit_*() call returned: when it is < 0 (stdout is gone),
 * say "cannot write to stdout" on stderr, set the flag of
 * check_emit_flag() if any, and exit with status 1. */
void check_emit(int rc);

/* From now on check_emit() sets *FLAG to 1 before it exits (a library's
 * child process: its parent reads the flag, not the exit status, which
 * the library itself could have chosen). NULL: no flag. */
void check_emit_flag(int *flag);

/* Allocate the four buffers of *bufs (BUFFER_BYTES each, 64-byte aligned,
 * zeroed); the caller frees them with free_buffers(). Returns 0, or -1
 * when out of memory (what was allocated is then not freed: the guest
 * exits). */
int alloc_buffers(struct buffers *bufs);

/* Free the buffers of alloc_buffers(). */
void free_buffers(struct buffers *bufs);

/* Deterministic, incompressible-looking fill of LEN bytes at BUF
 * (xorshift64, the same bytes every call): the benchmark plaintext and
 * the cross-library check's input (guest/PROTOCOL.md). */
void fill_pattern(uint8_t *buf, size_t len);

/* The buffer sizes of a run (bytes, ascending) into SIZES (room for
 * FULL_SIZES); returns how many: every power of two 16 .. 1 MiB, or
 * --quick's four. */
size_t measure_sizes(const struct options *o, size_t *sizes);

/* Load library B in the calling process and print its `library` line
 * (loaded, absent or failed, with an `error` line when failed); sets
 * run->counts->reported. Returns true when it is loaded. */
bool measure_load(struct run *run, const struct guest_backend *b);

/* Everything of ALGO in the loaded library B that comes before its timed
 * points: `unsupported`, or its known-answer tests (`kat` lines), the
 * cross-library check and the key setups. Returns false when B lacks
 * ALGO; else true, with *KAT_OK set when every known-answer test
 * passed. */
bool measure_algo_prepare(struct run *run, const struct guest_backend *b,
			  enum guest_algo algo, bool *kat_ok);

/* Load library B and run every algorithm of run->o in it, in the calling
 * process: prints the library line, then each algorithm's known-answer
 * tests, cross-check, canaries and results on stdout, and counts them in
 * run->counts (shared with main.c's parent when forked). Errors of the
 * library are `error` lines; a stdout gone exits with status 1
 * (check_emit). Nothing for the caller to free. */
void run_library(struct run *run, const struct guest_backend *b);

#endif /* GUEST_MEASURE_H */
