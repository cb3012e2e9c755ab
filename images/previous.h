/* previous.h - the previous version of an image, kept beside it after a
 * rebuild that changed its packages, so that old and new can be measured
 * side by side (`benchorch confirm`) before a change is reported. At most
 * one previous per image: STATE/images/NAME.previous. */
#ifndef BENCHORCH_PREVIOUS_H
#define BENCHORCH_PREVIOUS_H

#include "images/image.h"
/* IMAGE_PREVIOUS_SUFFIX and image_name_is_previous() are in store.h,
 * below this file: image_load() skips the previous images. */
#include "images/store.h"

/* 1 when the package lists of A and B differ (a package added, removed or
 * at another version), else 0. Both sorted by name, as image_load()
 * gives them. */
int image_packages_differ(const struct image *a, const struct image *b);

/* Keep the image directory OLD_DIR (moved away from IMAGES_DIR/NAME by a
 * rebuild) as IMAGES_DIR/NAME.previous, replacing a previous kept before
 * (renamed away first, then deleted). Call with the images lock held.
 * Returns 0, or -1 with err set (OLD_DIR is then left where it was). */
int image_previous_keep(const char *images_dir, const char *name,
			const char *old_dir, bo_err *err);

/* The previous kept beside IMG (a current image, not itself a previous),
 * loaded: 0 with *ret set (caller frees with image_free), 0 with *ret
 * NULL when none is kept, or -1 with err set (it exists but its
 * image.json cannot be read). */
int image_previous_find(const struct image *img, struct image **ret,
			bo_err *err);

#endif
