/* report-builds.c - the report's table of rebuilt libraries against the
 * shipped ones (see report-builds.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/build-pairs.h"
#include "orchestrator/results/report-builds.h"
#include "orchestrator/results/svg.h"

/* Is ratio B the table of A: the same run, distribution, variant and
 * library? */
static int same_table(const struct build_ratio *a, const struct build_ratio *b)
{
	return a->run_id == b->run_id && strcmp(a->distro, b->distro) == 0 &&
	       strcmp(a->variant, b->variant) == 0 &&
	       strcmp(a->library, b->library) == 0;
}

/* Is ratio B in A's row: the same algorithm and operation? */
static int same_row(const struct build_ratio *a, const struct build_ratio *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

/* The builds of the table V[0 .. N-1] (one library's), each once, in
 * name order, into *COLS (pointers into V; the caller frees the array).
 * Returns how many. */
static size_t table_builds(const struct build_ratio *v, size_t n,
			   const struct build_ratio ***cols)
{
	const struct build_ratio **c = xcalloc(n, sizeof(*c));
	size_t nc = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < nc && strcmp(c[k]->build, v[i].build) < 0)
			k++;
		if (k < nc && strcmp(c[k]->build, v[i].build) == 0)
			continue;
		memmove(&c[k + 1], &c[k], (nc - k) * sizeof(*c));
		c[k] = &v[i];
		nc++;
	}
	*cols = c;
	return nc;
}

/* The table of one library: V[0 .. N-1], rows in algorithm order. */
static void write_table(FILE *f, const struct build_ratio *v, size_t n,
			int64_t bytes)
{
	const struct build_ratio **cols;
	size_t nc = table_builds(v, n, &cols);

	fprintf(f, "<table class=\"builds\"><caption>");
	svg_escape(f, v[0].library);
	fprintf(f, " in ");
	svg_escape(f, v[0].distro);
	if (strcmp(v[0].variant, "hw") != 0) {
		fputs(" (", f);
		svg_escape(f, v[0].variant);
		fputc(')', f);
	}
	fprintf(f, ", run %lld: each build's throughput at %lld B as a "
		"fraction of the shipped library's</caption>\n<tr>"
		"<th>algorithm</th><th>operation</th>",
		(long long)v[0].run_id, (long long)bytes);
	for (size_t k = 0; k < nc; k++) {
		fputs("<th>", f);
		svg_escape(f, cols[k]->build);
		fputs("<br><small>", f);
		svg_escape(f, cols[k]->compiler);
		fputc(' ', f);
		svg_escape(f, cols[k]->cflags);
		fputs("</small></th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		fputs("<tr><td>", f);
		svg_escape(f, v[i].algorithm);
		fputs("</td><td>", f);
		svg_escape(f, v[i].operation);
		fputs("</td>", f);
		for (size_t k = 0; k < nc; k++) {
			const struct build_ratio *c = NULL;

			for (size_t m = i; m < n && same_row(&v[i], &v[m]); m++)
				if (strcmp(v[m].build, cols[k]->build) == 0)
					c = &v[m];
			if (!c) {
				fputs("<td class=\"num\">-</td>", f);
				continue;
			}
			fprintf(f, "<td class=\"num\">%s%.2f (%.2f .. %.2f)</td>",
				c->tie ? "= " : "", c->ratio, c->low, c->high);
		}
		fputs("</tr>\n", f);
		while (j < n && same_row(&v[i], &v[j]))
			j++;
		i = j;
	}
	fputs("</table>\n", f);
	free(cols);
}

long report_write_builds(FILE *f, sqlite3 *db, const int64_t *runs,
			 size_t nruns, int64_t bytes, bo_err *err)
{
	struct build_ratio *all, *v;
	size_t n_all, n = 0;
	long cells = 0;

	if (build_ratios_load(db, runs, nruns, bytes, &all, &n_all, err) < 0)
		return -1;
	/* bulk encryption and hashing, as the heat maps */
	v = xcalloc(n_all ? n_all : 1, sizeof(*v));
	for (size_t i = 0; i < n_all; i++)
		if (strcmp(all[i].mode, "bulk") == 0 &&
		    strcmp(all[i].operation, "decrypt") != 0)
			v[n++] = all[i];
	if (n > 0)
		fputs("<section id=\"builds\"><h2>Builds</h2>\n<p>Each library "
		      "rebuilt from its distribution's source package "
		      "(<code>benchorch rebuild</code>) beside the shipped "
		      "one, the two taking turns block by block in the same "
		      "guest: the median over rounds of the build's "
		      "throughput as a fraction of the shipped library's, "
		      "and its sign-test interval (confidence 95&nbsp;% or more; over several invocations, "
		      "the median of theirs and the widest interval); "
		      "<b>=</b> where the interval holds 1, the two are not "
		      "told apart.</p>\n", f);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && same_table(&v[i], &v[j]))
			j++;
		write_table(f, &v[i], j - i, bytes);
		cells += (long)(j - i);
		i = j;
	}
	if (n > 0)
		fputs("</section>\n", f);
	free(v);	/* its entries are all's */
	build_ratios_free(all, n_all);
	return cells;
}
