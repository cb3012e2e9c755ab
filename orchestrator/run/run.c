/* run.c - one benchmark run: images, guest invocations, each stored as
 * soon as it ends. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "lib/shuffle.h"
#include "images/image.h"
#include "lib/algorithms.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/cpustate.h"
#include "lib/cpuchoice.h"
#include "orchestrator/run/plan.h"
#include "orchestrator/run/plan-interleave.h"
#include "orchestrator/run/progress.h"
#include "orchestrator/run/run.h"
#include "orchestrator/run/run-invoke.h"
#include "orchestrator/run/run-open.h"
#include "orchestrator/run/run-report.h"
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

long run_lib_timeout_s(long timeout_s)
{
	long t = timeout_s / 2;

	if (timeout_s <= 0)	/* no limit per invocation */
		return RUN_LIB_TIMEOUT_MAX_S;
	return t < 1 ? 1 : t > RUN_LIB_TIMEOUT_MAX_S ? RUN_LIB_TIMEOUT_MAX_S : t;
}

/* Tell C->on_progress (when set) where run RUN_ID (UUID) stands. */
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

/* The algorithm names of the run but the public-key ones: c->algos
 * split (duplicates dropped), or every protocol algorithm; "none" alone
 * when c->algos names public-key algorithms only (the guest's --algos
 * none). *ret_buf owns the strings (caller frees it and the returned
 * array); *ret_n gets the count. */
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
			if (pubkey_find(tok) || kdf_find(tok))
				continue;
			for (i = 0; i < n && strcmp(v[i], tok) != 0; i++)
				;
			if (i < n)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = tok;
		}
		if (n == 0) {
			v = xrealloc(v, sizeof(*v));
			v[n++] = "none";
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

/* The names of c->algos that IS_KIND knows, in the order given, joined
 * by ","; "all" without c->algos; NULL when it names none, and for a
 * confirmation run (c->interleave_rounds: it measures the curves it was
 * given). Caller frees. */
static char *run_names(const struct run_config *c,
		       int (*is_kind)(const char *name))
{
	char *copy, *tok, *save = NULL, *s = NULL;

	if (c->interleave_rounds)
		return NULL;
	if (!c->algos)
		return xstrdup("all");
	copy = xstrdup(c->algos);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (is_kind(tok))
			bo_list_add(&s, tok);
	free(copy);
	return s;
}

static int is_pubkey(const char *name)
{
	return pubkey_find(name) != NULL;
}

static int is_kdf(const char *name)
{
	return kdf_find(name) != NULL;
}

/* The public-key algorithms of the run, for the guest's --pubkey
 * (run_names). Caller frees. */
static char *run_pubkey(const struct run_config *c)
{
	return run_names(c, is_pubkey);
}

/* The key derivation functions of the run, for the guest's --kdf
 * (run_names). Caller frees. */
static char *run_kdf(const struct run_config *c)
{
	return run_names(c, is_kdf);
}

/* The reason stored with a run in which every guest ran but none measured
 * anything (status 'failed'). */
#define MEASURED_NOTHING "measured nothing: the libraries asked for are " \
	"absent from the images or support none of the algorithms asked for"

/* Did the N invocations in ST measure nothing (no result, no key setup,
 * counting only the invocations that succeeded)? */
static bool measured_nothing(const struct run_inv *st, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!st[i].error &&
		    st[i].measured > 0)
			return false;
	return true;
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

/* One run in progress: what run_execute's steps share. Everything but
 * c is owned (run_state_release). */
struct run_state {
	const struct run_config *c;
	struct run_open o;	/* CPU, database, the run's row */
	uint64_t seed;		/* the run's order */
	const char **algs;	/* the run's algorithms (run_algorithms) */
	char *algbuf;
	size_t nalgs;
	struct plan plan;
	struct progress pg;
	struct run_dist *dists;	/* per c->specs */
	struct run_inv *st;	/* the invocations so far, ninvs of them */
	size_t ninvs, nok, nfailed, done, nfaults, nstored;
	/* 1: a store failed (disk full): measuring stopped, the run is
	 * marked failed with store_why */
	int store_failed;
	char *store_why;
	char *gov_warn;		/* the governor's and busy siblings'
				 * warnings */
	char *warnings;		/* every CPU warning of the run, or NULL */
	int64_t freq_after;	/* the CPU's scaling frequency at the end,
				 * kHz */
};

/* Open the run (run-open.h) with its seed, say on stderr which run it is
 * and where it is pinned, warn about the governor and busy siblings and
 * store the CPU choice (a failure there is a failed store: nothing is
 * measured). Returns EXIT_OK, or EXIT_ENV (said on stderr). */
static int run_begin(struct run_state *s)
{
	const struct run_config *c = s->c;
	struct run_open_opts oo = {
		.quick = c->quick,
		.seeded = 1,
		.probe_hypervisor = 1,
		.say_errno = 1,
	};
	char *busy_warn;
	bo_err err;
	int rc;

	s->seed = c->seed_set ? c->seed : bo_random_seed();
	oo.seed = s->seed;
	rc = run_open(c, &oo, &s->o);
	if (rc != EXIT_OK)
		return rc;
	/* once a run, also in a log: which run this is and where it is
	 * pinned (--quiet leaves them out) */
	if (!c->quiet)
		fprintf(stderr, "benchorch: run %lld (%s) started, seed %llu\n",
			(long long)s->o.run_id, s->o.uuid,
			(unsigned long long)s->seed);
	s->gov_warn = cpustate_governor_warning(&s->o.cs);
	if (s->gov_warn)
		cli_warn("%s", s->gov_warn);
	if (!c->quiet)
		fprintf(stderr, "benchorch: guests pinned to %s\n",
			s->o.choice.reason);
	/* the first write after the run's row: a database that cannot take
	 * it (disk full) would not take the results either */
	if (db_run_cpu_choice(s->o.db, s->o.run_id, s->o.choice.reason,
			      s->o.choice.siblings, &err) < 0) {
		const char *msg = db_err_reason(&err);

		cli_error("cannot store the choice of cpu %d for run %lld in "
			  "'%s': %s; nothing measured", s->o.choice.cpu,
			  (long long)s->o.run_id, c->db_path, msg);
		s->store_failed = 1;
		s->store_why = xasprintf("cannot store its results: %s "
					 "(nothing measured)", msg);
	}
	busy_warn = cpuchoice_busy_warning(&s->o.choice, "/proc/stat", 200);
	if (busy_warn)
		cli_warn("%s", busy_warn);
	s->gov_warn = join_warnings(s->gov_warn, busy_warn);
	return EXIT_OK;
}

/* Draw the run's plan, tell C->on_progress it is recorded, start the
 * progress lines and make room for the distributions and invocations. */
static void run_make_plan(struct run_state *s)
{
	const struct run_config *c = s->c;
	size_t i;

	s->algs = run_algorithms(c, &s->algbuf, &s->nalgs);
	if (c->interleave_rounds)
		plan_make_interleaved(s->seed, s->algs, s->nalgs,
				      c->interleave_group, c->nspecs,
				      c->interleave_rounds, &s->plan);
	else
		plan_make(s->seed, s->algs, s->nalgs, c->nspecs,
			  c->quick || c->sequential ? PLAN_ROUNDS
						    : PLAN_INTERLEAVED_ROUNDS,
			  c->quick ? PLAN_QUICK_PASSES
			  : c->sequential ? PLAN_PASSES
					  : PLAN_INTERLEAVED_PASSES,
			  &s->plan);
	/* the guest times them after the points of their rounds: each
	 * operation a point the libraries take turns at, or library after
	 * library with --sequential */
	s->plan.pubkey = run_pubkey(c);
	s->plan.kdf = run_kdf(c);
	report_progress(c, s->o.run_id, s->o.uuid, 0, s->plan.nsteps, NULL, 0,
			s->plan.nrounds);
	progress_init(&s->pg, progress_mode_for(c->quiet, stderr), stderr,
		      s->plan.nsteps, s->plan.nrounds,
		      progress_previous_ns(s->o.db, s->o.host, s->o.cmdline,
					   s->o.run_id));
	s->pg.sink = c->progress_sink;
	s->pg.sink_ctx = c->progress_sink_ctx;
	s->dists = xcalloc(c->nspecs, sizeof(*s->dists));
	s->st = xcalloc(c->nspecs + s->plan.nsteps, sizeof(*s->st));
	for (i = 0; i < c->nspecs; i++) {
		s->dists[i].spec = c->specs[i];
		s->dists[i].log_fd = -1;
	}
}

/* Store invocation INV of distribution D, or, when the database refuses
 * it, stop measuring (store_failed, store_why). */
static void run_store(struct run_state *s, struct run_dist *d,
		      struct run_inv *inv)
{
	bo_err err;

	if (run_store_now(s->o.db, s->o.run_id, s->c, d, inv, &err) < 0) {
		s->store_failed = 1;
		s->store_why = run_store_failed_why(s->c, s->o.run_id, d, inv,
						    s->plan.nrounds,
						    s->nstored, &err);
	} else {
		s->nstored++;
	}
}

/* Every image first: building one is not measuring. A distribution
 * whose image or guest cannot be had is said on stderr, stored as a
 * failed invocation and left out of the rounds. */
static void run_prepare_images(struct run_state *s)
{
	const struct run_config *c = s->c;
	char *why = NULL;
	size_t i;

	for (i = 0; i < c->nspecs && !bo_interrupted && !s->store_failed;
	     i++) {
		struct run_inv *inv;

		if (run_dist_prepare(c, s->o.uuid, &s->dists[i], &why) == 0)
			continue;
		inv = &s->st[s->ninvs++];
		guest_output_init(&inv->out);
		bo_utc_now(inv->started_at, sizeof(inv->started_at));
		inv->runner = "";
		inv->dist = i;
		inv->error = why;
		why = NULL;
		s->dists[i].failed = 1;
		s->nfailed++;
		if (!bo_interrupted)
			cli_error("%s: %s", c->specs[i], inv->error);
		run_store(s, &s->dists[i], inv);
	}
}

/* The plan's steps, one guest invocation each. Each invocation is stored
 * when it ends, in a transaction of its own: a store that fails (disk
 * full) stops the run there, losing only that invocation, not the
 * rounds measured before it. A distribution whose guest fails is left
 * out of its remaining rounds. */
static void run_measure(struct run_state *s)
{
	const struct run_config *c = s->c;
	const struct plan *p = &s->plan;
	size_t i;

	for (i = 0; i < p->nsteps && !bo_interrupted && !s->store_failed;
	     i++, s->done++) {
		const struct plan_step *step = &p->steps[i];
		struct run_dist *d = &s->dists[step->spec];
		struct run_inv *inv;
		int failed;

		if (d->failed || !d->image)
			continue;
		report_progress(c, s->o.run_id, s->o.uuid, s->done, p->nsteps,
				d->spec, step->round + 1, p->nrounds);
		inv = &s->st[s->ninvs++];
		inv->dist = step->spec;
		progress_begin(&s->pg, d->spec, step->round + 1);
		failed = run_invoke(c, p, step, d, s->o.choice.cpu, inv,
				    &s->pg) < 0;
		progress_end(&s->pg, d->spec, step->round + 1, inv->wall_ns,
			     inv->out.nresults, run_count_noisy(&inv->out,
					     c->max_cv[0] != 0),
			     failed);
		if (!failed) {
			s->nok++;
			s->nfaults += run_report_faults(d, p, inv);
			inv->measured = inv->out.nresults + inv->out.nkeysetups +
				       inv->out.npkresults +
				       inv->out.nkdfresults;
		} else {
			d->failed = 1;
			s->nfailed++;
			if (!bo_interrupted)
				cli_error("%s: round %d of %zu: %s%s", d->spec,
					  inv->round, p->nrounds, inv->error,
					  (size_t)inv->round < p->nrounds ?
					  "; its remaining rounds are skipped" :
					  "");
		}
		run_store(s, d, inv);
	}
}

/* Read the CPU again after the run: warn when its scaling frequency
 * moved or the clocks the stored guests measured spread, and store the
 * state after (not when a store failed already: such a database is
 * written no more than needed to mark the run failed). */
static void run_check_cpu(struct run_state *s)
{
	int cpu = s->o.choice.cpu;
	char *freq_warn, *clock_warn;
	int64_t *hz;
	size_t i;
	bo_err err;

	s->freq_after = cpustate_freq_khz(s->o.sysfs, cpu);
	freq_warn = cpustate_freq_warning(cpu, s->o.cs.freq_khz, s->freq_after);
	if (freq_warn)
		cli_warn("%s", freq_warn);
	hz = xcalloc(2 * s->ninvs + 1, sizeof(*hz));
	/* only invocations that are stored: a failed one's readings are not
	 * believed */
	for (i = 0; i < s->ninvs; i++) {
		if (s->st[i].error || !s->st[i].stored)
			continue;
		hz[2 * i] = s->st[i].out.clock_start_hz;
		hz[2 * i + 1] = s->st[i].out.clock_end_hz;
	}
	clock_warn = cpustate_clock_warning(cpu, hz, 2 * s->ninvs);
	free(hz);
	if (clock_warn)
		cli_warn("%s", clock_warn);
	s->warnings = join_warnings(join_warnings(s->gov_warn, freq_warn),
				    clock_warn);
	s->gov_warn = NULL;	/* in warnings now */
	if (!s->store_failed &&
	    db_run_cpu_after(s->o.db, s->o.run_id, s->freq_after, s->warnings,
			     &err) < 0)
		cli_warn("cannot store the state of cpu %d after run %lld: %s",
			 cpu, (long long)s->o.run_id, err.msg);
}

/* What became of the run: its status in *STATUS (static), the reason to
 * store with it in *WHY (NULL or owned by the caller; store_why is
 * taken), said on stderr where it needs saying. Returns its exit
 * status. */
static int run_outcome(struct run_state *s, const char **status, char **why)
{
	int rc = EXIT_OK;

	*why = NULL;
	if (s->store_failed) {
		*status = "failed";
		/* the database could not be written: an environment error,
		 * unless the user's signal stopped the run too (its exit
		 * status says so; the run keeps the store's reason) */
		rc = bo_interrupted ? cli_interrupted_status(bo_interrupted) :
		     EXIT_ENV;
		*why = s->store_why;
		s->store_why = NULL;
	} else if (bo_interrupted) {
		*status = "aborted";
		rc = cli_interrupted_status(bo_interrupted);
		cli_error("interrupted by signal %d: run %lld stored as aborted",
			  (int)bo_interrupted, (long long)s->o.run_id);
		*why = xasprintf("interrupted by signal %d",
				 (int)bo_interrupted);
	} else if (s->nfailed) {
		*status = "failed";
		rc = EXIT_FAILED;
		*why = xasprintf("%zu of %zu distributions failed", s->nfailed,
				 s->c->nspecs);
	} else if (s->nok > 0 && measured_nothing(s->st, s->ninvs)) {
		*status = "failed";
		rc = EXIT_FAILED;
		*why = xstrdup(MEASURED_NOTHING);
		cli_error("run %lld %s", (long long)s->o.run_id, *why);
	} else {
		*status = "done";
		/* a library that failed: the run is stored, its other
		 * results are good, but something in it failed */
		if (s->nfaults)
			rc = EXIT_FAILED;
	}
	return rc;
}

/* Store the run's end: its status (run_outcome) and reason. The
 * invocations are stored already: the package changes of the stored ones
 * and the status are left. A run whose store failed is marked failed
 * with one small UPDATE (no package changes: a full disk takes as little
 * as can be); should even that fail, the run stays 'running' until the
 * next run on this host marks it aborted (db_reap_stale_runs). Sets *RC
 * to EXIT_ENV when the end could not be stored. Returns 1 when the run
 * is stored in full (db_run_finish), else 0. */
static int run_store_end(struct run_state *s, int *rc)
{
	const struct run_config *c = s->c;
	const char *status;
	char *why;
	bo_err err;
	int stored;

	*rc = run_outcome(s, &status, &why);
	stored = !s->store_failed &&
		 db_run_finish(s->o.db, s->o.run_id, status, why, NULL, 0,
			       &err) == 0;
	if (!s->store_failed && !stored) {
		cli_error("cannot store run %lld in '%s': %s (its %zu "
			  "invocation%s stored before kept)",
			  (long long)s->o.run_id, c->db_path,
			  db_err_reason(&err), s->nstored,
			  s->nstored == 1 ? "" : "s");
		free(why);
		why = xasprintf("cannot store its end: %s", db_err_reason(&err));
		/* the database could not be written: an environment error */
		*rc = EXIT_ENV;
	}
	if (!stored &&
	    db_run_set_status(s->o.db, s->o.run_id, "failed", why, &err) < 0)
		cli_error("cannot mark run %lld failed in '%s': %s (the next "
			  "run marks it aborted)", (long long)s->o.run_id,
			  c->db_path, db_err_reason(&err));
	free(why);
	return stored;
}

/* Say on stderr the run's order and the CPU's state, whatever became of
 * the run, and tell C->on_progress it ended. */
static void run_say_end(struct run_state *s)
{
	const struct run_config *c = s->c;
	char *state;

	/* a confirmation's specs are images x library groups: one guest
	 * invocation each a round */
	fprintf(stderr, "benchorch: run %lld: seed %llu ('--seed %llu' repeats its order), %zu round%s x %zu %s%s, guests pinned to cpu %d\n",
		(long long)s->o.run_id, (unsigned long long)s->seed,
		(unsigned long long)s->seed, s->plan.nrounds,
		s->plan.nrounds == 1 ? "" : "s", c->nspecs,
		c->spec_libs ? "invocation" : "distribution",
		c->nspecs == 1 ? "" : "s", s->o.choice.cpu);
	state = cpustate_describe(&s->o.cs, s->freq_after);
	fprintf(stderr, "benchorch: %s%s\n", state,
		s->warnings ? " (numbers may have drifted, see the warnings)" :
		"");
	free(state);
	report_progress(c, s->o.run_id, s->o.uuid, s->done, s->plan.nsteps,
			NULL, 0, s->plan.nrounds);
}

/* Free what S holds (not S): invocations, distributions, plan, the
 * opened run. */
static void run_state_release(struct run_state *s)
{
	size_t i;

	for (i = 0; i < s->ninvs; i++) {
		guest_output_release(&s->st[i].out);
		free(s->st[i].error);
	}
	for (i = 0; i < s->c->nspecs; i++) {
		image_free(s->dists[i].image);
		free(s->dists[i].musl_guest);
		builds_list_free(s->dists[i].builds, s->dists[i].nbuilds);
		free(s->dists[i].logpath);
		if (s->dists[i].log_fd >= 0)
			close(s->dists[i].log_fd);
	}
	free(s->dists);
	free(s->st);
	free(s->store_why);
	free(s->gov_warn);
	free(s->warnings);
	free(s->algs);
	free(s->algbuf);
	plan_release(&s->plan);
	run_open_release(&s->o);
}

int run_execute(const struct run_config *c)
{
	struct run_state s = { .c = c };
	bo_err err;
	int rc, stored;

	rc = run_begin(&s);
	if (rc != EXIT_OK)
		return rc;
	run_make_plan(&s);
	run_prepare_images(&s);
	run_measure(&s);
	run_check_cpu(&s);
	stored = run_store_end(&s, &rc);
	if (stored && s.nok > 0 && !bo_interrupted) {
		int rrc = run_report_stored(s.o.db, c, s.o.run_id);

		if (rrc != EXIT_OK)
			rc = rrc;
	}
	/* the daemon logs the changes itself */
	if (stored && !bo_interrupted && !c->no_summary &&
	    summary_package_changes(stderr, s.o.db, s.o.run_id, &err) < 0)
		cli_warn("cannot list the package changes of run %lld: %s",
			 (long long)s.o.run_id, err.msg);
	run_say_end(&s);
	run_state_release(&s);
	return rc;
}
