/* results-builds.c - `benchorch results --builds` (see results-builds.h). */
#include "config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/build-pairs.h"
#include "orchestrator/results/results-builds.h"

/* The runs F selects into *RET (*RET_N; the caller frees *RET): F's own,
 * every run, or the latest run with a build paired with its shipped
 * library among the finished runs (an aborted or failed one only by
 * --run). Returns 0, or -1 with err set. */
static int select_runs(sqlite3 *db, const struct builds_filter *f,
		       int64_t **ret, size_t *ret_n, bo_err *err)
{
	const char *sql = f->all ?
		"SELECT DISTINCT inv.run_id FROM pairs p JOIN invocations inv"
		" ON inv.id = p.invocation_id JOIN libraries l"
		" ON l.id = p.library_id WHERE l.build_ref IS NOT NULL"
		" ORDER BY 1" :
		"SELECT max(inv.run_id) FROM pairs p JOIN invocations inv"
		" ON inv.id = p.invocation_id JOIN libraries l"
		" ON l.id = p.library_id JOIN runs r ON r.id = inv.run_id"
		" WHERE l.build_ref IS NOT NULL AND r.status = 'done'";
	sqlite3_stmt *st;
	int rc;

	*ret = NULL;
	*ret_n = 0;
	if (f->nruns && !f->all) {
		*ret = xcalloc(f->nruns, sizeof(**ret));
		memcpy(*ret, f->runs, f->nruns * sizeof(**ret));
		*ret_n = f->nruns;
		return 0;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;
		*ret = xrealloc(*ret, (*ret_n + 1) * sizeof(**ret));
		(*ret)[(*ret_n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ret);
		*ret = NULL;
		*ret_n = 0;
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	return 0;
}

/* Whether R passes F's distribution, library, algorithm and operation. */
static int wanted(const struct build_ratio *r, const struct builds_filter *f)
{
	if (f->distro) {
		size_t n = strlen(f->distro);

		if (strcmp(r->distro, f->distro) != 0 &&
		    !(strncmp(r->distro, f->distro, n) == 0 &&
		      r->distro[n] == ':'))
			return 0;
	}
	return (!f->lib || strcmp(r->library, f->lib) == 0) &&
	       (!f->algo || strcmp(r->algorithm, f->algo) == 0) &&
	       (!f->op || strcmp(r->operation, f->op) == 0);
}

static void print_csv(FILE *out, const struct build_ratio *v, size_t n)
{
	fputs("run_id,distro,variant,library,build,compiler,cflags,algorithm,"
	      "operation,mode,buffer_bytes,ratio,low,high,coverage,tie,"
	      "invocations\r\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct build_ratio *r = &v[i];
		const char *s[] = { r->distro, r->variant, r->library,
				    r->build, r->compiler, r->cflags,
				    r->algorithm, r->operation, r->mode };

		fprintf(out, "%lld", (long long)r->run_id);
		for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
			fputc(',', out);
			format_csv_field(out, s[k]);
		}
		fprintf(out, ",%lld,%.15g,%.15g,%.15g,%.15g,%d,%d\r\n",
			(long long)r->buffer_bytes, r->ratio, r->low, r->high,
			r->coverage, r->tie, r->invocations);
	}
}

static void print_json(FILE *out, const struct build_ratio *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		const struct build_ratio *r = &v[i];

		json_array_append_new(a, json_pack(
			"{sI ss ss ss ss ss ss ss ss ss sI sf sf sf sf sb si}",
			"run_id", (json_int_t)r->run_id, "distro", r->distro,
			"variant", r->variant, "library", r->library,
			"build", r->build, "compiler", r->compiler,
			"cflags", r->cflags, "algorithm", r->algorithm,
			"operation", r->operation, "mode", r->mode,
			"buffer_bytes", (json_int_t)r->buffer_bytes,
			"ratio", r->ratio, "low", r->low, "high", r->high,
			"coverage", r->coverage, "tie", r->tie,
			"invocations", r->invocations));
	}
	json_dumpf(a, out, JSON_INDENT(2) | FORMAT_JSON_REAL);
	fputc('\n', out);
	json_decref(a);
}

