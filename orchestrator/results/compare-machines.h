/* compare-machines.h - several machines side by side: one column per
 * machine (host and CPU) with the MB/s each measured at one buffer size,
 * for runs merged from many hosts (benchorch slurm, merge). */
#ifndef BENCHORCH_COMPARE_MACHINES_H
#define BENCHORCH_COMPARE_MACHINES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* One machine: a host and its CPU, and the run of it shown. */
struct machine {
	char *host, *cpu;	/* cpu: the model name, "unknown CPU" if none */
	int64_t run;		/* its latest selected run */
};

/* One (distro, library, algorithm, operation) with a figure per machine. */
struct machines_row {
	char *distro;		/* "debian:bookworm", " (nohw)" added for a
				 * run with --nohw */
	char *library, *algorithm, *operation;
	double *mbps;		/* per machine, MB/s (10^6 B/s) at the
				 * median; negative = not measured there */
};

struct machines_cmp {
	int64_t bytes;		/* the buffer size compared */
	struct machine *m;	/* in order of their runs' ids */
	size_t nm;
	struct machines_row *rows;	/* by algorithm, operation, library,
					 * distro */
	size_t nrows;
};

/* Put the machines of runs RUNS (NRUNS ids; NULL/0 = the latest run with
 * results of every host and CPU in DB) side by side at buffer size BYTES
 * (bulk mode). Runs of the same host and CPU count once: the latest (the
 * highest id). Returns 0 with *ret filled (compare_machines_free), -2
 * with err set when the runs have no bulk result at BYTES (*ret then holds
 * the machines and their runs, no rows: compare_machines_free), or -1
 * with err set (a run that does not exist, no runs with results, database
 * error; nothing to free). */
int compare_machines(sqlite3 *db, const int64_t *runs, size_t nruns,
		     int64_t bytes, struct machines_cmp *ret, bo_err *err);

/* Print C to F. FORMAT_TABLE: a line per machine ("host: CPU, run N"),
 * then one aligned row per point with a column per host (MB/s, "-" where
 * the machine did not measure it); FORMAT_CSV: header algorithm,
 * operation, library, distro, then "HOST: CPU (run N)" per machine,
 * empty cells where not measured; FORMAT_JSON: {"bytes", "machines":
 * [{"host", "cpu", "run"}], "rows": [{"distro", "library", "algorithm",
 * "operation", "mb_per_s": [number or null per machine]}]}. */
void compare_machines_print(FILE *f, const struct machines_cmp *c,
			    enum format fmt);

/* Free what compare_machines filled in C (not C itself) and zero it. */
void compare_machines_free(struct machines_cmp *c);

#endif
