/* report-data.h - the points a report draws, read from the database
 * once (report-data.c), and the tables drawn from them
 * (report-tables.c). Private to the report: report.c, report-data.c and
 * report-tables.c. */
#ifndef BENCHORCH_REPORT_DATA_H
#define BENCHORCH_REPORT_DATA_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "lib/util.h"
#include "orchestrator/results/report.h"

struct row {
	int64_t run, bytes;
	char *distro, *library, *algorithm, *operation;
	char *cpu;		/* "HOST: CPU MODEL" of the run */
	int nohw;		/* measured with --nohw (variant 'nohw') */
	double mbps, ns_call;
};

/* One curve: consecutive rows [first, first + n). */
struct curve {
	size_t first, n;
	char *label;
	double *x, *y;
};

struct data {
	struct row *rows;
	size_t nrows;
	struct curve *curves;
	size_t ncurves;
	int64_t *runs;
	size_t nruns;
	double ghz;		/* nominal clock of the (first) run's CPU: the
				 * fallback for runs without a measured one */
	const char **cpus;	/* distinct row cpu labels, first seen first
				 * (borrowed from rows) */
	size_t ncpus;
	size_t *cpu_runs;	/* per cpus[i]: how many of the runs */
};

/* Set err to DB's last error and return -2 (the report's return for a
 * database error). */
int report_db_fail(sqlite3 *db, bo_err *err);

/* Read the bulk points of the runs O selects (o->runs, else the latest
 * run; o->algorithm only, when set) from DB into *D, sorted by chart,
 * curve and buffer size (bytes), throughput in MB/s and time per call in
 * ns, with the curves, the machines and the nominal clock (GHz) of the
 * first run's CPU. Runs with public-key or key derivation results alone
 * (ops_runs_count; without o->algorithm) give 0 with no rows. Returns 0;
 * -1 with err set when nothing is selected ("no results ..."); -2 with
 * err set on a database error. *D is filled
 * even on failure: release it with report_data_free. */
int report_data_load(sqlite3 *db, const struct report_opts *o,
		     struct data *d, bo_err *err);

/* Free what *D holds (not D itself). */
void report_data_free(struct data *d);

/* 1 if rows A and B belong to one chart (same algorithm and operation). */
int report_same_chart(const struct row *a, const struct row *b);

/* Write one table cell <td class="CLS">S</td> (CLS NULL: none), S
 * escaped. */
void report_td(FILE *f, const char *cls, const char *s);

/* Write the table of throughput (MB/s) at BYTES per library and
 * distribution for curves [FIRST, END) of D: one machine (pivot), or a
 * column per machine (pivot_cpus). */
void report_write_pivot(FILE *f, const struct data *d, size_t first,
			size_t end, int64_t bytes);
void report_write_pivot_cpus(FILE *f, const struct data *d, size_t first,
			     size_t end, int64_t bytes);

/* Write the table of the fits of curves [FIRST, END) of D: overhead
 * (ns/call), cost per byte (ns/byte, cycles/byte), peak MB/s and key
 * setup (ns/key). Returns 0, or -2 with err set on a database error. */
int report_write_fits(FILE *f, sqlite3 *db, const struct data *d,
		      size_t first, size_t end, bo_err *err);

/* Write the rows of SQL (its first parameter bound to each run of D) as
 * table rows. Returns 0, or -2 with err set on a database error (a
 * query naming what an older schema lacks writes nothing). */
int report_write_rows(FILE *f, sqlite3 *db, const char *sql,
		      const struct data *d, bo_err *err);

#endif
