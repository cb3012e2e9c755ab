/* compare.c - point-by-point comparison of two runs. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/latest.h"
#include "orchestrator/results/compare.h"
#include "orchestrator/results/latest-pick.h"
#include "lib/format.h"
#include "orchestrator/results/report-fmt.h"

/* Format: %1$s/%2$s base/new mode, %3$s/%4$s base/new variant, %5$s the
 * variant column (column references, or constants on a schema-1
 * database), %6$s the view, %7$s the condition that pairs a build with
 * the build of its name ("" before schema 20). A run measured with another variant (e.g. --nohw) is matched
 * against the base's points of any variant when it has none of the
 * base's. */
static const char points_fmt[] =
	"SELECT b.distro || ':' || b.release, b.library, b.algorithm,"
	" b.operation,"
	" b.buffer_bytes, b.package, b.package_version,"
	" n.package_version,"
	" b.mb_per_s, b.mb_per_s * b.median_ns / max(b.min_ns, 1),"
	" n.mb_per_s, n.mb_per_s * n.median_ns / max(n.min_ns, 1),"
	" b.result_id, n.result_id, %1$s"
	" FROM %6$s b JOIN %6$s n ON n.run_id = ?2"
	"  AND n.distro IS b.distro AND n.release IS b.release"
	"  AND n.library = b.library AND n.algorithm = b.algorithm"
	"  AND n.operation = b.operation AND n.buffer_bytes = b.buffer_bytes"
	"  AND %2$s = %1$s%7$s"
	"  AND (%4$s = %3$s OR %3$s NOT IN (SELECT %5$s FROM results_v"
	"   WHERE run_id = ?2))"
	" WHERE b.run_id = ?1"
	" ORDER BY 1, b.library, b.algorithm, b.operation DESC, %1$s,"
	"  b.buffer_bytes";

/* The raw samples of result RESULT_ID as throughputs (MB/s = bytes per
 * batch / ns per batch x 1000), in measurement order, with ST (the query
 * of load_samples, or NULL when the schema has no samples). Returns the
 * count and *ret (caller frees; NULL when none); on a database error 0,
 * *ret NULL and *failed set to 1. */
static size_t result_samples(sqlite3_stmt *st, int64_t result_id, double **ret,
			     int *failed)
{
	double *v = NULL;
	size_t n = 0;
	int rc;

	*ret = NULL;
	if (!st)
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, result_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double ns = sqlite3_column_double(st, 0);

		if (ns <= 0)
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = sqlite3_column_double(st, 1) * 1e3 / ns;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		free(v);
		*failed = 1;
		return 0;
	}
	*ret = v;
	return n;
}

/* The query for result_samples in *RET, NULL on a schema without
 * samples (a database before schema 5 opened read-only). Returns 0, or
 * -1 on a database error (the message is sqlite3_errmsg(DB)). */
static int samples_query(sqlite3 *db, sqlite3_stmt **ret)
{
	return db_prepare_optional(db, "SELECT s.ns, r.bytes_per_batch FROM"
				   " samples s JOIN results r ON r.id ="
				   " s.result_id WHERE s.result_id = ?1 ORDER BY"
				   " s.rep", ret) < 0 ? -1 : 0;
}

/* The variants RUN_ID's results were measured in (VARIANT: the
 * expression of results_schema), sorted and joined with ',' ("hw",
 * "nohw", "hw,nohw"; "hw" for every result of a schema without
 * variants), "" for a run without results, NULL on a database error.
 * Newly allocated; caller frees. */
static char *run_variants(sqlite3 *db, const char *variant, int64_t run_id)
{
	char *sql = xasprintf("SELECT DISTINCT %s FROM results_v"
			      " WHERE run_id = ?1 ORDER BY 1", variant);
	char *v = xstrdup("");
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run_id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *one = (const char *)sqlite3_column_text(st, 0);
			char *joined = xasprintf("%s%s%s", v, *v ? "," : "",
						 one ? one : "");

			free(v);
			v = joined;
		}
		sqlite3_finalize(st);
	}
	free(sql);
	if (rc != SQLITE_DONE) {
		free(v);
		return NULL;
	}
	return v;
}

