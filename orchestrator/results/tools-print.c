/* tools-print.c - the tool mode's results as a table, CSV or JSON. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/latest.h"
#include "orchestrator/results/tools-print.h"

static const char human_cols[] =
	"SELECT run_id AS run, distro || ':' || release AS distro, tool,"
	" cipher, direction,"
	" variant, package_version AS version, status,"
	" round(mb_per_s, 1) AS mb_per_s,"
	/* an absent tool or a failed round trip has no figures: blank,
	 * not 0.000 */
	" CASE WHEN cpu_ns IS NULL THEN '' ELSE"
	"  printf('%.3f', cpu_ns / 1e9) END AS cpu_s,"
	" CASE WHEN wall_ns IS NULL THEN '' ELSE"
	"  printf('%.3f', wall_ns / 1e9) END AS wall_s,"
	" CASE WHEN max_rss_kib IS NULL THEN '' ELSE"
	"  printf('%.1f', max_rss_kib / 1024.0) END AS rss_mib,"
	" CASE WHEN status = 'measured' THEN kept || '/' || repetitions"
	"  ELSE coalesce(error, '') END AS samples";

static const char raw_cols[] =
	"SELECT run_id, spec, distro, release, tool, cipher, direction,"
	" variant, status, error, tool_version, package, package_version,"
	" hw_features, bytes, repetitions, kept, cpu_ns, user_ns, sys_ns,"
	" wall_ns, max_rss_kib, mb_per_s";

long tools_print(FILE *f, sqlite3 *db, const int64_t *runs, size_t nruns,
		 int all, const char *filter_distro, enum format fmt,
		 bo_err *err)
{
	sqlite3_stmt *st;
	char *sql, *where, *t;
	size_t i;
	long n;
	int k = 1, step;

	if (nruns) {
		where = xstrdup(" WHERE run_id IN (");
		for (i = 0; i < nruns; i++) {
			t = xasprintf("%s%s?", where, i ? ", " : "");
			free(where);
			where = t;
		}
		t = xasprintf("%s)", where);
		free(where);
		where = t;
	} else if (all) {
		where = xstrdup(" WHERE 1");
	} else {
		/* the latest finished tool run (latest_runs_v) */
		char *latest = db_latest_run_sql(db, DB_RUN_TOOLS);

		if (!latest)
			return bo_err_set(err, "cannot read the tool results: %s",
					  sqlite3_errmsg(db));
		where = xasprintf(" WHERE run_id = %s", latest);
		free(latest);
	}
	if (filter_distro) {
		t = xasprintf("%s AND (distro = ? OR distro || ':' || release = ?"
			      " OR spec = ?)", where);
		free(where);
		where = t;
	}
	sql = xasprintf("%s FROM tool_results_v%s ORDER BY run_id, spec, tool,"
			" cipher, direction DESC, variant", fmt == FORMAT_TABLE ?
			human_cols : raw_cols, where);
	free(where);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		bo_err_set(err, "cannot read the tool results: %s",
			   sqlite3_errmsg(db));
		free(sql);
		return -1;
	}
	free(sql);
	for (i = 0; i < nruns; i++)
		sqlite3_bind_int64(st, k++, runs[i]);
	if (filter_distro)
		for (i = 0; i < 3; i++)
			sqlite3_bind_text(st, k++, filter_distro, -1,
					  SQLITE_STATIC);
	/* no row: the table prints nothing (as results' point table does),
	 * csv its header and json [] (format_stmt) */
	if (fmt == FORMAT_TABLE && (step = sqlite3_step(st)) != SQLITE_ROW) {
		if (step != SQLITE_DONE)
			bo_err_set(err, "cannot read the tool results: %s",
				   sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return step == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_reset(st);
	n = format_stmt(f, st, fmt, err);
	sqlite3_finalize(st);
	return n;
}
