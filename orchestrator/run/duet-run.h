/* duet-run.h - run two guests, one per image, that take turns: a duet
 * (DESIGN.md, "Compare side by side"). Both start at once, each in its
 * own container, pinned to the same CPU, with `--duet`; the orchestrator
 * holds the token between them (guest/turns.h): when one guest ends a
 * turn (its `turn` line), the next turn goes to the other, so that at any
 * moment only one of them measures and each block of one image has its
 * twin of the other image milliseconds away. */
#ifndef BENCHORCH_DUET_RUN_H
#define BENCHORCH_DUET_RUN_H

#include <stdint.h>

#include "lib/guest_output.h"
#include "lib/spawn.h"
#include "lib/util.h"
#include "orchestrator/run/runner.h"

/* One side of a duet: what the caller gives, and what the guest did. */
struct duet_side {
	/* given */
	const char *name;		/* the image's name, for messages */
	const char *rootfs;		/* absolute path of its root */
	const char *guest;		/* host path of the guest binary for
					 * this rootfs (glibc or musl) */
	int log_fd;			/* its guest log, O_RDWR|O_APPEND;
					 * -1 = none */
	const char *const *extra_args;	/* this guest's own arguments after
					 * the common ones (a build's
					 * --replace), NULL-terminated;
					 * NULL = none */
	size_t nbinds;			/* host directories bound read-only
					 * into its rootfs (runner_opts),
					 * at most RUNNER_MAX_BINDS */
	const char *const *bind_src, *const *bind_dst;
	/* filled by duet_run */
	struct guest_output out;	/* initialised by duet_run; the
					 * caller frees it
					 * (guest_output_free) */
	const char *runner;		/* "nspawn" or "chroot", static */
	struct spawn_result res;
	int rc;				/* runner_run's: 0 or -1 */
	bo_err err;			/* why, when rc is -1 */
};

/* How both guests run. */
struct duet_config {
	enum runner_kind kind;
	const char *const *guest_args;	/* NULL-terminated, both guests';
					 * duet_run adds --duet */
	uint64_t timeout_ns;		/* kill a guest after this long */
	int cpu;			/* both pinned here; -1 = no pinning */
	unsigned first;			/* 0 or 1: the side whose turn opens
					 * the odd pairs of turns (the even
					 * ones open with the other: ABBA) */
	/* Called, under the duet's lock, after each accepted line of either
	 * side (SIDE 0 or 1) with its output so far; NULL = none. */
	void (*on_output)(void *ctx, unsigned side,
			  const struct guest_output *out);
	void *output_ctx;
};

/* Run the two guests of SIDES (0 the base, 1 the new) as a duet by C and
 * wait for both. Each side's rc, err, out, runner and res say how its
 * guest ended; a side that fails ends the turns, so the other runs to
 * its end alone (its later blocks have no twin). Returns 0 when both
 * guests ran to completion, -1 otherwise (an error is in the side's err;
 * a setup failure, such as no pipe or no thread, in ERR with both rc -1).
 * The turns are paired: the k-th turn of one side is next to the k-th of
 * the other, in the order ABBA ABBA... from C->first. */
int duet_run(const struct duet_config *c, struct duet_side sides[2],
	     bo_err *err);

#endif /* BENCHORCH_DUET_RUN_H */
