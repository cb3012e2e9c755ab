/* orchestrator/results/pkgchanges.c - the packages that changed between two
 * sides of a comparison (see pkgchanges.h). */
#include "config.h"

#include <stdlib.h>

#include "db/db.h"
#include "orchestrator/results/pkgchanges.h"

/* Per distro measured on both sides in other images, the two image ids.
 * ?1 base run, ?2 base image (0: all), ?3 new run, ?4 new image. */
static const char images_sql[] =
	"SELECT DISTINCT bi.distro || ':' || bi.release, bi.id, ni.id"
	" FROM invocations b JOIN images bi ON bi.id = b.image_id"
	" JOIN invocations n ON n.run_id = ?3 AND (?4 = 0 OR n.image_id = ?4)"
	" JOIN images ni ON ni.id = n.image_id AND ni.distro = bi.distro"
	"  AND ni.release = bi.release"
	" WHERE b.run_id = ?1 AND (?2 = 0 OR b.image_id = ?2)"
	" AND bi.id <> ni.id ORDER BY 1";

/* The packages of image ?1 whose version differs in image ?2 (NULL:
 * absent there), then those only in ?2. */
static const char changes_sql[] =
	"SELECT b.package, b.version, n.version FROM image_packages b"
	" LEFT JOIN image_packages n ON n.image_id = ?2 AND n.package = b.package"
	" WHERE b.image_id = ?1 AND n.version IS NOT b.version"
	" UNION ALL"
	" SELECT n.package, NULL, n.version FROM image_packages n"
	" WHERE n.image_id = ?2 AND NOT EXISTS (SELECT 1 FROM image_packages b"
	"  WHERE b.image_id = ?1 AND b.package = n.package)"
	" ORDER BY 1";

int package_changes_load(sqlite3 *db, int64_t base_run, int64_t base_image,
			 int64_t new_run, int64_t new_image,
			 struct package_change **ret, size_t *ret_n,
			 bo_err *err)
{
	struct package_change *v = NULL;
	size_t n = 0;
	sqlite3_stmt *im, *ch;
	int rc;

	*ret = NULL;
	*ret_n = 0;
	if (sqlite3_prepare_v2(db, images_sql, -1, &im, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (sqlite3_prepare_v2(db, changes_sql, -1, &ch, NULL) != SQLITE_OK) {
		sqlite3_finalize(im);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	sqlite3_bind_int64(im, 1, base_run);
	sqlite3_bind_int64(im, 2, base_image);
	sqlite3_bind_int64(im, 3, new_run);
	sqlite3_bind_int64(im, 4, new_image);
	while ((rc = sqlite3_step(im)) == SQLITE_ROW) {
		const char *distro = (const char *)sqlite3_column_text(im, 0);

		sqlite3_reset(ch);
		sqlite3_bind_int64(ch, 1, sqlite3_column_int64(im, 1));
		sqlite3_bind_int64(ch, 2, sqlite3_column_int64(im, 2));
		while ((rc = sqlite3_step(ch)) == SQLITE_ROW) {
			struct package_change *c;

			v = xrealloc(v, (n + 1) * sizeof(*v));
			c = &v[n++];
			c->distro = xstrdup(distro ? distro : "");
			c->package = db_column_dup(ch, 0);
			if (!c->package)
				c->package = xstrdup("");
			c->old_version = db_column_dup(ch, 1);
			c->new_version = db_column_dup(ch, 2);
		}
		if (rc != SQLITE_DONE)
			break;
	}
	if (rc != SQLITE_DONE)
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_finalize(ch);
	sqlite3_finalize(im);
	if (rc != SQLITE_DONE) {
		package_changes_free(v, n);
		return -1;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void package_changes_free(struct package_change *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].distro);
		free(v[i].package);
		free(v[i].old_version);
		free(v[i].new_version);
	}
	free(v);
}
