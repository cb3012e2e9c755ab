/* daemon-verdict.c - after each of its runs the daemon judges it against
 * the previous run and keeps the verdict; status shows the last one. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>

#include "db/db.h"
#include "db/latest.h"
#include "orchestrator/daemon/daemon-verdict.h"
#include "orchestrator/daemon/daemon.h"
#include "orchestrator/results/verdict.h"


int daemon_verdict_after_run(const char *db_path, int64_t run_id,
			     char *summary, size_t len, bo_err *err)
{
	struct verdict_sel base = { 0, 0 }, new = { run_id, 0 };
	struct verdict_result r;
	sqlite3 *db;
	int rc;

	if (db_open(db_path, &db, err) < 0)
		return -1;
	/* like with like: on this CPU, made alike (--quick, variant,
	 * libraries taking turns or not), no confirmation: compare --latest 2's rule */
	base.run = db_base_run(db, run_id, DB_BASE_SAME_CPU, NULL);
	if (base.run < 0) {
		bo_err_set(err, "database '%s': %s", db_path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	if (!base.run) {
		snprintf(summary, len, "run %lld: no previous run on this CPU made alike (--quick, variant, --sequential) to compare with",
			 (long long)run_id);
		sqlite3_close(db);
		return 0;
	}
	if (verdict_compare(db, base, new, VERDICT_DEFAULT_THRESHOLD,
			    VERDICT_DEFAULT_ALPHA, &r, err) < 0) {
		sqlite3_close(db);
		return -1;
	}
	rc = verdict_store(db, &r, "daemon", NULL, err);
	snprintf(summary, len, "run %lld against run %lld: %zu curves, %zu changed"
		 " (%zu confirmed regression%s), %zu flagged",
		 (long long)run_id, (long long)base.run, r.ncurves, r.nchanged,
		 r.nconfirmed_regressions, r.nconfirmed_regressions == 1 ? "" : "s",
		 r.nflagged);
	verdict_result_free(&r);
	sqlite3_close(db);
	return rc < 0 ? -1 : 1;
}

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	return s ? json_string((const char *)s) : json_null();
}

/* The changed curves of verdict ID, largest effects first. */
static json_t *changed_curves(sqlite3 *db, int64_t id, const char *db_path,
			      json_t *o)
{
	sqlite3_stmt *st;
	json_t *a = json_array();
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT distro, library, algorithm, operation,"
			       " mode, effect, ci_low, ci_high, state, package,"
			       " base_version, new_version FROM verdict_curves"
			       " WHERE verdict_id = ?1 AND state <> 'unchanged'"
			       " ORDER BY state = 'flagged', abs(effect) DESC LIMIT ?2",
			       -1, &st, NULL) != SQLITE_OK) {
		daemon_database_error(o, "database '%s': %s", db_path,
				      sqlite3_errmsg(db));
		return a;
	}
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, DAEMON_VERDICT_SHOWN);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:o, s:f,"
			" s:f, s:f, s:o, s:o, s:o, s:o}",
			"distro", text_or_null(st, 0), "library", text_or_null(st, 1),
			"algorithm", text_or_null(st, 2),
			"operation", text_or_null(st, 3), "mode", text_or_null(st, 4),
			"effect", sqlite3_column_double(st, 5),
			"ci_low", sqlite3_column_double(st, 6),
			"ci_high", sqlite3_column_double(st, 7),
			"state", text_or_null(st, 8), "package", text_or_null(st, 9),
			"base_version", text_or_null(st, 10),
			"new_version", text_or_null(st, 11)));
	if (rc != SQLITE_DONE)
		daemon_database_error(o, "database '%s': %s", db_path,
				      sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return a;
}

void daemon_last_verdict_json(const char *db_path, json_t *o)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	json_t *v = NULL;
	int rc;

	if (daemon_status_db_open(db_path, o, &db) <= 0) {
		json_object_set_new(o, "last_verdict", json_null());
		return;
	}
	rc = sqlite3_prepare_v2(db, "SELECT id, base_run, new_run, created_at,"
				" curves, changed, confirmed_regressions, flagged,"
				" caveats FROM verdicts WHERE source = 'daemon'"
				" ORDER BY id DESC LIMIT 1", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	else if (db_has(db, "verdicts") == 0)
		rc = SQLITE_DONE;	/* a database older than verdicts */
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		daemon_database_error(o, "database '%s': %s", db_path,
				      sqlite3_errmsg(db));
	if (rc == SQLITE_ROW) {
		v = json_pack("{s:I, s:I, s:o, s:I, s:I, s:I, s:I, s:o}",
			"base_run", (json_int_t)sqlite3_column_int64(st, 1),
			"new_run", (json_int_t)sqlite3_column_int64(st, 2),
			"created_at", text_or_null(st, 3),
			"curves", (json_int_t)sqlite3_column_int64(st, 4),
			"changed", (json_int_t)sqlite3_column_int64(st, 5),
			"confirmed_regressions", (json_int_t)sqlite3_column_int64(st, 6),
			"flagged", (json_int_t)sqlite3_column_int64(st, 7),
			"caveats", text_or_null(st, 8));
		if (v)
			json_object_set_new(v, "changed_curves",
					    changed_curves(db, sqlite3_column_int64(st, 0),
							   db_path, o));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	json_object_set_new(o, "last_verdict", v ? v : json_null());
}
