/* confirmations.c - record and read confirmation runs (migration 12). */
#include "config.h"

#include <stdlib.h>

#include "db/confirmations.h"
#include "lib/util.h"

static const char insert_sql[] =
"INSERT OR IGNORE INTO confirmations (run_id, confirmed_run_id, distro,"
" release) VALUES (?1, nullif(?2, 0), ?3, ?4)";

/* ?1 run, ?2 distro, ?3 release, ?4 new digest, ?5 previous digest */
static const char images_sql[] =
"UPDATE confirmations SET"
" image_id = coalesce(image_id, (SELECT id FROM images"
"  WHERE distro = ?2 AND release = ?3 AND digest = ?4)),"
" previous_image_id = coalesce(previous_image_id, (SELECT id FROM images"
"  WHERE distro = ?2 AND release = ?3 AND digest = ?5))"
" WHERE run_id = ?1 AND distro = ?2 AND release = ?3";

static const char curve_sql[] =
"INSERT OR IGNORE INTO confirmation_curves (run_id, distro, release,"
" library, algorithm, operation, mode) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

static int step_once(sqlite3 *db, sqlite3_stmt *st, bo_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int db_confirmation_record(sqlite3 *db, int64_t run_id,
			   int64_t confirmed_run_id,
			   const struct db_confirmation *c, bo_err *err)
{
	sqlite3_stmt *ins = NULL, *img = NULL, *cur = NULL;
	size_t i;
	int rc = -1;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (sqlite3_prepare_v2(db, insert_sql, -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, images_sql, -1, &img, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, curve_sql, -1, &cur, NULL) != SQLITE_OK) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(ins, 1, run_id);
	sqlite3_bind_int64(ins, 2, confirmed_run_id);
	bind_text(ins, 3, c->distro);
	bind_text(ins, 4, c->release);
	if (step_once(db, ins, err) < 0)
		goto out;
	sqlite3_bind_int64(img, 1, run_id);
	bind_text(img, 2, c->distro);
	bind_text(img, 3, c->release);
	bind_text(img, 4, c->digest);
	bind_text(img, 5, c->previous_digest);
	if (step_once(db, img, err) < 0)
		goto out;
	for (i = 0; i < c->ncurves; i++) {
		const struct db_confirm_curve *k = &c->curves[i];

		sqlite3_bind_int64(cur, 1, run_id);
		bind_text(cur, 2, c->distro);
		bind_text(cur, 3, c->release);
		bind_text(cur, 4, k->library);
		bind_text(cur, 5, k->algorithm);
		bind_text(cur, 6, k->operation ? k->operation : "");
		bind_text(cur, 7, k->mode ? k->mode : "");
		if (step_once(db, cur, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(ins);
	sqlite3_finalize(img);
	sqlite3_finalize(cur);
	if (rc == 0 && db_exec(db, "COMMIT", err) < 0)
		rc = -1;
	if (rc < 0) {
		bo_err e;

		db_exec(db, "ROLLBACK", &e);
	}
	return rc;
}

int db_confirmation_previous_removed(sqlite3 *db, int64_t run_id,
				     const char *distro, const char *release,
				     bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "UPDATE confirmations SET previous_removed"
			       " = 1 WHERE run_id = ?1 AND distro = ?2 AND"
			       " release = ?3", -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, distro);
	bind_text(st, 3, release);
	rc = step_once(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int64_t db_confirmed_by(sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT max(c.run_id) FROM confirmations c"
			       " JOIN runs r ON r.id = c.run_id"
			       " WHERE c.confirmed_run_id = ?1"
			       " AND r.status = 'done'", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);	/* NULL reads 0 */
	sqlite3_finalize(st);
	return id;
}
