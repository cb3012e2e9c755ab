/* verdict-print.c - the summary, table, CSV and JSON of per-curve
 * verdicts. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/verdict-print.h"

static const char *sel_text(const struct verdict_sel *s, char *buf, size_t len)
{
	if (s->image)
		snprintf(buf, len, "run %lld image %lld", (long long)s->run,
			 (long long)s->image);
	else
		snprintf(buf, len, "run %lld", (long long)s->run);
	return buf;
}

/* "+4.1 % [+2.0, +6.3]" */
static const char *effect_text(const struct verdict_curve *v, char *buf,
			       size_t len)
{
	snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f]", 100 * v->effect,
		 100 * v->ci_low, 100 * v->ci_high);
	return buf;
}

static const char *package_text(const struct verdict_curve *v, char *buf,
				size_t len)
{
	if (strcmp(v->base_version, v->new_version) != 0)
		snprintf(buf, len, "%s %s -> %s", *v->package ? v->package : "?",
			 *v->base_version ? v->base_version : "(none)",
			 *v->new_version ? v->new_version : "(none)");
	else
		snprintf(buf, len, "no package change");
	return buf;
}

void verdict_print_summary(FILE *f, const struct verdict_result *r)
{
	char a[64], b[64];
	size_t i;

	fprintf(f, "%s (base) against %s (new): %zu curve%s compared, %zu changed"
		" (%zu slower, %zu faster; %zu confirmed), %zu flagged by a canary.\n",
		sel_text(&r->base, a, sizeof(a)), sel_text(&r->new, b, sizeof(b)),
		r->ncurves, r->ncurves == 1 ? "" : "s", r->nchanged,
		r->nregressions, r->nimprovements, r->nconfirmed, r->nflagged);
	fprintf(f, "Changed: the curve moved beyond its noise at a false discovery"
		" rate of %.0f %% (Benjamini-Hochberg q) and by more than"
		" the threshold, above %.1f %%.\n", 100 * r->alpha,
		100 * r->threshold);
	for (i = 0; i < r->ncaveats; i++)
		fprintf(f, "Caveat: %s.\n", r->caveats[i]);
	if (r->nchanges) {
		fprintf(f, "Packages changed: %zu", r->nchanges);
		for (i = 0; i < r->nchanges && i < 5; i++)
			fprintf(f, "%s %s %s %s -> %s", i ? "," : ":",
				r->changes[i].distro, r->changes[i].package,
				r->changes[i].old_version ? r->changes[i].old_version : "(none)",
				r->changes[i].new_version ? r->changes[i].new_version : "(removed)");
		fprintf(f, "%s.\n", r->nchanges > 5 ? ", ..." : "");
	} else {
		fputs("No package changed.\n", f);
	}
	if (r->nmdes) {
		fputs("Smallest change detectable here (80 % power, at the measured noise):", f);
		for (i = 0; i < r->nmdes; i++)
			fprintf(f, "%s %s %.1f %%", i ? "," : "", r->mdes[i].library,
				100 * r->mdes[i].mde);
		fputs(".\n", f);
	}
}

