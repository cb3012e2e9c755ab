/* report.h - a self-contained HTML report (inline SVG charts, no script,
 * no network) or one chart alone as an SVG file. */
#ifndef BENCHORCH_REPORT_H
#define BENCHORCH_REPORT_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

struct report_opts {
	const int64_t *runs;	/* run ids; NULL/0 = the latest finished
				 * library run (db_latest_run) */
	size_t nruns;
	int64_t table_bytes;	/* size of the distro x library table;
				 * 0 = 16 KiB */
	const char *algorithm;	/* only this algorithm; NULL = all */
};

/* Write the HTML report for the runs in O to F: per algorithm and
 * operation, a chart of throughput (MB/s) against buffer size (log scale,
 * 16 B to 1 MiB) with one line per library x distro (x run when several);
 * a distro x library table at O->table_bytes; per curve the start-up
 * overhead (ns per call) and the per-byte cost (ns/B, and cycles/B) as
 * stored in table curves when the run was stored (cycles/B at the core
 * clock the guest measured), and the key setup time where keysetups_v has
 * it; per guest invocation its measured clocks and noisy points; the
 * public-key and key derivation heat maps (report_write_ops, when the
 * runs have such results); the runs' CPU, kernel, library and package
 * versions. When the runs come
 * from more than one machine (host and CPU model), each curve is one
 * library x distro x machine (x run where a machine has several) and the
 * table has a row per library x distro and a column per machine (its
 * latest run). For runs stored before
 * schema 5 (no curves, no measured clock) the fit is made here with
 * stats_fit_linear and cycles/B use the CPU's nominal clock when its
 * model name states one, marked with '*' and said so on the page.
 * Runs with public-key or key derivation results alone (and no
 * O->algorithm) get those sections without the symmetric ones (no
 * overview, chart or table of throughput).
 * Returns the number of charts (>= 1; 0 for such runs), -1 with err set
 * when the runs have no results, or -2 with err set on a database error
 * (the database cannot be read). */
int report_write_html(sqlite3 *db, const struct report_opts *o, FILE *f,
		      bo_err *err);

/* Write the first chart the HTML report would contain (restricted to
 * O->algorithm when set) to F as a standalone SVG document. Returns 1, or
 * -1 or -2 with err set as report_write_html (-1 also for runs with
 * public-key or key derivation results alone: they have no chart). */
int report_write_svg(sqlite3 *db, const struct report_opts *o, FILE *f,
		     bo_err *err);

#endif
