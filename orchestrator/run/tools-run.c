/* tools-run.c - one tool run (tools-run.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "db/tools.h"
#include "images/image.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/paths.h"
#include "lib/numbers.h"
#include "orchestrator/run/db-image.h"
#include "orchestrator/run/tool-output.h"
#include "orchestrator/run/tool-stats.h"
#include "orchestrator/results/tools-print.h"
#include "orchestrator/run/run-invoke.h"
#include "orchestrator/run/run-open.h"
#include "orchestrator/run/tools-run.h"

/* The package that ships each tool, by package database: the first name
 * the image has. */
static const char *const tool_packages[][5] = {
	{ "openssl", "openssl", "dev-libs/openssl", NULL, NULL },
	{ "gpg", "gpg", "gnupg", "app-crypt/gnupg", "gnupg2" },
	{ "age", "age", "app-crypt/age", NULL, NULL },
};

/* One distribution of the tool run. */
struct tool_dist {
	const char *spec;
	struct image *image;
	struct db_image db_image;	/* image as stored; owned arrays */
	char *guest;		/* owned */
	struct tool_output out;
	char *error;		/* NULL = ok */
	const char *runner;
	char started_at[32];
	uint64_t wall_ns;
	struct db_tool_row *rows;
	size_t nrows;
	size_t measured, absent, failed;
};

static int parse_line(void *ctx, const char *line, size_t len, bo_err *err)
{
	return tool_output_add_line(ctx, line, len, err);
}

/* The package (name, version) of TOOL in IMG, or "" "". */
static void tool_package(const struct image *img, const char *tool,
			 const char **name, const char **version)
{
	size_t i, k, p;

	*name = *version = "";
	for (i = 0; i < sizeof(tool_packages) / sizeof(tool_packages[0]); i++) {
		if (strcmp(tool_packages[i][0], tool) != 0)
			continue;
		for (k = 1; k < 5 && tool_packages[i][k]; k++)
			for (p = 0; p < img->npackages; p++)
				if (strcmp(img->packages[p].name,
					   tool_packages[i][k]) == 0) {
					*name = img->packages[p].name;
					*version = img->packages[p].version;
					return;
				}
	}
}

/* The rows of D's checked output: absent cases once per direction and
 * variant, results as measured (verified, summarised) or failed. */
static void make_rows(struct tool_dist *d)
{
	static const char *const dirs[] = { "encrypt", "decrypt" };
	static const char *const variants[] = { "hw", "nohw" };
	const struct tool_output *o = &d->out;
	size_t i, n = 0;

	d->rows = xcalloc(4 * o->ncases + o->nresults + 1, sizeof(*d->rows));
	for (i = 0; i < o->ncases; i++) {
		const struct tool_case_out *c = &o->cases[i];
		int a, b;

		if (c->present)
			continue;
		for (a = 0; a < 2; a++)
			for (b = 0; b < 2; b++) {
				struct db_tool_row *r = &d->rows[n++];

				r->tool = c->tool;
				r->cipher = c->cipher;
				r->direction = dirs[a];
				r->variant = variants[b];
				r->status = "absent";
				r->bytes = o->bytes;
				tool_package(d->image, c->tool, &r->package,
					     &r->package_version);
				d->absent++;
			}
	}
	for (i = 0; i < o->nresults; i++) {
		const struct tool_result_out *res = &o->results[i];
		const struct tool_case_out *c = &o->cases[res->case_index];
		struct db_tool_row *r = &d->rows[n++];

		r->tool = c->tool;
		r->cipher = c->cipher;
		r->direction = res->direction;
		r->variant = res->variant;
		r->tool_version = c->version;
		r->bytes = o->bytes;
		r->hw_features = strcmp(res->variant, "hw") == 0 ? c->hwf_hw :
				 c->hwf_nohw;
		tool_package(d->image, c->tool, &r->package,
			     &r->package_version);
		r->nsamples = res->nsamples;
		r->samples = res->samples;
		if (res->verified &&
		    tool_summarise(res->samples, res->nsamples, r) == 0) {
			r->status = "measured";
			d->measured++;
		} else {
			r->status = "failed";
			r->error = res->message ? res->message :
				   "no usable samples";
			d->failed++;
		}
	}
	d->nrows = n;
}

