/* t3057-confirm-curves - which curves a confirmation measures again: those
 * compare's per-curve verdicts call changed or confirmed. On the fixture
 * database of tests/fixtures/results-mkdb (run 2: libgcrypt twice as slow
 * everywhere, one invocation a run, no history; run 3: the same numbers
 * as run 2): the six libgcrypt curves (two distributions x aes-256-gcm
 * encrypt and decrypt and sha-256) are changed, not confirmed, in run 2
 * against run 1 and are measured again, nothing else; nothing in run 3
 * against run 2. On stored runs of known noise (tests/fixtures/
 * verdict-runs.py): a 10 % slowdown of libgcrypt gives its seven curves
 * (slower; faster the other way round); identical runs, a change at one
 * size only and a 20 % change whose canary moved give none; two runs
 * whose every curve moved at random by 15 % (a noisy machine, one
 * invocation, no history) give none. Then: the run compared with is the
 * latest earlier finished run that is no confirmation, made with the
 * same --quick flag and variant (as compare --latest 2 takes it); a confirmation is
 * recorded with its images and curves and read back; --curves lists are
 * parsed and malformed ones refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/confirmations.h"
#include "db/db.h"
#include "orchestrator/run/confirm-curves.h"
#include "orchestrator/run/confirm-summary.h"
#include "orchestrator/results/compare.h"
#include "tests/tap.h"

/* Make the database PATH with every migration, then add the runs of
 * tests/fixtures/verdict-runs.py SPECS. Returns 0 or -1. */
static int verdict_runs(const char *path, const char *specs)
{
	sqlite3 *db;
	bo_err err;
	char *cmd;
	int rc;

	if (db_open(path, &db, &err) < 0)
		return -1;
	sqlite3_close(db);
	cmd = xasprintf("python3 '%s/tests/fixtures/verdict-runs.py' '%s' %s",
			BENCHORCH_SRCDIR, path, specs);
	rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

/* 1 when V[0..N) holds the curve DISTRO LIB ALGO OP (mode bulk). */
static int has(const struct confirm_curve *v, size_t n, const char *distro,
	       const char *lib, const char *algo, const char *op, int kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].distro, distro) && !strcmp(v[i].library, lib) &&
		    !strcmp(v[i].algorithm, algo) &&
		    !strcmp(v[i].operation, op) && !strcmp(v[i].mode, "bulk") &&
		    v[i].kind == kind)
			return 1;
	return 0;
}

/* confirm_summary_print of run 3 in DB in FMT, as a new string. */
static char *summary(sqlite3 *db, enum format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bo_err err;

	if (!f)
		return xstrdup("");
	if (confirm_summary_print(f, db, 3, fmt, &err) < 0)
		fprintf(f, "ERROR %s", err.msg);
	fclose(f);
	return buf;
}

/* The number of lines of S. */
static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* sqlite3_progress_handler, called at every virtual machine
 * instruction: count them down in *CTX and interrupt the statement
 * (SQLITE_INTERRUPT) when none is left; a negative count counts up and
 * never interrupts. */
static int interrupt_later(void *ctx)
{
	long *left = ctx;

	if (*left < 0) {
		--*left;
		return 0;
	}
	return --*left <= 0;
}

/* Run 3 confirms run 2's debian curves libgcrypt/sha-256/hash and
 * libgcrypt/aes-256-gcm without a previous image: the summary puts run
 * 2's own figures beside run 3's. Run 3 is made 10 % faster at one
 * point (sha-256, 16 B: 25.316 -> 27.848 MB/s). */
