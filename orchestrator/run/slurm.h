/* slurm.h - run benchorch on the nodes of a Slurm cluster: the submission
 * script (one exclusive task per node, then a merge job), and the files the
 * tasks leave in the spool directory, read by the merge and by status. */
#ifndef BENCHORCH_SLURM_H
#define BENCHORCH_SLURM_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/util.h"

/* What the submission script does. Strings are borrowed. */
struct slurm_submit {
	const char *benchorch;	/* absolute path of benchorch on the nodes */
	const char *spool;	/* directory every node and the merge job
				 * share: task databases, logs, manifest */
	const char *db;		/* the central database the merge job fills */
	const char *partition;	/* NULL = the cluster's default */
	const char *time;	/* sbatch --time per task; NULL = the
				 * partition's limit */
	long nodes;		/* array tasks when nodelist is NULL, >= 1 */
	const char *nodelist;	/* Slurm host list ("n[1-4],x"): one job per
				 * node it expands to (scontrol show
				 * hostnames); NULL = an array of nodes */
	char *const *run_argv;	/* options for `benchorch run`, already
				 * checked, without --db */
	int run_argc;
};

/* Write to F a POSIX shell script that, run with sh on a host with the
 * Slurm client commands, submits S: the tasks (each exclusive on one node,
 * running `benchorch run RUN-OPTIONS --db SPOOL/HOST-TASK.db` with its log
 * in SPOOL/TASK.log, its node name in SPOOL/TASK.node and its exit status
 * in SPOOL/TASK.exit, where TASK is JOB_INDEX for an array task and the job
 * id for a single job), the list of task ids in SPOOL/JOB.tasks, then the
 * merge job (`--dependency=afterany` on every task, so a failed or killed
 * task does not block it) running `benchorch slurm collect JOB`; JOB is
 * the first job id. The script prints "job JOB", "tasks TASK..." and
 * "merge MERGE-JOB" on stdout, one line each, and stops at the first
 * failing command. Every string from S is shell-quoted. */
void slurm_script_write(FILE *f, const struct slurm_submit *s);

/* Quote S for a POSIX shell: 'S', with each ' written as '\''. Newly
 * allocated; caller frees. */
char *slurm_shell_quote(const char *s);

/* One task of a submission as its files in the spool show it. */
struct slurm_task {
	char *id;		/* "JOB_INDEX" or a job id; owned */
	char *node;		/* from TASK.node; NULL = never started */
	int exit_set;		/* 1: TASK.exit was written */
	int exit_status;	/* the task's `benchorch run` exit status */
	char *db;		/* SPOOL/NODE-TASK.db when it exists, else NULL */
	char *log;		/* SPOOL/TASK.log (may not exist); owned */
};

/* Read SPOOL/JOB.tasks and each task's files. Returns the number of tasks
 * (>= 1) with a new array in *ret (free with slurm_tasks_free), or -1 with
 * err set (no such submission in SPOOL, empty or unreadable manifest,
 * JOB not a job id). */
long slurm_tasks_read(const char *spool, const char *job,
		      struct slurm_task **ret, bo_err *err);

/* Free N tasks read by slurm_tasks_read. */
void slurm_tasks_free(struct slurm_task *t, long n);

/* The last at most MAX_LINES lines of the file PATH (at most the last
 * 64 KiB of it are read), each prefixed with PREFIX. Newly allocated;
 * caller frees. A file that cannot be read gives "PREFIX(no log 'PATH':
 * reason)\n". */
char *slurm_log_tail(const char *path, int max_lines, const char *prefix);

/* Why task T left no database to merge, in words: "never started (no
 * node recorded)", "'benchorch run' exited with status 2",
 * "stopped before it finished (killed, cancelled or timed out)" or
 * "exited with status 0 but wrote no database". Static string or T's;
 * not to be freed. Writes into BUF (LEN bytes) when it needs to format. */
const char *slurm_task_why(const struct slurm_task *t, char *buf, size_t len);

#endif
