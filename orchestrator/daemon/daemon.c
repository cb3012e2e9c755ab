/* daemon.c - the daemon loop: schedules, a queue of jobs run one at a time
 * in a child process (so the loop keeps answering the control socket while
 * a run measures), signals, logging.
 *
 * Why a child per job: run_execute() blocks for minutes and stops on
 * bo_interrupted; in a child, `cancel` and SIGTERM are a kill(2) away and
 * the guest's PR_SET_PDEATHSIG ties it to the job, not to the daemon. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "db/db.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/paths.h"
#include "orchestrator/daemon/config-file.h"
#include "orchestrator/daemon/control.h"
#include "orchestrator/daemon/daemon.h"
#include "orchestrator/daemon/daemon-job.h"
#include "orchestrator/daemon/daemon-log.h"
#include "orchestrator/daemon/daemon-slurm.h"
#include "orchestrator/daemon/daemon-state.h"
#include "orchestrator/daemon/schedule.h"

#define CLIENT_IDLE_S 60
#define STOP_GRACE_S 120	/* after SIGTERM to a job, before SIGKILL */
#define STOP_SLURM_S 10		/* after SIGTERM to a slurm submission
				 * (spawn_run's own grace is 2 s) */

static volatile sig_atomic_t got_stop, got_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig != SIGCHLD)
		got_stop = sig;
}

/* --- configuration ------------------------------------------------------ */

static int load_conf(struct daemon *d, struct conf **ret, bo_err *err)
{
	struct conf *c;

	if (d->config_path) {
		if (conf_load(d->config_path, &c, err) < 0)
			return -1;
	} else {
		c = conf_default(NULL);
	}
	/* --state-dir, then the environment, then the file */
	if (conf_resolve_paths(c, d->opts->state_opt, err) < 0) {
		conf_free(c);
		return -1;
	}
	if (conf_check_distros(c, d->data_dir, err) < 0) {
		conf_free(c);
		return -1;
	}
	*ret = c;
	return 0;
}

/* The due time of schedule NAME's running or queued job, 0 when none. */
static time_t sched_pending(const struct daemon *d, const char *name)
{
	size_t i;

	if (d->child && d->cur.sched && strcmp(d->cur.sched, name) == 0)
		return d->cur.due;
	for (i = 0; i < d->nqueue; i++)
		if (d->queue[i].sched && strcmp(d->queue[i].sched, name) == 0)
			return d->queue[i].due;
	return 0;
}

/* Do A and B fire at the same times? */
static int same_timing(const struct sched *a, const struct sched *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == SCHED_INTERVAL)
		return a->interval_s == b->interval_s;
	return a->hour == b->hour && a->min == b->min && a->sec == b->sec;
}

/* Work out each schedule's next due time. A schedule OLD (the
 * configuration before a reload, NULL at start) had with the same timing
 * keeps its planned time OLD_NEXT; one that is running or queued is next
 * due after the due time it runs for; else after the due time of its last
 * run, or, when it never ran, after it was first planned. */
static void plan_schedules(struct daemon *d, const struct conf *old,
			   const time_t *old_next)
{
	time_t now = time(NULL);
	size_t i, k;
	int dirty = 0;
	bo_err err;

	free(d->next);
	d->next = xcalloc(d->conf->nscheds, sizeof(time_t));
	for (i = 0; i < d->conf->nscheds; i++) {
		const struct sched *s = &d->conf->scheds[i];
		time_t pend = sched_pending(d, s->name), last;
		char b1[32];

		for (k = 0; old && k < old->nscheds; k++)
			if (strcmp(old->scheds[k].name, s->name) == 0)
				break;
		if (old && k < old->nscheds && same_timing(&old->scheds[k], s)) {
			d->next[i] = old_next[k];
			continue;
		}
		if (pend) {
			d->next[i] = sched_next_run(s, pend);
			continue;
		}
		last = sched_times_get(&d->times, s->name);
		if (last) {
			d->next[i] = sched_next_run(s, last);
			if (d->next[i] <= now)
				daemon_log(DLOG_NOTICE, "schedule '%s' was missed (last run due %s); running it now",
					   s->name,
					   daemon_iso(last, b1, sizeof(b1)));
			continue;
		}
		dirty |= sched_times_plan(&d->times, s->name, now);
		last = sched_times_planned(&d->times, s->name);
		d->next[i] = sched_next(s, last);
		if (d->next[i] <= now)
			daemon_log(DLOG_NOTICE, "schedule '%s' was missed (planned since %s, never ran); running it now",
				   s->name, daemon_iso(last, b1, sizeof(b1)));
	}
	if (dirty && sched_times_save(d->times_path, &d->times, &err) < 0)
		daemon_log(DLOG_WARNING, "%s", err.msg);
}

