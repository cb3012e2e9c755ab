/* run-report.c - what a run says once it is stored (run-report.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "db/db.h"
#include "lib/exitcode.h"
#include "lib/judge.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "orchestrator/results/results-builds.h"
#include "orchestrator/results/results-kdf.h"
#include "orchestrator/results/results-pubkey.h"
#include "orchestrator/results/summary.h"
#include "orchestrator/run/run-report.h"

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

int run_report_stored(sqlite3 *db, const struct run_config *c,
		      int64_t run_id)
{
	long unverified, noisy, measured, moved, curves, disagree;
	char *unread = NULL;	/* the first thing not read, why */
	bo_err err;
	int rc = EXIT_OK;

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
	if ((noisy > 0 || (noisy == 0 && measured > 0)) && c->max_cv[0])
		fprintf(stderr, "benchorch: run %lld: %ld of %ld measurements noisy (the coefficient of variation of their samples above --max-cv %g)\n",
			(long long)run_id, noisy, measured,
			strtod(c->max_cv, NULL));
	else if (noisy > 0 || (noisy == 0 && measured > 0))
		fprintf(stderr, "benchorch: run %lld: %ld of %ld measurements noisy (their interquartile range, relative to the median, above %.0f times the median of their invocation's results or key setups)\n",
			(long long)run_id, noisy, measured,
			JUDGE_NOISE_FACTOR);
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
	if (!c->no_summary && results_pubkey_line(stderr, db, run_id, &err) < 0)
		note_unread(&unread, db, c->db_path, run_id,
			    "its public-key results");
	if (!c->no_summary && results_builds_line(stderr, db, run_id, &err) < 0)
		note_unread(&unread, db, c->db_path, run_id, "its builds");
	if (!c->no_summary && results_kdf_line(stderr, db, run_id, &err) < 0)
		note_unread(&unread, db, c->db_path, run_id,
			    "its key derivation results");
	/* a warning it could not give: a database error */
	if (unread) {
		cli_error("%s", unread);
		free(unread);
		rc = EXIT_ENV;
	}
	return rc;
}
