/* duet-print.c - a duet's verdicts on stdout (see duet-print.h). */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "orchestrator/run/duet-print.h"
#include "orchestrator/results/verdict-stats.h"

/* One library's line of the table. */
struct lib_line {
	const char *library;
	int tested;
	size_t curves, count[PV_UNDECIDED + 1];
	double effect, mde;	/* medians, fractions */
};

/* The lines of the table: C's libraries in order (C is sorted by
 * library), into a new array of *RET_N. */
static struct lib_line *lib_lines(const struct duet_curve *c, size_t n,
				  size_t *ret_n)
{
	struct lib_line *v = xcalloc(n + 1, sizeof(*v));
	double *eff = xcalloc(n + 1, sizeof(*eff)), *mde =
		xcalloc(n + 1, sizeof(*mde));
	size_t k = 0, i = 0;

	while (i < n) {
		size_t j = i;

		v[k].library = c[i].library;
		v[k].tested = c[i].tested;
		for (; j < n && !strcmp(c[j].library, c[i].library); j++) {
			v[k].count[c[j].r.verdict]++;
			eff[j - i] = c[j].r.effect;
			mde[j - i] = c[j].r.mde;
		}
		v[k].curves = j - i;
		v[k].effect = vstat_median(eff, j - i);
		v[k].mde = vstat_median(mde, j - i);
		k++;
		i = j;
	}
	free(eff);
	free(mde);
	*ret_n = k;
	return v;
}

/* "IMAGE" or, with BUILD, "IMAGE (build BUILD)". Caller frees. */
static char *side_label(const char *image, const char *build)
{
	return build ? xasprintf("%s (build %s)", image, build) :
		       xstrdup(image);
}

static void print_table(FILE *f, const struct duet_heading *h,
			const struct duet_curve *c, size_t n)
{
	size_t nl, changed = 0;
	struct lib_line *l = lib_lines(c, n, &nl);
	char *nn = side_label(h->new_name, h->new_build);
	char *bn = side_label(h->base, h->base_build);

	if (h->max_rounds > h->rounds)
		fprintf(f, "%s against %s: %zu curves, %u rounds (up to %u "
			   "where undecided), paired; a change counts from "
			   "%.1f %%\n\n", nn, bn, n, h->rounds,
			h->max_rounds, h->threshold * 100);
	else
		fprintf(f, "%s against %s: %zu curves, %u rounds, paired; a "
			   "change counts from %.1f %%\n\n", nn, bn, n,
			h->rounds, h->threshold * 100);
	free(nn);
	free(bn);
	fprintf(f, "%-12s %-7s %6s %6s %6s %6s %9s %8s %7s\n", "library",
		"role", "curves", "slower", "faster", "same", "undecided",
		"effect", "MDE");
	for (size_t i = 0; i < nl; i++)
		fprintf(f, "%-12s %-7s %6zu %6zu %6zu %6zu %9zu %+7.1f%% %6.1f%%\n",
			l[i].library, l[i].tested ? "tested" : "control",
			l[i].curves, l[i].count[PV_SLOWER],
			l[i].count[PV_FASTER], l[i].count[PV_SAME],
			l[i].count[PV_UNDECIDED] + l[i].count[PV_MORE],
			l[i].effect * 100, l[i].mde * 100);
	for (size_t i = 0; i < n; i++) {
		if (c[i].r.verdict != PV_SLOWER && c[i].r.verdict != PV_FASTER)
			continue;
		if (!changed++)
			fprintf(f, "\nchanged (new against base, 95 %% interval):\n");
		fprintf(f, "  %-12s %-18s %-8s %-8s %+6.1f %% [%+.1f, %+.1f] %s%s\n",
			c[i].library, c[i].algorithm, c[i].operation,
			c[i].mode, c[i].r.effect * 100, c[i].r.low * 100,
			c[i].r.high * 100, pv_verdict_name(c[i].r.verdict),
			c[i].tested ? "" : " (control)");
	}
	if (!changed)
		fprintf(f, "\nno curve changed by %.1f %% or more\n",
			h->threshold * 100);
	fprintf(f, "effect: median over the library's curves; MDE: the "
		   "median smallest change the pairing could detect\n");
	free(l);
}

static void print_csv(FILE *f, const struct duet_heading *h,
		      const struct duet_curve *c, size_t n)
{
	fprintf(f, "base,new,library,algorithm,operation,mode,tested,verdict,"
		   "effect,low,high,rounds,mde,sizes\n");
	for (size_t i = 0; i < n; i++) {
		format_csv_field(f, h->base);
		fputc(',', f);
		format_csv_field(f, h->new_name);
		fputc(',', f);
		format_csv_field(f, c[i].library);
		fputc(',', f);
		format_csv_field(f, c[i].algorithm);
		fprintf(f, ",%s,%s,%d,%s,%.6f,%.6f,%.6f,%u,%.6f,%zu\n",
			c[i].operation, c[i].mode, c[i].tested,
			pv_verdict_name(c[i].r.verdict), c[i].r.effect,
			c[i].r.low, c[i].r.high, c[i].r.rounds, c[i].r.mde,
			c[i].nsizes);
	}
}

static int print_json(FILE *f, const struct duet_heading *h,
		      const struct duet_curve *c, size_t n)
{
	json_t *o = json_object(), *a = json_array();
	int rc;

	json_object_set_new(o, "base", json_string(h->base));
	json_object_set_new(o, "new", json_string(h->new_name));
	json_object_set_new(o, "base_build", h->base_build ?
			    json_string(h->base_build) : json_null());
	json_object_set_new(o, "new_build", h->new_build ?
			    json_string(h->new_build) : json_null());
	json_object_set_new(o, "threshold", json_real(h->threshold));
	json_object_set_new(o, "rounds", json_integer(h->rounds));
	json_object_set_new(o, "max_rounds", json_integer(h->max_rounds));
	json_object_set_new(o, "seconds", json_real(h->seconds));
	json_object_set_new(o, "mde_median",
			    json_real(duet_median_mde(c, n, 1)));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:s, s:b, s:s, s:f, s:f, s:f, s:i, s:f, s:f, s:i}",
			"library", c[i].library, "algorithm", c[i].algorithm,
			"operation", c[i].operation, "mode", c[i].mode,
			"tested", c[i].tested,
			"verdict", pv_verdict_name(c[i].r.verdict),
			"effect", c[i].r.effect, "low", c[i].r.low,
			"high", c[i].r.high, "rounds", (int)c[i].r.rounds,
			"mde", c[i].r.mde, "p", c[i].r.p,
			"sizes", (int)c[i].nsizes));
	json_object_set_new(o, "curves", a);
	rc = json_dumpf(o, f, JSON_INDENT(2) | FORMAT_JSON_REAL);
	json_decref(o);
	if (rc == 0)
		fputc('\n', f);
	return rc;
}

int duet_print(FILE *f, enum format fmt, const struct duet_heading *h,
	       const struct duet_curve *c, size_t n)
{
	if (fmt == FORMAT_JSON) {
		if (print_json(f, h, c, n) < 0)
			return -1;
	} else if (fmt == FORMAT_CSV) {
		print_csv(f, h, c, n);
	} else {
		print_table(f, h, c, n);
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