/* C's paths derived from the state directory NEW, moved under OLD: the
 * state directory is kept until a restart, and with it everything that
 * follows from it. */
static void keep_state_dir(struct conf *c, const char *old)
{
	char *dflt = xasprintf("%s/results.db", c->state_dir);

	if (strcmp(c->db_path, dflt) == 0) {
		free(c->db_path);
		c->db_path = xasprintf("%s/results.db", old);
	}
	free(dflt);
	dflt = xasprintf("%s/control.sock", c->state_dir);
	if (strcmp(c->socket_path, dflt) == 0) {
		free(c->socket_path);
		c->socket_path = xasprintf("%s/control.sock", old);
	}
	free(dflt);
	free(c->state_dir);
	c->state_dir = xstrdup(old);
}

static void reload(struct daemon *d)
{
	struct conf *c, *old;
	time_t *old_next;
	bo_err err;

	if (load_conf(d, &c, &err) < 0) {
		daemon_log(DLOG_ERR, "reload failed, keeping the old configuration: %s",
			   err.msg);
		return;
	}
	if (strcmp(c->state_dir, d->conf->state_dir) != 0) {
		daemon_log(DLOG_WARNING, "state-dir changes take effect at the next start: keeping '%s' and the paths that follow from it",
			   d->conf->state_dir);
		keep_state_dir(c, d->conf->state_dir);
	}
	if (strcmp(c->socket_path, d->conf->socket_path) != 0) {
		daemon_log(DLOG_WARNING, "socket changes take effect at the next start");
		free(c->socket_path);
		c->socket_path = xstrdup(d->conf->socket_path);
	}
	old = d->conf;
	old_next = d->next;
	d->next = NULL;
	d->conf = c;
	plan_schedules(d, old, old_next);
	conf_free(old);
	free(old_next);
	daemon_log(DLOG_NOTICE, "configuration reloaded: %zu schedule%s", c->nscheds,
		   c->nscheds == 1 ? "" : "s");
}

/* --- the job child ------------------------------------------------------ */

/* In the job's child: signals as a job has them, the daemon's sockets
 * and lock closed, then job J (daemon_job_run), its progress down PFD.
 * Returns the job's exit status. */
static int child_main(struct daemon *d, const struct daemon_job *j, int pfd)
{
	sigset_t none;
	size_t i;

	sigemptyset(&none);
	signal(SIGCHLD, SIG_DFL);
	bo_signals_install();
	/* Only the daemon acts on SIGHUP (a reload). A hang-up sent to the
	 * whole service or the terminal's process group must not stop the
	 * night's run: the job ignores it, and so do the processes it
	 * starts (an ignored signal stays ignored across exec). */
	signal(SIGHUP, SIG_IGN);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (got_stop)
		bo_interrupted = got_stop;
	close(d->listen_fd);
	close(d->lock_fd);
	for (i = 0; i < d->nclients; i++)
		close(d->clients[i].fd);
	return daemon_job_run(d->conf, d->data_dir, d->guest, j, pfd);
}