static int store_rows(sqlite3 *db, int64_t inv_id, void *ctx, bo_err *err)
{
	struct tool_dist *d = ctx;

	return db_tools_store(db, inv_id, d->rows, d->nrows, err);
}

/* Ensure D's image and run the tool mode in it, pinned to CPU. Fills D;
 * returns 0, or -1 with d->error set. */
static int measure_dist(const struct run_config *c, const char *uuid,
			int cpu, struct tool_dist *d)
{
	struct run_dist rd = { .spec = d->spec, .log_fd = -1 };
	char cpubuf[16], sizebuf[24], repbuf[16], *logpath;
	const char *args[12];
	struct spawn_result res;
	struct runner_fallback fb;
	struct guest_output unused;
	bo_err err;
	int n = 0, logfd, rc;

	tool_output_init(&d->out);
	bo_utc_now(d->started_at, sizeof(d->started_at));
	d->runner = "";
	/* its image, guest and log as a run's (run-invoke.h) */
	rc = run_dist_prepare(c, uuid, &rd, &d->error);
	d->image = rd.image;
	if (rc < 0) {
		free(rd.musl_guest);
		free(rd.logpath);
		return -1;
	}
	d->guest = rd.musl_guest ? rd.musl_guest : xstrdup(c->guest);
	logpath = rd.logpath;
	logfd = rd.log_fd;
	snprintf(cpubuf, sizeof(cpubuf), "%d", cpu);
	snprintf(sizebuf, sizeof(sizebuf), "%u", c->tool_size_mib);
	snprintf(repbuf, sizeof(repbuf), "%u", c->tool_reps);
	args[n++] = "tool";
	args[n++] = "--cpu";
	args[n++] = cpubuf;
	args[n++] = "--size";
	args[n++] = sizebuf;
	args[n++] = "--reps";
	args[n++] = repbuf;
	args[n] = NULL;
	guest_output_init(&unused);
	{
		struct runner_opts ro = {
			.kind = c->kind,
			.rootfs = d->image->rootfs,
			.guest = d->guest,
			.guest_args = args,
			.timeout_ns = (uint64_t)c->timeout_s * 1000000000u,
			.cpu = cpu,
			.log_fd = logfd,
			.machine = d->image->name,
			.parse_line = parse_line,
			.parse_ctx = &d->out,
		};

		rc = runner_run(&ro, &unused, &d->runner, &res, &fb, &err);
	}
	guest_output_release(&unused);
	runner_warn_fallback(&fb, d->spec);
	d->wall_ns = res.wall_ns;
	if (rc == 0)
		rc = tool_output_finish(&d->out, &err);
	if (logfd >= 0)
		close(logfd);
	if (rc < 0) {
		d->error = xasprintf("%s (guest log: %s)", err.msg, logpath);
		free(logpath);
		return -1;
	}
	free(logpath);
	make_rows(d);
	return 0;
}

/* Say on stderr what became of D. */
static void report_dist(const struct tool_dist *d)
{
	size_t i;

	if (d->error) {
		cli_error("%s: tool mode failed: %s", d->spec, d->error);
		return;
	}
	fprintf(stderr, "benchorch: %s: tools measured in %.1f s: %zu measured, %zu absent, %zu failed\n",
		d->spec, (double)d->wall_ns / 1e9, d->measured, d->absent,
		d->failed);
	for (i = 0; i < d->nrows; i++)
		if (strcmp(d->rows[i].status, "failed") == 0)
			cli_error("%s: %s %s %s %s NOT stored: %s", d->spec,
				  d->rows[i].tool, d->rows[i].cipher,
				  d->rows[i].direction, d->rows[i].variant,
				  d->rows[i].error);
}

/* Measure every distribution of C in turn, pinned to CPU, in run UUID
 * (until a signal stops it), saying on stderr what became of each, and
 * fill INVS[i] with what to store of DISTS[i]. *NFAILED gets the
 * distributions that failed, *NBAD the measurements that did. Returns
 * how many distributions were measured (INVS filled). */
