/* report-data.c - the points a report draws, read once (see
 * report-data.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/latest.h"
#include "db/db.h"
#include "lib/stats.h"
#include "orchestrator/results/ops-load.h"
#include "orchestrator/results/report-data.h"
#include "orchestrator/results/report-fmt.h"

int report_db_fail(sqlite3 *db, bo_err *err)
{
	bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return -2;
}

void report_data_free(struct data *d)
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

int report_same_chart(const struct row *a, const struct row *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

/* The runs O selects into D (o->runs, else the latest finished library
 * run of DB).
 * Returns 0, or -1/-2 with err set as report_data_load. */
static int select_runs(sqlite3 *db, const struct report_opts *o,
		       struct data *d, bo_err *err)
{
	int64_t latest;

	if (o->nruns) {
		d->runs = xcalloc(o->nruns, sizeof(*d->runs));
		memcpy(d->runs, o->runs, o->nruns * sizeof(*d->runs));
		d->nruns = o->nruns;
		return 0;
	}
	latest = db_latest_run(db, DB_RUN_LIBRARY);
	if (latest < 0)
		return report_db_fail(db, err);
	if (latest == 0)
		return bo_err_set(err, "no results in the database");
	d->runs = xcalloc(1, sizeof(*d->runs));
	d->runs[0] = latest;
	d->nruns = 1;
	return 0;
}

/* Read the bulk points of D's runs (O's algorithm only, when set) from
 * DB, in the schema RS names, into d->rows. Returns 0, or -1/-2 with err
 * set as report_data_load. */
static int read_rows(sqlite3 *db, const struct report_opts *o,
		     const struct results_schema *rs, struct data *d,
		     bo_err *err)
{
	sqlite3_stmt *st;
	char *in, *sql;
	size_t i;
	int rc;

	in = sql_in_list("run_id", d->nruns);
	sql = xasprintf("SELECT run_id, distro || coalesce(':' || release, ''),"
			" library, algorithm, operation, buffer_bytes, mb_per_s,"
			" median_ns * 1.0 / calls_per_batch, %s = 'nohw',"
			" host || ': ' || coalesce(cpu_model, 'unknown CPU')"
			" FROM %s"
			" WHERE %s AND %s = 'bulk'"
			" AND (?%zu IS NULL OR algorithm = ?%zu)"
			" ORDER BY algorithm, operation DESC, library, 2, run_id,"
			" buffer_bytes", rs->variant, rs->points_view, in,
			rs->mode, d->nruns + 1, d->nruns + 1);
	free(in);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return report_db_fail(db, err);
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
		return report_db_fail(db, err);
	if (!d->nrows) {
		long k = o->algorithm ? 0 : ops_runs_count(db, d->runs,
							  d->nruns, err);

		/* public-key or key derivation results alone: the report
		 * has their sections and none of the symmetric ones */
		if (k != 0)
			return k < 0 ? -2 : 0;
		if (o->algorithm)
			return bo_err_set(err, "no results for algorithm '%s' in the selected runs",
					  o->algorithm);
		return bo_err_set(err, "no results for the selected runs");
	}
	return 0;
}

/* The machines of D's rows, and how many of the runs each has (a run
 * counted at its first row: seen[] follows the sorted run ids). */
static void count_machines(struct data *d)
{
	int64_t *ids = xcalloc(d->nruns, sizeof(*ids));
	char *seen = xcalloc(d->nruns, 1);
	size_t i;

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

/* Group D's rows into curves, each with its label and its points (x:
 * bytes, y: MB/s). */
static void make_curves(struct data *d)
{
	size_t i, k;

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

		c->x = xcalloc(c->n, sizeof(double));
		c->y = xcalloc(c->n, sizeof(double));
		for (k = 0; k < c->n; k++) {
			c->x[k] = (double)d->rows[c->first + k].bytes;
			c->y[k] = d->rows[c->first + k].mbps;
		}
	}
}

/* d->ghz: the nominal clock (GHz) the CPU model name of D's first run
 * states (0 when none). Returns 0, or -2 with err set. */
static int read_ghz(sqlite3 *db, struct data *d, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT c.model_name FROM runs r JOIN cpus c"
			       " ON c.id = r.cpu_id WHERE r.id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return report_db_fail(db, err);
	sqlite3_bind_int64(st, 1, d->runs[0]);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		d->ghz = stats_nominal_ghz((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return report_db_fail(db, err);
	return 0;
}

int report_data_load(sqlite3 *db, const struct report_opts *o,
		     struct data *d, bo_err *err)
{
	struct results_schema rs;
	int rc;

	memset(d, 0, sizeof(*d));
	if (results_schema(db, &rs, err) < 0)
		return -2;
	rc = select_runs(db, o, d, err);
	if (rc == 0)
		rc = read_rows(db, o, &rs, d, err);
	if (rc < 0)
		return rc;
	count_machines(d);
	make_curves(d);
	return read_ghz(db, d, err);
}
