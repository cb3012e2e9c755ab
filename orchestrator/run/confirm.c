/* confirm.c - measure again what looks changed, previous and new image
 * in alternating rounds (see confirm.h). */
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
#include "orchestrator/results/runstate.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-curves.h"
#include "orchestrator/run/confirm-summary.h"
#include "orchestrator/run/plan-interleave.h"
#include "orchestrator/run/run.h"

/* A distribution of the run being confirmed. */
struct target {
	char *distro, *release, *digest;	/* as the run measured it */
	char *spec;				/* "distro:release" */
	struct image *img;		/* its image now, or NULL */
	struct image *prev;		/* its kept previous, or NULL */
	struct confirm_curve *curves;	/* to measure again */
	size_t ncurves;
	struct db_confirm_curve *dbc;	/* the same, for the database */
};

struct confirm_state {
	const struct confirm_config *cc;
	sqlite3 *db;
	int64_t confirmed, run_id;
	struct target *t;
	size_t nt;
	int record_failed;
	int nohw;		/* measure with --nohw: given, or the
				 * confirmed run measured variant 'nohw' */
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

/* The latest run that finished and is neither a confirmation nor a
 * tool run (run --tools); 0 = none, -1 on a database error. */
static int64_t latest_run(sqlite3 *db)
{
	return db_query_int(db, "SELECT coalesce(max(id), 0) FROM runs r WHERE"
			    " status = 'done' AND id NOT IN"
			    " (SELECT run_id FROM confirmations) AND NOT EXISTS"
			    " (SELECT 1 FROM invocations i JOIN tool_results t"
			    " ON t.invocation_id = i.id WHERE i.run_id = r.id)");
}

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
		if (of > 0)
			cli_error("run %lld is itself a confirmation (of run %lld)",
				  (long long)run, (long long)of);
		else
			cli_error("run %lld is itself a confirmation (of a run the database no longer holds)",
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
		cli_error("run %lld is a tool run (run --tools): nothing to confirm",
			  (long long)run);
		return -1;
	}
	return 0;
}

/* The distributions RUN measured (an image and a guest that ran). */
static int load_targets(sqlite3 *db, int64_t run, struct target **ret,
			size_t *ret_n, bo_err *err)
{
	sqlite3_stmt *st;
	struct target *v = NULL;
	size_t n = 0;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT im.distro, im.release,"
			       " im.digest FROM invocations inv JOIN images im"
			       " ON im.id = inv.image_id WHERE inv.run_id = ?1"
			       " AND inv.status = 'ok' ORDER BY 1, 2, 3", -1,
			       &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		memset(&v[n], 0, sizeof(*v));
		v[n].distro = db_column_dup_or_empty(st, 0);
		v[n].release = db_column_dup_or_empty(st, 1);
		v[n].digest = db_column_dup_or_empty(st, 2);
		v[n].spec = xasprintf("%s:%s", v[n].distro, v[n].release);
		n++;
	}
	sqlite3_finalize(st);
	*ret = v;
	*ret_n = n;
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* Find T's image under STATE_DIR (the one with its distro and release,
 * not a previous) and the previous kept beside it. Says on stderr why
 * when there is none or it changed since the run. */
static void find_images(const struct confirm_config *cc, int64_t run,
			struct target *t)
{
	struct image **v;
	size_t n, i;
	bo_err err;

	if (image_list(cc->state_dir, &v, &n, &err) < 0) {
		cli_warn("%s", err.msg);
		return;
	}
	for (i = 0; i < n && !t->img; i++)
		if (!v[i]->previous && !strcmp(v[i]->distro, t->distro) &&
		    !strcmp(v[i]->release, t->release) &&
		    !strcmp(v[i]->digest, t->digest)) {
			t->img = v[i];
			v[i] = NULL;
		}
	image_list_free(v, n);
	if (!t->img) {
		cli_warn("%s: the image run %lld measured is gone or was "
			 "rebuilt since; not confirmed", t->spec,
			 (long long)run);
		return;
	}
	if (image_previous_find(t->img, &t->prev, &err) < 0)
		cli_warn("%s: cannot read its previous image: %s", t->spec,
			 err.msg);
}

