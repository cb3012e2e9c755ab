/* daemon-latest.c - the newest run in the database, whoever started it,
 * for `benchorch status`. */
#include "config.h"

#include <sqlite3.h>

#include "db/db.h"
#include "orchestrator/daemon.h"

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	return s ? json_string((const char *)s) : json_null();
}

void daemon_latest_run_json(const char *db_path, json_t *o)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	json_t *r = NULL;
	bo_err err;

	if (db_open_readonly(db_path, &db, &err) < 0) {
		json_object_set_new(o, "latest_run", json_null());
		return;
	}
	if (sqlite3_prepare_v2(db, "SELECT id, status, started_at, finished_at,"
			       " command_line FROM runs ORDER BY id DESC"
			       " LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		r = json_object();
		json_object_set_new(r, "id", json_integer(
			(json_int_t)sqlite3_column_int64(st, 0)));
		json_object_set_new(r, "status", text_or_null(st, 1));
		json_object_set_new(r, "started_at", text_or_null(st, 2));
		json_object_set_new(r, "finished_at", text_or_null(st, 3));
		json_object_set_new(r, "command_line", text_or_null(st, 4));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	json_object_set_new(o, "latest_run", r ? r : json_null());
}
