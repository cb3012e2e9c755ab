/* report.c - the HTML report: charts, tables, versions. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/confirmations.h"
#include "db/db.h"
#include "orchestrator/results/lib-faults.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/report-overview.h"
#include "orchestrator/results/report-tools.h"
#include "orchestrator/results/report-resources.h"
#include "orchestrator/results/report.h"
#include "orchestrator/results/runstate.h"
#include "lib/stats.h"
#include "orchestrator/results/svg.h"

#define XMIN 16.0
#define XMAX 1048576.0

struct row {
	int64_t run, bytes;
	char *distro, *library, *algorithm, *operation;
	char *cpu;		/* "HOST: CPU MODEL" of the run */
	int nohw;		/* measured with --nohw (variant 'nohw') */
	double mbps, ns_call;
};

/* One curve: consecutive rows [first, first + n). */
struct curve {
	size_t first, n;
	char *label;
	double *x, *y;
};

struct data {
	struct row *rows;
	size_t nrows;
	struct curve *curves;
	size_t ncurves;
	int64_t *runs;
	size_t nruns;
	double ghz;		/* nominal clock of the (first) run's CPU: the
				 * fallback for runs without a measured one */
	const char **cpus;	/* distinct row cpu labels, first seen first
				 * (borrowed from rows) */
	size_t ncpus;
	size_t *cpu_runs;	/* per cpus[i]: how many of the runs */
};

/* Set err to DB's last error and return -2 (report_write_html's return
 * for a database error). */
static int db_fail(sqlite3 *db, bo_err *err)
{
	bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return -2;
}

int64_t report_latest_run(sqlite3 *db)
{
	return db_latest_run(db);
}

static void data_free(struct data *d)
{
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		free(d->rows[i].distro);
		free(d->rows[i].library);
		free(d->rows[i].algorithm);
		free(d->rows[i].operation);
		free(d->rows[i].cpu);
	}
	for (i = 0; i < d->ncurves; i++) {
		free(d->curves[i].label);
		free(d->curves[i].x);
		free(d->curves[i].y);
	}
	free(d->rows);
	free(d->curves);
	free(d->runs);
	free(d->cpus);
	free(d->cpu_runs);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Index of the cpu label CPU in d->cpus, adding it when new. */
static size_t cpu_index(struct data *d, const char *cpu)
{
	size_t k;

	for (k = 0; k < d->ncpus; k++)
		if (strcmp(d->cpus[k], cpu) == 0)
			return k;
	d->cpus = xrealloc(d->cpus, (d->ncpus + 1) * sizeof(*d->cpus));
	d->cpu_runs = xrealloc(d->cpu_runs, (d->ncpus + 1) * sizeof(*d->cpu_runs));
	d->cpus[d->ncpus] = cpu;
	d->cpu_runs[d->ncpus] = 0;
	return d->ncpus++;
}

/* The label of the curve starting at row R: library and distro, then the
 * machine ("HOST: CPU") when runs of several machines are selected, and
 * the run when more than one run is selected of that machine (or, with
 * one machine, of all). Newly allocated. */
static char *curve_label(const struct data *d, const struct row *r)
{
	const char *nohw = r->nohw ? " (nohw)" : "";

	if (d->ncpus > 1) {
		size_t k;

		for (k = 0; k < d->ncpus && strcmp(d->cpus[k], r->cpu); k++)
			;
		if (k < d->ncpus && d->cpu_runs[k] > 1)
			return xasprintf("%s, %s, %s, run %lld%s", r->library,
					 r->distro, r->cpu, (long long)r->run, nohw);
		return xasprintf("%s, %s, %s%s", r->library, r->distro, r->cpu,
				 nohw);
	}
	/* a run has one variant: the run names the curve, and a --nohw
	 * run's curves say so */
	if (d->nruns > 1)
		return xasprintf("%s, %s, run %lld%s", r->library, r->distro,
				 (long long)r->run, nohw);
	return xasprintf("%s, %s%s", r->library, r->distro, nohw);
}

