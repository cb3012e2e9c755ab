/* guest/interleave.h - measure the libraries interleaved: every library
 * in a worker process of its own (guest/worker.h), and the parent hands
 * out blocks of one point to them in turn, a new random order each
 * round, so that the libraries compared at a point are measured within
 * milliseconds of each other and judged as pairs (guest/pairs.h).
 * guest/PROTOCOL.md, "Interleaved measurement", says what is printed.
 *
 * Why (DESIGN.md, "Compare side by side"): the host's speed moves by
 * several per cent over minutes and by tens in bursts; libraries measured
 * one after the other, minutes apart, carry that drift into their
 * ranking. Blocks a few milliseconds long taking turns share it. */
#ifndef GUEST_INTERLEAVE_H
#define GUEST_INTERLEAVE_H

#include "measure.h"

/* Rounds per point when --rounds is not given: a full run, --quick.
 * Four blocks a point per invocation in a full run: its plan measures
 * every point in three invocations spread over the run
 * (orchestrator/run/plan.h, PLAN_INTERLEAVED_PASSES), 12 blocks in all,
 * as many batches as the sequential sweep's 3 sets of 2. A --quick run
 * measures each point in one invocation: 6 rounds. Measured with
 * tests/bench/full-run.sh (FULLRUN_OPTS=--interleave) on Debian bookworm
 * on a 2-core machine, 12 rounds in each of two invocations made a full
 * run 477 s of guest time. A sign-test interval of 6 paired rounds is
 * their range (coverage 1 - 2^-5, 96.9 %); of 4, the range covers
 * 1 - 2^-3 (87.5 %), and the run judges a pair over its invocations. */
#define INTERLEAVE_ROUNDS 4
#define INTERLEAVE_QUICK_ROUNDS 6

/* The seed of the block order without --seed (any fixed value: the
 * order is then the same in every invocation). */
#define INTERLEAVE_SEED UINT64_C(0x6a09e667)

/* Measure every library of run->o (one worker each) at every point of
 * its algorithms and sizes, interleaved: each library's `library` line
 * and, per algorithm, its `kat`, `unsupported`, `crosscheck` and
 * `keysetup` lines come from its worker; the parent prints the `result`
 * lines (the rounds' blocks as samples, one set) and one `pair` line per
 * library but the fastest at each point; the public-key operations and
 * key derivation functions (--pubkey, --kdf) are points too, their
 * timing kept in run->pk and run->kdf and their pairs held for
 * interleave_emit_late_pairs. A worker that fails costs only
 * its library (worker.h). Counts results and measure_ns in run->counts
 * and the workers' rusage in run->rusage. Exits with status 1 when stdout
 * is gone. */
void interleave_run(struct run *run);

/* The `pair` lines of the public-key operations (mode "pubkey") and key
 * derivation functions (mode "kdf") interleave_run measured, held until
 * their `pkresult` and `kdfresult` lines are printed (pubkey_finish,
 * kdf_finish); then printed, in the order measured, and freed. Nothing
 * when there are none. Exits with status 1 when stdout is gone. */
void interleave_emit_late_pairs(void);

#endif /* GUEST_INTERLEAVE_H */
