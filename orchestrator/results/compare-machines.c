/* compare-machines.c - one column per machine (host and CPU). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/latest.h"
#include "db/db.h"
#include "orchestrator/results/compare-machines.h"
#include "lib/format.h"
#include "orchestrator/results/report-fmt.h"

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s ? (const char *)s : "");
}

void compare_machines_free(struct machines_cmp *c)
{
	size_t i;

	for (i = 0; i < c->nm; i++) {
		free(c->m[i].host);
		free(c->m[i].cpu);
	}
	for (i = 0; i < c->nrows; i++) {
		free(c->rows[i].distro);
		free(c->rows[i].library);
		free(c->rows[i].algorithm);
		free(c->rows[i].operation);
		free(c->rows[i].mbps);
	}
	free(c->m);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

/* Add run RUN of HOST and CPU: a new machine, or a later run of one. */
static void add_run(struct machines_cmp *c, int64_t run, const char *host,
		    const char *cpu)
{
	size_t i;

	for (i = 0; i < c->nm; i++)
		if (strcmp(c->m[i].host, host) == 0 && strcmp(c->m[i].cpu, cpu) == 0) {
			if (run > c->m[i].run)
				c->m[i].run = run;
			return;
		}
	c->m = xrealloc(c->m, (c->nm + 1) * sizeof(*c->m));
	c->m[c->nm].host = xstrdup(host);
	c->m[c->nm].cpu = xstrdup(cpu);
	c->m[c->nm].run = run;
	c->nm++;
}

static int cmp_machine(const void *a, const void *b)
{
	int64_t x = ((const struct machine *)a)->run, y = ((const struct machine *)b)->run;

	return (x > y) - (x < y);
}

/* Fill c->m from RUNS, or with the latest run of each machine. */
static int load_machines(sqlite3 *db, const int64_t *runs, size_t nruns,
			 struct machines_cmp *c, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (!nruns) {
		/* a machine's answer is its latest finished library run
		 * (latest_runs_v) */
		char *cond = db_finished_runs_sql(db, DB_RUN_LIBRARY);
		char *sql;

		if (!cond)
			return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sql = xasprintf("SELECT max(run_id), host,"
				" coalesce(cpu_model, 'unknown CPU')"
				" FROM results_v WHERE %s GROUP BY 2, 3", cond);
		rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		free(sql);
		free(cond);
		if (rc != SQLITE_OK)
			return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			char *h = col(st, 1), *cpu = col(st, 2);

			add_run(c, sqlite3_column_int64(st, 0), h, cpu);
			free(h);
			free(cpu);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		if (!c->nm)
			return bo_err_set(err, "no results in the database");
	} else {
		if (sqlite3_prepare_v2(db, "SELECT r.host, coalesce(c.model_name,"
				       " 'unknown CPU') FROM runs r LEFT JOIN cpus c"
				       " ON c.id = r.cpu_id WHERE r.id = ?1", -1, &st,
				       NULL) != SQLITE_OK)
			return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		for (i = 0; i < nruns; i++) {
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, runs[i]);
			rc = sqlite3_step(st);
			if (rc != SQLITE_ROW) {
				if (rc == SQLITE_DONE)
					bo_err_set(err, "run %lld does not exist",
						   (long long)runs[i]);
				else
					bo_err_set(err, "database error: %s",
						   sqlite3_errmsg(db));
				sqlite3_finalize(st);
				return -1;
			} else {
				char *h = col(st, 0), *cpu = col(st, 1);

				add_run(c, runs[i], h, cpu);
				free(h);
				free(cpu);
			}
		}
		sqlite3_finalize(st);
	}
	qsort(c->m, c->nm, sizeof(*c->m), cmp_machine);
	return 0;
}

