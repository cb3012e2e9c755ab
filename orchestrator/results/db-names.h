/* db-names.h - is a name given on the command line (a distribution, a
 * buffer size) one the database has results for: what results and report
 * check so that a typo is a usage error, not "no matching results". */
#ifndef BENCHORCH_DB_NAMES_H
#define BENCHORCH_DB_NAMES_H

#include <sqlite3.h>
#include <stdint.h>

/* 1 when some result in DB was measured in distribution SPEC (NAME, or
 * NAME:RELEASE), 0 when none was, -1 on a database error. */
int db_names_distro_known(sqlite3 *db, const char *spec);

/* 1 when some result in DB was measured at BYTES bytes per call, 0 when
 * none was, -1 on a database error. */
int db_names_size_known(sqlite3 *db, int64_t bytes);

/* The distributions of DB's results ("debian:bookworm, ubuntu:noble"),
 * or "none". Newly allocated; caller frees. NULL on a database error
 * (the message is sqlite3_errmsg(DB)). */
char *db_names_distros(sqlite3 *db);

/* The buffer sizes of DB's results in binary units ("16 B, 64 B, ...,
 * 1 MiB"), or "none". Newly allocated; caller frees. NULL on a database
 * error (the message is sqlite3_errmsg(DB)). */
char *db_names_sizes(sqlite3 *db);

#endif
