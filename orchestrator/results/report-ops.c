/* report-ops.c - the report's public-key and key derivation heat maps
 * (see report-ops.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/ops-fastest.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/report-ops.h"
#include "orchestrator/results/report-overview.h"
#include "orchestrator/results/svg.h"

/* Are A and B in one table: the same run, distribution and variant? */
static int same_table(const struct ops_row *a, const struct ops_row *b)
{
	return a->run_id == b->run_id && strcmp(a->distro, b->distro) == 0 &&
	       strcmp(a->variant, b->variant) == 0;
}

/* The columns of the table V[0 .. N-1], each once, in name order, into
 * *RET (newly allocated strings and array: free both). Returns how
 * many. */
static size_t table_columns(const struct ops_row *v, size_t n, char ***ret)
{
	char **c = xcalloc(n ? n : 1, sizeof(*c));
	size_t nc = 0;

	for (size_t i = 0; i < n; i++) {
		char *name = ops_row_label(&v[i]);
		size_t k = 0;

		while (k < nc && strcmp(c[k], name) < 0)
			k++;
		if (k < nc && strcmp(c[k], name) == 0) {
			free(name);
			continue;
		}
		memmove(&c[k + 1], &c[k], (nc - k) * sizeof(*c));
		c[k] = name;
		nc++;
	}
	*ret = c;
	return nc;
}

/* One cell: R's rate against the row's fastest TOP (> 0). */
static void write_cell(FILE *f, const struct ops_row *r, double top,
		       enum ops_kind kind)
{
	double ratio = r->ops_per_s / top;
	char buf[32];

	fprintf(f, "<td class=\"num%s%s\" data-library=\"",
		r->verified ? "" : " unverified", r->tie ? " tie" : "");
	svg_escape(f, r->library);
	fputs("\" data-build=\"", f);
	svg_escape(f, r->build);
	fprintf(f, "\" data-ops=\"%.3f\" data-ratio=\"%.4f\""
		" style=\"background:hsl(%d,70%%,72%%)\" title=\"",
		r->ops_per_s, ratio, report_overview_hue(ratio));
	svg_escape(f, r->library);
	fputc(' ', f);
	svg_escape(f, r->version);
	fputs(", ", f);
	svg_escape(f, r->algorithm);
	fputc(' ', f);
	svg_escape(f, r->operation);
	fprintf(f, ": %s %s/s, %.0f %% of the fastest%s",
		fmt_ops(r->ops_per_s, buf, sizeof(buf)),
		kind == OPS_KDF ? "derivations" : "operations", 100 * ratio,
		r->verified ? "" : ", not verified");
	if (!r->verified && r->why) {
		fputs(": ", f);
		svg_escape(f, r->why);
	}
	if (r->tie)
		fputs("; a tie with the fastest (not told apart taking turns)",
		      f);
	fputs("\">", f);
	fprintf(f, "%s%s%s</td>", buf, r->verified ? "" : "!",
		r->tie ? "=" : "");
}

/* The last cell of a row: the fastest of the group V[0 .. N-1] and the
 * libraries tied with it, "openssl = libgcrypt" (ops_fastest_names), or
 * "-" when none was measured. */
static void write_fastest(FILE *f, const struct ops_row *v, size_t n)
{
	int tie;
	char *names = ops_fastest_names(v, n, &tie);

	if (!names) {
		fputs("<td class=\"none\">-</td>", f);
		return;
	}
	fprintf(f, "<td class=\"fastest%s\">", tie ? " tie" : "");
	svg_escape(f, names);
	fputs("</td>", f);
	free(names);
}

/* The caption of the table whose first row is R. */
static void write_caption(FILE *f, const struct ops_row *r, int runs,
			  enum ops_kind kind)
{
	fputs("<caption>", f);
	svg_escape(f, *r->distro ? r->distro : "?");
	if (runs)
		fprintf(f, " (run %lld)", (long long)r->run_id);
	if (strcmp(r->variant, "hw") != 0) {
		fputs(" (", f);
		svg_escape(f, r->variant);
		fputc(')', f);
	}
	fprintf(f, ": %s per second</caption>\n",
		kind == OPS_KDF ? "derivations" : "operations");
}

