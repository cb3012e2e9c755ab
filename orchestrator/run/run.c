/* run.c - one benchmark run: images, guest invocations, each stored as
 * soon as it ends. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "db/db.h"
#include "lib/shuffle.h"
#include "images/image.h"
#include "lib/algorithms.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/cpuinfo.h"
#include "lib/cpustate.h"
#include "lib/cpuchoice.h"
#include "lib/flavour.h"
#include "lib/judge.h"
#include "lib/paths.h"
#include "orchestrator/run/db-image.h"
#include "orchestrator/run/plan.h"
#include "orchestrator/run/plan-interleave.h"
#include "orchestrator/run/progress.h"
#include "orchestrator/run/run.h"
#include "orchestrator/results/summary.h"

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
	"Try 'benchorch-guest --help'",	/* the hint after its usage error */
	NULL,
};

/* The last line of the log at PATH, from byte FROM on (what one
 * invocation wrote) up to byte TO (-1: the end), worth quoting in an error
 * (nspawn's "terminated by signal" or the guest's own complaint), or NULL.
 * Caller frees. */
static char *log_last_line(const char *path, off_t from, off_t to)
{
	char *buf, *line, *save = NULL, *last = NULL;
	size_t len;
	bo_err err;

	if (bo_read_file(path, 1u << 20, &buf, &len, &err) < 0)
		return NULL;
	if (to >= 0 && (size_t)to < len)
		buf[len = (size_t)to] = '\0';
	if (from < 0 || (size_t)from > len)
		from = (off_t)len;
	for (line = strtok_r(buf + from, "\n", &save); line;
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

/* A distribution of the run: its image and guest, prepared once, used in
 * every round. */
struct dist {
	const char *spec;
	struct image *image;	/* NULL when it could not be had */
	char *musl_guest;	/* the musl flavour for a musl rootfs, or NULL
				 * (c->guest) */
	char *logpath;		/* its guests' stderr, all rounds */
	int log_fd;		/* -1 = none */
	int failed;		/* 1: left out of the remaining rounds */
};

/* Per-invocation bookkeeping, kept for the run's end (its output is
 * dropped once stored, but for the clocks). */
struct inv_state {
	size_t dist;		/* index into the run's distributions */
	int round;		/* 1-based; 0 = none (the image failed) */
	const char *algos;	/* the guest's --algos (the plan's), or NULL */
	struct guest_output out;
	char started_at[32];
	char *error;
	const char *runner;
	uint64_t wall_ns;
	size_t measured;	/* results and key setups it printed */
	int stored;		/* 1: in the database */
};

/* Get D's image and guest flavour and open its log. Returns 0, or -1
 * with *error set (caller frees). */
static int prepare_dist(const struct run_config *c, const char *uuid,
			struct dist *d, char **error)
{
	struct image_ctx ictx = {
		.state_dir = c->state_dir,
		.data_dir = c->data_dir,
		.mirror = c->mirror,
		.refresh = c->refresh,
		/* one line per build step, a terminal or a log alike */
		.progress = !c->quiet,
		.progress_sink = c->progress_sink,
		.progress_sink_ctx = c->progress_sink_ctx,
	};
	enum guest_flavour flavour;
	char *logdir;
	bo_err err;

	if (image_ensure(&ictx, d->spec, &d->image, &err) < 0) {
		*error = xstrdup(err.msg);
		return -1;
	}
	/* c->guest is the glibc flavour; a musl rootfs gets the musl build. */
	if (guest_flavour_detect(d->image->rootfs, &flavour, &err) < 0) {
		*error = xstrdup(err.msg);
		return -1;
	}
	if (flavour == GUEST_FLAVOUR_MUSL)
		d->musl_guest = paths_guest(flavour);
	logdir = xasprintf("%s/logs", c->state_dir);
	if (bo_mkdir_p(logdir, &err) < 0) {
		free(logdir);
		*error = xstrdup(err.msg);
		return -1;
	}
	d->logpath = xasprintf("%s/%s-%s.log", logdir, uuid, d->image->name);
	free(logdir);
	d->log_fd = open(d->logpath, O_RDWR | O_CREAT | O_TRUNC | O_APPEND |
			 O_CLOEXEC, 0644);
	return 0;
}

/* runner_opts.on_output: the library the guest measures now, for the
 * live progress line. */
static void on_guest_output(void *ctx, const struct guest_output *out)
{
	if (out->nresults)
		progress_library(ctx, out->results[out->nresults - 1].library);
}

long run_lib_timeout_s(long timeout_s)
{
	long t = timeout_s / 2;

	if (timeout_s <= 0)	/* no limit per invocation */
		return RUN_LIB_TIMEOUT_MAX_S;
	return t < 1 ? 1 : t > RUN_LIB_TIMEOUT_MAX_S ? RUN_LIB_TIMEOUT_MAX_S : t;
}

/* Say on stderr which libraries of S failed (could not be loaded,
 * crashed, hung) although the guest ran to its end. Returns their
 * count. */
static size_t report_faults(const struct dist *d, const struct plan *p,
			    const struct inv_state *s)
{
	struct guest_fault *f;
	size_t n = guest_output_faults(&s->out, &f), i;

	for (i = 0; i < n; i++)
		cli_error("%s: round %d of %zu: library '%s' failed: %s "
			  "(the other libraries' results are kept)", d->spec,
			  s->round, p->nrounds, f[i].library, f[i].what);
	free(f);
	return n;
}

/* Run the guest of D once, for round STEP->round of plan P, pinned to
 * CPU: image, guest, validation, showing progress on PG. Fills s;
 * returns 0 or -1 (s->error set). */
static int invoke(const struct run_config *c, const struct plan *p,
		  const struct plan_step *step, struct dist *d, int cpu,
		  struct inv_state *s, struct progress *pg)
{
	const char *args[26];
	char cpubuf[16], seedbuf[24], batchbuf[24], repbuf[16], rerunbuf[16];
	char libtobuf[24];
	const char *libs;
	struct spawn_result res;
	struct runner_fallback fb;
	off_t log_from;
	bo_err err;
	int n = 0, rc;

	guest_output_init(&s->out);
	bo_utc_now(s->started_at, sizeof(s->started_at));
	s->runner = "";
	s->round = (int)step->round + 1;
	s->algos = c->spec_algos && c->spec_algos[step->spec] ?
		   c->spec_algos[step->spec] : p->algos[step->round];
	libs = c->spec_libs && c->spec_libs[step->spec] ?
	       c->spec_libs[step->spec] : c->libs;
	snprintf(cpubuf, sizeof(cpubuf), "%d", cpu);
	snprintf(seedbuf, sizeof(seedbuf), "%llu",
		 (unsigned long long)step->guest_seed);
	args[n++] = "--cpu";
	args[n++] = cpubuf;
	args[n++] = "--seed";
	args[n++] = seedbuf;
	args[n++] = "--algos";
	args[n++] = s->algos;
	if (c->quick)
		args[n++] = "--quick";
	if (libs) {
		args[n++] = "--libs";
		args[n++] = libs;
	}
	if (c->nohw)
		args[n++] = "--nohw";
	if (c->min_batch_ns) {
		snprintf(batchbuf, sizeof(batchbuf), "%llu",
			 (unsigned long long)c->min_batch_ns);
		args[n++] = "--min-batch-ns";
		args[n++] = batchbuf;
	}
	if (c->repetitions) {
		snprintf(repbuf, sizeof(repbuf), "%u", c->repetitions);
		args[n++] = "--repetitions";
		args[n++] = repbuf;
	}
	if (c->max_cv[0]) {
		args[n++] = "--max-cv";
		args[n++] = c->max_cv;
	}
	if (c->max_reruns_set) {
		snprintf(rerunbuf, sizeof(rerunbuf), "%u", c->max_reruns);
		args[n++] = "--max-reruns";
		args[n++] = rerunbuf;
	}
	/* a library that hangs is killed by the guest itself, before the
	 * whole invocation would be, so the others' results are kept */
	snprintf(libtobuf, sizeof(libtobuf), "%ld", run_lib_timeout_s(c->timeout_s));
	args[n++] = "--lib-timeout";
	args[n++] = libtobuf;
	args[n] = NULL;
	log_from = d->log_fd >= 0 ? lseek(d->log_fd, 0, SEEK_END) : 0;
	{
		struct runner_opts ro = {
			.kind = c->kind,
			.rootfs = d->image->rootfs,
			.guest = d->musl_guest ? d->musl_guest : c->guest,
			.guest_args = args,
			.timeout_ns = (uint64_t)c->timeout_s * 1000000000u,
			.cpu = cpu,
			.log_fd = d->log_fd,
			.on_output = on_guest_output,
			.output_ctx = pg,
			.machine = d->image->name,
		};

		rc = runner_run(&ro, &s->out, &s->runner, &res, &fb, &err);
	}
	if (fb.happened) {
		char *why = log_last_line(d->logpath, (off_t)fb.log_from,
					  (off_t)fb.log_to);

		cli_warn("%s: round %d: systemd-nspawn failed (%s%s%s), "
			 "ran the guest under chroot instead", d->spec,
			 s->round, fb.why.msg, why ? ": " : "", why ? why : "");
		free(why);
	}
	s->wall_ns = res.wall_ns;
	if (rc < 0) {
		char *last = bo_interrupted ? NULL :
			     log_last_line(d->logpath, log_from, -1);

		if (last && strstr(err.msg, last)) {	/* quoted already */
			free(last);
			last = NULL;
		}

		s->error = last ?
			xasprintf("%s: %s (guest log: %s)", err.msg, last,
				  d->logpath) :
			xasprintf("%s (guest log: %s)", err.msg, d->logpath);
		free(last);
		return -1;
	}
	return 0;
}

/* The results of OUT that stayed noisy. */
static size_t count_noisy(const struct guest_output *out)
{
	size_t i, n = 0;

	for (i = 0; i < out->nresults; i++)
		n += out->results[i].t.noisy != 0;
	return n;
}

static void report_progress(const struct run_config *c, int64_t run_id,
			    const char *uuid, size_t done, size_t total,
			    const char *spec, size_t round, size_t rounds)
{
	struct run_progress p = {
		.run_id = run_id,
		.uuid = uuid,
		.done = done,
		.total = total,
		.spec = spec,
		.round = round,
		.rounds = rounds,
	};

	if (c->on_progress)
		c->on_progress(c->progress_ctx, &p);
}

/* A seed for a run without --seed: 32 random bits from the kernel
 * (getrandom(2)), or from the clock and pid if it has none to give. */
static uint64_t random_seed(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	return (bo_now_ns() ^ ((uint64_t)getpid() << 16)) & SHUFFLE_SEED_MAX;
}

/* The algorithm names of the run: c->algos split (duplicates dropped), or
 * every protocol algorithm. *ret_buf owns the strings (caller frees it
 * and the returned array); *ret_n gets the count. */
static const char **run_algorithms(const struct run_config *c,
				   char **ret_buf, size_t *ret_n)
{
	const char **v = NULL;
	const char *name;
	size_t n = 0, i;

	*ret_buf = NULL;
	if (c->algos) {
		char *tok, *save = NULL;

		*ret_buf = xstrdup(c->algos);
		for (tok = strtok_r(*ret_buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < n && strcmp(v[i], tok) != 0; i++)
				;
			if (i < n)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = tok;
		}
	} else {
		for (i = 0; (name = algorithm_name(i)); i++) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = name;
		}
	}
	*ret_n = n;
	return v;
}

/* The reason stored with a run in which every guest ran but none measured
 * anything (status 'failed'). */
#define MEASURED_NOTHING "measured nothing: the libraries asked for are " \
	"absent from the images or support none of the algorithms asked for"

/* Did the N invocations in ST measure nothing (no result, no key setup,
 * counting only the invocations that succeeded)? */
static bool measured_nothing(const struct inv_state *st, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!st[i].error &&
		    st[i].measured > 0)
			return false;
	return true;
}

