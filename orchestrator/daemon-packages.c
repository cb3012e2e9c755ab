/* daemon-packages.c - which package versions changed between the image a
 * run used and the one the previous run of that distribution used. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/daemon.h"

void pkg_changes_free(struct pkg_change *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].spec);
		free(c[i].package);
		free(c[i].old_version);
		free(c[i].new_version);
	}
	free(c);
}

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

/* ?1 = run id. One row per changed package: spec, package, old, new. */
static const char changes_sql[] =
"WITH cur AS ("
"  SELECT im.id AS new_id, im.distro, im.release,"
"    (SELECT inv2.image_id FROM invocations inv2"
"      JOIN images im2 ON im2.id = inv2.image_id"
"      WHERE im2.distro = im.distro AND im2.release = im.release"
"        AND inv2.run_id < ?1"
"      ORDER BY inv2.run_id DESC, inv2.id DESC LIMIT 1) AS old_id"
"  FROM invocations inv JOIN images im ON im.id = inv.image_id"
"  WHERE inv.run_id = ?1),"
" pairs AS (SELECT DISTINCT * FROM cur"
"  WHERE old_id IS NOT NULL AND old_id <> new_id)"
" SELECT p.distro || ':' || p.release, o.package, o.version, n.version"
"  FROM pairs p JOIN image_packages o ON o.image_id = p.old_id"
"  LEFT JOIN image_packages n ON n.image_id = p.new_id"
"    AND n.package = o.package"
"  WHERE n.version IS NULL OR n.version <> o.version"
" UNION ALL"
" SELECT p.distro || ':' || p.release, n.package, NULL, n.version"
"  FROM pairs p JOIN image_packages n ON n.image_id = p.new_id"
"  WHERE NOT EXISTS (SELECT 1 FROM image_packages o"
"    WHERE o.image_id = p.old_id AND o.package = n.package)"
" ORDER BY 1, 2";

int pkg_changes_since_previous(sqlite3 *db, int64_t run_id,
			       struct pkg_change **ret, size_t *ret_n,
			       bo_err *err)
{
	struct pkg_change *v = NULL;
	sqlite3_stmt *st;
	size_t n = 0;
	int rc;

	if (sqlite3_prepare_v2(db, changes_sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s",
				  sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].spec = col(st, 0);
		v[n].package = col(st, 1);
		v[n].old_version = col(st, 2);
		v[n].new_version = col(st, 3);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		pkg_changes_free(v, n);
		return bo_err_set(err, "database error: %s",
				  sqlite3_errmsg(db));
	}
	*ret = v;
	*ret_n = n;
	return 0;
}
