/* fastest.c - rank the libraries per run, distribution and algorithm at
 * 16 KiB and 16 B, and measure how far one library moves between
 * distributions. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/fastest.h"
#include "orchestrator/results/report-fmt.h"
#include "lib/stats.h"

/* 1 when DB has the noisy flag and the measured clock (schema 5), 0
 * when not, -1 on a database error. */
static int has_schema5(sqlite3 *db)
{
	sqlite3_stmt *st;
	int k = db_prepare_optional(db, "SELECT r.noisy, i.clock_start_hz FROM"
				    " results r, invocations i LIMIT 0", &st);

	sqlite3_finalize(st);
	return k;
}

static int cmp_lib(const void *pa, const void *pb)
{
	const struct fastest_lib *a = pa, *b = pb;

	if (a->large_mbps != b->large_mbps)
		return a->large_mbps < b->large_mbps ? 1 : -1;
	return strcmp(a->library, b->library);
}

/* The group for (RUN, DISTRO, ALGO) at the end of T, appended when the
 * last one is another. */
static struct fastest_group *group_for(struct fastest_table *t, int64_t run,
				       const char *distro, const char *algo,
				       const char *op)
{
	struct fastest_group *g = t->ngroups ? &t->groups[t->ngroups - 1] :
				  NULL;

	if (g && g->run_id == run && strcmp(g->distro, distro) == 0 &&
	    strcmp(g->algorithm, algo) == 0)
		return g;
	if (!g || g->run_id != run || strcmp(g->distro, distro) != 0)
		t->ndistros++;
	t->groups = xrealloc(t->groups, (t->ngroups + 1) * sizeof(*t->groups));
	g = &t->groups[t->ngroups++];
	memset(g, 0, sizeof(*g));
	g->run_id = run;
	g->distro = xstrdup(distro);
	g->algorithm = xstrdup(algo);
	g->operation = xstrdup(op);
	return g;
}

static struct fastest_lib *lib_for(struct fastest_group *g, const char *lib,
				   const char *version)
{
	struct fastest_lib *l;
	size_t i;

	for (i = 0; i < g->nlibs; i++)
		if (strcmp(g->libs[i].library, lib) == 0)
			return &g->libs[i];
	g->libs = xrealloc(g->libs, (g->nlibs + 1) * sizeof(*g->libs));
	l = &g->libs[g->nlibs++];
	memset(l, 0, sizeof(*l));
	l->library = xstrdup(lib);
	l->version = fastest_short_version(version);
	l->large_mbps = l->small_mbps = l->large_cpb = -1;
	return l;
}

long fastest_load(sqlite3 *db, const int64_t *runs, size_t nruns,
		  struct fastest_table *t, bo_err *err)
{
	int s5 = has_schema5(db), pv;
	struct results_schema rs;
	char *in, *sql;
	sqlite3_stmt *st;
	size_t i;
	int rc;

	memset(t, 0, sizeof(*t));
	if (s5 < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (results_schema(db, &rs, err) < 0)
		return -1;
	/* one row per point, folded over the run's invocations (its clock
	 * that of the representative invocation's, see points_v) */
	pv = strcmp(rs.points_view, "points_v") == 0;
	in = sql_in_list("v.run_id", nruns ? nruns : 1);
	sql = xasprintf(
		"SELECT v.run_id, v.distro || coalesce(':' || v.release, ''),"
		" v.algorithm, v.operation, %s, v.library_version,"
		" v.buffer_bytes, v.mb_per_s, %s, v.verified, %s, v.cpu_model"
		" FROM %s v%s WHERE %s AND %s = 'bulk'"
		" AND v.buffer_bytes IN (%d, %d)"
		" AND v.operation IN ('encrypt', 'hash')"
		" ORDER BY v.run_id, 2, v.algorithm, 5",
		/* a build's rows as "LIBRARY@NAME", a library of their
		 * own (run --builds) */
		rs.library_label,
		!s5 ? "NULL" : pv ? "v.noisy" : "r.noisy",
		s5 ? "CASE WHEN inv.clock_start_hz > 0 AND inv.clock_end_hz > 0"
		     " THEN (inv.clock_start_hz + inv.clock_end_hz) / 2.0 END" :
		     "NULL",
		rs.points_view,
		s5 ? " JOIN results r ON r.id = v.result_id JOIN invocations inv"
		     " ON inv.id = r.invocation_id" : "",
		in, strcmp(rs.mode, "mode") == 0 ? "v.mode" : rs.mode,
		FASTEST_SMALL, FASTEST_LARGE);
	free(in);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	for (i = 0; i < nruns; i++)
		sqlite3_bind_int64(st, (int)i + 1, runs[i]);
	if (!nruns)
		sqlite3_bind_null(st, 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *distro = db_column_dup_or_empty(st, 1), *algo = db_column_dup_or_empty(st, 2);
		char *op = db_column_dup_or_empty(st, 3), *lib = db_column_dup_or_empty(st, 4);
		const unsigned char *ver = sqlite3_column_text(st, 5);
		struct fastest_group *g = group_for(t, sqlite3_column_int64(st, 0),
						    distro, algo, op);
		struct fastest_lib *l = lib_for(g, lib, (const char *)ver);
		int64_t bytes = sqlite3_column_int64(st, 6);
		double mbps = sqlite3_column_double(st, 7);
		int noisy = sqlite3_column_int(st, 8) == 1;
		int unverified = sqlite3_column_int(st, 9) == 0;

		if (bytes == FASTEST_LARGE && mbps > l->large_mbps) {
			l->large_mbps = mbps;
			l->large_noisy = noisy;
			l->large_unverified = unverified;
			if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
				l->large_cpb = sqlite3_column_double(st, 10) /
					       (mbps * 1e6);
				l->cpb_nominal = 0;
			} else {
				const unsigned char *m = sqlite3_column_text(st, 11);
				double ghz = m ? stats_nominal_ghz((const char *)m) : 0;

				l->large_cpb = ghz > 0 ? ghz * 1e3 / mbps : -1;
				l->cpb_nominal = ghz > 0;
			}
		} else if (bytes == FASTEST_SMALL && mbps > l->small_mbps) {
			l->small_mbps = mbps;
			l->small_noisy = noisy;
			l->small_unverified = unverified;
		}
		free(distro);
		free(algo);
		free(op);
		free(lib);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fastest_release(t);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	for (i = 0; i < t->ngroups; i++)
		qsort(t->groups[i].libs, t->groups[i].nlibs,
		      sizeof(*t->groups[i].libs), cmp_lib);
	if (fastest_mark_ties(db, t, err) < 0) {
		fastest_release(t);
		return -1;
	}
	return (long)t->ngroups;
}

void fastest_release(struct fastest_table *t)
{
	size_t i, k;

	for (i = 0; i < t->ngroups; i++) {
		struct fastest_group *g = &t->groups[i];

		for (k = 0; k < g->nlibs; k++) {
			free(g->libs[k].library);
			free(g->libs[k].version);
		}
		free(g->libs);
		free(g->distro);
		free(g->algorithm);
		free(g->operation);
	}
	free(t->groups);
	memset(t, 0, sizeof(*t));
}

const struct fastest_lib *fastest_small_leader(const struct fastest_group *g)
{
	const struct fastest_lib *best = NULL;
	size_t i;

	for (i = 0; i < g->nlibs; i++)
		if (g->libs[i].small_mbps > 0 &&
		    (!best || g->libs[i].small_mbps > best->small_mbps))
			best = &g->libs[i];
	return best;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

/* Is NAME already among the N spreads of run RUN? */
static int seen_lib(const struct fastest_spread *v, size_t n, int64_t run,
		    const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].run_id == run && strcmp(v[i].library, name) == 0)
			return 1;
	return 0;
}

