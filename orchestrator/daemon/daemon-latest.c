/* daemon-latest.c - the newest run in the database, whoever started it,
 * for `benchorch status`. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/daemon/daemon.h"

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	return s ? json_string((const char *)s) : json_null();
}

void daemon_database_error(json_t *o, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;

	if (json_is_string(json_object_get(o, "database_error")))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_object_set_new(o, "database_error", json_string(msg));
}

int daemon_status_db_open(const char *db_path, json_t *o, sqlite3 **db)
{
	bo_err err;

	*db = NULL;
	if (access(db_path, F_OK) != 0 && errno == ENOENT)
		return 0;	/* no run yet: nothing to show, nothing wrong */
	if (db_open_readonly(db_path, db, &err) < 0) {
		daemon_database_error(o, "%s", err.msg);
		return -1;
	}
	return 1;
}

void daemon_latest_run_json(const char *db_path, json_t *o)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	json_t *r = NULL;
	int rc;

	if (daemon_status_db_open(db_path, o, &db) <= 0) {
		json_object_set_new(o, "latest_run", json_null());
		return;
	}
	rc = sqlite3_prepare_v2(db, "SELECT id, status, started_at, finished_at,"
				" command_line FROM runs ORDER BY id DESC"
				" LIMIT 1", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r = json_object();
		json_object_set_new(r, "id", json_integer(
			(json_int_t)sqlite3_column_int64(st, 0)));
		json_object_set_new(r, "status", text_or_null(st, 1));
		json_object_set_new(r, "started_at", text_or_null(st, 2));
		json_object_set_new(r, "finished_at", text_or_null(st, 3));
		json_object_set_new(r, "command_line", text_or_null(st, 4));
	} else if (rc != SQLITE_DONE) {
		daemon_database_error(o, "database '%s': %s", db_path,
				      sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	json_object_set_new(o, "latest_run", r ? r : json_null());
}
