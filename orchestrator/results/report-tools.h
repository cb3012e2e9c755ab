/* report-tools.h - the report's section on the distributions' own
 * command-line tools (run --tools). */
#ifndef BENCHORCH_REPORT_TOOLS_H
#define BENCHORCH_REPORT_TOOLS_H

#include <sqlite3.h>
#include <stdio.h>

#include "lib/util.h"

/* Write to F an HTML section "Command-line tools" with the tool results
 * of the latest finished tool run in DB (latest_runs_v, tool_results_v):
 * per distribution, tool,
 * cipher and variant the package version and MB/s (10^6 bytes per second
 * of wall time), CPU milliseconds (user + system) and peak RSS in MiB,
 * encrypting and decrypting (trimmed means), and the tools found absent.
 * Writes nothing when DB has no tool results (or no such tables).
 * Returns the number of rows written, or -1 with err set when the rows
 * cannot be read (the section is then incomplete). */
long report_write_tools(FILE *f, sqlite3 *db, bo_err *err);

#endif