/* Do the variant lists A and B (as from run_variants) share a variant? */
static int variants_overlap(const char *a, const char *b)
{
	char *copy = xstrdup(a), *tok, *save = NULL;
	int found = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(tok);
		const char *p = b;

		/* TOK as a whole item of B */
		while (!found && (p = strstr(p, tok)) != NULL) {
			found = (p == b || p[-1] == ',') &&
				(p[n] == '\0' || p[n] == ',');
			p += n;
		}
	}
	free(copy);
	return found;
}

static int run_exists(sqlite3 *db, int64_t id, bo_err *err)
{
	sqlite3_stmt *st;
	int found;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE id = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, id);
	found = sqlite3_step(st);
	if (found != SQLITE_ROW && found != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (found == SQLITE_DONE)
		return bo_err_set(err, "no run '%lld' in the database",
				  (long long)id);
	return 0;
}

int compare_runs(sqlite3 *db, int64_t base_run, int64_t new_run,
		 double threshold, struct compare_result *ret, bo_err *err)
{
	struct compare_result r = { .base_run = base_run, .new_run = new_run,
				    .threshold = threshold };
	struct results_schema rs;
	sqlite3_stmt *st, *ss;
	int rc, failed = 0;

	if (run_exists(db, base_run, err) < 0 || run_exists(db, new_run, err) < 0 ||
	    results_schema(db, &rs, err) < 0)
		return -1;
	r.base_variant = run_variants(db, rs.variant, base_run);
	r.new_variant = r.base_variant ?
			run_variants(db, rs.variant, new_run) : NULL;
	if (!r.base_variant || !r.new_variant) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		compare_result_free(&r);
		return -1;
	}
	{
		int v2 = strcmp(rs.mode, "mode") == 0;
		/* one row per point of a run (points_v: the median of
		 * its invocations), its samples those of one invocation */
		const char *pv = rs.points_view;
		/* a build against the build of that name, the shipped
		 * library against the shipped one (schema 20) */
		const char *bk = strcmp(rs.build, "build") == 0 ?
				 " AND n.build = b.build" : "";
		char *sql = v2 ? xasprintf(points_fmt, "b.mode", "n.mode",
					   "b.variant", "n.variant", "variant",
					   pv, bk)
			       : xasprintf(points_fmt, "'bulk'", "'bulk'", "'hw'",
					   "'hw'", "'hw'", pv, bk);

		rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		free(sql);
		if (rc != SQLITE_OK) {
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
			compare_result_free(&r);
			return -1;
		}
	}
	sqlite3_bind_int64(st, 1, base_run);
	sqlite3_bind_int64(st, 2, new_run);
	if (samples_query(db, &ss) < 0) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		compare_result_free(&r);
		return -1;
	}
	while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct compare_point *p;

		r.points = xrealloc(r.points, (r.npoints + 1) * sizeof(*r.points));
		p = &r.points[r.npoints++];
		memset(p, 0, sizeof(*p));
		p->distro = db_column_dup(st, 0);
		p->library = db_column_dup(st, 1);
		p->algorithm = db_column_dup(st, 2);
		p->operation = db_column_dup(st, 3);
		p->mode = db_column_dup(st, 14);
		p->bytes = sqlite3_column_int64(st, 4);
		p->package = db_column_dup(st, 5);
		p->base_version = db_column_dup(st, 6);
		p->new_version = db_column_dup(st, 7);
		p->base.median = sqlite3_column_double(st, 8);
		p->base.best = sqlite3_column_double(st, 9);
		p->new.median = sqlite3_column_double(st, 10);
		p->new.best = sqlite3_column_double(st, 11);
		p->base.nsamples = result_samples(ss, sqlite3_column_int64(st, 12),
						  &p->base_samples, &failed);
		p->base.samples = p->base_samples;
		/* after a failure, no further step (it would replace the
		 * connection's error message with a success) */
		if (!failed)
			p->new.nsamples = result_samples(ss,
					sqlite3_column_int64(st, 13),
					&p->new_samples, &failed);
		p->new.samples = p->new_samples;
		if (failed)
			break;
		p->v = stats_compare(&p->base, &p->new, threshold);
		if (p->v.method == STATS_MANN_WHITNEY)
			r.nranked++;
		if (p->v.significant) {
			p->kind = p->v.change < 0 ? -1 : 1;
			if (p->kind < 0)
				r.nregressions++;
			else
				r.nimprovements++;
		}
	}
	sqlite3_finalize(ss);
	if (failed || rc != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		compare_result_free(&r);
		return -1;
	}
	sqlite3_finalize(st);
	if (package_changes_load(db, base_run, 0, new_run, 0, &r.changes,
				 &r.nchanges, err) < 0) {
		compare_result_free(&r);
		return -1;
	}
	*ret = r;
	return 0;
}

