/* cmd-results.c - `benchorch results`: print stored measurements. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/confirmations.h"
#include "db/db.h"
#include "lib/algorithms.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/db-names.h"
#include "orchestrator/results/fastest.h"
#include "lib/format.h"
#include "orchestrator/results/tools-print.h"
#include "orchestrator/results/lib-faults.h"
#include "lib/paths.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/results-resources.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/summary.h"

static const char usage[] =
"Usage: benchorch results [OPTIONS]\n"
"\n"
"Print the measurements of one run (the latest by default), one row per\n"
"library, algorithm, operation and buffer size: a point that several guest\n"
"invocations of the run measured (each is measured in two) is one row, the\n"
"median of their medians (per call), its quartiles spanning them.\n"
"The latest run is the latest with results that is neither still going\n"
"nor a confirmation run (a few curves of another run measured again);\n"
"--run names any run.\n"
"Throughput in MB/s (10^6 bytes per second). The table shows sizes in\n"
"binary units (16 B, 1 KiB, 1 MiB) and the median time per call in ns;\n"
"csv and json keep the stored columns (buffer_bytes, mb_per_s, median_ns\n"
"per batch) for machines.\n"
"mode is bulk (one keyed context reused) or oneshot (set up per buffer);\n"
"variant is hw, or nohw when hardware acceleration was masked.\n"
"cyc/B (cycles_per_byte) is the curve's fitted cost per byte at the core\n"
"clock the guest measured; CV% (cv, a fraction) the spread of the point's\n"
"raw samples (all its sets; the largest of its invocations'); a\n"
"throughput marked ~ (noisy = 1) was above the guest's CV limit in one of\n"
"them. csv and json also give the\n"
"quartiles p25_ns and p75_ns (ns per batch). Runs stored before the guest\n"
"reported samples leave these empty.\n"
"The table starts with a line per run: its CPU, the state of the CPU its\n"
"guests were pinned to (governor, boost, scaling frequency before and\n"
"after, hypervisor), its seed and rounds, and its warnings if the numbers\n"
"may have drifted.\n"
"\n"
"Options:\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    where the default database lives\n"
"      --run ID           show run ID (repeat for several runs)\n"
"      --latest           show the latest run (the default)\n"
"      --all              show every run\n"
"      --distro NAME      only distro NAME or NAME:RELEASE\n"
"      --lib NAME         only library NAME (openssl, libgcrypt, ...)\n"
"      --algo NAME        only algorithm NAME (aes-256-gcm, ...)\n"
"      --size SIZE        only buffer size SIZE (16, 1KiB, 1MiB)\n"
"      --op OP            only operation OP (encrypt, decrypt, hash)\n"
"      --format FORMAT    table, csv or json (default: table)\n"
"      --summary          print the answer `benchorch run` ends with\n"
"                         instead: per distribution and algorithm the\n"
"                         fastest library at 16 KiB and 16 B, the runner-up\n"
"                         and the slowest (table only; with --run or\n"
"                         --latest, no other filter)\n"
"      --tools            the tool mode's results instead (`run --tools`):\n"
"                         per distribution, tool, cipher, direction and\n"
"                         variant the package version, MB/s (10^6 bytes\n"
"                         per second of wall time), CPU (user + system) and\n"
"                         wall seconds per run of the tool, its peak RSS in\n"
"                         MiB (trimmed means) and the samples kept/taken;\n"
"                         absent tools and failed round trips with why\n"
"                         (--run, --latest, --all, --distro and --format\n"
"                         apply; the latest run with tool results by\n"
"                         default)\n"
"      --resources        print what each library's process cost instead:\n"
"                         per invocation and library the CPU time (user,\n"
"                         system), the peak resident set, the footprint\n"
"                         after loading and the algorithm that raised the\n"
"                         peak most; with --algo NAME that algorithm's\n"
"                         peak and raise per library (takes --run,\n"
"                         --latest, --all, --distro, --lib, --algo and\n"
"                         --format; the table in ms and MiB, csv and json\n"
"                         in microseconds and KiB)\n"
"  -h, --help             show this help\n"
"\n"
"--run, --latest and --all exclude each other; each other filter takes one\n"
"value; a library, algorithm or operation name the guest does not know is a\n"
"usage error. With no matching row the table is empty, csv prints its header\n"
"line and json [].\n"
"\n"
"Exit status: 0 rows printed; 1 no matching results; 2 usage error (a\n"
"run id the database does not hold too); 3 the database cannot be read.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_RUN, OPT_ALL, OPT_FORMAT, OPT_LATEST,
       OPT_DISTRO, OPT_LIB, OPT_ALGO, OPT_SIZE, OPT_OP, OPT_SUMMARY,
       OPT_TOOLS,
       OPT_RESOURCES };

static const struct option options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "latest", no_argument, NULL, OPT_LATEST },
	{ "distro", required_argument, NULL, OPT_DISTRO },
	{ "lib", required_argument, NULL, OPT_LIB },
	{ "algo", required_argument, NULL, OPT_ALGO },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "op", required_argument, NULL, OPT_OP },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "tools", no_argument, NULL, OPT_TOOLS },
	{ "resources", no_argument, NULL, OPT_RESOURCES },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* csv and json: the stored columns, names stable for machines. */