/* The curves of T: those given (ALL, every distribution) or those of
 * CHANGED for T's distribution. */
static void pick_curves(struct target *t, const struct confirm_curve *all,
			size_t nall, const struct confirm_curve *changed,
			size_t nchanged)
{
	const struct confirm_curve *src = all ? all : changed;
	size_t n = all ? nall : nchanged, i;

	for (i = 0; i < n; i++) {
		struct confirm_curve *c;

		if (!all && strcmp(src[i].distro, t->spec) != 0)
			continue;
		t->curves = xrealloc(t->curves, (t->ncurves + 1) *
				     sizeof(*t->curves));
		c = &t->curves[t->ncurves++];
		c->distro = xstrdup(t->spec);
		c->library = xstrdup(src[i].library);
		c->algorithm = xstrdup(src[i].algorithm);
		c->operation = xstrdup(src[i].operation);
		c->mode = xstrdup(src[i].mode);
		c->kind = src[i].kind;
	}
	t->dbc = xcalloc(t->ncurves + 1, sizeof(*t->dbc));
	for (i = 0; i < t->ncurves; i++)
		t->dbc[i] = (struct db_confirm_curve){
			.library = t->curves[i].library,
			.algorithm = t->curves[i].algorithm,
			.operation = t->curves[i].operation,
			.mode = t->curves[i].mode,
		};
}

/* Append NAME to the comma-separated *LIST unless it is in it. */
static void list_add(char **list, const char *name)
{
	char *s;
	size_t n = strlen(name);

	if (*list) {
		for (s = *list; (s = strstr(s, name)) != NULL; s += n)
			if ((s == *list || s[-1] == ',') &&
			    (s[n] == ',' || s[n] == '\0'))
				return;
		s = xasprintf("%s,%s", *list, name);
		free(*list);
		*list = s;
	} else {
		*list = xstrdup(name);
	}
}

/* Remove T's previous image (its confirmation is done). Returns 0, or -1
 * after saying why. */
static int remove_previous(const struct confirm_config *cc, struct target *t)
{
	struct image_ctx ictx = {
		.state_dir = cc->state_dir,
		.data_dir = cc->data_dir,
	};
	bo_err err;

	if (image_remove(&ictx, t->prev, &err) < 0) {
		cli_warn("%s: cannot remove the previous image: %s", t->spec,
			 err.msg);
		return -1;
	}
	return 0;
}

