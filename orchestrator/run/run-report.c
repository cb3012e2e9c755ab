/* run-report.c - what a run says once it is stored (run-report.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "db/db.h"
#include "lib/exitcode.h"
#include "lib/judge.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/paths.h"
#include "orchestrator/results/ops-fastest.h"
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

/* Append the memory stream's buffer TEXT (LEN bytes, or EMPTY when LEN
 * is 0) to OUT. */
static void put_text(FILE *out, const char *text, size_t len,
		     const char *empty)
{
	if (len)
		fwrite(text, 1, len, out);
	else
		fputs(empty, out);
}

/* The lines ops_fastest_print gives for run RUN_ID's KIND results, into
 * *RET (newly allocated; the caller frees it). Returns 0, or -1 with err
 * set on a database error (*RET NULL). */
static int fastest_lines(sqlite3 *db, enum ops_kind kind, int64_t run_id,
			 char **ret, bo_err *err)
{
	size_t len = 0;
	FILE *m = open_memstream(ret, &len);
	long n;

	if (!m) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	n = ops_fastest_print(m, db, kind, run_id, err);
	fclose(m);
	if (n < 0) {
		free(*ret);
		*ret = NULL;
		return -1;
	}
	return 0;
}

long run_report_ops(FILE *out, sqlite3 *db, int64_t run_id,
		    enum format fmt, const char *db_path, bo_err *err)
{
	struct ops_filter f = { 0, &run_id, 1, NULL, NULL, NULL };
	char *pk = NULL, *kd = NULL, *fpk = NULL, *fkd = NULL, *dbopt;
	size_t npk_len = 0, nkd_len = 0;
	FILE *mpk = open_memstream(&pk, &npk_len);
	FILE *mkd = open_memstream(&kd, &nkd_len);
	long npk = -1, nkd = -1;

	if (!mpk || !mkd) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	npk = results_pubkey(mpk, db, &f, fmt, err);
	if (npk >= 0)
		nkd = results_kdf(mkd, db, &f, fmt, err);
	fclose(mpk);
	fclose(mkd);
	if (npk < 0 || nkd < 0 || npk + nkd == 0)
		goto out;
	if (fmt == FORMAT_TABLE &&
	    ((npk && fastest_lines(db, OPS_PUBKEY, run_id, &fpk, err) < 0) ||
	     (nkd && fastest_lines(db, OPS_KDF, run_id, &fkd, err) < 0))) {
		npk = -1;
		goto out;
	}
	switch (fmt) {
	case FORMAT_TABLE:
		if (npk)
			fprintf(out, "Public key: operations per second\n%.*s%s",
				(int)npk_len, pk, fpk ? fpk : "");
		if (nkd)
			fprintf(out, "%sKey derivation: derivations per second\n%.*s%s",
				npk ? "\n" : "", (int)nkd_len, kd,
				fkd ? fkd : "");
		dbopt = paths_db_opt(db_path);
		fputs("\nAgain:", out);
		if (npk)
			fprintf(out, " benchorch results --pubkey --run %lld;",
				(long long)run_id);
		if (nkd)
			fprintf(out, " benchorch results --kdf --run %lld;",
				(long long)run_id);
		fprintf(out, " heat maps: benchorch report --run %lld -o report.html%s%s%s\n",
			(long long)run_id, *dbopt ? " (each with" : "", dbopt,
			*dbopt ? ")" : "");
		free(dbopt);
		break;
	case FORMAT_CSV:
		if (npk)
			fwrite(pk, 1, npk_len, out);
		if (npk && nkd)
			fputs("\r\n", out);
		if (nkd)
			fwrite(kd, 1, nkd_len, out);
		break;
	case FORMAT_JSON:
		/* each is one array and a newline */
		fputs("{\"pubkey\": ", out);
		put_text(out, pk, npk_len ? npk_len - 1 : 0, "[]");
		fputs(",\n\"kdf\": ", out);
		put_text(out, kd, nkd_len ? nkd_len - 1 : 0, "[]");
		fputs("}\n", out);
		break;
	}
out:
	free(pk);
	free(kd);
	free(fpk);
	free(fkd);
	return npk < 0 || nkd < 0 ? -1 : npk + nkd;
}

int run_report_stored(sqlite3 *db, const struct run_config *c,
		      int64_t run_id)
{
	long unverified, noisy, measured, moved, curves, disagree, ops;
	char *unread = NULL;	/* the first thing not read, why */
	bo_err err;
	int rc = EXIT_OK;

	/* with nothing measured, the table prints nothing (not even
	 * its header); csv and json still print their empty document */
	noisy = summary_noisy(db, run_id, &measured);
	if (noisy < 0)
		note_unread(&unread, db, c->db_path, run_id,
			    "its noisy measurements");
	/* a run of public-key and key derivation functions alone: their
	 * results instead */
	ops = noisy == 0 && measured == 0 && !c->no_summary ?
	      run_report_ops(stdout, db, run_id, c->format, c->db_path,
			     &err) : 0;
	if (ops < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_FAILED;
	}
	if ((noisy < 0 || measured != 0 || c->format != FORMAT_TABLE) &&
	    ops == 0 && !c->no_summary &&
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
