/* db-image.h - an image (images/image.h) described as the database stores
 * it (db/db.h struct db_image), for the invocations a run stores. */
#ifndef BENCHORCH_RUN_DB_IMAGE_H
#define BENCHORCH_RUN_DB_IMAGE_H

#include "db/db.h"
#include "images/image.h"

/* Describe IMG into *RET: distro, release, digest, method, creation
 * time, every installed package, and for each crypto library the recipe
 * maps to a package, that package and its installed version
 * (image_package_version; NULL when it is not installed). The strings
 * are borrowed from IMG, which must outlive *RET; the arrays are owned
 * (free with run_db_image_release). Out of memory aborts (xmalloc). */
void run_db_image(const struct image *img, struct db_image *ret);

/* Free the arrays of D and zero it (D itself is not freed). */
void run_db_image_release(struct db_image *d);

#endif
