/* report-fmt.h - human units (16 B, 1 KiB, 1 MiB; MB/s) and a small
 * aligned-table printer shared by results, compare and report. */
#ifndef BENCHORCH_REPORT_FMT_H
#define BENCHORCH_REPORT_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>
#include <stdio.h>

#include "lib/util.h"

/* Format BYTES as "16 B", "1 KiB", "1.5 KiB", "1 MiB" (binary prefixes,
 * at most one decimal, none when exact) into BUF of LEN bytes. Returns
 * BUF. */
char *fmt_size(int64_t bytes, char *buf, size_t len);

/* Format a throughput in MB/s (10^6 B/s) with three significant digits
 * and at most two decimals: 0.123, 1.23, 12.3, 1234. Returns BUF. */
char *fmt_mbps(double mbps, char *buf, size_t len);

/* Format a rate in operations per second with three significant digits,
 * in k (10^3), M (10^6) or G (10^9) past 999: 0.812, 8.12, 81.2, 812,
 * 1.00k, 45.6k, 1.23M. Into BUF of LEN bytes; returns BUF. */
char *fmt_ops(double ops, char *buf, size_t len);

/* Parse a buffer size S: a positive integer of bytes, optionally
 * followed (after at most one space) by exactly B, K, KiB, M or MiB (K
 * and KiB 1024, M and MiB 1048576; case as written: "16KB", "16kib" and
 * "16k" are refused, KB being ambiguous): "16384", "16K", "16 KiB",
 * "1MiB". Stores the bytes in *ret. Returns 0, or -1 with err set
 * ("invalid size 'x' (accepted: ...)", naming every accepted spelling). */
int parse_size(const char *s, int64_t *ret, bo_err *err);

/* What DB's schema offers the readers of results (static strings): */
struct results_schema {
	/* SQL expressions for results_v's mode and variant columns
	 * (schema 2): the column names when DB's results_v has them, else
	 * the constants 'bulk' and 'hw' (a schema-1 database opened
	 * read-only) */
	const char *mode, *variant;
	/* the view that has one row per point of a run: "points_v" (schema
	 * 13: a point measured by several invocations of one run folded
	 * into one row, its median the median of the invocations'
	 * medians; the columns of results_v and more), or "results_v" on
	 * an older database opened read-only, whose runs measured every
	 * point once */
	const char *points_view;
	/* SQL expressions for what a reader shows as the library, and the
	 * build (schema 20, run --builds): "LIBRARY@NAME" for a build's
	 * rows, the library's name for the shipped one; build the column
	 * (or 'shipped' on an older database) */
	const char *library_label, *build;
};

/* Fill *RET for DB. Returns 0, or -1 with err set ("database error:
 * ...") when the schema cannot be read (a column an older schema lacks
 * is no error: db_has_column). */
int results_schema(sqlite3 *db, struct results_schema *ret, bo_err *err);

/* "COLUMN IN (?, ?, ...)" with N (>= 1) placeholders, for a list of run
 * ids bound one by one. Newly allocated; caller frees. */
char *sql_in_list(const char *column, size_t n);

/* An aligned text table. Cells are copied. */
struct tbl {
	size_t ncol, nrow;
	char **cells;		/* nrow * ncol, row 0 = header */
	int *right;		/* per column: right-aligned */
};

/* Start a table with NCOL columns whose headers are the NCOL strings in
 * HEADERS; RIGHT (may be NULL) says which columns are right-aligned.
 * Release with tbl_free. */
void tbl_init(struct tbl *t, size_t ncol, const char *const *headers,
	      const int *right);

/* Append a row of t->ncol strings (NULL prints as empty). */
void tbl_add(struct tbl *t, const char *const *row);

/* Print T to F: columns separated by two spaces, padded to the widest
 * cell (counting UTF-8 characters, not bytes). */
void tbl_print(const struct tbl *t, FILE *f);

/* Release the cells of T (t itself is not freed). */
void tbl_free(struct tbl *t);

#endif