void compare_result_free(struct compare_result *r)
{
	size_t i;

	free(r->base_variant);
	free(r->new_variant);
	for (i = 0; i < r->npoints; i++) {
		struct compare_point *p = &r->points[i];

		free(p->distro);
		free(p->library);
		free(p->algorithm);
		free(p->operation);
		free(p->mode);
		free(p->package);
		free(p->base_version);
		free(p->new_version);
		free(p->base_samples);
		free(p->new_samples);
	}
	free(r->points);
	package_changes_free(r->changes, r->nchanges);
	memset(r, 0, sizeof(*r));
}

int compare_latest_two(sqlite3 *db, int64_t *ret_base, int64_t *ret_new,
		       bo_err *err)
{
	struct db_run_made made;
	int64_t latest, base;
	long long n;

	/* finished library runs only (latest_runs_v): an aborted or failed
	 * run's results are partial, a confirmation run measures a few
	 * curves of two images, not the state of the machine, a tool run
	 * has no curve. The newest is the one every reader shows (and
	 * latest_pick says which newer runs it skipped); the base is the
	 * latest run made like it (db_base_run, the rule confirm follows
	 * too): a --nohw run beside a nightly one is no regression of a
	 * package */
	latest = latest_pick(db, DB_RUN_LIBRARY);
	n = latest < 0 ? -1 : db_query_int(db, "SELECT count(*) FROM"
					   " latest_runs_v WHERE kind = 'library'");
	base = n < 2 ? 0 : db_base_run(db, latest, 0, &made);
	if (latest < 0 || n < 0 || base < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (n < 2) {
		bo_err_set(err, "'--latest 2' needs two finished runs with results, the database has %lld",
			   n);
		return -2;
	}
	if (!base) {
		bo_err_set(err, "'--latest 2': no finished run before run %lld was made like it (%s, %s, %s); give two run ids to compare runs made differently",
			   (long long)latest,
			   made.quick ? "--quick" : "not --quick",
			   made.nohw ? "--nohw" : "not --nohw",
			   made.interleave ? "libraries taking turns" :
					   "libraries one after the other");
		return -2;
	}
	*ret_base = base;
	*ret_new = latest;
	return 0;
}

static const char *method_name(enum stats_method m)
{
	return m == STATS_MANN_WHITNEY ? "mann-whitney" : "ranges";
}

static const char *kind_name(int kind)
{
	return kind < 0 ? "regression" : kind > 0 ? "improvement" : "";
}

static json_t *point_json(const struct compare_point *p)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:f, s:f, s:f, s:f, s:f,"
			 " s:b, s:s, s:o, s:s, s:s?, s:s?, s:s?}",
			 "distro", p->distro, "library", p->library,
			 "algorithm", p->algorithm, "operation", p->operation,
			 "mode", p->mode,
			 "buffer_bytes", (json_int_t)p->bytes,
			 "base_mb_per_s", p->base.median,
			 "base_best_mb_per_s", p->base.best,
			 "new_mb_per_s", p->new.median,
			 "new_best_mb_per_s", p->new.best,
			 "change", p->v.change, "significant", p->v.significant,
			 "method", method_name(p->v.method),
			 "p", p->v.p >= 0 ? json_real(p->v.p) : json_null(),
			 "kind", kind_name(p->kind), "package", p->package,
			 "base_package_version", p->base_version,
			 "new_package_version", p->new_version);
}

