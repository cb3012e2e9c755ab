/* run.c - one benchmark run: images, guest invocations, one transaction. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "images/image.h"
#include "orchestrator/cli.h"
#include "orchestrator/cpuinfo.h"
#include "orchestrator/flavour.h"
#include "orchestrator/paths.h"
#include "orchestrator/run.h"
#include "orchestrator/summary.h"

void run_config_release(struct run_config *c)
{
	size_t i;

	for (i = 0; i < c->nspecs; i++)
		free(c->specs[i]);
	free(c->specs);
	free(c->state_dir);
	free(c->db_path);
	free(c->data_dir);
	free(c->guest);
	c->specs = NULL;
	c->nspecs = 0;
}

/* A random (version 4) UUID from the kernel, into buf (>= 37 bytes). */
static int new_uuid(char *buf, size_t len, bo_err *err)
{
	char *s;
	size_t n;

	if (bo_read_file("/proc/sys/kernel/random/uuid", 64, &s, &n, err) < 0)
		return -1;
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	snprintf(buf, len, "%s", s);
	free(s);
	return 0;
}

/* The command line as one string, arguments with spaces quoted. Caller
 * frees. */
static char *join_argv(int argc, char **argv)
{
	size_t cap = 32, len, i;
	char *s = xmalloc(cap);

	strcpy(s, "benchorch");
	len = strlen(s);
	for (i = 0; i < (size_t)argc; i++) {
		int quote = strpbrk(argv[i], " \t'\"") != NULL;
		size_t need = len + strlen(argv[i]) + 4;

		if (need > cap) {
			cap = need * 2;
			s = xrealloc(s, cap);
		}
		len += (size_t)sprintf(s + len, quote ? " '%s'" : " %s", argv[i]);
	}
	return s;
}

/* nspawn's own chatter, printed on every start and exit: not worth
 * quoting (its "terminated by signal SEGV" is). */
static const char *const log_noise[] = {
	"Attempted to remove disk file system",
	"Spawning container ",
	"Press ^] three times",
	" exited successfully.",
	" failed with error code ",
	NULL,
};

/* The last line of the log at PATH worth quoting in an error (nspawn's
 * "terminated by signal" or the guest's own complaint), or NULL. Caller
 * frees. */
static char *log_last_line(const char *path)
{
	char *buf, *line, *save = NULL, *last = NULL;
	bo_err err;

	if (bo_read_file(path, 1u << 20, &buf, NULL, &err) < 0)
		return NULL;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t i;

		for (i = 0; log_noise[i]; i++)
			if (strstr(line, log_noise[i]))
				break;
		if (!log_noise[i] && line[strspn(line, " \t\r")] != '\0')
			last = line;
	}
	last = last ? xasprintf("%.200s", last) : NULL;
	free(buf);
	return last;
}

/* Per-invocation bookkeeping kept until the run is stored. */
struct inv_state {
	struct image *image;
	struct guest_output out;
	char started_at[32];
	char *error;
	const char *runner;
	uint64_t wall_ns;
};

/* Measure one spec: image, guest, validation. Fills s; returns 0 or -1
 * (s->error set). */
