/* verdict-load.c - read what the verdict engine judges: points, history,
 * canaries, package changes and caveats. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/verdict-load.h"

/* ?1 run, ?2 image (0: all); %1$s the variant column ("inv.variant",
 * "'hw'" before schema 2, or "'*'"), %2$s the mode column, %3$s and %4$s
 * the clocks (NULL before schema 5), %6$s the canary's time around the
 * point's curve in its invocation (NULL before schema 8), %7$s
 * cols.shipped (the shipped libraries only). */
static const char side_fmt[] =
	"SELECT im.distro || ':' || im.release, l.name, r.algorithm,"
	" r.operation, %2$s, %1$s, r.buffer_bytes, inv.id, inv.run_id, '',"
	" r.bytes_per_batch, r.median_ns, %3$s, %4$s,"
	" l.package, l.package_version, %6$s"
	" FROM results r JOIN invocations inv ON inv.id = r.invocation_id"
	" JOIN images im ON im.id = inv.image_id"
	" JOIN libraries l ON l.id = r.library_id%7$s"
	" WHERE inv.run_id = ?1 AND (?2 = 0 OR inv.image_id = ?2)%5$s";

/* Schema 8 and later: leave out a curve's points of an invocation whose
 * canary moved around it when another invocation of the same run, image
 * and variant measured the curve with a canary that did not move: the
 * disturbed measurement is replaced by the undisturbed one, as the guest
 * replaces a sweep it measured again. A curve whose every invocation of a
 * side moved keeps them all and is flagged (vload_moved_canaries). */
static const char side_quiet[] =
	" AND NOT EXISTS (SELECT 1 FROM canaries c"
	"  WHERE c.invocation_id = inv.id AND c.library_id = r.library_id"
	"  AND c.algorithm = r.algorithm AND c.operation = r.operation"
	"  AND c.mode = %1$s AND c.moved = 1"
	"  AND EXISTS (SELECT 1 FROM canaries c2"
	"   JOIN invocations i2 ON i2.id = c2.invocation_id"
	"   WHERE i2.run_id = inv.run_id AND i2.image_id IS inv.image_id"
	"   AND %2$s = %3$s"
	"   AND c2.library_id = c.library_id AND c2.algorithm = c.algorithm"
	"   AND c2.operation = c.operation AND c2.mode = c.mode"
	"   AND c2.moved = 0))";

/* ?1 base run, ?2 new run; the same columns, with the run's start. The
 * history is the newest %2$d runs on the CPU of the base run, with its
 * quick flag, finished (done, or failed with results), started no later
 * than the new run, other than the new run (and other than the base run
 * when both sides are one run), and not confirmation runs (%7$s): one of
 * those measures two images of a distribution, old and new packages
 * mixed, and would make a real change look like noise; nor, when the new
 * run is a confirmation, the run it confirms (the change itself). %9$s
 * is cols.shipped. */
static const char history_fmt[] =
	"WITH hist AS (SELECT id FROM runs h"
	"  WHERE h.cpu_id IS (SELECT cpu_id FROM runs WHERE id = ?1)"
	"  AND h.quick = (SELECT quick FROM runs WHERE id = ?1)"
	"  AND h.id <> ?2 AND (?1 <> ?2 OR h.id <> ?1)"
	"  AND h.status IN ('done', 'failed')"
	"  AND h.started_at <= (SELECT started_at FROM runs WHERE id = ?2)%7$s"
	"  ORDER BY h.started_at DESC, h.id DESC LIMIT %2$d)"
	" SELECT im.distro || ':' || im.release, l.name, r.algorithm,"
	" r.operation, %3$s, %1$s, r.buffer_bytes, inv.id, inv.run_id,"
	" ru.started_at, r.bytes_per_batch, r.median_ns, %4$s,"
	" %5$s, l.package, l.package_version, %8$s"
	" FROM hist JOIN runs ru ON ru.id = hist.id"
	" JOIN invocations inv ON inv.run_id = ru.id"
	" JOIN results r ON r.invocation_id = inv.id"
	" JOIN images im ON im.id = inv.image_id"
	" JOIN libraries l ON l.id = r.library_id%9$s%6$s";

