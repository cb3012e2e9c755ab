/* report.c - the HTML report: charts, tables, versions. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/lib-faults.h"
#include "orchestrator/results/report-colours.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/report-overview.h"
#include "orchestrator/results/report-tools.h"
#include "orchestrator/results/report-builds.h"
#include "orchestrator/results/report-ops.h"
#include "orchestrator/results/report-resources.h"
#include "orchestrator/results/report-data.h"
#include "orchestrator/results/report.h"
#include "orchestrator/results/runstate.h"
#include "lib/stats.h"
#include "orchestrator/results/svg.h"

#define XMIN 16.0
#define XMAX 1048576.0

/* Curves [*first, *end) of the chart starting at curve *first. */
static void chart_range(const struct data *d, size_t first, size_t *end)
{
	size_t i = first + 1;

	while (i < d->ncurves &&
	       report_same_chart(&d->rows[d->curves[first].first],
			  &d->rows[d->curves[i].first]))
		i++;
	*end = i;
}

static void write_chart(FILE *f, const struct data *d, size_t first,
			size_t end, int standalone)
{
	struct svg_series *s = xcalloc(end - first, sizeof(*s));
	const struct row *r = &d->rows[d->curves[first].first];
	char *title = xasprintf("%s %s", r->algorithm, r->operation);
	char *id = xasprintf("chart-%s-%s", r->algorithm, r->operation);
	struct svg_chart c = { .id = id, .title = title,
			       .xlabel = "buffer size (log scale)",
			       .ylabel = "throughput (MB/s, 10^6 B/s)",
			       .xmin = XMIN, .xmax = XMAX,
			       .nseries = end - first, .series = s };
	size_t i, k, same;

	/* a library's colour is its own (report-colours.c); its other
	 * lines in this chart (distributions, runs, machines) get dashes */
	for (i = first; i < end; i++) {
		const char *lib = d->rows[d->curves[i].first].library;

		for (k = first, same = 0; k < i; k++)
			same += strcmp(d->rows[d->curves[k].first].library,
				       lib) == 0;
		s[i - first] = (struct svg_series){ d->curves[i].label,
						    d->curves[i].n,
						    d->curves[i].x,
						    d->curves[i].y,
						    report_library_colour(lib),
						    report_library_dash(same) };
	}
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	svg_chart_write(f, &c);
	free(s);
	free(title);
	free(id);
}

int report_write_svg(sqlite3 *db, const struct report_opts *o, FILE *f,
		     bo_err *err)
{
	struct data d;
	size_t end;
	int rc = report_data_load(db, o, &d, err);

	if (rc < 0) {
		report_data_free(&d);
		return rc;
	}
	if (!d.ncurves) {
		report_data_free(&d);
		return bo_err_set(err, "no chart: the runs have public-key or key derivation results alone (write .html for their heat maps)");
	}
	chart_range(&d, 0, &end);
	write_chart(f, &d, 0, end, 1);
	report_data_free(&d);
	return 1;
}


/* How many of the selected runs have an invocation with a measured clock
 * (schema 5); 0 on an older schema, -1 on a database error. */
static long runs_with_clock(sqlite3 *db, const struct data *d)
{
	sqlite3_stmt *st;
	long n = 0;
	size_t i;
	int k = db_prepare_optional(db, "SELECT count(*) FROM invocations WHERE"
				    " run_id = ?1 AND clock_start_hz IS NOT NULL",
				    &st);

	if (k <= 0)
		return k;
	for (i = 0; i < d->nruns && n >= 0; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[i]);
		if (sqlite3_step(st) != SQLITE_ROW)
			n = -1;
		else if (sqlite3_column_int64(st, 0) > 0)
			n++;
	}
	sqlite3_finalize(st);
	return n;
}

/* The Runs table's rows: the runs' identity (SQL, as write_rows), then
 * the seed and rounds, the CPU state of the guests' CPU and its
 * warnings (runstate.h; "not recorded" for runs without). Returns 0, or
 * -2 with err set on a database error. */