static int measure_one(const struct run_config *c, const char *spec,
		       const char *uuid, struct inv_state *s)
{
	struct image_ctx ictx = {
		.state_dir = c->state_dir,
		.data_dir = c->data_dir,
		.mirror = c->mirror,
		.refresh = c->refresh,
		.progress = cli_progress_enabled(),
	};
	const char *args[12];
	char cpu[16];
	struct spawn_result res;
	char *logdir, *logpath, *musl_guest = NULL;
	enum guest_flavour flavour;
	bo_err err;
	int n = 0, log_fd, cpu_n, rc;

	guest_output_init(&s->out);
	bo_utc_now(s->started_at, sizeof(s->started_at));
	s->runner = "";
	if (image_ensure(&ictx, spec, &s->image, &err) < 0) {
		s->error = xstrdup(err.msg);
		return -1;
	}
	/* c->guest is the glibc flavour; a musl rootfs gets the musl build. */
	if (guest_flavour_detect(s->image->rootfs, &flavour, &err) < 0) {
		s->error = xstrdup(err.msg);
		return -1;
	}
	if (flavour == GUEST_FLAVOUR_MUSL)
		musl_guest = paths_guest(flavour);
	logdir = xasprintf("%s/logs", c->state_dir);
	if (bo_mkdir_p(logdir, &err) < 0) {
		free(logdir);
		free(musl_guest);
		s->error = xstrdup(err.msg);
		return -1;
	}
	logpath = xasprintf("%s/%s-%s.log", logdir, uuid, s->image->name);
	free(logdir);
	log_fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	cpu_n = runner_default_cpu();
	snprintf(cpu, sizeof(cpu), "%d", cpu_n);
	if (cpu_n >= 0) {
		args[n++] = "--cpu";
		args[n++] = cpu;
	}
	if (c->quick)
		args[n++] = "--quick";
	if (c->libs) {
		args[n++] = "--libs";
		args[n++] = c->libs;
	}
	if (c->algos) {
		args[n++] = "--algos";
		args[n++] = c->algos;
	}
	if (c->nohw)
		args[n++] = "--nohw";
	args[n] = NULL;
	{
		struct runner_opts ro = {
			.kind = c->kind,
			.rootfs = s->image->rootfs,
			.guest = musl_guest ? musl_guest : c->guest,
			.guest_args = args,
			.timeout_ns = (uint64_t)c->timeout_s * 1000000000u,
			.cpu = cpu_n,
			.log_fd = log_fd,
		};

		cli_progress("%s: running the guest in '%s'", spec,
			     s->image->rootfs);
		rc = runner_run(&ro, &s->out, &s->runner, &res, &err);
	}
	s->wall_ns = res.wall_ns;
	free(musl_guest);
	if (log_fd >= 0)
		close(log_fd);
	if (rc < 0) {
		char *last = bo_interrupted ? NULL : log_last_line(logpath);

		s->error = last ?
			xasprintf("%s: %s (guest log: %s)", err.msg, last, logpath) :
			xasprintf("%s (guest log: %s)", err.msg, logpath);
		free(last);
		free(logpath);
		return -1;
	}
	free(logpath);
	cli_progress("%s: %zu results in %.1f s (%s)", spec, s->out.nresults,
		     (double)s->wall_ns / 1e9, s->runner);
	return 0;
}

static void report_progress(const struct run_config *c, int64_t run_id,
			    const char *uuid, size_t done, const char *spec)
{
	struct run_progress p = {
		.run_id = run_id,
		.uuid = uuid,
		.done = done,
		.total = c->nspecs,
		.spec = spec,
	};

	if (c->on_progress)
		c->on_progress(c->progress_ctx, &p);
}

