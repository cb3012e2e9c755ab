/* report-tables.c - the report's tables: throughput per library at one
 * size, and the fits of each curve (see report-data.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "lib/stats.h"
#include "orchestrator/results/report-data.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/svg.h"

void report_td(FILE *f, const char *cls, const char *s)
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

void report_write_pivot(FILE *f, const struct data *d, size_t first,
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

			report_td(f, NULL, lab);
			free(lab);
		} else {
			report_td(f, NULL, r->distro);
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
			report_td(f, "num", cell);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(libs);
}

/* The table at BYTES when runs of several machines are selected: one row
 * per (library, distro), one column per machine ("HOST: CPU"), each cell
 * the MB/s of that machine's latest selected run (the highest run id). */
void report_write_pivot_cpus(FILE *f, const struct data *d, size_t first,
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
		report_td(f, NULL, r->library);
		if (r->nohw) {
			char *lab = xasprintf("%s (nohw)", r->distro);

			report_td(f, NULL, lab);
			free(lab);
		} else {
			report_td(f, NULL, r->distro);
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
			report_td(f, "num", cell);
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

/* The run's stored fit of curve CV (table curves, schema 5: one fit per
 * invocation) into *o (ns per call), *s (ns per byte) and *cyc (cycles
 * per byte at the measured clock, -1 when none was measured): the mean of
 * the fits of the run's invocations that measured the curve (same
 * distribution, library, algorithm, operation, bulk mode and variant),
 * as `benchorch results` shows it (results-points.c). Returns 1 when the run has one, 0 when not
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
	sqlite3_bind_text(fit, 6, r->nohw ? "nohw" : "hw", -1, SQLITE_STATIC);
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
int report_write_fits(FILE *f, sqlite3 *db, const struct data *d,
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
	    db_prepare_optional(db, "SELECT avg(c.overhead_ns), avg(c.ns_per_byte),"
				" avg(c.cycles_per_byte) FROM curves c JOIN invocations inv"
				" ON inv.id = c.invocation_id LEFT JOIN images im ON"
				" im.id = inv.image_id JOIN libraries l ON"
				" l.id = c.library_id WHERE inv.run_id = ?1 AND"
				" im.distro || coalesce(':' || im.release, '') = ?2"
				" AND l.name = ?3 AND c.algorithm = ?4 AND"
				" c.operation = ?5 AND c.mode = 'bulk' AND"
				" inv.variant = ?6 HAVING count(*) > 0", &fit) < 0) {
		sqlite3_finalize(ks);
		return report_db_fail(db, err);
	}

	fputs("<table class=\"fit\"><caption>Per curve: time per call = start-up"
	      " overhead + bytes &times; cost per byte (least squares, relative"
	      " errors; an overhead that fits below zero is clamped to 0 and the"
	      " cost per byte fitted through the origin)</caption>\n<tr><th>curve</th><th>overhead (ns/call)</th>"
	      "<th>ns/byte</th><th>slope cyc/B</th><th>peak MB/s</th>"
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
			rc = report_db_fail(db, err);
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
		report_td(f, NULL, cv->label);
		report_td(f, "num", a);
		report_td(f, "num", b);
		report_td(f, "num", c);
		report_td(f, "num", fmt_mbps(peak, pk, sizeof(pk)));
		o = keysetup_ns(ks, d, cv);
		if (o == -2) {
			free(t);
			rc = report_db_fail(db, err);
			break;
		}
		if (o >= 0)
			snprintf(key, sizeof(key), "%.0f", o);
		else
			snprintf(key, sizeof(key), "\xe2\x80\x94");
		report_td(f, "num", key);
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
int report_write_rows(FILE *f, sqlite3 *db, const char *sql,
		      const struct data *d, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int k, rc = SQLITE_DONE;

	k = db_prepare_optional(db, sql, &st);
	if (k <= 0)
		return k < 0 ? report_db_fail(db, err) : 0;
	for (i = 0; i < d->nruns && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			fputs("<tr>", f);
			for (k = 0; k < sqlite3_column_count(st); k++) {
				const unsigned char *s = sqlite3_column_text(st, k);

				report_td(f, NULL, s ? (const char *)s : "");
			}
			fputs("</tr>\n", f);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : report_db_fail(db, err);
}
