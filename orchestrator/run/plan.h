/* plan.h - the order of a run, drawn from one seed: the run is split into
 * rounds, each measuring one group of the algorithms in every
 * distribution, the distributions in a new random order every round, and
 * every guest invocation gets its own seed to shuffle its libraries and
 * algorithms (guest --seed). Every algorithm is measured in two rounds
 * (PLAN_PASSES, --sequential) or three (PLAN_INTERLEAVED_PASSES, the
 * libraries taking turns), so that one run holds independent
 * invocations of every point and its own between-invocation spread: with
 * two passes the second half of the rounds mirrors the first (round
 * 2H - 1 - i measures the group of round i); with three each pass is
 * another permutation of the groups, chosen so that the round numbers of
 * every group sum to the same (plan.c, plan_position). Either way every
 * algorithm's rounds sit symmetrically about the middle of the run, and
 * a drift that is linear in time moves every algorithm's mean alike; and
 * the invocations of a point have different guest seeds, so its
 * libraries and algorithms run in another order, next to other
 * neighbours. Measured in this order, a slow drift of the
 * machine (temperature, neighbours on a shared host) spreads over every
 * distribution and library instead of showing up as a difference between
 * them. */
#ifndef BENCHORCH_PLAN_H
#define BENCHORCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* Rounds of a run (fewer when there are fewer algorithms): every
 * distribution is measured in each eighth of the run. Each round costs
 * one more guest invocation per distribution: a container start, the
 * guest's start and every library loaded again. Measured with
 * systemd-nspawn on Debian bookworm on a 2-core virtual machine, the
 * wall clock around the guests minus their timed batches grew by about
 * 0.23 s per extra invocation with one library and 0.29 s with all seven
 * (more on a busy machine): 8 rounds add about 2 s per distribution, some
 * 15 % of a --quick run (12 to 14 s here), under 1 % of a full one
 * (minutes). */
#define PLAN_ROUNDS 4
/* Rounds every algorithm is measured in (passes over all algorithms): 8
 * rounds in all, as many invocations as when each algorithm was measured
 * once in 8 rounds. */
#define PLAN_PASSES 2
/* Passes and rounds per pass of a run whose libraries take turns (not
 * --sequential, not --quick): every algorithm in 3 invocations spread
 * over the run, 9 in all. The host can slow some implementations
 * (table-driven AES, RC4) by up to half for tens of seconds to minutes
 * while others keep their speed (guest/PROTOCOL.md, "Placement"): taking
 * turns cannot cancel that, and a point measured at two moments of the
 * run took half of it into the run's figure. At three, the run's figure,
 * the median of its invocations (points_v), leaves one such moment out.
 * Each invocation measures 4 rounds of blocks (guest INTERLEAVE_ROUNDS),
 * 12 blocks a point as two invocations of 6 did. */
#define PLAN_INTERLEAVED_PASSES 3
#define PLAN_INTERLEAVED_ROUNDS 3
/* Passes of a --quick run: one, in PLAN_ROUNDS rounds. A quick run is a
 * look in half a minute, not a run to keep: its points have one
 * invocation each (no between-invocation spread in points_v), and its
 * public-key algorithms are measured once, in the last round. Measured
 * with tests/bench/full-run.sh on Debian bookworm on a 2-core machine:
 * two passes took 61 s of guest time, of which 48 s the two passes over
 * the ciphers and hashes. */
#define PLAN_QUICK_PASSES 1

/* One guest invocation of the plan. */
struct plan_step {
	size_t round;		/* 0-based */
	size_t spec;		/* index into the caller's distributions */
	uint64_t guest_seed;	/* for guest --seed, 0 .. 2^32 - 1 */
};

struct plan {
	uint64_t seed;		/* the run's seed */
	size_t nrounds;
	size_t passes;		/* rounds each algorithm is measured in:
				 * PLAN_PASSES, PLAN_INTERLEAVED_PASSES, or
				 * 1 (PLAN_QUICK_PASSES) */
	char **algos;		/* per round: its algorithms, comma-separated,
				 * in the order given to the guest; owned */
	struct plan_step *steps;	/* nrounds * nspecs, in run order; owned */
	size_t nsteps;
	char *pubkey;		/* the public-key algorithms (guest --pubkey:
				 * a list or "all"), measured in the first
				 * and the last round only: two invocations
				 * per distribution, as every other
				 * algorithm (in a plan of one pass, the
				 * last round only); NULL = none. Not drawn by
				 * plan_make: its caller sets it; owned */
	char *kdf;		/* the key derivation functions (guest --kdf:
				 * a list or "all"), measured in the first
				 * round only, one invocation per
				 * distribution (they are slow and their
				 * cost fixed); NULL = none. Set by the
				 * caller, as pubkey; owned */
};

/* Does round ROUND (0-based) of P measure P's key derivation functions
 * (the first round only)? */
int plan_round_has_kdf(const struct plan *p, size_t round);

/* Does round ROUND (0-based) of P measure P's public-key algorithms (the
 * first and the last round; in a plan of one pass, the last only)? */
int plan_round_has_pubkey(const struct plan *p, size_t round);

/* Draw the plan of a run from SEED (0 .. 2^32 - 1) for NSPECS
 * distributions and the NALGOS algorithm names ALGOS (>= 1), with at most
 * MAX_ROUNDS (>= 1) rounds per pass and PASSES (1, 2 or 3;
 * PLAN_QUICK_PASSES for --quick, PLAN_PASSES, PLAN_INTERLEAVED_PASSES)
 * passes: H = min(NALGOS, MAX_ROUNDS) rounds (with three passes, one
 * fewer when that is even), the algorithms in a random order cut into
 * groups whose sizes differ by at most one, then, with two passes, H
 * more with the same groups in the reverse order (2H rounds; each
 * algorithm in two), with three, 2H more, each pass another order of
 * the groups (plan.c, plan_position; each algorithm in three). The
 * second pass lists each group's algorithms backwards. The draws, all from one SplitMix64
 * stream seeded with SEED (lib/shuffle.h), in this order: the algorithm
 * permutation; one distribution permutation per round; one guest seed
 * per (round, distribution index), rounds first, drawn again while it
 * equals an earlier one of the same distribution. The same arguments
 * give the same plan on every machine. Fills *ret (release with
 * plan_release). */
void plan_make(uint64_t seed, const char *const *algos, size_t nalgos,
	       size_t nspecs, size_t max_rounds, size_t passes,
	       struct plan *ret);

/* Free what P owns. */
void plan_release(struct plan *p);

#endif
