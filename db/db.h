/* db.h - the SQLite store: open + migrate, runs, invocations, results.
 * It stores what it is handed: whether a result is verified, which
 * libraries failed and the fit of each curve are decided before, by
 * guest_output_judge (lib/judge.h). */
#ifndef BENCHORCH_DB_H
#define BENCHORCH_DB_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/cpuinfo.h"
#include "lib/cpustate.h"
#include "lib/guest_output.h"
#include "lib/judge.h"
#include "lib/util.h"

/* How long a writer waits for another writer's lock, in ms. */
#define DB_BUSY_TIMEOUT_MS 30000

/* What db_run_store_invocation returns when another writer held the
 * database for all of DB_BUSY_TIMEOUT_MS: nothing was tried, and the same
 * call may be made again. */
#define DB_BUSY (-2)

/* Open (creating if needed) the database at PATH, switch it to WAL, turn
 * foreign keys on and apply every pending migration (PRAGMA user_version).
 * A database newer than this program is refused. Returns 0 and a handle in
 * *ret (close with sqlite3_close), or -1 with err set naming PATH. */
int db_open(const char *path, sqlite3 **ret, bo_err *err);

/* Open PATH read-only without migrating (for queries). The file must exist
 * and have a schema this program knows. Works for a user who may read
 * PATH but not create files beside it, also after another client removed
 * the WAL side files: with no -wal file holding changes, the file is read
 * as immutable. Returns 0, or -1 with err set (when a -wal file with
 * changes cannot be read, err says so and names the command to run). */
int db_open_readonly(const char *path, sqlite3 **ret, bo_err *err);

/* Close DB, the database at PATH, as one self-contained file: its
 * write-ahead log is checkpointed into PATH and the database switched to
 * the rollback journal (journal_mode DELETE), so that no PATH-wal or
 * PATH-shm is left beside it (an export to carry to another host). DB must
 * be the only connection to PATH; it is closed in every case. Returns 0,
 * or -1 with err set naming PATH (the side files may then remain). */
int db_close_single_file(sqlite3 *db, const char *path, bo_err *err);

/* Remove the database file PATH and its PATH-wal, PATH-shm and
 * PATH-journal (a rollback journal a full disk left), those that exist
 * (what a failed export or merge made; errors are ignored). */
void db_remove_files(const char *path);

/* Schema version this program writes (= number of migrations). */
int db_schema_version(void);

/* What a run is, recorded when it starts. */
struct db_run {
	const char *uuid;		/* globally unique, 36 chars */
	const char *host;
	long pid;
	const char *started_at;		/* ISO 8601 UTC */
	const char *command_line;
	const struct cpuinfo *cpu;
	int quick;
	int seeded;			/* 1: seed below is recorded */
	uint64_t seed;			/* the run's order, 0 .. 2^32 - 1 */
	const struct cpustate *state;	/* the CPU every guest is pinned to
					 * (state->cpu) and its state before
					 * the run; NULL = not recorded */
};

/* One installed package of an image (a row of image_packages). */
struct db_image_package {
	const char *name;
	const char *version;
};

/* The package that ships a crypto library in an image, so that results
 * carry the distribution's package version. */
struct db_library_package {
	const char *library;		/* guest backend name, "openssl" */
	const char *package;		/* "libssl3" */
	const char *version;		/* its version installed in the image;
					 * NULL when it is not installed (the
					 * library is then stored with
					 * neither) */
};

/* A rebuilt library measured in an image (images/builds.h; run
 * --builds): what the builds table keeps of its build.json. Strings not
 * owned. */
struct db_build {
	const char *name;		/* the build's name: "o3" */
	const char *library;		/* guest backend: "libsodium" */
	const char *package;		/* runtime package: "libsodium23" */
	const char *source;		/* source package: "libsodium" */
	const char *source_version;	/* "1.0.18-1+deb12u1" */
	const char *compiler;		/* as given: "gcc", "clang-16" */
	const char *compiler_version;	/* its first --version line */
	const char *cflags;		/* effective CFLAGS */
	const char *digest;		/* of its shared objects: "sha256:..." */
};

/* An image as the database stores it (tables images and image_packages,
 * and the package columns of libraries). Every string and array is
 * borrowed from the caller for the call that stores it. */