/* The column expressions of this schema: variant, mode, clocks, the
 * canary (the mean of its medians before and after the curve's sweep,
 * ns); canaries: 1 when the schema has them (schema 8). */
struct cols {
	const char *variant, *mode, *clock0, *clock1, *canary;
	int canaries;
	/* the join's condition that keeps the shipped libraries only
	 * (schema 20): a build measured with run --builds is judged beside
	 * its shipped library in its own run, not against other runs */
	const char *shipped;
};

/* Fill *C for DB's schema (older schemas lack some columns and tables).
 * Returns 0, or -1 with err set when the schema cannot be read. */
static int schema_cols(sqlite3 *db, int any_variant, struct cols *c,
		       bo_err *err)
{
	int v2 = db_has_column(db, "invocations", "variant");
	int v5 = db_has_column(db, "invocations", "clock_start_hz");
	int can = db_has(db, "canaries");
	int builds = db_has_column(db, "libraries", "build_ref");

	if (v2 < 0 || v5 < 0 || can < 0 || builds < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	*c = (struct cols){
		any_variant ? "'*'" : v2 ? "inv.variant" : "'hw'",
		v2 ? "r.mode" : "'bulk'",
		v5 ? "inv.clock_start_hz" : "NULL",
		v5 ? "inv.clock_end_hz" : "NULL",
		can ?
		"(SELECT (cy.before_ns + cy.after_ns) / 2.0 FROM canaries cy"
		" WHERE cy.invocation_id = inv.id AND cy.library_id = r.library_id"
		" AND cy.algorithm = r.algorithm AND cy.operation = r.operation"
		" AND cy.mode = r.mode)" : "NULL",
		can,
		builds ? " AND l.build_ref IS NULL" : "",
	};
	return 0;
}

int vrow_key_cmp(const struct vrow *a, const struct vrow *b)
{
	int k, c;

	for (k = 0; k < VK_N; k++)
		if ((c = strcmp(a->k[k], b->k[k])) != 0)
			return c;
	return 0;
}

static int cmp_side(const void *x, const void *y)
{
	const struct vrow *a = x, *b = y;
	int c = vrow_key_cmp(a, b);

	if (c)
		return c;
	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	return a->inv < b->inv ? -1 : a->inv > b->inv;
}

/* curve, newest run first, then size and invocation */
static int cmp_history(const void *x, const void *y)
{
	const struct vrow *a = x, *b = y;
	int c = vrow_key_cmp(a, b);

	if (c)
		return c;
	if ((c = strcmp(b->started, a->started)) != 0)
		return c;
	if (a->run != b->run)
		return a->run > b->run ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	return a->inv < b->inv ? -1 : a->inv > b->inv;
}

static int load_rows(sqlite3 *db, const char *sql, int64_t a, int64_t b,
		     struct vrows *ret, bo_err *err)
{
	sqlite3_stmt *st;
	int rc, k;

	memset(ret, 0, sizeof(*ret));
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct vrow *r;
		double ns = sqlite3_column_double(st, 11);
		double bpb = sqlite3_column_double(st, 10);
		double c0 = sqlite3_column_double(st, 12);
		double c1 = sqlite3_column_double(st, 13);
		double can = sqlite3_column_double(st, 16);	/* NULL: 0 */

		if (ns <= 0 || bpb <= 0)
			continue;
		ret->v = xrealloc(ret->v, (ret->n + 1) * sizeof(*ret->v));
		r = &ret->v[ret->n++];
		for (k = 0; k < VK_N; k++)
			r->k[k] = db_column_dup_or_empty(st, k);
		r->bytes = sqlite3_column_int64(st, 6);
		r->inv = sqlite3_column_int64(st, 7);
		r->run = sqlite3_column_int64(st, 8);
		r->started = db_column_dup_or_empty(st, 9);
		r->logthr = log(bpb * 1e3 / ns);
		r->clock_hz = c0 > 0 && c1 > 0 ? (c0 + c1) / 2 : 0;
		r->package = db_column_dup_or_empty(st, 14);
		r->version = db_column_dup_or_empty(st, 15);
		r->logcan = can > 0 ? log(can) : NAN;
	}
	if (rc != SQLITE_DONE)
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		vrows_free(ret);
		return -1;
	}
	return 0;
}

