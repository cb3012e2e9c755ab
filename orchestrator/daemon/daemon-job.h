/* daemon-job.h - one job of the daemon: what it runs, and the work of
 * the child process that runs it (the run lock, the run and its
 * confirmation, its package changes and verdict, progress down a pipe
 * to the daemon). */
#ifndef BENCHORCH_DAEMON_JOB_H
#define BENCHORCH_DAEMON_JOB_H

#include <stddef.h>
#include <time.h>

#include "orchestrator/daemon/config-file.h"

/* A queued, running or finished job. Its strings are owned
 * (daemon_job_release). */
struct daemon_job {
	unsigned id;
	char *sched;		/* schedule name, NULL for a submitted job */
	char *distros, *libs;	/* libs NULL = every library */
	int quick, refresh;
	time_t fired;		/* when it was queued */
	time_t due;		/* the schedule's due time it runs for, 0 for
				 * a submitted job */
};

/* Free J's strings and clear *J (not J itself). */
void daemon_job_release(struct daemon_job *j);

/* What J runs, as the daemon's log lines say it: "distros LIST", then
 * ", libs LIST" when it names libraries, ", quick" and ", refresh" when
 * set, into BUF (BYTES, NUL-terminated, truncated to fit). Returns BUF. */
char *daemon_job_describe(const struct daemon_job *j, char *buf,
			  size_t bytes);

/* In the job's child: take the machine-wide run lock `benchorch run`
 * takes too (waiting, interruptibly, for a manual run; "W" then "R" down
 * PFD), then run J with CONF's state directory, database, runner,
 * mirror and timeout, DATA_DIR and GUEST (borrowed), no summary on
 * stdout and progress in the log and down PFD ("P RUN DONE TOTAL UUID
 * SPEC ROUND ROUNDS" lines): run_and_confirm, with the run's package
 * changes logged, written to STATE/logs/UUID-packages.log and sent down
 * PFD between the run and its confirmation, then the run's verdict
 * logged (daemon-verdict.h). The run's command line records where J came
 * from ("daemon --schedule NAME ... --due TIME" or "daemon --submitted
 * ..."). Returns the job's exit status: run_and_confirm's, EXIT_ENV or
 * 128+signal when the lock cannot be had, EXIT_FAILED when PFD cannot be
 * written. */
int daemon_job_run(const struct conf *conf, const char *data_dir,
		   const char *guest, const struct daemon_job *j, int pfd);

/* The word `status` shows for a job that ended with exit status RC,
 * CANCELLED when it was cancelled: "done", "failed", "cancelled",
 * "aborted" (a signal) or "error". A static string. */
const char *daemon_exit_word(int rc, int cancelled);

#endif