static const char machine_cols[] =
	"SELECT run_id, distro, release, library, library_version,"
	" package_version, algorithm, operation, buffer_bytes,"
	" round(mb_per_s, 2) AS mb_per_s, median_ns, verified";

/* table: what people read (sizes and throughput formatted in C). */
static const char human_cols[] =
	"SELECT run_id, distro || coalesce(':' || release, ''), library,"
	" library_version, package_version, algorithm, operation, buffer_bytes,"
	" mb_per_s, median_ns * 1.0 / calls_per_batch, verified";

struct filters {
	int all, latest;
	int64_t *runs;
	size_t nruns;
	const char *distro, *lib, *algo, *op;
	int64_t size;		/* 0 = any */
};

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
 * the names before them stay stable; NULL on an older schema), from
 * VIEW (results_schema's points_view: one row per point of a run, the
 * median of its invocations' medians) filtered by F, with positional
 * parameters bound in order by bind_filters. From points_v the
 * statistics are the point's own, over all its invocations (the
 * quartiles span them, so that median_ns lies between them; noisy when
 * any invocation was; the largest cv); from results_v (a database older
 * than points_v) they are the invocation's. LATEST is the run shown when
 * F names none (db_latest_run_sql). Caller frees. */
static char *build_sql(const char *base, const char *mode,
		       const char *variant, int stats, const char *view,
		       const char *latest, const struct filters *f)
{
	int points = strcmp(view, "points_v") == 0;
	char *cols = xasprintf("%s, %s AS mode, %s AS variant, %s", base, mode,
			       variant, points ?
			       "p25_ns, p75_ns, round(cv, 6) AS cv, noisy,"
			       " round(cycles_per_byte, 3) AS cycles_per_byte" :
			       stats ?
			       "stat_p25 AS p25_ns, stat_p75 AS p75_ns,"
			       " round(stat_cv, 6) AS cv, stat_noisy AS noisy,"
			       " round(stat_cpb, 3) AS cycles_per_byte" :
			       "NULL AS p25_ns, NULL AS p75_ns, NULL AS cv,"
			       " NULL AS noisy, NULL AS cycles_per_byte");
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

/* Set the filter *SLOT of option OPT to VALUE. A filter holds one value:
 * given again with another value it contradicts itself (no row can match
 * both), which is a usage error, not a silent override. Returns 0, or
 * EXIT_USAGE after printing why. */
static int set_filter(const char **slot, const char *opt, const char *value)
{
	if (*slot && strcmp(*slot, value) != 0)
		return cli_usage_error("results", "%s '%s' and %s '%s' exclude each other",
				       opt, *slot, opt, value);
	*slot = value;
	return 0;
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
static long print_human(FILE *out, sqlite3_stmt *st, long *ret_noisy,
			bo_err *err)
{
	static const char *const hdr[] = { "run", "distro", "library",
		"version", "package", "algorithm", "op", "size", "MB/s",
		"ns/call", "verified", "mode", "variant", "cyc/B", "CV%" };
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

/* Why run RUN_ID (a run DB holds: check_runs) has no results at all, as
 * a clause to append to the "no matching results" error, in *RET: ": run
 * N is stored as aborted (why)", ": run N is still running (or its
 * orchestrator died)", ": run N is a tool run (run --tools); ..." (it
 * has tool results, shown by --tools); NULL when the run has results
 * (the filters excluded them) or when it finished normally. The caller
 * frees it. Returns 0, or -1 (*RET NULL) on a database error (the
 * message is sqlite3_errmsg(DB)). */
static int no_results_reason(sqlite3 *db, int64_t run_id, char **ret)
{
	sqlite3_stmt *st;
	char *why = NULL;
	int rc, tools;

	*ret = NULL;
	if (sqlite3_prepare_v2(db, "SELECT status, error, EXISTS (SELECT 1"
			       " FROM results_v WHERE run_id = ?1)"
			       " FROM runs WHERE id = ?1", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_int(st, 2) == 0) {
		const char *status = (const char *)sqlite3_column_text(st, 0);
		const char *error = (const char *)sqlite3_column_text(st, 1);

		if (status && strcmp(status, "running") == 0)
			why = xasprintf(": run %lld is still running (or its "
					"orchestrator died)", (long long)run_id);
		else if (status && strcmp(status, "done") != 0) {
			char *what = cli_stored_as(run_id, status, error);

			why = xasprintf(": %s", what);
			free(what);
		}
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	/* a database older than the tool mode has no tool run */
	tools = !why && rc == SQLITE_ROW ? db_has(db, "tool_results") : 0;
	if (tools < 0)
		return -1;
	if (tools) {
		char *sql = xasprintf("SELECT EXISTS (SELECT 1 FROM invocations i"
				      " JOIN tool_results t ON t.invocation_id ="
				      " i.id WHERE i.run_id = %lld) AND NOT EXISTS"
				      " (SELECT 1 FROM results_v WHERE run_id ="
				      " %lld)", (long long)run_id,
				      (long long)run_id);
		long long k = db_query_int(db, sql);

		free(sql);
		if (k < 0)
			return -1;
		if (k == 1)
			why = xasprintf(": run %lld is a tool run (run --tools);"
					" 'benchorch results --tools --run %lld'"
					" shows it", (long long)run_id,
					(long long)run_id);
	}
	*ret = why;
	return 0;
}

/* Warn on stderr about every selected run (F's --run ids or the latest
 * run) that has results but did not finish normally (aborted, failed,
 * still running): its results are partial. */
static void warn_partial_runs(sqlite3 *db, const struct filters *f)
{
	size_t i;

	if (f->nruns && !f->all) {
		for (i = 0; i < f->nruns; i++)
			cli_warn_partial_run(db, f->runs[i]);
	} else {
		cli_warn_partial_run(db, db_latest_run(db));
	}
}

/* Check F's --distro and --size against what DB has results for: a
 * name or size it has none for is a usage error (a typo, or a size the
 * guest does not measure), not an empty answer. Returns 0, EXIT_USAGE
 * after printing why, or EXIT_ENV on a database error. */
static int check_known(sqlite3 *db, const char *path, const struct filters *f,
		       const char *size_arg)
{
	int k;

	if (f->distro) {
		k = db_names_distro_known(db, f->distro);
		if (k < 0)
			goto dberr;
		if (k == 0) {
			char *names = db_names_distros(db);

			if (!names)
				goto dberr;
			cli_usage_error("results", "--distro: no results for distribution '%s' in '%s' (it has: %s)",
					f->distro, path, names);
			free(names);
			return EXIT_USAGE;
		}
	}
	if (f->size) {
		k = db_names_size_known(db, f->size);
		if (k < 0)
			goto dberr;
		if (k == 0) {
			char *sizes = db_names_sizes(db);

			if (!sizes)
				goto dberr;
			cli_usage_error("results", "--size: no results at '%s' in '%s' (it has: %s)",
					size_arg, path, sizes);
			free(sizes);
			return EXIT_USAGE;
		}
	}
	return 0;
dberr:
	cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
	return EXIT_ENV;
}

/* --summary: print summary_fastest for each run of F (its --run ids, or
 * the latest run with results). DB_HINT is the --db to name in the
 * closing line, or NULL. Returns an exit status. */
static int print_summaries(sqlite3 *db, const char *path,
			   const struct filters *f, const char *db_hint)
{
	int64_t latest = 0;
	const int64_t *runs = f->runs;
	size_t nruns = f->nruns, i, len = 0;
	int rc = EXIT_OK;
	char *out = NULL;
	FILE *mem;
	bo_err err;

	if (!nruns) {
		latest = db_latest_run(db);
		if (latest < 0) {
			cli_error("database error in '%s': %s", path,
				  sqlite3_errmsg(db));
			return EXIT_ENV;
		}
		if (!latest) {
			cli_error("no results in '%s'", path);
			return EXIT_FAILED;
		}
		runs = &latest;
		nruns = 1;
	}
	for (i = 0; i < nruns; i++)
		cli_warn_partial_run(db, runs[i]);
	/* stdout gets the summaries once every run's is read: a database
	 * error leaves it empty */
	mem = open_memstream(&out, &len);
	if (!mem) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	for (i = 0; i < nruns && rc != EXIT_ENV; i++) {
		long n;

		if (i)
			fputc('\n', mem);
		n = summary_fastest(mem, db, runs[i], db_hint, &err);
		if (n < 0) {
			cli_error("%s in '%s'", err.msg, path);
			rc = EXIT_ENV;
		} else if (n == 0) {
			char *why;

			if (no_results_reason(db, runs[i], &why) < 0) {
				cli_error("database error in '%s': %s", path,
					  sqlite3_errmsg(db));
				rc = EXIT_ENV;
				break;
			}
			cli_error("no bulk results at 16 B or 16 KiB for run %lld in '%s'%s",
				  (long long)runs[i], path, why ? why : "");
			free(why);
			rc = EXIT_FAILED;
		}
	}
	fclose(mem);
	if (rc != EXIT_ENV)
		fwrite(out, 1, len, stdout);
	free(out);
	return rc;
}

/* The warnings, one line each, about every library that failed (could
 * not be loaded, crashed, hung) in the selected runs (F's --run ids, or
 * the latest): it has no results there. Returns 0 with the lines
 * in *RET ("" for none; the caller frees them), or -1 (*RET NULL) on a
 * database error (the message is sqlite3_errmsg(DB)). */
static int failed_libraries(sqlite3 *db, const struct filters *f, char **ret)
{
	const int64_t *runs = f->runs;
	size_t nruns = f->nruns, len = 0, i;
	int64_t latest = 0;
	long k = 0;
	FILE *m;

	*ret = NULL;
	if (!nruns) {
		latest = db_latest_run(db);
		if (latest < 0)
			return -1;
		runs = &latest;
		nruns = latest > 0;
	}
	m = open_memstream(ret, &len);
	if (!m) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	for (i = 0; i < nruns && k >= 0; i++)
		k = lib_faults_print(m, db, runs[i], "benchorch: warning: ");
	fclose(m);
	if (k < 0) {
		free(*ret);
		*ret = NULL;
		return -1;
	}
	return 0;
}

/* --resources: print results_resources() for F in FMT. Returns an exit
 * status. */
static int print_resources(sqlite3 *db, const char *path,
			   const struct filters *f, enum format fmt)
{
	struct resources_filter rf = { f->all, f->runs, f->nruns, f->distro,
				       f->lib, f->algo };
	bo_err err;
	long n = results_resources(stdout, db, &rf, fmt, &err);

	if (n < 0) {
		cli_error("cannot read resources from '%s': %s", path, err.msg);
		return EXIT_ENV;
	}
	if (n == 0) {
		cli_error("no resource figures in '%s' for these runs (runs stored before benchorch recorded them have none)",
			  path);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

static int cmd_results(int argc, char **argv)
{
	const char *db_opt = NULL, *state_opt = NULL, *size_arg = NULL;
	enum format fmt = FORMAT_TABLE;
	struct filters f = { 0 };
	int opt, rc = EXIT_OK, summary = 0, tools = 0, resources = 0, k, stats;
	sqlite3 *db;
	sqlite3_stmt *st;
	char *path, *sql, *latest_sql, *out = NULL, *faults = NULL, *why = NULL;
	size_t outlen = 0;
	struct results_schema rs;
	FILE *mem;
	bo_err err;
	long n, noisy = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_DB:
			if (cli_path_arg("results", "--db", optarg))
				return EXIT_USAGE;
			db_opt = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg("results", "--state-dir", optarg))
				return EXIT_USAGE;
			state_opt = optarg;
			break;
		case OPT_RUN: {
			int64_t run;

			if (cli_parse_run_id(optarg, &run, &err) < 0) {
				free(f.runs);
				return cli_usage_error("results", "--run takes a run id: %s",
						       err.msg);
			}
			f.runs = xrealloc(f.runs, (f.nruns + 1) * sizeof(*f.runs));
			f.runs[f.nruns++] = run;
			break;
		}
		case OPT_ALL:
			f.all = 1;
			break;
		case OPT_LATEST:
			f.latest = 1;
			break;
		case OPT_DISTRO:
			rc = set_filter(&f.distro, "--distro", optarg);
			break;
		case OPT_LIB:
			rc = library_known(optarg) ?
				set_filter(&f.lib, "--lib", optarg) :
				cli_usage_error("results", "--lib: unknown library '%s'",
						optarg);
			break;
		case OPT_ALGO:
			rc = algorithm_find(optarg) ?
				set_filter(&f.algo, "--algo", optarg) :
				cli_usage_error("results", "--algo: unknown algorithm '%s'",
						optarg);
			break;
		case OPT_OP:
			rc = strcmp(optarg, "encrypt") == 0 ||
			     strcmp(optarg, "decrypt") == 0 ||
			     strcmp(optarg, "hash") == 0 ?
				set_filter(&f.op, "--op", optarg) :
				cli_usage_error("results", "--op: '%s' is not encrypt, decrypt or hash",
						optarg);
			break;
		case OPT_SIZE: {
			int64_t size;

			if (parse_size(optarg, &size, &err) < 0) {
				free(f.runs);
				return cli_usage_error("results", "%s", err.msg);
			}
			if (f.size && f.size != size)
				rc = cli_usage_error("results", "--size '%s' and --size '%s' exclude each other",
						     size_arg, optarg);
			f.size = size;
			size_arg = optarg;
			break;
		}
		case OPT_FORMAT:
			if (format_parse(optarg, &fmt, &err) < 0) {
				free(f.runs);
				return cli_usage_error("results", "%s", err.msg);
			}
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		case OPT_TOOLS:
			tools = 1;
			break;
		case OPT_RESOURCES:
			resources = 1;
			break;
		case 'h':
			free(f.runs);
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			free(f.runs);
			return cli_usage_error("results", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			free(f.runs);
			return cli_usage_error("results", "unknown option '%s'",
					       argv[optind - 1]);
		}
		if (rc != EXIT_OK) {
			free(f.runs);
			return rc;
		}
	}
	if (optind < argc) {
		free(f.runs);
		return cli_usage_error("results", "unexpected argument '%s'",
				       argv[optind]);
	}
	if ((f.all != 0) + (f.latest != 0) + (f.nruns != 0) > 1) {
		free(f.runs);
		return cli_usage_error("results", "--run, --latest and --all exclude each other");
	}
	if (summary && (f.all || f.distro || f.lib || f.algo || f.op || f.size ||
			fmt != FORMAT_TABLE)) {
		free(f.runs);
		return cli_usage_error("results", "--summary takes --run or --latest, no other filter, and no --format but table");
	}
	if (tools && resources) {
		free(f.runs);
		return cli_usage_error("results", "--tools and --resources exclude each other");
	}
	if (tools && (summary || f.lib || f.algo || f.op || f.size)) {
		free(f.runs);
		return cli_usage_error("results", "--tools takes no --summary, --lib, --algo, --op or --size");
	}
	if (resources && (summary || f.op || f.size)) {
		free(f.runs);
		return cli_usage_error("results", "--resources takes no --summary, --op or --size");
	}
	path = paths_db(db_opt, state_opt);
	if (db_open_readonly(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		free(f.runs);
		free(path);
		return EXIT_ENV;
	}
	/* a run the database does not hold is an unknown name */
	rc = cli_check_runs("results", "--run", db, path, f.runs, f.nruns);
	if (rc != EXIT_OK) {
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return rc;
	}
	if (tools && (k = sqlite3_table_column_metadata(db, NULL, "tool_results",
							"tool", NULL, NULL, NULL,
							NULL, NULL)) != SQLITE_OK) {
		/* SQLITE_ERROR: a database older than the tool mode (opened
		 * read-only, not migrated); else its schema cannot be read */
		if (k == SQLITE_ERROR)
			cli_error("no tool results in '%s' (`benchorch run --tools` makes them; this database predates them)",
				  path);
		else
			cli_error("database error in '%s': %s", path,
				  sqlite3_errmsg(db));
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return k == SQLITE_ERROR ? EXIT_FAILED : EXIT_ENV;
	}
	if (tools) {
		n = tools_print(stdout, db, f.runs, f.nruns, f.all, f.distro,
				fmt, &err);
		if (n < 0)
			cli_error("%s in '%s'", err.msg, path);
		else if (n == 0)
			cli_error("no matching tool results in '%s' (`benchorch run --tools` makes them)",
				  path);
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return n < 0 ? EXIT_ENV : n == 0 ? EXIT_FAILED : EXIT_OK;
	}
	rc = check_known(db, path, &f, size_arg);
	if (rc == EXIT_OK && summary) {
		char *def = paths_db(NULL, NULL);

		rc = print_summaries(db, path, &f, strcmp(def, path) ? path : NULL);
		free(def);
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return rc;
	}
	if (rc == EXIT_OK && resources)
		rc = print_resources(db, path, &f, fmt);
	if (rc != EXIT_OK || resources) {
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return rc;
	}
	stats = has_stats(db);
	if (stats < 0 || results_schema(db, &rs, &err) < 0) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return EXIT_ENV;
	}
	latest_sql = db_latest_run_sql(db);
	if (!latest_sql) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		free(f.runs);
		free(path);
		return EXIT_ENV;
	}
	sql = build_sql(fmt == FORMAT_TABLE ? human_cols : machine_cols,
			rs.mode, rs.variant, stats, rs.points_view, latest_sql,
			&f);
	free(latest_sql);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		free(sql);
		free(f.runs);
		free(path);
		return EXIT_ENV;
	}
	free(sql);
	bind_filters(st, &f);
	/* stdout gets the rows only once every query has been read: a
	 * database error leaves it empty */
	mem = open_memstream(&out, &outlen);
	if (!mem) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	if (fmt == FORMAT_TABLE)
		n = print_human(mem, st, &noisy, &err);
	else
		n = format_stmt(mem, st, fmt, &err);
	fclose(mem);
	/* with --all, every failed library of every run would be named */
	if (n > 0 && !f.all && failed_libraries(db, &f, &faults) < 0)
		n = bo_err_set(&err, "database error: %s", sqlite3_errmsg(db));
	if (n == 0 && f.nruns == 1 && no_results_reason(db, f.runs[0], &why) < 0)
		n = bo_err_set(&err, "database error: %s", sqlite3_errmsg(db));
	if (n >= 0)	/* with no row: csv its header, json [] */
		fwrite(out, 1, outlen, stdout);
	if (n < 0) {
		cli_error("%s in '%s'", err.msg, path);
		rc = EXIT_ENV;
	} else if (n == 0) {
		cli_error("no matching results in '%s'%s", path, why ? why : "");
		rc = EXIT_FAILED;
	} else {
		if (noisy > 0)
			cli_warn("%ld of these %ld points are noisy (MB/s marked ~): their"
				 " coefficient of variation, over all their sets, was above"
				 " the guest's limit",
				 noisy, n);
		if (!f.all) {	/* with --all, every partial run would be named */
			warn_partial_runs(db, &f);
			fputs(faults, stderr);
		}
	}
	free(out);
	free(faults);
	free(why);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(f.runs);
	free(path);
	return rc;
}

const struct cmd_entry cmd_results_entry = {
	.name = "results",
	.summary = "print stored measurements (table, csv, json)",
	.usage = usage,
	.flags = 0,
	.fn = cmd_results,
};
