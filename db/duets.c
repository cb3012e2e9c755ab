/* duets.c - a duet in the database (see duets.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/duets.h"
#include "db/stmt.h"

/* Bind S to parameter I of ST, or NULL when S is NULL. */
static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int store_duet(sqlite3 *db, const struct db_duet *d, int64_t *id,
		      bo_err *err)
{
	static const char sql[] =
		"INSERT INTO duets (started_at, finished_at, host, cpu_model,"
		" pinned_cpu, base_image, base_digest, new_image, new_digest,"
		" quick, rounds, seed, threshold, libs, algos, mde_median,"
		" status, error, confirmation_run_id, distro, release, variant,"
		" max_rounds, base_build, new_build) VALUES"
		" (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
		" ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)";
	sqlite3_stmt *st;
	int rc;

	if (db_prep(db, sql, &st, err) < 0)
		return -1;
	db_bind_text(st, 1, d->started_at);
	bind_opt(st, 2, d->finished_at);
	db_bind_text(st, 3, d->host);
	db_bind_text(st, 4, d->cpu_model);
	if (d->pinned_cpu >= 0)
		sqlite3_bind_int(st, 5, d->pinned_cpu);
	db_bind_text(st, 6, d->base_image);
	db_bind_text(st, 7, d->base_digest);
	db_bind_text(st, 8, d->new_image);
	db_bind_text(st, 9, d->new_digest);
	sqlite3_bind_int(st, 10, d->quick != 0);
	sqlite3_bind_int64(st, 11, d->rounds);
	sqlite3_bind_int64(st, 12, (int64_t)d->seed);
	sqlite3_bind_double(st, 13, d->threshold);
	bind_opt(st, 14, d->libs);
	bind_opt(st, 15, d->algos);
	if (d->mde_median >= 0)
		sqlite3_bind_double(st, 16, d->mde_median);
	db_bind_text(st, 17, d->status);
	bind_opt(st, 18, d->error);
	if (d->confirmation_run_id > 0)
		sqlite3_bind_int64(st, 19, d->confirmation_run_id);
	bind_opt(st, 20, d->distro);
	bind_opt(st, 21, d->release);
	db_bind_text(st, 22, d->nohw ? "nohw" : "hw");
	if (d->max_rounds > 0)
		sqlite3_bind_int64(st, 23, d->max_rounds);
	bind_opt(st, 24, d->base_build);
	bind_opt(st, 25, d->new_build);
	rc = db_step_done(db, st, err);
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(db);
	return rc;
}

static int store_libraries(sqlite3 *db, int64_t id,
			   const struct db_duet_library *l, size_t n,
			   bo_err *err)
{
	static const char sql[] =
		"INSERT INTO duet_libraries (duet_id, side, library, version,"
		" build_id, package, package_version, tested, path) VALUES"
		" (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
	sqlite3_stmt *st;
	int rc = 0;

	if (db_prep(db, sql, &st, err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, l[i].side);
		db_bind_text(st, 3, l[i].library);
		bind_opt(st, 4, l[i].version);
		bind_opt(st, 5, l[i].build_id);
		bind_opt(st, 6, l[i].package);
		bind_opt(st, 7, l[i].package_version);
		sqlite3_bind_int(st, 8, l[i].tested != 0);
		bind_opt(st, 9, l[i].path);
		rc = db_step_done(db, st, err);
	}
	sqlite3_finalize(st);
	return rc;
}

