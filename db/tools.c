/* db/tools.c - store the tool mode's measurements (tools.h). */
#include "config.h"

#include <string.h>

#include "db/tools.h"

static void text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int step(sqlite3 *db, sqlite3_stmt *st, bo_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "cannot store a tool result: %s",
				  sqlite3_errmsg(db));
	return 0;
}

/* Bind the five key columns of R after INVOCATION_ID at 1 .. 5. */
static void bind_key(sqlite3_stmt *st, int64_t inv, const struct db_tool_row *r)
{
	sqlite3_bind_int64(st, 1, inv);
	sqlite3_bind_text(st, 2, r->tool, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, r->cipher, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, r->direction, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, r->variant, -1, SQLITE_TRANSIENT);
}

int db_tools_store(sqlite3 *db, int64_t invocation_id,
		   const struct db_tool_row *rows, size_t n, bo_err *err)
{
	sqlite3_stmt *row = NULL, *sample = NULL;
	size_t i, k;
	int rc = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO tool_results (invocation_id,"
			       " tool, cipher, direction, variant, status, error,"
			       " tool_version, package, package_version,"
			       " hw_features, bytes, repetitions, kept, cpu_ns,"
			       " user_ns, sys_ns, wall_ns, max_rss_kib, mb_per_s)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
			       " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
			       -1, &row, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO tool_samples (invocation_id,"
			       " tool, cipher, direction, variant, seq, user_ns,"
			       " sys_ns, wall_ns, max_rss_kib) VALUES (?1, ?2, ?3,"
			       " ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &sample,
			       NULL) != SQLITE_OK) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct db_tool_row *r = &rows[i];
		int measured = strcmp(r->status, "measured") == 0;

		bind_key(row, invocation_id, r);
		sqlite3_bind_text(row, 6, r->status, -1, SQLITE_TRANSIENT);
		text_or_null(row, 7, r->error);
		sqlite3_bind_text(row, 8, r->tool_version ? r->tool_version : "",
				  -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(row, 9, r->package ? r->package : "", -1,
				  SQLITE_TRANSIENT);
		sqlite3_bind_text(row, 10, r->package_version ?
				  r->package_version : "", -1, SQLITE_TRANSIENT);
		text_or_null(row, 11, r->hw_features);
		sqlite3_bind_int64(row, 12, (sqlite3_int64)r->bytes);
		sqlite3_bind_int64(row, 13, measured ? (sqlite3_int64)r->nsamples : 0);
		sqlite3_bind_int64(row, 14, measured ? (sqlite3_int64)r->kept : 0);
		if (measured) {
			/* whole ns and KiB: the means' fractions are noise */
			sqlite3_bind_int64(row, 15, (sqlite3_int64)(r->cpu_ns + 0.5));
			sqlite3_bind_int64(row, 16, (sqlite3_int64)(r->user_ns + 0.5));
			sqlite3_bind_int64(row, 17, (sqlite3_int64)(r->sys_ns + 0.5));
			sqlite3_bind_int64(row, 18, (sqlite3_int64)(r->wall_ns + 0.5));
			sqlite3_bind_int64(row, 19, (sqlite3_int64)(r->max_rss_kib + 0.5));
			sqlite3_bind_double(row, 20, r->mb_per_s);
		}
		if (step(db, row, err) < 0)
			goto out;
		for (k = 0; measured && k < r->nsamples; k++) {
			const struct db_tool_sample *s = &r->samples[k];

			bind_key(sample, invocation_id, r);
			sqlite3_bind_int64(sample, 6, (sqlite3_int64)k);
			sqlite3_bind_int64(sample, 7, (sqlite3_int64)s->user_ns);
			sqlite3_bind_int64(sample, 8, (sqlite3_int64)s->sys_ns);
			sqlite3_bind_int64(sample, 9, (sqlite3_int64)s->wall_ns);
			sqlite3_bind_int64(sample, 10, (sqlite3_int64)s->max_rss_kib);
			if (step(db, sample, err) < 0)
				goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(row);
	sqlite3_finalize(sample);
	return rc;
}
