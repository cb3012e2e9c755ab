/* confirm.c - measure again what looks changed, previous and new image
 * in alternating rounds and side by side in a duet (see confirm.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/confirmations.h"
#include "db/db.h"
#include "images/image.h"
#include "images/previous.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "orchestrator/results/latest-pick.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-curves.h"
#include "orchestrator/run/confirm-duet.h"
#include "orchestrator/run/confirm-summary.h"
#include "orchestrator/run/confirm-targets.h"
#include "orchestrator/run/duet.h"
#include "orchestrator/run/plan-interleave.h"
#include "orchestrator/run/run.h"

struct confirm_state {
	const struct confirm_config *cc;
	sqlite3 *db;
	int64_t confirmed, run_id;
	struct confirm_target *t;
	size_t nt;
	int record_failed;
	int nohw;		/* measure with --nohw: given, or the
				 * confirmed run measured variant 'nohw' */
	int sequential;		/* the libraries one after the other: the
				 * confirmed run was made --sequential */
	/* the guests' settings: given (cc), else the confirmed run's */
	int quick;
	uint64_t min_batch_ns;	/* 0 = the guests' default */
	unsigned repetitions;	/* 0 = the guests' default */
	int max_reruns_set;
	unsigned max_reruns;
	int argc;		/* cc's command line and the settings taken
				 * from the run: what the run records */
	char **argv;		/* owned; its strings borrowed, or in own */
	char *own[3];		/* owned values added to argv */
};

/* Say on stderr that the database DB at PATH could not be read:
 * "database error in 'PATH': MESSAGE". */
static void db_error(sqlite3 *db, const char *path)
{
	cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
}

/* Whether RUN in DB (at PATH) is a run to confirm: not itself a
 * confirmation (it measured curves of another run) and not a tool run
 * (run --tools: tool_results and no library results, no curve). Returns
 * 0, or -1 after saying on stderr why not (a usage error) or that the
 * database could not tell (*env set). */
static int check_confirmable(sqlite3 *db, const char *path, int64_t run,
			     int *env)
{
	sqlite3_stmt *st;
	int rc, is_conf = 0;
	int64_t of = 0;
	char sql[320];
	long long tools, results;

	*env = 1;
	if (sqlite3_prepare_v2(db, "SELECT confirmed_run_id FROM confirmations"
			       " WHERE run_id = ?1 ORDER BY confirmed_run_id"
			       " IS NULL LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
		db_error(db, path);
		return -1;
	}
	sqlite3_bind_int64(st, 1, run);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		is_conf = 1;
		of = sqlite3_column_type(st, 0) == SQLITE_NULL ? 0 :
		     sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_error(db, path);
		return -1;
	}
	*env = 0;
	if (is_conf) {
		/* usage errors, said as the command's own */
		if (of > 0)
			cli_usage_error("confirm", "run %lld is itself a confirmation (of run %lld)",
					(long long)run, (long long)of);
		else
			cli_usage_error("confirm", "run %lld is itself a confirmation (of a run the database no longer holds)",
					(long long)run);
		return -1;
	}
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM invocations i JOIN"
		 " tool_results t ON t.invocation_id = i.id WHERE i.run_id = %lld",
		 (long long)run);
	tools = db_query_int(db, sql);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM invocations i JOIN"
		 " results r ON r.invocation_id = i.id WHERE i.run_id = %lld",
		 (long long)run);
	/* each count checked before the next query replaces the message */
	results = tools < 0 ? -1 : db_query_int(db, sql);
	if (results < 0) {
		db_error(db, path);
		*env = 1;
		return -1;
	}
	if (tools > 0 && results == 0) {
		cli_usage_error("confirm", "run %lld is a tool run (run --tools): nothing to confirm",
				(long long)run);
		return -1;
	}
	return 0;
}

/* Whether target T has something to confirm: its image, and curves to
 * measure again or libraries whose package changed (a duet). */
static int has_work(const struct confirm_target *t)
{
	return t->img && (t->ncurves || t->duet_libs);
}

/* Record (or complete) the confirmation of every target with work; a
 * target that is only a duet gets its previous image's row first (a
 * previous no run measured has none). */