static int same_curve(const struct row *a, const struct row *b)
{
	return a->run == b->run && strcmp(a->distro, b->distro) == 0 &&
	       strcmp(a->library, b->library) == 0 &&
	       strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

static int same_chart(const struct row *a, const struct row *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

static int load(sqlite3 *db, const struct report_opts *o, struct data *d,
		bo_err *err)
{
	struct results_schema rs;
	sqlite3_stmt *st;
	char *in, *sql;
	size_t i;
	int rc;

	memset(d, 0, sizeof(*d));
	if (results_schema(db, &rs, err) < 0)
		return -2;
	if (o->nruns) {
		d->runs = xcalloc(o->nruns, sizeof(*d->runs));
		memcpy(d->runs, o->runs, o->nruns * sizeof(*d->runs));
		d->nruns = o->nruns;
	} else {
		int64_t latest = report_latest_run(db);

		if (latest < 0)
			return db_fail(db, err);
		if (latest == 0)
			return bo_err_set(err, "no results in the database");
		d->runs = xcalloc(1, sizeof(*d->runs));
		d->runs[0] = latest;
		d->nruns = 1;
	}
	in = sql_in_list("run_id", d->nruns);
	sql = xasprintf("SELECT run_id, distro || coalesce(':' || release, ''),"
			" library, algorithm, operation, buffer_bytes, mb_per_s,"
			" median_ns * 1.0 / calls_per_batch, %s = 'nohw',"
			" host || ': ' || coalesce(cpu_model, 'unknown CPU')"
			" FROM %s"
			" WHERE %s AND %s = 'bulk'"
			" AND (?%zu IS NULL OR algorithm = ?%zu)"
			" ORDER BY algorithm, operation DESC, library, 2, run_id,"
			" buffer_bytes", rs.variant, rs.points_view, in,
			rs.mode, d->nruns + 1, d->nruns + 1);
	free(in);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return db_fail(db, err);
	for (i = 0; i < d->nruns; i++)
		sqlite3_bind_int64(st, (int)i + 1, d->runs[i]);
	if (o->algorithm)
		sqlite3_bind_text(st, (int)d->nruns + 1, o->algorithm, -1,
				  SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct row *r;

		d->rows = xrealloc(d->rows, (d->nrows + 1) * sizeof(*d->rows));
		r = &d->rows[d->nrows++];
		r->run = sqlite3_column_int64(st, 0);
		r->distro = db_column_dup_or_empty(st, 1);
		r->library = db_column_dup_or_empty(st, 2);
		r->algorithm = db_column_dup_or_empty(st, 3);
		r->operation = db_column_dup_or_empty(st, 4);
		r->bytes = sqlite3_column_int64(st, 5);
		r->mbps = sqlite3_column_double(st, 6);
		r->ns_call = sqlite3_column_double(st, 7);
		r->nohw = sqlite3_column_int(st, 8);
		r->cpu = db_column_dup_or_empty(st, 9);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err);
	if (!d->nrows) {
		if (o->algorithm)
			return bo_err_set(err, "no results for algorithm '%s' in the selected runs",
					  o->algorithm);
		return bo_err_set(err, "no results for the selected runs");
	}
	/* the machines, and how many of the runs each has (a run counted at
	 * its first row: seen[] follows the sorted run ids) */
	{
		int64_t *ids = xcalloc(d->nruns, sizeof(*ids));
		char *seen = xcalloc(d->nruns, 1);

		memcpy(ids, d->runs, d->nruns * sizeof(*ids));
		qsort(ids, d->nruns, sizeof(*ids), cmp_i64);
		for (i = 0; i < d->nrows; i++) {
			size_t k = cpu_index(d, d->rows[i].cpu);
			int64_t *at = bsearch(&d->rows[i].run, ids, d->nruns,
					      sizeof(*ids), cmp_i64);

			if (at && !seen[at - ids]) {
				seen[at - ids] = 1;
				d->cpu_runs[k]++;
			}
		}
		free(ids);
		free(seen);
	}
	for (i = 0; i < d->nrows; i++) {
		struct curve *c;

		if (i && same_curve(&d->rows[i - 1], &d->rows[i])) {
			d->curves[d->ncurves - 1].n++;
			continue;
		}
		d->curves = xrealloc(d->curves, (d->ncurves + 1) * sizeof(*d->curves));
		c = &d->curves[d->ncurves++];
		memset(c, 0, sizeof(*c));
		c->first = i;
		c->n = 1;
		c->label = curve_label(d, &d->rows[i]);
	}
	for (i = 0; i < d->ncurves; i++) {
		struct curve *c = &d->curves[i];
		size_t k;

		c->x = xcalloc(c->n, sizeof(double));
		c->y = xcalloc(c->n, sizeof(double));
		for (k = 0; k < c->n; k++) {
			c->x[k] = (double)d->rows[c->first + k].bytes;
			c->y[k] = d->rows[c->first + k].mbps;
		}
	}
	if (sqlite3_prepare_v2(db, "SELECT c.model_name FROM runs r JOIN cpus c"
			       " ON c.id = r.cpu_id WHERE r.id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return db_fail(db, err);
	sqlite3_bind_int64(st, 1, d->runs[0]);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		d->ghz = stats_nominal_ghz((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, err);
	return 0;
}

/* Curves [*first, *end) of the chart starting at curve *first. */
static void chart_range(const struct data *d, size_t first, size_t *end)
{
	size_t i = first + 1;

	while (i < d->ncurves &&
	       same_chart(&d->rows[d->curves[first].first],
			  &d->rows[d->curves[i].first]))
		i++;
	*end = i;
}

static void write_chart(FILE *f, const struct data *d, size_t first,
			size_t end, int standalone)
{
	struct svg_series *s = xcalloc(end - first, sizeof(*s));
	const struct row *r = &d->rows[d->curves[first].first];
	char *title = xasprintf("%s %s", r->algorithm, r->operation);
	char *id = xasprintf("chart-%s-%s", r->algorithm, r->operation);
	struct svg_chart c = { .id = id, .title = title,
			       .xlabel = "buffer size (log scale)",
			       .ylabel = "throughput (MB/s, 10^6 B/s)",
			       .xmin = XMIN, .xmax = XMAX,
			       .nseries = end - first, .series = s };
	size_t i;

	for (i = first; i < end; i++)
		s[i - first] = (struct svg_series){ d->curves[i].label,
						    d->curves[i].n,
						    d->curves[i].x,
						    d->curves[i].y };
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	svg_chart_write(f, &c);
	free(s);
	free(title);
	free(id);
}

int report_write_svg(sqlite3 *db, const struct report_opts *o, FILE *f,
		     bo_err *err)
{
	struct data d;
	size_t end;
	int rc = load(db, o, &d, err);

	if (rc < 0) {
		data_free(&d);
		return rc;
	}
	chart_range(&d, 0, &end);
	write_chart(f, &d, 0, end, 1);
	data_free(&d);
	return 1;
}

static void td(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	svg_escape(f, s);
	fputs("</td>", f);
}

/* Unique libraries among curves [first, end), in first appearance order.
 * *ret gets borrowed pointers; the caller frees the array. */
static size_t uniq_libs(const struct data *d, size_t first, size_t end,
			const char ***ret)
{
	const char **u = xcalloc(end - first + 1, sizeof(*u));
	size_t n = 0, i, k;

	for (i = first; i < end; i++) {
		const char *key = d->rows[d->curves[i].first].library;

		for (k = 0; k < n; k++)
			if (strcmp(u[k], key) == 0)
				break;
		if (k == n)
			u[n++] = key;
	}
	*ret = u;
	return n;
}

static void write_pivot(FILE *f, const struct data *d, size_t first,
			size_t end, int64_t bytes)
{
	const char **libs;
	size_t nl = uniq_libs(d, first, end, &libs), i, k, ri;
	char sz[32], buf[32];

	fprintf(f, "<table class=\"pivot\" data-bytes=\"%lld\"><caption>MB/s at %s"
		"</caption>\n<tr><th>distro</th>", (long long)bytes,
		fmt_size(bytes, sz, sizeof(sz)));
	for (k = 0; k < nl; k++) {
		fputs("<th>", f);
		svg_escape(f, libs[k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	/* one row per (distro, run) in curve order */
	for (i = first; i < end; i++) {
		const struct row *r = &d->rows[d->curves[i].first];
		size_t j;
		int seen = 0;

		for (j = first; j < i && !seen; j++) {
			const struct row *q = &d->rows[d->curves[j].first];

			seen = q->run == r->run && strcmp(q->distro, r->distro) == 0;
		}
		if (seen)
			continue;
		fputs("<tr>", f);
		if (d->nruns > 1 || r->nohw) {
			char *lab = d->nruns > 1 ?
				xasprintf("%s (run %lld)%s", r->distro,
					  (long long)r->run, r->nohw ? " (nohw)" : "") :
				xasprintf("%s (nohw)", r->distro);

			td(f, NULL, lab);
			free(lab);
		} else {
			td(f, NULL, r->distro);
		}
		for (k = 0; k < nl; k++) {
			const char *cell = "\xe2\x80\x94";	/* em dash */

			for (j = first; j < end; j++) {
				const struct curve *c = &d->curves[j];
				const struct row *q = &d->rows[c->first];

				if (q->run != r->run || strcmp(q->distro, r->distro) ||
				    strcmp(q->library, libs[k]))
					continue;
				for (ri = 0; ri < c->n; ri++)
					if (d->rows[c->first + ri].bytes == bytes)
						cell = fmt_mbps(d->rows[c->first + ri].mbps,
								buf, sizeof(buf));
			}
			td(f, "num", cell);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(libs);
}

/* The table at BYTES when runs of several machines are selected: one row
 * per (library, distro), one column per machine ("HOST: CPU"), each cell
 * the MB/s of that machine's latest selected run (the highest run id). */
static void write_pivot_cpus(FILE *f, const struct data *d, size_t first,
			     size_t end, int64_t bytes)
{
	size_t i, j, k, ri;
	char sz[32], buf[32];

	fprintf(f, "<table class=\"pivot cpus\" data-bytes=\"%lld\"><caption>MB/s at %s,"
		" one column per machine (its latest run)</caption>\n<tr><th>library</th>"
		"<th>distro</th>", (long long)bytes, fmt_size(bytes, sz, sizeof(sz)));
	for (k = 0; k < d->ncpus; k++) {
		fputs("<th>", f);
		svg_escape(f, d->cpus[k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = first; i < end; i++) {
		const struct row *r = &d->rows[d->curves[i].first];
		int seen = 0;

		for (j = first; j < i && !seen; j++) {
			const struct row *q = &d->rows[d->curves[j].first];

			seen = q->nohw == r->nohw && strcmp(q->distro, r->distro) == 0 &&
			       strcmp(q->library, r->library) == 0;
		}
		if (seen)
			continue;
		fputs("<tr>", f);
		td(f, NULL, r->library);
		if (r->nohw) {
			char *lab = xasprintf("%s (nohw)", r->distro);

			td(f, NULL, lab);
			free(lab);
		} else {
			td(f, NULL, r->distro);
		}
		for (k = 0; k < d->ncpus; k++) {
			const char *cell = "\xe2\x80\x94";	/* em dash */
			int64_t best = -1;

			for (j = first; j < end; j++) {
				const struct curve *c = &d->curves[j];
				const struct row *q = &d->rows[c->first];

				if (q->nohw != r->nohw || q->run < best ||
				    strcmp(q->cpu, d->cpus[k]) ||
				    strcmp(q->distro, r->distro) ||
				    strcmp(q->library, r->library))
					continue;
				for (ri = 0; ri < c->n; ri++)
					if (d->rows[c->first + ri].bytes == bytes) {
						cell = fmt_mbps(d->rows[c->first + ri].mbps,
								buf, sizeof(buf));
						best = q->run;
					}
			}
			td(f, "num", cell);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Key setup ns per key for curve CV from keysetups_v (schema 2), -1
 * when not measured (hash, older schema), or -2 on a database error. KS
 * may be NULL. */
static double keysetup_ns(sqlite3_stmt *ks, const struct data *d,
			  const struct curve *cv)
{
	const struct row *r = &d->rows[cv->first];
	double v = -1;
	int rc;

	if (!ks)
		return -1;
	sqlite3_reset(ks);
	sqlite3_bind_int64(ks, 1, r->run);
	sqlite3_bind_text(ks, 2, r->distro, -1, SQLITE_STATIC);
	sqlite3_bind_text(ks, 3, r->library, -1, SQLITE_STATIC);
	sqlite3_bind_text(ks, 4, r->algorithm, -1, SQLITE_STATIC);
	sqlite3_bind_text(ks, 5, r->operation, -1, SQLITE_STATIC);
	rc = sqlite3_step(ks);
	if (rc == SQLITE_ROW && sqlite3_column_type(ks, 0) != SQLITE_NULL)
		v = sqlite3_column_double(ks, 0);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		v = -2;
	sqlite3_reset(ks);
	return v;
}

/* The stored fit of curve CV (table curves, schema 5) into *o (ns per
 * call), *s (ns per byte) and *cyc (cycles per byte at the measured clock,
 * -1 when none was measured). Returns 1 when the run has one, 0 when not
 * (an older run, or a schema without curves: FIT is NULL), -1 on a
 * database error. */
static int stored_fit(sqlite3_stmt *fit, const struct data *d,
		      const struct curve *cv, double *o, double *s,
		      double *cyc)
{
	const struct row *r = &d->rows[cv->first];
	int found = 0, rc;

	if (!fit)
		return 0;
	sqlite3_reset(fit);
	sqlite3_bind_int64(fit, 1, r->run);
	sqlite3_bind_text(fit, 2, r->distro, -1, SQLITE_STATIC);
	sqlite3_bind_text(fit, 3, r->library, -1, SQLITE_STATIC);
	sqlite3_bind_text(fit, 4, r->algorithm, -1, SQLITE_STATIC);
	sqlite3_bind_text(fit, 5, r->operation, -1, SQLITE_STATIC);
	rc = sqlite3_step(fit);
	if (rc == SQLITE_ROW) {
		*o = sqlite3_column_double(fit, 0);
		*s = sqlite3_column_double(fit, 1);
		*cyc = sqlite3_column_type(fit, 2) == SQLITE_NULL ? -1 :
		       sqlite3_column_double(fit, 2);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = -1;
	}
	sqlite3_reset(fit);
	return found;
}

/* The table of the fits of curves [FIRST, END) of D. Returns 0, or -2
 * with err set on a database error. */
static int write_fits(FILE *f, sqlite3 *db, const struct data *d,
		      size_t first, size_t end, bo_err *err)
{
	size_t i, k;
	char a[64], b[64], c[64], pk[32], key[64];
	sqlite3_stmt *ks = NULL, *fit = NULL;
	int rc = 0;

	/* KS NULL: a schema without key setups; FIT NULL: without curves */
	if (db_prepare_optional(db, "SELECT min(ns_per_key) FROM keysetups_v"
				" WHERE run_id = ?1 AND distro || coalesce(':' ||"
				" release, '') = ?2 AND library = ?3 AND"
				" algorithm = ?4 AND operation = ?5", &ks) < 0 ||
	    db_prepare_optional(db, "SELECT c.overhead_ns, c.ns_per_byte,"
				" c.cycles_per_byte FROM curves c JOIN invocations inv"
				" ON inv.id = c.invocation_id LEFT JOIN images im ON"
				" im.id = inv.image_id JOIN libraries l ON"
				" l.id = c.library_id WHERE inv.run_id = ?1 AND"
				" im.distro || coalesce(':' || im.release, '') = ?2"
				" AND l.name = ?3 AND c.algorithm = ?4 AND"
				" c.operation = ?5 AND c.mode = 'bulk'", &fit) < 0) {
		sqlite3_finalize(ks);
		return db_fail(db, err);
	}

	fputs("<table class=\"fit\"><caption>Per curve: time per call = start-up"
	      " overhead + bytes &times; cost per byte (least squares, relative"
	      " errors; an overhead that fits below zero is clamped to 0 and the"
	      " cost per byte fitted through the origin)</caption>\n<tr><th>curve</th><th>overhead (ns/call)</th>"
	      "<th>ns/byte</th><th>cycles/byte</th><th>peak MB/s</th>"
	      "<th>key setup (ns/key)</th></tr>\n", f);
	for (i = first; i < end; i++) {
		const struct curve *cv = &d->curves[i];
		double *t = xcalloc(cv->n, sizeof(double)), o, s, cyc, peak = 0;

		for (k = 0; k < cv->n; k++) {
			t[k] = d->rows[cv->first + k].ns_call;
			if (cv->y[k] > peak)
				peak = cv->y[k];
		}
		int stored = stored_fit(fit, d, cv, &o, &s, &cyc);

		if (stored < 0) {
			free(t);
			rc = db_fail(db, err);
			break;
		}
		if (stored) {
			double o2, s2;

			/* stored before overheads were clamped: clamp it now,
			 * the cycles at the same measured clock */
			if (o < 0 && s > 0 &&
			    stats_fit_linear(cv->x, t, cv->n, &o2, &s2) >= 0) {
				cyc = cyc >= 0 ? cyc * s2 / s : cyc;
				o = o2;
				s = s2;
			}
			/* fitted when stored, at the clock the guest measured */
			snprintf(a, sizeof(a), "%.0f", o);
			snprintf(b, sizeof(b), "%.3f", s);
			if (cyc >= 0)
				snprintf(c, sizeof(c), "%.2f", cyc);
			else
				snprintf(c, sizeof(c), "\xe2\x80\x94");
		} else if (stats_fit_linear(cv->x, t, cv->n, &o, &s) >= 0) {
			/* an older run: fitted here, at the nominal clock */
			snprintf(a, sizeof(a), "%.0f", o);
			snprintf(b, sizeof(b), "%.3f", s);
			if (d->ghz > 0)
				snprintf(c, sizeof(c), "%.2f*", s * d->ghz);
			else
				snprintf(c, sizeof(c), "\xe2\x80\x94");
		} else {
			snprintf(a, sizeof(a), "\xe2\x80\x94");
			snprintf(b, sizeof(b), "\xe2\x80\x94");
			snprintf(c, sizeof(c), "\xe2\x80\x94");
		}
		fputs("<tr>", f);
		td(f, NULL, cv->label);
		td(f, "num", a);
		td(f, "num", b);
		td(f, "num", c);
		td(f, "num", fmt_mbps(peak, pk, sizeof(pk)));
		o = keysetup_ns(ks, d, cv);
		if (o == -2) {
			free(t);
			rc = db_fail(db, err);
			break;
		}
		if (o >= 0)
			snprintf(key, sizeof(key), "%.0f", o);
		else
			snprintf(key, sizeof(key), "\xe2\x80\x94");
		td(f, "num", key);
		fputs("</tr>\n", f);
		free(t);
	}
	fputs("</table>\n", f);
	sqlite3_finalize(ks);
	sqlite3_finalize(fit);
	return rc;
}

/* Print the rows of SQL (first parameter bound to each run) as table
 * cells, one <tr> per row. Returns 0, or -2 with err set on a database
 * error (a query naming what an older schema lacks prints nothing:
 * db_prepare_optional). */
static int write_rows(FILE *f, sqlite3 *db, const char *sql,
		      const struct data *d, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int k, rc = SQLITE_DONE;

	k = db_prepare_optional(db, sql, &st);
	if (k <= 0)
		return k < 0 ? db_fail(db, err) : 0;
	for (i = 0; i < d->nruns && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			fputs("<tr>", f);
			for (k = 0; k < sqlite3_column_count(st); k++) {
				const unsigned char *s = sqlite3_column_text(st, k);

				td(f, NULL, s ? (const char *)s : "");
			}
			fputs("</tr>\n", f);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, err);
}

/* How many of the selected runs have an invocation with a measured clock
 * (schema 5); 0 on an older schema, -1 on a database error. */
static long runs_with_clock(sqlite3 *db, const struct data *d)
{
	sqlite3_stmt *st;
	long n = 0;
	size_t i;
	int k = db_prepare_optional(db, "SELECT count(*) FROM invocations WHERE"
				    " run_id = ?1 AND clock_start_hz IS NOT NULL",
				    &st);

	if (k <= 0)
		return k;
	for (i = 0; i < d->nruns && n >= 0; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[i]);
		if (sqlite3_step(st) != SQLITE_ROW)
			n = -1;
		else if (sqlite3_column_int64(st, 0) > 0)
			n++;
	}
	sqlite3_finalize(st);
	return n;
}

/* The Runs table's rows: the runs' identity (SQL, as write_rows), then
 * the seed and rounds, the CPU state of the guests' CPU and its
 * warnings (runstate.h; "not recorded" for runs without). Returns 0, or
 * -2 with err set on a database error. */
static int write_runs(FILE *f, sqlite3 *db, const struct data *d,
		      bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int k, rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT r.id, r.uuid, r.host, r.started_at,"
			       " r.status, CASE r.quick WHEN 1 THEN 'yes' ELSE"
			       " 'no' END, coalesce(c.model_name, ''),"
			       " coalesce(c.microcode, ''), r.kernel FROM runs r"
			       " LEFT JOIN cpus c ON c.id = r.cpu_id WHERE"
			       " r.id = ?1", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err);
	for (i = 0; i < d->nruns; i++) {
		struct run_state rs;
		char *cpu, *order;

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[i]);
		k = sqlite3_step(st);
		if (k == SQLITE_DONE)
			continue;
		if (k != SQLITE_ROW) {
			rc = db_fail(db, err);
			break;
		}
		if (run_state_read(db, d->runs[i], &rs, err) < 0) {
			rc = -2;
			break;
		}
		fputs("<tr>", f);
		for (k = 0; k < sqlite3_column_count(st); k++) {
			const unsigned char *t = sqlite3_column_text(st, k);

			td(f, NULL, t ? (const char *)t : "");
		}
		order = rs.seeded ? xasprintf("seed %llu, %zu round%s",
					      (unsigned long long)rs.seed,
					      rs.rounds, rs.rounds == 1 ? "" : "s") :
				    xstrdup("not recorded");
		cpu = run_state_cpu(&rs);
		td(f, NULL, order);
		td(f, NULL, cpu);
		td(f, rs.warnings ? "warn" : NULL, rs.warnings ? rs.warnings : "none");
		fputs("</tr>\n", f);
		free(order);
		free(cpu);
		run_state_release(&rs);
	}
	sqlite3_finalize(st);
	return rc;
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:72em}"
	"table{border-collapse:collapse;margin:.6em 0 1.2em}"
	"td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"td.warn{color:#a00;white-space:pre-line}"
	"caption{text-align:left;font-weight:bold;padding:.3em 0}"
	"section{margin-bottom:2em}"
	"svg{max-width:100%;height:auto}"
	".heatmaps{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
	"table.heatmap td.num{min-width:4em}"
	"table.heatmap th{font-weight:normal}"
	".legend span{padding:.1em .6em}";

/* The libraries that failed (could not be loaded, crashed, hung) in the
 * runs of D, one list item each (lib-faults.c); nothing when none did.
 * Returns 0, or -2 with err set on a database error. */
static int write_lib_faults(FILE *f, sqlite3 *db, const struct data *d,
			    bo_err *err)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);
	long n = 0;

	if (!m)
		return 0;
	for (i = 0; i < d->nruns && n >= 0; i++) {
		long k = lib_faults_print(m, db, d->runs[i], "");

		n = k < 0 ? -1 : n + k;
	}
	fclose(m);
	if (n < 0) {
		free(buf);
		return db_fail(db, err);
	}
	if (n > 0) {
		fputs("<p class=\"faults\">Libraries that failed: no results from"
		      " them in that invocation; the other libraries' are"
		      " kept.</p>\n<ul class=\"faults\">\n", f);
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			fputs("<li>", f);
			svg_escape(f, line);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	free(buf);
	return 0;
}

int report_write_html(sqlite3 *db, const struct report_opts *o, FILE *f,
		      bo_err *err)
{
	struct data d;
	size_t i, end, ncharts = 0;
	int64_t bytes = o->table_bytes ? o->table_bytes : 16384;
	char now[32], sz[32];
	long nclock;
	int rc = load(db, o, &d, err);

	if (rc < 0) {
		data_free(&d);
		return rc;
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>benchorch report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>benchorch report</h1>\n<p>Generated %s by benchorch %s. Throughput"
		" in MB/s (10<sup>6</sup> bytes per second) at the median of the"
		" repetitions, bulk mode (one keyed context reused), hardware"
		" acceleration as the library chose it; buffer sizes in binary"
		" units. Tables at %s.</p>\n",
		style, bo_utc_now(now, sizeof(now)), PACKAGE_VERSION,
		fmt_size(bytes, sz, sizeof(sz)));
	if (report_write_overview(f, db, d.runs, d.nruns, o->algorithm, err) < 0) {
		data_free(&d);
		return -2;
	}
	fputs("<section id=\"runs\"><h2>Runs</h2>\n<table><tr><th>run</th><th>uuid</th>"
	      "<th>host</th><th>started</th><th>status</th><th>quick</th><th>CPU</th>"
	      "<th>microcode</th><th>kernel</th><th>order</th><th>CPU state</th>"
	      "<th>CPU warnings</th></tr>\n", f);
	if (write_runs(f, db, &d, err) < 0) {
		data_free(&d);
		return -2;
	}
	fputs("</table>\n", f);
	if (write_lib_faults(f, db, &d, err) < 0) {
		data_free(&d);
		return -2;
	}
	fputs("<p>CPU state: the cpufreq scaling governor, turbo/boost and scaling"
	      " frequency (before -&gt; after the run) of the CPU the guests were"
	      " pinned to, and the hypervisor; unknown where the kernel does not"
	      " show it. The order (rounds, distributions, libraries and"
	      " algorithms) was drawn from the seed.</p>\n", f);
	nclock = runs_with_clock(db, &d);
	if (nclock < 0) {
		data_free(&d);
		return db_fail(db, err);
	}
	if (nclock > 0) {
		fputs("<table class=\"clocks\"><caption>Per guest invocation: the core"
		      " clock the guest measured on its CPU at start and end, the"
		      " invariant TSC's rate, the time from hello to done by the"
		      " guest's clock and by the host's, and the points whose"
		      " spread (over all their sets) was above the guest's limit"
		      "</caption>\n<tr><th>run</th><th>distro</th><th>clock at start"
		      " (GHz)</th><th>clock at end (GHz)</th><th>TSC (GHz)</th>"
		      "<th>guest (s)</th><th>host (s)</th><th>noisy points</th></tr>\n",
		      f);
		if (write_rows(f, db, "SELECT inv.run_id, coalesce(im.distro || ':' ||"
			   " im.release, inv.spec), printf('%.3f', inv.clock_start_hz / 1e9),"
			   " printf('%.3f', inv.clock_end_hz / 1e9), CASE WHEN inv.tsc_hz"
			   " IS NULL THEN 'none' ELSE printf('%.3f', inv.tsc_hz / 1e9) END,"
			   " printf('%.3f', inv.guest_elapsed_ns / 1e9), CASE WHEN"
			   " inv.host_elapsed_ns IS NULL THEN '' ELSE printf('%.3f',"
			   " inv.host_elapsed_ns / 1e9) END,"
			   " (SELECT count(*) FROM results r WHERE r.invocation_id = inv.id"
			   "  AND r.noisy = 1) || ' of ' || (SELECT count(*) FROM results r"
			   "  WHERE r.invocation_id = inv.id)"
			   " FROM invocations inv LEFT JOIN images im ON im.id = inv.image_id"
			   " WHERE inv.run_id = ?1 AND inv.clock_start_hz IS NOT NULL"
			   " ORDER BY 2", &d, err) < 0) {
			data_free(&d);
			return -2;
		}
		fputs("</table>\n", f);
		fputs("<p>Cycles per byte: the fitted cost per byte times the core clock"
		      " the guest measured on its CPU (the mean of its start and end"
		      " measurements above).", f);
	} else {
		fputs("<p>Cycles per byte:", f);
	}
	if (nclock < (long)d.nruns && d.ghz > 0)
		fprintf(f, " %s runs stored before the guest measured its clock"
			" use the nominal clock stated in the CPU model name"
			" (%.2f GHz) instead, marked *; turbo and power states make"
			" the real clock differ from it.</p>\n",
			nclock > 0 ? "The" : "these", d.ghz);
	else if (nclock < (long)d.nruns)
		fprintf(f, " %s runs stored before the guest measured its clock"
			" have none, and the CPU model name states no clock either:"
			" not shown for them.</p>\n", nclock > 0 ? "The" : "these");
	else
		fputs("</p>\n", f);
	fputs("</section>\n", f);
	for (i = 0; i < d.ncurves; i = end) {
		const struct row *r = &d.rows[d.curves[i].first];

		chart_range(&d, i, &end);
		fputs("<section class=\"algo\" data-algorithm=\"", f);
		svg_escape(f, r->algorithm);
		fputs("\" data-operation=\"", f);
		svg_escape(f, r->operation);
		fputs("\">\n<h2>", f);
		svg_escape(f, r->algorithm);
		fputc(' ', f);
		svg_escape(f, r->operation);
		fputs("</h2>\n", f);
		write_chart(f, &d, i, end, 0);
		if (d.ncpus > 1)
			write_pivot_cpus(f, &d, i, end, bytes);
		else
			write_pivot(f, &d, i, end, bytes);
		if (write_fits(f, db, &d, i, end, err) < 0) {
			data_free(&d);
			return -2;
		}
		fputs("</section>\n", f);
		ncharts++;
	}
	if (report_write_tools(f, db, err) < 0 ||
	    report_write_resources(f, db, d.runs, d.nruns, err) < 0) {
		data_free(&d);
		return -2;
	}
	fputs("<section id=\"versions\"><h2>Libraries and packages</h2>\n<table>"
	      "<tr><th>run</th><th>distro</th><th>image</th><th>library</th>"
	      "<th>version</th><th>path</th><th>package</th><th>package version</th>"
	      "</tr>\n", f);
	rc = write_rows(f, db, "SELECT DISTINCT run_id, distro || coalesce(':' || release, ''),"
			" substr(image_digest, 1, 19), library, library_version, library_path,"
			" package, package_version FROM results_v WHERE run_id = ?1"
			" ORDER BY 2, 4", &d, err);
	if (rc < 0) {
		data_free(&d);
		return rc;
	}
	fputs("</table>\n</section>\n</body>\n</html>\n", f);
	data_free(&d);
	return (int)ncharts;
}
