/* guest/worker.h - one library in a long-lived process of its own that
 * measures what the parent asks, one command at a time: the interleaved
 * scheduler's worker (guest/interleave.h, guest/PROTOCOL.md
 * "Interleaved measurement").
 *
 * The worker is a child process, as under isolate.h: it loads its
 * library and prints its own `library`, `kat`, `unsupported`,
 * `crosscheck`, `keysetup` and `error` lines on a copy of stdout; its
 * descriptor 1 is a pipe the parent drains, so that what the library
 * writes to stdout never reaches the orchestrator. Then it waits on a
 * command pipe. Only the parent prints `result` lines, from the blocks the
 * worker timed. Between two commands the worker blocks in read(2), so
 * that only one library runs at a time, on the same CPU. A worker that
 * crashes, hangs past --lib-timeout (per command), ends early or writes to
 * stdout costs only its own library: the parent says what happened
 * (isolate_report) and goes on without it.
 */
#ifndef GUEST_WORKER_H
#define GUEST_WORKER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "algo.h"
#include "backend.h"
#include "isolate.h"
#include "measure.h"

/* The commands, one struct worker_req each. */
enum worker_cmd {
	WORKER_ALGO = 1,	/* an algorithm's known-answer tests,
				 * cross-check and key setups
				 * (measure_algo_prepare) */
	WORKER_POINT = 2,	/* open and calibrate a point */
	WORKER_BLOCK = 3,	/* time one batch of the open point */
	WORKER_QUIT = 4,	/* close, and exit */
	/* 5 was the public-key algorithms and key derivation functions
	 * library after library; they are points now */
	WORKER_PKALGO = 6,	/* a public-key algorithm's known-answer
				 * tests and keys (pubkey_duet_algo; its
				 * RSA key generation timed there, except
				 * in a duet) */
	WORKER_PKOP = 7,	/* open and calibrate one of its
				 * operations */
	WORKER_PKBLOCK = 8,	/* time one batch of it */
	WORKER_KDFALGO = 9,	/* a key derivation function's
				 * known-answer tests and inputs
				 * (kdf_duet_algo) */
	WORKER_KDFOP = 10,	/* calibrate its derivations per
				 * batch */
	WORKER_KDFBLOCK = 11	/* time one batch of them */
};

/* A command (parent to worker), fixed size. */
struct worker_req {
	uint32_t cmd;		/* enum worker_cmd */
	uint32_t algo;		/* ALGO, POINT: enum guest_algo;
				 * PKALGO: enum guest_pk_algo;
				 * KDFALGO: enum guest_kdf_algo */
	uint32_t op;		/* POINT: enum guest_op; PKOP: the
				 * operation's index in pubkey_table */
	uint32_t oneshot;	/* POINT: 1 = one-shot mode, 0 = bulk */
	uint64_t len;		/* POINT: buffer bytes */
	uint32_t place;		/* BLOCK, PKBLOCK, KDFBLOCK: the stack offset to run it at
				 * (guest/place.h) */
	uint32_t buffers;	/* BLOCK: the input's and output's offsets,
				 * packed by place_buffers (guest/place.h) */
};

/* A reply (worker to parent), fixed size. */
struct worker_reply {
	int32_t status;		/* 0 done; -1 failed (the worker printed an
				 * error line); the first reply, after
				 * loading: 0 loaded, 1 absent or failed */
	uint32_t supported;	/* ALGO: 1 when the library has it */
	uint32_t verified;	/* ALGO: every known-answer test passed;
				 * POINT: that, and the round trip at this
				 * size (kat_roundtrip) */
	uint32_t pad;
	uint64_t calls;		/* POINT: calls per batch */
	uint64_t ns;		/* BLOCK: the batch, ns of CPU time */
	uint64_t ticks;		/* BLOCK: its TSC ticks (0 = not read) */
	uint64_t spent_ns;	/* ns spent in timed batches for this
				 * command, calibration included */
	uint64_t maxrss_kib;	/* BLOCK: the worker's peak resident set,
				 * KiB, 0 = unknown */
};

/* The parent's handle of one worker. */
struct worker {
	const struct guest_backend *b;
	pid_t pid;		/* -1 once reaped */
	int to;			/* command pipe, write end; -1 = closed */
	int from;		/* reply pipe, read end; -1 = closed */
	struct isolate_stray stray;	/* what the library wrote to fd 1 */
	struct shared_counts *counts;	/* shared with the worker (mmap) */
	bool alive;		/* answering commands */
};

/* Start the worker of library B (fork): it loads B and prints its
 * `library` line. Fills *W. Returns 1 when B is loaded and the worker
 * waits for commands; 0 when B is absent or failed to load, or its
 * process ended or hung while loading (the lines for that are printed,
 * the process reaped, its rusage recorded in run->rusage); -1 when the
 * worker could not be started (fork, pipe or mmap failed; nothing
 * printed). Exits with status 1 when stdout is gone. */
int worker_start(struct run *run, const struct guest_backend *b,
		 struct worker *w);

/* Send command Q to live worker W and wait for its reply (at most
 * --lib-timeout seconds) into *R, draining what the library writes to
 * stdout meanwhile. Returns 0 with *R filled, or -1 when the worker died,
 * hung (killed) or broke the protocol: it is then reaped, reported
 * (isolate_report: `library crashed ...` etc.) and no longer alive. */
int worker_call(struct run *run, struct worker *w,
		const struct worker_req *q, struct worker_reply *r);

/* End worker W: QUIT when alive, reap it (rusage into run->rusage),
 * report an end that was not clean or bytes it wrote to stdout, free
 * its shared counts. W is unusable afterwards. */
void worker_stop(struct run *run, struct worker *w);

#endif /* GUEST_WORKER_H */