int run_execute(const struct run_config *c)
{
	struct cpuinfo ci;
	struct db_run run;
	struct inv_state *st;
	struct db_invocation *invs;
	sqlite3 *db = NULL;
	char uuid[64], host[256] = "", started[32], *cmdline, *why = NULL;
	const char *status;
	int64_t run_id;
	size_t i, ndone = 0, nfailed = 0;
	bo_err err;
	int rc = EXIT_OK, stored;

	if (cpuinfo_read("/proc/cpuinfo", &ci, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_ENV;
	}
	if (db_open(c->db_path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		cpuinfo_release(&ci);
		return EXIT_ENV;
	}
	gethostname(host, sizeof(host) - 1);
	if (db_reap_stale_runs(db, host, &err) < 0)
		cli_warn("%s", err.msg);
	if (new_uuid(uuid, sizeof(uuid), &err) < 0) {
		cli_error("%s", err.msg);
		sqlite3_close(db);
		cpuinfo_release(&ci);
		return EXIT_ENV;
	}
	cmdline = join_argv(c->argc, c->argv);
	run = (struct db_run){
		.uuid = uuid,
		.host = host,
		.pid = (long)getpid(),
		.started_at = bo_utc_now(started, sizeof(started)),
		.command_line = cmdline,
		.cpu = &ci,
		.quick = c->quick,
	};
	if (db_run_begin(db, &run, &run_id, &err) < 0) {
		cli_error("cannot record the run in '%s': %s", c->db_path,
			  err.msg);
		free(cmdline);
		sqlite3_close(db);
		cpuinfo_release(&ci);
		return EXIT_ENV;
	}
	cli_progress("run %lld (%s) started", (long long)run_id, uuid);
	report_progress(c, run_id, uuid, 0, NULL);

	st = xcalloc(c->nspecs, sizeof(*st));
	invs = xcalloc(c->nspecs, sizeof(*invs));
	for (i = 0; i < c->nspecs && !bo_interrupted; i++) {
		report_progress(c, run_id, uuid, i, c->specs[i]);
		if (measure_one(c, c->specs[i], uuid, &st[i]) < 0) {
			if (!bo_interrupted)
				cli_error("%s: %s", c->specs[i], st[i].error);
			nfailed++;
		}
		invs[ndone++] = (struct db_invocation){
			.spec = c->specs[i],
			.image = st[i].image,
			.runner = st[i].runner,
			.started_at = st[i].started_at,
			.wall_ns = st[i].wall_ns,
			.out = &st[i].out,
			.error = st[i].error,
			.variant = c->nohw ? "nohw" : "hw",
		};
	}
	if (bo_interrupted) {
		status = "aborted";
		rc = cli_interrupted_status(bo_interrupted);
		cli_error("interrupted by signal %d: run %lld stored as aborted",
			  (int)bo_interrupted, (long long)run_id);
	} else if (nfailed) {
		status = "failed";
		rc = EXIT_FAILED;
	} else {
		status = "done";
	}
	if (bo_interrupted)
		why = xasprintf("interrupted by signal %d", (int)bo_interrupted);
	else if (nfailed)
		why = xasprintf("%zu of %zu distributions failed", nfailed,
				c->nspecs);
	stored = db_run_finish(db, run_id, status, why, invs, ndone, &err) == 0;
	if (!stored) {
		bo_err e2;

		cli_error("cannot store run %lld in '%s': %s",
			  (long long)run_id, c->db_path, err.msg);
		if (db_run_finish(db, run_id, "failed", err.msg, NULL, 0, &e2) < 0)
			cli_error("cannot mark run %lld failed: %s",
				  (long long)run_id, e2.msg);
		/* the database could not be written: an environment error */
		rc = EXIT_ENV;
	} else if (ndone > nfailed && !bo_interrupted) {
		long unverified, noisy, measured;

		if (!c->no_summary && summary_print(stdout, db, run_id, c->format, &err) < 0) {
			cli_error("%s", err.msg);
			rc = EXIT_FAILED;
		}
		noisy = summary_noisy(db, run_id, &measured);
		if (noisy >= 0)
			fprintf(stderr, "benchorch: run %lld: %ld of %ld measurements stayed noisy (the coefficient of variation of their samples above the guest's limit after re-runs)\n",
				(long long)run_id, noisy, measured);
		unverified = summary_unverified(db, run_id);
		if (unverified > 0)
			cli_warn("%ld results of run %lld are NOT verified: a library failed its known-answer test or disagreed",
				 unverified, (long long)run_id);
		if (db_crosscheck_failures(db, run_id, NULL) > 0) {
			fprintf(stderr, "benchorch: CROSS-CHECK FAILED: these libraries disagree with the others; their results are stored with verified = 0:\n");
			db_crosscheck_failures(db, run_id, stderr);
		}
	}
	/* the daemon logs the changes itself */
	if (stored && !bo_interrupted && !c->no_summary &&
	    summary_package_changes(stderr, db, run_id, &err) < 0)
		cli_warn("cannot list the package changes of run %lld: %s",
			 (long long)run_id, err.msg);
	report_progress(c, run_id, uuid, ndone, NULL);
	for (i = 0; i < c->nspecs; i++) {
		image_free(st[i].image);
		guest_output_release(&st[i].out);
		free(st[i].error);
	}
	free(st);
	free(invs);
	free(cmdline);
	free(why);
	sqlite3_close(db);
	cpuinfo_release(&ci);
	return rc;
}
