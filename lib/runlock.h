/* runlock.h - the machine's run lock: one benchmark run at a time, whatever
 * the state directory or the database (two runs measuring at once disturb
 * each other's numbers). */
#ifndef BENCHORCH_RUNLOCK_H
#define BENCHORCH_RUNLOCK_H

#include "lib/util.h"

/* Take the run lock DIR/run.lock (DIR is BENCHORCH_RUN_LOCK_DIR, paths.h;
 * tests give another), waiting while another run holds it: on_wait (may be
 * NULL) is told once with the lock's path, as bo_lock_wait() does; gives
 * up when bo_interrupted is set.
 *
 * DIR is created mode 0700 when missing (its parent too, 0755). Only its
 * owner can then create or hold the lock, so DIR must be a directory, not
 * a symlink, owned by the effective uid, and so must the lock file be a
 * regular file of that uid (created 0600, opened O_NOFOLLOW); anything
 * else, such as a lock planted by another user, is refused with a
 * one-line error naming it. A DIR of ours open to others is tightened
 * to 0700.
 *
 * Returns the locked fd (the lock lasts until it is closed; the caller
 * closes it), or -1 with err set. */
int bo_run_lock(const char *dir, bo_lock_wait_fn on_wait, void *ctx,
		bo_err *err);

#endif
