/* format.h - print query results as an aligned table, CSV or JSON. */
#ifndef BENCHORCH_FORMAT_H
#define BENCHORCH_FORMAT_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>

#include "lib/util.h"

enum format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* jansson dump flag for every JSON document benchorch prints: REAL values
 * with up to 15 significant digits (DBL_DIG, the digits a double keeps
 * exactly), as in CSV, so 0.03 prints as 0.03 rather than as the 17-digit
 * 0.029999999999999999 of the nearest double. */
#define FORMAT_JSON_REAL JSON_REAL_PRECISION(15)

/* Parse "table", "csv" or "json". Returns 0, or -1 with err set. */
int format_parse(const char *s, enum format *ret, bo_err *err);

/* Print S to F as one RFC 4180 CSV field: as it is, or in double quotes
 * (quotes doubled) when it holds a comma, a quote or a line break. */
void format_csv_field(FILE *f, const char *s);

/* Step the prepared statement ST to the end and print every row to F:
 * FORMAT_TABLE: a header of column names and columns aligned with spaces
 * (REAL values with one decimal); FORMAT_CSV: RFC 4180, header line first,
 * REAL values with up to 15 significant digits;
 * FORMAT_JSON: one array of objects, keys = column names, SQL types kept
 * (REAL values with up to 15 significant digits).
 * Nothing is printed to F until the last row is read: on a database
 * error F gets nothing (no header either). Returns the number of rows,
 * or -1 with err set on a database error. */
long format_stmt(FILE *f, sqlite3_stmt *st, enum format fmt, bo_err *err);

#endif