int vload_side(sqlite3 *db, struct verdict_sel sel, int any_variant,
	       struct vrows *ret, bo_err *err)
{
	struct cols c;
	char *quiet, *sql;
	int rc;

	memset(ret, 0, sizeof(*ret));
	if (schema_cols(db, any_variant, &c, err) < 0)
		return -1;
	quiet = c.canaries ? xasprintf(side_quiet, c.mode, "i2.variant",
				       "inv.variant") : xstrdup("");
	sql = xasprintf(side_fmt, c.variant, c.mode, c.clock0, c.clock1,
			quiet, c.canary, c.shipped);
	rc = load_rows(db, sql, sel.run, sel.image, ret, err);

	free(sql);
	free(quiet);
	if (rc == 0 && ret->n)
		qsort(ret->v, ret->n, sizeof(*ret->v), cmp_side);
	return rc;
}

int vload_history(sqlite3 *db, struct verdict_sel base, struct verdict_sel new,
		  int any_variant, struct vrows *ret, bo_err *err)
{
	struct cols c;
	char *bv = NULL, *filter, *sql;
	int confirms, rc;

	memset(ret, 0, sizeof(*ret));
	if (schema_cols(db, any_variant, &c, err) < 0)
		return -1;
	/* sides of other variants: the history is the base's variant's */
	if (!any_variant)
		bv = xstrdup("");
	else if (vload_variants(db, base, &bv, err) < 0)
		return -1;
	/* schema 12 and later: leave out the confirmation runs, and when
	 * NEW is one, the run it confirms: that run holds the change being
	 * confirmed, which its history would count as noise */
	confirms = db_has(db, "confirmations");
	if (confirms < 0) {
		free(bv);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	filter = *bv ? xasprintf(" WHERE inv.variant = '%s'",
				 strcmp(bv, "nohw") == 0 ? "nohw" : "hw") :
		       xstrdup("");
	/* a few more runs than a curve uses: some may measure other distros
	 * or carry another package version */
	sql = xasprintf(history_fmt, c.variant, 4 * VERDICT_HISTORY_RUNS,
			c.mode, c.clock0, c.clock1, filter, confirms ?
			" AND h.id NOT IN (SELECT run_id FROM confirmations)"
			" AND h.id NOT IN (SELECT confirmed_run_id FROM"
			"  confirmations WHERE run_id = ?2 AND"
			"  confirmed_run_id IS NOT NULL)" : "", c.canary,
			c.shipped);
	rc = load_rows(db, sql, base.run, new.run, ret, err);

	free(sql);
	free(filter);
	free(bv);
	if (rc == 0 && ret->n)
		qsort(ret->v, ret->n, sizeof(*ret->v), cmp_history);
	return rc;
}

void vrows_free(struct vrows *r)
{
	size_t i;
	int k;

	for (i = 0; i < r->n; i++) {
		for (k = 0; k < VK_N; k++)
			free(r->v[i].k[k]);
		free(r->v[i].started);
		free(r->v[i].package);
		free(r->v[i].version);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int vload_moved_canaries(sqlite3 *db, struct verdict_sel sel,
			 int any_variant, char ***ret, size_t *ret_n,
			 bo_err *err)
{
	/* moved in every invocation of the side that measured it (one
	 * that did not move replaces the others: vload_side) */
	char *sql;
	sqlite3_stmt *st;
	char **v = NULL;
	size_t n = 0;
	int rc;

	*ret = NULL;
	*ret_n = 0;
	rc = db_has(db, "canaries");
	if (rc == 0)
		return 0;	/* a schema before canaries */
	if (rc < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sql = xasprintf("SELECT im.distro || ':' || im.release"
			      " || '|' || l.name || '|' || c.algorithm || '|' ||"
			      " c.operation || '|' || c.mode || '|' || %s AS k"
			      " FROM canaries c JOIN invocations inv"
			      " ON inv.id = c.invocation_id"
			      " JOIN images im ON im.id = inv.image_id"
			      " JOIN libraries l ON l.id = c.library_id"
			      " WHERE inv.run_id = ?1"
			      " AND (?2 = 0 OR inv.image_id = ?2)"
			      " GROUP BY k HAVING min(c.moved) = 1",
			      any_variant ? "'*'" : "inv.variant");
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, sel.run);
	sqlite3_bind_int64(st, 2, sel.image);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = db_column_dup_or_empty(st, 0);
	}
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		while (n)
			free(v[--n]);
		free(v);
		return -1;
	}
	sqlite3_finalize(st);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*ret = v;
	*ret_n = n;
	return 0;
}

int vload_variants(sqlite3 *db, struct verdict_sel sel, char **ret,
		   bo_err *err)
{
	sqlite3_stmt *st;
	struct cols c;
	char *v, *sql;
	int rc;

	*ret = NULL;
	if (schema_cols(db, 0, &c, err) < 0)
		return -1;
	sql = xasprintf("SELECT DISTINCT %s FROM invocations inv"
			" WHERE inv.run_id = ?1 AND (?2 = 0 OR inv.image_id = ?2)"
			" AND EXISTS (SELECT 1 FROM results r"
			"  WHERE r.invocation_id = inv.id) ORDER BY 1",
			c.variant);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, sel.run);
	sqlite3_bind_int64(st, 2, sel.image);
	v = xstrdup("");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *one = (const char *)sqlite3_column_text(st, 0);
		char *joined = xasprintf("%s%s%s", v, *v ? "," : "", one ? one : "");

		free(v);
		v = joined;
	}
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		free(v);
		return -1;
	}
	sqlite3_finalize(st);
	*ret = v;
	return 0;
}

