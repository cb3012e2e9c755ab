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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "orchestrator/daemon/config-file.h"
#include "orchestrator/daemon/control.h"
#include "orchestrator/daemon/daemon.h"
#include "orchestrator/daemon/daemon-verdict.h"
#include "orchestrator/daemon/daemon-slurm.h"
#include "lib/paths.h"
#include "orchestrator/run/request-check.h"
#include "orchestrator/run/run.h"
#include "orchestrator/run/run-confirm.h"
#include "orchestrator/daemon/schedule.h"
#include "db/db.h"

#define MAX_CLIENTS 16
#define MAX_QUEUE 16
#define CLIENT_IDLE_S 60
#define STOP_GRACE_S 120	/* after SIGTERM to a job, before SIGKILL */

enum { L_ERR = 3, L_WARNING = 4, L_NOTICE = 5, L_INFO = 6 };

/* Log one line on stderr: with a "<N>" syslog priority prefix when stderr
 * is the journal (journald strips it and keeps the level), else with a
 * readable one. */
__attribute__((format(printf, 2, 3)))
static void dlog(int level, const char *fmt, ...)
{
	static const char *const names[] = {
		[L_ERR] = "error: ", [L_WARNING] = "warning: ",
		[L_NOTICE] = "", [L_INFO] = "",
	};
	va_list ap;

	if (getenv("JOURNAL_STREAM"))
		fprintf(stderr, "<%d>", level);
	else
		fprintf(stderr, "benchorch daemon: %s", names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

struct job {
	unsigned id;
	char *sched;		/* schedule name, NULL for a submitted job */
	char *distros, *libs;
	int quick, refresh;
	time_t fired;		/* when it was queued */
	time_t due;		/* the schedule's due time it runs for, 0 for
				 * a submitted job */
};

struct client {
	int fd;
	time_t last;
};

struct daemon {
	const struct daemon_opts *opts;
	char *config_path;	/* NULL: defaults, no file */
	struct conf *conf;
	char *data_dir, *guest;
	int lock_fd, listen_fd;
	struct client clients[MAX_CLIENTS];
	size_t nclients;
	struct job queue[MAX_QUEUE];
	size_t nqueue;
	unsigned next_id;
	/* the current job */
	struct job cur;
	pid_t child;		/* 0 = idle */
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
	struct job last;
	int last_exit;
	int64_t last_run_id;
	time_t last_finished;
	struct daemon_changes last_changes;
	/* schedules */
	struct sched_times times;
	char *times_path;
	time_t *next;		/* per conf->scheds */
};

static volatile sig_atomic_t got_stop, got_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig != SIGCHLD)
		got_stop = sig;
}

static void job_release(struct job *j)
{
	free(j->sched);
	free(j->distros);
	free(j->libs);
	memset(j, 0, sizeof(*j));
}

static char *iso(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
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
				dlog(L_NOTICE, "schedule '%s' was missed (last run due %s); running it now",
				     s->name, iso(last, b1, sizeof(b1)));
			continue;
		}
		dirty |= sched_times_plan(&d->times, s->name, now);
		last = sched_times_planned(&d->times, s->name);
		d->next[i] = sched_next(s, last);
		if (d->next[i] <= now)
			dlog(L_NOTICE, "schedule '%s' was missed (planned since %s, never ran); running it now",
			     s->name, iso(last, b1, sizeof(b1)));
	}
	if (dirty && sched_times_save(d->times_path, &d->times, &err) < 0)
		dlog(L_WARNING, "%s", err.msg);
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
		dlog(L_ERR, "reload failed, keeping the old configuration: %s",
		     err.msg);
		return;
	}
	if (strcmp(c->state_dir, d->conf->state_dir) != 0) {
		dlog(L_WARNING, "state-dir changes take effect at the next start: keeping '%s' and the paths that follow from it",
		     d->conf->state_dir);
		keep_state_dir(c, d->conf->state_dir);
	}
	if (strcmp(c->socket_path, d->conf->socket_path) != 0) {
		dlog(L_WARNING, "socket changes take effect at the next start");
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
	dlog(L_NOTICE, "configuration reloaded: %zu schedule%s", c->nscheds,
	     c->nscheds == 1 ? "" : "s");
}

