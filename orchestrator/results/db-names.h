/* db-names.h - is a name given on the command line (a distribution, a
 * buffer size) one the runs asked for have results for: what results,
 * report and compare --machines check so that a typo, or a size the run
 * did not measure, is a usage error naming what the run has, not "no
 * matching results". */
#ifndef BENCHORCH_DB_NAMES_H
#define BENCHORCH_DB_NAMES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* Every function below looks at the results of the NRUNS runs RUNS of DB
 * (ids; NRUNS 0: every run of DB, RUNS may then be NULL). RUNS is only
 * read. */

/* 1 when some result of the runs was measured in distribution SPEC
 * (NAME, or NAME:RELEASE), 0 when none was, -1 on a database error. */
int db_names_distro_known(sqlite3 *db, const int64_t *runs, size_t nruns,
			  const char *spec);

/* 1 when some result of the runs was measured at BYTES bytes per call, 0
 * when none was, -1 on a database error. */
int db_names_size_known(sqlite3 *db, const int64_t *runs, size_t nruns,
			int64_t bytes);

/* The distributions of the runs' results ("debian:bookworm,
 * ubuntu:noble"), or "none". Newly allocated; caller frees. NULL on a
 * database error (the message is sqlite3_errmsg(DB)). */
char *db_names_distros(sqlite3 *db, const int64_t *runs, size_t nruns);

/* The buffer sizes of the runs' results in binary units ("16 B, 64 B,
 * ..., 1 MiB"), or "none". Newly allocated; caller frees. NULL on a
 * database error (the message is sqlite3_errmsg(DB)). */
char *db_names_sizes(sqlite3 *db, const int64_t *runs, size_t nruns);

/* Where the names were looked for, for a message: "run 5 of 'PATH'",
 * "runs 4, 5 of 'PATH'", or "'PATH'" when NRUNS is 0. Newly allocated;
 * caller frees. Never fails (allocation failure aborts). */
char *db_names_scope(const int64_t *runs, size_t nruns, const char *path);

#endif
