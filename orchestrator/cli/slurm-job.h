/* slurm-job.h - what the `benchorch slurm` subcommands share (submit in
 * cmd-slurm.c, collect and status in their own files): the --help text
 * and the options of a submitted job. Each of them calls here, never the
 * other way round. */
#ifndef BENCHORCH_SLURM_JOB_H
#define BENCHORCH_SLURM_JOB_H

#include <stdio.h>

/* The `benchorch slurm --help` text, for every subcommand. */
extern const char slurm_usage[];

/* Write slurm_usage to F; CTX is unused (opts_parse's help callback). */
void slurm_help(FILE *f, const void *ctx);

/* Options of collect and status; strings borrowed from argv. */
struct slurm_job_args {
	const char *spool, *db, *state, *report, *job;
};

/* Parse the arguments of subcommand CMD ("collect" or "status"): ARGV
 * (ARGC entries, ARGV[0] the subcommand) into A, which the caller zeroes:
 * --spool DIR and --state-dir DIR, for collect (COLLECT = 1) --db PATH
 * and --report FILE too, and one argument, the job id. Usage errors go
 * to stderr as "benchorch slurm CMD: ...". Returns -1 when A is filled, else
 * the exit status to return: EXIT_OK after --help, EXIT_USAGE after a
 * usage error. */
int slurm_job_parse(const char *cmd, int argc, char **argv,
		    struct slurm_job_args *a, int collect);

/* The spool directory of A: --spool, else STATE/slurm (STATE from
 * --state-dir, $BENCHORCH_STATE_DIR or /var/lib/benchorch). Newly
 * allocated; the caller frees it. */
char *slurm_job_spool(const struct slurm_job_args *a);

struct slurm_task;

/* Read the tasks of A's job (slurm_tasks_read) from its spool directory:
 * *SPOOL is set to that directory (slurm_job_spool; the caller frees it)
 * and *TASKS to the tasks (slurm_tasks_free(*TASKS, N)). Returns N, or -1
 * after printing "benchorch: MESSAGE" (no such submission, an unreadable
 * spool), with nothing left to free. */
long slurm_job_tasks(const struct slurm_job_args *a, char **spool,
		     struct slurm_task **tasks);

#endif