static void print_table(FILE *f, const struct verdict_result *r, int all)
{
	static const char *const hdr[] = { "distro", "library", "algorithm",
		"op", "mode", "effect [95 % interval]", "q", "noise %", "from",
		"clock", "state", "package" };
	static const int right[] = { 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0 };
	struct tbl t;
	size_t i;
	char e[96], q[32], n[32], c[32], p[512];

	verdict_print_summary(f, r);
	tbl_init(&t, 12, hdr, right);
	for (i = 0; i < r->ncurves; i++) {
		const struct verdict_curve *v = &r->curves[i];
		const char *row[12];

		if (!all && v->state == VERDICT_UNCHANGED)
			continue;
		snprintf(q, sizeof(q), "%.3g", v->q);
		snprintf(n, sizeof(n), "%.1f", 100 * v->noise);
		if (v->clock_ratio > 0)
			snprintf(c, sizeof(c), "%+.1f %%", 100 * (v->clock_ratio - 1));
		else
			snprintf(c, sizeof(c), "-");
		row[0] = v->distro;
		row[1] = v->library;
		row[2] = v->algorithm;
		row[3] = v->operation;
		row[4] = v->mode;
		row[5] = effect_text(v, e, sizeof(e));
		row[6] = q;
		row[7] = n;
		row[8] = verdict_source_name(v->source);
		row[9] = c;
		row[10] = v->state == VERDICT_CHANGED || v->state == VERDICT_CONFIRMED ?
			  (v->effect < 0 ? (v->state == VERDICT_CONFIRMED ?
					    "confirmed regression" : "regression") :
			   (v->state == VERDICT_CONFIRMED ? "confirmed improvement" :
			    "improvement")) : verdict_state_name(v->state);
		row[11] = package_text(v, p, sizeof(p));
		tbl_add(&t, row);
	}
	if (t.nrow > 1) {
		fprintf(f, "\n%s:\n", all ? "Every curve" : "Changed and flagged curves");
		tbl_print(&t, f);
	}
	tbl_free(&t);
}

static json_t *curve_json(const struct verdict_curve *v)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:f, s:f,"
			 " s:f, s:s, s:f, s:f, s:f, s:o, s:o, s:s, s:f, s:i, s:o, s:f,"
			 " s:o, s:b, s:o, s:s, s:s, s:s, s:s}",
			 "distro", v->distro, "library", v->library,
			 "algorithm", v->algorithm, "operation", v->operation,
			 "mode", v->mode, "variant", v->variant,
			 "sizes", (json_int_t)v->nsizes,
			 "base_invocations", (json_int_t)v->base_inv,
			 "new_invocations", (json_int_t)v->new_inv,
			 "effect", v->effect, "ci_low", v->ci_low,
			 "ci_high", v->ci_high,
			 "shape", verdict_shape_name(v->shape),
			 "p", v->p, "q", v->q, "noise", v->noise,
			 "noise_within", v->noise_within >= 0 ?
				json_real(v->noise_within) : json_null(),
			 "noise_history", v->noise_history >= 0 ?
				json_real(v->noise_history) : json_null(),
			 "noise_source", verdict_source_name(v->source),
			 "noise_df", v->noise_df,
			 "history_runs", v->history_runs,
			 "clock_ratio", v->clock_ratio > 0 ?
				json_real(v->clock_ratio) : json_null(),
			 "regime_slope", v->regime_slope,
			 "halves", v->halves < 0 ? json_null() :
				json_boolean(v->halves),
			 "canary_moved", v->canary_moved,
			 "confirmation", v->confirmation < 0 ? json_null() :
				json_boolean(v->confirmation),
			 "state", verdict_state_name(v->state),
			 "package", v->package, "base_version", v->base_version,
			 "new_version", v->new_version);
}

