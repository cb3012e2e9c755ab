/* run-report.h - what a run says once its invocations are stored: the
 * summary on stdout and, on stderr, its noisy measurements, contention
 * canaries, unverified results and cross-check failures. */
#ifndef BENCHORCH_RUN_REPORT_H
#define BENCHORCH_RUN_REPORT_H

#include <stdint.h>
#include <sqlite3.h>

#include "orchestrator/run/run.h"

/* Report run RUN_ID of C, read from DB (C->db_path): the summary on
 * stdout (summary_run in C->format, unless C->no_summary; with nothing
 * measured the table prints nothing), then on stderr how many
 * measurements stayed noisy, the curves whose contention canary moved,
 * the results not verified, the libraries that disagree in the
 * cross-check and (unless C->no_summary) one line about its public-key
 * results (results_pubkey_line). Returns EXIT_OK; EXIT_FAILED when the summary could not be
 * printed; EXIT_ENV after saying on stderr (one line: "cannot read WHAT
 * of run N in 'PATH': MESSAGE", the first thing not read) that the
 * database could not be read. */
int run_report_stored(sqlite3 *db, const struct run_config *c,
		      int64_t run_id);

#endif