void verdict_add_caveat(struct verdict_result *r, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	size_t n;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* the summary ends each caveat itself */
	n = strlen(buf);
	while (n && buf[n - 1] == '.')
		buf[--n] = '\0';
	r->caveats = xrealloc(r->caveats, (r->ncaveats + 1) * sizeof(*r->caveats));
	r->caveats[r->ncaveats++] = xstrdup(buf);
}

/* The first column of the first row of the query SQL (?1 run, ?2 image)
 * as an owned string in *RET, "" when there is no row (or it is NULL).
 * Returns 0, or -1 with err set (and *RET NULL) on a database error. */
static int query_text(sqlite3 *db, const char *sql, struct verdict_sel sel,
		      char **ret, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	*ret = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, sel.run);
	sqlite3_bind_int64(st, 2, sel.image);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*ret = db_column_dup_or_empty(st, 0);
	else if (rc == SQLITE_DONE)
		*ret = xstrdup("");
	else
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return *ret ? 0 : -1;
}

/* The value of option OPT ("--min-batch-ms") in command line CMD, or
 * "default" (owned). */
static char *option_value(const char *cmd, const char *opt)
{
	char *v = bo_cmdline_option(cmd, opt);

	return v ? v : xstrdup("default");
}

static void caveat_pair(struct verdict_result *r, const char *what,
			const char *b, const char *n)
{
	if (strcmp(b, n) != 0)
		verdict_add_caveat(r, "the runs differ in %s (base %s, new %s)",
				   what, *b ? b : "-", *n ? n : "-");
}

