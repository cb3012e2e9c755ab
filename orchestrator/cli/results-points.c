/* results-points.c - the query and the human table of the points
 * `benchorch results` prints (see results-points.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/latest.h"
#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/results-points.h"
#include "orchestrator/results/fastest.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/summary.h"

/* csv and json: the stored columns, names stable for machines. */
static const char machine_cols[] =
	"SELECT run_id, distro, release, library, library_version,"
	" package_version, algorithm, operation, buffer_bytes,"
	" round(mb_per_s, 2) AS mb_per_s, median_ns, verified";

/* csv and json, after the statistics (so the names before them stay
 * where they were): the calls one batch timed, and median_ns (per batch)
 * divided by them, the time of one call. */
static const char machine_tail[] =
	", calls_per_batch,"
	" round(median_ns * 1.0 / calls_per_batch, 3) AS ns_per_call,"
	" %s AS build";

/* table: what people read (sizes and throughput formatted in C); the
 * library as results_schema's library_label (%s: "LIBRARY@NAME" for a
 * build's rows). */
static const char human_cols[] =
	"SELECT run_id, distro || coalesce(':' || release, ''), %s,"
	" library_version, package_version, algorithm, operation, buffer_bytes,"
	" mb_per_s, median_ns * 1.0 / calls_per_batch, verified";

/* The per-point statistics and the curve's cycles per byte (schema 5),
 * joined to results_v on result_id, with names that results_v does not
 * use (schema 6 has the same columns in results_v), so that its columns
 * stay unambiguous on every schema. */
static const char stats_join[] =
	" LEFT JOIN (SELECT r.id AS stat_id, r.p25_ns AS stat_p25,"
	"  r.p75_ns AS stat_p75, r.cv AS stat_cv, r.noisy AS stat_noisy,"
	"  c.cycles_per_byte AS stat_cpb FROM results r LEFT JOIN curves c"
	"  ON c.invocation_id = r.invocation_id AND c.library_id = r.library_id"
	"  AND c.algorithm = r.algorithm AND c.operation = r.operation"
	"  AND c.mode = r.mode) ON stat_id = result_id";

/* points_v's cycles_per_byte is one invocation's fit; the run's curve
 * has one per invocation (table curves). The slope shown is the run's:
 * the mean of the fits of every invocation of the point's run that
 * measured its curve (same image, library, algorithm, operation, mode
 * and variant), the same on every row of the curve and the figure the
 * report's table of fits gives (report-tables.c). */
static const char run_cpb[] =
	"(SELECT round(avg(c2.cycles_per_byte), 3) FROM results r0"
	" JOIN invocations i0 ON i0.id = r0.invocation_id"
	" JOIN invocations i2 ON i2.run_id = i0.run_id"
	"  AND i2.image_id IS i0.image_id AND i2.variant = i0.variant"
	" JOIN curves c2 ON c2.invocation_id = i2.id"
	"  AND c2.library_id = r0.library_id AND c2.algorithm = r0.algorithm"
	"  AND c2.operation = r0.operation AND c2.mode = r0.mode"
	" WHERE r0.id = result_id) AS cycles_per_byte";

/* 1 when DB has the statistics of schema 5, 0 when not (a database of
 * an older schema opened read-only), -1 on a database error. */
static int has_stats(sqlite3 *db)
{
	sqlite3_stmt *st;
	int k = db_prepare_optional(db, "SELECT p25_ns FROM results, curves"
				    " LIMIT 0", &st);

	sqlite3_finalize(st);
	return k;
}

/* The query for F: BASE columns, then mode and variant, then the
 * statistics p25_ns, p75_ns, cv, noisy and cycles_per_byte (appended, so
 * the names before them stay stable; NULL on an older schema), then
 * TAIL (more columns, "" for none), from
 * VIEW (results_schema's points_view: one row per point of a run, the
 * median of its invocations' medians) filtered by F, with positional
 * parameters bound in order by bind_filters. From points_v the
 * statistics are the point's own, over all its invocations (the
 * quartiles span them, so that median_ns lies between them; noisy when
 * any invocation was; the largest cv) and cycles_per_byte the run's
 * curve's (run_cpb: the mean of its invocations' fits); from results_v
 * (a database older than points_v) they are the invocation's. LATEST is the run shown when
 * F names none (db_latest_run_sql). Caller frees. */
