/* confirm-summary.c - print a confirmation run, previous beside new. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "orchestrator/run/confirm-summary.h"

/* ?1 = run. Every result of the curves asked for, tagged "before" (1) or
 * "again" (0), sorted so that a point's rows are adjacent. Before: the
 * previous image's, measured in this run beside the new one; for a
 * distribution without a previous image, the confirmed run's own (the
 * curves were measured once more in the image it measured). Column 8:
 * the run the before side comes from, 0 = this run's previous image, -1
 * = a run the database no longer holds. */
static const char points_sql[] =
"SELECT im.distro || ':' || im.release, l.name, r.algorithm, r.operation,"
" r.mode, r.buffer_bytes,"
" CASE WHEN inv.image_id IS c.previous_image_id THEN 1 ELSE 0 END,"
" r.mb_per_s, CASE WHEN c.previous_image_id IS NULL"
"  THEN coalesce(c.confirmed_run_id, -1) ELSE 0 END"
" FROM results r JOIN invocations inv ON inv.id = r.invocation_id"
" JOIN images im ON im.id = inv.image_id"
" JOIN libraries l ON l.id = r.library_id"
" JOIN confirmations c ON c.run_id = inv.run_id AND c.distro = im.distro"
"  AND c.release = im.release"
" WHERE inv.run_id = ?1 AND inv.status = 'ok' AND EXISTS (SELECT 1"
"  FROM confirmation_curves k WHERE k.run_id = c.run_id"
"  AND k.distro = c.distro AND k.release = c.release"
"  AND k.library = l.name AND k.algorithm = r.algorithm"
"  AND k.operation IN ('', r.operation) AND k.mode IN ('', r.mode))"
" UNION ALL "
"SELECT im.distro || ':' || im.release, l.name, r.algorithm, r.operation,"
" r.mode, r.buffer_bytes, 1, r.mb_per_s,"
" coalesce(c.confirmed_run_id, -1)"
" FROM confirmations c JOIN invocations inv"
"  ON inv.run_id = c.confirmed_run_id AND inv.status = 'ok'"
" JOIN images im ON im.id = inv.image_id AND im.distro = c.distro"
"  AND im.release = c.release"
" JOIN results r ON r.invocation_id = inv.id"
" JOIN libraries l ON l.id = r.library_id"
" WHERE c.run_id = ?1 AND c.previous_image_id IS NULL AND EXISTS (SELECT 1"
"  FROM confirmation_curves k WHERE k.run_id = c.run_id"
"  AND k.distro = c.distro AND k.release = c.release"
"  AND k.library = l.name AND k.algorithm = r.algorithm"
"  AND k.operation IN ('', r.operation) AND k.mode IN ('', r.mode))"
" ORDER BY 1, 2, 3, 4, 5, 6, 7, 8";

/* What the before side of the run's points is: the previous image for
 * every distribution, the confirmed run for every one, or per
 * distribution (then each row names it). */
enum against { AGAINST_PREVIOUS, AGAINST_RUN, AGAINST_MIXED };

struct point {
	char *key[5];		/* distro, library, algorithm, operation, mode */
	long long bytes;
	double *v[2];		/* MB/s: [0] new (again), [1] before */
	size_t n[2];
	int64_t run;		/* the before side's run; 0 = the previous
				 * image, in this run; -1 = a run no longer
				 * held */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of the N values at V (sorted in place); 0 when N is 0. */
static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "";
}

static int same_point(const struct point *p, sqlite3_stmt *st)
{
	int i;

	for (i = 0; i < 5; i++)
		if (strcmp(p->key[i], col(st, i)) != 0)
			return 0;
	return p->bytes == sqlite3_column_int64(st, 5);
}

/* The names of the before side of point P ("previous", "run N") into
 * BUF. */
static const char *against_name(const struct point *p, char *buf,
				size_t len)
{
	if (p->run > 0)
		snprintf(buf, len, "run %lld", (long long)p->run);
	else if (p->run < 0)
		snprintf(buf, len, "run ?");
	else
		snprintf(buf, len, "previous");
	return buf;
}

/* The column names of each case: table headers (MB/s, invocations) and
 * csv/json keys of the before and the again side. */
struct labels {
	char before_mbs[48], again_mbs[16], before_n[32], again_n[16];
	const char *key_before, *key_again;	/* "previous", "new", ... */
};