/* Record (or complete) the confirmation of every measured target. */
static int record(struct confirm_state *s, bo_err *err)
{
	size_t i;

	for (i = 0; i < s->nt; i++) {
		struct target *t = &s->t[i];
		struct db_confirmation c = {
			.distro = t->distro,
			.release = t->release,
			.digest = t->digest,
			.previous_digest = t->prev ? t->prev->digest : NULL,
			.curves = t->dbc,
			.ncurves = t->ncurves,
		};

		if (!t->ncurves || !t->img)
			continue;
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

static void targets_free(struct target *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(t[i].distro);
		free(t[i].release);
		free(t[i].digest);
		free(t[i].spec);
		image_free(t[i].img);
		image_free(t[i].prev);
		confirm_curves_free(t[i].curves, t[i].ncurves);
		free(t[i].dbc);
	}
	free(t);
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
		struct target *t = &s->t[i];

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
					list_add(&la, t->curves[j].algorithm);
			list_add(&libs, lib);
			for (j = k; j < t->ncurves; j++)
				if (!strcmp(t->curves[j].library, lib))
					list_add(&algos, t->curves[j].algorithm);
			algs_owned[ng] = la;
			specs[n] = t->img->name;
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
		struct target *t = &s->t[i];

		if (!t->prev || !t->ncurves || !t->img)
			continue;
		if (!done) {
			cli_warn("%s: confirmation run %lld is %s: the previous image '%s' is kept for a later confirmation",
				 t->spec, (long long)s->run_id,
				 status ? status : "unknown", t->prev->name);
			continue;
		}
		if (remove_previous(s->cc, t) == 0) {
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
 * measured (its quick flag; --nohw when it measured variant 'nohw'; the
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
	s->argv = xmalloc(((size_t)cc->argc + 8) * sizeof(char *));
	for (s->argc = 0; s->argc < cc->argc; s->argc++)
		s->argv[s->argc] = cc->argv[s->argc];
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

int confirm_execute(const struct confirm_config *cc, int64_t *ret_run_id)
{
	struct confirm_state s = { .cc = cc };
	struct confirm_curve *given = NULL, *changed = NULL;
	const struct confirm_curve *use = NULL;
	size_t ngiven = 0, nchanged = 0, i, nwork = 0;
	bo_err err;
	int rc = EXIT_OK, env, known;

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
	s.confirmed = cc->run_id ? cc->run_id : latest_run(s.db);
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
		cli_error("no run %lld in '%s'", (long long)cc->run_id,
			  cc->db_path);
		rc = EXIT_USAGE;
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
	if (load_targets(s.db, s.confirmed, &s.t, &s.nt, &err) < 0) {
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
	for (i = 0; i < s.nt; i++) {
		struct target *t = &s.t[i];

		find_images(cc, s.confirmed, t);
		pick_curves(t, given, ngiven, use, nchanged);
		if (t->img && t->ncurves) {
			nwork++;
			continue;
		}
		/* nothing looks changed: the previous has served */
		if (t->img && t->prev && remove_previous(cc, t) == 0 &&
		    !cc->quiet)
			fprintf(stderr, "benchorch: %s: no curve looks changed; removed the previous image '%s'\n",
				t->spec, t->prev->name);
	}
	if (!nwork) {
		if (!cc->quiet)
			fprintf(stderr, "benchorch: run %lld: nothing to confirm\n",
				(long long)s.confirmed);
		goto out;
	}
	rc = measure(&s);
	if (finish(&s) < 0 && rc == EXIT_OK)
		rc = EXIT_ENV;
	*ret_run_id = s.run_id;
	if (s.record_failed && rc == EXIT_OK)
		rc = EXIT_ENV;
	if (s.run_id && !cc->no_summary && !bo_interrupted &&
	    confirm_summary_print(stdout, s.db, s.run_id, cc->format,
				  &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_FAILED;
	}
out:
	confirm_curves_free(given, ngiven);
	if (changed)
		confirm_curves_free(changed, nchanged);
	targets_free(s.t, s.nt);
	free(s.argv);
	for (i = 0; i < 3; i++)
		free(s.own[i]);
	sqlite3_close(s.db);
	return rc;
}

/* The number of distributions of run RUN in DB whose image (the one the
 * run measured) has a previous kept beside it under STATE_DIR, in
 * *RET. Returns 0, or -1 with err set on a database error. */
static int kept_previous(sqlite3 *db, const char *state_dir, int64_t run,
			 size_t *ret, bo_err *err)
{
	struct target *t;
	struct image **v;
	size_t nt, n, i, k, found = 0;
	bo_err ierr;	/* an image that cannot be read counts as none */

	*ret = 0;
	if (load_targets(db, run, &t, &nt, err) < 0)
		return -1;
	if (image_list(state_dir, &v, &n, &ierr) == 0) {
		for (i = 0; i < nt; i++)
			for (k = 0; k < n; k++) {
				struct image *prev = NULL;

				if (v[k]->previous ||
				    strcmp(v[k]->distro, t[i].distro) ||
				    strcmp(v[k]->release, t[i].release) ||
				    strcmp(v[k]->digest, t[i].digest))
					continue;
				if (image_previous_find(v[k], &prev, &ierr) == 0 &&
				    prev)
					found++;
				image_free(prev);
			}
		image_list_free(v, n);
	}
	targets_free(t, nt);
	*ret = found;
	return 0;
}

int confirm_after_run(const struct run_config *c, int64_t run_id)
{
	char runbuf[24];
	char *argv[4];
	struct confirm_config cc = {
		.state_dir = c->state_dir,
		.db_path = c->db_path,
		.data_dir = c->data_dir,
		.guest = c->guest,
		.kind = c->kind,
		/* the guests' settings (--quick, --nohw, batch length,
		 * repetitions, sets) are the run's: confirm_execute takes
		 * them from it, and records them */
		.timeout_s = c->timeout_s,
		.run_id = run_id,
		.format = FORMAT_TABLE,
		.no_summary = 1,
		.quiet = c->quiet,
		.argv = argv,
		.progress_sink = c->progress_sink,
		.progress_sink_ctx = c->progress_sink_ctx,
	};
	struct confirm_curve *cv = NULL;
	size_t kept, ncv = 0;
	sqlite3 *db;
	int64_t conf = 0, base = 0;
	bo_err err;
	int rc;

	if (db_open_readonly(c->db_path, &db, &err) < 0) {
		cli_warn("cannot tell whether run %lld needs a confirmation: %s",
			 (long long)run_id, err.msg);
		return EXIT_ENV;
	}
	rc = kept_previous(db, c->state_dir, run_id, &kept, &err);
	if (rc == 0 && !kept) {
		base = confirm_base_run(db, run_id);
		if (base < 0)
			rc = bo_err_set(&err, "database error: %s",
					sqlite3_errmsg(db));
	}
	if (rc == 0 && !kept && base > 0) {
		/* no package changed: only when something looks changed
		 * (a base with no curve in common - other libraries, the
		 * tool mode - has nothing to confirm); confirm_execute takes
		 * these curves rather than judging the run again */
		rc = confirm_changed_curves(db, base, run_id, &cv, &ncv, &err);
		if (rc == 0 && !ncv)
			base = 0;
	}
	sqlite3_close(db);
	if (rc < 0) {
		cli_warn("cannot tell whether run %lld needs a confirmation: %s in '%s'",
			 (long long)run_id, err.msg, c->db_path);
		return EXIT_ENV;
	}
	if (!kept && base <= 0) {
		confirm_curves_free(cv, ncv);
		return EXIT_OK;	/* nothing looks changed */
	}
	snprintf(runbuf, sizeof(runbuf), "%lld", (long long)run_id);
	argv[cc.argc++] = "confirm";
	argv[cc.argc++] = "--run";
	argv[cc.argc++] = runbuf;
	argv[cc.argc] = NULL;
	if (!kept) {
		cc.changed_known = 1;
		cc.changed = cv;
		cc.nchanged = ncv;
	}
	if (!c->quiet && kept)
		fprintf(stderr, "benchorch: run %lld: %zu image%s rebuilt with other packages, the previous kept; confirming what looks changed\n",
			(long long)run_id, kept, kept == 1 ? "" : "s");
	else if (!c->quiet)
		fprintf(stderr, "benchorch: run %lld: measuring again the %zu curve%s that look%s changed against run %lld\n",
			(long long)run_id, ncv, ncv == 1 ? "" : "s",
			ncv == 1 ? "s" : "", (long long)base);
	rc = confirm_execute(&cc, &conf);
	confirm_curves_free(cv, ncv);
	if (conf > 0 && !c->quiet)
		fprintf(stderr, "benchorch: run %lld is confirmed by run %lld ('benchorch results --run %lld' shows it)\n",
			(long long)run_id, (long long)conf, (long long)conf);
	return rc;
}
