/* slurm.h - run benchorch on the nodes of a Slurm cluster: the submission
 * script (one exclusive task per node, then a merge job), and the files the
 * tasks leave in the spool directory, read by the merge and by status. */
#ifndef BENCHORCH_SLURM_H
#define BENCHORCH_SLURM_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/util.h"

/* The longest `slurm submit` lets its script (sbatch, scontrol) run,
 * in seconds, before it kills it: a cluster that does not answer. */
#define SLURM_SUBMIT_TIMEOUT_S 300

/* What the submission script does. Strings are borrowed. */
struct slurm_submit {
	const char *benchorch;	/* absolute path of benchorch on the nodes */
	const char *spool;	/* directory every node and the merge job
				 * share: task databases, logs, manifest */
	const char *db;		/* the central database the merge job fills */
	const char *partition;	/* NULL = the cluster's default */
	const char *time;	/* sbatch --time per task; NULL = the
				 * partition's limit */
	long nodes;		/* when nodelist is NULL: the nodes of the
				 * one job, one task on each, >= 1 */
	const char *nodelist;	/* Slurm host list ("n[1-4],x"): one job per
				 * node it expands to (scontrol show
				 * hostnames), each node once; NULL = one
				 * job of NODES nodes */
	char *const *run_argv;	/* options for `benchorch run`, already
				 * checked, without --db */
	int run_argc;
};

/* Write to F a POSIX shell script that, run with sh on a host with the
 * Slurm client commands, submits S: without a node list one job of
 * S->nodes nodes (sbatch --nodes, so N distinct nodes; tried first with
 * sbatch --test-only, so that a job no partition can run is refused, not
 * queued) whose batch script starts one task on each node with srun;
 * with one, a job per node. The tasks (each exclusive on one node,
 * running `benchorch run RUN-OPTIONS` into a database in a new directory
 * under $TMPDIR (else /tmp) on its node, then copying that database to a
 * new file in SPOOL and renaming it to SPOOL/HOST-TASK.db, so that a file
 * of that name is always complete (as root:
 * a task that is not stops with one line on stderr, exit status 3,
 * recorded in TASK.exit where the spool lets it) with its log
 * in SPOOL/TASK.log, its node name in SPOOL/TASK.node and its exit status
 * in SPOOL/TASK.exit, where TASK is JOB_RANK for the task of rank RANK of a
 * job of N nodes and the job id for a job of one node of the list; TASK.exit's second line is "sha256:HEX", the
 * SHA-256 of the database the task wrote, when it wrote one), the list of task ids in SPOOL/JOB.tasks, then the
 * merge job (`--dependency=afterany` on every task, so a failed or killed
 * task does not block it) running `benchorch slurm collect JOB`; JOB is
 * the first job id. The script prints "job JOB", "tasks TASK..." and
 * "merge MERGE-JOB" on stdout, one line each, and stops at the first
 * failing command: without sbatch in PATH, when sbatch refuses a job
 * (after sbatch's own message, a line naming the job refused) or prints
 * something that is no job id (a line saying what it printed), each time
 * cancelling the jobs it queued before (scancel). Every string from S is shell-quoted. The script and
 * each task first check the spool as slurm_spool_check does (with find)
 * and stop with one line when it fails; they create their files with
 * noclobber (set -C), so none is written over, nor through a link to an
 * existing file. */
void slurm_script_write(FILE *f, const struct slurm_submit *s);

/* Check that S is a time limit sbatch --time takes: MINUTES,
 * MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES,
 * DAYS-HOURS:MINUTES:SECONDS (hours below 24 after DAYS-, minutes and
 * seconds below 60 after a colon), or UNLIMITED / INFINITE. Returns 0,
 * or -1 with err set to one line naming S and the accepted forms. */
int slurm_time_check(const char *s, bo_err *err);

/* Quote S for a POSIX shell: 'S', with each ' written as '\''. Newly
 * allocated; caller frees. */
char *slurm_shell_quote(const char *s);

/* One task of a submission as its files in the spool show it. */
struct slurm_task {
	char *id;		/* "JOB_INDEX" or a job id; owned */
	char *node;		/* from TASK.node; NULL = never started */
	int exit_set;		/* 1: TASK.exit was written */
	int exit_status;	/* the task's `benchorch run` exit status */
	char *db;		/* SPOOL/NODE-TASK.db when it is a regular
				 * file (not a symlink), else NULL */
	char *digest;		/* TASK.exit's "sha256:HEX": the 64 hex
				 * digits, NULL when not recorded */
	char *log;		/* SPOOL/TASK.log (may not exist); owned */
};

/* Read SPOOL/JOB.tasks and each task's files, after slurm_spool_check of
 * SPOOL, every file with slurm_spool_open (a symlink or a file that is not
 * a regular one counts as absent). Returns the number of tasks (>= 1)
 * with a new array in *ret (free with slurm_tasks_free), or -1 with err
 * set (a spool refused, no such submission in SPOOL, empty or unreadable
 * manifest, JOB not a job id). */
long slurm_tasks_read(const char *spool, const char *job,
		      struct slurm_task **ret, bo_err *err);

/* Free N tasks read by slurm_tasks_read. */
void slurm_tasks_free(struct slurm_task *t, long n);

/* The last at most MAX_LINES lines of the file PATH (at most the last
 * 64 KiB of it are read; opened with slurm_spool_open), each prefixed
 * with PREFIX, its control characters escaped (msg_put_escaped). Newly
 * allocated; caller frees. A file that cannot be read gives
 * "PREFIX(no log 'PATH': reason)\n". */
char *slurm_log_tail(const char *path, int max_lines, const char *prefix);

/* Why task T left no database to merge, in words: "never started (no
 * node recorded)", "'benchorch run' exited with status 2",
 * "stopped before it finished (killed, cancelled or timed out)" or
 * "exited with status 0 but wrote no database". Static string or T's;
 * not to be freed. Writes into BUF (LEN bytes) when it needs to format. */
const char *slurm_task_why(const struct slurm_task *t, char *buf, size_t len);

/* Check that DIR may serve as a spool: a directory, not a symlink, owned
 * by the effective user or root, writable by neither its group nor
 * others (so that no other user can put a file or a symlink in it). The
 * path leading to DIR is trusted. Returns 0, or -1 with err set to one
 * line ("refusing spool 'DIR': ..."). */
int slurm_spool_check(const char *dir, bo_err *err);

/* Open the file PATH of a spool to read it: never through a symlink
 * (O_NOFOLLOW), without blocking on a FIFO, and only a regular file.
 * Returns the descriptor (the caller closes it), or -1 with err set. */
int slurm_spool_open(const char *path, bo_err *err);

/* Read at most MAX_BYTES of the spool file PATH (slurm_spool_open) into
 * a new NUL-terminated buffer in *RET_BUF (the caller frees it).
 * Returns 0, or -1 with err set. */
int slurm_spool_read(const char *path, size_t max_bytes, char **ret_buf,
		     bo_err *err);

/* The SHA-256 of the spool file PATH (slurm_spool_open; the descriptor
 * opened is the file digested) as 64 lowercase hex digits in HEX (LEN
 * >= 65 bytes). Returns 0, or -1 with err set. */
int slurm_db_digest(const char *path, char *hex, size_t len, bo_err *err);

#endif
