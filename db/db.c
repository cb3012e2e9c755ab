/* db.c - open, migrate and write the results database. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "db/migrations.h"
#include "lib/curves.h"
#include "db/package-changes.h"
#include "db/resources.h"

int db_schema_version(void)
{
	return db_migrations_count ?
	       (int)db_migrations[db_migrations_count - 1].version : 0;
}

const char *db_err_reason(const bo_err *err)
{
	static const char prefix[] = "database error: ";

	return strncmp(err->msg, prefix, sizeof(prefix) - 1) == 0 ?
	       err->msg + sizeof(prefix) - 1 : err->msg;
}

int db_exec(sqlite3 *db, const char *sql, bo_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		bo_err_set(err, "database error: %s",
			   msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

long long db_query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = (long long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int db_has(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	int found, rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE"
			       " type IN ('table', 'view') AND name = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	found = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return found;
}

int db_prepare_optional(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);

	if (rc == SQLITE_OK)
		return 1;
	*st = NULL;
	/* the primary code: a connection may report extended ones */
	return (rc & 0xff) == SQLITE_ERROR ? 0 : -1;
}

int db_has_column(sqlite3 *db, const char *table, const char *column)
{
	char *sql = xasprintf("SELECT %s FROM %s LIMIT 0", column, table);
	sqlite3_stmt *st;
	int k = db_prepare_optional(db, sql, &st);

	sqlite3_finalize(st);
	free(sql);
	return k;
}

int db_quick_check(sqlite3 *db, bo_err *err)
{
	sqlite3_stmt *st;
	const char *t, *nl;
	int rc;

	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) !=
	    SQLITE_OK)
		return bo_err_set(err, "%s", sqlite3_errmsg(db));
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		bo_err_set(err, "%s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	t = (const char *)sqlite3_column_text(st, 0);
	if (t && strcmp(t, "ok") == 0) {
		sqlite3_finalize(st);
		return 0;
	}
	/* "*** in database main ***\nPage 63: ...": its last line */
	nl = t ? strrchr(t, '\n') : NULL;
	bo_err_set(err, "%s (PRAGMA quick_check: %s)",
		   sqlite3_errstr(SQLITE_CORRUPT),
		   nl ? nl + 1 : t ? t : "no answer");
	sqlite3_finalize(st);
	return -1;
}

static int user_version(sqlite3 *db, int *ret, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	*ret = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* 1 when the database already has tables (or views) of its own. */
static int has_tables(sqlite3 *db)
{
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1,
			       &st, NULL) != SQLITE_OK)
		return 1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n > 0;
}

/* Apply the migrations above the current user_version (db/migrations.h),
 * all in one BEGIN IMMEDIATE transaction, each followed by its version
 * bump. */
