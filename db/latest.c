/* latest.c - "the latest run" (migration 15's latest_runs_v), for every
 * command that picks a run by default. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/latest.h"
#include "db/migrations.h"
#include "lib/util.h"

static const char view_head[] = "CREATE VIEW latest_runs_v AS";

const char *db_run_kind_name(enum db_run_kind kind)
{
	switch (kind) {
	case DB_RUN_TOOLS:
		return "tools";
	case DB_RUN_CONFIRMATION:
		return "confirmation";
	case DB_RUN_LIBRARY:
		break;
	}
	return "library";
}

/* Migration 15's statement that creates latest_runs_v, from its
 * "CREATE VIEW" to the end of the file; NULL if no migration has it (a
 * build error). Points into db_migrations. */
static const char *view_sql(void)
{
	for (unsigned i = 0; i < db_migrations_count; i++) {
		const char *p = strstr(db_migrations[i].sql, view_head);

		if (p)
			return p;
	}
	return NULL;
}

/* Whether the TEMP schema of DB has NAME: 1, 0, or -1 on an error. */
static int temp_has(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_temp_master WHERE"
			       " name = ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_latest_view(sqlite3 *db)
{
	/* the tables the view reads that an older schema lacks, and an
	 * empty stand-in with the one column it reads */
	static const char *const stubs[][2] = {
		{ "confirmations", "CREATE TEMP TABLE IF NOT EXISTS"
		  " confirmations (run_id INTEGER)" },
		{ "tool_results", "CREATE TEMP TABLE IF NOT EXISTS"
		  " tool_results (invocation_id INTEGER)" },
	};
	const char *v;
	char *sql;
	int k, rc;

	k = db_has(db, "latest_runs_v");
	if (k != 0)
		return k < 0 ? -1 : 0;
	k = temp_has(db, "latest_runs_v");
	if (k != 0)
		return k < 0 ? -1 : 0;
	for (size_t i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++) {
		k = db_has(db, stubs[i][0]);
		if (k < 0 || (k == 0 && sqlite3_exec(db, stubs[i][1], NULL,
						     NULL, NULL) != SQLITE_OK))
			return -1;
	}
	v = view_sql();
	if (!v)
		return -1;
	sql = xasprintf("CREATE TEMP VIEW latest_runs_v AS%s",
			v + strlen(view_head));
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	free(sql);
	return rc == SQLITE_OK ? 0 : -1;
}

char *db_latest_run_sql(sqlite3 *db, enum db_run_kind kind)
{
	if (db_latest_view(db) < 0)
		return NULL;
	return xasprintf("(SELECT run_id FROM latest_runs_v WHERE kind = '%s'"
			 " AND nth = 1)", db_run_kind_name(kind));
}

char *db_finished_runs_sql(sqlite3 *db, enum db_run_kind kind)
{
	if (db_latest_view(db) < 0)
		return NULL;
	return xasprintf("run_id IN (SELECT run_id FROM latest_runs_v WHERE"
			 " kind = '%s')", db_run_kind_name(kind));
}

int64_t db_latest_run(sqlite3 *db, enum db_run_kind kind)
{
	char *sub = db_latest_run_sql(db, kind);
	char *sql = sub ? xasprintf("SELECT coalesce(%s, 0)", sub) : NULL;
	long long id = sql ? db_query_int(db, sql) : -1;

	free(sql);
	free(sub);
	return id;
}

/* Why run ID (STATUS; KINDS, its kinds in latest_runs_v, comma-separated,
 * or NULL) is not the latest of KIND: "was aborted", "is a tool run", ...
 * Static storage. */
static const char *why_not(enum db_run_kind kind, const char *status,
			   const char *kinds)
{
	if (!status || strcmp(status, "running") == 0)
		return "is still running";
	if (strcmp(status, "aborted") == 0)
		return "was aborted";
	if (strcmp(status, "done") != 0)
		return "failed";
	if (!kinds)
		return "stored no results";
	if (strstr(kinds, "confirmation"))
		return "is a confirmation run";
	if (kind != DB_RUN_TOOLS && strstr(kinds, "tools"))
		return "is a tool run";
	return "has no tool results";
}

int db_latest_skipped(sqlite3 *db, enum db_run_kind kind, int64_t chosen,
		      char **ret)
{
	static const char sql[] =
		"WITH l AS (SELECT run_id, group_concat(kind) AS kinds"
		"  FROM latest_runs_v GROUP BY run_id),"
		" c AS (SELECT started_at, id FROM runs WHERE id = ?1)"
		" SELECT r.id, r.status, l.kinds FROM runs r"
		" LEFT JOIN l ON l.run_id = r.id"
		" WHERE NOT EXISTS (SELECT 1 FROM c)"
		"  OR r.started_at > (SELECT started_at FROM c)"
		"  OR (r.started_at = (SELECT started_at FROM c)"
		"      AND r.id > (SELECT id FROM c))"
		" ORDER BY r.started_at DESC, r.id DESC";
	sqlite3_stmt *st;
	char *text = NULL, *t;
	long n = 0;
	int rc;

	*ret = NULL;
	if (db_latest_view(db) < 0 ||
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, chosen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (++n > 3)
			continue;
		t = xasprintf("%s%srun %lld %s", text ? text : "",
			      text ? ", " : "",
			      (long long)sqlite3_column_int64(st, 0),
			      why_not(kind, (const char *)sqlite3_column_text(st, 1),
				      (const char *)sqlite3_column_text(st, 2)));
		free(text);
		text = t;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(text);
		return -1;
	}
	if (n > 3) {
		t = xasprintf("%s and %ld more", text, n - 3);
		free(text);
		text = t;
	}
	*ret = text;
	return 0;
}

int64_t db_base_run(sqlite3 *db, int64_t run, unsigned flags,
		    struct db_run_made *ret_made)
{
	static const char pairs[] =
		"EXISTS (SELECT 1 FROM pairs p JOIN invocations v"
		" ON v.id = p.invocation_id WHERE v.run_id = r.id)";
	static const char shared[] =
		" AND EXISTS (SELECT 1 FROM invocations bi"
		"  JOIN images bim ON bim.id = bi.image_id"
		"  JOIN invocations ni ON ni.run_id = n.run_id"
		"  JOIN images nim ON nim.id = ni.image_id"
		"  WHERE bi.run_id = b.run_id AND nim.distro = bim.distro"
		"  AND nim.release = bim.release)";
	static const char same_cpu[] =
		" AND (SELECT cpu_id FROM runs WHERE id = b.run_id) IS"
		"  (SELECT cpu_id FROM runs WHERE id = n.run_id)";
	struct db_run_made made = { 0, 0, 0 };
	sqlite3_stmt *st;
	int64_t id = 0;
	int has_pairs, rc;
	char *sql;

	if (ret_made)
		*ret_made = made;
	/* pairs: schema 16 (a database opened read-only may be older) */
	has_pairs = db_has_column(db, "pairs", "tie");
	if (has_pairs < 0 || db_latest_view(db) < 0)
		return -1;
	sql = xasprintf("WITH m AS (SELECT r.id AS run_id, r.started_at,"
			" r.quick AS quick, EXISTS (SELECT 1 FROM invocations v"
			"  WHERE v.run_id = r.id AND v.variant = 'nohw') AS nohw,"
			" %s AS il FROM runs r)"
			" SELECT n.quick, n.nohw, n.il, (SELECT b.run_id"
			"  FROM latest_runs_v l JOIN m b ON b.run_id = l.run_id"
			"  WHERE l.kind = 'library' AND (b.started_at < n.started_at"
			"   OR (b.started_at = n.started_at AND b.run_id < n.run_id))"
			"  AND b.quick = n.quick AND b.nohw = n.nohw AND b.il = n.il%s%s"
			"  ORDER BY b.started_at DESC, b.run_id DESC LIMIT 1)"
			" FROM m n WHERE n.run_id = ?1",
			has_pairs ? pairs : "0",
			flags & DB_BASE_SHARED_DISTRO ? shared : "",
			flags & DB_BASE_SAME_CPU ? same_cpu : "");
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		made.quick = sqlite3_column_int(st, 0);
		made.nohw = sqlite3_column_int(st, 1);
		made.interleave = sqlite3_column_int(st, 2);
		id = sqlite3_column_int64(st, 3);	/* NULL reads 0 */
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	if (ret_made)
		*ret_made = made;
	return id;
}