/* --- the job child ------------------------------------------------------ */

static void child_progress(void *ctx, const struct run_progress *p)
{
	int fd = *(int *)ctx;
	char line[512];
	int n;

	n = snprintf(line, sizeof(line), "P %lld %zu %zu %s %.200s %zu %zu\n",
		     (long long)p->run_id, p->done, p->total, p->uuid,
		     p->spec ? p->spec : "-", p->round, p->rounds);
	if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) < 0)
		return;
}

/* Told once by bo_lock_wait when a manual run holds the run lock. */
static void child_lock_wait(void *ctx, const char *path)
{
	int pfd = *(int *)ctx;

	dlog(L_NOTICE, "another run holds '%s'; waiting", path);
	/* Tell the parent, for status; if the pipe is gone the daemon is
	 * too, and SIGTERM follows. */
	if (write(pfd, "W\n", 2) != 2)
		return;
}

/* Take the machine-wide run lock that `benchorch run` takes too, waiting
 * (interruptibly) for a manual run. Returns the fd or -1 with err set. */
static int child_lock(int pfd, bo_err *err)
{
	if (bo_mkdir_p("/run/lock", err) < 0)
		return -1;
	return bo_lock_wait(BENCHORCH_RUN_LOCK, child_lock_wait, &pfd, err);
}

/* Log the package changes recorded for run RUN_ID, write them to
 * STATE/logs/UUID-packages.log and tell the parent (for status). */
static void child_changes(const struct run_config *c, int64_t run_id,
			  const char *uuid, int pfd)
{
	struct pkg_change *v;
	size_t n, i;
	sqlite3 *db;
	bo_err err;
	char *path;
	FILE *f;

	if (db_open_readonly(c->db_path, &db, &err) < 0) {
		dlog(L_WARNING, "package changes: %s", err.msg);
		return;
	}
	if (db_package_changes(db, run_id, &v, &n, &err) < 0) {
		dlog(L_WARNING, "package changes of run %lld: %s",
		     (long long)run_id, err.msg);
		sqlite3_close(db);
		return;
	}
	sqlite3_close(db);
	path = xasprintf("%s/logs/%s-packages.log", c->state_dir, uuid);
	f = n ? fopen(path, "w") : NULL;
	for (i = 0; i < n; i++) {
		dlog(L_NOTICE, "run %lld: %s: package '%s' %s -> %s",
		     (long long)run_id, v[i].spec, v[i].package,
		     v[i].old_version ? v[i].old_version : "(none)",
		     v[i].new_version ? v[i].new_version : "(removed)");
		if (f)
			fprintf(f, "%s %s %s %s\n", v[i].spec, v[i].package,
				v[i].old_version ? v[i].old_version : "-",
				v[i].new_version ? v[i].new_version : "-");
	}
	if (f && fclose(f) != 0)
		dlog(L_WARNING, "cannot write '%s'", path);
	else if (n)
		dlog(L_NOTICE, "run %lld: %zu package change%s since the previous run, in '%s'",
		     (long long)run_id, n, n == 1 ? "" : "s", path);
	free(path);
	if (daemon_changes_send(pfd, v, n, &err) < 0)
		dlog(L_WARNING, "%s", err.msg);
	pkg_changes_free(v, n);
}

/* Judge run RUN_ID against the previous one and keep the verdict for
 * status (daemon-verdict.c); its summary goes to the log. */
static void child_verdict(const struct run_config *c, int64_t run_id)
{
	char line[256];
	bo_err err;

	if (daemon_verdict_after_run(c->db_path, run_id, line, sizeof(line),
				     &err) < 0)
		dlog(L_WARNING, "verdict of run %lld: %s", (long long)run_id,
		     err.msg);
	else
		dlog(L_NOTICE, "verdict: %s", line);
}

struct child_ctx {
	int fd;
	int64_t run_id;
	char uuid[64];
};

/* run_config.progress_sink: the run's progress lines in the daemon's
 * log, one per finished guest invocation. */
