/* stmt.c - prepared-statement helpers (see stmt.h). */
#include "config.h"

#include "db/stmt.h"

int db_prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, bo_err *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

void db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

int db_step_done(sqlite3 *db, sqlite3_stmt *st, bo_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

int db_step_id(sqlite3 *db, sqlite3_stmt *st, int64_t *id, bo_err *err)
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