/* Note in *NOTE, unless it holds a note already, that WHAT of run RUN_ID
 * could not be read from DB (at PATH), with SQLite's message: "cannot
 * read WHAT of run N in 'PATH': MESSAGE" (owned; the caller frees it). */
static void note_unread(char **note, sqlite3 *db, const char *path,
			int64_t run_id, const char *what)
{
	if (!*note)
		*note = xasprintf("cannot read %s of run %lld in '%s': %s",
				  what, (long long)run_id, path,
				  sqlite3_errmsg(db));
}

/* How many sets the guests measured of every point in run C, to end
 * "... above the guest's limit ...": --quick and --max-reruns 0 measure
 * one set. */
static const char *reruns_phrase(const struct run_config *c)
{
	if (c->max_reruns_set)
		return c->max_reruns == 0 ? "in one set (--max-reruns 0)" :
		       "over all their sets";
	return c->quick ? "in one set (--quick measures one)" :
	       "over all their sets";
}

/* The CPU warnings of the run, one per line, or NULL. Caller frees. */
static char *join_warnings(char *a, char *b)
{
	char *s;

	if (!a || !b)
		return a ? a : b;
	s = xasprintf("%s\n%s", a, b);
	free(a);
	free(b);
	return s;
}

/* Store S, an invocation of D in run RUN_ID of C (its guest's error, or
 * its output), in a transaction of its own (db_run_store_invocation),
 * with its judgement (guest_output_judge: verified results, failed
 * libraries, curve fits), then drop its output but for the clocks the
 * run's end reads (guest_output_shrink): the run's memory does not grow
 * with its results.
 * Returns 0 (s->stored set), or -1 with err set (nothing of S stored:
 * the output was validated as it was read, so what the database refuses
 * is the database's fault - a full disk, an I/O error, a lock held too
 * long). */
