/* daemon-job.c - one job of the daemon, run in its child process
 * (daemon-job.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/paths.h"
#include "lib/runlock.h"
#include "orchestrator/daemon/daemon.h"
#include "orchestrator/daemon/daemon-job.h"
#include "orchestrator/daemon/daemon-log.h"
#include "orchestrator/daemon/daemon-verdict.h"
#include "orchestrator/run/run.h"
#include "orchestrator/run/run-confirm.h"

void daemon_job_release(struct daemon_job *j)
{
	free(j->sched);
	free(j->distros);
	free(j->libs);
	memset(j, 0, sizeof(*j));
}

char *daemon_job_describe(const struct daemon_job *j, char *buf,
			  size_t bytes)
{
	snprintf(buf, bytes, "distros %s%s%s%s%s", j->distros,
		 j->libs ? ", libs " : "", j->libs ? j->libs : "",
		 j->quick ? ", quick" : "", j->refresh ? ", refresh" : "");
	return buf;
}

const char *daemon_exit_word(int rc, int cancelled)
{
	if (rc == EXIT_OK)
		return "done";
	if (rc == EXIT_FAILED)
		return "failed";
	if (rc >= 128 || cancelled)
		return cancelled ? "cancelled" : "aborted";
	return "error";
}

/* The progress line of P down the pipe *CTX (an int fd). */
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

	daemon_log(DLOG_NOTICE, "another run holds '%s'; waiting", path);
	/* Tell the parent, for status; if the pipe is gone the daemon is
	 * too, and SIGTERM follows. */
	if (write(pfd, "W\n", 2) != 2)
		return;
}

/* Take the machine-wide run lock that `benchorch run` takes too, waiting
 * (interruptibly) for a manual run. Returns the fd or -1 with err set. */
static int child_lock(int pfd, bo_err *err)
{
	return bo_run_lock(BENCHORCH_RUN_LOCK_DIR, child_lock_wait, &pfd, err);
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
		daemon_log(DLOG_WARNING, "package changes: %s", err.msg);
		return;
	}
	if (db_package_changes(db, run_id, &v, &n, &err) < 0) {
		daemon_log(DLOG_WARNING, "package changes of run %lld: %s",
			   (long long)run_id, err.msg);
		sqlite3_close(db);
		return;
	}
	sqlite3_close(db);
	path = xasprintf("%s/logs/%s-packages.log", c->state_dir, uuid);
	f = n ? fopen(path, "w") : NULL;
	for (i = 0; i < n; i++) {
		daemon_log(DLOG_NOTICE, "run %lld: %s: package '%s' %s -> %s",
			   (long long)run_id, v[i].spec, v[i].package,
			   v[i].old_version ? v[i].old_version : "(none)",
			   v[i].new_version ? v[i].new_version : "(removed)");
		if (f)
			fprintf(f, "%s %s %s %s\n", v[i].spec, v[i].package,
				v[i].old_version ? v[i].old_version : "-",
				v[i].new_version ? v[i].new_version : "-");
	}
	if (f && fclose(f) != 0)
		daemon_log(DLOG_WARNING, "cannot write '%s'", path);
	else if (n)
		daemon_log(DLOG_NOTICE, "run %lld: %zu package change%s since the previous run, in '%s'",
			   (long long)run_id, n, n == 1 ? "" : "s", path);
	free(path);
	if (daemon_changes_send(pfd, v, n, &err) < 0)
		daemon_log(DLOG_WARNING, "%s", err.msg);
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
		daemon_log(DLOG_WARNING, "verdict of run %lld: %s", (long long)run_id,
			   err.msg);
	else
		daemon_log(DLOG_NOTICE, "verdict: %s", line);
}

/* What the job child learns of its run as it goes: the pipe to the
 * daemon, the run's id and UUID. */
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
	daemon_log(DLOG_INFO, "%s", line);
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

/* The run configuration of job J (CONF, DATA_DIR and GUEST as for
 * daemon_job_run) into *C, its progress going to CC; C's command line is
 * ARGV (room for 12 pointers, DUE 32 bytes: both the caller's, and they
 * must outlive C). The caller releases C with run_config_release. */
static void job_config(const struct conf *conf, const char *data_dir,
		       const char *guest, const struct daemon_job *j,
		       struct child_ctx *cc, char **argv, char *due,
		       struct run_config *c)
{
	char *copy, *tok, *save = NULL;
	int argc = 0;

	memset(c, 0, sizeof(*c));
	c->distros = j->distros;
	copy = xstrdup(j->distros);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		c->specs = xrealloc(c->specs, (c->nspecs + 1) * sizeof(char *));
		c->specs[c->nspecs++] = xstrdup(tok);
	}
	free(copy);
	c->state_dir = xstrdup(conf->state_dir);
	c->db_path = xstrdup(conf->db_path);
	c->data_dir = xstrdup(data_dir);
	c->guest = xstrdup(guest);
	c->kind = conf->kind;
	c->quick = j->quick;
	c->refresh = j->refresh;
	c->libs = j->libs;
	c->mirror = conf->mirror;
	c->timeout_s = conf->timeout_s;
	c->format = FORMAT_TABLE;
	c->no_summary = 1;
	c->progress_sink = child_progress_log;
	c->on_progress = child_progress_tap;
	c->progress_ctx = cc;
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
		argv[argc++] = daemon_iso(j->due, due, 32);
	}
	argv[argc] = NULL;
	c->argc = argc;
	c->argv = argv;
}

int daemon_job_run(const struct conf *conf, const char *data_dir,
		   const char *guest, const struct daemon_job *j, int pfd)
{
	struct run_config c;
	struct child_ctx cc = { .fd = pfd, .run_id = -1 };
	char *argv[12], due[32];
	bo_err err;
	int rc, lock;

	lock = child_lock(pfd, &err);
	if (lock < 0) {
		daemon_log(DLOG_ERR, "%s", err.msg);
		return bo_interrupted ? cli_interrupted_status(bo_interrupted) :
					EXIT_ENV;
	}
	if (write(pfd, "R\n", 2) < 0)
		return EXIT_FAILED;
	job_config(conf, data_dir, guest, j, &cc, argv, due, &c);
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
