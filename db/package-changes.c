/* package-changes.c - record and read the package versions that changed
 * since the previous run of each distribution. */
#include "config.h"

#include <stdlib.h>

#include "db/package-changes.h"

/* ?1 = run id. The same comparison migration 3 applied to the runs stored
 * before it: per invocation with an image, the image of the latest
 * earlier invocation of the same distro and release; a package is changed
 * when its version differs, or it is in only one of the two images. A spec
 * invoked several times in a run (its rounds) records its changes once, on
 * its first invocation. A confirmation run (table confirmations) measures
 * a previous image again on purpose: it records no changes and is never
 * the earlier run compared with. */
static const char record_sql[] =
"WITH cur AS ("
"  SELECT inv.id AS inv_id, inv.image_id AS new_id,"
"    (SELECT p.id FROM invocations p"
"     JOIN images pim ON pim.id = p.image_id"
"     WHERE pim.distro = im.distro AND pim.release = im.release"
"       AND p.run_id < inv.run_id"
"       AND p.run_id NOT IN (SELECT run_id FROM confirmations)"
"     ORDER BY p.run_id DESC, p.id DESC LIMIT 1) AS prev_inv"
"  FROM invocations inv JOIN images im ON im.id = inv.image_id"
"  WHERE inv.run_id = ?1"
"    AND ?1 NOT IN (SELECT run_id FROM confirmations)"
"    AND inv.id = (SELECT min(f.id) FROM invocations f"
"    WHERE f.run_id = inv.run_id AND f.spec = inv.spec"
"      AND f.image_id = inv.image_id)),"
" pairs AS ("
"  SELECT c.inv_id, c.new_id, p.image_id AS old_id, r.uuid AS prev_uuid"
"  FROM cur c JOIN invocations p ON p.id = c.prev_inv"
"  JOIN runs r ON r.id = p.run_id"
"  WHERE p.image_id <> c.new_id)"
" INSERT OR IGNORE INTO package_changes (invocation_id, package,"
"  old_version, new_version, previous_run_uuid)"
" SELECT x.inv_id, o.package, o.version, n.version, x.prev_uuid"
" FROM pairs x JOIN image_packages o ON o.image_id = x.old_id"
" LEFT JOIN image_packages n ON n.image_id = x.new_id"
"  AND n.package = o.package"
" WHERE n.version IS NULL OR n.version <> o.version"
" UNION ALL"
" SELECT x.inv_id, n.package, NULL, n.version, x.prev_uuid"
" FROM pairs x JOIN image_packages n ON n.image_id = x.new_id"
" WHERE NOT EXISTS (SELECT 1 FROM image_packages o"
"  WHERE o.image_id = x.old_id AND o.package = n.package)";

/* ?1 = run id. One row per change: spec, package, old, new, previous run
 * id (NULL when that run is not in the database). Two invocations of one
 * distro and release in a run (debian and debian:bookworm) list a change
 * once. */
static const char read_sql[] =
"SELECT DISTINCT distro || ':' || release, package, old_version,"
" new_version, previous_run_id FROM package_changes_v WHERE run_id = ?1"
" ORDER BY 1, 2";

long db_package_changes_record(sqlite3 *db, int64_t run_id, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, record_sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return (long)sqlite3_changes(db);
}

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

int db_package_changes(sqlite3 *db, int64_t run_id, struct pkg_change **ret,
		       size_t *ret_n, bo_err *err)
{
	struct pkg_change *v = NULL;
	sqlite3_stmt *st;
	size_t n = 0;
	int rc;

	if (sqlite3_prepare_v2(db, read_sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].spec = col(st, 0);
		v[n].package = col(st, 1);
		v[n].old_version = col(st, 2);
		v[n].new_version = col(st, 3);
		v[n].previous_run = sqlite3_column_int64(st, 4);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		pkg_changes_free(v, n);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	*ret = v;
	*ret_n = n;
	return 0;
}