void daemon_start_job(struct daemon *d)
{
	char what[512];
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		daemon_log(DLOG_ERR, "cannot create a pipe: %s", strerror(errno));
		return;
	}
	d->cur = d->queue[0];
	memmove(d->queue, d->queue + 1, --d->nqueue * sizeof(d->queue[0]));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		daemon_log(DLOG_ERR, "cannot fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		daemon_job_release(&d->cur);
		return;
	}
	if (pid == 0) {
		int rc;

		close(p[0]);
		rc = child_main(d, &d->cur, p[1]);
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	d->child = pid;
	d->pipe_fd = p[0];
	d->plen = 0;
	d->started = time(NULL);
	d->run_id = -1;
	d->uuid[0] = d->spec[0] = '\0';
	d->done = 0;
	d->total = 0;
	daemon_changes_reset(&d->changes);
	d->round = d->rounds = 0;
	d->cancelled = 0;
	d->waiting_lock = 0;
	daemon_log(DLOG_NOTICE, "job %u started (%s%s, %s, pid %ld)", d->cur.id,
		   d->cur.sched ? "schedule " : "submitted",
		   d->cur.sched ? d->cur.sched : "",
		   daemon_job_describe(&d->cur, what, sizeof(what)), (long)pid);
}

static void progress_line(struct daemon *d, char *line)
{
	long long run_id;
	size_t done, total, round, rounds;
	char uuid[64], spec[128];

	if (daemon_changes_parse(&d->changes, line)) {
		/* package changes, for status */
	} else if (strcmp(line, "W") == 0) {
		d->waiting_lock = 1;
	} else if (strcmp(line, "R") == 0) {
		d->waiting_lock = 0;
	} else if (sscanf(line, "P %lld %zu %zu %63s %127s %zu %zu", &run_id,
			  &done, &total, uuid, spec, &round, &rounds) == 7) {
		d->run_id = run_id;
		d->done = done;
		d->total = total;
		d->round = round;
		d->rounds = rounds;
		snprintf(d->uuid, sizeof(d->uuid), "%s", uuid);
		snprintf(d->spec, sizeof(d->spec), "%s",
			 strcmp(spec, "-") ? spec : "");
	}
}

static void read_progress(struct daemon *d)
{
	ssize_t n;
	char *nl;

	for (;;) {
		n = read(d->pipe_fd, d->pbuf + d->plen,
			 sizeof(d->pbuf) - 1 - d->plen);
		if (n == 0) {
			/* the job closed its end: stop polling it, or an
			 * end of file would wake the loop at once forever */
			close(d->pipe_fd);
			d->pipe_fd = -1;
			break;
		}
		if (n < 0)
			break;
		d->plen += (size_t)n;
		d->pbuf[d->plen] = '\0';
		while ((nl = strchr(d->pbuf, '\n'))) {
			*nl = '\0';
			progress_line(d, d->pbuf);
			d->plen -= (size_t)(nl + 1 - d->pbuf);
			memmove(d->pbuf, nl + 1, d->plen + 1);
		}
		if (d->plen == sizeof(d->pbuf) - 1)
			d->plen = 0;	/* a runaway line: drop it */
	}
}

/* The child ended with wait status WS. */
static void finish_job(struct daemon *d, int ws)
{
	int rc = WIFEXITED(ws) ? WEXITSTATUS(ws) :
		 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	bo_err err;

	if (d->pipe_fd >= 0) {
		read_progress(d);
		close(d->pipe_fd);
		d->pipe_fd = -1;
	}
	daemon_log(rc == EXIT_OK ? DLOG_NOTICE : DLOG_WARNING,
		   "job %u %s (exit status %d, run %lld)", d->cur.id,
		   daemon_exit_word(rc, d->cancelled), rc,
		   (long long)d->run_id);
	/* A scheduled job stopped by our own shutdown did not happen: it runs
	 * again at the next start. Anything else counts as run. */
	if (d->cur.sched && !(got_stop && !d->cancelled && rc >= 128)) {
		sched_times_set(&d->times, d->cur.sched, d->cur.due);
		if (sched_times_save(d->times_path, &d->times, &err) < 0)
			daemon_log(DLOG_WARNING, "%s", err.msg);
	}
	daemon_job_release(&d->last);
	d->last = d->cur;
	memset(&d->cur, 0, sizeof(d->cur));
	d->last_exit = d->cancelled && rc >= 128 ? -1 : rc;
	d->last_run_id = d->run_id;
	d->last_finished = time(NULL);
	daemon_changes_reset(&d->last_changes);
	d->last_changes = d->changes;
	memset(&d->changes, 0, sizeof(d->changes));
	d->changes.total = -1;
	d->child = 0;
}