json_t *compare_json(const struct compare_result *r)
{
	json_t *o = json_object(), *pts = json_array(), *reg = json_array(),
	       *imp = json_array(), *chg = json_array();
	size_t i;

	json_object_set_new(o, "base_run", json_integer(r->base_run));
	json_object_set_new(o, "new_run", json_integer(r->new_run));
	json_object_set_new(o, "base_variant", json_string(r->base_variant));
	json_object_set_new(o, "new_variant", json_string(r->new_variant));
	json_object_set_new(o, "threshold", json_real(r->threshold));
	for (i = 0; i < r->npoints; i++) {
		const struct compare_point *p = &r->points[i];

		json_array_append_new(pts, point_json(p));
		if (p->kind)
			json_array_append_new(p->kind < 0 ? reg : imp,
					      point_json(p));
	}
	for (i = 0; i < r->nchanges; i++) {
		const struct package_change *c = &r->changes[i];

		json_array_append_new(chg, json_pack("{s:s, s:s, s:s?, s:s?}",
			"distro", c->distro, "package", c->package,
			"old_version", c->old_version,
			"new_version", c->new_version));
	}
	json_object_set_new(o, "points", pts);
	json_object_set_new(o, "regressions", reg);
	json_object_set_new(o, "improvements", imp);
	json_object_set_new(o, "package_changes", chg);
	return o;
}

static void print_json(FILE *f, const struct compare_result *r)
{
	json_t *o = compare_json(r);
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				FORMAT_JSON_REAL);

	fprintf(f, "%s\n", s);
	free(s);
	json_decref(o);
}

static void print_csv(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("distro,library,algorithm,operation,mode,buffer_bytes,"
	      "base_mb_per_s,new_mb_per_s,change_percent,significant,kind\r\n",
	      f);
	for (i = 0; i < r->npoints; i++) {
		const struct compare_point *p = &r->points[i];

		fprintf(f, "%s,%s,%s,%s,%s,%lld,%.2f,%.2f,%.2f,%d,%s\r\n",
			p->distro, p->library, p->algorithm, p->operation,
			p->mode, (long long)p->bytes, p->base.median, p->new.median,
			100 * p->v.change, p->v.significant, kind_name(p->kind));
	}
}

static void change_text(const struct package_change *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s -> %s", c->package,
		 c->old_version ? c->old_version : "(none)",
		 c->new_version ? c->new_version : "(removed)");
}

static void print_list(FILE *f, const struct compare_result *r, int kind)
{
	size_t i, j;
	char sz[32], a[32], b[32], ch[512];

	for (i = 0; i < r->npoints; i++) {
		const struct compare_point *p = &r->points[i];
		const char *why = "no package change for this library";

		if (p->kind != kind)
			continue;
		ch[0] = '\0';
		for (j = 0; j < r->nchanges; j++)
			if (strcmp(r->changes[j].distro, p->distro) == 0 &&
			    p->package && strcmp(r->changes[j].package,
						 p->package) == 0) {
				change_text(&r->changes[j], ch, sizeof(ch));
				why = ch;
			}
		fprintf(f, "  %s %s %s %s%s%s %s: %s -> %s MB/s (%+.1f %%); %s\n",
			p->distro, p->library, p->algorithm, p->operation,
			strcmp(p->mode, "bulk") ? " " : "",
			strcmp(p->mode, "bulk") ? p->mode : "",
			fmt_size(p->bytes, sz, sizeof(sz)),
			fmt_mbps(p->base.median, a, sizeof(a)),
			fmt_mbps(p->new.median, b, sizeof(b)),
			100 * p->v.change, why);
	}
}

