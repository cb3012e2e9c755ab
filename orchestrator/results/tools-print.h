/* tools-print.h - print the tool mode's results (`results --tools`, and
 * `run --tools` at its end). */
#ifndef BENCHORCH_TOOLS_PRINT_H
#define BENCHORCH_TOOLS_PRINT_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* Print to F the tool results of the runs RUNS (NRUNS; 0 = the latest
 * finished tool run, db_latest_run, or every run when ALL), FILTER_DISTRO
 * (NULL = all; "debian" or
 * "debian:bookworm") in FMT. FORMAT_TABLE, for people: run, distribution,
 * tool, cipher, direction, variant, package version, status, MB/s (10^6
 * bytes per second of wall time), CPU seconds (user + system), wall
 * seconds, peak RSS in MiB and the samples kept / taken, trimmed means
 * (db/migrations/0010-tools.sql), absent and failed rows with their
 * reason. CSV and JSON: every column of tool_results_v. Returns the row
 * count, or -1 with err set (a database error, or a database without the
 * tool tables). With no matching row the table prints nothing, csv its
 * header line and json [] (a valid document for a script). */
long tools_print(FILE *f, sqlite3 *db, const int64_t *runs, size_t nruns,
		 int all, const char *filter_distro, enum format fmt,
		 bo_err *err);

#endif
