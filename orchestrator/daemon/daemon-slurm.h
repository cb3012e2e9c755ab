/* daemon-slurm.h - the daemon sends a schedule with the word "slurm" to a
 * Slurm cluster (benchorch slurm submit) instead of running it here. */
#ifndef BENCHORCH_DAEMON_SLURM_H
#define BENCHORCH_DAEMON_SLURM_H

#include "orchestrator/daemon/config-file.h"
#include "lib/util.h"

/* Build the command line of `benchorch slurm submit` for schedule S under
 * configuration C: S's Slurm words as submit's options, C's database as
 * the central --db, then the run options (--distros, --libs, --quick,
 * --refresh, C's --state-dir, --runner, --timeout, --mirror). ARGV0 is
 * the program to run. Returns a NULL-terminated array (*ret_argc entries)
 * whose strings are owned by it; free with daemon_slurm_argv_free. */
char **daemon_slurm_argv(const char *argv0, const struct conf *c,
			 const struct sched *s, int *ret_argc);

/* Free an array from daemon_slurm_argv. */
void daemon_slurm_argv_free(char **argv);

/* The longest the daemon waits for `benchorch slurm submit`, in seconds:
 * longer than submit gives its own script (SLURM_SUBMIT_TIMEOUT_S). */
#define DAEMON_SLURM_TIMEOUT_S 330

/* Submit schedule S to Slurm: run this program's `slurm submit` (from
 * /proc/self/exe) with daemon_slurm_argv through spawn_run and wait for
 * it (sbatch answers in about a second), at most DAEMON_SLURM_TIMEOUT_S,
 * and no longer than bo_interrupted stays unset (then it is killed, with
 * its process group). Blocks: the daemon calls it in a child of its own.
 * Returns 0 with its output ("job N", "tasks ...", "merge M") in
 * *ret_out, newly allocated, or -1 with err set to its exit status or
 * how it ended (timed out, interrupted) and the end of its messages, on
 * one line (no sbatch, a refused submission, bad options). The child
 * gets default signals and an empty signal mask (spawn_run). */
int daemon_slurm_submit(const struct conf *c, const struct sched *s,
			char **ret_out, bo_err *err);

#endif
