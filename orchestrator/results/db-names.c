/* db-names.c - the distributions and buffer sizes some runs of a
 * database have results for. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/db-names.h"
#include "orchestrator/results/report-fmt.h"

/* The ids of RUNS (N) joined with ", " ("4, 5"); "" when N is 0. Newly
 * allocated. */
static char *id_list(const int64_t *runs, size_t n)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s%lld", s, i ? ", " : "",
			      (long long)runs[i]);
		free(s);
		s = t;
	}
	return s;
}

/* The SQL HEAD, " AND COL IN (ids)" (nothing when N is 0), then TAIL:
 * HEAD ends inside a WHERE clause. Newly allocated. The ids are
 * integers: nothing from outside is pasted into the SQL. */
static char *scoped(const char *head, const char *col, const int64_t *runs,
		    size_t n, const char *tail)
{
	char *ids = id_list(runs, n);
	char *s = n ? xasprintf("%s AND %s IN (%s)%s", head, col, ids, tail) :
		      xasprintf("%s%s", head, tail);

	free(ids);
	return s;
}

/* Run SQL with TEXT or else BYTES bound as ?1: 1 with a row, 0 without,
 * -1 on error. SQL is freed. */
static int exists(sqlite3 *db, char *sql, const char *text, int64_t bytes)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return -1;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, bytes);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_names_distro_known(sqlite3 *db, const int64_t *runs, size_t nruns,
			  const char *spec)
{
	return exists(db, scoped("SELECT 1 FROM results_v WHERE (distro = ?1 OR"
				 " distro || ':' || release = ?1)", "run_id",
				 runs, nruns, " LIMIT 1"), spec, 0);
}

int db_names_size_known(sqlite3 *db, const int64_t *runs, size_t nruns,
			int64_t bytes)
{
	return exists(db, scoped("SELECT 1 FROM results r JOIN invocations i"
				 " ON i.id = r.invocation_id WHERE"
				 " r.buffer_bytes = ?1", "i.run_id", runs, nruns,
				 " LIMIT 1"), NULL, bytes);
}

/* The first column of SQL's rows joined with ", " (sizes formatted with
 * fmt_size when SIZES), or "none"; NULL on a database error. SQL is
 * freed. */
static char *join_rows(sqlite3 *db, char *sql, int sizes)
{
	sqlite3_stmt *st;
	char *s = NULL, *t, buf[32];
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
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

char *db_names_distros(sqlite3 *db, const int64_t *runs, size_t nruns)
{
	return join_rows(db, scoped("SELECT DISTINCT distro || coalesce(':' ||"
				    " release, '') FROM results_v WHERE 1",
				    "run_id", runs, nruns, " ORDER BY 1"), 0);
}

char *db_names_sizes(sqlite3 *db, const int64_t *runs, size_t nruns)
{
	return join_rows(db, scoped("SELECT DISTINCT r.buffer_bytes FROM"
				    " results r JOIN invocations i ON i.id ="
				    " r.invocation_id WHERE 1", "i.run_id", runs,
				    nruns, " ORDER BY 1"), 1);
}

char *db_names_scope(const int64_t *runs, size_t nruns, const char *path)
{
	char *ids, *s;

	if (!nruns)
		return xasprintf("'%s'", path);
	ids = id_list(runs, nruns);
	s = xasprintf("run%s %s of '%s'", nruns == 1 ? "" : "s", ids, path);
	free(ids);
	return s;
}
