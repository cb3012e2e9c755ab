/* daemon-serve.c - the daemon's control socket: status, submit and
 * cancel requests (daemon-state.h, control.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/messages.h"
#include "orchestrator/daemon/control.h"
#include "orchestrator/daemon/daemon-log.h"
#include "orchestrator/daemon/daemon-state.h"
#include "orchestrator/daemon/daemon-verdict.h"
#include "orchestrator/run/request-check.h"

/* The status object of job J. */
static json_t *job_json(const struct daemon_job *j)
{
	char b[32];

	return json_pack("{s:i, s:s, s:s, s:s, s:s?, s:b, s:b, s:s}", "id",
			 (int)j->id, "origin", j->sched ? "schedule" : "submit",
			 "schedule", j->sched ? j->sched : "",
			 "distros", j->distros, "libs", j->libs, "quick", j->quick,
			 "refresh", j->refresh,
			 "queued_at", daemon_iso(j->fired, b, sizeof(b)));
}

/* The answer to a status request: D's state, its current job, queue,
 * schedules, the latest run and verdict in its database, its last job. */
static json_t *status_json(const struct daemon *d)
{
	json_t *r = json_object(), *q = json_array(), *s = json_array(), *j;
	char b[32];
	size_t i;

	json_object_set_new(r, "ok", json_true());
	json_object_set_new(r, "pid", json_integer((json_int_t)getpid()));
	json_object_set_new(r, "config", json_string(d->config_path ?
					 d->config_path : "(defaults)"));
	json_object_set_new(r, "state", json_string(!d->child ? "idle" :
					d->cancelled ? "cancelling" :
					d->waiting_lock ? "waiting" :
					"running"));
	if (d->child) {
		j = job_json(&d->cur);
		json_object_set_new(j, "started_at",
				    json_string(daemon_iso(d->started, b,
							   sizeof(b))));
		json_object_set_new(j, "run_id", json_integer(d->run_id));
		json_object_set_new(j, "uuid", json_string(d->uuid));
		json_object_set_new(j, "done", json_integer((json_int_t)d->done));
		json_object_set_new(j, "total",
				    json_integer((json_int_t)d->total));
		json_object_set_new(j, "current", json_string(d->spec));
		json_object_set_new(j, "round", json_integer((json_int_t)d->round));
		json_object_set_new(j, "rounds",
				    json_integer((json_int_t)d->rounds));
		json_object_set_new(r, "job", j);
	}
	for (i = 0; i < d->nqueue; i++)
		json_array_append_new(q, job_json(&d->queue[i]));
	json_object_set_new(r, "queue", q);
	for (i = 0; i < d->conf->nscheds; i++) {
		time_t last = sched_times_get(&d->times,
					      d->conf->scheds[i].name);
		char b2[32];

		/* "last": the due time of its last run, "" when it never
		 * ran */
		json_array_append_new(s, json_pack("{s:s, s:s, s:s}", "name",
			d->conf->scheds[i].name, "next",
			daemon_iso(d->next[i], b, sizeof(b)), "last",
			last ? daemon_iso(last, b2, sizeof(b2)) : ""));
	}
	json_object_set_new(r, "schedules", s);
	json_object_set_new(r, "database_error", json_null());
	daemon_latest_run_json(d->conf->db_path, r);
	daemon_last_verdict_json(d->conf->db_path, r);
	if (d->last.id) {
		j = job_json(&d->last);
		json_object_set_new(j, "status", json_string(
			daemon_exit_word(d->last_exit < 0 ? 143 : d->last_exit,
					 d->last_exit < 0)));
		json_object_set_new(j, "exit", json_integer(d->last_exit));
		json_object_set_new(j, "run_id", json_integer(d->last_run_id));
		json_object_set_new(j, "finished_at", json_string(
			daemon_iso(d->last_finished, b, sizeof(b))));
		daemon_changes_json(&d->last_changes, j);
		json_object_set_new(r, "last", j);
	}
	return r;
}

/* An error answer with MSG. */
static json_t *error_json(const char *msg)
{
	return json_pack("{s:b, s:s}", "ok", 0, "error", msg);
}

/* An error answer with MSG on a request's names (an unknown distribution
 * or library): "usage": true, so that the client exits as `run` does on
 * the same names (2). */
