/* run-invoke.c - one distribution's steps in a run (run-invoke.h). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "images/image.h"
#include "lib/exitcode.h"
#include "lib/flavour.h"
#include "lib/judge.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/paths.h"
#include "orchestrator/run/db-image.h"
#include "orchestrator/run/run-invoke.h"

/* The builds of D's image that C's --builds names, into d->builds.
 * Returns 0, or -1 with err set. */
static int dist_builds(const struct run_config *c, struct run_dist *d,
		       bo_err *err)
{
	struct build_info **v;
	size_t n, i, k = 0;

	if (!c->builds)
		return 0;
	if (builds_list(c->state_dir, d->image->name, &v, &n, err) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (bo_list_has(c->builds, v[i]->name) && k < RUNNER_MAX_BINDS)
			v[k++] = v[i];
		else
			build_info_free(v[i]);
	}
	d->builds = v;
	d->nbuilds = k;
	/* what is measured is what was built */
	for (i = 0; i < k; i++)
		if (build_verify(v[i], err) < 0)
			return -1;
	return 0;
}

/* Get D's image and guest flavour and open its log. Returns 0, or -1
 * with *error set (caller frees). */
int run_dist_prepare(const struct run_config *c, const char *uuid,
		     struct run_dist *d, char **error)
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
	if (dist_builds(c, d, &err) < 0) {
		*error = xstrdup(err.msg);
		return -1;
	}
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

/* Say on stderr which libraries of S failed (could not be loaded,
 * crashed, hung) although the guest ran to its end. Returns their
 * count. */
size_t run_report_faults(const struct run_dist *d, const struct plan *p,
			 const struct run_inv *s)
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
int run_invoke(const struct run_config *c, const struct plan *p,
	       const struct plan_step *step, struct run_dist *d, int cpu,
	       struct run_inv *s, struct progress *pg)
{
	const char *args[26 + 2 * RUNNER_MAX_BINDS];
	const char *bsrc[RUNNER_MAX_BINDS], *bdst[RUNNER_MAX_BINDS];
	char *bfree[3 * RUNNER_MAX_BINDS];
	size_t nb = 0, i;
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
	/* the plan's public-key rounds; a confirmation's own --algos has
	 * none */
	s->pubkey = plan_round_has_pubkey(p, step->round) &&
		    !(c->spec_algos && c->spec_algos[step->spec]) ?
		    p->pubkey : NULL;
	s->kdf = plan_round_has_kdf(p, step->round) &&
		 !(c->spec_algos && c->spec_algos[step->spec]) ?
		 p->kdf : NULL;
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
	/* the libraries of a point take turns unless --sequential */
	if (!c->sequential)
		args[n++] = "--interleave";
	if (s->pubkey) {
		args[n++] = "--pubkey";
		args[n++] = s->pubkey;
	}
	if (s->kdf) {
		args[n++] = "--kdf";
		args[n++] = s->kdf;
	}
	/* the same addresses in every invocation of an image: two runs
	 * differ only where their images or the host do (guest/place.h) */
	args[n++] = "--fixed-layout";
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
	/* each build's lib/ read-only at a directory named after its
	 * content (so that the path the guest reports tells two builds of
	 * one name apart), loaded by the guest as LIBRARY@NAME */
	for (i = 0; i < d->nbuilds && i < RUNNER_MAX_BINDS; i++) {
		const struct build_info *b = d->builds[i];
		const char *dg = strchr(b->digest, ':');

		dg = dg ? dg + 1 : b->digest;
		bfree[3 * i] = xasprintf("%s/%s", b->dir, BUILD_LIBDIR);
		bfree[3 * i + 1] = xasprintf("%s/%s-%.12s", RUNNER_BUILDS_PATH,
					     b->name, dg);
		bfree[3 * i + 2] = xasprintf("%s=%s:%s", b->name, b->library,
					     bfree[3 * i + 1]);
		bsrc[i] = bfree[3 * i];
		bdst[i] = bfree[3 * i + 1];
		args[n++] = "--build";
		args[n++] = bfree[3 * i + 2];
		nb++;
	}
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
			.nbinds = nb,
			.bind_src = bsrc,
			.bind_dst = bdst,
		};

		rc = runner_run(&ro, &s->out, &s->runner, &res, &fb, &err);
	}
	for (i = 0; i < 3 * nb; i++)
		free(bfree[i]);
	runner_warn_fallback(&fb, d->spec);
	s->wall_ns = res.wall_ns;
	if (rc < 0) {
		char *last = bo_interrupted ? NULL :
			     runner_log_last_line(d->logpath, log_from, -1);

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

size_t run_count_noisy(const struct guest_output *out, int by_guest)
{
	int *flags;
	size_t i, n = 0;

	if (by_guest) {
		for (i = 0; i < out->nresults; i++)
			n += out->results[i].t.noisy != 0;
		return n;
	}
	flags = xcalloc(out->nresults + 1, sizeof(*flags));
	n = guest_output_noisy(out, flags);
	free(flags);
	return n;
}


/* Store S, an invocation of D in run RUN_ID of C (its guest's error, or
 * its output), in a transaction of its own (db_run_store_invocation),
 * with its judgement (guest_output_judge: verified results, failed
 * libraries, curve fits), then drop its output but for the clocks the
 * run's end reads (guest_output_shrink): the run's memory does not grow
 * with its results.
 * Returns 0 (s->stored set), or -1 with err set (nothing of S stored:
 * the output was validated as it was read, so what the database refuses
 * is the database's fault - a full disk, an I/O error, an interruption
 * while another writer held the database). While another writer holds the
 * database it says so once on stderr and waits as long as it takes. */
int run_store_now(sqlite3 *db, int64_t run_id, const struct run_config *c,
		  const struct run_dist *d, struct run_inv *s, bo_err *err)
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

	struct db_build dbb[RUNNER_MAX_BINDS];
	size_t i;

	if (d->image) {
		run_db_image(d->image, &image);
		/* what the builds table keeps of each build measured */
		for (i = 0; i < d->nbuilds && i < RUNNER_MAX_BINDS; i++) {
			const struct build_info *b = d->builds[i];

			dbb[i] = (struct db_build){
				.name = b->name, .library = b->library,
				.package = b->package, .source = b->source,
				.source_version = b->version,
				.compiler = b->cc,
				.compiler_version = b->cc_version,
				.cflags = b->cflags, .digest = b->digest,
			};
		}
		image.nbuilds = i;
		image.builds = dbb;
		inv.image = &image;
	}
	/* what is verified, which libraries failed, the curve fits */
	if (!s->error) {
		guest_output_judge(&s->out, &judged);
		/* a limit the user gave: the guest's flags, cv above it */
		if (c->max_cv[0])
			guest_judgement_noisy_by_guest(&judged, &s->out);
		inv.judged = &judged;
	}
	rc = db_run_store_invocation(db, run_id, &inv, err);
	/* what was measured is kept, however long another writer (a large
	 * merge, say) holds the database: waited for, never dropped */
	if (rc == DB_BUSY && !bo_interrupted)
		cli_warn("%s: round %d: %s: the database is held by another "
			 "writer; waiting to store what was measured",
			 d->spec, s->round, err->msg);
	while (rc == DB_BUSY && !bo_interrupted)
		rc = db_run_store_invocation(db, run_id, &inv, err);
	if (rc == DB_BUSY)
		rc = -1;
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
char *run_store_failed_why(const struct run_config *c, int64_t run_id,
			   const struct run_dist *d, const struct run_inv *s,
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
