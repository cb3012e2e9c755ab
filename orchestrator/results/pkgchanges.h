/* orchestrator/results/pkgchanges.h - the image packages whose version differs
 * between two sides of a comparison (compare's point table and the
 * verdict both name them). */
#ifndef BENCHORCH_PKGCHANGES_H
#define BENCHORCH_PKGCHANGES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* One package of one distribution whose version changed. */
struct package_change {
	char *distro;		/* "distro:release" */
	char *package;		/* the package name (dpkg, apk, ...) */
	char *old_version;	/* NULL: the package is new */
	char *new_version;	/* NULL: the package was removed */
};

/* For every distribution (distro and release) measured on both sides in
 * other images, the packages whose version differs between the base
 * side's image and the new side's (table image_packages; an image's
 * packages are recorded when it is built or imported). A side is run
 * BASE_RUN (NEW_RUN), limited to image BASE_IMAGE (NEW_IMAGE) unless that
 * is 0. Returns 0 with a new array in *RET, sorted by distribution and
 * package, and its length in *RET_N (NULL and 0 for none; free with
 * package_changes_free), or -1 with ERR set on a database error. */
int package_changes_load(sqlite3 *db, int64_t base_run, int64_t base_image,
			 int64_t new_run, int64_t new_image,
			 struct package_change **ret, size_t *ret_n,
			 bo_err *err);

/* Free the N changes of V (and their strings); V may be NULL. */
void package_changes_free(struct package_change *v, size_t n);

#endif /* BENCHORCH_PKGCHANGES_H */