int compare_machines(sqlite3 *db, const int64_t *runs, size_t nruns,
		     int64_t bytes, struct machines_cmp *ret, bo_err *err)
{
	struct machines_cmp c = { .bytes = bytes };
	struct results_schema rs;
	sqlite3_stmt *st;
	char *in, *sql;
	size_t i;
	int rc;

	if (load_machines(db, runs, nruns, &c, err) < 0 ||
	    results_schema(db, &rs, err) < 0) {
		compare_machines_free(&c);
		return -1;
	}
	in = sql_in_list("run_id", c.nm);
	sql = xasprintf("SELECT distro || coalesce(':' || release, '') ||"
			" CASE WHEN %s = 'nohw' THEN ' (nohw)' ELSE '' END,"
			" library, algorithm, operation, run_id, mb_per_s"
			" FROM %s WHERE %s AND %s = 'bulk' AND buffer_bytes = ?%zu"
			" ORDER BY algorithm, operation DESC, library, 1, run_id",
			rs.variant, rs.points_view, in, rs.mode, c.nm + 1);
	free(in);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		compare_machines_free(&c);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	for (i = 0; i < c.nm; i++)
		sqlite3_bind_int64(st, (int)i + 1, c.m[i].run);
	sqlite3_bind_int64(st, (int)c.nm + 1, bytes);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(st, 0);
		const char *l = (const char *)sqlite3_column_text(st, 1);
		const char *a = (const char *)sqlite3_column_text(st, 2);
		const char *o = (const char *)sqlite3_column_text(st, 3);
		int64_t run = sqlite3_column_int64(st, 4);
		struct machines_row *r = c.nrows ? &c.rows[c.nrows - 1] : NULL;
		size_t k;

		if (!d || !l || !a || !o)
			continue;
		if (!r || strcmp(r->distro, d) || strcmp(r->library, l) ||
		    strcmp(r->algorithm, a) || strcmp(r->operation, o)) {
			c.rows = xrealloc(c.rows, (c.nrows + 1) * sizeof(*c.rows));
			r = &c.rows[c.nrows++];
			r->distro = xstrdup(d);
			r->library = xstrdup(l);
			r->algorithm = xstrdup(a);
			r->operation = xstrdup(o);
			r->mbps = xmalloc(c.nm * sizeof(double));
			for (k = 0; k < c.nm; k++)
				r->mbps[k] = -1;
		}
		for (k = 0; k < c.nm; k++)
			if (c.m[k].run == run)
				r->mbps[k] = sqlite3_column_double(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		compare_machines_free(&c);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	if (!c.nrows) {
		char sz[32];

		/* the machines stay: the caller names their runs' sizes */
		*ret = c;
		bo_err_set(err, "no results at %s in the selected runs",
			   fmt_size(bytes, sz, sizeof(sz)));
		return -2;
	}
	*ret = c;
	return 0;
}

static void print_json(FILE *f, const struct machines_cmp *c)
{
	json_t *o = json_object(), *ms = json_array(), *rows = json_array();
	size_t i, k;

	for (i = 0; i < c->nm; i++)
		json_array_append_new(ms, json_pack("{s:s, s:s, s:I}", "host",
						    c->m[i].host, "cpu", c->m[i].cpu,
						    "run", (json_int_t)c->m[i].run));
	for (i = 0; i < c->nrows; i++) {
		const struct machines_row *r = &c->rows[i];
		json_t *v = json_array();

		for (k = 0; k < c->nm; k++)
			json_array_append_new(v, r->mbps[k] < 0 ? json_null() :
					      json_real(r->mbps[k]));
		json_array_append_new(rows, json_pack("{s:s, s:s, s:s, s:s, s:o}",
						      "distro", r->distro, "library",
						      r->library, "algorithm", r->algorithm,
						      "operation", r->operation,
						      "mb_per_s", v));
	}
	json_object_set_new(o, "bytes", json_integer(c->bytes));
	json_object_set_new(o, "machines", ms);
	json_object_set_new(o, "rows", rows);
	json_dumpf(o, f, JSON_INDENT(2) | FORMAT_JSON_REAL);
	fputc('\n', f);
	json_decref(o);
}

void compare_machines_print(FILE *f, const struct machines_cmp *c,
			    enum format fmt)
{
	size_t i, k, ncol = 4 + c->nm;
	char sz[32], buf[32];

	if (fmt == FORMAT_JSON) {
		print_json(f, c);
		return;
	}
	if (fmt == FORMAT_CSV) {
		fputs("algorithm,operation,library,distro", f);
		for (i = 0; i < c->nm; i++) {
			char *h = xasprintf("%s: %s (run %lld)", c->m[i].host,
					    c->m[i].cpu, (long long)c->m[i].run);

			fputc(',', f);
			format_csv_field(f, h);
			free(h);
		}
		fputc('\n', f);
		for (i = 0; i < c->nrows; i++) {
			const struct machines_row *r = &c->rows[i];

			format_csv_field(f, r->algorithm);
			fputc(',', f);
			format_csv_field(f, r->operation);
			fputc(',', f);
			format_csv_field(f, r->library);
			fputc(',', f);
			format_csv_field(f, r->distro);
			for (k = 0; k < c->nm; k++) {
				fputc(',', f);
				if (r->mbps[k] >= 0)
					fprintf(f, "%.15g", r->mbps[k]);
			}
			fputc('\n', f);
		}
		return;
	}
	fprintf(f, "MB/s at %s, one column per machine:\n",
		fmt_size(c->bytes, sz, sizeof(sz)));
	for (i = 0; i < c->nm; i++)
		fprintf(f, "  %s: %s, run %lld\n", c->m[i].host, c->m[i].cpu,
			(long long)c->m[i].run);
	{
		const char **hdr = xcalloc(ncol, sizeof(*hdr)), **row;
		int *right = xcalloc(ncol, sizeof(int));
		struct tbl t;

		hdr[0] = "algorithm";
		hdr[1] = "operation";
		hdr[2] = "library";
		hdr[3] = "distro";
		for (i = 0; i < c->nm; i++) {
			hdr[4 + i] = c->m[i].host;
			right[4 + i] = 1;
		}
		tbl_init(&t, ncol, hdr, right);
		row = xcalloc(ncol, sizeof(*row));
		for (i = 0; i < c->nrows; i++) {
			const struct machines_row *r = &c->rows[i];
			char **cells = xcalloc(c->nm, sizeof(char *));

			row[0] = r->algorithm;
			row[1] = r->operation;
			row[2] = r->library;
			row[3] = r->distro;
			for (k = 0; k < c->nm; k++) {
				cells[k] = xstrdup(r->mbps[k] < 0 ? "-" :
						   fmt_mbps(r->mbps[k], buf, sizeof(buf)));
				row[4 + k] = cells[k];
			}
			tbl_add(&t, row);
			for (k = 0; k < c->nm; k++)
				free(cells[k]);
			free(cells);
		}
		tbl_print(&t, f);
		tbl_free(&t);
		free(row);
		free(hdr);
		free(right);
	}
}