static void child_progress_log(void *ctx, const char *line)
{
	(void)ctx;
	dlog(L_INFO, "%s", line);
}

static void child_progress_tap(void *ctx, const struct run_progress *p)
{
	struct child_ctx *cc = ctx;

	cc->run_id = p->run_id;
	snprintf(cc->uuid, sizeof(cc->uuid), "%s", p->uuid);
	child_progress(&cc->fd, p);
}

/* run_after_fn: the package changes of the run, before its
 * confirmation. */
static void child_after_run(void *ctx, const struct run_config *c,
			    int64_t run_id)
{
	struct child_ctx *cc = ctx;

	child_changes(c, run_id, cc->uuid, cc->fd);
}

static int child_main(struct daemon *d, const struct job *j, int pfd)
{
	struct run_config c;
	struct child_ctx cc = { .fd = pfd, .run_id = -1 };
	char *argv[12], *copy, *tok, *save = NULL, due[32];
	sigset_t none;
	size_t i;
	bo_err err;
	int rc, lock, argc = 0;

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

	lock = child_lock(pfd, &err);
	if (lock < 0) {
		dlog(L_ERR, "%s", err.msg);
		return bo_interrupted ? cli_interrupted_status(bo_interrupted) :
					EXIT_ENV;
	}
	if (write(pfd, "R\n", 2) < 0)
		return EXIT_FAILED;
	memset(&c, 0, sizeof(c));
	c.distros = j->distros;
	copy = xstrdup(j->distros);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		c.specs = xrealloc(c.specs, (c.nspecs + 1) * sizeof(char *));
		c.specs[c.nspecs++] = xstrdup(tok);
	}
	free(copy);
	c.state_dir = xstrdup(d->conf->state_dir);
	c.db_path = xstrdup(d->conf->db_path);
	c.data_dir = xstrdup(d->data_dir);
	c.guest = xstrdup(d->guest);
	c.kind = d->conf->kind;
	c.quick = j->quick;
	c.refresh = j->refresh;
	c.libs = j->libs;
	c.mirror = d->conf->mirror;
	c.timeout_s = d->conf->timeout_s;
	c.format = FORMAT_TABLE;
	c.no_summary = 1;
	c.progress_sink = child_progress_log;
	c.on_progress = child_progress_tap;
	c.progress_ctx = &cc;
	argv[argc++] = "daemon";
	argv[argc++] = j->sched ? "--schedule" : "--submitted";
	if (j->sched)
		argv[argc++] = j->sched;
	argv[argc++] = "--distros";
	argv[argc++] = j->distros;
	if (j->libs) {
		argv[argc++] = "--libs";
		argv[argc++] = j->libs;
	}
	if (j->quick)
		argv[argc++] = "--quick";
	if (j->refresh)
		argv[argc++] = "--refresh";
	if (j->sched) {
		argv[argc++] = "--due";
		argv[argc++] = iso(j->due, due, sizeof(due));
	}
	argv[argc] = NULL;
	c.argc = argc;
	c.argv = argv;
	/* the run, its package changes, then the confirmation of what
	 * looks changed (run-confirm.h) */
	rc = run_and_confirm(&c, child_after_run, &cc, NULL);
	/* then judge the run against the previous one of its CPU */
	if (cc.run_id >= 0 && !bo_interrupted)
		child_verdict(&c, cc.run_id);
	close(lock);
	run_config_release(&c);
	return rc;
}