int vload_caveats(sqlite3 *db, struct verdict_result *r,
		  const char *base_variants, const char *new_variants,
		  bo_err *err)
{
	static const char quick_sql[] =
		"SELECT CASE quick WHEN 1 THEN 'quick' ELSE 'full' END"
		" FROM runs WHERE id = ?1";
	static const char reps_sql[] =
		"SELECT group_concat(x, ',') FROM (SELECT DISTINCT r.repetitions AS x"
		" FROM results r JOIN invocations inv ON inv.id = r.invocation_id"
		" WHERE inv.run_id = ?1 AND (?2 = 0 OR inv.image_id = ?2) ORDER BY 1)";
	static const char cmd_sql[] = "SELECT command_line FROM runs WHERE id = ?1";
	static const char cpu_sql[] =
		"SELECT coalesce(c.model_name, '') || ' (' || coalesce(c.microcode, '')"
		" || ')' FROM runs ru LEFT JOIN cpus c ON c.id = ru.cpu_id WHERE ru.id = ?1";
	static const char warn_sql[] =
		"SELECT coalesce(cpu_warnings, '') FROM runs WHERE id = ?1";
	const char *sqls[] = { quick_sql, reps_sql, cpu_sql };
	const char *what[] = { "--quick", "repetitions per point", "CPU" };
	struct verdict_sel sides[2] = { r->base, r->new };
	char *b, *n, *cb, *cn;
	size_t i;
	int k;

	for (i = 0; i < 3; i++) {
		if (query_text(db, sqls[i], r->base, &b, err) < 0)
			return -1;
		if (query_text(db, sqls[i], r->new, &n, err) < 0) {
			free(b);
			return -1;
		}
		caveat_pair(r, what[i], b, n);
		free(b);
		free(n);
	}
	if (query_text(db, cmd_sql, r->base, &cb, err) < 0)
		return -1;
	if (query_text(db, cmd_sql, r->new, &cn, err) < 0) {
		free(cb);
		return -1;
	}
	b = option_value(cb, "--min-batch-ms");
	n = option_value(cn, "--min-batch-ms");
	caveat_pair(r, "batch length (--min-batch-ms)", b, n);
	free(b);
	free(n);
	free(cb);
	free(cn);
	caveat_pair(r, "variants", base_variants, new_variants);
	/* libraries measured taking turns (the run has
	 * pairs, schema 16) or one after the other */
	k = db_has_column(db, "pairs", "tie");
	if (k < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (k) {
		static const char il_sql[] =
			"SELECT CASE WHEN EXISTS (SELECT 1 FROM pairs p JOIN"
			" invocations inv ON inv.id = p.invocation_id WHERE"
			" inv.run_id = ?1 AND (?2 = 0 OR inv.image_id = ?2))"
			" THEN 'taking turns'"
			" ELSE 'one after the other, --sequential' END";

		if (query_text(db, il_sql, r->base, &b, err) < 0)
			return -1;
		if (query_text(db, il_sql, r->new, &n, err) < 0) {
			free(b);
			return -1;
		}
		caveat_pair(r, "how the libraries were measured", b, n);
		free(b);
		free(n);
	}
	/* a schema before the CPU's state (schema 4) has no warnings */
	k = db_has_column(db, "runs", "cpu_warnings");
	if (k < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	for (i = 0; k && i < 2; i++) {
		char *w;

		if (i == 1 && sides[1].run == sides[0].run)
			break;
		if (query_text(db, warn_sql, sides[i], &w, err) < 0)
			return -1;
		if (*w) {
			size_t len = strcspn(w, "\n");

			verdict_add_caveat(r, "run %lld was measured with a CPU warning: %.*s",
					   (long long)sides[i].run, (int)len, w);
		}
		free(w);
	}
	return 0;
}

int vload_check_sel(sqlite3 *db, struct verdict_sel sel, bo_err *err)
{
	sqlite3_stmt *st;
	int found;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE id = ?1 AND (?2 = 0"
			       " OR EXISTS (SELECT 1 FROM invocations WHERE"
			       " run_id = ?1 AND image_id = ?2))", -1, &st,
			       NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, sel.run);
	sqlite3_bind_int64(st, 2, sel.image);
	found = sqlite3_step(st);
	if (found != SQLITE_ROW && found != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	found = found == SQLITE_ROW;
	sqlite3_finalize(st);
	if (!found && sel.image)
		bo_err_set(err, "no image '%lld' in run '%lld'",
			   (long long)sel.image, (long long)sel.run);
	else if (!found)
		bo_err_set(err, "no run '%lld' in the database",
			   (long long)sel.run);
	return found ? 0 : -2;
}