static char *build_sql(const char *base, const char *tail,
		       const char *mode, const char *variant, int stats,
		       const char *view, const char *latest,
		       const struct filters *f)
{
	int points = strcmp(view, "points_v") == 0;
	char *cols = xasprintf("%s, %s AS mode, %s AS variant, %s%s%s", base,
			       mode, variant, points ?
			       "p25_ns, p75_ns, round(cv, 6) AS cv, noisy, " :
			       stats ?
			       "stat_p25 AS p25_ns, stat_p75 AS p75_ns,"
			       " round(stat_cv, 6) AS cv, stat_noisy AS noisy,"
			       " round(stat_cpb, 3) AS cycles_per_byte" :
			       "NULL AS p25_ns, NULL AS p75_ns, NULL AS cv,"
			       " NULL AS noisy, NULL AS cycles_per_byte",
			       points ? run_cpb : "", tail);
	char *sql = xasprintf("%s FROM %s%s WHERE 1", cols, view,
			      stats && !points ? stats_join : ""), *t;

	free(cols);
	if (f->nruns && !f->all) {
		char *in = sql_in_list("run_id", f->nruns);

		t = xasprintf("%s AND %s", sql, in);
		free(in);
		free(sql);
		sql = t;
	} else if (!f->all) {
		t = xasprintf("%s AND run_id = %s", sql, latest);
		free(sql);
		sql = t;
	}
	t = xasprintf("%s%s%s%s%s%s ORDER BY run_id, distro, release, library,"
		      " algorithm, operation DESC, %s, %s, buffer_bytes", sql,
		      f->distro ? " AND (distro = ? OR distro || ':' || release = ?)" : "",
		      f->lib ? " AND library = ?" : "",
		      f->algo ? " AND algorithm = ?" : "",
		      f->size ? " AND buffer_bytes = ?" : "",
		      f->op ? " AND operation = ?" : "", variant, mode);
	free(sql);
	return t;
}

static void bind_filters(sqlite3_stmt *st, const struct filters *f)
{
	int k = 1;
	size_t i;

	if (f->nruns && !f->all)
		for (i = 0; i < f->nruns; i++)
			sqlite3_bind_int64(st, k++, f->runs[i]);
	if (f->distro) {
		sqlite3_bind_text(st, k++, f->distro, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, k++, f->distro, -1, SQLITE_STATIC);
	}
	if (f->lib)
		sqlite3_bind_text(st, k++, f->lib, -1, SQLITE_STATIC);
	if (f->algo)
		sqlite3_bind_text(st, k++, f->algo, -1, SQLITE_STATIC);
	if (f->size)
		sqlite3_bind_int64(st, k++, f->size);
	if (f->op)
		sqlite3_bind_text(st, k++, f->op, -1, SQLITE_STATIC);
}

/* Print, for each of the NRUNS runs in RUNS, its CPU, CPU state and seed
 * on one line, its warnings on the lines after it, then an empty line.
 * Returns 0, or -1 with err set. */
static int print_runs(FILE *out, sqlite3 *db, const int64_t *runs,
		      size_t nruns, bo_err *err)
{
	size_t i;

	for (i = 0; i < nruns; i++) {
		struct run_state rs;
		char *line, *w, *save = NULL;

		if (run_state_read(db, runs[i], &rs, err) < 0)
			return -1;
		line = run_state_describe(&rs);
		fprintf(out, "%s\n", line);
		free(line);
		for (w = rs.warnings ? strtok_r(rs.warnings, "\n", &save) : NULL;
		     w; w = strtok_r(NULL, "\n", &save))
			fprintf(out, "  warning: %s\n", w);
		run_state_release(&rs);
	}
	if (nruns)
		fputc('\n', out);
	return 0;
}

/* Print the human table, after a line per run on its CPU state
 * (print_runs); returns rows printed or -1 with err set. A throughput of
 * a noisy point gets a '~'; *ret_noisy counts them. */
