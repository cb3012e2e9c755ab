/* summary-fastest.c - the end-of-run answer: per distribution and
 * algorithm the fastest library at 16 KiB and 16 B, the runner-up and the
 * slowest relative to it, and how far each library moves between
 * distributions. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/fastest.h"
#include "lib/judge.h"
#include "lib/paths.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/summary.h"

/* Lines of text wrapped at this many columns (the versions of a
 * distribution's libraries); the table's rows are at most TABLE_WIDTH
 * columns: its other cells take at most 92 with the longest library
 * (libtomcrypt) and algorithm (chacha20-poly1305) names the guest knows,
 * and the fastest's cell names as many libraries tied with it as fit in
 * the rest ("a = b +2" for two more). The headers say where each
 * figure was taken: cyc/B@16K is the 16 KiB point's cycles per byte, not
 * the curve's fitted slope (results' "slope cyc/B"). */
#define WRAP 100
#define TABLE_WIDTH 120

enum { C_ALGO, C_FAST, C_MBPS, C_CPB, C_SECOND, C_SLOW, C_SFAST, C_SMBPS,
       NCOLS };

static const char *const heads[NCOLS] = {
	"algorithm", "fastest@16K", "MB/s", "cyc/B@16K", "runner-up",
	"slowest", "fastest@16B", "MB/s",
};
static const int right[NCOLS] = { 0, 0, 1, 1, 0, 0, 0, 1 };

struct line {
	char *cell[NCOLS];
};

/* "3968" followed by the marks of the point: '~' noisy, '!' unverified.
 * Newly allocated. */
static char *mbps_cell(double v, int noisy, int unverified, int *marks)
{
	char buf[32];

	if (v < 0)
		return xstrdup("-");
	if (noisy)
		*marks |= 1;
	if (unverified)
		*marks |= 2;
	return xasprintf("%s%s%s", fmt_mbps(v, buf, sizeof(buf)),
			 noisy ? "~" : "", unverified ? "!" : "");
}

/* "libgcrypt x0.50" for library L against the fastest's MB/s TOP, with
 * '=' when its pairs tie it with the fastest. */
static char *ratio_cell(const struct fastest_lib *l, double top, int *marks)
{
	if (!l || l->large_mbps <= 0 || top <= 0)
		return xstrdup("-");
	if (l->large_noisy)
		*marks |= 1;
	if (l->large_unverified)
		*marks |= 2;
	return xasprintf("%s x%.2f%s%s%s", l->library, l->large_mbps / top,
			 l->large_noisy ? "~" : "", l->large_unverified ? "!" : "",
			 l->large_tie ? "=" : "");
}

/* The fastest library of G and those its pairs do not tell apart from
 * it: "libgcrypt = gnutls" (at most three names, and no more than fit in
 * MAXLEN bytes: the rest counted, "a = b +2"); sets mark 8 when there
 * are any tied, 32 when some are only counted. Newly allocated. */
static char *fastest_cell(const struct fastest_group *g,
			  const struct fastest_lib *top, size_t maxlen,
			  int *marks)
{
	const char *tied[3];
	size_t i, ntied = 0, more = 0, k;

	if (!top)
		return xstrdup("-");
	for (i = 1; i < g->nlibs; i++) {
		if (!g->libs[i].large_tie)
			continue;
		*marks |= 8;
		if (ntied < 2)
			tied[ntied++] = g->libs[i].library;
		else
			more++;
	}
	/* the most names that fit, the others counted */
	for (k = ntied;; k--) {
		char *s = xstrdup(top->library), *t;
		size_t rest = more + (ntied - k);

		for (i = 0; i < k; i++) {
			t = xasprintf("%s = %s", s, tied[i]);
			free(s);
			s = t;
		}
		if (rest) {
			t = xasprintf("%s +%zu", s, rest);
			free(s);
			s = t;
		}
		if (k == 0 || strlen(s) <= maxlen) {
			if (rest)
				*marks |= 32;
			return s;
		}
		free(s);
	}
}

/* Fill LN's cells from G, the fastest's at most MAXLEN bytes (as
 * fastest_cell fits it); MARKS gets the marks used. */