/* The table of V[0 .. N-1] (one run, distribution and variant; rows of
 * one algorithm and operation adjacent). RUNS: several runs shown. */
static void write_table(FILE *f, const struct ops_row *v, size_t n,
			enum ops_kind kind, int runs)
{
	char **cols;
	size_t nc = table_columns(v, n, &cols);

	fprintf(f, "<table class=\"heatmap ops\" data-kind=\"%s\" data-run=\"%lld\""
		" data-distro=\"", kind == OPS_KDF ? "kdf" : "pubkey",
		(long long)v[0].run_id);
	svg_escape(f, v[0].distro);
	fputs("\" data-variant=\"", f);
	svg_escape(f, v[0].variant);
	fputs("\">", f);
	write_caption(f, &v[0], runs, kind);
	fprintf(f, "<tr><th>algorithm</th><th>%s</th>",
		kind == OPS_KDF ? "parameters" : "operation");
	for (size_t k = 0; k < nc; k++) {
		fputs("<th>", f);
		svg_escape(f, cols[k]);
		fputs("</th>", f);
	}
	fputs("<th>fastest</th></tr>\n", f);
	for (size_t i = 0, j; i < n; i = j) {
		double top = 0;

		for (j = i; j < n && ops_same_group(&v[i], &v[j]); j++)
			if (v[j].ops_per_s > top)
				top = v[j].ops_per_s;
		fputs("<tr><th>", f);
		svg_escape(f, v[i].algorithm);
		fputs("</th><th>", f);
		svg_escape(f, v[i].operation);
		fputs("</th>", f);
		for (size_t k = 0; k < nc; k++) {
			const struct ops_row *c = NULL;

			for (size_t m = i; m < j && !c; m++) {
				char *name = ops_row_label(&v[m]);

				if (strcmp(name, cols[k]) == 0)
					c = &v[m];
				free(name);
			}
			if (c && c->ops_per_s > 0 && top > 0)
				write_cell(f, c, top, kind);
			else
				fputs("<td class=\"none\">-</td>", f);
		}
		write_fastest(f, &v[i], j - i);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (size_t k = 0; k < nc; k++)
		free(cols[k]);
	free(cols);
}

/* The section's heading and what its tables show. */
static void write_intro(FILE *f, enum ops_kind kind)
{
	if (kind == OPS_KDF)
		fputs("<section id=\"kdf\"><h2>Key derivation</h2>\n<p>Derivations"
		      " per second of each key derivation function at the cost"
		      " parameters the guest gave it (one derivation of the"
		      " output length shown), over the median of each"
		      " invocation's batches (the invocations' mean time per"
		      " derivation). ", f);
	else
		fputs("<section id=\"pubkey\"><h2>Public key</h2>\n<p>Operations"
		      " per second of each public-key algorithm and operation,"
		      " over the median of each invocation's batches (the"
		      " invocations' mean time per operation). ", f);
	fputs("Each cell is coloured by its rate relative to the fastest"
	      " library of its row in that distribution, as the overview's"
	      " heat maps; hover over a cell for the version and the fraction."
	      " ! not verified (a known answer failed, or another library"
	      " derived another result; for a key derivation function also"
	      " one that had no known answer and no library to compare with:"
	      " the cell's title says why); - not measured (the library lacks"
	      " it). The last column names the row's fastest library, and"
	      " after an = (a = b) those a run measured taking turns and"
	      " did not tell apart from it (their paired interval holds 1,"
	      " or the guests disagree on which is faster); their cells end"
	      " in =.</p>\n", f);
	report_write_heat_legend(f);
	fputs("<div class=\"heatmaps\">\n", f);
}

long report_write_ops(FILE *f, sqlite3 *db, enum ops_kind kind,
		      const int64_t *runs, size_t nruns, bo_err *err)
{
	struct ops_row *v;
	long n = ops_rows_load(db, kind, runs, nruns, &v, err);

	if (n <= 0)
		return n;
	write_intro(f, kind);
	for (size_t i = 0, j; i < (size_t)n; i = j) {
		for (j = i; j < (size_t)n && same_table(&v[i], &v[j]); j++)
			;
		write_table(f, &v[i], j - i, kind, nruns > 1);
	}
	fputs("</div>\n</section>\n", f);
	ops_rows_free(v, (size_t)n);
	return n;
}