static void summary_checks(sqlite3 *db)
{
	bo_err err;
	char *t, *c, *j;
	int rc;

	rc = db_exec(db, "UPDATE results SET mb_per_s = 27.848 WHERE"
		     " algorithm = 'sha-256' AND buffer_bytes = 16 AND"
		     " invocation_id IN (SELECT i.id FROM invocations i JOIN"
		     " images im ON im.id = i.image_id WHERE i.run_id = 3 AND"
		     " im.distro = 'debian') AND library_id IN (SELECT id FROM"
		     " libraries WHERE name = 'libgcrypt')", &err);
	t = summary(db, FORMAT_TABLE);
	c = summary(db, FORMAT_CSV);
	j = summary(db, FORMAT_JSON);
	if (!tap_ok(rc == 0 &&
	       tap_contains(t, "distro           library    algorithm          op       mode        bytes   run 2 MB/s   again MB/s  change% n run 2 n again\n") &&
	       tap_contains(t, "\ndebian:bookworm  libgcrypt  sha-256            hash     bulk           16         25.3         27.8    +10.0       1       1\n") &&
	       tap_contains(t, "\ndebian:bookworm  libgcrypt  aes-256-gcm        decrypt  bulk         1024        630.5        630.5     +0.0       1       1\n") &&
	       !tap_contains(t, " - ") && !tap_contains(t, "ubuntu") &&
	       lines(t) == 1 + 27,
	       "no previous image: the table puts the confirmed run's figures (run 2 MB/s, n run 2) beside the confirmation's (again MB/s, n again), per point, 27 points")) {
		char *line, *save = NULL;

		for (line = strtok_r(t, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			tap_diag("%s", line);
	}
	tap_ok(tap_contains(c, "distro,library,algorithm,operation,mode,bytes,confirmed_run,confirmed_mb_per_s,again_mb_per_s,change_pct,confirmed_invocations,again_invocations\r\n") &&
	       tap_contains(c, "\ndebian:bookworm,libgcrypt,sha-256,hash,bulk,16,2,25.3,27.8,+10.0,1,1\r\n") &&
	       lines(c) == 1 + 27,
	       "and so does the csv");
	tap_ok(tap_contains(j, "\"confirmed_run\": 2") &&
	       tap_contains(j, "\"confirmed_mb_per_s\": 25.31") &&
	       tap_contains(j, "\"again_mb_per_s\": 27.84") &&
	       tap_contains(j, "\"confirmed_invocations\": 1") &&
	       tap_contains(j, "\"again_invocations\": 1") &&
	       !tap_contains(j, "previous") && !tap_contains(j, "\"new_"),
	       "and so does the json");
	free(t);
	free(c);
	free(j);
	/* the query fails halfway through its rows (after half the
	 * instructions a whole summary takes): nothing is printed, not the
	 * header and part of the points (every format) */
	for (int fmt = FORMAT_TABLE; fmt <= FORMAT_JSON; fmt++) {
		char *buf = NULL;
		size_t len = 0;
		long left = -1;
		FILE *f = open_memstream(&buf, &len);

		sqlite3_progress_handler(db, 1, interrupt_later, &left);
		rc = f ? confirm_summary_print(f, db, 3, (enum format)fmt, &err) : -1;
		if (f)
			fclose(f);
		free(buf);
		buf = NULL;
		len = 0;
		left = -left / 2;
		f = rc == 0 ? open_memstream(&buf, &len) : NULL;
		rc = f ? confirm_summary_print(f, db, 3, (enum format)fmt, &err) : 0;
		sqlite3_progress_handler(db, 0, NULL, NULL);
		if (f)
			fclose(f);
		tap_ok(rc < 0 && len == 0 && tap_contains(err.msg, "interrupted"),
		       "a query interrupted halfway: an error and nothing printed (format %d: %zu bytes)",
		       fmt, len);
		free(buf);
	}
}

int main(void)
{
	char tmpl[] = "/tmp/t3057-XXXXXX";
	char *dir = mkdtemp(tmpl), *path, *cmd;
	struct confirm_curve *v = NULL;
	size_t n = 0;
	sqlite3 *db = NULL;
	bo_err err;
	int rc, ok;

	if (!dir) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	path = xasprintf("%s/r.db", dir);
	cmd = xasprintf("'%s/tests/fixtures/results-mkdb' '%s' >/dev/null",
			BENCHORCH_BUILDDIR, path);
	rc = system(cmd);
	free(cmd);
	tap_ok(rc == 0 && db_open(path, &db, &err) == 0,
	       "the fixture database");
	if (!db)
		return tap_done();

	/* 1. A real change: libgcrypt twice as slow, changed but not
	 * confirmed (one invocation a run: no halves, no history). */
	rc = confirm_changed_curves(db, 1, 2, &v, &n, &err);
	ok = rc == 0 && n == 6;
	ok &= has(v, n, "debian:bookworm", "libgcrypt", "aes-256-gcm", "encrypt", -1) &&
	      has(v, n, "debian:bookworm", "libgcrypt", "aes-256-gcm", "decrypt", -1) &&
	      has(v, n, "debian:bookworm", "libgcrypt", "sha-256", "hash", -1) &&
	      has(v, n, "ubuntu:noble", "libgcrypt", "aes-256-gcm", "encrypt", -1) &&
	      has(v, n, "ubuntu:noble", "libgcrypt", "aes-256-gcm", "decrypt", -1) &&
	      has(v, n, "ubuntu:noble", "libgcrypt", "sha-256", "hash", -1);
	tap_ok(ok, "run 2 against run 1: the six libgcrypt curves, changed and not confirmed, look slower, nothing else (%zu curves)", n);
	confirm_curves_free(v, n);

	/* 2. The same numbers: nothing. */
	rc = confirm_changed_curves(db, 2, 3, &v, &n, &err);
	tap_ok(rc == 0 && n == 0 && !v, "run 3 against run 2 (same numbers): nothing looks changed");
	confirm_curves_free(v, n);

	/* 2b. Runs of known noise. */
	if (system("command -v python3 >/dev/null 2>&1") != 0) {
		tap_skip(7, "needs python3");
	} else {
		static const char *const algos[][2] = {
			{ "aes-128-cbc", "encrypt" }, { "aes-128-cbc", "decrypt" },
			{ "aes-256-gcm", "encrypt" }, { "aes-256-gcm", "decrypt" },
			{ "chacha20", "encrypt" }, { "chacha20", "decrypt" },
			{ "sha-256", "hash" },
		};
		char *vpath = xasprintf("%s/v.db", dir);
		char *npath = xasprintf("%s/noisy.db", dir);
		sqlite3 *vdb = NULL, *ndb = NULL;
		int kind;
		size_t a;

		rc = verdict_runs(vpath, "aa aa aa aa aa aa aa gcrypt-10 one-size canary");
		rc |= verdict_runs(npath, "noisy noisy");
		tap_ok(rc == 0 && db_open(vpath, &vdb, &err) == 0 &&
		       db_open(npath, &ndb, &err) == 0,
		       "runs of known noise: 1-7 alike, 8 libgcrypt -10 %%, 9 one size, 10 a canary; two noisy runs");
		for (kind = -1; kind <= 1 && vdb; kind += 2) {
			rc = kind < 0 ? confirm_changed_curves(vdb, 6, 8, &v, &n, &err) :
					confirm_changed_curves(vdb, 8, 6, &v, &n, &err);
			ok = rc == 0 && n == 7;
			for (a = 0; a < 7; a++)
				ok &= has(v, n, "debian:bookworm", "libgcrypt",
					  algos[a][0], algos[a][1], kind);
			tap_ok(ok, "libgcrypt 10 %% slower (run %d against %d): its 7 curves, %s, nothing else (%zu curves)",
			       kind < 0 ? 8 : 6, kind < 0 ? 6 : 8,
			       kind < 0 ? "slower" : "faster", n);
			confirm_curves_free(v, n);
		}
		rc = vdb ? confirm_changed_curves(vdb, 6, 7, &v, &n, &err) : -1;
		tap_ok(rc == 0 && n == 0, "A/A, runs 7 against 6: nothing (%zu curves)", n);
		confirm_curves_free(v, n);
		rc = vdb ? confirm_changed_curves(vdb, 6, 9, &v, &n, &err) : -1;
		tap_ok(rc == 0 && n == 0, "a 30 %% change at one size only: no curve (%zu curves)", n);
		confirm_curves_free(v, n);
		rc = vdb ? confirm_changed_curves(vdb, 6, 10, &v, &n, &err) : -1;
		tap_ok(rc == 0 && n == 1 &&
		       has(v, n, "debian:bookworm", "nettle", "sha-256", "hash", -1),
		       "a 20 %% change whose canary moved is flagged: measured again, to get a verdict (%zu curves)", n);
		confirm_curves_free(v, n);
		rc = ndb ? confirm_changed_curves(ndb, 1, 2, &v, &n, &err) : -1;
		tap_ok(rc == 0 && n == 0, "two noisy runs, whole curves 15 %% apart at random: nothing (%zu curves)", n);
		confirm_curves_free(v, n);
		sqlite3_close(vdb);
		sqlite3_close(ndb);
		free(vpath);
		free(npath);
	}

	/* 3. The run compared with. */
	tap_ok(confirm_base_run(db, 3) == 2 && confirm_base_run(db, 2) == 1 &&
	       confirm_base_run(db, 1) == 0,
	       "the run compared with is the latest earlier finished one (3 -> 2, 2 -> 1, 1 -> none)");
	/* a full run measures other sizes and batches than the --quick
	 * runs of the fixture: never compared with them, as the verdict's
	 * history */
	rc = db_exec(db, "UPDATE runs SET quick = 0 WHERE id = 2", &err);
	tap_ok(rc == 0 && confirm_base_run(db, 3) == 1 &&
	       confirm_base_run(db, 2) == 0,
	       "only a run with the same --quick flag (3 -> 1 past the full run 2, 2 -> none)");
	rc |= db_exec(db, "UPDATE runs SET quick = 1 WHERE id = 2", &err);
	tap_ok(rc == 0, "run 2 quick again");
	/* a --nohw run in between is passed over, as compare --latest 2
	 * passes it over: one rule (db_base_run) */
	rc = db_exec(db, "UPDATE invocations SET variant = 'nohw' WHERE run_id = 2",
		     &err);
	{
		int64_t b = 0, nw = 0;
		int k = compare_latest_two(db, &b, &nw, &err);

		tap_ok(rc == 0 && confirm_base_run(db, 3) == 1 &&
		       confirm_base_run(db, 2) == 0 && k == 0 && b == 1 &&
		       nw == 3,
		       "only a run with the same variant: 3 -> 1 past the --nohw run 2, as compare --latest 2 takes them (%lld %lld), 2 -> none",
		       (long long)b, (long long)nw);
	}
	rc = db_exec(db, "UPDATE invocations SET variant = 'hw' WHERE run_id = 2",
		     &err);
	tap_ok(rc == 0 && confirm_base_run(db, 3) == 2, "run 2 hw again");

	/* 4. A confirmation recorded: run 3 confirms run 2. */
	{
		static const struct db_confirm_curve curves[] = {
			{ "libgcrypt", "sha-256", "hash", "" },
			{ "libgcrypt", "aes-256-gcm", "", "" },
		};
		char *digest = NULL;
		sqlite3_stmt *st;
		struct db_confirmation c = {
			.distro = "debian",
			.release = "bookworm",
			.previous_digest = NULL,
			.curves = curves,
			.ncurves = 2,
		};

		if (sqlite3_prepare_v2(db, "SELECT digest FROM images WHERE distro = 'debian'",
				       -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			digest = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		c.digest = digest;
		tap_ok(db_confirmed_by(db, 2) == 0, "run 2 is confirmed by no run yet");
		rc = db_confirmation_record(db, 3, 2, &c, &err);
		rc |= db_confirmation_record(db, 3, 2, &c, &err);	/* again */
		tap_ok(rc == 0 &&
		       db_query_int(db, "SELECT count(*) FROM confirmations") == 1 &&
		       db_query_int(db, "SELECT count(*) FROM confirmation_curves") == 2 &&
		       db_query_int(db, "SELECT image_id IS NOT NULL AND previous_image_id IS NULL AND previous_removed = 0 FROM confirmations") == 1,
		       "a confirmation is recorded once, with its image, no previous and its curves%s%s",
		       rc ? ": " : "", rc ? err.msg : "");
		tap_ok(db_confirmed_by(db, 2) == 3 && db_confirmed_by(db, 1) == 0,
		       "run 2 is confirmed by run 3, run 1 by none");
		summary_checks(db);
		tap_ok(db_confirmation_previous_removed(db, 3, "debian", "bookworm", &err) == 0 &&
		       db_query_int(db, "SELECT previous_removed FROM confirmations") == 1,
		       "the removal of the previous image is recorded");
		/* run 2 made a confirmation too: run 3 compares with 1 */
		rc = db_exec(db, "INSERT INTO confirmations (run_id, confirmed_run_id,"
			     " distro, release) VALUES (2, 1, 'ubuntu', 'noble')",
			     &err);
		tap_ok(rc == 0 && confirm_base_run(db, 3) == 1,
		       "a confirmation run is never the run compared with (3 -> 1 once run 2 is one)");
		free(digest);
	}

	/* 5. --curves. */
	rc = confirm_curves_parse("openssl/aes-128-cbc/encrypt/bulk,nettle/sha-256",
				  NULL, &v, &n, &err);
	tap_ok(rc == 0 && n == 2 && !v[0].distro &&
	       !strcmp(v[0].library, "openssl") &&
	       !strcmp(v[0].algorithm, "aes-128-cbc") &&
	       !strcmp(v[0].operation, "encrypt") && !strcmp(v[0].mode, "bulk") &&
	       !strcmp(v[1].library, "nettle") && !strcmp(v[1].operation, "") &&
	       !strcmp(v[1].mode, "") && v[1].kind == 0,
	       "a curve list: whole curves and library/algorithm alone");
	confirm_curves_free(v, n);
	{
		static const char *const bad[] = {
			"openssl", "openssl/", "/sha-256", "openssl/aes-128-cbc/sign",
			"openssl/aes-128-cbc/encrypt/fast", "a/b/encrypt/bulk/x",
		};
		size_t i;

		ok = 1;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char *want = xasprintf("invalid curve '%s'", bad[i]);

			rc = confirm_curves_parse(bad[i], NULL, &v, &n, &err);
			ok &= rc < 0 && !v && n == 0 && tap_contains(err.msg, want);
			if (rc == 0)
				confirm_curves_free(v, n);
			free(want);
		}
		tap_ok(ok, "malformed curves are refused, the message naming them");
	}
	{
		/* names the guest does not know: refused before anything
		 * runs, the message saying which name */
		static const char *const bad[][2] = {
			{ "openssl/nosuchalgo", "unknown algorithm 'nosuchalgo' (known: aes-128-ecb, " },
			{ "nosuchlib/sha-256", "unknown library 'nosuchlib' (known: openssl, " },
			{ "openssl/sha-256/encrypt", "sha-256 has no operation 'encrypt' (it has: hash)" },
			{ "openssl/aes-128-cbc/hash", "aes-128-cbc has no operation 'hash' (it has: encrypt, decrypt)" },
			{ "openssl/aes-128-cbc/sign", "unknown operation 'sign' (known: encrypt, decrypt, hash)" },
			{ "openssl/aes-128-cbc/encrypt/fast", "unknown mode 'fast' (known: bulk, oneshot)" },
			{ "nettle/sha-256,openssl/nosuchalgo/encrypt", "invalid curve 'openssl/nosuchalgo/encrypt': unknown algorithm 'nosuchalgo'" },
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			rc = confirm_curves_parse(bad[i][0], NULL, &v, &n, &err);
			tap_ok(rc < 0 && !v && n == 0 &&
			       tap_contains(err.msg, bad[i][1]),
			       "'%s' is refused: %s", bad[i][0],
			       rc < 0 ? err.msg : "accepted");
			if (rc == 0)
				confirm_curves_free(v, n);
		}
		rc = confirm_curves_parse("libsodium/chacha20-poly1305/decrypt/oneshot,gnutls/sha3-256/hash/bulk",
					  NULL, &v, &n, &err);
		tap_ok(rc == 0 && n == 2, "known names with an operation they have are accepted%s%s",
		       rc < 0 ? ": " : "", rc < 0 ? err.msg : "");
		if (rc == 0)
			confirm_curves_free(v, n);
	}
	sqlite3_close(db);
	unlink(path);
	cmd = xasprintf("rm -rf '%s'", dir);
	(void)!system(cmd);
	free(cmd);
	free(path);
	return tap_done();
}
