/* verdict-store.c - keep a comparison's verdicts in the database
 * (migration 11), so that they can be re-derived and shown later. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "orchestrator/results/verdict.h"

/* The method's name and version, stored with each verdict. */
#define VERDICT_METHOD "curve-median-log-ratio/1"

static void bind_image(sqlite3_stmt *st, int i, int64_t image)
{
	if (image)
		sqlite3_bind_int64(st, i, image);
	else
		sqlite3_bind_null(st, i);
}

static void bind_opt(sqlite3_stmt *st, int i, double v, int have)
{
	if (have)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int store_curves(sqlite3 *db, const struct verdict_result *r,
			int64_t id, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, "INSERT INTO verdict_curves (verdict_id, distro,"
			       " library, algorithm, operation, mode, variant, sizes,"
			       " base_invocations, new_invocations, effect, ci_low,"
			       " ci_high, shape, p, q, noise, noise_within,"
			       " noise_history, noise_source, history_runs,"
			       " clock_ratio, halves, canary_moved, state, package,"
			       " base_version, new_version, noise_df, regime_slope,"
			       " confirmation) VALUES (?1, ?2, ?3, ?4,"
			       " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
			       " ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25,"
			       " ?26, ?27, ?28, ?29, ?30, ?31)", -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
	for (i = 0; i < r->ncurves && rc == SQLITE_DONE; i++) {
		const struct verdict_curve *v = &r->curves[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, v->distro, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, v->library, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, v->algorithm, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, v->operation, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, v->mode, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, v->variant, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 8, (int64_t)v->nsizes);
		sqlite3_bind_int64(st, 9, (int64_t)v->base_inv);
		sqlite3_bind_int64(st, 10, (int64_t)v->new_inv);
		sqlite3_bind_double(st, 11, v->effect);
		sqlite3_bind_double(st, 12, v->ci_low);
		sqlite3_bind_double(st, 13, v->ci_high);
		sqlite3_bind_text(st, 14, verdict_shape_name(v->shape), -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 15, v->p);
		sqlite3_bind_double(st, 16, v->q);
		sqlite3_bind_double(st, 17, v->noise);
		bind_opt(st, 18, v->noise_within, v->noise_within >= 0);
		bind_opt(st, 19, v->noise_history, v->noise_history >= 0);
		sqlite3_bind_text(st, 20, verdict_source_name(v->source), -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 21, v->history_runs);
		bind_opt(st, 22, v->clock_ratio, v->clock_ratio > 0);
		if (v->halves >= 0)
			sqlite3_bind_int(st, 23, v->halves);
		else
			sqlite3_bind_null(st, 23);
		sqlite3_bind_int(st, 24, v->canary_moved != 0);
		sqlite3_bind_text(st, 25, verdict_state_name(v->state), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 26, v->package, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 27, v->base_version, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 28, v->new_version, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 29, v->noise_df);
		sqlite3_bind_double(st, 30, v->regime_slope);
		if (v->confirmation >= 0)
			sqlite3_bind_int(st, 31, v->confirmation != 0);
		else
			sqlite3_bind_null(st, 31);
		rc = sqlite3_step(st);
	}
	if (rc != SQLITE_DONE)
		bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Bind R's sides to parameters 1 to 4 of ST: base run, base image,
 * new run, new image (NULL for a whole run). */
static void bind_sides(sqlite3_stmt *st, const struct verdict_result *r)
{
	sqlite3_bind_int64(st, 1, r->base.run);
	bind_image(st, 2, r->base.image);
	sqlite3_bind_int64(st, 3, r->new.run);
	bind_image(st, 4, r->new.image);
}

int verdict_store(sqlite3 *db, const struct verdict_result *r,
		  const char *source, int64_t *ret_id, bo_err *err)
{
	sqlite3_stmt *st;
	char now[32], *caveats = xstrdup("");
	time_t t = time(NULL);
	struct tm tm;
	int64_t id;
	size_t i;
	int rc;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (i = 0; i < r->ncaveats; i++) {
		char *c = xasprintf("%s%s%s", caveats, i ? "\n" : "", r->caveats[i]);

		free(caveats);
		caveats = c;
	}
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		free(caveats);
		return bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
	}
	/* the same comparison stored again (compare --store twice, the
	 * daemon after a confirmation changed it) replaces the earlier
	 * one: one row per comparison, the latest derivation */
	if (sqlite3_prepare_v2(db, "DELETE FROM verdicts WHERE base_run = ?1"
			       " AND base_image IS ?2 AND new_run = ?3"
			       " AND new_image IS ?4 AND source = ?5"
			       " AND threshold = ?6 AND alpha = ?7", -1, &st,
			       NULL) != SQLITE_OK) {
		bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
		goto fail;
	}
	bind_sides(st, r);
	sqlite3_bind_text(st, 5, source, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 6, r->threshold);
	sqlite3_bind_double(st, 7, r->alpha);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
		goto fail;
	}
	if (sqlite3_prepare_v2(db, "INSERT INTO verdicts (base_run, base_image,"
			       " new_run, new_image, created_at, source, method,"
			       " threshold, alpha, curves, changed, confirmed,"
			       " flagged, regressions, confirmed_regressions, caveats)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
			       " ?11, ?12, ?13, ?14, ?15, ?16)", -1, &st,
			       NULL) != SQLITE_OK) {
		bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
		goto fail;
	}
	bind_sides(st, r);
	sqlite3_bind_text(st, 5, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, VERDICT_METHOD, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 8, r->threshold);
	sqlite3_bind_double(st, 9, r->alpha);
	sqlite3_bind_int64(st, 10, (int64_t)r->ncurves);
	sqlite3_bind_int64(st, 11, (int64_t)r->nchanged);
	sqlite3_bind_int64(st, 12, (int64_t)r->nconfirmed);
	sqlite3_bind_int64(st, 13, (int64_t)r->nflagged);
	sqlite3_bind_int64(st, 14, (int64_t)r->nregressions);
	sqlite3_bind_int64(st, 15, (int64_t)r->nconfirmed_regressions);
	sqlite3_bind_text(st, 16, caveats, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
		goto fail;
	}
	id = sqlite3_last_insert_rowid(db);
	if (store_curves(db, r, id, err) < 0)
		goto fail;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		bo_err_set(err, "cannot store verdicts: %s", sqlite3_errmsg(db));
		goto fail;
	}
	free(caveats);
	if (ret_id)
		*ret_id = id;
	return 0;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	free(caveats);
	return -1;
}