static size_t measure_all(const struct run_config *c, const char *uuid,
			  int cpu, struct tool_dist *dists,
			  struct db_invocation *invs, size_t *nfailed,
			  size_t *nbad)
{
	size_t i;

	for (i = 0; i < c->nspecs && !bo_interrupted; i++) {
		dists[i].spec = c->specs[i];
		if (measure_dist(c, uuid, cpu, &dists[i]) < 0)
			(*nfailed)++;
		*nbad += dists[i].failed;
		if (!c->quiet || dists[i].error || dists[i].failed)
			report_dist(&dists[i]);
		if (dists[i].image)
			run_db_image(dists[i].image, &dists[i].db_image);
		invs[i] = (struct db_invocation){
			.spec = dists[i].spec,
			.image = dists[i].image ? &dists[i].db_image : NULL,
			.runner = dists[i].runner,
			.started_at = dists[i].started_at,
			.wall_ns = dists[i].wall_ns,
			.error = dists[i].error,
			.variant = "hw",
			.round = 1,
			.algorithms = "tools",
			.store_more = dists[i].error ? NULL : store_rows,
			.store_ctx = &dists[i],
		};
	}
	return i;
}

/* Store the end of tool run O of C with its NINVS invocations INVS
 * (NFAILED distributions and NBAD measurements failed), then print its
 * results on stdout (tools_print in C->format) unless a signal stopped
 * it or every distribution failed, and say on stderr how it ended.
 * Returns tools_execute's exit status. */
static int finish_run(const struct run_config *c, struct run_open *o,
		      const struct db_invocation *invs, size_t ninvs,
		      size_t nfailed, size_t nbad)
{
	const char *status = "done";
	char *why = NULL;
	bo_err err;
	int rc = EXIT_OK;

	if (bo_interrupted) {
		status = "aborted";
		rc = cli_interrupted_status(bo_interrupted);
		why = xasprintf("interrupted by signal %d", (int)bo_interrupted);
	} else if (nfailed) {
		status = "failed";
		rc = EXIT_FAILED;
		why = xasprintf("%zu of %zu distributions failed", nfailed,
				c->nspecs);
	} else if (nbad) {
		rc = EXIT_FAILED;
	}
	if (db_run_finish(o->db, o->run_id, status, why, invs, ninvs,
			  &err) < 0) {
		bo_err e2;

		cli_error("cannot store run %lld in '%s': %s",
			  (long long)o->run_id, c->db_path, err.msg);
		/* one small UPDATE: a full disk takes as little as can be */
		if (db_run_set_status(o->db, o->run_id, "failed", err.msg,
				      &e2) < 0)
			cli_error("cannot mark run %lld failed: %s (the next "
				  "run marks it aborted)", (long long)o->run_id,
				  e2.msg);
		rc = EXIT_ENV;
	} else if (!bo_interrupted && nfailed < c->nspecs &&
		   tools_print(stdout, o->db, &o->run_id, 1, 0, NULL,
			       c->format, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_FAILED;
	}
	if (!c->quiet) {
		char *dbopt = paths_db_opt(c->db_path);

		fprintf(stderr, "benchorch: tool run %lld %s ('benchorch results --tools --run %lld%s' shows it again)\n",
			(long long)o->run_id, status, (long long)o->run_id,
			dbopt);
		free(dbopt);
	}
	free(why);
	return rc;
}

int tools_execute(const struct run_config *c)
{
	/* recorded without --quick or a seed, as it measures */
	struct run_open_opts oo = { .quick = 0 };
	struct run_open o;
	struct tool_dist *dists;
	struct db_invocation *invs;
	size_t i, n, nfailed = 0, nbad = 0;
	int rc;

	rc = run_open(c, &oo, &o);
	if (rc != EXIT_OK)
		return rc;
	if (!c->quiet)
		fprintf(stderr, "benchorch: tool run %lld (%s) started: %u MiB, %u repetitions, pinned to %s\n",
			(long long)o.run_id, o.uuid, c->tool_size_mib,
			c->tool_reps, o.choice.reason);
	dists = xcalloc(c->nspecs + 1, sizeof(*dists));
	invs = xcalloc(c->nspecs + 1, sizeof(*invs));
	n = measure_all(c, o.uuid, o.choice.cpu, dists, invs, &nfailed,
			&nbad);
	rc = finish_run(c, &o, invs, n, nfailed, nbad);
	for (i = 0; i < c->nspecs; i++) {
		tool_output_release(&dists[i].out);
		run_db_image_release(&dists[i].db_image);
		image_free(dists[i].image);
		free(dists[i].guest);
		free(dists[i].error);
		free(dists[i].rows);
	}
	free(dists);
	free(invs);
	run_open_release(&o);
	return rc;
}