static int store_curves(sqlite3 *db, int64_t id,
			const struct db_duet_curve *c, size_t n, bo_err *err)
{
	static const char sql[] =
		"INSERT INTO duet_curves (duet_id, library, algorithm,"
		" operation, mode, tested, verdict, effect, low, high, p,"
		" rounds, mde, sizes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
		" ?9, ?10, ?11, ?12, ?13, ?14)";
	sqlite3_stmt *st;
	int rc = 0;

	if (db_prep(db, sql, &st, err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, c[i].library);
		db_bind_text(st, 3, c[i].algorithm);
		db_bind_text(st, 4, c[i].operation);
		db_bind_text(st, 5, c[i].mode);
		sqlite3_bind_int(st, 6, c[i].tested != 0);
		db_bind_text(st, 7, c[i].verdict);
		sqlite3_bind_double(st, 8, c[i].effect);
		sqlite3_bind_double(st, 9, c[i].low);
		sqlite3_bind_double(st, 10, c[i].high);
		sqlite3_bind_double(st, 11, c[i].p);
		sqlite3_bind_int64(st, 12, c[i].rounds);
		sqlite3_bind_double(st, 13, c[i].mde);
		sqlite3_bind_int64(st, 14, (int64_t)c[i].sizes);
		rc = db_step_done(db, st, err);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The N samples of T as a JSON array, in a new string. */
static char *samples_json(const struct guest_timing *t)
{
	size_t cap = 16 + (size_t)t->nsamples * 21, len = 0;
	char *s = xmalloc(cap);

	s[len++] = '[';
	for (int64_t k = 0; k < t->nsamples; k++)
		len += (size_t)snprintf(s + len, cap - len, "%s%lld",
					k ? "," : "",
					(long long)t->samples_ns[k]);
	snprintf(s + len, cap - len, "]");
	return s;
}

static int store_points(sqlite3 *db, int64_t id, const char *side,
			const struct guest_output *out, bo_err *err)
{
	static const char sql[] =
		"INSERT INTO duet_points (duet_id, side, library, algorithm,"
		" operation, mode, buffer_bytes, calls_per_block, mb_per_s,"
		" block_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
	sqlite3_stmt *st;
	int rc = 0;

	if (!out || !out->nresults)
		return 0;
	if (db_prep(db, sql, &st, err) < 0)
		return -1;
	for (size_t i = 0; i < out->nresults && rc == 0; i++) {
		const struct guest_result *r = &out->results[i];
		char *ns;

		if (!r->t.samples_ns || r->calls_per_batch <= 0)
			continue;
		ns = samples_json(&r->t);
		sqlite3_bind_int64(st, 1, id);
		db_bind_text(st, 2, side);
		db_bind_text(st, 3, r->library);
		db_bind_text(st, 4, r->algorithm);
		db_bind_text(st, 5, r->operation);
		db_bind_text(st, 6, r->mode);
		sqlite3_bind_int64(st, 7, r->buffer_bytes);
		sqlite3_bind_int64(st, 8, r->calls_per_batch);
		sqlite3_bind_double(st, 9, r->mb_per_s);
		db_bind_text(st, 10, ns);
		rc = db_step_done(db, st, err);
		free(ns);
	}
	sqlite3_finalize(st);
	return rc;
}

int db_duet_store(sqlite3 *db, const struct db_duet *d,
		  const struct db_duet_library *l, size_t nl,
		  const struct db_duet_curve *c, size_t nc,
		  const struct guest_output *const out[2], int64_t *ret_id,
		  bo_err *err)
{
	int64_t id = 0;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (store_duet(db, d, &id, err) < 0 ||
	    store_libraries(db, id, l, nl, err) < 0 ||
	    store_curves(db, id, c, nc, err) < 0 ||
	    store_points(db, id, "base", out[0], err) < 0 ||
	    store_points(db, id, "new", out[1], err) < 0 ||
	    db_exec(db, "COMMIT", err) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	*ret_id = id;
	return 0;
}

int db_duet_of_confirmation(sqlite3 *db, int64_t run, const char *distro,
			    const char *release, int64_t *ret_id,
			    bo_err *err)
{
	static const char sql[] =
		"SELECT id FROM duets WHERE confirmation_run_id = ?1 AND"
		" distro = ?2 AND release = ?3 AND status = 'done'"
		" ORDER BY id DESC LIMIT 1";
	sqlite3_stmt *st;
	int has = db_has(db, "duets"), rc;

	if (has <= 0)
		return has < 0 ? bo_err_set(err, "database error: %s",
					    sqlite3_errmsg(db)) : 0;
	if (db_prep(db, sql, &st, err) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	db_bind_text(st, 2, distro);
	db_bind_text(st, 3, release);
	rc = db_step_id(db, st, ret_id, err);
	sqlite3_finalize(st);
	return rc;
}
