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

/* How a run was made, as far as comparing its curves with another's
 * goes: runs made alike measured the same sizes and batches, the same
 * variant and the same way of taking turns. */
struct db_run_made {
	int quick;		/* runs.quick: --quick */
	int nohw;		/* 1: it measured variant 'nohw' (--nohw) */
	int interleave;		/* 1: it stored pairs (--interleave) */
};

/* db_base_run's flags. */
#define DB_BASE_SHARED_DISTRO	1u	/* the base measured a distribution
					 * (distro and release) RUN did */
#define DB_BASE_SAME_CPU	2u	/* the base ran on RUN's CPU
					 * (runs.cpu_id) */

/* The run that run RUN in DB is compared with, its base, one rule for
 * compare --latest 2, confirm and run's own confirmation: the latest
 * finished library run (latest_runs_v kind 'library': done, with
 * library results, not a confirmation) started before RUN (by
 * started_at, then id) and made like it (struct db_run_made: the same
 * --quick flag, variant and --interleave or not); with FLAGS
 * DB_BASE_SHARED_DISTRO also one that measured a distribution RUN
 * measured, with DB_BASE_SAME_CPU one on RUN's CPU (the daemon's). RUN itself may be any run (one that failed too). *RET_MADE,
 * when not NULL, gets how RUN was made (zeroed when DB has no run RUN).
 * Returns the base's id (> 0), 0 when there is none (or no run RUN), or
 * -1 on a database error (the message is sqlite3_errmsg(DB)). */
int64_t db_base_run(sqlite3 *db, int64_t run, unsigned flags,
		    struct db_run_made *ret_made);

/* Why DB's runs started after run CHOSEN (the latest of KIND, 0 = none)
 * are not the latest of KIND, for people: "run 7 was aborted, run 8 is
 * a confirmation run", at most three runs named then "and N more", in
 * *RET (newly allocated; NULL when no run is newer). Returns 0, or -1
 * (*RET NULL) on a database error (the message is sqlite3_errmsg(DB)). */
int db_latest_skipped(sqlite3 *db, enum db_run_kind kind, int64_t chosen,
		      char **ret);

#endif