static void print_one(FILE *f, const struct point *p, enum format fmt,
		      enum against ag, const struct labels *lb, json_t *arr)
{
	double nw = median(p->v[0], p->n[0]), pr = median(p->v[1], p->n[1]);
	char prs[32] = "", chs[32] = "", who[32], k[64];
	int i;

	against_name(p, who, sizeof(who));
	if (p->n[1]) {
		snprintf(prs, sizeof(prs), "%.1f", pr);
		if (pr > 0 && p->n[0])
			snprintf(chs, sizeof(chs), "%+.1f", 100 * (nw / pr - 1));
	}
	if (fmt == FORMAT_JSON) {
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I}",
				      "distro", p->key[0], "library", p->key[1],
				      "algorithm", p->key[2], "operation",
				      p->key[3], "mode", p->key[4], "bytes",
				      (json_int_t)p->bytes);

		if (ag == AGAINST_RUN)
			json_object_set_new(o, "confirmed_run",
					    json_integer((json_int_t)p->run));
		else if (ag == AGAINST_MIXED)
			json_object_set_new(o, "against", json_string(who));
		if (p->n[1]) {
			snprintf(k, sizeof(k), "%s_mb_per_s", lb->key_before);
			json_object_set_new(o, k, json_real(pr));
		}
		snprintf(k, sizeof(k), "%s_mb_per_s", lb->key_again);
		json_object_set_new(o, k, json_real(nw));
		if (chs[0])
			json_object_set_new(o, "change_pct",
					    json_real(100 * (nw / pr - 1)));
		snprintf(k, sizeof(k), "%s_invocations", lb->key_before);
		json_object_set_new(o, k, json_integer((json_int_t)p->n[1]));
		snprintf(k, sizeof(k), "%s_invocations", lb->key_again);
		json_object_set_new(o, k, json_integer((json_int_t)p->n[0]));
		json_array_append_new(arr, o);
	} else if (fmt == FORMAT_CSV) {
		for (i = 0; i < 5; i++) {
			format_csv_field(f, p->key[i]);
			fputc(',', f);
		}
		fprintf(f, "%lld,", p->bytes);
		if (ag == AGAINST_RUN)
			fprintf(f, "%lld,", (long long)p->run);
		else if (ag == AGAINST_MIXED)
			fprintf(f, "%s,", who);
		fprintf(f, "%s,%.1f,%s,%zu,%zu\r\n", prs, nw, chs, p->n[1],
			p->n[0]);
	} else {
		fprintf(f, "%-16s %-10s %-18s %-8s %-8s %8lld ",
			p->key[0], p->key[1], p->key[2], p->key[3], p->key[4],
			p->bytes);
		if (ag == AGAINST_MIXED)
			fprintf(f, "%-10s ", who);
		fprintf(f, "%*s %*.1f %8s %*zu %*zu\n",
			(int)strlen(lb->before_mbs) > 12 ?
			(int)strlen(lb->before_mbs) : 12, prs[0] ? prs : "-",
			12, nw, chs[0] ? chs : "-",
			(int)strlen(lb->before_n) > 4 ?
			(int)strlen(lb->before_n) : 4, p->n[1],
			(int)strlen(lb->again_n) > 4 ?
			(int)strlen(lb->again_n) : 4, p->n[0]);
	}
}

/* Which case run RUN_ID in DB is (its confirmations' previous images),
 * and the confirmed run (*ret_run, 0 when unknown). Returns 0, or -1
 * on a database error. */
static int against_of(sqlite3 *db, int64_t run_id, enum against *ret,
		      int64_t *ret_run)
{
	sqlite3_stmt *st;
	long long with = 0, without = 0;
	int rc;

	*ret = AGAINST_PREVIOUS;
	*ret_run = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(previous_image_id),"
			       " count(*) - count(previous_image_id),"
			       " coalesce(max(confirmed_run_id), 0)"
			       " FROM confirmations WHERE run_id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		with = sqlite3_column_int64(st, 0);
		without = sqlite3_column_int64(st, 1);
		*ret_run = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return -1;
	*ret = !without ? AGAINST_PREVIOUS : !with ? AGAINST_RUN :
	       AGAINST_MIXED;
	return 0;
}

