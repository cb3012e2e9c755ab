/* latest.h - "the latest run": the run a reader shows when none is
 * named, the latest finished run of the kind asked for (the view
 * latest_runs_v, migration 15). Every command that picks a run by
 * default asks here. */
#ifndef BENCHORCH_DB_LATEST_H
#define BENCHORCH_DB_LATEST_H

#include <sqlite3.h>
#include <stdint.h>

/* The kinds of latest_runs_v.kind. */
enum db_run_kind {
	DB_RUN_LIBRARY,		/* library results, not a confirmation */
	DB_RUN_TOOLS,		/* tool results (run --tools) */
	DB_RUN_CONFIRMATION,	/* a confirmation run */
};

/* The kind's name in latest_runs_v ("library", "tools",
 * "confirmation"). Static storage. */
const char *db_run_kind_name(enum db_run_kind kind);

/* Make latest_runs_v readable on the connection DB: a database at
 * schema 15 or later has it; on an older one (opened read-only, not
 * migrated) the same view, from migration 15's own text, is defined as a
 * TEMP view of this connection, with empty TEMP stand-ins for the tables
 * it lacks (confirmations before schema 12, tool_results before 10: such
 * a database has no such run). Nothing is written to the database.
 * Idempotent. Returns 0, or -1 on a database error (the message is
 * sqlite3_errmsg(DB)). */
int db_latest_view(sqlite3 *db);

/* The latest finished run of KIND in DB: its id (> 0), 0 when DB has
 * none, or -1 on a database error (the message is sqlite3_errmsg(DB)). */
int64_t db_latest_run(sqlite3 *db, enum db_run_kind kind);

/* The same run as an SQL scalar subquery "(SELECT ...)" to compare a
 * run_id column with (NULL when there is none), after db_latest_view.
 * Newly allocated: the caller frees it. NULL on a database error (as
 * db_latest_view). */
char *db_latest_run_sql(sqlite3 *db, enum db_run_kind kind);

/* The condition, on a run_id column, that keeps the finished runs of
 * KIND (every row of latest_runs_v of that kind), after db_latest_view.
 * Newly allocated: the caller frees it. NULL on a database error (as
 * db_latest_view). */
char *db_finished_runs_sql(sqlite3 *db, enum db_run_kind kind);

/* Why DB's runs started after run CHOSEN (the latest of KIND, 0 = none)
 * are not the latest of KIND, for people: "run 7 was aborted, run 8 is
 * a confirmation run", at most three runs named then "and N more", in
 * *RET (newly allocated; NULL when no run is newer). Returns 0, or -1
 * (*RET NULL) on a database error (the message is sqlite3_errmsg(DB)). */
int db_latest_skipped(sqlite3 *db, enum db_run_kind kind, int64_t chosen,
		      char **ret);

#endif
