/* tap-sql.h - a query helper for the C unit tests that read a SQLite
 * database (header-only, like tests/tap.h). */
#ifndef BENCHORCH_TAP_SQL_H
#define BENCHORCH_TAP_SQL_H

#include <sqlite3.h>

/* The integer in the first column of the first row of SQL run on DB: -1
 * when SQL returns no row, -2 when it does not compile. */
__attribute__((unused))
static long long tap_sql_scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -2;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

#endif
