/* results-sections.c - the sections `benchorch results` prints instead
 * of points: --pubkey, --kdf, --builds (see results-sections.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/exitcode.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/results-sections.h"
#include "orchestrator/results/results-builds.h"
#include "orchestrator/results/results-kdf.h"
#include "orchestrator/results/results-pubkey.h"

/* The rows one of the sections below printed to the memory stream MEM
 * (its buffer *OUT of *LEN bytes, freed here), N of them or -1 with ERR:
 * to stdout (with no row, csv its header and json []), or the message
 * that WHAT could not be read from DB_PATH or that none matched, then
 * HINT. Returns an exit status. */
static int section_done(FILE *mem, char **out, size_t *len, long n,
			const bo_err *err, const char *db_path,
			const char *what, const char *hint)
{
	fclose(mem);
	if (n >= 0)
		fwrite(*out, 1, *len, stdout);
	free(*out);
	if (n < 0) {
		cli_error("cannot read %s from '%s': %s", what, db_path,
			  err->msg);
		return EXIT_ENV;
	}
	if (n == 0) {
		cli_error("no matching %s in '%s' (%s)", what, db_path, hint);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

/* A memory stream into *OUT (*LEN bytes) for a section's rows: stdout
 * gets nothing when a database error comes halfway. Aborts when out of
 * memory. */
static FILE *section_open(char **out, size_t *len)
{
	FILE *mem;

	*out = NULL;
	*len = 0;
	mem = open_memstream(out, len);
	if (!mem) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	return mem;
}

int results_print_pubkey(sqlite3 *db, const char *path,
			const struct filters *f, enum format fmt)
{
	struct ops_filter pf = { f->all, f->runs, f->nruns, f->distro,
				    f->lib, f->algo };
	char *out;
	size_t len;
	bo_err err;
	FILE *mem = section_open(&out, &len);
	long n = results_pubkey(mem, db, &pf, fmt, &err);

	return section_done(mem, &out, &len, n, &err, path,
			    "public-key results",
			    "`benchorch run` measures x25519, x448, ed25519, ecdh-p256, ecdsa-p256, rsa-2048, rsa-3072, rsa-pss-2048, ml-kem-768 and ml-dsa-65 without --algos, or those --algos names");
}

int results_print_kdf(sqlite3 *db, const char *path, const struct filters *f,
		     enum format fmt)
{
	struct ops_filter kf = { f->all, f->runs, f->nruns, f->distro,
				 f->lib, f->algo };
	char *out;
	size_t len;
	bo_err err;
	FILE *mem = section_open(&out, &len);
	long n = results_kdf(mem, db, &kf, fmt, &err);

	return section_done(mem, &out, &len, n, &err, path,
			    "key derivation results",
			    "`benchorch run` measures pbkdf2-sha256, hkdf-sha256, scrypt and argon2id without --algos, or when --algos names them");
}

int results_print_builds(sqlite3 *db, const char *path,
			const struct filters *f, enum format fmt)
{
	struct builds_filter bf = { f->all, f->runs, f->nruns, f->distro,
				    f->lib, f->algo, f->op, f->size };
	char *out;
	size_t len;
	bo_err err;
	FILE *mem = section_open(&out, &len);
	long n = results_builds(mem, db, &bf, fmt, &err);

	return section_done(mem, &out, &len, n, &err, path, "builds",
			    "`benchorch run --builds shipped,NAME` measures a build of `benchorch rebuild` beside the shipped library");
}