/* Does R belong to the block of B (run, distribution, variant,
 * library)? */
static int same_block(const struct build_ratio *b, const struct build_ratio *r)
{
	return r->run_id == b->run_id && strcmp(r->distro, b->distro) == 0 &&
	       strcmp(r->variant, b->variant) == 0 &&
	       strcmp(r->library, b->library) == 0;
}

/* Is R in the row of A (algorithm, operation, mode)? */
static int same_row(const struct build_ratio *a, const struct build_ratio *r)
{
	return strcmp(r->algorithm, a->algorithm) == 0 &&
	       strcmp(r->operation, a->operation) == 0 &&
	       strcmp(r->mode, a->mode) == 0;
}

/* One block of the table: V[0 .. N-1], one library's. */
static void print_block(FILE *out, const struct build_ratio *v, size_t n)
{
	const char *cols[16];
	size_t nc = 0, wa = strlen("algorithm"), wo = strlen("operation");
	int wc = (int)strlen("0.00 (0.00..0.00)") + 2;

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < nc && strcmp(cols[k], v[i].build) != 0)
			k++;
		if (k == nc && nc < sizeof(cols) / sizeof(cols[0]))
			cols[nc++] = v[i].build;
		if (strlen(v[i].algorithm) > wa)
			wa = strlen(v[i].algorithm);
		if (strlen(v[i].operation) > wo)
			wo = strlen(v[i].operation);
	}
	fprintf(out, "run %lld, %s%s%s, %s at %lld B: each build's throughput"
		" as a fraction of the shipped %s's (interval)\n",
		(long long)v[0].run_id, v[0].distro,
		strcmp(v[0].variant, "hw") ? " " : "",
		strcmp(v[0].variant, "hw") ? v[0].variant : "", v[0].library,
		(long long)v[0].buffer_bytes, v[0].library);
	for (size_t k = 0; k < nc; k++)
		for (size_t i = 0; i < n; i++)
			if (v[i].build == cols[k] ||
			    strcmp(v[i].build, cols[k]) == 0) {
				fprintf(out, "  %s: %s %s\n", cols[k],
					v[i].compiler, v[i].cflags);
				break;
			}
	fprintf(out, "  %-*s  %-*s  %-7s", (int)wa, "algorithm", (int)wo,
		"operation", "mode");
	for (size_t k = 0; k < nc; k++) {
		int w = (int)strlen(cols[k]) > wc ? (int)strlen(cols[k]) : wc;

		fprintf(out, "  %*s", w, cols[k]);
	}
	fputc('\n', out);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		fprintf(out, "  %-*s  %-*s  %-7s", (int)wa, v[i].algorithm,
			(int)wo, v[i].operation, v[i].mode);
		for (size_t k = 0; k < nc; k++) {
			int w = (int)strlen(cols[k]) > wc ?
				(int)strlen(cols[k]) : wc;
			char cell[64] = "-";

			for (size_t m = i; m < n && same_row(&v[i], &v[m]); m++)
				if (strcmp(v[m].build, cols[k]) == 0)
					snprintf(cell, sizeof(cell),
						 "%s%.2f (%.2f..%.2f)",
						 v[m].tie ? "= " : "",
						 v[m].ratio, v[m].low,
						 v[m].high);
			fprintf(out, "  %*s", w, cell);
		}
		fputc('\n', out);
		while (j < n && same_row(&v[i], &v[j]))
			j++;
		i = j;
	}
}

static void print_table(FILE *out, const struct build_ratio *v, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && same_block(&v[i], &v[j]))
			j++;
		if (i > 0)
			fputc('\n', out);
		print_block(out, &v[i], j - i);
		i = j;
	}
	if (n > 0)
		fputs("\n= the interval holds 1: the build and the shipped "
		      "library are not told apart\n", out);
}

