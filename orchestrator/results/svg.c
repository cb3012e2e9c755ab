/* svg.c - throughput charts in plain SVG. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/svg.h"
#include "lib/util.h"

/* Geometry in px. */
#define W 820
#define H 420
#define PL 80		/* plot left */
#define PR 560		/* plot right */
#define PT 40		/* plot top */
#define PB 360		/* plot bottom */

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
static const char *const dashes[] = { "", "6 3", "2 3" };

/* The colour and dash of series S, the I-th of its chart: the caller's,
 * else from I. */
static const char *series_colour(const struct svg_series *s, size_t i)
{
	return s->colour ? s->colour : palette[i % 10];
}

static const char *series_dash(const struct svg_series *s, size_t i)
{
	return s->dash ? s->dash : dashes[(i / 10) % 3];
}

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
}

/* A round step (1, 2 or 5 x 10^k) giving about five ticks up to MAX. */
static double nice_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static double px_x(const struct svg_chart *c, double x)
{
	double a = log2(c->xmin), b = log2(c->xmax);

	return PL + (log2(x) - a) / (b - a) * (PR - PL);
}

struct pt {
	double x, y;
};

static int cmp_pt(const void *a, const void *b)
{
	double x = ((const struct pt *)a)->x, y = ((const struct pt *)b)->x;

	return (x > y) - (x < y);
}

void svg_chart_write(FILE *f, const struct svg_chart *c)
{
	double ymax = 0, step, top, v;
	size_t i, j;
	char buf[32];
	int hpx = H;

	if (c->nseries * 18 + PT + 10 > (size_t)H)
		hpx = (int)(c->nseries * 18 + PT + 10);
	for (i = 0; i < c->nseries; i++)
		for (j = 0; j < c->series[i].n; j++)
			if (c->series[i].y[j] > ymax)
				ymax = c->series[i].y[j];
	if (ymax <= 0)
		ymax = 1;
	step = nice_step(ymax);
	top = ceil(ymax / step) * step;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\""
		" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"",
		W, hpx, W, hpx);
	if (c->id) {
		fputs(" id=\"", f);
		svg_escape(f, c->id);
		fputc('"', f);
	}
	fputs(" data-title=\"", f);
	svg_escape(f, c->title);
	fputs("\" font-family=\"sans-serif\" font-size=\"12\">\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, hpx);
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"22\" text-anchor=\"middle\""
		" font-size=\"15\" font-weight=\"bold\">", (PL + PR) / 2);
	svg_escape(f, c->title);
	fputs("</text>\n<g class=\"axes\" stroke=\"#ccc\" stroke-width=\"1\">\n", f);
	/* grid and ticks */
	for (v = c->xmin; v <= c->xmax * 1.0001; v *= 4)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
			px_x(c, v), PT, px_x(c, v), PB);
	for (v = 0; v <= top * 1.0001; v += step)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			PL, PB - v / top * (PB - PT), PR, PB - v / top * (PB - PT));
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
		" stroke=\"#333\"/>\n</g>\n", PL, PT, PR - PL, PB - PT);
	fputs("<g class=\"xticks\" text-anchor=\"middle\">\n", f);
	for (v = c->xmin; v <= c->xmax * 1.0001; v *= 4)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", px_x(c, v),
			PB + 16, fmt_size((int64_t)v, buf, sizeof(buf)));
	fputs("</g>\n<g class=\"yticks\" text-anchor=\"end\">\n", f);
	for (v = 0; v <= top * 1.0001; v += step)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%g</text>\n", PL - 6,
			PB - v / top * (PB - PT) + 4, v);
	fputs("</g>\n", f);
	fprintf(f, "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(PL + PR) / 2, PB + 36);
	svg_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text class=\"ylabel\" x=\"18\" y=\"%d\""
		" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">",
		(PT + PB) / 2, (PT + PB) / 2);
	svg_escape(f, c->ylabel);
	fputs("</text>\n", f);
	/* series */
	for (i = 0; i < c->nseries; i++) {
		const struct svg_series *s = &c->series[i];
		const char *col = series_colour(s, i), *dash = series_dash(s, i);
		struct pt *p = xcalloc(s->n ? s->n : 1, sizeof(*p));

		for (j = 0; j < s->n; j++)
			p[j] = (struct pt){ s->x[j], s->y[j] };
		qsort(p, s->n, sizeof(*p), cmp_pt);
		fputs("<g class=\"series\" data-label=\"", f);
		svg_escape(f, s->label);
		fprintf(f, "\" stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\""
			" stroke-width=\"2\"%s%s%s points=\"", col, col,
			*dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
		for (j = 0; j < s->n; j++)
			fprintf(f, "%s%.1f,%.1f", j ? " " : "", px_x(c, p[j].x),
				PB - p[j].y / top * (PB - PT));
		fputs("\"/>\n", f);
		for (j = 0; j < s->n; j++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>\n",
				px_x(c, p[j].x), PB - p[j].y / top * (PB - PT));
		fputs("</g>\n", f);
		free(p);
	}
	/* legend */
	fputs("<g class=\"legend\">\n", f);
	for (i = 0; i < c->nseries; i++) {
		const struct svg_series *s = &c->series[i];
		const char *dash = series_dash(s, i);
		int y = PT + 6 + (int)i * 18;

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
			" stroke-width=\"3\"%s%s%s/>\n<text x=\"%d\" y=\"%d\">",
			PR + 14, y, PR + 38, y, series_colour(s, i),
			*dash ? " stroke-dasharray=\"" : "", dash,
			*dash ? "\"" : "", PR + 44, y + 4);
		svg_escape(f, c->series[i].label);
		fputs("</text>\n", f);
	}
	fputs("</g>\n</svg>\n", f);
}
