/* report-overview.c - what the HTML report opens with: per distribution a
 * heat map of algorithm x library coloured by throughput relative to the
 * fastest library, the fastest library per algorithm, and the libraries
 * across distributions. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/fastest.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/report-overview.h"
#include "orchestrator/results/svg.h"

static const char dash[] = "\xe2\x80\x94";	/* em dash */

int report_overview_hue(double ratio)
{
	if (!(ratio > 0))
		return 0;
	if (ratio > 1)
		ratio = 1;
	return (int)lround(120 * ratio);
}

void report_write_heat_legend(FILE *f)
{
	fputs("<p class=\"legend\">", f);
	for (int h = 0; h <= 4; h++)
		fprintf(f, "<span style=\"background:hsl(%d,70%%,72%%)\">%d %%"
			"</span> ", report_overview_hue(h / 4.0), h * 25);
	fputs("of the fastest</p>\n", f);
}

/* Is G shown (ALGO NULL or its algorithm)? */
static int shown(const struct fastest_group *g, const char *algo)
{
	return !algo || strcmp(g->algorithm, algo) == 0;
}

/* The libraries of the distribution whose groups start at FIRST, in
 * name order, into *ret (borrowed strings; caller frees the array). */
static size_t dist_libs(const struct fastest_table *t, size_t first,
			const char ***ret)
{
	const struct fastest_group *g0 = &t->groups[first];
	const char **v = NULL;
	size_t n = 0, i, k, j;

	for (i = first; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];

		if (g->run_id != g0->run_id || strcmp(g->distro, g0->distro))
			break;
		for (k = 0; k < g->nlibs; k++) {
			for (j = 0; j < n && strcmp(v[j], g->libs[k].library); j++)
				;
			if (j < n)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			for (j = n; j > 0 && strcmp(v[j - 1], g->libs[k].library) > 0; j--)
				v[j] = v[j - 1];
			v[j] = g->libs[k].library;
			n++;
		}
	}
	*ret = v;
	return n;
}

static void put_mbps(FILE *f, double v, int noisy, int unverified)
{
	char buf[32];

	fprintf(f, "%s%s%s", fmt_mbps(v, buf, sizeof(buf)), noisy ? "~" : "",
		unverified ? "!" : "");
}

/* "DISTRO" or "DISTRO (run N)" when several runs are shown. */
static void put_distro(FILE *f, const struct fastest_group *g, int runs)
{
	svg_escape(f, g->distro);
	if (runs)
		fprintf(f, " (run %lld)", (long long)g->run_id);
}

/* The heat map of the distribution whose groups start at FIRST; returns
 * the index after its last group. */
