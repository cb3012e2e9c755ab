/* db.c - open, migrate and close the results database, and the small
 * queries every reader shares (runs.c stores runs, output.c what their
 * guests reported). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "db/migrations.h"

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