struct db_image {
	const char *distro;		/* "debian" */
	const char *release;		/* "bookworm" */
	const char *digest;		/* "sha256:<64 hex>" over the rootfs */
	const char *method;		/* "debootstrap", "tarball", ... */
	const char *created_at;		/* ISO 8601 UTC */
	size_t npackages;
	const struct db_image_package *packages;	/* all installed */
	size_t nlibpkgs;
	const struct db_library_package *libpkgs;	/* looked up by
					 * library, the first that names it */
	size_t nbuilds;
	const struct db_build *builds;	/* the builds measured in this
					 * image: a guest library
					 * "LIBRARY@NAME" is stored as
					 * LIBRARY of the build NAME */
};

/* One guest invocation (one distro) of a run. */
struct db_invocation {
	const char *spec;		/* "debian", "debian:trixie" */
	const struct db_image *image;	/* NULL when the image failed */
	const char *runner;		/* "nspawn", "chroot" or "" */
	const char *variant;		/* "hw" or "nohw"; NULL = "hw" (the
					 * guest's hello overrides it) */
	const char *started_at;
	uint64_t wall_ns;		/* host wall clock, ns */
	const struct guest_output *out;	/* NULL or unused when error set */
	const struct guest_judgement *judged;	/* guest_output_judge(out),
					 * required with out (else the store
					 * fails); unused when out is */
	const char *error;		/* NULL = ok; else stored as failed,
					 * and none of out is stored */
	int round;			/* 1-based round of the run; 0 = none
					 * (stored NULL: no guest ran) */
	const char *algorithms;		/* the guest's --algos list, or NULL */
	/* Called in the run's transaction right after the invocation's row
	 * is stored, with its id, to store rows that hang off it (the tool
	 * mode's, db/tools.h); NULL = none. Returns 0, or -1 with err set
	 * (the transaction the invocation is stored in is then rolled back:
	 * the whole run's for db_run_finish, the invocation's own for
	 * db_run_store_invocation). */
	int (*store_more)(sqlite3 *db, int64_t invocation_id, void *ctx,
			  bo_err *err);
	void *store_ctx;
};

/* Insert the run with status 'running' and commit, so that a run killed
 * hard stays visible; with it its seed and the state of its CPU before
 * it starts (unknown values stored NULL). Returns 0 and its id in *ret_id,
 * or -1 with err set. */
int db_run_begin(sqlite3 *db, const struct db_run *run, int64_t *ret_id,
		 bo_err *err);

/* Store invocation INV of run RUN_ID (as db_run_finish stores each of
 * its invocations) in a BEGIN IMMEDIATE transaction of its own and commit
 * it, so that what a run measured is kept as it goes: a store that fails
 * later (disk full) loses only its own invocation. INV's strings, output
 * and judgement are only read during the call. Returns 0; DB_BUSY with
 * err set when another writer held the database past the busy timeout
 * (nothing of INV stored yet: call again); or -1 with err set (an output
 * without its judgement, or a database error: the transaction is rolled
 * back, nothing of INV is stored; the database stays consistent). */
int db_run_store_invocation(sqlite3 *db, int64_t run_id,
			    const struct db_invocation *inv, bo_err *err);

/* In one BEGIN IMMEDIATE transaction: store every invocation of INVS
 * (NINVS of them; none when they were stored one at a time by
 * db_run_store_invocation) (images and
 * their packages, libraries, KATs, results and key setups with their raw
 * samples, the measured clocks, and the fit of every curve), record which
 * package versions changed since the previous run of each distribution
 * (db_package_changes_record, for every invocation of the run stored by
 * now) and set the run's status ("done", "failed" or "aborted"), finish
 * time and error (may be NULL). Each result (or key setup) is stored
 * verified, each invocation partial and each curve with its fit as the
 * invocation's judgement (inv->judged) says. Returns 0, or -1 with err
 * set (an output without its judgement, or a database error: the
 * transaction is rolled back; the run stays 'running' with the
 * invocations stored before). */
int db_run_finish(sqlite3 *db, int64_t run_id, const char *status,
		  const char *error, const struct db_invocation *invs,
		  size_t ninvs, bo_err *err);

/* Set run RUN_ID's status ("done", "failed" or "aborted"), finish time and
 * ERROR (NULL = none) and nothing else: one small UPDATE, for marking a
 * run that could not be stored (a full disk: it writes as little as it
 * can, and records no package changes). Runs in the caller's transaction,
 * or alone. Returns 0, or -1 with err set. */
int db_run_set_status(sqlite3 *db, int64_t run_id, const char *status,
		      const char *error, bo_err *err);