static int store_now(sqlite3 *db, int64_t run_id, const struct run_config *c,
		     const struct dist *d, struct inv_state *s, bo_err *err)
{
	struct db_image image;
	struct db_invocation inv = {
		.spec = d->spec,
		.image = NULL,
		.runner = s->runner,
		.started_at = s->started_at,
		.wall_ns = s->wall_ns,
		.out = &s->out,
		.error = s->error,
		.variant = c->nohw ? "nohw" : "hw",
		.round = s->round,
		.algorithms = s->algos,
	};
	struct guest_judgement judged;
	int rc;

	if (d->image) {
		run_db_image(d->image, &image);
		inv.image = &image;
	}
	/* what is verified, which libraries failed, the curve fits */
	if (!s->error) {
		guest_output_judge(&s->out, &judged);
		inv.judged = &judged;
	}
	rc = db_run_store_invocation(db, run_id, &inv, err);
	if (!s->error)
		guest_judgement_release(&judged);
	if (d->image)
		run_db_image_release(&image);
	s->stored = rc == 0;
	guest_output_shrink(&s->out);
	return rc;
}

/* Say on stderr, in one line, that the store of S (an invocation of D in
 * run RUN_ID, C's database) failed with ERR and measuring stops, and
 * how many invocations (NSTORED) are kept. Returns the reason to store
 * with the run (caller frees). */