static void start_job(struct daemon *d)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		dlog(L_ERR, "cannot create a pipe: %s", strerror(errno));
		return;
	}
	d->cur = d->queue[0];
	memmove(d->queue, d->queue + 1, --d->nqueue * sizeof(d->queue[0]));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		dlog(L_ERR, "cannot fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		job_release(&d->cur);
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
	dlog(L_NOTICE, "job %u started (%s%s, distros %s, pid %ld)", d->cur.id,
	     d->cur.sched ? "schedule " : "submitted",
	     d->cur.sched ? d->cur.sched : "", d->cur.distros, (long)pid);
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

static const char *exit_word(int rc, int cancelled)
{
	if (rc == EXIT_OK)
		return "done";
	if (rc == EXIT_FAILED)
		return "failed";
	if (rc >= 128 || cancelled)
		return cancelled ? "cancelled" : "aborted";
	return "error";
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
	dlog(rc == EXIT_OK ? L_NOTICE : L_WARNING,
	     "job %u %s (exit status %d, run %lld)", d->cur.id,
	     exit_word(rc, d->cancelled), rc, (long long)d->run_id);
	/* A scheduled job stopped by our own shutdown did not happen: it runs
	 * again at the next start. Anything else counts as run. */
	if (d->cur.sched && !(got_stop && !d->cancelled && rc >= 128)) {
		sched_times_set(&d->times, d->cur.sched, d->cur.due);
		if (sched_times_save(d->times_path, &d->times, &err) < 0)
			dlog(L_WARNING, "%s", err.msg);
	}
	job_release(&d->last);
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
}

static int enqueue(struct daemon *d, const char *sched, time_t due,
		   const char *distros, const char *libs, int quick,
		   int refresh)
{
	struct job *j;

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

/* Send schedule S to Slurm instead of queueing it here: the run happens
 * on the cluster's nodes, so nothing waits for it. */
static void fire_slurm(struct daemon *d, const struct sched *s)
{
	char *out = NULL, *nl;
	bo_err err;

	if (daemon_slurm_submit(d->conf, s, &out, &err) < 0) {
		dlog(L_ERR, "schedule '%s': cannot submit to slurm: %s",
		     s->name, err.msg);
		return;
	}
	while ((nl = strchr(out, '\n')))
		*nl = nl[1] ? ',' : '\0';
	dlog(L_NOTICE, "schedule '%s' submitted to slurm: %s", s->name, out);
	free(out);
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
			dlog(L_INFO, "schedule '%s' due %s skipped: its run due %s is still %s",
			     s->name, iso(due, b1, sizeof(b1)),
			     iso(pend, b2, sizeof(b2)),
			     d->child && d->cur.sched &&
			     strcmp(d->cur.sched, s->name) == 0 ? "running" :
			     "queued");
		} else if (enqueue(d, s->name, due, s->distros, s->libs,
				   s->quick, s->refresh) < 0) {
			dlog(L_WARNING, "queue full: schedule '%s' skipped",
			     s->name);
		} else {
			dlog(L_INFO, "schedule '%s' is due (%s)", s->name,
			     iso(due, b1, sizeof(b1)));
		}
	}
}

/* --- control socket ----------------------------------------------------- */

static json_t *job_json(const struct job *j)
{
	char b[32];

	return json_pack("{s:i, s:s, s:s, s:s, s:s?, s:b, s:b, s:s}", "id",
			 (int)j->id, "origin", j->sched ? "schedule" : "submit",
			 "schedule", j->sched ? j->sched : "",
			 "distros", j->distros, "libs", j->libs, "quick", j->quick,
			 "refresh", j->refresh,
			 "queued_at", iso(j->fired, b, sizeof(b)));
}

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
				    json_string(iso(d->started, b, sizeof(b))));
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
			iso(d->next[i], b, sizeof(b)), "last",
			last ? iso(last, b2, sizeof(b2)) : ""));
	}
	json_object_set_new(r, "schedules", s);
	json_object_set_new(r, "database_error", json_null());
	daemon_latest_run_json(d->conf->db_path, r);
	daemon_last_verdict_json(d->conf->db_path, r);
	if (d->last.id) {
		j = job_json(&d->last);
		json_object_set_new(j, "status", json_string(
			exit_word(d->last_exit < 0 ? 143 : d->last_exit,
				  d->last_exit < 0)));
		json_object_set_new(j, "exit", json_integer(d->last_exit));
		json_object_set_new(j, "run_id", json_integer(d->last_run_id));
		json_object_set_new(j, "finished_at", json_string(
			iso(d->last_finished, b, sizeof(b))));
		daemon_changes_json(&d->last_changes, j);
		json_object_set_new(r, "last", j);
	}
	return r;
}

static json_t *error_json(const char *msg)
{
	return json_pack("{s:b, s:s}", "ok", 0, "error", msg);
}