static int cmp_spread(const void *pa, const void *pb)
{
	const struct fastest_spread *a = pa, *b = pb;

	if (a->run_id != b->run_id)
		return a->run_id < b->run_id ? -1 : 1;
	return strcmp(a->library, b->library);
}

/* The spread of library LIB in run RUN over T's algorithms into *s.
 * Returns 1 when some algorithm has it in two distributions or more. */
static int spread_of(const struct fastest_table *t, int64_t run,
		     const char *lib, struct fastest_spread *s)
{
	double *pct = xcalloc(t->ngroups + 1, sizeof(*pct));
	size_t n = 0, i, j, k;

	memset(s, 0, sizeof(*s));
	s->library = lib;
	s->run_id = run;
	s->max_pct = -1;
	/* for each algorithm (its first group in the run), every
	 * distribution's MB/s of LIB */
	for (i = 0; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];
		const char *fast = NULL, *slow = NULL;
		double hi = -1, lo = -1;
		size_t nd = 0;
		int first = 1;

		if (g->run_id != run)
			continue;
		for (j = 0; j < i && first; j++)
			first = !(t->groups[j].run_id == run &&
				  strcmp(t->groups[j].algorithm, g->algorithm) == 0);
		if (!first)
			continue;
		for (j = i; j < t->ngroups; j++) {
			const struct fastest_group *h = &t->groups[j];

			if (h->run_id != run || strcmp(h->algorithm, g->algorithm))
				continue;
			for (k = 0; k < h->nlibs; k++) {
				double v = h->libs[k].large_mbps;

				if (strcmp(h->libs[k].library, lib) || v <= 0)
					continue;
				nd++;
				if (v > hi) {
					hi = v;
					fast = h->distro;
				}
				if (lo < 0 || v < lo) {
					lo = v;
					slow = h->distro;
				}
			}
		}
		if (nd < 2)
			continue;
		pct[n] = (hi / lo - 1) * 100;
		if (pct[n] > s->max_pct) {
			s->max_pct = pct[n];
			s->max_algorithm = g->algorithm;
			s->max_fast = fast;
			s->max_slow = slow;
		}
		n++;
	}
	if (n) {
		qsort(pct, n, sizeof(*pct), cmp_double);
		s->median_pct = n % 2 ? pct[n / 2] :
				(pct[n / 2 - 1] + pct[n / 2]) / 2;
	}
	s->nalgos = n;
	free(pct);
	return n > 0;
}

size_t fastest_spreads(const struct fastest_table *t,
		       struct fastest_spread **ret)
{
	struct fastest_spread *v = NULL, s;
	size_t n = 0, i, k;

	for (i = 0; i < t->ngroups; i++) {
		const struct fastest_group *g = &t->groups[i];

		for (k = 0; k < g->nlibs; k++) {
			if (seen_lib(v, n, g->run_id, g->libs[k].library))
				continue;
			if (!spread_of(t, g->run_id, g->libs[k].library, &s))
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = s;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_spread);
	*ret = v;
	return n;
}

char *fastest_short_version(const char *full)
{
	const char *p = full;

	if (!full)
		return xstrdup("");
	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len && isdigit((unsigned char)*p) && memchr(p, '.', len)) {
			while (len > 1 && !isalnum((unsigned char)p[len - 1]))
				len--;
			return xasprintf("%.*s", (int)len, p);
		}
		p += len;
	}
	return xasprintf("%.12s", full);
}
