/* format.c - print a query as table, CSV or JSON. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format.h"

int format_parse(const char *s, enum format *ret, bo_err *err)
{
	if (strcmp(s, "table") == 0)
		*ret = FORMAT_TABLE;
	else if (strcmp(s, "csv") == 0)
		*ret = FORMAT_CSV;
	else if (strcmp(s, "json") == 0)
		*ret = FORMAT_JSON;
	else
		return bo_err_set(err, "unknown format '%s' (known: table, csv, json)",
				  s);
	return 0;
}

/* Text of column I of the current row, as printed in table output (REAL
 * with one decimal) or, with EXACT, in CSV (REAL with up to 15
 * significant digits, so that a small value such as a coefficient of
 * variation keeps its digits). Caller frees. */
static char *cell_text(sqlite3_stmt *st, int i, int exact)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return xstrdup("");
	case SQLITE_FLOAT:
		return xasprintf(exact ? "%.15g" : "%.1f",
				 sqlite3_column_double(st, i));
	default:
		return xstrdup((const char *)sqlite3_column_text(st, i));
	}
}

void format_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

/* Print S padded to WIDTH (right-aligned if RIGHT), then a separator or,
 * for the LAST column, a newline. */
static void put_cell(FILE *f, const char *s, size_t width, int right,
		     int last)
{
	if (right)
		fprintf(f, "%*s", (int)width, s);
	else if (last)
		fputs(s, f);
	else
		fprintf(f, "%-*s", (int)width, s);
	fputs(last ? "\n" : "  ", f);
}

static json_t *cell_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return json_null();
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	default:
		return json_string((const char *)sqlite3_column_text(st, i));
	}
}

long format_stmt(FILE *f, sqlite3_stmt *st, enum format fmt, bo_err *err)
{
	int ncol = sqlite3_column_count(st), i, rc;
	char **cells = NULL;	/* table: all rows buffered to align */
	size_t *width = xcalloc((size_t)ncol + 1, sizeof(*width));
	/* table: right-align columns whose first row is a number */
	int *numeric = xcalloc((size_t)ncol + 1, sizeof(*numeric));
	json_t *arr = fmt == FORMAT_JSON ? json_array() : NULL;
	long nrows = 0, r;
	/* csv: the lines are kept until the last row is read, so that a
	 * query that fails midway prints nothing (the header neither) */
	char *csv = NULL;
	size_t csv_len = 0;
	FILE *out = fmt == FORMAT_CSV ? open_memstream(&csv, &csv_len) : f;

	if (!out) {
		free(numeric);
		free(width);
		return bo_err_set(err, "out of memory");
	}
	if (fmt == FORMAT_CSV) {
		for (i = 0; i < ncol; i++) {
			if (i)
				fputc(',', out);
			format_csv_field(out, sqlite3_column_name(st, i));
		}
		fputs("\r\n", out);
	}
	for (i = 0; i < ncol; i++)
		width[i] = strlen(sqlite3_column_name(st, i));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fmt == FORMAT_JSON) {
			json_t *o = json_object();

			for (i = 0; i < ncol; i++)
				json_object_set_new(o, sqlite3_column_name(st, i),
						    cell_json(st, i));
			json_array_append_new(arr, o);
		} else if (fmt == FORMAT_CSV) {
			for (i = 0; i < ncol; i++) {
				char *c = cell_text(st, i, 1);

				if (i)
					fputc(',', out);
				format_csv_field(out, c);
				free(c);
			}
			fputs("\r\n", out);
		} else {
			if (nrows == 0)
				for (i = 0; i < ncol; i++)
					numeric[i] = sqlite3_column_type(st, i) ==
						     SQLITE_INTEGER ||
						     sqlite3_column_type(st, i) ==
						     SQLITE_FLOAT;
			cells = xrealloc(cells, (size_t)(nrows + 1) *
					 (size_t)ncol * sizeof(*cells));
			for (i = 0; i < ncol; i++) {
				char *c = cell_text(st, i, 0);

				if (strlen(c) > width[i])
					width[i] = strlen(c);
				cells[nrows * ncol + i] = c;
			}
		}
		nrows++;
	}
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "database error: %s",
			   sqlite3_errmsg(sqlite3_db_handle(st)));
		nrows = -1;
	} else if (fmt == FORMAT_JSON) {
		char *s = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					     FORMAT_JSON_REAL);

		fprintf(f, "%s\n", s);
		free(s);
	} else if (fmt == FORMAT_TABLE) {
		for (i = 0; i < ncol; i++)
			put_cell(f, sqlite3_column_name(st, i), width[i],
				 numeric[i], i + 1 == ncol);
		for (r = 0; r < nrows; r++)
			for (i = 0; i < ncol; i++) {
				const char *c = cells[r * ncol + i];

				put_cell(f, c, width[i], numeric[i],
					 i + 1 == ncol);
			}
	}
	if (fmt == FORMAT_CSV) {
		fclose(out);
		if (nrows >= 0)
			fwrite(csv, 1, csv_len, f);
		free(csv);
	}
	if (cells) {
		for (r = 0; r < nrows * ncol; r++)
			free(cells[r]);
		free(cells);
	}
	json_decref(arr);
	free(numeric);
	free(width);
	return nrows;
}