void compare_print(FILE *f, const struct compare_result *r,
		   enum format fmt, int all_points)
{
	static const char *const hdr[] = { "distro", "library", "algorithm",
		"op", "mode", "size", "base MB/s", "new MB/s", "change %",
		"significant" };
	static const int right[] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 0 };
	struct tbl t;
	size_t i;
	char sz[32], a[32], b[32], c[32], line[512];
	const char *distro = NULL;

	if (fmt == FORMAT_JSON) {
		print_json(f, r);
		return;
	}
	if (fmt == FORMAT_CSV) {
		print_csv(f, r);
		return;
	}
	fprintf(f, "Run %lld (base, variant %s) against run %lld (new, variant"
		" %s): %zu points in both.\n",
		(long long)r->base_run, *r->base_variant ? r->base_variant : "-",
		(long long)r->new_run, *r->new_variant ? r->new_variant : "-",
		r->npoints);
	if (*r->base_variant && *r->new_variant &&
	    !variants_overlap(r->base_variant, r->new_variant))
		fprintf(f, "The runs measured different variants: the changes"
			" below are those of the libraries' hardware"
			" acceleration, not of their packages.\n");
	fprintf(f, "Significant: |change| > %.1f %% and, where both runs stored at"
		" least 5 raw samples (%zu points), a Mann-Whitney rank test on"
		" them gives p < 0.05; elsewhere (%zu points) the [median, best]"
		" throughput ranges of the two runs do not overlap.\n\n",
		100 * r->threshold, r->nranked, r->npoints - r->nranked);
	tbl_init(&t, 10, hdr, right);
	for (i = 0; i < r->npoints; i++) {
		const struct compare_point *p = &r->points[i];
		const char *row[10];

		if (!all_points && !p->kind)
			continue;
		snprintf(c, sizeof(c), "%+.1f", 100 * p->v.change);
		row[0] = p->distro;
		row[1] = p->library;
		row[2] = p->algorithm;
		row[3] = p->operation;
		row[4] = p->mode;
		row[5] = fmt_size(p->bytes, sz, sizeof(sz));
		row[6] = fmt_mbps(p->base.median, a, sizeof(a));
		row[7] = fmt_mbps(p->new.median, b, sizeof(b));
		row[8] = c;
		row[9] = p->kind ? kind_name(p->kind) : p->v.significant ? "yes" : "no";
		tbl_add(&t, row);
	}
	if (t.nrow > 1) {
		tbl_print(&t, f);
		fputc('\n', f);
	}
	tbl_free(&t);
	fprintf(f, "%zu regression%s above %.1f %%%s\n", r->nregressions,
		r->nregressions == 1 ? "" : "s", 100 * r->threshold,
		r->nregressions ? ":" : ".");
	print_list(f, r, -1);
	fprintf(f, "%zu improvement%s above %.1f %%%s\n", r->nimprovements,
		r->nimprovements == 1 ? "" : "s", 100 * r->threshold,
		r->nimprovements ? ":" : ".");
	print_list(f, r, 1);
	if (r->nchanges)
		fputs("Packages changed between the two runs:\n", f);
	for (i = 0; i < r->nchanges; i++) {
		if (!distro || strcmp(distro, r->changes[i].distro) != 0) {
			distro = r->changes[i].distro;
			fprintf(f, "  %s:\n", distro);
		}
		change_text(&r->changes[i], line, sizeof(line));
		fprintf(f, "    %s\n", line);
	}
}