static void row_of(const struct fastest_group *g, struct line *ln,
		   size_t maxlen, int *marks)
{
	const struct fastest_lib *top = g->nlibs ? &g->libs[0] : NULL;
	const struct fastest_lib *small = fastest_small_leader(g);
	const struct fastest_lib *second = NULL, *slow = NULL;
	size_t i;

	/* ranked at 16 KiB: libraries without a 16 KiB point come last */
	if (top && top->large_mbps <= 0)
		top = NULL;
	for (i = 1; top && i < g->nlibs; i++)
		if (g->libs[i].large_mbps > 0) {
			if (!second)
				second = &g->libs[i];
			else
				slow = &g->libs[i];
		}
	ln->cell[C_ALGO] = xstrdup(g->algorithm);
	ln->cell[C_FAST] = fastest_cell(g, top, maxlen, marks);
	ln->cell[C_MBPS] = top ? mbps_cell(top->large_mbps, top->large_noisy,
					   top->large_unverified, marks) :
				 xstrdup("-");
	if (top && top->large_cpb > 0)
		ln->cell[C_CPB] = xasprintf("%.2f%s", top->large_cpb,
					    top->cpb_nominal ? "*" : "");
	else
		ln->cell[C_CPB] = xstrdup("-");
	ln->cell[C_SECOND] = ratio_cell(second, top ? top->large_mbps : 0,
					marks);
	ln->cell[C_SLOW] = ratio_cell(slow, top ? top->large_mbps : 0, marks);
	ln->cell[C_SFAST] = xstrdup(small ? small->library : "-");
	ln->cell[C_SMBPS] = small ? mbps_cell(small->small_mbps,
					      small->small_noisy,
					      small->small_unverified, marks) :
				    xstrdup("-");
	if (top && top->cpb_nominal)
		*marks |= 4;
	if (!small || !second || !slow || !top)
		*marks |= 16;	/* a "-" to explain */
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print "DISTRO: lib 1.2, lib 3.4, ..." (libraries by name) wrapped at
 * WRAP columns, for the distribution whose groups start at FIRST. */
static void print_versions(FILE *f, const struct fastest_table *t,
			   size_t first)
{
	const struct fastest_group *g0 = &t->groups[first];
	char **items = NULL;
	size_t n = 0, col, i, k, j;

	for (i = first; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];

		if (g->run_id != g0->run_id || strcmp(g->distro, g0->distro))
			break;
		for (k = 0; k < g->nlibs; k++) {
			char *item = xasprintf("%s %s", g->libs[k].library,
					       g->libs[k].version);

			for (j = 0; j < n && strcmp(items[j], item); j++)
				;
			if (j < n) {
				free(item);
				continue;
			}
			items = xrealloc(items, (n + 1) * sizeof(*items));
			items[n++] = item;
		}
	}
	qsort(items, n, sizeof(*items), cmp_str);
	fprintf(f, "%s:", g0->distro);
	col = strlen(g0->distro) + 1;
	for (i = 0; i < n; i++) {
		if (i && col + strlen(items[i]) + 2 > WRAP) {
			fputs(",\n   ", f);
			col = 3;
		} else if (i) {
			fputc(',', f);
			col++;
		}
		fprintf(f, " %s", items[i]);
		col += strlen(items[i]) + 1;
		free(items[i]);
	}
	fputc('\n', f);
	free(items);
}

static void print_cells(FILE *f, char *const *cell, const size_t *w)
{
	size_t c;

	fputs("  ", f);
	for (c = 0; c < NCOLS; c++)
		fprintf(f, "%s%*s", c ? "  " : "",
			right[c] ? (int)w[c] : -(int)w[c], cell[c]);
	fputc('\n', f);
}

static void print_spreads(FILE *f, const struct fastest_table *t, int runs)
{
	struct fastest_spread *s;
	size_t n = fastest_spreads(t, &s), i;

	if (!n)
		return;
	fputs("\nBetween distributions, the same library at 16 KiB (spread = its"
	      " fastest / slowest MB/s - 1):\n", f);
	for (i = 0; i < n; i++) {
		if (runs)
			fprintf(f, "  run %lld", (long long)s[i].run_id);
		fprintf(f, "  %-11s median %5.1f %% over %zu algorithm%s, largest"
			" %5.1f %% (%s: %s over %s)\n", s[i].library,
			s[i].median_pct, s[i].nalgos, s[i].nalgos == 1 ? "" : "s",
			s[i].max_pct, s[i].max_algorithm, s[i].max_fast,
			s[i].max_slow);
	}
	free(s);
}

/* The rows of T into LINES (T's ngroups of them) and the width of each
 * column into W, within TABLE_WIDTH columns where the fastest's cells
 * can be cut to fit (fastest_cell); MARKS gets the marks used. */
