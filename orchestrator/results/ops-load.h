/* ops-load.h - the public-key (pubkey_v, schema 19) and key derivation
 * (kdf_v, schema 22) results of runs, one row per run, distribution,
 * variant, build, library, algorithm and operation, as the report and
 * compare read them. */
#ifndef BENCHORCH_OPS_LOAD_H
#define BENCHORCH_OPS_LOAD_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* Which results: public key or key derivation. */
enum ops_kind { OPS_PUBKEY, OPS_KDF };

/* One algorithm and operation of one library in one run's distribution,
 * its invocations folded (as `benchorch results --pubkey` and `--kdf`
 * fold them). Strings owned by the row. */
struct ops_row {
	int64_t run_id;
	char *distro;		/* "debian:bookworm" ("" without an image) */
	char *variant;		/* "hw" or "nohw" */
	char *build;		/* "shipped" or the build's name (run --builds) */
	char *library;		/* guest backend name: "openssl" */
	char *version;		/* its package version, "" when none */
	char *algorithm;	/* "x25519", "argon2id" */
	char *operation;	/* public key: "derive", "sign", ...; key
				 * derivation: its cost parameters as the
				 * guest gave them ("t=3,m=65536,p=1,dklen=32") */
	double ops_per_s;	/* operations (derivations) per second: 10^9
				 * over the mean of the invocations' ns per
				 * operation */
	int verified;		/* 1 when every invocation's result was */
	long invocations;	/* how many invocations measured it */
	char *why;		/* not verified: why (key derivation:
				 * results_kdf_source's unverified_reason);
				 * NULL when verified or not known */
	int fastest;		/* 1: the fastest of its group (same run,
				 * distribution, variant, algorithm and
				 * operation; ops_mark_ties) */
	int tie;		/* 1: the run's pairs do not tell it apart
				 * from its group's fastest (ops_mark_ties) */
};

/* The results of KIND of the NRUNS runs in RUNS (in that order) into
 * *RET, newly allocated (release with ops_rows_free): per run sorted by
 * distribution, variant, algorithm, operation (key derivations: by
 * memory, iterations, then parameters), build (the shipped library
 * first) and library. Returns the number of rows, their fastest and
 * ties marked (ops_mark_ties, ops-fastest.h): 0 (and *RET NULL) when the
 * runs have none or the database's
 * schema predates KIND's view (a database opened read-only, not
 * migrated); -1 with err set ("database error: ...") on a database
 * error. */
long ops_rows_load(sqlite3 *db, enum ops_kind kind, const int64_t *runs,
		   size_t nruns, struct ops_row **ret, bo_err *err);

/* The name of R's library as a column or a tie names it: "LIBRARY" for
 * the shipped library, "LIBRARY@BUILD" for a build of it. Newly
 * allocated; caller frees. Never fails (aborts when out of memory). */
char *ops_row_label(const struct ops_row *r);

/* Release the N rows V and their strings (V may be NULL). */
void ops_rows_free(struct ops_row *v, size_t n);

/* The latest finished run of DB (status done, by started_at, then id)
 * that has public-key or key derivation results and is not a
 * confirmation run: its id (> 0), 0 when there is none (or the schema
 * predates both), or -1 on a database error (the message is
 * sqlite3_errmsg(DB)). */
int64_t ops_latest_run(sqlite3 *db);

/* How many rows ops_rows_load gives for the NRUNS runs in RUNS, public
 * key and key derivation together: 0 when they have none (or the schema
 * predates them), -1 with err set on a database error. */
long ops_runs_count(sqlite3 *db, const int64_t *runs, size_t nruns,
		    bo_err *err);

/* "public key" or "key derivation" (static storage). */
const char *ops_kind_name(enum ops_kind kind);

#endif