static json_t *handle(struct daemon *d, const struct control_req *rq)
{
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
		    (rq->libs && request_check_libs(rq->libs, "--libs",
						    &err) < 0))
			return error_json(err.msg);
		id = enqueue(d, NULL, 0, rq->distros, rq->libs, rq->quick,
			     rq->refresh);
		if (id < 0)
			return error_json("the queue is full");
		dlog(L_NOTICE, "job %d submitted: distros %s%s%s", id,
		     rq->distros, rq->libs ? ", libs " : "",
		     rq->libs ? rq->libs : "");
		/* position: how many jobs run before it (the current one
		 * included); 0 = it starts now */
		position = (int)d->nqueue - 1 + (d->child ? 1 : 0);
		if (!d->child)
			start_job(d);
		return json_pack("{s:b, s:i, s:i, s:b}", "ok", 1, "job", id,
				 "position", position, "started",
				 d->child && d->cur.id == (unsigned)id);
	case CONTROL_CANCEL:
		if (!d->child)
			return error_json("no run in progress");
		if (!d->cancelled) {
			kill(d->child, SIGTERM);
			d->cancelled = 1;
			dlog(L_NOTICE, "job %u: cancel requested", d->cur.id);
		}
		return json_pack("{s:b, s:i}", "ok", 1, "job", (int)d->cur.id);
	}
	return error_json("unknown request");
}

static void drop_client(struct daemon *d, size_t i)
{
	close(d->clients[i].fd);
	d->clients[i] = d->clients[--d->nclients];
}

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
		dlog(L_INFO, "cannot reply to a client: %s", strerror(errno));
	free(s);
	json_decref(msg);
}

/* Read one message from client i; 0 to keep it, -1 to drop it. */
static int serve_client(struct daemon *d, size_t i)
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
		dlog(L_WARNING, "control: refused a message over %d bytes",
		     CONTROL_MAX_MSG);
		send_json(d->clients[i].fd, error_json(
			"message exceeds the size limit"));
		return 0;
	}
	if (control_req_parse(buf, (size_t)n, &rq, &err) < 0) {
		dlog(L_WARNING, "control: refused a message: %s", err.msg);
		send_json(d->clients[i].fd, error_json(err.msg));
		return 0;
	}
	send_json(d->clients[i].fd, handle(d, &rq));
	control_req_release(&rq);
	return 0;
}

static void accept_client(struct daemon *d)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd = accept4(d->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
	    (cred.uid != 0 && cred.uid != geteuid())) {
		dlog(L_WARNING, "control: refused a client of uid %ld",
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
	dlog(L_NOTICE, "stopping job %u", d->cur.id);
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
			dlog(L_ERR, "job %u did not stop in %d s; killing it",
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
			start_job(d);
		for (i = 0; i < d->nclients;)
			if (now - d->clients[i].last > CLIENT_IDLE_S)
				drop_client(d, i);
			else
				i++;
		wake = now + 60;
		for (i = 0; i < d->conf->nscheds; i++)
			if (d->next[i] < wake)
				wake = d->next[i];
		ts.tv_sec = wake > now ? wake - now : 0;
		ts.tv_nsec = d->child ? 0 : 0;
		if (d->child && ts.tv_sec > 1)
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
			    serve_client(d, i) < 0 : 1)
				drop_client(d, i);
		}
		if (pfd[0].revents & POLLIN)
			accept_client(d);
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

	dlog(L_NOTICE, "started (pid %ld, config %s, %zu schedule%s, socket %s)",
	     (long)getpid(), d.config_path ? d.config_path : "(defaults)",
	     d.conf->nscheds, d.conf->nscheds == 1 ? "" : "s",
	     d.conf->socket_path);
	plan_schedules(&d, NULL, NULL);
	loop(&d);
	dlog(L_NOTICE, "signal %d: shutting down", (int)got_stop);
	stop_job(&d);
	unlink(d.conf->socket_path);
	dlog(L_NOTICE, "stopped");
out:
	for (i = 0; i < d.nclients; i++)
		close(d.clients[i].fd);
	for (i = 0; i < d.nqueue; i++)
		job_release(&d.queue[i]);
	job_release(&d.last);
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
