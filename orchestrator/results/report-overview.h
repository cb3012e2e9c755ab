/* report-overview.h - the overview the HTML report opens with. */
#ifndef BENCHORCH_REPORT_OVERVIEW_H
#define BENCHORCH_REPORT_OVERVIEW_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

/* The hue (HSL degrees, 0 red to 120 green) of a heat map cell whose
 * throughput is RATIO (0..1) of the fastest library's: round(120 x
 * RATIO), clamped to 0..120. */
int report_overview_hue(double ratio);

/* Write to F the heat maps' colour legend: a <p class="legend"> of five
 * cells coloured as a heat map cell at 0, 25, 50, 75 and 100 % of the
 * fastest. */
void report_write_heat_legend(FILE *f);

/* Write to F, for the NRUNS runs in RUNS (fastest_load; only algorithm
 * ALGO when not NULL), a <section id="overview">: per (run,
 * distribution) a table.heatmap of algorithm x library with each cell's
 * MB/s (10^6 B/s) at 16 KiB, coloured hsl(report_overview_hue(ratio),
 * 70%, 72%) where ratio is its MB/s over the fastest library's for that
 * algorithm there (data-mbps, data-ratio; the title names the version,
 * the percentage and the cycles per byte); a table.fastest per
 * distribution and algorithm (fastest at 16 KiB with MB/s and cycles per
 * byte, runner-up and slowest as a fraction, fastest at 16 B); with two
 * distributions or more in a run, a table.across per library (its
 * versions, the median and largest spread between distributions).
 * Returns 1, 0 when the runs have no bulk results at 16 B or 16 KiB
 * (nothing written), or -1 with err set. */
int report_write_overview(FILE *f, sqlite3 *db, const int64_t *runs,
			  size_t nruns, const char *algo, bo_err *err);

#endif
