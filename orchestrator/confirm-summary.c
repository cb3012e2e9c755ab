/* confirm-summary.c - print a confirmation run, previous beside new. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "orchestrator/confirm-summary.h"

/* ?1 = run. Every result of the curves asked for, tagged previous (1) or
 * new (0), sorted so that a point's rows are adjacent. */
static const char points_sql[] =
"SELECT im.distro || ':' || im.release, l.name, r.algorithm, r.operation,"
" r.mode, r.buffer_bytes,"
" CASE WHEN inv.image_id IS c.previous_image_id THEN 1 ELSE 0 END,"
" r.mb_per_s"
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
" ORDER BY 1, 2, 3, 4, 5, 6, 7, 8";

struct point {
	char *key[5];		/* distro, library, algorithm, operation, mode */
	long long bytes;
	double *v[2];		/* MB/s: [0] new, [1] previous */
	size_t n[2];
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

static void print_one(FILE *f, const struct point *p, enum format fmt,
		      json_t *arr)
{
	double nw = median(p->v[0], p->n[0]), pr = median(p->v[1], p->n[1]);
	char prs[32] = "", chs[32] = "";
	int i;

	if (p->n[1]) {
		snprintf(prs, sizeof(prs), "%.1f", pr);
		if (pr > 0 && p->n[0])
			snprintf(chs, sizeof(chs), "%+.1f", 100 * (nw / pr - 1));
	}
	if (fmt == FORMAT_JSON) {
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:f,s:I,s:I}",
				      "distro", p->key[0], "library", p->key[1],
				      "algorithm", p->key[2], "operation",
				      p->key[3], "mode", p->key[4], "bytes",
				      (json_int_t)p->bytes, "new_mb_per_s", nw,
				      "new_invocations", (json_int_t)p->n[0],
				      "previous_invocations",
				      (json_int_t)p->n[1]);

		if (p->n[1])
			json_object_set_new(o, "previous_mb_per_s", json_real(pr));
		if (chs[0])
			json_object_set_new(o, "change_pct",
					    json_real(100 * (nw / pr - 1)));
		json_array_append_new(arr, o);
	} else if (fmt == FORMAT_CSV) {
		for (i = 0; i < 5; i++) {
			format_csv_field(f, p->key[i]);
			fputc(',', f);
		}
		fprintf(f, "%lld,%s,%.1f,%s,%zu,%zu\r\n", p->bytes, prs, nw,
			chs, p->n[1], p->n[0]);
	} else {
		fprintf(f, "%-16s %-10s %-18s %-8s %-8s %8lld %12s %12.1f %8s %4zu %4zu\n",
			p->key[0], p->key[1], p->key[2], p->key[3], p->key[4],
			p->bytes, prs[0] ? prs : "-", nw, chs[0] ? chs : "-",
			p->n[1], p->n[0]);
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

int confirm_summary_print(FILE *f, sqlite3 *db, int64_t run_id,
			  enum format fmt, bo_err *err)
{
	struct point p = { 0 };
	json_t *arr = fmt == FORMAT_JSON ? json_array() : NULL;
	sqlite3_stmt *st;
	int rc, i, have = 0;

	if (sqlite3_prepare_v2(db, points_sql, -1, &st, NULL) != SQLITE_OK) {
		json_decref(arr);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	sqlite3_bind_int64(st, 1, run_id);
	if (fmt == FORMAT_CSV)
		fputs("distro,library,algorithm,operation,mode,bytes,previous_mb_per_s,new_mb_per_s,change_pct,previous_invocations,new_invocations\r\n", f);
	else if (fmt == FORMAT_TABLE)
		fprintf(f, "%-16s %-10s %-18s %-8s %-8s %8s %12s %12s %8s %4s %4s\n",
			"distro", "library", "algorithm", "op", "mode", "bytes",
			"prev MB/s", "new MB/s", "change%", "prev", "new");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int prev = sqlite3_column_int(st, 6);

		if (have && !same_point(&p, st)) {
			print_one(f, &p, fmt, arr);
			point_release(&p);
			have = 0;
		}
		if (!have) {
			for (i = 0; i < 5; i++)
				p.key[i] = xstrdup(col(st, i));
			p.bytes = sqlite3_column_int64(st, 5);
			have = 1;
		}
		p.v[prev] = xrealloc(p.v[prev], (p.n[prev] + 1) * sizeof(double));
		p.v[prev][p.n[prev]++] = sqlite3_column_double(st, 7);
	}
	if (have)
		print_one(f, &p, fmt, arr);
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