static int record(struct confirm_state *s, bo_err *err)
{
	size_t i;

	for (i = 0; i < s->nt; i++) {
		struct confirm_target *t = &s->t[i];
		struct db_confirmation c = {
			.distro = t->distro,
			.release = t->release,
			.digest = t->digest,
			.previous_digest = t->prev ? t->prev->digest : NULL,
			.curves = t->dbc,
			.ncurves = t->ncurves,
		};

		if (!has_work(t))
			continue;
		if (!t->ncurves && t->prev &&
		    confirm_image_row(s->db, t->prev, err) < 0)
			return -1;
		if (db_confirmation_record(s->db, s->run_id, s->confirmed, &c,
					   err) < 0)
			return -1;
	}
	return 0;
}

/* run_config.on_progress: the run is recorded; say what it confirms
 * before its guests start. */
static void on_progress(void *ctx, const struct run_progress *p)
{
	struct confirm_state *s = ctx;
	bo_err err;

	if (s->run_id || p->spec)
		return;
	s->run_id = p->run_id;
	if (record(s, &err) < 0) {
		cli_error("cannot record what run %lld confirms: %s",
			  (long long)p->run_id, err.msg);
		s->record_failed = 1;
	}
}

/* The curves that look changed in run RUN (none without an earlier run
 * to compare with): CC->changed when CC->changed_known (*RET stays NULL,
 * *USE borrows them), else found now into *RET (owned by the caller,
 * confirm_curves_free) with *USE pointing at them. */