static char *store_failed_why(const struct run_config *c, int64_t run_id,
			      const struct dist *d, const struct inv_state *s,
			      size_t rounds, size_t nstored, const bo_err *err)
{
	const char *msg = db_err_reason(err);

	if (s->round > 0)
		cli_error("run %lld: cannot store round %d of %zu of %s in "
			  "'%s': %s; measuring stopped, the %zu invocation%s "
			  "stored before kept", (long long)run_id, s->round,
			  rounds, d->spec, c->db_path, msg, nstored,
			  nstored == 1 ? "" : "s");
	else
		cli_error("run %lld: cannot store the failure of %s in '%s': "
			  "%s; measuring stopped", (long long)run_id, d->spec,
			  c->db_path, msg);
	return xasprintf("cannot store its results: %s (measuring stopped "
			 "there, %zu invocation%s stored before kept)", msg,
			 nstored, nstored == 1 ? "" : "s");
}

int run_execute(const struct run_config *c)
{
	struct cpuinfo ci;
	struct cpustate cs;
	struct plan plan;
	struct progress pg;
	struct db_run run;
	struct dist *dists;
	struct inv_state *st;
	sqlite3 *db = NULL;
	char uuid[64], host[256] = "", started[32], *cmdline, *why = NULL;
	char *sysfs, *algbuf, *gov_warn, *freq_warn, *clock_warn, *warnings;
	char *state, *busy_warn;
	struct cpuchoice choice;
	const char **algs;
	const char *status;
	int64_t run_id, freq_after;
	size_t i, nalgs, ninvs = 0, nok = 0, nfailed = 0, done = 0;
	size_t nfaults = 0, nstored = 0;
	uint64_t seed;
	bo_err err;
	int rc = EXIT_OK, cpu, stored;
	/* 1: a store failed (disk full): measuring stopped, the run is
	 * marked failed with store_why */
	int store_failed = 0;
	char *store_why = NULL;

	sysfs = paths_sysfs();
	if (cpuchoice_pick_self(sysfs, &choice) < 0) {
		cli_error("cannot choose a CPU to pin the guests to: %s",
			  strerror(errno));
		free(sysfs);
		return EXIT_ENV;
	}
	cpu = choice.cpu;
	if (cpuinfo_read("/proc/cpuinfo", &ci, &err) < 0) {
		cli_error("%s", err.msg);
		cpuchoice_release(&choice);
		free(sysfs);
		return EXIT_ENV;
	}
	cpustate_read(sysfs, cpu, ci.flags, &cs);
	if (cs.virtualized == 1 && !cs.hypervisor)
		cs.hypervisor = cpustate_cpuid_hypervisor();
	if (db_open(c->db_path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		cpustate_release(&cs);
		cpuinfo_release(&ci);
		cpuchoice_release(&choice);
		free(sysfs);
		return EXIT_ENV;
	}
	gethostname(host, sizeof(host) - 1);
	if (db_reap_stale_runs(db, host, &err) < 0)
		cli_warn("%s", err.msg);
	if (new_uuid(uuid, sizeof(uuid), &err) < 0) {
		cli_error("%s", err.msg);
		sqlite3_close(db);
		cpustate_release(&cs);
		cpuinfo_release(&ci);
		cpuchoice_release(&choice);
		free(sysfs);
		return EXIT_ENV;
	}
	seed = c->seed_set ? c->seed : random_seed();
	cmdline = join_argv(c->argc, c->argv);
	run = (struct db_run){
		.uuid = uuid,
		.host = host,
		.pid = (long)getpid(),
		.started_at = bo_utc_now(started, sizeof(started)),
		.command_line = cmdline,
		.cpu = &ci,
		.quick = c->quick,
		.seeded = 1,
		.seed = seed,
		.state = &cs,
	};
	if (db_run_begin(db, &run, &run_id, &err) < 0) {
		cli_error("cannot record the run in '%s': %s", c->db_path,
			  err.msg);
		free(cmdline);
		sqlite3_close(db);
		cpustate_release(&cs);
		cpuinfo_release(&ci);
		cpuchoice_release(&choice);
		free(sysfs);
		return EXIT_ENV;
	}
	/* once a run, also in a log: which run this is and where it is
	 * pinned (--quiet leaves them out) */
	if (!c->quiet)
		fprintf(stderr, "benchorch: run %lld (%s) started, seed %llu\n",
			(long long)run_id, uuid, (unsigned long long)seed);
	gov_warn = cpustate_governor_warning(&cs);
	if (gov_warn)
		cli_warn("%s", gov_warn);
	if (!c->quiet)
		fprintf(stderr, "benchorch: guests pinned to %s\n", choice.reason);
	/* the first write after the run's row: a database that cannot take
	 * it (disk full) would not take the results either */
	if (db_run_cpu_choice(db, run_id, choice.reason, choice.siblings,
			      &err) < 0) {
		const char *msg = db_err_reason(&err);

		cli_error("cannot store the choice of cpu %d for run %lld in "
			  "'%s': %s; nothing measured", cpu, (long long)run_id,
			  c->db_path, msg);
		store_failed = 1;
		store_why = xasprintf("cannot store its results: %s "
				      "(nothing measured)", msg);
	}
	busy_warn = cpuchoice_busy_warning(&choice, "/proc/stat", 200);
	if (busy_warn)
		cli_warn("%s", busy_warn);
	gov_warn = join_warnings(gov_warn, busy_warn);

	algs = run_algorithms(c, &algbuf, &nalgs);
	if (c->interleave_rounds)
		plan_make_interleaved(seed, algs, nalgs, c->interleave_group,
				      c->nspecs, c->interleave_rounds, &plan);
	else
		plan_make(seed, algs, nalgs, c->nspecs, PLAN_ROUNDS, &plan);
	report_progress(c, run_id, uuid, 0, plan.nsteps, NULL, 0,
			plan.nrounds);
	progress_init(&pg, progress_mode_for(c->quiet, stderr), stderr,
		      plan.nsteps, plan.nrounds,
		      progress_previous_ns(db, host, cmdline, run_id));
	pg.sink = c->progress_sink;
	pg.sink_ctx = c->progress_sink_ctx;

	dists = xcalloc(c->nspecs, sizeof(*dists));
	st = xcalloc(c->nspecs + plan.nsteps, sizeof(*st));
	/* every image first: building one is not measuring */
	for (i = 0; i < c->nspecs; i++) {
		dists[i].spec = c->specs[i];
		dists[i].log_fd = -1;
	}
	for (i = 0; i < c->nspecs && !bo_interrupted && !store_failed; i++) {
		struct inv_state *s;

		if (prepare_dist(c, uuid, &dists[i], &why) == 0)
			continue;
		s = &st[ninvs++];
		guest_output_init(&s->out);
		bo_utc_now(s->started_at, sizeof(s->started_at));
		s->runner = "";
		s->dist = i;
		s->error = why;
		why = NULL;
		dists[i].failed = 1;
		nfailed++;
		if (!bo_interrupted)
			cli_error("%s: %s", c->specs[i], s->error);
		if (store_now(db, run_id, c, &dists[i], s, &err) < 0) {
			store_failed = 1;
			store_why = store_failed_why(c, run_id, &dists[i], s,
						     plan.nrounds, nstored, &err);
		} else {
			nstored++;
		}
	}
	/* each invocation is stored when it ends, in a transaction of its
	 * own: a store that fails (disk full) stops the run there, losing
	 * only that invocation, not the rounds measured before it */
	for (i = 0; i < plan.nsteps && !bo_interrupted && !store_failed;
	     i++, done++) {
		const struct plan_step *step = &plan.steps[i];
		struct dist *d = &dists[step->spec];
		struct inv_state *s;
		int failed;

		if (d->failed || !d->image)
			continue;
		report_progress(c, run_id, uuid, done, plan.nsteps, d->spec,
				step->round + 1, plan.nrounds);
		s = &st[ninvs++];
		s->dist = step->spec;
		progress_begin(&pg, d->spec, step->round + 1);
		failed = invoke(c, &plan, step, d, cpu, s, &pg) < 0;
		progress_end(&pg, d->spec, step->round + 1, s->wall_ns,
			     s->out.nresults, count_noisy(&s->out), failed);
		if (!failed) {
			nok++;
			nfaults += report_faults(d, &plan, s);
			s->measured = s->out.nresults + s->out.nkeysetups;
		} else {
			d->failed = 1;
			nfailed++;
			if (!bo_interrupted)
				cli_error("%s: round %d of %zu: %s%s", d->spec,
					  s->round, plan.nrounds, s->error,
					  (size_t)s->round < plan.nrounds ?
					  "; its remaining rounds are skipped" :
					  "");
		}
		if (store_now(db, run_id, c, d, s, &err) < 0) {
			store_failed = 1;
			store_why = store_failed_why(c, run_id, d, s,
						     plan.nrounds, nstored, &err);
		} else {
			nstored++;
		}
	}
	freq_after = cpustate_freq_khz(sysfs, cpu);
	freq_warn = cpustate_freq_warning(cpu, cs.freq_khz, freq_after);
	if (freq_warn)
		cli_warn("%s", freq_warn);
	{
		int64_t *hz = xcalloc(2 * ninvs + 1, sizeof(*hz));

		/* only invocations that are stored: a failed one's
		 * readings are not believed */
		for (i = 0; i < ninvs; i++) {
			if (st[i].error || !st[i].stored)
				continue;
			hz[2 * i] = st[i].out.clock_start_hz;
			hz[2 * i + 1] = st[i].out.clock_end_hz;
		}
		clock_warn = cpustate_clock_warning(cpu, hz, 2 * ninvs);
		free(hz);
	}
	if (clock_warn)
		cli_warn("%s", clock_warn);
	warnings = join_warnings(join_warnings(gov_warn, freq_warn),
				 clock_warn);
	/* a database that could not take an invocation is written no more
	 * than needed to mark the run failed */
	if (!store_failed &&
	    db_run_cpu_after(db, run_id, freq_after, warnings, &err) < 0)
		cli_warn("cannot store the state of cpu %d after run %lld: %s",
			 cpu, (long long)run_id, err.msg);

	if (store_failed) {
		status = "failed";
		/* the database could not be written: an environment error,
		 * unless the user's signal stopped the run too (its exit
		 * status says so; the run keeps the store's reason) */
		rc = bo_interrupted ? cli_interrupted_status(bo_interrupted) :
		     EXIT_ENV;
	} else if (bo_interrupted) {
		status = "aborted";
		rc = cli_interrupted_status(bo_interrupted);
		cli_error("interrupted by signal %d: run %lld stored as aborted",
			  (int)bo_interrupted, (long long)run_id);
	} else if (nfailed) {
		status = "failed";
		rc = EXIT_FAILED;
	} else if (nok > 0 && measured_nothing(st, ninvs)) {
		status = "failed";
		rc = EXIT_FAILED;
		why = xstrdup(MEASURED_NOTHING);
		cli_error("run %lld %s", (long long)run_id, why);
	} else {
		status = "done";
		/* a library that failed: the run is stored, its other
		 * results are good, but something in it failed */
		if (nfaults)
			rc = EXIT_FAILED;
	}
	if (store_failed) {
		free(why);
		why = store_why;
		store_why = NULL;
	} else if (bo_interrupted) {
		why = xasprintf("interrupted by signal %d", (int)bo_interrupted);
	} else if (nfailed) {
		why = xasprintf("%zu of %zu distributions failed", nfailed,
				c->nspecs);
	}
	/* the invocations are stored already: the package changes of the
	 * stored ones and the status are left */
	stored = !store_failed &&
		 db_run_finish(db, run_id, status, why, NULL, 0, &err) == 0;
	if (!store_failed && !stored) {
		cli_error("cannot store run %lld in '%s': %s (its %zu "
			  "invocation%s stored before kept)",
			  (long long)run_id, c->db_path, db_err_reason(&err),
			  nstored, nstored == 1 ? "" : "s");
		free(why);
		why = xasprintf("cannot store its end: %s", db_err_reason(&err));
		/* the database could not be written: an environment error */
		rc = EXIT_ENV;
	}
	/* a run whose store failed is marked failed with one small UPDATE
	 * (no package changes: a full disk takes as little as can be);
	 * should even that fail, the run stays 'running' until the next run
	 * on this host marks it aborted (db_reap_stale_runs) */
	if (!stored && db_run_set_status(db, run_id, "failed", why, &err) < 0)
		cli_error("cannot mark run %lld failed in '%s': %s (the next "
			  "run marks it aborted)", (long long)run_id,
			  c->db_path, db_err_reason(&err));
	if (stored && nok > 0 && !bo_interrupted) {
		long unverified, noisy, measured, moved, curves, disagree;
		char *unread = NULL;	/* the first thing not read, why */

		/* with nothing measured, the table prints nothing (not even
		 * its header); csv and json still print their empty document */
		noisy = summary_noisy(db, run_id, &measured);
		if (noisy < 0)
			note_unread(&unread, db, c->db_path, run_id,
				    "its noisy measurements");
		if ((noisy < 0 || measured != 0 || c->format != FORMAT_TABLE) &&
		    !c->no_summary &&
		    summary_run(stdout, db, run_id, c->format, c->db_path,
				&err) < 0) {
			cli_error("%s", err.msg);
			rc = EXIT_FAILED;
		}
		if (noisy > 0 || (noisy == 0 && measured > 0))
			fprintf(stderr, "benchorch: run %lld: %ld of %ld measurements stayed noisy (the coefficient of variation of their samples above the guest's limit %s)\n",
				(long long)run_id, noisy, measured,
				reruns_phrase(c));
		moved = summary_canaries_moved(db, run_id, &curves);
		if (moved < 0)
			note_unread(&unread, db, c->db_path, run_id,
				    "its contention canaries");
		if (moved > 0)
			fprintf(stderr, "benchorch: run %lld: the contention canary moved during %ld of %ld curves even when measured again; they are stored with canaries.moved = 1\n",
				(long long)run_id, moved, curves);
		unverified = summary_unverified(db, run_id);
		if (unverified < 0)
			note_unread(&unread, db, c->db_path, run_id,
				    "which of its results are verified");
		if (unverified > 0)
			cli_warn("%ld results of run %lld are NOT verified: a library failed its known-answer test or disagreed",
				 unverified, (long long)run_id);
		disagree = db_crosscheck_failures(db, run_id, NULL);
		if (disagree > 0) {
			fprintf(stderr, "benchorch: CROSS-CHECK FAILED: these libraries disagree with the others; their results are stored with verified = 0:\n");
			disagree = db_crosscheck_failures(db, run_id, stderr);
		}
		if (disagree < 0)
			note_unread(&unread, db, c->db_path, run_id,
				    "its cross-check");
		/* a warning it could not give: a database error */
		if (unread) {
			cli_error("%s", unread);
			free(unread);
			rc = EXIT_ENV;
		}
	}
	/* the daemon logs the changes itself */
	if (stored && !bo_interrupted && !c->no_summary &&
	    summary_package_changes(stderr, db, run_id, &err) < 0)
		cli_warn("cannot list the package changes of run %lld: %s",
			 (long long)run_id, err.msg);
	/* the order and the CPU state, whatever became of the run */
	/* a confirmation's specs are images x library groups: one guest
	 * invocation each a round */
	fprintf(stderr, "benchorch: run %lld: seed %llu ('--seed %llu' repeats its order), %zu round%s x %zu %s%s, guests pinned to cpu %d\n",
		(long long)run_id, (unsigned long long)seed,
		(unsigned long long)seed, plan.nrounds,
		plan.nrounds == 1 ? "" : "s", c->nspecs,
		c->spec_libs ? "invocation" : "distribution",
		c->nspecs == 1 ? "" : "s", cpu);
	state = cpustate_describe(&cs, freq_after);
	fprintf(stderr, "benchorch: %s%s\n", state,
		warnings ? " (numbers may have drifted, see the warnings)" : "");
	free(state);
	report_progress(c, run_id, uuid, done, plan.nsteps, NULL, 0,
			plan.nrounds);
	for (i = 0; i < ninvs; i++) {
		guest_output_release(&st[i].out);
		free(st[i].error);
	}
	for (i = 0; i < c->nspecs; i++) {
		image_free(dists[i].image);
		free(dists[i].musl_guest);
		free(dists[i].logpath);
		if (dists[i].log_fd >= 0)
			close(dists[i].log_fd);
	}
	free(dists);
	free(st);
	free(store_why);
	free(cmdline);
	free(why);
	free(warnings);
	free(algs);
	free(algbuf);
	free(sysfs);
	plan_release(&plan);
	sqlite3_close(db);
	cpustate_release(&cs);
	cpuinfo_release(&ci);
	cpuchoice_release(&choice);
	return rc;
}