long results_builds(FILE *out, sqlite3 *db, const struct builds_filter *f,
		    enum format fmt, bo_err *err)
{
	struct build_ratio *all = NULL, *v;
	size_t n_all = 0, n = 0, nruns = 0;
	int64_t *runs = NULL;
	int64_t bytes = f->bytes ? f->bytes :
			fmt == FORMAT_TABLE ? 16384 : 0;

	switch (db_has(db, "builds")) {
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	case 1:
		if (select_runs(db, f, &runs, &nruns, err) < 0 ||
		    build_ratios_load(db, runs, nruns, bytes, &all, &n_all,
				      err) < 0) {
			free(runs);
			return -1;
		}
	}
	free(runs);
	v = xcalloc(n_all ? n_all : 1, sizeof(*v));
	for (size_t i = 0; i < n_all; i++) {
		/* a table fits a screen: bulk, and encryption and hashing
		 * unless --op says which */
		if (fmt == FORMAT_TABLE &&
		    (strcmp(all[i].mode, "bulk") != 0 ||
		     (!f->op && strcmp(all[i].operation, "decrypt") == 0)))
			continue;
		if (wanted(&all[i], f))
			v[n++] = all[i];
	}
	if (fmt == FORMAT_CSV)
		print_csv(out, v, n);
	else if (fmt == FORMAT_JSON)
		print_json(out, v, n);
	else
		print_table(out, v, n);
	free(v);	/* its entries are all's */
	build_ratios_free(all, n_all);
	return (long)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

long results_builds_line(FILE *out, sqlite3 *db, int64_t run_id,
			 bo_err *err)
{
	struct build_ratio *all = NULL, *v;
	size_t n_all = 0, n = 0;
	long builds = 0;
	double *ratios;

	switch (db_has(db, "builds")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	if (build_ratios_load(db, &run_id, 1, 16384, &all, &n_all, err) < 0)
		return -1;
	/* bulk encryption and hashing, as the summary's */
	v = xcalloc(n_all ? n_all : 1, sizeof(*v));
	for (size_t i = 0; i < n_all; i++)
		if (strcmp(all[i].mode, "bulk") == 0 &&
		    strcmp(all[i].operation, "decrypt") != 0)
			v[n++] = all[i];
	ratios = xcalloc(n ? n : 1, sizeof(*ratios));
	/* v is ordered by distribution and library, then point, then
	 * build: each build of a library gathered in one pass */
	for (size_t i = 0; i < n; i++) {
		size_t nr = 0, slower = 0, same = 0, faster = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = same_block(&v[j], &v[i]) &&
			       strcmp(v[j].build, v[i].build) == 0;
		if (seen)
			continue;
		for (size_t j = i; j < n && same_block(&v[i], &v[j]); j++) {
			const struct build_ratio *r = &v[j];

			if (strcmp(r->build, v[i].build) != 0)
				continue;
			ratios[nr++] = r->ratio;
			if (r->tie)
				same++;
			else if (r->high < 1)
				slower++;
			else
				faster++;
		}
		qsort(ratios, nr, sizeof(*ratios), cmp_double);
		fprintf(out, "benchorch: run %lld: build %s@%s (%s): %.2f of the"
			" shipped library's throughput at 16 KiB (the median"
			" over %zu algorithm%s, bulk encryption and hashing):"
			" %zu slower, %zu same, %zu faster; `benchorch results"
			" --builds --run %lld` shows them\n", (long long)run_id,
			v[i].library, v[i].build, v[i].distro,
			nr % 2 ? ratios[nr / 2] :
			(ratios[nr / 2 - 1] + ratios[nr / 2]) / 2, nr,
			nr == 1 ? "" : "s", slower,
			same, faster, (long long)run_id);
		builds++;
	}
	free(ratios);
	free(v);	/* its entries are all's */
	build_ratios_free(all, n_all);
	return builds;
}