static void reap(struct daemon *d)
{
	int ws;

	if (d->child && waitpid(d->child, &ws, WNOHANG) == d->child)
		finish_job(d, ws);
	if (d->slurm_child && waitpid(d->slurm_child, &ws, WNOHANG) ==
	    d->slurm_child)
		d->slurm_child = 0;
}

int daemon_enqueue(struct daemon *d, const char *sched, time_t due,
		   const char *distros, const char *libs, int quick,
		   int refresh)
{
	struct daemon_job *j;

	if (d->nqueue == MAX_QUEUE)
		return -1;
	j = &d->queue[d->nqueue++];
	j->id = ++d->next_id;
	j->sched = sched ? xstrdup(sched) : NULL;
	j->distros = xstrdup(distros);
	j->libs = libs ? xstrdup(libs) : NULL;
	j->quick = quick;
	j->refresh = refresh;
	j->fired = time(NULL);
	j->due = due;
	return (int)j->id;
}

/* In the submission's child: signals as a job has them (SIGTERM sets
 * bo_interrupted, which stops the submission), the daemon's sockets and
 * lock closed, then schedule S submitted and what came of it logged.
 * Returns the child's exit status: 0 submitted, 1 not. */
static int slurm_child_main(struct daemon *d, const struct sched *s)
{
	char *out = NULL, *nl;
	sigset_t none;
	bo_err err;
	size_t i;

	signal(SIGCHLD, SIG_DFL);
	bo_signals_install();
	signal(SIGHUP, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (got_stop)
		bo_interrupted = got_stop;
	close(d->listen_fd);
	close(d->lock_fd);
	if (d->pipe_fd >= 0)
		close(d->pipe_fd);
	for (i = 0; i < d->nclients; i++)
		close(d->clients[i].fd);
	if (daemon_slurm_submit(d->conf, s, &out, &err) < 0) {
		daemon_log(DLOG_ERR, "schedule '%s': cannot submit to slurm: %s",
			   s->name, err.msg);
		return 1;
	}
	while ((nl = strchr(out, '\n')))
		*nl = nl[1] ? ',' : '\0';
	daemon_log(DLOG_NOTICE, "schedule '%s' submitted to slurm: %s", s->name, out);
	free(out);
	return 0;
}

/* Send schedule S to Slurm instead of queueing it here: the run happens
 * on the cluster's nodes, so nothing waits for it. The submission runs in
 * a child (d->slurm_child, reaped by the loop): a cluster that does not
 * answer holds neither status nor a stop. One submission at a time: a
 * schedule due while one runs is skipped, and said. */
static void fire_slurm(struct daemon *d, const struct sched *s)
{
	pid_t pid;

	if (d->slurm_child) {
		daemon_log(DLOG_WARNING, "schedule '%s': not submitted to slurm: the previous submission (pid %ld) has not finished",
			   s->name, (long)d->slurm_child);
		return;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		daemon_log(DLOG_ERR, "schedule '%s': cannot submit to slurm: cannot fork: %s",
			   s->name, strerror(errno));
		return;
	}
	if (pid == 0)
		_exit(slurm_child_main(d, s));
	d->slurm_child = pid;
}

/* Stop the submission child, if any (SIGTERM: it kills its `slurm
 * submit`), and reap it; SIGKILL after STOP_SLURM_S. */
static void stop_slurm(struct daemon *d)
{
	time_t until = time(NULL) + STOP_SLURM_S;
	int ws;

	if (!d->slurm_child)
		return;
	daemon_log(DLOG_NOTICE, "stopping the slurm submission (pid %ld)",
		   (long)d->slurm_child);
	kill(d->slurm_child, SIGTERM);
	for (;;) {
		pid_t r = waitpid(d->slurm_child, &ws, WNOHANG);

		if (r == d->slurm_child || (r < 0 && errno != EINTR))
			break;
		if (time(NULL) > until) {
			kill(d->slurm_child, SIGKILL);
			until = time(NULL) + 3600;
		}
		usleep(100000);
	}
	d->slurm_child = 0;
}

/* Queue every schedule that is due at NOW, once for all its due times
 * up to NOW, and plan its next due time after NOW. A due time that comes
 * while the schedule's previous run is still running or queued is
 * skipped. Either way every next due time is after NOW: the loop never
 * waits for a time that has passed. */
static void fire_schedules(struct daemon *d, time_t now)
{
	size_t i;

	for (i = 0; i < d->conf->nscheds; i++) {
		const struct sched *s = &d->conf->scheds[i];
		time_t due, pend;
		char b1[32], b2[32];

		if (d->next[i] > now)
			continue;
		due = sched_due(s, d->next[i], now);
		d->next[i] = sched_next_run(s, due);
		if (s->slurm) {
			fire_slurm(d, s);
			continue;
		}
		pend = sched_pending(d, s->name);
		if (pend) {
			daemon_log(DLOG_INFO, "schedule '%s' due %s skipped: its run due %s is still %s",
				   s->name, daemon_iso(due, b1, sizeof(b1)),
				   daemon_iso(pend, b2, sizeof(b2)),
				   d->child && d->cur.sched &&
				   strcmp(d->cur.sched, s->name) == 0 ? "running" :
				   "queued");
		} else if (daemon_enqueue(d, s->name, due, s->distros, s->libs,
					  s->quick, s->refresh) < 0) {
			daemon_log(DLOG_WARNING, "queue full: schedule '%s' skipped",
				   s->name);
		} else {
			daemon_log(DLOG_INFO, "schedule '%s' is due (%s)", s->name,
				   daemon_iso(due, b1, sizeof(b1)));
		}
	}
}

/* --- start, loop, stop -------------------------------------------------- */

static int take_daemon_lock(const char *state_dir, bo_err *err)
{
	char *path = xasprintf("%s/daemon.lock", state_dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0) {
		bo_err_set(err, "cannot open lock '%s': %s", path,
			   strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		bo_err_set(err, errno == EWOULDBLOCK ?
			   "another daemon holds '%s'" : "cannot lock '%s': %s",
			   path, strerror(errno));
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

/* Stop the current job (SIGTERM: it stops the guest and stores 'aborted')
 * and wait for it, SIGKILL after STOP_GRACE_S. */
static void stop_job(struct daemon *d)
{
	time_t until = time(NULL) + STOP_GRACE_S;
	int ws;

	if (!d->child)
		return;
	daemon_log(DLOG_NOTICE, "stopping job %u", d->cur.id);
	kill(d->child, SIGTERM);
	for (;;) {
		pid_t r = waitpid(d->child, &ws, WNOHANG);

		if (r == d->child)
			break;
		if (r < 0 && errno != EINTR) {
			ws = 0;
			break;
		}
		if (time(NULL) > until) {
			daemon_log(DLOG_ERR, "job %u did not stop in %d s; killing it",
				   d->cur.id, STOP_GRACE_S);
			kill(d->child, SIGKILL);
			until = time(NULL) + 3600;
		}
		usleep(100000);
	}
	finish_job(d, ws);
}

static int daemonize(const char *state_dir, bo_err *err)
{
	char *path = xasprintf("%s/daemon.log", state_dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
	int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	pid_t pid;

	if (fd < 0 || nul < 0) {
		bo_err_set(err, "cannot open '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return bo_err_set(err, "cannot fork: %s", strerror(errno));
	if (pid > 0)
		_exit(0);
	setsid();
	if (chdir("/") < 0)
		return bo_err_set(err, "cannot chdir to '/': %s",
				  strerror(errno));
	dup2(nul, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(nul);
	close(fd);
	return 0;
}

static void loop(struct daemon *d)
{
	struct pollfd pfd[MAX_CLIENTS + 2];
	sigset_t none;
	size_t i, n;

	sigemptyset(&none);
	while (!got_stop) {
		time_t now = time(NULL), wake;
		struct timespec ts;

		if (got_hup) {
			got_hup = 0;
			reload(d);
		}
		reap(d);
		fire_schedules(d, now);
		if (!d->child && d->nqueue)
			daemon_start_job(d);
		for (i = 0; i < d->nclients;)
			if (now - d->clients[i].last > CLIENT_IDLE_S)
				daemon_drop_client(d, i);
			else
				i++;
		wake = now + 60;
		for (i = 0; i < d->conf->nscheds; i++)
			if (d->next[i] < wake)
				wake = d->next[i];
		ts.tv_sec = wake > now ? wake - now : 0;
		ts.tv_nsec = d->child ? 0 : 0;
		if ((d->child || d->slurm_child) && ts.tv_sec > 1)
			ts.tv_sec = 1;	/* reap promptly */
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = d->listen_fd, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = d->pipe_fd, .events = POLLIN };
		for (i = 0; i < d->nclients; i++)
			pfd[n++] = (struct pollfd){ .fd = d->clients[i].fd,
						    .events = POLLIN };
		if (ppoll(pfd, n, &ts, &none) <= 0)
			continue;
		if (pfd[1].revents && d->pipe_fd >= 0)
			read_progress(d);
		/* Serve clients from the highest index: dropping one moves the
		 * last into its slot. */
		for (i = d->nclients; i-- > 0;) {
			if (!pfd[i + 2].revents)
				continue;
			if ((pfd[i + 2].revents & POLLIN) ?
			    daemon_serve_client(d, i) < 0 : 1)
				daemon_drop_client(d, i);
		}
		if (pfd[0].revents & POLLIN)
			daemon_accept_client(d);
	}
}

int daemon_main(const struct daemon_opts *o)
{
	struct daemon d;
	struct sigaction sa;
	sigset_t block;
	bo_err err;
	size_t i;
	int rc = EXIT_OK;

	memset(&d, 0, sizeof(d));
	d.opts = o;
	d.lock_fd = d.listen_fd = d.pipe_fd = -1;
	d.changes.total = d.last_changes.total = -1;
	d.data_dir = paths_data_dir();
	d.guest = paths_guest(GUEST_FLAVOUR_GLIBC);
	if (o->config_path) {
		/* Absolute, so SIGHUP still finds it after chdir("/"). */
		char *abs = realpath(o->config_path, NULL);

		d.config_path = abs ? abs : xstrdup(o->config_path);
	} else if (access(BENCHORCH_DEFAULT_CONFIG, F_OK) == 0) {
		d.config_path = xstrdup(BENCHORCH_DEFAULT_CONFIG);
	}
	if (load_conf(&d, &d.conf, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!d.config_path)
		cli_warn("no '%s': running with defaults and no schedule",
			 BENCHORCH_DEFAULT_CONFIG);
	if (bo_mkdir_p(d.conf->state_dir, &err) < 0 ||
	    (d.lock_fd = take_daemon_lock(d.conf->state_dir, &err)) < 0 ||
	    (d.listen_fd = control_listen(d.conf->socket_path, &err)) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
		goto out;
	}
	d.times_path = xasprintf("%s/schedules", d.conf->state_dir);
	if (sched_times_load(d.times_path, &d.times, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
		goto out;
	}
	if (!o->foreground && daemonize(d.conf->state_dir, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
		goto out;
	}

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);

	daemon_log(DLOG_NOTICE, "started (pid %ld, config %s, %zu schedule%s, socket %s)",
		   (long)getpid(), d.config_path ? d.config_path : "(defaults)",
		   d.conf->nscheds, d.conf->nscheds == 1 ? "" : "s",
		   d.conf->socket_path);
	plan_schedules(&d, NULL, NULL);
	loop(&d);
	daemon_log(DLOG_NOTICE, "signal %d: shutting down", (int)got_stop);
	stop_job(&d);
	stop_slurm(&d);
	unlink(d.conf->socket_path);
	daemon_log(DLOG_NOTICE, "stopped");
out:
	for (i = 0; i < d.nclients; i++)
		close(d.clients[i].fd);
	for (i = 0; i < d.nqueue; i++)
		daemon_job_release(&d.queue[i]);
	daemon_job_release(&d.last);
	daemon_changes_reset(&d.changes);
	daemon_changes_reset(&d.last_changes);
	if (d.listen_fd >= 0)
		close(d.listen_fd);
	if (d.lock_fd >= 0)
		close(d.lock_fd);
	sched_times_release(&d.times);
	free(d.times_path);
	free(d.next);
	conf_free(d.conf);
	free(d.config_path);
	free(d.data_dir);
	free(d.guest);
	return rc;
}