static size_t write_heatmap(FILE *f, const struct fastest_table *t,
			    size_t first, const char *algo, int runs)
{
	const struct fastest_group *g0 = &t->groups[first];
	const char **libs;
	size_t nl = dist_libs(t, first, &libs), i, k, j;

	fputs("<table class=\"heatmap\" data-distro=\"", f);
	svg_escape(f, g0->distro);
	fprintf(f, "\" data-run=\"%lld\"><caption>", (long long)g0->run_id);
	put_distro(f, g0, runs);
	fputs(": MB/s at 16 KiB</caption>\n<tr><th>algorithm</th>", f);
	for (k = 0; k < nl; k++) {
		fputs("<th>", f);
		svg_escape(f, libs[k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = first; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];
		double top = g->nlibs ? g->libs[0].large_mbps : -1;

		if (g->run_id != g0->run_id || strcmp(g->distro, g0->distro))
			break;
		if (!shown(g, algo))
			continue;
		fputs("<tr><th>", f);
		svg_escape(f, g->algorithm);
		fputs("</th>", f);
		for (k = 0; k < nl; k++) {
			const struct fastest_lib *l = NULL;
			double r;

			for (j = 0; j < g->nlibs; j++)
				if (strcmp(g->libs[j].library, libs[k]) == 0)
					l = &g->libs[j];
			if (!l || l->large_mbps <= 0 || top <= 0) {
				fprintf(f, "<td class=\"none\">%s</td>", dash);
				continue;
			}
			r = l->large_mbps / top;
			fputs("<td class=\"num\" data-library=\"", f);
			svg_escape(f, l->library);
			fprintf(f, "\" data-mbps=\"%.3f\" data-ratio=\"%.4f\""
				" style=\"background:hsl(%d,70%%,72%%)\" title=\"",
				l->large_mbps, r, report_overview_hue(r));
			svg_escape(f, l->library);
			fputc(' ', f);
			svg_escape(f, l->version);
			fputs(", ", f);
			svg_escape(f, g->algorithm);
			fprintf(f, " %s: ", g->operation);
			put_mbps(f, l->large_mbps, l->large_noisy,
				 l->large_unverified);
			fprintf(f, " MB/s, %.0f %% of the fastest", 100 * r);
			if (l->large_cpb > 0)
				fprintf(f, ", %.2f%s cyc/B@16K", l->large_cpb,
					l->cpb_nominal ? "*" : "");
			fputs("\">", f);
			put_mbps(f, l->large_mbps, l->large_noisy,
				 l->large_unverified);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(libs);
	return i;
}

/* "libgcrypt &times;0.50" or a dash, with the marks the run summary
 * gives (summary-fastest.c): '~' noisy, '!' unverified, '=' tied with the
 * fastest by the run's pairs. */
static void ratio_cell(FILE *f, const struct fastest_lib *l, double top)
{
	fputs("<td>", f);
	if (!l || l->large_mbps <= 0 || top <= 0) {
		fprintf(f, "%s</td>", dash);
		return;
	}
	svg_escape(f, l->library);
	fprintf(f, " &times;%.2f%s%s%s</td>", l->large_mbps / top,
		l->large_noisy ? "~" : "", l->large_unverified ? "!" : "",
		l->large_tie ? "=" : "");
}

/* 1 when a group of T shown for ALGO has a library its pairs tie with
 * the fastest (fastest_mark_ties), 0 when none. */
static int any_tie(const struct fastest_table *t, const char *algo)
{
	size_t i, k;

	for (i = 0; i < t->ngroups; i++)
		for (k = 1; shown(&t->groups[i], algo) && k < t->groups[i].nlibs;
		     k++)
			if (t->groups[i].libs[k].large_tie)
				return 1;
	return 0;
}

static void write_fastest(FILE *f, const struct fastest_table *t,
			  const char *algo, int runs)
{
	size_t i, k;

	fputs("<table class=\"fastest\"><caption>Fastest per algorithm (runner-up"
	      " and slowest as a fraction of the fastest's MB/s at 16 KiB)"
	      "</caption>\n<tr><th>distro</th><th>algorithm</th><th>fastest at"
	      " 16 KiB</th><th>MB/s</th><th>cyc/B@16K</th><th>runner-up</th>"
	      "<th>slowest</th><th>fastest at 16 B</th><th>MB/s</th></tr>\n", f);
	for (i = 0; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];
		const struct fastest_lib *top = g->nlibs && g->libs[0].large_mbps > 0 ?
						&g->libs[0] : NULL;
		const struct fastest_lib *small = fastest_small_leader(g);
		const struct fastest_lib *second = NULL, *slow = NULL;

		if (!shown(g, algo))
			continue;
		for (k = 1; top && k < g->nlibs; k++)
			if (g->libs[k].large_mbps > 0) {
				if (!second)
					second = &g->libs[k];
				else
					slow = &g->libs[k];
			}
		fputs("<tr><td>", f);
		put_distro(f, g, runs);
		fputs("</td><td>", f);
		svg_escape(f, g->algorithm);
		fputs("</td><td>", f);
		if (top) {
			svg_escape(f, top->library);
			fputc(' ', f);
			svg_escape(f, top->version);
			/* the libraries its pairs do not tell apart from it
			 * (run --interleave): a tie, not a winner by chance */
			for (k = 1; k < g->nlibs; k++)
				if (g->libs[k].large_tie) {
					fputs(" = ", f);
					svg_escape(f, g->libs[k].library);
				}
			fputs("</td><td class=\"num\">", f);
			put_mbps(f, top->large_mbps, top->large_noisy,
				 top->large_unverified);
			fputs("</td><td class=\"num\">", f);
			if (top->large_cpb > 0)
				fprintf(f, "%.2f%s", top->large_cpb,
					top->cpb_nominal ? "*" : "");
			else
				fputs(dash, f);
			fputs("</td>", f);
		} else {
			fprintf(f, "%s</td><td>%s</td><td>%s</td>", dash, dash,
				dash);
		}
		ratio_cell(f, second, top ? top->large_mbps : 0);
		ratio_cell(f, slow, top ? top->large_mbps : 0);
		fputs("<td>", f);
		if (small) {
			svg_escape(f, small->library);
			fputs("</td><td class=\"num\">", f);
			put_mbps(f, small->small_mbps, small->small_noisy,
				 small->small_unverified);
			fputs("</td>", f);
		} else {
			fprintf(f, "%s</td><td>%s</td>", dash, dash);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The short version of LIB in T's groups of RUN and DISTRO, or NULL. */
static const char *version_in(const struct fastest_table *t, int64_t run,
			      const char *distro, const char *lib)
{
	size_t i, k;

	for (i = 0; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];

		if (g->run_id != run || strcmp(g->distro, distro))
			continue;
		for (k = 0; k < g->nlibs; k++)
			if (strcmp(g->libs[k].library, lib) == 0)
				return g->libs[k].version;
	}
	return NULL;
}

static void write_across(FILE *f, const struct fastest_table *t,
			 const struct fastest_spread *s, size_t n, int runs)
{
	size_t i, k;

	fputs("<table class=\"across\"><caption>Libraries across distributions:"
	      " the same library's MB/s at 16 KiB, spread = its fastest /"
	      " slowest - 1 per algorithm</caption>\n<tr><th>library</th>"
	      "<th>versions</th><th>algorithms</th><th>median spread</th>"
	      "<th>largest spread</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		size_t nv = 0;

		fputs("<tr><td>", f);
		svg_escape(f, s[i].library);
		if (runs)
			fprintf(f, " (run %lld)", (long long)s[i].run_id);
		fputs("</td><td>", f);
		for (k = 0; k < t->ngroups; k++) {
			const struct fastest_group *g = &t->groups[k];
			const char *v;

			if (g->run_id != s[i].run_id ||
			    (k && t->groups[k - 1].run_id == g->run_id &&
			     strcmp(t->groups[k - 1].distro, g->distro) == 0))
				continue;
			v = version_in(t, g->run_id, g->distro, s[i].library);
			if (!v)
				continue;
			fputs(nv++ ? ", " : "", f);
			svg_escape(f, g->distro);
			fputc(' ', f);
			svg_escape(f, v);
		}
		fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%.1f %%"
			"</td><td>%.1f %% (", s[i].nalgos, s[i].median_pct,
			s[i].max_pct);
		svg_escape(f, s[i].max_algorithm);
		fputs(": ", f);
		svg_escape(f, s[i].max_fast);
		fputs(" over ", f);
		svg_escape(f, s[i].max_slow);
		fputs(")</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int report_write_overview(FILE *f, sqlite3 *db, const int64_t *runs,
			  size_t nruns, const char *algo, bo_err *err)
{
	struct fastest_table t;
	struct fastest_spread *s;
	size_t i, ns;
	long n;

	n = fastest_load(db, runs, nruns, &t, err);
	if (n <= 0)
		return (int)n;
	fputs("<section id=\"overview\"><h2>Overview: which library is fastest"
	      "</h2>\n<p>Bulk encryption (hashing for hash functions) at 16 KiB"
	      " per call, in MB/s. Each cell is coloured by its throughput"
	      " relative to the fastest library for that algorithm in that"
	      " distribution; hover over a cell for the version, the fraction"
	      " and the cycles per byte of the 16 KiB point (cyc/B@16K). ~ noisy,"
	      " ! not verified.", f);
	if (any_tie(&t, algo))
		fputs(" a = b, &times;0.95=: a tie with the fastest, measured"
		      " taking turns and not told apart (their paired interval"
		      " holds 1, or the guests disagree on which is faster).", f);
	fputs("</p>\n", f);
	report_write_heat_legend(f);
	fputs("<div class=\"heatmaps\">\n", f);
	for (i = 0; i < t.ngroups;)
		i = write_heatmap(f, &t, i, algo, nruns > 1);
	fputs("</div>\n", f);
	write_fastest(f, &t, algo, nruns > 1);
	ns = fastest_spreads(&t, &s);
	if (ns)
		write_across(f, &t, s, ns, nruns > 1);
	free(s);
	fputs("</section>\n", f);
	fastest_release(&t);
	return 1;
}
