/* db/resources.c - store the resource figures of one guest invocation
 * (see resources.h and guest/PROTOCOL.md, "Resources"). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/resources.h"

/* Bind I to V, or NULL when V <= 0 (unknown). */
static void bind_kib(sqlite3_stmt *st, int i, int64_t v)
{
	if (v > 0)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Run ST (bound) to completion and reset it. */
static int step(sqlite3 *db, sqlite3_stmt *st, bo_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "cannot store resources: %s",
				  sqlite3_errmsg(db));
	return 0;
}

/* library_resources rows of OUT. */
static int store_libraries(sqlite3 *db, int64_t inv_id,
			   const struct guest_output *out, bo_err *err)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO library_resources"
			       " (invocation_id, library, user_us, sys_us,"
			       " maxrss_kib, rss_before_load_kib, footprint_kib)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st,
			       NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	for (size_t i = 0; i < out->nlibraries && rc == 0; i++) {
		const struct guest_library *l = &out->libraries[i];
		const struct guest_rusage *u = NULL;

		for (size_t j = 0; j < out->nrusage; j++)
			if (strcmp(out->rusage[j].library, l->name) == 0)
				u = &out->rusage[j];
		if (!u && l->footprint_kib <= 0)
			continue;
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_text(st, 2, l->name, -1, SQLITE_TRANSIENT);
		if (u) {
			sqlite3_bind_int64(st, 3, u->user_us);
			sqlite3_bind_int64(st, 4, u->sys_us);
			bind_kib(st, 5, u->maxrss_kib);
		}
		if (l->footprint_kib > 0) {
			if (l->rss_before_load_kib >= 0)
				sqlite3_bind_int64(st, 6,
						   l->rss_before_load_kib);
			sqlite3_bind_int64(st, 7, l->footprint_kib);
		}
		rc = step(db, st, err);
	}
	sqlite3_finalize(st);
	return rc;
}

int db_store_resources(sqlite3 *db, int64_t inv_id,
		       const struct guest_output *out,
		       const struct guest_judgement *judged, bo_err *err)
{
	const struct guest_algo_peak *p = judged->algo_peaks;
	size_t n = judged->nalgo_peaks;
	sqlite3_stmt *st;
	int rc;

	if (store_libraries(db, inv_id, out, err) < 0)
		return -1;
	if (n == 0)
		return 0;
	/* an algorithm seen twice in one process keeps its largest figures */
	if (sqlite3_prepare_v2(db, "INSERT INTO algorithm_resources"
			       " (invocation_id, library, algorithm, peak_kib,"
			       " raise_kib) VALUES (?1, ?2, ?3, ?4, ?5)"
			       " ON CONFLICT DO UPDATE SET"
			       " peak_kib = max(peak_kib, excluded.peak_kib),"
			       " raise_kib = max(raise_kib, excluded.raise_kib)",
			       -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_text(st, 2, p[i].library, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, p[i].algorithm, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 4, p[i].peak_kib);
		if (p[i].raise_kib >= 0)
			sqlite3_bind_int64(st, 5, p[i].raise_kib);
		rc = step(db, st, err);
	}
	sqlite3_finalize(st);
	return rc;
}
