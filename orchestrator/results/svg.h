/* svg.h - a throughput chart as plain SVG: log2 x axis of buffer sizes,
 * linear y axis, one polyline per series, a legend. No framework. */
#ifndef BENCHORCH_SVG_H
#define BENCHORCH_SVG_H

#include <stddef.h>
#include <stdio.h>

/* One line of the chart: N points (X bytes > 0, Y MB/s), in any order
 * (drawn sorted by X). COLOUR ("#1f77b4") and DASH (a stroke-dasharray
 * such as "6 3", "" for a solid line) are the caller's; NULL for either
 * takes one from the series' position in the chart. Strings and arrays
 * are borrowed. */
struct svg_series {
	const char *label;
	size_t n;
	const double *x, *y;
	const char *colour, *dash;
};

struct svg_chart {
	const char *id;		/* element id (may be NULL) */
	const char *title;	/* drawn above the plot */
	const char *xlabel, *ylabel;
	double xmin, xmax;	/* x range in bytes, e.g. 16 and 1048576 */
	size_t nseries;
	const struct svg_series *series;
};

/* Write chart C to F as one <svg> element (no XML prolog, so it can be
 * inlined in HTML or preceded by one for a standalone file). X ticks at
 * every power of 4 between xmin and xmax, labelled 16 B, 64 B, ..., 1 MiB;
 * y from 0 to a rounded maximum with 1/2/5 ticks. Every text is escaped.
 * Elements carry classes for tests: svg.chart[data-title], g.series
 * [data-label], text.xlabel, text.ylabel, g.legend text. */
void svg_chart_write(FILE *f, const struct svg_chart *c);

/* Write S to F with &, <, >, " and ' escaped for XML/HTML. */
void svg_escape(FILE *f, const char *s);

#endif
