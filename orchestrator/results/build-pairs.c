/* build-pairs.c - a run's builds against their shipped libraries (see
 * build-pairs.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/build-pairs.h"

/* Every pair of a build with its shipped library in run ?1, at ?2 bytes
 * (every size when ?2 is 0), the invocations of one point next to each
 * other. */
static const char pairs_sql[] =
	"SELECT coalesce(im.distro || ':' || im.release, inv.spec),"
	" inv.variant, l.name, b.name, b.compiler, b.cflags, p.algorithm,"
	" p.operation, p.mode, p.buffer_bytes, p.ratio, p.low, p.high,"
	" p.coverage"
	" FROM pairs p"
	" JOIN invocations inv ON inv.id = p.invocation_id"
	" LEFT JOIN images im ON im.id = inv.image_id"
	" JOIN libraries l ON l.id = p.library_id"
	" JOIN builds b ON b.id = l.build_ref"
	" JOIN libraries v ON v.id = p.versus_id"
	" WHERE inv.run_id = ?1 AND (?2 = 0 OR p.buffer_bytes = ?2)"
	" AND v.build_ref IS NULL AND v.name = l.name"
	" ORDER BY 1, 2, 3, p.algorithm,"
	" CASE p.operation WHEN 'encrypt' THEN 0 WHEN 'decrypt' THEN 1"
	" ELSE 2 END, p.mode, p.buffer_bytes, b.name, inv.id";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "";
}

/* Whether the row of ST is the point of build R (another invocation of
 * it). */
static int same_point(sqlite3_stmt *st, const struct build_ratio *r)
{
	return strcmp(col(st, 0), r->distro) == 0 &&
	       strcmp(col(st, 1), r->variant) == 0 &&
	       strcmp(col(st, 2), r->library) == 0 &&
	       strcmp(col(st, 3), r->build) == 0 &&
	       strcmp(col(st, 6), r->algorithm) == 0 &&
	       strcmp(col(st, 7), r->operation) == 0 &&
	       strcmp(col(st, 8), r->mode) == 0 &&
	       sqlite3_column_int64(st, 9) == r->buffer_bytes;
}

/* Set R's ratio to the median of the N RATIOS (sorted in place) and its
 * tie flag. */
static void finish(struct build_ratio *r, double *ratios, size_t n)
{
	qsort(ratios, n, sizeof(*ratios), cmp_double);
	r->ratio = n % 2 ? ratios[n / 2] :
		   (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
	r->tie = r->low <= 1 && r->high >= 1;
}

int build_ratios_load(sqlite3 *db, const int64_t *runs, size_t nruns,
		      int64_t bytes, struct build_ratio **ret, size_t *ret_n,
		      bo_err *err)
{
	struct build_ratio *v = NULL, *r = NULL;
	double *ratios = NULL;
	size_t n = 0, nr = 0;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	*ret = NULL;
	*ret_n = 0;
	switch (db_has(db, "builds")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	if (sqlite3_prepare_v2(db, pairs_sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	for (size_t i = 0; i < nruns && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, runs[i]);
		sqlite3_bind_int64(st, 2, bytes);
		r = NULL;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			double ratio = sqlite3_column_double(st, 10);
			double low = sqlite3_column_double(st, 11);
			double high = sqlite3_column_double(st, 12);
			double cov = sqlite3_column_double(st, 13);

			if (r && same_point(st, r)) {
				if (low < r->low)
					r->low = low;
				if (high > r->high)
					r->high = high;
				if (cov < r->coverage)
					r->coverage = cov;
				r->invocations++;
				ratios = xrealloc(ratios, (nr + 1) *
						  sizeof(*ratios));
				ratios[nr++] = ratio;
				continue;
			}
			if (r)
				finish(r, ratios, nr);
			v = xrealloc(v, (n + 1) * sizeof(*v));
			r = &v[n++];
			memset(r, 0, sizeof(*r));
			r->run_id = runs[i];
			r->distro = xstrdup(col(st, 0));
			r->variant = xstrdup(col(st, 1));
			r->library = xstrdup(col(st, 2));
			r->build = xstrdup(col(st, 3));
			r->compiler = xstrdup(col(st, 4));
			r->cflags = xstrdup(col(st, 5));
			r->algorithm = xstrdup(col(st, 6));
			r->operation = xstrdup(col(st, 7));
			r->mode = xstrdup(col(st, 8));
			r->buffer_bytes = sqlite3_column_int64(st, 9);
			r->low = low;
			r->high = high;
			r->coverage = cov;
			r->invocations = 1;
			ratios = xrealloc(ratios, sizeof(*ratios));
			ratios[0] = ratio;
			nr = 1;
		}
		if (r)
			finish(r, ratios, nr);
	}
	sqlite3_finalize(st);
	free(ratios);
	if (rc != SQLITE_DONE) {
		build_ratios_free(v, n);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void build_ratios_free(struct build_ratio *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].distro);
		free(v[i].variant);
		free(v[i].library);
		free(v[i].build);
		free(v[i].compiler);
		free(v[i].cflags);
		free(v[i].algorithm);
		free(v[i].operation);
		free(v[i].mode);
	}
	free(v);
}