static int write_runs(FILE *f, sqlite3 *db, const struct data *d,
		      bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int k, rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT r.id, r.uuid, r.host, r.started_at,"
			       " r.status, CASE r.quick WHEN 1 THEN 'yes' ELSE"
			       " 'no' END, coalesce(c.model_name, ''),"
			       " coalesce(c.microcode, ''), r.kernel FROM runs r"
			       " LEFT JOIN cpus c ON c.id = r.cpu_id WHERE"
			       " r.id = ?1", -1, &st, NULL) != SQLITE_OK)
		return report_db_fail(db, err);
	for (i = 0; i < d->nruns; i++) {
		struct run_state rs;
		char *cpu, *order;

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[i]);
		k = sqlite3_step(st);
		if (k == SQLITE_DONE)
			continue;
		if (k != SQLITE_ROW) {
			rc = report_db_fail(db, err);
			break;
		}
		if (run_state_read(db, d->runs[i], &rs, err) < 0) {
			rc = -2;
			break;
		}
		fputs("<tr>", f);
		for (k = 0; k < sqlite3_column_count(st); k++) {
			const unsigned char *t = sqlite3_column_text(st, k);

			report_td(f, NULL, t ? (const char *)t : "");
		}
		order = rs.seeded ? xasprintf("seed %llu, %zu round%s",
					      (unsigned long long)rs.seed,
					      rs.rounds, rs.rounds == 1 ? "" : "s") :
				    xstrdup("not recorded");
		cpu = run_state_cpu(&rs);
		report_td(f, NULL, order);
		report_td(f, NULL, cpu);
		report_td(f, rs.warnings ? "warn" : NULL, rs.warnings ? rs.warnings : "none");
		fputs("</tr>\n", f);
		free(order);
		free(cpu);
		run_state_release(&rs);
	}
	sqlite3_finalize(st);
	return rc;
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:72em}"
	"table{border-collapse:collapse;margin:.6em 0 1.2em}"
	"td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"td.warn{color:#a00;white-space:pre-line}"
	"caption{text-align:left;font-weight:bold;padding:.3em 0}"
	"section{margin-bottom:2em}"
	"svg{max-width:100%;height:auto}"
	".heatmaps{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
	"table.heatmap td.num{min-width:4em}"
	"table.heatmap th{font-weight:normal}"
	"td.unverified{font-style:italic;text-decoration:underline dotted}"
	".legend span{padding:.1em .6em}"
	".libcolour{margin-left:.8em;white-space:nowrap}"
	".swatch{display:inline-block;width:1.6em;height:.35em;"
	"vertical-align:middle}";

/* The libraries that failed (could not be loaded, crashed, hung) in the
 * runs of D, one list item each (lib-faults.c); nothing when none did.
 * Returns 0, or -2 with err set on a database error. */
static int write_lib_faults(FILE *f, sqlite3 *db, const struct data *d,
			    bo_err *err)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);
	long n = 0;

	if (!m)
		return 0;
	for (i = 0; i < d->nruns && n >= 0; i++) {
		long k = lib_faults_print(m, db, d->runs[i], "");

		n = k < 0 ? -1 : n + k;
	}
	fclose(m);
	if (n < 0) {
		free(buf);
		return report_db_fail(db, err);
	}
	if (n > 0) {
		fputs("<p class=\"faults\">Libraries that failed: no results from"
		      " them in that invocation; the other libraries' are"
		      " kept.</p>\n<ul class=\"faults\">\n", f);
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			fputs("<li>", f);
			svg_escape(f, line);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	free(buf);
	return 0;
}

/* The page's head, style and first paragraph (generated now, tables at
 * BYTES). */
static void write_head(FILE *f, int64_t bytes)
{
	char now[32], sz[32];

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>benchorch report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>benchorch report</h1>\n<p>Generated %s by benchorch %s. Throughput"
		" in MB/s (10<sup>6</sup> bytes per second) at the median of the"
		" repetitions, bulk mode (one keyed context reused), hardware"
		" acceleration as the library chose it; buffer sizes in binary"
		" units. Tables at %s.</p>\n",
		style, bo_utc_now(now, sizeof(now)), PACKAGE_VERSION,
		fmt_size(bytes, sz, sizeof(sz)));
}

/* The clocks table of D's invocations that measured one (NCLOCK runs
 * of D), and the paragraph on cycles per byte. Returns 0, or -2 with err
 * set. */
