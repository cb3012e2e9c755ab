/* results-sections.h - the sections `benchorch results` prints instead
 * of points (split from cmd-results.c): public key, key derivation and
 * builds, each from its runs of F, or without --run the latest run that
 * has such results. */
#ifndef BENCHORCH_RESULTS_SECTIONS_H
#define BENCHORCH_RESULTS_SECTIONS_H

#include <sqlite3.h>

#include "lib/format.h"
#include "orchestrator/cli/results-points.h"

/* --pubkey: results_pubkey() of F's runs, distribution, library and
 * algorithm to stdout in FMT; DB is at PATH (for the messages). Returns
 * EXIT_OK, EXIT_FAILED after a message when nothing matched, EXIT_ENV on
 * a database error. */
int results_print_pubkey(sqlite3 *db, const char *path,
			 const struct filters *f, enum format fmt);

/* --kdf: results_kdf() of F's runs, distribution, library and
 * algorithm, as results_print_pubkey. */
int results_print_kdf(sqlite3 *db, const char *path, const struct filters *f,
		      enum format fmt);

/* --builds: results_builds() of F's runs, distribution, library,
 * algorithm, operation and size, as results_print_pubkey. */
int results_print_builds(sqlite3 *db, const char *path,
			 const struct filters *f, enum format fmt);

#endif
