/* run-confirm.c - a run, then the confirmation of what looks changed in
 * it (run-confirm.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "db/db.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/paths.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-curves.h"
#include "orchestrator/run/confirm-targets.h"
#include "orchestrator/run/run-confirm.h"

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
	rc = confirm_kept_previous(db, c->state_dir, c->data_dir, run_id, &kept,
				   &err);
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
	if (conf > 0 && !c->quiet) {
		char *dbopt = paths_db_opt(c->db_path);

		fprintf(stderr, "benchorch: run %lld is confirmed by run %lld ('benchorch results --run %lld%s' shows it)\n",
			(long long)run_id, (long long)conf, (long long)conf,
			dbopt);
		free(dbopt);
	}
	return rc;
}

/* What run_and_confirm learns of the run as it goes, and the caller's
 * progress callback it passes each call on to. */
struct run_tap {
	int64_t run_id;		/* -1 until the run is recorded */
	void (*on_progress)(void *ctx, const struct run_progress *p);
	void *progress_ctx;
};

/* run_config.on_progress: keep the run's id for the confirmation, then
 * tell the caller. */
static void tap_progress(void *ctx, const struct run_progress *p)
{
	struct run_tap *tap = ctx;

	tap->run_id = p->run_id;
	if (tap->on_progress)
		tap->on_progress(tap->progress_ctx, p);
}

int run_and_confirm(const struct run_config *c, run_after_fn *after_run,
		    void *after_ctx, int64_t *ret_run_id)
{
	struct run_tap tap = {
		.run_id = -1,
		.on_progress = c->on_progress,
		.progress_ctx = c->progress_ctx,
	};
	/* a shallow copy: its pointers stay C's, only the callback differs */
	struct run_config run = *c;
	int rc;

	run.on_progress = tap_progress;
	run.progress_ctx = &tap;
	rc = run_execute(&run);
	if (after_run && tap.run_id >= 0 && !bo_interrupted)
		after_run(after_ctx, c, tap.run_id);
	/* measure what looks changed again before it is reported:
	 * previous beside new when an image was rebuilt with other
	 * packages (its previous kept), else the current image */
	if (tap.run_id > 0 && !bo_interrupted && !c->no_confirm &&
	    (rc == EXIT_OK || rc == EXIT_FAILED)) {
		int crc = confirm_after_run(c, tap.run_id);

		if (rc == EXIT_OK)
			rc = crc;
	}
	if (ret_run_id)
		*ret_run_id = tap.run_id;
	return rc;
}