long results_print_human(FILE *out, sqlite3_stmt *st, long *ret_noisy,
			bo_err *err)
{
	static const char *const hdr[] = { "run", "distro", "library",
		"version", "package", "algorithm", "op", "size", "MB/s",
		"ns/call", "verified", "mode", "variant", "slope cyc/B", "CV%" };
	static const int right[] = { 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1,
				     1 };
	struct tbl t;
	int64_t *runs = NULL;
	size_t nruns = 0;
	long n = 0, noisy = 0;
	int rc;

	tbl_init(&t, 15, hdr, right);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char run[32], size[32], mbps[40], ns[32], cyc[32], cv[32], *ver;
		const char *row[15];
		int i;

		snprintf(run, sizeof(run), "%lld",
			 (long long)sqlite3_column_int64(st, 0));
		snprintf(ns, sizeof(ns), "%.0f", sqlite3_column_double(st, 9));
		row[0] = run;
		for (i = 1; i <= 6; i++)
			row[i] = (const char *)sqlite3_column_text(st, i);
		/* the short version keeps the table readable; csv and json
		 * give the library's whole version string */
		ver = fastest_short_version((const char *)sqlite3_column_text(st, 3));
		row[3] = ver;
		row[7] = fmt_size(sqlite3_column_int64(st, 7), size, sizeof(size));
		row[8] = fmt_mbps(sqlite3_column_double(st, 8), mbps,
				  sizeof(mbps) - 1);
		if (sqlite3_column_int(st, 16) == 1) {
			strcat(mbps, "~");
			noisy++;
		}
		row[9] = ns;
		row[10] = sqlite3_column_int(st, 10) ? "yes" : "NO";
		row[11] = (const char *)sqlite3_column_text(st, 11);
		row[12] = (const char *)sqlite3_column_text(st, 12);
		cyc[0] = cv[0] = '\0';
		if (sqlite3_column_type(st, 17) != SQLITE_NULL)
			snprintf(cyc, sizeof(cyc), "%.2f",
				 sqlite3_column_double(st, 17));
		if (sqlite3_column_type(st, 15) != SQLITE_NULL)
			snprintf(cv, sizeof(cv), "%.1f",
				 100 * sqlite3_column_double(st, 15));
		row[13] = cyc;
		row[14] = cv;
		tbl_add(&t, row);
		free(ver);
		n++;
		/* rows come ordered by run_id */
		if (nruns == 0 || runs[nruns - 1] != sqlite3_column_int64(st, 0)) {
			runs = xrealloc(runs, (nruns + 1) * sizeof(*runs));
			runs[nruns++] = sqlite3_column_int64(st, 0);
		}
	}
	if (rc != SQLITE_DONE) {
		tbl_free(&t);
		free(runs);
		return bo_err_set(err, "database error: %s",
				  sqlite3_errmsg(sqlite3_db_handle(st)));
	}
	if (print_runs(out, sqlite3_db_handle(st), runs, nruns, err) < 0)
		n = -1;
	else if (n)
		tbl_print(&t, out);
	tbl_free(&t);
	*ret_noisy = noisy;
	free(runs);
	return n;
}

/* Prepare in *ST the query of the points of F in DB (at PATH), with the
 * columns of FMT, its filters bound. Returns 0, or EXIT_ENV after the
 * message (*ST NULL). */
int results_prepare_points(sqlite3 *db, const char *path,
			  const struct filters *f, enum format fmt,
			  sqlite3_stmt **st)
{
	struct results_schema rs;
	char *sql, *latest_sql = NULL, *human, *tail;
	int stats = has_stats(db);
	bo_err err;

	*st = NULL;
	if (stats < 0 || results_schema(db, &rs, &err) < 0 ||
	    !(latest_sql = db_latest_run_sql(db, DB_RUN_LIBRARY))) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		return EXIT_ENV;
	}
	human = xasprintf(human_cols, rs.library_label);
	tail = xasprintf(machine_tail, rs.build);
	sql = build_sql(fmt == FORMAT_TABLE ? human : machine_cols,
			fmt == FORMAT_TABLE ? "" : tail, rs.mode, rs.variant, stats, rs.points_view, latest_sql,
			f);
	free(human);
	free(tail);
	free(latest_sql);
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		free(sql);
		return EXIT_ENV;
	}
	free(sql);
	bind_filters(*st, f);
	return 0;
}

