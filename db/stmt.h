/* stmt.h - the prepared-statement helpers db/'s files share. Not for
 * callers outside db/. Every error is "database error: " and SQLite's
 * message (db_err_reason strips the prefix). */
#ifndef BENCHORCH_DB_STMT_H
#define BENCHORCH_DB_STMT_H

#include <sqlite3.h>
#include <stdint.h>

#include "lib/util.h"

/* Compile SQL into *ST (finalize it). Returns 0, or -1 with err set. */
int db_prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, bo_err *err);

/* Bind S to parameter I of ST, copied; NULL is bound as "". */
void db_bind_text(sqlite3_stmt *st, int i, const char *s);

/* Step ST, a statement that returns no rows (or whose row is not read),
 * then reset it and clear its bindings for reuse. Returns 0, or -1 with
 * err set. */
int db_step_done(sqlite3 *db, sqlite3_stmt *st, bo_err *err);

/* Step ST, a one-row SELECT of an id, then reset it and clear its
 * bindings. Returns 1 with *ID set, 0 when there is no row, -1 with err
 * set on an error. */
int db_step_id(sqlite3 *db, sqlite3_stmt *st, int64_t *id, bo_err *err);

#endif