static void labels_make(struct labels *lb, enum against ag, int64_t run)
{
	switch (ag) {
	case AGAINST_PREVIOUS:
		snprintf(lb->before_mbs, sizeof(lb->before_mbs), "prev MB/s");
		snprintf(lb->again_mbs, sizeof(lb->again_mbs), "new MB/s");
		snprintf(lb->before_n, sizeof(lb->before_n), "n prev");
		snprintf(lb->again_n, sizeof(lb->again_n), "n new");
		lb->key_before = "previous";
		lb->key_again = "new";
		break;
	case AGAINST_RUN:
		snprintf(lb->before_mbs, sizeof(lb->before_mbs), "run %lld MB/s",
			 (long long)run);
		snprintf(lb->again_mbs, sizeof(lb->again_mbs), "again MB/s");
		snprintf(lb->before_n, sizeof(lb->before_n), "n run %lld",
			 (long long)run);
		snprintf(lb->again_n, sizeof(lb->again_n), "n again");
		lb->key_before = "confirmed";
		lb->key_again = "again";
		break;
	default:
		snprintf(lb->before_mbs, sizeof(lb->before_mbs), "before MB/s");
		snprintf(lb->again_mbs, sizeof(lb->again_mbs), "again MB/s");
		snprintf(lb->before_n, sizeof(lb->before_n), "n before");
		snprintf(lb->again_n, sizeof(lb->again_n), "n again");
		lb->key_before = "before";
		lb->key_again = "again";
		break;
	}
}

static void point_release(struct point *p)
{
	int i;

	for (i = 0; i < 5; i++)
		free(p->key[i]);
	free(p->v[0]);
	free(p->v[1]);
	memset(p, 0, sizeof(*p));
}

/* confirm_summary_print, writing to F as it reads the rows. */
static int summary_write(FILE *f, sqlite3 *db, int64_t run_id,
			 enum format fmt, bo_err *err)
{
	struct point p = { 0 };
	json_t *arr;
	sqlite3_stmt *st;
	enum against ag;
	struct labels lb;
	int64_t confirmed;
	int rc, i, have = 0;

	if (against_of(db, run_id, &ag, &confirmed) < 0 ||
	    sqlite3_prepare_v2(db, points_sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	labels_make(&lb, ag, confirmed);
	arr = fmt == FORMAT_JSON ? json_array() : NULL;
	sqlite3_bind_int64(st, 1, run_id);
	if (fmt == FORMAT_CSV) {
		fputs("distro,library,algorithm,operation,mode,bytes,", f);
		if (ag == AGAINST_RUN)
			fputs("confirmed_run,", f);
		else if (ag == AGAINST_MIXED)
			fputs("against,", f);
		fprintf(f, "%s_mb_per_s,%s_mb_per_s,change_pct,%s_invocations,%s_invocations\r\n",
			lb.key_before, lb.key_again, lb.key_before,
			lb.key_again);
	} else if (fmt == FORMAT_TABLE) {
		fprintf(f, "%-16s %-10s %-18s %-8s %-8s %8s ", "distro",
			"library", "algorithm", "op", "mode", "bytes");
		if (ag == AGAINST_MIXED)
			fprintf(f, "%-10s ", "against");
		fprintf(f, "%12s %12s %8s %4s %4s\n", lb.before_mbs,
			lb.again_mbs, "change%", lb.before_n, lb.again_n);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int prev = sqlite3_column_int(st, 6);

		if (have && !same_point(&p, st)) {
			print_one(f, &p, fmt, ag, &lb, arr);
			point_release(&p);
			have = 0;
		}
		if (!have) {
			for (i = 0; i < 5; i++)
				p.key[i] = xstrdup(col(st, i));
			p.bytes = sqlite3_column_int64(st, 5);
			have = 1;
		}
		p.run = sqlite3_column_int64(st, 8);
		p.v[prev] = xrealloc(p.v[prev], (p.n[prev] + 1) * sizeof(double));
		p.v[prev][p.n[prev]++] = sqlite3_column_double(st, 7);
	}
	if (have)
		print_one(f, &p, fmt, ag, &lb, arr);
	point_release(&p);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(arr);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	if (arr) {
		json_dumpf(arr, f, JSON_INDENT(1));
		fputc('\n', f);
		json_decref(arr);
	}
	return 0;
}

int confirm_summary_print(FILE *f, sqlite3 *db, int64_t run_id,
			  enum format fmt, bo_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	/* F gets the summary once every row is read: on a database error
	 * it gets nothing, not the header and part of the points */
	if (!mem)
		return bo_err_set(err, "out of memory");
	rc = summary_write(mem, db, run_id, fmt, err);
	fclose(mem);
	if (rc == 0)
		fwrite(buf, 1, len, f);
	free(buf);
	return rc;
}