static int migrate(sqlite3 *db, const char *path, bo_err *err)
{
	unsigned i;
	int v;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (user_version(db, &v, err) < 0)
		goto fail;
	if (v > db_schema_version()) {
		bo_err_set(err, "database '%s' has schema version %d, newer than this benchorch (%d)",
			   path, v, db_schema_version());
		goto fail;
	}
	for (i = 0; i < db_migrations_count; i++) {
		char bump[64];

		if ((int)db_migrations[i].version <= v)
			continue;
		if (db_exec(db, db_migrations[i].sql, err) < 0)
			goto fail;
		snprintf(bump, sizeof(bump), "PRAGMA user_version = %u",
			 db_migrations[i].version);
		if (db_exec(db, bump, err) < 0)
			goto fail;
	}
	if (db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction
	 * open: roll it back, so the next one can begin */
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Say why PATH cannot be a database file before SQLite tries it (its own
 * messages, "disk I/O error" for a directory, "unable to open database
 * file" for a file without permission, name neither): a directory, or
 * an existing file this process may not read (MODE R_OK) or read and
 * write (R_OK | W_OK). Returns 0 when nothing speaks against it (also
 * when PATH does not exist), or -1 with err set naming PATH. */
static int check_path(const char *path, int mode, bo_err *err)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return bo_err_set(err, "cannot open database '%s': it is a directory (--db names the database file)",
				  path);
	if (access(path, mode) != 0)
		return bo_err_set(err, "cannot open database '%s': %s", path,
				  strerror(errno));
	return 0;
}

int db_open(const char *path, sqlite3 **ret, bo_err *err)
{
	sqlite3 *db = NULL;
	int persist = 1, v;
	bo_err e;

	if (check_path(path, R_OK | W_OK, err) < 0)
		return -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
	    SQLITE_OK) {
		bo_err_set(err, "cannot open database '%s': %s", path,
			   db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, DB_BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(db, 1);
	/* Keep the -wal and -shm files after the last writer closes, so that
	 * users who may only read the database (not create files beside it)
	 * can still open it in WAL mode. */
	sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
	if (user_version(db, &v, &e) == 0 && v == 0 && has_tables(db)) {
		bo_err_set(err, "'%s' is an SQLite database of something else, not benchorch's: refusing to change it",
			   path);
		sqlite3_close(db);
		return -1;
	}
	if (db_exec(db, "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;"
		    "PRAGMA synchronous = NORMAL", &e) < 0 ||
	    migrate(db, path, &e) < 0) {
		if (db_err_reason(&e) != e.msg)
			bo_err_set(err, "cannot open database '%s': %s", path,
				   db_err_reason(&e));
		else
			*err = e;
		sqlite3_close(db);
		return -1;
	}
	*ret = db;
	return 0;
}

/* "file:PATH?immutable=1" with PATH's '%', '?' and '#' percent-encoded
 * (SQLite's URI filenames). Caller frees. */
static char *immutable_uri(const char *path)
{
	char *uri = xmalloc(3 * strlen(path) + 32), *p = uri;

	p += sprintf(p, "file:");
	for (; *path; path++) {
		if (*path == '%' || *path == '?' || *path == '#')
			p += sprintf(p, "%%%02X", (unsigned char)*path);
		else
			*p++ = *path;
	}
	strcpy(p, "?immutable=1");
	return uri;
}

/* Open PATH read-only and read its user_version into *v. Where a reader
 * may not create the WAL side files (-shm, -wal: another client, such as
 * sqlite3, removed them when it closed last) and no -wal file with
 * changes is left, everything is in the database file itself: it is then
 * read as immutable (SQLite's "immutable" URI parameter: no locks, no
 * side files). A writer that checkpoints while such a reader reads can
 * make that one read fail; the reader can simply run again. Returns 0, or
 * -1 with err set saying why and what to run. */
static int open_for_reading(const char *path, sqlite3 **ret, int *v,
			    bo_err *err)
{
	sqlite3 *db = NULL;
	char *wal, *uri;
	struct stat st;
	int code;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		bo_err_set(err, "cannot open database '%s': %s", path,
			   db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, DB_BUSY_TIMEOUT_MS);
	if (user_version(db, v, err) == 0) {
		*ret = db;
		return 0;
	}
	code = sqlite3_errcode(db);
	bo_err_set(err, "cannot read database '%s': %s", path,
		   sqlite3_errmsg(db));
	sqlite3_close(db);
	if (code != SQLITE_READONLY && code != SQLITE_CANTOPEN)
		return -1;
	wal = xasprintf("%s-wal", path);
	if (stat(wal, &st) == 0 && st.st_size > 0) {
		bo_err_set(err, "cannot read database '%s' as this user: its "
			   "write-ahead log '%s' holds changes, and only a user "
			   "who may write beside the database can open it; run "
			   "\"sqlite3 '%s' 'PRAGMA wal_checkpoint(TRUNCATE)'\" "
			   "as root (or any benchorch command as root) once",
			   path, wal, path);
		free(wal);
		return -1;
	}
	free(wal);
	uri = immutable_uri(path);
	db = NULL;
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			    NULL) != SQLITE_OK || user_version(db, v, err) < 0) {
		bo_err_set(err, "cannot read database '%s': %s", path,
			   db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		free(uri);
		return -1;
	}
	free(uri);
	*ret = db;
	return 0;
}

int db_close_single_file(sqlite3 *db, const char *path, bo_err *err)
{
	sqlite3_stmt *st = NULL;
	const char *side[] = { "-wal", "-shm" };
	int persist = 0, ok = 0;

	/* db_open keeps the side files after the last close: not here */
	sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
	if (sqlite3_prepare_v2(db, "PRAGMA main.journal_mode = DELETE", -1,
			       &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 0);

		ok = mode && strcmp((const char *)mode, "delete") == 0;
	}
	if (!ok)
		bo_err_set(err, "cannot make '%s' a single file: %s", path,
			   sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (sqlite3_close(db) != SQLITE_OK) {
		sqlite3_close_v2(db);
		if (ok)
			bo_err_set(err, "cannot close '%s'", path);
		return -1;
	}
	if (!ok)
		return -1;
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		char *f = xasprintf("%s%s", path, side[i]);
		struct stat sb;
		int left = lstat(f, &sb) == 0;

		if (left)
			bo_err_set(err, "'%s' is left beside '%s'", f, path);
		free(f);
		if (left)
			return -1;
	}
	return 0;
}

void db_remove_files(const char *path)
{
	const char *side[] = { "-wal", "-shm", "-journal" };

	unlink(path);
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		char *f = xasprintf("%s%s", path, side[i]);

		unlink(f);
		free(f);
	}
}

int db_open_readonly(const char *path, sqlite3 **ret, bo_err *err)
{
	sqlite3 *db = NULL;
	int v;

	if (access(path, F_OK) != 0) {
		bo_err_set(err, "cannot open database '%s': %s ('benchorch run' creates it)",
			   path, strerror(errno));
		return -1;
	}
	if (check_path(path, R_OK, err) < 0 ||
	    open_for_reading(path, &db, &v, err) < 0)
		return -1;
	if (v == 0) {
		bo_err_set(err, "'%s' is not a benchorch database (no schema): 'benchorch run' creates one",
			   path);
		sqlite3_close(db);
		return -1;
	}
	if (v > db_schema_version()) {
		bo_err_set(err, "database '%s' has schema version %d, newer than this benchorch (%d)",
			   path, v, db_schema_version());
		sqlite3_close(db);
		return -1;
	}
	*ret = db;
	return 0;
}

/* Prepared-statement helpers. Each returns 0, or -1 with err set. */

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, bo_err *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

/* Step a statement that returns no rows, then reset it for reuse. */
static int step_done(sqlite3 *db, sqlite3_stmt *st, bo_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* Step a one-row SELECT of an id. Returns 1 with *id set, 0 when no row,
 * -1 on error. */
static int step_id(sqlite3 *db, sqlite3_stmt *st, int64_t *id, bo_err *err)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
}

static int cpu_id(sqlite3 *db, const struct cpuinfo *ci, int64_t *ret,
		  bo_err *err)
{
	static const char *ins =
		"INSERT OR IGNORE INTO cpus (vendor, model_name, family, model,"
		" stepping, microcode, flags) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	static const char *sel =
		"SELECT id FROM cpus WHERE vendor = ?1 AND model_name = ?2 AND"
		" family = ?3 AND model = ?4 AND stepping = ?5 AND"
		" microcode = ?6 AND flags = ?7";
	const char *sqls[2] = { ins, sel };
	int i, rc = -1;

	for (i = 0; i < 2; i++) {
		sqlite3_stmt *st;

		if (prep(db, sqls[i], &st, err) < 0)
			return -1;
		bind_text(st, 1, ci->vendor);
		bind_text(st, 2, ci->model_name);
		sqlite3_bind_int(st, 3, ci->family);
		sqlite3_bind_int(st, 4, ci->model);
		sqlite3_bind_int(st, 5, ci->stepping);
		bind_text(st, 6, ci->microcode);
		bind_text(st, 7, ci->flags);
		rc = i == 0 ? step_done(db, st, err) : step_id(db, st, ret, err);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return rc == 1 ? 0 : bo_err_set(err, "database error: cpu row missing");
}

/* Bind the CPU state S (may be NULL) to parameters FIRST .. FIRST + 4:
 * governor, boost, freq_before_khz, virtualized, hypervisor; unknown
 * values stay NULL. */
static void bind_state(sqlite3_stmt *st, int first, const struct cpustate *s)
{
	if (!s)
		return;
	if (s->governor)
		bind_text(st, first, s->governor);
	if (s->boost >= 0)
		sqlite3_bind_int(st, first + 1, s->boost);
	if (s->freq_khz > 0)
		sqlite3_bind_int64(st, first + 2, s->freq_khz);
	if (s->virtualized >= 0)
		sqlite3_bind_int(st, first + 3, s->virtualized);
	if (s->hypervisor)
		bind_text(st, first + 4, s->hypervisor);
}

int db_run_begin(sqlite3 *db, const struct db_run *run, int64_t *ret_id,
		 bo_err *err)
{
	sqlite3_stmt *st;
	int64_t cid;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (cpu_id(db, run->cpu, &cid, err) < 0)
		goto fail;
	if (prep(db, "INSERT INTO runs (uuid, host, pid, started_at, status,"
		 " command_line, cpu_id, kernel, quick, seed, pinned_cpu,"
		 " governor, boost, freq_before_khz, virtualized, hypervisor)"
		 " VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7, ?8, ?9, ?10,"
		 " ?11, ?12, ?13, ?14, ?15)", &st, err) < 0)
		goto fail;
	bind_text(st, 1, run->uuid);
	bind_text(st, 2, run->host);
	sqlite3_bind_int64(st, 3, run->pid);
	bind_text(st, 4, run->started_at);
	bind_text(st, 5, run->command_line);
	sqlite3_bind_int64(st, 6, cid);
	bind_text(st, 7, run->cpu->kernel);
	sqlite3_bind_int(st, 8, run->quick ? 1 : 0);
	if (run->seeded)
		sqlite3_bind_int64(st, 9, (sqlite3_int64)run->seed);
	if (run->state && run->state->cpu >= 0)
		sqlite3_bind_int(st, 10, run->state->cpu);
	bind_state(st, 11, run->state);
	if (step_done(db, st, err) < 0) {
		sqlite3_finalize(st);
		goto fail;
	}
	sqlite3_finalize(st);
	*ret_id = sqlite3_last_insert_rowid(db);
	if (db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction
	 * open: roll it back, so the next one can begin */
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Insert the image and its packages if new; *ret gets its id. */
static int image_id(sqlite3 *db, const struct image *img, int64_t *ret,
		    bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (prep(db, "SELECT id FROM images WHERE distro = ?1 AND release = ?2"
		 " AND digest = ?3", &st, err) < 0)
		return -1;
	bind_text(st, 1, img->distro);
	bind_text(st, 2, img->release);
	bind_text(st, 3, img->digest);
	rc = step_id(db, st, ret, err);
	sqlite3_finalize(st);
	if (rc != 0)
		return rc < 0 ? -1 : 0;

	if (prep(db, "INSERT INTO images (distro, release, digest, method,"
		 " created_at) VALUES (?1, ?2, ?3, ?4, ?5)", &st, err) < 0)
		return -1;
	bind_text(st, 1, img->distro);
	bind_text(st, 2, img->release);
	bind_text(st, 3, img->digest);
	bind_text(st, 4, img->method);
	bind_text(st, 5, img->created_at);
	rc = step_done(db, st, err);
	sqlite3_finalize(st);
	if (rc < 0)
		return -1;
	*ret = sqlite3_last_insert_rowid(db);

	if (prep(db, "INSERT OR REPLACE INTO image_packages (image_id, package,"
		 " version) VALUES (?1, ?2, ?3)", &st, err) < 0)
		return -1;
	for (i = 0; i < img->npackages; i++) {
		sqlite3_bind_int64(st, 1, *ret);
		bind_text(st, 2, img->packages[i].name);
		bind_text(st, 3, img->packages[i].version);
		if (step_done(db, st, err) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static int library_id(sqlite3 *db, const struct guest_library *l,
		      const struct image *img, int64_t *ret, bo_err *err)
{
	const char *pkg = img ? image_library_package(img, l->name) : NULL;
	const char *pver = pkg ? image_package_version(img, pkg) : NULL;
	static const char *sqls[2] = {
		"INSERT OR IGNORE INTO libraries (name, version, soname, path,"
		" package, package_version, build_id) VALUES (?1, ?2, ?3, ?4,"
		" ?5, ?6, ?7)",
		"SELECT id FROM libraries WHERE name = ?1 AND version = ?2 AND"
		" soname = ?3 AND path = ?4 AND package = ?5 AND"
		" package_version = ?6",
	};
	int i, rc = -1;

	for (i = 0; i < 2; i++) {
		sqlite3_stmt *st;

		if (prep(db, sqls[i], &st, err) < 0)
			return -1;
		bind_text(st, 1, l->name);
		bind_text(st, 2, l->version);
		bind_text(st, 3, l->soname);
		bind_text(st, 4, l->path);
		bind_text(st, 5, pver ? pkg : NULL);
		bind_text(st, 6, pver);
		if (i == 0)
			bind_text(st, 7, l->build_id);
		rc = i == 0 ? step_done(db, st, err) : step_id(db, st, ret, err);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return rc == 1 ? 0 : bo_err_set(err, "database error: library row missing");
}

/* 1 when LIB ran at least one known-answer test of ALG and passed every
 * one it ran. */
static int kat_passed(const struct guest_output *out, const char *lib,
		      const char *alg)
{
	size_t i;
	int seen = 0;

	for (i = 0; i < out->nkats; i++)
		if (strcmp(out->kats[i].library, lib) == 0 &&
		    strcmp(out->kats[i].algorithm, alg) == 0) {
			if (!out->kats[i].ok)
				return 0;
			seen = 1;
		}
	return seen;
}

/* Index in out->libraries of the loaded library NAME, or nlibraries. */
static size_t loaded_index(const struct guest_output *out, const char *name)
{
	size_t j;

	for (j = 0; j < out->nlibraries; j++)
		if (strcmp(out->libraries[j].name, name) == 0)
			return out->libraries[j].loaded ? j : out->nlibraries;
	return out->nlibraries;
}

/* Bind the statistics of T to ST's parameters FIRST .. FIRST + 5: p25_ns,
 * p75_ns, cv, reruns, noisy, tsc_cycles (NULL when 0: no TSC). */
static void bind_timing(sqlite3_stmt *st, int first,
			const struct guest_timing *t)
{
	sqlite3_bind_int64(st, first, t->p25_ns);
	sqlite3_bind_int64(st, first + 1, t->p75_ns);
	sqlite3_bind_double(st, first + 2, t->cv);
	sqlite3_bind_int64(st, first + 3, t->reruns);
	sqlite3_bind_int(st, first + 4, t->noisy ? 1 : 0);
	if (t->tsc_cycles > 0)
		sqlite3_bind_int64(st, first + 5, t->tsc_cycles);
}

/* Store T's samples for row ID with ST (INSERT of (id, rep, ns)): every
 * set, rep = set x repetitions + index in the set, so that the row's
 * repetitions column (samples per set) splits them into their sets. */
static int store_samples(sqlite3 *db, sqlite3_stmt *st, int64_t id,
			 const struct guest_timing *t, bo_err *err)
{
	int64_t i;

	for (i = 0; i < t->nsamples; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, i);
		sqlite3_bind_int64(st, 3, t->samples_ns[i]);
		if (step_done(db, st, err) < 0)
			return -1;
	}
	return 0;
}

/* Store the fit of every curve of OUT (lib/curves.h) for
 * invocation INV_ID; LIB_IDS are the ids of out->libraries. */
static int store_curves(sqlite3 *db, int64_t inv_id,
			const struct guest_output *out, const int64_t *lib_ids,
			bo_err *err)
{
	struct curve_fit *f;
	sqlite3_stmt *st;
	size_t n = curves_fit(out, &f), i, j;
	int rc = 0;

	if (n == 0)
		return 0;
	if (prep(db, "INSERT INTO curves (invocation_id, library_id,"
		 " algorithm, operation, mode, points, overhead_ns, ns_per_byte,"
		 " cycles_per_byte) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
		 &st, err) < 0) {
		free(f);
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		j = loaded_index(out, f[i].library);
		if (j == out->nlibraries)
			continue;	/* cannot happen: results were checked */
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		bind_text(st, 3, f[i].algorithm);
		bind_text(st, 4, f[i].operation);
		bind_text(st, 5, f[i].mode);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)f[i].points);
		sqlite3_bind_double(st, 7, f[i].overhead_ns);
		sqlite3_bind_double(st, 8, f[i].ns_per_byte);
		if (f[i].cycles_per_byte >= 0)
			sqlite3_bind_double(st, 9, f[i].cycles_per_byte);
		rc = step_done(db, st, err);
	}
	sqlite3_finalize(st);
	free(f);
	return rc;
}

/* Store what the guest reported for invocation INV_ID. */
/* Store the contention canary of every curve of OUT (table canaries,
 * schema 8; remeasured schema 13): before_ns, after_ns, noise, moved and
 * remeasured as the guest judged them, LIB_IDS indexed like
 * out->libraries. */
static int store_canaries(sqlite3 *db, int64_t inv_id,
			  const struct guest_output *out,
			  const int64_t *lib_ids, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i, j;
	int rc = -1;

	if (prep(db, "INSERT INTO canaries (invocation_id, library_id,"
		 " algorithm, operation, mode, before_ns, after_ns, noise, moved,"
		 " remeasured) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
		 &st, err) < 0)
		return -1;
	for (i = 0; i < out->ncanaries; i++) {
		const struct guest_canary *c = &out->canaries[i];

		j = loaded_index(out, c->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "canary for library '%s' that was not loaded",
				   c->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		bind_text(st, 3, c->algorithm);
		bind_text(st, 4, c->operation);
		bind_text(st, 5, c->mode);
		sqlite3_bind_int64(st, 6, c->before_ns);
		sqlite3_bind_int64(st, 7, c->after_ns);
		sqlite3_bind_double(st, 8, c->noise);
		sqlite3_bind_int(st, 9, c->moved);
		sqlite3_bind_int(st, 10, c->remeasured);
		if (step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

static int store_output(sqlite3 *db, int64_t inv_id,
			const struct guest_output *out,
			const struct image *img, bo_err *err)
{
	sqlite3_stmt *st = NULL, *ss = NULL;
	int64_t *lib_ids;
	size_t i, j;
	int rc = -1;

	lib_ids = xcalloc(out->nlibraries + 1, sizeof(*lib_ids));
	if (prep(db, "INSERT INTO library_loads (invocation_id, name, status,"
		 " library_id, build_id, position, message) VALUES (?1, ?2, ?3,"
		 " ?4, ?5, ?6, ?7)", &st, err) < 0)
		goto out;
	for (i = 0; i < out->nlibraries; i++) {
		const struct guest_library *l = &out->libraries[i];

		if (l->loaded && library_id(db, l, img, &lib_ids[i], err) < 0)
			goto out;
		sqlite3_bind_int64(st, 1, inv_id);
		bind_text(st, 2, l->name);
		bind_text(st, 3, l->loaded ? "loaded" :
			  l->failed ? "failed" : "absent");
		if (l->loaded)
			sqlite3_bind_int64(st, 4, lib_ids[i]);
		bind_text(st, 5, l->build_id);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)i);
		if (l->message)		/* NULL unless it failed */
			bind_text(st, 7, l->message);
		if (step_done(db, st, err) < 0)
			goto out;
	}
	sqlite3_finalize(st);

	/* a vector reported twice counts as failed if it failed once */
	if (prep(db, "INSERT INTO kats (invocation_id, library, algorithm, ok,"
		 " source) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO UPDATE"
		 " SET ok = min(ok, excluded.ok)", &st, err) < 0)
		goto out;
	for (i = 0; i < out->nkats; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		bind_text(st, 2, out->kats[i].library);
		bind_text(st, 3, out->kats[i].algorithm);
		sqlite3_bind_int(st, 4, out->kats[i].ok);
		bind_text(st, 5, out->kats[i].source);
		if (step_done(db, st, err) < 0)
			goto out;
	}
	sqlite3_finalize(st);

	if (prep(db, "INSERT OR IGNORE INTO unsupported (invocation_id, library,"
		 " algorithm) VALUES (?1, ?2, ?3)", &st, err) < 0)
		goto out;
	for (i = 0; i < out->nunsupported; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		bind_text(st, 2, out->unsupported[i].library);
		bind_text(st, 3, out->unsupported[i].algorithm);
		if (step_done(db, st, err) < 0)
			goto out;
	}
	sqlite3_finalize(st);

	if (prep(db, "INSERT INTO guest_errors (invocation_id, library,"
		 " algorithm, message) VALUES (?1, ?2, ?3, ?4)", &st, err) < 0)
		goto out;
	for (i = 0; i < out->nerrors; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		bind_text(st, 2, out->errors[i].library);
		bind_text(st, 3, out->errors[i].algorithm);
		bind_text(st, 4, out->errors[i].message);
		if (step_done(db, st, err) < 0)
			goto out;
	}
	sqlite3_finalize(st);

	if (prep(db, "INSERT INTO results (invocation_id, library_id,"
		 " algorithm, operation, buffer_bytes, calls_per_batch,"
		 " bytes_per_batch, repetitions, median_ns, min_ns, mb_per_s,"
		 " verified, mode, p25_ns, p75_ns, cv, reruns, noisy, tsc_cycles)"
		 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		 " ?14, ?15, ?16, ?17, ?18, ?19)", &st, err) < 0 ||
	    prep(db, "INSERT INTO samples (result_id, rep, ns) VALUES (?1, ?2,"
		 " ?3)", &ss, err) < 0)
		goto out;
	for (i = 0; i < out->nresults; i++) {
		const struct guest_result *r = &out->results[i];

		j = loaded_index(out, r->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "result for library '%s' that was not loaded",
				   r->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		bind_text(st, 3, r->algorithm);
		bind_text(st, 4, r->operation);
		sqlite3_bind_int64(st, 5, r->buffer_bytes);
		sqlite3_bind_int64(st, 6, r->calls_per_batch);
		sqlite3_bind_int64(st, 7, r->bytes_per_batch);
		sqlite3_bind_int64(st, 8, r->t.repetitions);
		sqlite3_bind_int64(st, 9, r->t.median_ns);
		sqlite3_bind_int64(st, 10, r->t.min_ns);
		sqlite3_bind_double(st, 11, r->mb_per_s);
		sqlite3_bind_int(st, 12, r->verified &&
				 kat_passed(out, r->library, r->algorithm) &&
				 guest_output_crosscheck_ok(out, r->library,
							    r->algorithm));
		bind_text(st, 13, r->mode);
		bind_timing(st, 14, &r->t);
		if (step_done(db, st, err) < 0 ||
		    store_samples(db, ss, sqlite3_last_insert_rowid(db), &r->t,
				  err) < 0)
			goto out;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ss);
	ss = NULL;

	if (prep(db, "INSERT INTO keysetups (invocation_id, library_id,"
		 " algorithm, operation, calls_per_batch, repetitions,"
		 " median_ns, min_ns, ns_per_key, verified, p25_ns, p75_ns, cv,"
		 " reruns, noisy, tsc_cycles) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
		 " ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)", &st, err) < 0 ||
	    prep(db, "INSERT INTO keysetup_samples (keysetup_id, rep, ns)"
		 " VALUES (?1, ?2, ?3)", &ss, err) < 0)
		goto out;
	for (i = 0; i < out->nkeysetups; i++) {
		const struct guest_keysetup *k = &out->keysetups[i];

		j = loaded_index(out, k->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "keysetup for library '%s' that was not loaded",
				   k->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		bind_text(st, 3, k->algorithm);
		bind_text(st, 4, k->operation);
		sqlite3_bind_int64(st, 5, k->calls_per_batch);
		sqlite3_bind_int64(st, 6, k->t.repetitions);
		sqlite3_bind_int64(st, 7, k->t.median_ns);
		sqlite3_bind_int64(st, 8, k->t.min_ns);
		sqlite3_bind_double(st, 9, k->ns_per_call);
		sqlite3_bind_int(st, 10, k->verified &&
				 kat_passed(out, k->library, k->algorithm) &&
				 guest_output_crosscheck_ok(out, k->library,
							    k->algorithm));
		bind_timing(st, 11, &k->t);
		if (step_done(db, st, err) < 0 ||
		    store_samples(db, ss, sqlite3_last_insert_rowid(db), &k->t,
				  err) < 0)
			goto out;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ss);
	ss = NULL;
	st = NULL;
	if (store_curves(db, inv_id, out, lib_ids, err) < 0 ||
	    db_store_resources(db, inv_id, out, err) < 0)
		goto out;

	if (prep(db, "INSERT INTO crosschecks (invocation_id, library,"
		 " algorithm, input_bytes, output_bytes, digest, roundtrip,"
		 " agrees) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &st,
		 err) < 0)
		goto out;
	for (i = 0; i < out->ncrosschecks; i++) {
		const struct guest_crosscheck *c = &out->crosschecks[i];

		sqlite3_bind_int64(st, 1, inv_id);
		bind_text(st, 2, c->library);
		bind_text(st, 3, c->algorithm);
		sqlite3_bind_int64(st, 4, c->input_bytes);
		sqlite3_bind_int64(st, 5, c->output_bytes);
		bind_text(st, 6, c->digest);
		sqlite3_bind_int(st, 7, c->roundtrip);
		if (c->agrees >= 0)
			sqlite3_bind_int(st, 8, c->agrees);
		if (step_done(db, st, err) < 0)
			goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (store_canaries(db, inv_id, out, lib_ids, err) < 0)
		goto out;
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(ss);
	free(lib_ids);
	return rc;
}

static int store_invocation_out(sqlite3 *db, int64_t run_id,
				const struct db_invocation *inv,
				const struct guest_output *out, bo_err *err)
{
	sqlite3_stmt *st;
	int64_t img_id = 0, inv_id;
	int rc;

	if (inv->image && image_id(db, inv->image, &img_id, err) < 0)
		return -1;
	if (prep(db, "INSERT INTO invocations (run_id, image_id, spec, runner,"
		 " guest_version, libc, cpu, started_at, wall_ns, measure_ns,"
		 " status, error, variant, clock_start_hz, clock_end_hz, tsc_hz,"
		 " guest_elapsed_ns, host_elapsed_ns, round, algorithms, seed,"
		 " partial)"
		 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		 " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)", &st, err) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (inv->image)
		sqlite3_bind_int64(st, 2, img_id);
	bind_text(st, 3, inv->spec);
	bind_text(st, 4, inv->runner);
	bind_text(st, 5, out ? out->guest_version : NULL);
	bind_text(st, 6, out ? out->libc : NULL);
	sqlite3_bind_int(st, 7, out ? out->cpu : -1);
	bind_text(st, 8, inv->started_at);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)inv->wall_ns);
	sqlite3_bind_int64(st, 10, out ? out->measure_ns : 0);
	bind_text(st, 11, inv->error ? "failed" : "ok");
	if (inv->error)
		bind_text(st, 12, inv->error);
	bind_text(st, 13, out && out->variant ? out->variant :
		  inv->variant ? inv->variant : "hw");
	if (out) {
		sqlite3_bind_int64(st, 14, out->clock_start_hz);
		sqlite3_bind_int64(st, 15, out->clock_end_hz);
		if (out->tsc_hz > 0)
			sqlite3_bind_int64(st, 16, out->tsc_hz);
		sqlite3_bind_int64(st, 17, out->elapsed_ns);
		if (out->host_elapsed_ns > 0)
			sqlite3_bind_int64(st, 18, out->host_elapsed_ns);
	}
	if (inv->round > 0)
		sqlite3_bind_int(st, 19, inv->round);
	if (inv->algorithms)
		bind_text(st, 20, inv->algorithms);
	if (out && out->seed >= 0)
		sqlite3_bind_int64(st, 21, out->seed);
	{
		/* partial: the guest ran to its end, a library of it failed */
		struct guest_fault *faults = NULL;
		size_t nf = out && !inv->error ?
			    guest_output_faults(out, &faults) : 0;

		sqlite3_bind_int(st, 22, nf > 0);
		free(faults);
	}
	rc = step_done(db, st, err);
	sqlite3_finalize(st);
	if (rc < 0)
		return -1;
	inv_id = sqlite3_last_insert_rowid(db);
	if (inv->store_more && inv->store_more(db, inv_id, inv->store_ctx,
					       err) < 0)
		return -1;
	return out ? store_output(db, inv_id, out, inv->image, err) : 0;
}

/* Store INV with its output (none when it failed). */
static int store_invocation(sqlite3 *db, int64_t run_id,
			    const struct db_invocation *inv, bo_err *err)
{
	return store_invocation_out(db, run_id, inv,
				    inv->error ? NULL : inv->out, err);
}

int db_run_store_invocation(sqlite3 *db, int64_t run_id,
			    const struct db_invocation *inv, bo_err *err)
{
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (store_invocation(db, run_id, inv, err) == 0 &&
	    db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction open */
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* UPDATE run RUN_ID's status, finish time and error (NULL = none), in
 * the caller's transaction or none. Returns 0, or -1 with err set. */
static int set_status(sqlite3 *db, int64_t run_id, const char *status,
		      const char *error, bo_err *err)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (prep(db, "UPDATE runs SET status = ?1, finished_at = ?2, error = ?3"
		 " WHERE id = ?4", &st, err) < 0)
		return -1;
	bind_text(st, 1, status);
	bind_text(st, 2, bo_utc_now(now, sizeof(now)));
	if (error)
		bind_text(st, 3, error);
	sqlite3_bind_int64(st, 4, run_id);
	rc = step_done(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int db_run_set_status(sqlite3 *db, int64_t run_id, const char *status,
		      const char *error, bo_err *err)
{
	return set_status(db, run_id, status, error, err);
}

int db_run_finish(sqlite3 *db, int64_t run_id, const char *status,
		  const char *error, const struct db_invocation *invs,
		  size_t ninvs, bo_err *err)
{
	size_t i;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	for (i = 0; i < ninvs; i++)
		if (store_invocation(db, run_id, &invs[i], err) < 0)
			goto fail;
	/* also for the invocations stored before, one at a time
	 * (db_run_store_invocation); a run without any records nothing */
	if (db_package_changes_record(db, run_id, err) < 0 ||
	    set_status(db, run_id, status, error, err) < 0)
		goto fail;
	if (db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction
	 * open: roll it back, so the next one can begin */
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int db_run_cpu_after(sqlite3 *db, int64_t run_id, int64_t freq_after_khz,
		     const char *warnings, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (prep(db, "UPDATE runs SET freq_after_khz = ?1, cpu_warnings = ?2"
		 " WHERE id = ?3", &st, err) < 0)
		return -1;
	if (freq_after_khz > 0)
		sqlite3_bind_int64(st, 1, freq_after_khz);
	if (warnings)
		bind_text(st, 2, warnings);
	sqlite3_bind_int64(st, 3, run_id);
	rc = step_done(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int db_run_cpu_choice(sqlite3 *db, int64_t run_id, const char *reason,
		      const char *siblings, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (prep(db, "UPDATE runs SET cpu_choice = ?1, cpu_siblings = ?2"
		 " WHERE id = ?3", &st, err) < 0)
		return -1;
	if (reason)
		bind_text(st, 1, reason);
	if (siblings)
		bind_text(st, 2, siblings);
	sqlite3_bind_int64(st, 3, run_id);
	rc = step_done(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int db_reap_stale_runs(sqlite3 *db, const char *host, bo_err *err)
{
	sqlite3_stmt *sel, *upd;
	char now[32];
	int n = 0, rc;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (prep(db, "SELECT id, pid FROM runs WHERE status = 'running' AND"
		 " host = ?1", &sel, err) < 0)
		goto fail;
	if (prep(db, "UPDATE runs SET status = 'aborted', finished_at = ?1,"
		 " error = 'the benchorch process running it disappeared'"
		 " WHERE id = ?2", &upd, err) < 0) {
		sqlite3_finalize(sel);
		goto fail;
	}
	bind_text(sel, 1, host);
	bo_utc_now(now, sizeof(now));
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		long pid = (long)sqlite3_column_int64(sel, 1);

		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;	/* still alive */
		bind_text(upd, 1, now);
		sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
		if (step_done(db, upd, err) < 0) {
			rc = SQLITE_ERROR;
			break;
		}
		n++;
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	if (rc != SQLITE_DONE) {
		if (rc != SQLITE_ERROR)
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		goto fail;
	}
	if (db_exec(db, "COMMIT", err) == 0)
		return n;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

long db_crosscheck_failures(sqlite3 *db, int64_t run_id, FILE *f)
{
	sqlite3_stmt *st;
	long n = 0;
	int rc;

	if (sqlite3_prepare_v2(db,
		"SELECT coalesce(im.distro || ':' || im.release, inv.spec),"
		" inv.variant, c.library, c.algorithm, c.roundtrip,"
		" (SELECT count(*) FROM crosschecks o WHERE"
		"  o.invocation_id = c.invocation_id AND"
		"  o.algorithm = c.algorithm AND o.library <> c.library)"
		" FROM crosschecks c JOIN invocations inv ON"
		" inv.id = c.invocation_id LEFT JOIN images im ON"
		" im.id = inv.image_id WHERE inv.run_id = ?1 AND c.agrees = 0"
		" ORDER BY 1, 2, 3, 4", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (!f)
			continue;
		fprintf(f, "  %s (%s) %s %s: %s\n", sqlite3_column_text(st, 0),
			sqlite3_column_text(st, 1), sqlite3_column_text(st, 2),
			sqlite3_column_text(st, 3),
			!sqlite3_column_int(st, 4) ?
			"decryption did not restore the input" :
			"output differs from the other libraries (no majority"
			" agrees with it)");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -1;
}

int db_run_exists(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

char *db_column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

char *db_column_dup_or_empty(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s ? (const char *)s : "");
}