static void print_json(FILE *f, const struct verdict_result *r, json_t *extra)
{
	json_t *o = json_object(), *cv = json_array(), *ch = json_array(),
	       *md = json_object(), *ca = json_array();
	char *s;
	size_t i;

	json_object_set_new(o, "base_run", json_integer(r->base.run));
	json_object_set_new(o, "base_image", r->base.image ?
			    json_integer(r->base.image) : json_null());
	json_object_set_new(o, "new_run", json_integer(r->new.run));
	json_object_set_new(o, "new_image", r->new.image ?
			    json_integer(r->new.image) : json_null());
	json_object_set_new(o, "base_variant", json_string(r->base_variant ?
							       r->base_variant : ""));
	json_object_set_new(o, "new_variant", json_string(r->new_variant ?
							      r->new_variant : ""));
	json_object_set_new(o, "threshold", json_real(r->threshold));
	json_object_set_new(o, "alpha", json_real(r->alpha));
	json_object_set_new(o, "curves_compared", json_integer((json_int_t)r->ncurves));
	json_object_set_new(o, "changed", json_integer((json_int_t)r->nchanged));
	json_object_set_new(o, "regressions", json_integer((json_int_t)r->nregressions));
	json_object_set_new(o, "improvements", json_integer((json_int_t)r->nimprovements));
	json_object_set_new(o, "confirmed", json_integer((json_int_t)r->nconfirmed));
	json_object_set_new(o, "confirmed_regressions",
			    json_integer((json_int_t)r->nconfirmed_regressions));
	json_object_set_new(o, "flagged", json_integer((json_int_t)r->nflagged));
	json_object_set_new(o, "confirmation_run", r->confirm_run ?
			    json_integer((json_int_t)r->confirm_run) :
			    json_null());
	for (i = 0; i < r->ncaveats; i++)
		json_array_append_new(ca, json_string(r->caveats[i]));
	json_object_set_new(o, "caveats", ca);
	for (i = 0; i < r->nchanges; i++) {
		const struct package_change *c = &r->changes[i];

		json_array_append_new(ch, json_pack("{s:s, s:s, s:s?, s:s?}",
			"distro", c->distro, "package", c->package,
			"old_version", c->old_version,
			"new_version", c->new_version));
	}
	json_object_set_new(o, "package_changes", ch);
	for (i = 0; i < r->nmdes; i++)
		json_object_set_new(md, r->mdes[i].library, json_real(r->mdes[i].mde));
	json_object_set_new(o, "min_detectable_effect", md);
	for (i = 0; i < r->ncurves; i++)
		json_array_append_new(cv, curve_json(&r->curves[i]));
	json_object_set_new(o, "curves", cv);
	if (extra)
		json_object_update(o, extra);
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | FORMAT_JSON_REAL);
	fprintf(f, "%s\n", s);
	free(s);
	json_decref(o);
}

static void print_csv(FILE *f, const struct verdict_result *r)
{
	size_t i;

	fputs("distro,library,algorithm,operation,mode,variant,sizes,"
	      "base_invocations,new_invocations,effect_percent,ci_low_percent,"
	      "ci_high_percent,shape,p,q,noise_percent,noise_source,"
	      "history_runs,clock_ratio,canary_moved,state,package,"
	      "base_version,new_version,regime_slope\r\n", f);
	for (i = 0; i < r->ncurves; i++) {
		const struct verdict_curve *v = &r->curves[i];

		format_csv_field(f, v->distro);
		fputc(',', f);
		format_csv_field(f, v->library);
		fprintf(f, ",%s,%s,%s,%s,%zu,%zu,%zu,%.3f,%.3f,%.3f,%s,%.6g,%.6g,"
			"%.3f,%s,%d,", v->algorithm, v->operation, v->mode,
			v->variant, v->nsizes, v->base_inv, v->new_inv,
			100 * v->effect, 100 * v->ci_low, 100 * v->ci_high,
			verdict_shape_name(v->shape), v->p, v->q, 100 * v->noise,
			verdict_source_name(v->source), v->history_runs);
		if (v->clock_ratio > 0)
			fprintf(f, "%.6g", v->clock_ratio);
		fprintf(f, ",%d,%s,", v->canary_moved, verdict_state_name(v->state));
		format_csv_field(f, v->package);
		fputc(',', f);
		format_csv_field(f, v->base_version);
		fputc(',', f);
		format_csv_field(f, v->new_version);
		fprintf(f, ",%.4g\r\n", v->regime_slope);
	}
}

void verdict_print(FILE *f, const struct verdict_result *r, enum format fmt,
		   int all, json_t *extra)
{
	if (fmt == FORMAT_JSON)
		print_json(f, r, extra);
	else if (fmt == FORMAT_CSV)
		print_csv(f, r);
	else
		print_table(f, r, all);
}
