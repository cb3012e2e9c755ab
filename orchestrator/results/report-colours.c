/* report-colours.c - a library's colour, the same in every chart. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/algorithms.h"
#include "lib/util.h"
#include "orchestrator/results/report-colours.h"
#include "orchestrator/results/svg.h"

/* One entry per library of the guest's list (lib/algorithms.c), in its
 * order: openssl blue, libgcrypt red, nettle green, and so on. A library
 * added past the end shares a colour (modulo) rather than having none. */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))
static const char unknown[] = "#000000";
static const char *const dashes[] = { "", "6 3", "2 3", "8 3 2 3" };

const char *report_library_colour(const char *name)
{
	int i = library_index(name);

	return i < 0 ? unknown : palette[(size_t)i % NPALETTE];
}

const char *report_library_dash(size_t k)
{
	return dashes[k % (sizeof(dashes) / sizeof(dashes[0]))];
}

/* Order of legend entries: the guest's list, unknown names after it. */
static int rank(const char *name)
{
	int i = library_index(name);

	return i < 0 ? 1 << 20 : i;
}

static int cmp_names(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = rank(x), ry = rank(y);

	return rx != ry ? (rx > ry) - (rx < ry) : strcmp(x, y);
}

void report_write_colour_legend(FILE *f, const char *const *names, size_t n)
{
	const char **s = xcalloc(n ? n : 1, sizeof(*s));
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = names[i];
	qsort(s, n, sizeof(*s), cmp_names);
	fputs("<p class=\"libcolours\">Each library has one colour in every"
	      " chart; its distributions, runs or machines differ by dash:", f);
	for (i = 0; i < n; i++) {
		const char *c = report_library_colour(s[i]);

		if (i && strcmp(s[i], s[i - 1]) == 0)
			continue;
		fputs(" <span class=\"libcolour\" data-library=\"", f);
		svg_escape(f, s[i]);
		fprintf(f, "\" data-colour=\"%s\"><span class=\"swatch\""
			" style=\"background:%s\"></span> ", c, c);
		svg_escape(f, s[i]);
		fputs("</span>", f);
	}
	fputs("</p>\n", f);
	free(s);
}