static int changed_curves(sqlite3 *db, const struct confirm_config *cc,
			  int64_t run, struct confirm_curve **ret,
			  const struct confirm_curve **use, size_t *ret_n,
			  bo_err *err)
{
	int quiet = cc->quiet;
	int64_t base;

	*ret = NULL;
	*use = NULL;
	*ret_n = 0;
	if (cc->changed_known) {
		*use = cc->changed;
		*ret_n = cc->nchanged;
		return 0;
	}
	base = confirm_base_run(db, run);
	if (base < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (base == 0) {
		if (!quiet)
			fprintf(stderr, "benchorch: run %lld has no earlier run of its distributions to compare with\n",
				(long long)run);
		return 0;
	}
	if (confirm_changed_curves(db, base, run, ret, ret_n, err) < 0)
		return -1;
	*use = *ret;
	if (!quiet)
		fprintf(stderr, "benchorch: curves of run %lld that look changed against run %lld: %zu\n",
			(long long)run, (long long)base, *ret_n);
	return 0;
}

/* Measure the targets: one run, previous and new in alternating rounds.
 * A group per target and library: the library's guest is asked only for
 * the algorithms of its curves (the guest measures every library given
 * with every algorithm given). */
static int measure(struct confirm_state *s)
{
	const struct confirm_config *cc = s->cc;
	struct run_config c;
	size_t cap = 1, i, k, j, n = 0, ng = 0, nimg = 0, nprev = 0;
	char **specs, **algs_owned, *libs = NULL, *algos = NULL;
	const char **slibs, **salgos;
	size_t *group;
	int rc;

	for (i = 0; i < s->nt; i++)
		cap += 2 * s->t[i].ncurves;
	specs = xcalloc(cap, sizeof(char *));
	slibs = xcalloc(cap, sizeof(char *));
	salgos = xcalloc(cap, sizeof(char *));
	algs_owned = xcalloc(cap, sizeof(char *));
	group = xcalloc(cap, sizeof(size_t));
	for (i = 0; i < s->nt; i++) {
		struct confirm_target *t = &s->t[i];

		if (!t->ncurves || !t->img)
			continue;
		nimg++;
		nprev += t->prev != NULL;
		for (k = 0; k < t->ncurves; k++) {
			char *la = NULL;
			const char *lib = t->curves[k].library;

			for (j = 0; j < k && strcmp(t->curves[j].library, lib); j++)
				;
			if (j < k)	/* the library's group is made */
				continue;
			for (j = k; j < t->ncurves; j++)
				if (!strcmp(t->curves[j].library, lib))
					bo_list_add(&la, t->curves[j].algorithm);
			bo_list_add(&libs, lib);
			for (j = k; j < t->ncurves; j++)
				if (!strcmp(t->curves[j].library, lib))
					bo_list_add(&algos, t->curves[j].algorithm);
			algs_owned[ng] = la;
			specs[n] = t->name;	/* as the run named it */
			slibs[n] = lib;
			salgos[n] = la;
			group[n++] = ng;
			if (t->prev) {
				specs[n] = t->prev->name;
				slibs[n] = lib;
				salgos[n] = la;
				group[n++] = ng;
			}
			ng++;
		}
	}
	memset(&c, 0, sizeof(c));
	c.specs = specs;
	c.nspecs = n;
	c.distros = "";
	c.state_dir = (char *)cc->state_dir;
	c.db_path = (char *)cc->db_path;
	c.data_dir = (char *)cc->data_dir;
	c.guest = (char *)cc->guest;
	c.kind = cc->kind;
	c.quick = s->quick;
	c.nohw = s->nohw;
	c.sequential = s->sequential;
	c.min_batch_ns = s->min_batch_ns;
	c.repetitions = s->repetitions;
	c.max_reruns_set = s->max_reruns_set;
	c.max_reruns = s->max_reruns;
	c.libs = libs;
	c.algos = algos;
	c.spec_libs = slibs;
	c.spec_algos = salgos;
	c.seed_set = cc->seed_set;
	c.seed = cc->seed;
	c.timeout_s = cc->timeout_s;
	c.format = cc->format;
	c.argc = s->argc;
	c.argv = s->argv;
	c.no_summary = 1;
	c.quiet = cc->quiet;
	c.progress_sink = cc->progress_sink;
	c.progress_sink_ctx = cc->progress_sink_ctx;
	/* without a previous image, two rounds: a curve disturbed in one
	 * (its canary moved) is judged by the other */
	c.interleave_rounds = cc->rounds ? cc->rounds :
			      nprev ? PLAN_INTERLEAVE_ROUNDS : 2;
	c.interleave_group = group;
	c.on_progress = on_progress;
	c.progress_ctx = s;
	if (!cc->quiet)
		fprintf(stderr, "benchorch: confirming run %lld: %zu image%s (%zu with its previous), libraries %s, algorithms %s, %zu round%s of %zu invocation%s\n",
			(long long)s->confirmed, nimg, nimg == 1 ? "" : "s",
			nprev, libs, algos, c.interleave_rounds,
			c.interleave_rounds == 1 ? "" : "s", n, n == 1 ? "" : "s");
	rc = run_execute(&c);
	for (i = 0; i < ng; i++)
		free(algs_owned[i]);
	free(algs_owned);
	free(specs);
	free(slibs);
	free(salgos);
	free(group);
	free(libs);
	free(algos);
	return rc;
}

/* After the run: complete the record and delete the previous images of a
 * run stored 'done'; keep them otherwise (also when its status cannot be
 * read). Returns 0, or -1 after saying on stderr that the database could
 * not be read. */
static int finish(struct confirm_state *s)
{
	char *status = NULL;
	sqlite3_stmt *st;
	size_t i;
	bo_err err;
	int done, rc = 0, step = SQLITE_ERROR;

	if (!s->run_id)
		return 0;
	if (record(s, &err) < 0)
		cli_warn("cannot complete what run %lld confirms: %s",
			 (long long)s->run_id, err.msg);
	if (sqlite3_prepare_v2(s->db, "SELECT status FROM runs WHERE id = ?1",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, s->run_id);
		step = sqlite3_step(st);
		if (step == SQLITE_ROW)
			status = db_column_dup_or_empty(st, 0);
		sqlite3_finalize(st);
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		rc = -1;
		cli_error("cannot read the status of confirmation run %lld in '%s': %s",
			  (long long)s->run_id, s->cc->db_path,
			  sqlite3_errmsg(s->db));
	}
	done = status && !strcmp(status, "done") && !s->record_failed;
	for (i = 0; i < s->nt; i++) {
		struct confirm_target *t = &s->t[i];

		if (!t->prev || !has_work(t))
			continue;
		if (done && !t->ncurves && !t->duet_id) {
			/* only a duet, and it failed: nothing confirmed */
			cli_warn("%s: no duet of the previous and the new image: the previous image '%s' is kept for a later confirmation",
				 t->spec, t->prev->name);
			continue;
		}
		if (!done) {
			cli_warn("%s: confirmation run %lld is %s: the previous image '%s' is kept for a later confirmation",
				 t->spec, (long long)s->run_id,
				 status ? status : "unknown", t->prev->name);
			continue;
		}
		if (confirm_target_remove_previous(s->cc, t) == 0) {
			if (!s->cc->quiet)
				fprintf(stderr, "benchorch: %s: confirmed in run %lld; removed the previous image '%s'\n",
					t->spec, (long long)s->run_id,
					t->prev->name);
			if (db_confirmation_previous_removed(s->db, s->run_id,
							     t->distro,
							     t->release,
							     &err) < 0)
				cli_warn("%s", err.msg);
		}
	}
	free(status);
	return rc;
}

/* S's guest settings: those CC gives, the others as the confirmed run
 * measured (its quick flag; --nohw when it measured variant 'nohw';
 * --sequential when its command line has it; the
 * --min-batch-ms, --repetitions and --max-reruns of its stored command
 * line, a value that does not parse left at the default). S's command
 * line is CC's with the settings taken from the run added, so that the
 * confirmation's stored command line says how it measured. Returns 0, or
 * -1 after saying on stderr that the database could not be read (S is
 * then left as it was). */
static int run_settings(struct confirm_state *s)
{
	const struct confirm_config *cc = s->cc;
	sqlite3_stmt *st;
	char *cmd = NULL, *v;
	int quick = 0, nohw = 0, rc;
	bo_err err;

	if (sqlite3_prepare_v2(s->db, "SELECT quick, command_line, EXISTS"
			       " (SELECT 1 FROM invocations WHERE run_id = ?1"
			       " AND variant = 'nohw') FROM runs WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK) {
		db_error(s->db, cc->db_path);
		return -1;
	}
	sqlite3_bind_int64(st, 1, s->confirmed);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		quick = sqlite3_column_int(st, 0);
		cmd = db_column_dup_or_empty(st, 1);
		nohw = sqlite3_column_int(st, 2);
	} else if (rc != SQLITE_DONE) {
		db_error(s->db, cc->db_path);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	/* a --nohw run is measured again with --nohw */
	s->nohw = cc->nohw || nohw;
	s->argv = xmalloc(((size_t)cc->argc + 10) * sizeof(char *));
	for (s->argc = 0; s->argc < cc->argc; s->argc++)
		s->argv[s->argc] = cc->argv[s->argc];
	if (!cc->nohw && nohw)	/* said in its stored command line */
		s->argv[s->argc++] = "--nohw";
	/* a --sequential run is measured again one library after the
	 * other, as it was */
	s->sequential = bo_cmdline_flag(cmd, "--sequential");
	if (s->sequential)
		s->argv[s->argc++] = "--sequential";
	s->quick = cc->quick;
	if (!cc->quick && quick) {
		s->quick = 1;
		s->argv[s->argc++] = "--quick";
	}
	s->min_batch_ns = cc->min_batch_ns;
	if (!s->min_batch_ns && cmd &&
	    (v = bo_cmdline_option(cmd, "--min-batch-ms")) != NULL) {
		if (cli_parse_min_batch_ms(v, &s->min_batch_ns, &err) == 0) {
			s->argv[s->argc++] = "--min-batch-ms";
			s->argv[s->argc++] = s->own[0] = v;
		} else {
			free(v);
		}
	}
	s->repetitions = cc->repetitions;
	if (!s->repetitions && cmd &&
	    (v = bo_cmdline_option(cmd, "--repetitions")) != NULL) {
		if (cli_parse_repetitions(v, &s->repetitions, &err) == 0) {
			s->argv[s->argc++] = "--repetitions";
			s->argv[s->argc++] = s->own[1] = v;
		} else {
			free(v);
		}
	}
	s->max_reruns_set = cc->max_reruns_set;
	s->max_reruns = cc->max_reruns;
	if (!s->max_reruns_set && cmd &&
	    (v = bo_cmdline_option(cmd, "--max-reruns")) != NULL) {
		if (cli_parse_max_reruns(v, &s->max_reruns, &err) == 0) {
			s->max_reruns_set = 1;
			s->argv[s->argc++] = "--max-reruns";
			s->argv[s->argc++] = s->own[2] = v;
		} else {
			free(v);
		}
	}
	s->argv[s->argc] = NULL;
	free(cmd);
	return 0;
}

/* Find the images of S's targets and pick their curves: the NGIVEN at
 * GIVEN (for every distribution) when GIVEN is not NULL, else those of
 * the NCHANGED at USE for the target's distribution; and, where a
 * previous image is kept, the libraries whose package changed (a duet
 * of them runs whatever looks changed). A target whose image is there
 * with nothing to do has served: its previous image is removed (said on
 * stderr unless quiet). Returns how many targets have work, or -1 after
 * saying on stderr that the database could not be read. */
static long pick_work(struct confirm_state *s,
		      const struct confirm_curve *given, size_t ngiven,
		      const struct confirm_curve *use, size_t nchanged)
{
	const struct confirm_config *cc = s->cc;
	long nwork = 0;
	bo_err err;

	for (size_t i = 0; i < s->nt; i++) {
		struct confirm_target *t = &s->t[i];

		confirm_target_find_images(cc, s->confirmed, t);
		confirm_target_pick_curves(t, given, ngiven, use, nchanged);
		if (confirm_duet_libraries(s->db, s->confirmed, t, &err) < 0) {
			cli_error("%s in '%s'", err.msg, cc->db_path);
			return -1;
		}
		if (has_work(t)) {
			if (!t->ncurves && !cc->quiet)
				fprintf(stderr, "benchorch: %s: no curve looks changed, but the package of %s changed: a duet of the previous and the new image decides\n",
					t->spec, t->duet_libs);
			nwork++;
			continue;
		}
		/* nothing looks changed: the previous has served */
		if (t->img && t->prev &&
		    confirm_target_remove_previous(cc, t) == 0 &&
		    !cc->quiet)
			fprintf(stderr, "benchorch: %s: no curve looks changed; removed the previous image '%s'\n",
				t->spec, t->prev->name);
	}
	return nwork;
}

/* Whether any of S's targets has curves to measure in alternating
 * rounds (else the confirmation is its duets alone). */
static int any_curves(const struct confirm_state *s)
{
	for (size_t i = 0; i < s->nt; i++)
		if (s->t[i].img && s->t[i].ncurves)
			return 1;
	return 0;
}

/* Whether the image of any of S's targets is gone (its run measured an
 * image no longer there: not confirmed, exit EXIT_ENV). */
static int gone(const struct confirm_state *s)
{
	for (size_t i = 0; i < s->nt; i++)
		if (s->t[i].gone)
			return 1;
	return 0;
}

/* A confirmation that is its duets alone: its run recorded with what it
 * confirms, the duets (each printing its verdicts as the summary), the
 * run's status. Returns an exit status (confirm_duet_only_finish), or
 * EXIT_ENV when the run could not be recorded. */
static int duets_only(struct confirm_state *s)
{
	bo_err err;
	int rc;

	rc = confirm_duet_only_open(s->cc, s->quick, s->argc, s->argv,
				    &s->run_id);
	if (rc != EXIT_OK)
		return rc;
	if (record(s, &err) < 0) {
		cli_error("cannot record what run %lld confirms: %s",
			  (long long)s->run_id, err.msg);
		s->record_failed = 1;
	}
	if (!s->cc->quiet)
		fprintf(stderr, "benchorch: confirming run %lld in run %lld: no curve to measure again in rounds, a duet of each previous and new image\n",
			(long long)s->confirmed, (long long)s->run_id);
	if (!s->record_failed)
		confirm_duets(s->cc, s->t, s->nt, s->run_id, s->quick, s->nohw,
			      1);
	return confirm_duet_only_finish(s->cc, s->run_id, s->t, s->nt);
}

int confirm_execute(const struct confirm_config *cc, int64_t *ret_run_id)
{
	struct confirm_state s = { .cc = cc };
	struct confirm_curve *given = NULL, *changed = NULL;
	const struct confirm_curve *use = NULL;
	size_t ngiven = 0, nchanged = 0, i;
	long nwork;
	bo_err err;
	int rc = EXIT_OK, env, known, rounds;

	*ret_run_id = 0;
	if (cc->curves && confirm_curves_parse(cc->curves, NULL, &given,
					       &ngiven, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_USAGE;
	}
	if (db_open(cc->db_path, &s.db, &err) < 0) {
		cli_error("%s", err.msg);
		confirm_curves_free(given, ngiven);
		return EXIT_ENV;
	}
	s.confirmed = cc->run_id ? cc->run_id :
		      latest_pick(s.db, DB_RUN_LIBRARY);
	if (s.confirmed < 0) {
		db_error(s.db, cc->db_path);
		rc = EXIT_ENV;
		goto out;
	}
	if (s.confirmed == 0) {
		cli_error("no finished run to confirm in '%s'", cc->db_path);
		rc = EXIT_USAGE;
		goto out;
	}
	known = cc->run_id ? db_run_exists(s.db, cc->run_id) : 1;
	if (known < 0) {
		db_error(s.db, cc->db_path);
		rc = EXIT_ENV;
		goto out;
	}
	if (known == 0) {
		/* removed while the run lock was awaited: said as
		 * every command says it */
		rc = cli_usage_error("confirm", "no run %lld in '%s'",
				     (long long)cc->run_id, cc->db_path);
		goto out;
	}
	if (check_confirmable(s.db, cc->db_path, s.confirmed, &env) < 0) {
		rc = env ? EXIT_ENV : EXIT_USAGE;
		goto out;
	}
	/* a run that did not finish (aborted, failed) has part of its
	 * curves: what looks changed is judged on those, as compare does,
	 * and said */
	cli_warn_partial_run(s.db, s.confirmed);
	if (confirm_targets_load(s.db, cc->data_dir, s.confirmed, &s.t,
				 &s.nt, &err) < 0) {
		cli_error("%s in '%s'", err.msg, cc->db_path);
		rc = EXIT_ENV;
		goto out;
	}
	if (!s.nt) {
		cli_error("run %lld measured no image: nothing to confirm",
			  (long long)s.confirmed);
		rc = EXIT_USAGE;
		goto out;
	}
	if (run_settings(&s) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (!given && changed_curves(s.db, cc, s.confirmed, &changed, &use,
				     &nchanged, &err) < 0) {
		cli_error("%s in '%s'", err.msg, cc->db_path);
		rc = EXIT_ENV;
		goto out;
	}
	nwork = pick_work(&s, given, ngiven, use, nchanged);
	if (nwork < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (!nwork) {
		if (!cc->quiet && !gone(&s))
			fprintf(stderr, "benchorch: run %lld: nothing to confirm\n",
				(long long)s.confirmed);
		goto out;
	}
	rounds = any_curves(&s);
	if (rounds) {
		rc = measure(&s);
		if (rc == EXIT_OK)
			confirm_duets(cc, s.t, s.nt, s.run_id, s.quick, s.nohw,
				      0);
	} else {
		rc = duets_only(&s);
	}
	if (finish(&s) < 0 && rc == EXIT_OK)
		rc = EXIT_ENV;
	*ret_run_id = s.run_id;
	if (s.record_failed && rc == EXIT_OK)
		rc = EXIT_ENV;
	if (s.run_id && rounds && !cc->no_summary && !bo_interrupted &&
	    confirm_summary_print(stdout, s.db, s.run_id, cc->format,
				  &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_FAILED;
	}
out:
	/* an image the run measured is gone: an environment problem */
	if (rc == EXIT_OK && s.t && gone(&s))
		rc = EXIT_ENV;
	confirm_curves_free(given, ngiven);
	if (changed)
		confirm_curves_free(changed, nchanged);
	confirm_targets_free(s.t, s.nt);
	free(s.argv);
	for (i = 0; i < 3; i++)
		free(s.own[i]);
	sqlite3_close(s.db);
	return rc;
}