static int write_clocks(FILE *f, sqlite3 *db, const struct data *d,
			long nclock, bo_err *err)
{
	if (nclock > 0) {
		fputs("<table class=\"clocks\"><caption>Per guest invocation: the core"
		      " clock the guest measured on its CPU at start and end, the"
		      " invariant TSC's rate, the time from hello to done by the"
		      " guest's clock and by the host's, and the noisy points:"
		      " their spread (interquartile range over median) above 3"
		      " times the invocation's typical one"
		      "</caption>\n<tr><th>run</th><th>distro</th><th>clock at start"
		      " (GHz)</th><th>clock at end (GHz)</th><th>TSC (GHz)</th>"
		      "<th>guest (s)</th><th>host (s)</th><th>noisy points</th></tr>\n",
		      f);
		if (report_write_rows(f, db, "SELECT inv.run_id, coalesce(im.distro || ':' ||"
			   " im.release, inv.spec), printf('%.3f', inv.clock_start_hz / 1e9),"
			   " printf('%.3f', inv.clock_end_hz / 1e9), CASE WHEN inv.tsc_hz"
			   " IS NULL THEN 'none' ELSE printf('%.3f', inv.tsc_hz / 1e9) END,"
			   " printf('%.3f', inv.guest_elapsed_ns / 1e9), CASE WHEN"
			   " inv.host_elapsed_ns IS NULL THEN '' ELSE printf('%.3f',"
			   " inv.host_elapsed_ns / 1e9) END,"
			   " (SELECT count(*) FROM results r WHERE r.invocation_id = inv.id"
			   "  AND r.noisy = 1) || ' of ' || (SELECT count(*) FROM results r"
			   "  WHERE r.invocation_id = inv.id)"
			   " FROM invocations inv LEFT JOIN images im ON im.id = inv.image_id"
			   " WHERE inv.run_id = ?1 AND inv.clock_start_hz IS NOT NULL"
			   " ORDER BY 2", d, err) < 0)
			return -2;
		fputs("</table>\n", f);
		fputs("<p>Cycles per byte: slope cyc/B is the fitted cost per byte,"
		      " cyc/B@16K the time per byte of the 16 KiB point, each times"
		      " the core clock the guest measured on its CPU (the mean of its"
		      " start and end measurements above).", f);
	} else {
		fputs("<p>Cycles per byte (slope cyc/B: the fitted cost per byte;"
		      " cyc/B@16K: the 16 KiB point):", f);
	}
	if (nclock < (long)d->nruns && d->ghz > 0)
		fprintf(f, " %s runs stored before the guest measured its clock"
			" use the nominal clock stated in the CPU model name"
			" (%.2f GHz) instead, marked *; turbo and power states make"
			" the real clock differ from it.</p>\n",
			nclock > 0 ? "The" : "these", d->ghz);
	else if (nclock < (long)d->nruns)
		fprintf(f, " %s runs stored before the guest measured its clock"
			" have none, and the CPU model name states no clock either:"
			" not shown for them.</p>\n", nclock > 0 ? "The" : "these");
	else
		fputs("</p>\n", f);
	return 0;
}

/* The Runs section of D: the runs, the failed libraries, the CPU state
 * and the clocks. Returns 0, or -2 with err set. */
static int write_runs_section(FILE *f, sqlite3 *db, const struct data *d,
			      bo_err *err)
{
	long nclock;

	fputs("<section id=\"runs\"><h2>Runs</h2>\n<table><tr><th>run</th><th>uuid</th>"
	      "<th>host</th><th>started</th><th>status</th><th>quick</th><th>CPU</th>"
	      "<th>microcode</th><th>kernel</th><th>order</th><th>CPU state</th>"
	      "<th>CPU warnings</th></tr>\n", f);
	if (write_runs(f, db, d, err) < 0)
		return -2;
	fputs("</table>\n", f);
	if (write_lib_faults(f, db, d, err) < 0)
		return -2;
	fputs("<p>CPU state: the cpufreq scaling governor, turbo/boost and scaling"
	      " frequency (before -&gt; after the run) of the CPU the guests were"
	      " pinned to, and the hypervisor; unknown where the kernel does not"
	      " show it. The order (rounds, distributions, libraries and"
	      " algorithms) was drawn from the seed.</p>\n", f);
	nclock = runs_with_clock(db, d);
	if (nclock < 0)
		return report_db_fail(db, err);
	if (write_clocks(f, db, d, nclock, err) < 0)
		return -2;
	fputs("</section>\n", f);
	return 0;
}