/* Record the state of run RUN_ID's CPU after its last invocation: the
 * scaling frequency FREQ_AFTER_KHZ (kHz; <= 0 = unknown, stored NULL) and
 * WARNINGS (one per line, NULL = none: the numbers are not suspect).
 * Returns 0, or -1 with err set. */
int db_run_cpu_after(sqlite3 *db, int64_t run_id, int64_t freq_after_khz,
		     const char *warnings, bo_err *err);

/* Record why run RUN_ID's guests were pinned to their CPU: REASON (one
 * line) and SIBLINGS (the CPU's SMT siblings as a kernel CPU list, NULL =
 * none or unknown). Returns 0, or -1 with err set. */
int db_run_cpu_choice(sqlite3 *db, int64_t run_id, const char *reason,
		      const char *siblings, bo_err *err);

/* Mark as 'aborted' every run of HOST still 'running' whose process is gone
 * (killed without a chance to clean up). Returns the count, or -1 with err
 * set. */
int db_reap_stale_runs(sqlite3 *db, const char *host, bo_err *err);

/* Print, one line each on F (NULL: print nothing, only count), every (library, algorithm) of run RUN_ID
 * that disagreed with the other libraries in the cross-library check
 * ("debian:bookworm nettle aes-128-cbc: output differs from 2 other
 * libraries" ...). Returns the count, or -1 on a database error. */
long db_crosscheck_failures(sqlite3 *db, int64_t run_id, FILE *f);

/* Run SQL that returns no rows (several statements allowed). Returns 0, or
 * -1 with err set. */
int db_exec(sqlite3 *db, const char *sql, bo_err *err);

/* ERR's message without the "database error: " this file's functions
 * put before SQLite's own message (the reason alone, to follow a
 * sentence that names the database); ERR's whole message when it has no
 * such prefix. Points into ERR. */
const char *db_err_reason(const bo_err *err);

/* The integer in the first column of the first row of SQL (a query with no
 * parameters), 0 for NULL; -1 when SQL does not compile or returns no
 * row. For counts and other queries whose answer is never negative. */
long long db_query_int(sqlite3 *db, const char *sql);

/* Whether DB's schema holds a table or view named NAME (a database opened
 * read-only is not migrated: an older one lacks later tables). 1 yes, 0
 * no, -1 on a database error (a schema that cannot be read: the message
 * is sqlite3_errmsg(DB)). */
int db_has(sqlite3 *db, const char *name);

/* Compile SQL, a query naming tables or columns that a database of an
 * older schema (opened read-only, not migrated) may lack, into *ST (as
 * sqlite3_prepare_v2). Returns 1 when it compiles (finalize *ST); 0 when
 * it does not because SQLite reports an SQL error (SQLITE_ERROR: a table
 * or column it names is missing); -1 on any other error (a schema that
 * cannot be read, out of memory: the message is sqlite3_errmsg(DB)). *ST
 * is NULL unless 1 is returned. */
int db_prepare_optional(sqlite3 *db, const char *sql, sqlite3_stmt **st);

/* Whether DB's table or view TABLE has column COLUMN (both plain names,
 * as in benchorch's own schema; db_prepare_optional of a query of it): 1
 * yes, 0 no (or no such table), -1 on a database error (the message is
 * sqlite3_errmsg(DB)). */
int db_has_column(sqlite3 *db, const char *table, const char *column);

/* Check DB's structure with SQLite's PRAGMA quick_check (every page of
 * the main database read once). Returns 0 when it is sound, or -1 with
 * err set to one line: SQLite's message ("database disk image is
 * malformed"), with the first problem quick_check names when it names
 * one. */
int db_quick_check(sqlite3 *db, bo_err *err);

/* Does DB hold run ID? 1 yes, 0 no, -1 on a database error. */
int db_run_exists(sqlite3 *db, int64_t id);

/* Is run ID of DB a tool run (run --tools): tool results and no library
 * results? 1 yes, 0 no (also for a run DB does not hold, and for a
 * database older than the tool mode), -1 on a database error. */
int db_run_is_tool_run(sqlite3 *db, int64_t id);

/* Column I of the current row of ST as a new string: NULL when the column
 * is NULL (db_column_dup) or "" then (db_column_dup_or_empty). The caller
 * frees it; out of memory aborts (xstrdup). */
char *db_column_dup(sqlite3_stmt *st, int i);
char *db_column_dup_or_empty(sqlite3_stmt *st, int i);

#endif
