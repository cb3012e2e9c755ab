/* db-names.c - the distributions and buffer sizes a database has results
 * for. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/db-names.h"
#include "orchestrator/results/report-fmt.h"

/* Run SQL with TEXT or else BYTES bound as ?1: 1 with a row, 0 without,
 * -1 on error. */
static int exists(sqlite3 *db, const char *sql, const char *text,
		  int64_t bytes)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, bytes);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_names_distro_known(sqlite3 *db, const char *spec)
{
	return exists(db, "SELECT 1 FROM results_v WHERE distro = ?1 OR"
		      " distro || ':' || release = ?1 LIMIT 1", spec, 0);
}

int db_names_size_known(sqlite3 *db, int64_t bytes)
{
	return exists(db, "SELECT 1 FROM results WHERE buffer_bytes = ?1"
		      " LIMIT 1", NULL, bytes);
}

/* The first column of SQL's rows joined with ", " (sizes formatted with
 * fmt_size when SIZES), or "none"; NULL on a database error. */
static char *join_rows(sqlite3 *db, const char *sql, int sizes)
{
	sqlite3_stmt *st;
	char *s = NULL, *t, buf[32];
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = sizes ?
			fmt_size(sqlite3_column_int64(st, 0), buf, sizeof(buf)) :
			(const char *)sqlite3_column_text(st, 0);

		t = s ? xasprintf("%s, %s", s, v ? v : "") :
			xstrdup(v ? v : "");
		free(s);
		s = t;
	}
	if (rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		free(s);
		return NULL;
	}
	sqlite3_finalize(st);
	return s ? s : xstrdup("none");
}

char *db_names_distros(sqlite3 *db)
{
	return join_rows(db, "SELECT DISTINCT distro || coalesce(':' || release,"
			 " '') FROM results_v ORDER BY 1", 0);
}

char *db_names_sizes(sqlite3 *db)
{
	return join_rows(db, "SELECT DISTINCT buffer_bytes FROM results"
			 " ORDER BY 1", 1);
}