/* A section per chart of D: its chart, its table at BYTES and its fits.
 * Returns the number of charts, or -2 with err set. */
static long write_charts(FILE *f, sqlite3 *db, const struct data *d,
			 int64_t bytes, bo_err *err)
{
	size_t i, end;
	long ncharts = 0;
	const char **libs = xcalloc(d->ncurves ? d->ncurves : 1, sizeof(*libs));

	for (i = 0; i < d->ncurves; i++)
		libs[i] = d->rows[d->curves[i].first].library;
	if (d->ncurves)
		report_write_colour_legend(f, libs, d->ncurves);
	free(libs);
	for (i = 0; i < d->ncurves; i = end) {
		const struct row *r = &d->rows[d->curves[i].first];

		chart_range(d, i, &end);
		fputs("<section class=\"algo\" data-algorithm=\"", f);
		svg_escape(f, r->algorithm);
		fputs("\" data-operation=\"", f);
		svg_escape(f, r->operation);
		fputs("\">\n<h2>", f);
		svg_escape(f, r->algorithm);
		fputc(' ', f);
		svg_escape(f, r->operation);
		fputs("</h2>\n", f);
		write_chart(f, d, i, end, 0);
		if (d->ncpus > 1)
			report_write_pivot_cpus(f, d, i, end, bytes);
		else
			report_write_pivot(f, d, i, end, bytes);
		if (report_write_fits(f, db, d, i, end, err) < 0)
			return -2;
		fputs("</section>\n", f);
		ncharts++;
	}
	return ncharts;
}

/* The libraries' and packages' versions of D's runs. Returns 0, or -2
 * with err set. */
static int write_versions(FILE *f, sqlite3 *db, const struct data *d,
			  bo_err *err)
{
	fputs("<section id=\"versions\"><h2>Libraries and packages</h2>\n<table>"
	      "<tr><th>run</th><th>distro</th><th>image</th><th>library</th>"
	      "<th>version</th><th>path</th><th>package</th><th>package version</th>"
	      "</tr>\n", f);
	if (report_write_rows(f, db, "SELECT DISTINCT run_id, distro || coalesce(':' || release, ''),"
			      " substr(image_digest, 1, 19), library, library_version, library_path,"
			      " package, package_version FROM results_v WHERE run_id = ?1"
			      " ORDER BY 2, 4", d, err) < 0)
		return -2;
	fputs("</table>\n</section>\n", f);
	return 0;
}

int report_write_html(sqlite3 *db, const struct report_opts *o, FILE *f,
		      bo_err *err)
{
	struct data d;
	int64_t bytes = o->table_bytes ? o->table_bytes : 16384;
	long ncharts = -2;
	int rc = report_data_load(db, o, &d, err);

	if (rc < 0) {
		report_data_free(&d);
		return rc;
	}
	write_head(f, bytes);
	if (report_write_overview(f, db, d.runs, d.nruns, o->algorithm,
				  err) < 0 ||
	    write_runs_section(f, db, &d, err) < 0)
		goto out;
	ncharts = write_charts(f, db, &d, bytes, err);
	if (ncharts < 0)
		goto out;
	if (report_write_tools(f, db, err) < 0 ||
	    report_write_ops(f, db, OPS_PUBKEY, d.runs, d.nruns, err) < 0 ||
	    report_write_ops(f, db, OPS_KDF, d.runs, d.nruns, err) < 0 ||
	    report_write_resources(f, db, d.runs, d.nruns, err) < 0 ||
	    report_write_builds(f, db, d.runs, d.nruns, bytes, err) < 0 ||
	    write_versions(f, db, &d, err) < 0) {
		ncharts = -2;
		goto out;
	}
	fputs("</body>\n</html>\n", f);
out:
	report_data_free(&d);
	return (int)ncharts;
}