static json_t *usage_error_json(const char *msg)
{
	return json_pack("{s:b, s:s, s:b}", "ok", 0, "error", msg, "usage", 1);
}

/* The answer to request RQ. */
static json_t *handle(struct daemon *d, const struct control_req *rq)
{
	char what[512];
	bo_err err;
	int id, position;

	switch (rq->type) {
	case CONTROL_STATUS:
		return status_json(d);
	case CONTROL_SUBMIT:
		/* the checks and messages of `benchorch run` */
		if (request_check_distros(rq->distros, "--distros",
					  d->data_dir, d->conf->state_dir, NULL,
					  NULL, &err) < 0 ||
		    (rq->libs && (request_check_libs(rq->libs, "--libs",
						     &err) < 0 ||
				  request_check_selection(rq->libs, NULL,
							  &err) < 0)))
			return usage_error_json(err.msg);
		id = daemon_enqueue(d, NULL, 0, rq->distros, rq->libs,
				    rq->quick, rq->refresh);
		if (id < 0)
			return error_json("the queue is full");
		/* the job just queued, as its start will log it */
		daemon_log(DLOG_NOTICE, "job %d submitted: %s", id,
			   daemon_job_describe(&d->queue[d->nqueue - 1], what,
					       sizeof(what)));
		/* position: how many jobs run before it (the current one
		 * included); 0 = it starts now */
		position = (int)d->nqueue - 1 + (d->child ? 1 : 0);
		if (!d->child)
			daemon_start_job(d);
		return json_pack("{s:b, s:i, s:i, s:b}", "ok", 1, "job", id,
				 "position", position, "started",
				 d->child && d->cur.id == (unsigned)id);
	case CONTROL_CANCEL:
		if (!d->child)
			return error_json("no run in progress");
		if (!d->cancelled) {
			kill(d->child, SIGTERM);
			d->cancelled = 1;
			daemon_log(DLOG_NOTICE, "job %u: cancel requested", d->cur.id);
		}
		return json_pack("{s:b, s:i}", "ok", 1, "job", (int)d->cur.id);
	}
	return error_json("unknown request");
}

void daemon_drop_client(struct daemon *d, size_t i)
{
	close(d->clients[i].fd);
	d->clients[i] = d->clients[--d->nclients];
}

/* Send MSG to FD (without waiting) and free it. */
static void send_json(int fd, json_t *msg)
{
	bo_err err;
	char *s = control_encode(msg, &err);

	if (!s) {
		json_decref(msg);
		msg = error_json(err.msg);
		s = control_encode(msg, &err);
	}
	if (s && send(fd, s, strlen(s), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		daemon_log(DLOG_INFO, "cannot reply to a client: %s", strerror(errno));
	free(s);
	json_decref(msg);
}

/* Read one message from client i; 0 to keep it, -1 to drop it. */
int daemon_serve_client(struct daemon *d, size_t i)
{
	char buf[CONTROL_MAX_MSG + 1];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct control_req rq;
	bo_err err;
	ssize_t n;

	n = recvmsg(d->clients[i].fd, &mh, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	d->clients[i].last = time(NULL);
	if ((mh.msg_flags & MSG_TRUNC) || (size_t)n > CONTROL_MAX_MSG) {
		daemon_log(DLOG_WARNING, "control: refused a message over %d bytes",
			   CONTROL_MAX_MSG);
		send_json(d->clients[i].fd, error_json(
			"message exceeds the size limit"));
		return 0;
	}
	if (control_req_parse(buf, (size_t)n, &rq, &err) < 0) {
		daemon_log(DLOG_WARNING, "control: refused a message: %s", err.msg);
		send_json(d->clients[i].fd, error_json(err.msg));
		return 0;
	}
	send_json(d->clients[i].fd, handle(d, &rq));
	control_req_release(&rq);
	return 0;
}

void daemon_accept_client(struct daemon *d)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd = accept4(d->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
	    (cred.uid != 0 && cred.uid != geteuid())) {
		daemon_log(DLOG_WARNING, "control: refused a client of uid %ld",
			   (long)cred.uid);
		close(fd);
		return;
	}
	if (d->nclients == MAX_CLIENTS) {
		send_json(fd, error_json("too many clients"));
		close(fd);
		return;
	}
	d->clients[d->nclients].fd = fd;
	d->clients[d->nclients++].last = time(NULL);
}
