/* report-resources.h - the report's table of what each library's process
 * cost besides time (migration 9's resources_v). */
#ifndef BENCHORCH_REPORT_RESOURCES_H
#define BENCHORCH_REPORT_RESOURCES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

/* Write to F a <section id="resources"> with one row per run,
 * distribution, variant and library of the NRUNS runs in RUNS: CPU time
 * (user + system, summed over the run's invocations, s), the largest peak
 * resident set (MiB), the footprint after loading (the largest, MiB) and
 * the algorithm that raised the peak most. Writes nothing when none of
 * the runs has resource figures (or the schema predates them). Returns
 * the number of rows written, or -1 with err set on a database error
 * (the section is then incomplete). */
long report_write_resources(FILE *f, sqlite3 *db, const int64_t *runs,
			    size_t nruns, bo_err *err);

#endif
