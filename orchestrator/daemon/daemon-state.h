/* daemon-state.h - the state of the running daemon, shared by its loop
 * (daemon.c) and its control socket (daemon-serve.c). Not for use outside
 * orchestrator/daemon/. */
#ifndef BENCHORCH_DAEMON_STATE_H
#define BENCHORCH_DAEMON_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "orchestrator/daemon/config-file.h"
#include "orchestrator/daemon/daemon.h"
#include "orchestrator/daemon/daemon-job.h"
#include "orchestrator/daemon/schedule.h"

#define MAX_CLIENTS 16
#define MAX_QUEUE 16

/* A client of the control socket. */
struct daemon_client {
	int fd;			/* owned */
	time_t last;		/* when it last sent something */
};

/* Everything the daemon keeps; owned by daemon_main (its strings, fds,
 * jobs and configuration freed and closed there). */
struct daemon {
	const struct daemon_opts *opts;
	char *config_path;	/* NULL: defaults, no file */
	struct conf *conf;
	char *data_dir, *guest;
	int lock_fd, listen_fd;
	struct daemon_client clients[MAX_CLIENTS];
	size_t nclients;
	struct daemon_job queue[MAX_QUEUE];
	size_t nqueue;
	unsigned next_id;
	/* the current job */
	struct daemon_job cur;
	pid_t child;		/* 0 = idle */
	pid_t slurm_child;	/* a schedule's slurm submission; 0 = none */
	int pipe_fd;		/* progress from the child, -1 */
	char pbuf[2048];
	size_t plen;
	time_t started;
	int64_t run_id;
	char uuid[64], spec[128];
	size_t done, total;	/* guest invocations of the current run */
	size_t round, rounds;	/* the current one's round, 0 = none */
	struct daemon_changes changes;	/* reported by the child */
	int cancelled, waiting_lock;
	/* the last finished job */
	struct daemon_job last;
	int last_exit;
	int64_t last_run_id;
	time_t last_finished;
	struct daemon_changes last_changes;
	/* schedules */
	struct sched_times times;
	char *times_path;
	time_t *next;		/* per conf->scheds */
};

/* daemon.c: queue a job (for schedule SCHED due at DUE, or submitted:
 * SCHED NULL, DUE 0) running DISTROS with LIBS (NULL = every library),
 * QUICK and REFRESH; the strings are copied. Returns its id, or -1 when
 * the queue is full. */
int daemon_enqueue(struct daemon *d, const char *sched, time_t due,
		   const char *distros, const char *libs, int quick,
		   int refresh);

/* daemon.c: start the first queued job in a child process (logged; a
 * pipe or fork that fails is logged and the job dropped). */
void daemon_start_job(struct daemon *d);

/* daemon-serve.c: take the next connection on D's control socket, unless
 * its peer is neither root nor our user or there are MAX_CLIENTS
 * already (refused, logged or told). */
void daemon_accept_client(struct daemon *d);

/* daemon-serve.c: read and answer one request of client I (status,
 * submit, cancel; a message too long or malformed is refused with an
 * error answer). Returns 0 to keep the client, -1 when it hung up or
 * cannot be read (the caller drops it). */
int daemon_serve_client(struct daemon *d, size_t i);

/* daemon-serve.c: close client I; the last client moves into its
 * slot. */
void daemon_drop_client(struct daemon *d, size_t i);

#endif
