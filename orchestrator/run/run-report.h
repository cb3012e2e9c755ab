/* run-report.h - what a run says once its invocations are stored: the
 * summary on stdout and, on stderr, its noisy measurements, contention
 * canaries, unverified results and cross-check failures. */
#ifndef BENCHORCH_RUN_REPORT_H
#define BENCHORCH_RUN_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "lib/format.h"
#include "lib/util.h"

#include "orchestrator/run/run.h"

/* What the end of run RUN_ID prints on OUT in FMT when it measured no
 * cipher or hash, and `results --summary` for such a run: its public-key
 * and key derivation results (results_pubkey, results_kdf). Table: each
 * kind's table under a heading, followed by its fastest per operation
 * (key derivation: per function and parameters) with the libraries the
 * run's pairs do not tell apart from it (ops_fastest_print: "openssl =
 * libgcrypt"), then a line naming the commands that show them again
 * ("Again: benchorch results --pubkey --run N; ... heat maps: benchorch
 * report ...", with --db for DB_PATH unless it is the default database);
 * csv: the public-key rows, an empty line and the key derivation rows (a
 * kind without rows left out); json: one object {"pubkey": [...],
 * "kdf": [...]}. Prints nothing when the run has neither. Returns the
 * number of rows, or -1 with err set on a database error (nothing
 * printed). */
long run_report_ops(FILE *out, sqlite3 *db, int64_t run_id,
		    enum format fmt, const char *db_path, bo_err *err);

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
