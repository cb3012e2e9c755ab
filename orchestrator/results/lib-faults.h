/* lib-faults.h - the libraries that failed in a stored run: could not be
 * loaded although their file is there, crashed, or hung and were killed,
 * in a guest that otherwise ran to its end. */
#ifndef BENCHORCH_LIB_FAULTS_H
#define BENCHORCH_LIB_FAULTS_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

/* Print one line per failed library of run RUN_ID to OUT:
 * "PREFIXrun N: library 'L' failed in SPEC (round R): WHAT\n", in the
 * order they were stored. A database older than schema 6 lists only the
 * crashes and hangs (it has no 'failed' loads). Returns the number of
 * lines, or -1 when the database cannot be queried or read (the lines
 * before the error are printed). */
long lib_faults_print(FILE *out, sqlite3 *db, int64_t run_id,
		      const char *prefix);

#endif