static void table_rows(const struct fastest_table *t, struct line *lines,
		       size_t *w, int *marks)
{
	size_t i, c, other, budget = (size_t)-1;

	for (;;) {
		for (c = 0; c < NCOLS; c++)
			w[c] = strlen(heads[c]);
		for (i = 0; i < t->ngroups; i++) {
			row_of(&t->groups[i], &lines[i], budget, marks);
			for (c = 0; c < NCOLS; c++)
				if (strlen(lines[i].cell[c]) > w[c])
					w[c] = strlen(lines[i].cell[c]);
		}
		/* two columns of indent, two between cells */
		other = 2 + 2 * (NCOLS - 1);
		for (c = 0; c < NCOLS; c++)
			if (c != C_FAST)
				other += w[c];
		if (budget != (size_t)-1 || other + w[C_FAST] <= TABLE_WIDTH)
			return;
		budget = other + strlen(heads[C_FAST]) < TABLE_WIDTH ?
			 TABLE_WIDTH - other : strlen(heads[C_FAST]);
		for (i = 0; i < t->ngroups; i++)
			for (c = 0; c < NCOLS; c++)
				free(lines[i].cell[c]);
	}
}

long summary_fastest(FILE *f, sqlite3 *db, int64_t run_id,
		     const char *db_path, bo_err *err)
{
	struct fastest_table t;
	struct line *lines;
	size_t w[NCOLS], i, c;
	char *dbopt;
	long n;
	int marks = 0;

	n = fastest_load(db, &run_id, 1, &t, err);
	if (n <= 0)
		return n;
	lines = xcalloc(t.ngroups, sizeof(*lines));
	table_rows(&t, lines, w, &marks);
	fprintf(f, "Run %lld: the fastest library per algorithm, bulk encryption (hashing for\n"
		"hash functions), MB/s = 10^6 B/s; runner-up and slowest as a fraction of the\n"
		"fastest's MB/s at 16 KiB (@16K); cyc/B@16K = core cycles per byte of the 16 KiB\n"
		"point (not the fitted slope cyc/B of `benchorch results`).\n",
		(long long)run_id);
	for (i = 0; i < t.ngroups; i++) {
		if (i == 0 || strcmp(t.groups[i].distro, t.groups[i - 1].distro)) {
			fputc('\n', f);
			print_versions(f, &t, i);
			print_cells(f, (char *const *)heads, w);
		}
		print_cells(f, lines[i].cell, w);
	}
	if (marks & 7) {
		char noisy[80];

		snprintf(noisy, sizeof(noisy),
			 "~ noisy (spread above %.0f x its invocation's typical)",
			 JUDGE_NOISE_FACTOR);
		fprintf(f, "\n%s%s%s%s%s\n", marks & 1 ? noisy : "",
			(marks & 1) && (marks & 6) ? "; " : "",
			marks & 2 ? "! NOT verified" : "",
			(marks & 2) && (marks & 4) ? "; " : "",
			marks & 4 ? "* at the CPU's nominal clock" : "");
	}
	if (marks & 8)
		fprintf(f, "%sa = b, x0.95=: a tie with the fastest, measured taking turns and not told\n"
			"apart (their paired interval holds 1, or the guests disagree on which is faster)%s\n",
			marks & 7 ? "" : "\n",
			marks & 32 ? ";\n+2: two more tied" : "");
	if (marks & 16)
		fprintf(f, "%s- nothing to show: no second or third library at 16 KiB, or no bulk point\n"
			"at 16 B (ChaCha20 and Salsa20 run whole 64-byte blocks in bulk)\n",
			marks & 15 ? "" : "\n");
	print_spreads(f, &t, 0);
	dbopt = paths_db_opt(db_path);
	fprintf(f, "\nEvery point: benchorch results --run %lld; charts: benchorch report --run %lld -o report.html%s%s%s\n",
		(long long)run_id, (long long)run_id,
		*dbopt ? " (both with" : "", dbopt, *dbopt ? ")" : "");
	free(dbopt);
	for (i = 0; i < t.ngroups; i++)
		for (c = 0; c < NCOLS; c++)
			free(lines[i].cell[c]);
	free(lines);
	fastest_release(&t);
	return n;
}

long summary_run(FILE *f, sqlite3 *db, int64_t run_id, enum format fmt,
		 const char *db_path, bo_err *err)
{
	if (fmt != FORMAT_TABLE)
		return summary_print(f, db, run_id, fmt, err);
	return summary_fastest(f, db, run_id, db_path, err);
}
