/* report-fmt.c - human units and aligned tables. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/report-fmt.h"

char *fmt_size(int64_t bytes, char *buf, size_t len)
{
	const char *unit = "B";
	double v = (double)bytes;

	if (bytes >= 1024 * 1024) {
		v /= 1024.0 * 1024.0;
		unit = "MiB";
	} else if (bytes >= 1024) {
		v /= 1024.0;
		unit = "KiB";
	}
	if (v == (double)(int64_t)v)
		snprintf(buf, len, "%lld %s", (long long)v, unit);
	else
		snprintf(buf, len, "%.1f %s", v, unit);
	return buf;
}

char *fmt_mbps(double mbps, char *buf, size_t len)
{
	double a = mbps < 0 ? -mbps : mbps;

	if (a < 10)
		snprintf(buf, len, "%.2f", mbps);
	else if (a < 100)
		snprintf(buf, len, "%.1f", mbps);
	else
		snprintf(buf, len, "%.0f", mbps);
	return buf;
}

char *fmt_ops(double ops, char *buf, size_t len)
{
	static const char *const unit[] = { "", "k", "M", "G" };
	char three[32];
	double a = fabs(ops), r;
	size_t u = 0;
	int decimals;

	/* the value rounded to three significant digits decides the unit:
	 * 999.6 is 1.00k, not 1000 */
	for (;;) {
		snprintf(three, sizeof(three), "%.3g", a);
		r = strtod(three, NULL);
		if (r < 1000 || u + 1 >= sizeof(unit) / sizeof(unit[0]))
			break;
		a /= 1000;
		u++;
	}
	decimals = r > 0 ? 2 - (int)floor(log10(r)) : 0;
	if (decimals < 0)
		decimals = 0;
	snprintf(buf, len, "%s%.*f%s", ops < 0 ? "-" : "", decimals, r,
		 unit[u]);
	return buf;
}

/* The one list of the buffer size spellings, for parse_size's message
 * (benchorch(1), BUFFER SIZES, documents the same). */
#define SIZE_SPELLINGS "16384, 16384B, 16K, 16KiB, 1M or 1MiB: K and KiB" \
	" are 1024 bytes, M and MiB 1048576, case as written"

int parse_size(const char *s, int64_t *ret, bo_err *err)
{
	static const struct {
		const char *unit;
		int64_t mult;
	} units[] = {
		{ "", 1 }, { "B", 1 }, { "K", 1024 }, { "KiB", 1024 },
		{ "M", 1024 * 1024 }, { "MiB", 1024 * 1024 },
	};
	char *end;
	long long n;
	int64_t mult = 0;
	size_t i;

	if (!isdigit((unsigned char)*s))
		return bo_err_set(err, "invalid size '%s' (accepted: %s)", s,
				  SIZE_SPELLINGS);
	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno || n <= 0)
		return bo_err_set(err, "invalid size '%s' (accepted: %s)", s,
				  SIZE_SPELLINGS);
	/* one space may separate the unit, as the tables print "16 KiB" */
	if (*end == ' ' && end[1])
		end++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0)
			mult = units[i].mult;
	if (!mult)
		return bo_err_set(err, "invalid size '%s' (accepted: %s)", s,
				  SIZE_SPELLINGS);
	if (n > INT64_MAX / mult)
		return bo_err_set(err, "invalid size '%s': too large", s);
	*ret = (int64_t)n * mult;
	return 0;
}

int results_schema(sqlite3 *db, struct results_schema *ret, bo_err *err)
{
	int mode = db_has_column(db, "results_v", "mode");
	int variant = db_has_column(db, "results_v", "variant");
	int points = db_has_column(db, "points_v", "invocations");
	int build = db_has_column(db, "results_v", "build");

	if (mode < 0 || variant < 0 || points < 0 || build < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	ret->mode = mode ? "mode" : "'bulk'";
	ret->variant = variant ? "variant" : "'hw'";
	ret->points_view = points ? "points_v" : "results_v";
	ret->library_label = build ?
		"(CASE WHEN build = 'shipped' THEN library"
		" ELSE library || '@' || build END)" : "library";
	ret->build = build ? "build" : "'shipped'";
	return 0;
}

char *sql_in_list(const char *column, size_t n)
{
	char *s = xasprintf("%s IN (?", column), *t;
	size_t i;

	for (i = 1; i < n; i++) {
		t = xasprintf("%s, ?", s);
		free(s);
		s = t;
	}
	t = xasprintf("%s)", s);
	free(s);
	return t;
}

void tbl_init(struct tbl *t, size_t ncol, const char *const *headers,
	      const int *right)
{
	size_t i;

	t->ncol = ncol;
	t->nrow = 0;
	t->cells = NULL;
	t->right = xcalloc(ncol, sizeof(*t->right));
	for (i = 0; right && i < ncol; i++)
		t->right[i] = right[i];
	tbl_add(t, headers);
}

void tbl_add(struct tbl *t, const char *const *row)
{
	size_t i;

	t->cells = xrealloc(t->cells, (t->nrow + 1) * t->ncol *
			    sizeof(*t->cells));
	for (i = 0; i < t->ncol; i++)
		t->cells[t->nrow * t->ncol + i] = xstrdup(row[i] ? row[i] : "");
	t->nrow++;
}

/* Display width of UTF-8 string S: bytes that start a character. */
static size_t u8width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

void tbl_print(const struct tbl *t, FILE *f)
{
	size_t *w = xcalloc(t->ncol ? t->ncol : 1, sizeof(*w)), r, c;

	for (r = 0; r < t->nrow; r++)
		for (c = 0; c < t->ncol; c++) {
			size_t n = u8width(t->cells[r * t->ncol + c]);

			if (n > w[c])
				w[c] = n;
		}
	for (r = 0; r < t->nrow; r++)
		for (c = 0; c < t->ncol; c++) {
			const char *s = t->cells[r * t->ncol + c];
			size_t pad = w[c] - u8width(s), k;
			int last = c + 1 == t->ncol;

			if (t->right[c])
				for (k = 0; k < pad; k++)
					fputc(' ', f);
			fputs(s, f);
			if (!t->right[c] && !last)
				for (k = 0; k < pad; k++)
					fputc(' ', f);
			fputs(last ? "\n" : "  ", f);
		}
	free(w);
}

void tbl_free(struct tbl *t)
{
	size_t i;

	for (i = 0; i < t->nrow * t->ncol; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->right);
	t->cells = NULL;
	t->right = NULL;
	t->nrow = 0;
}
