/* store.h - the image description file (DIR/image.json), shared by the
 * builders and image_load(). */
#ifndef BENCHORCH_STORE_H
#define BENCHORCH_STORE_H

#include "images/image.h"

/* Name of the description file inside an image directory. */
#define IMAGE_JSON "image.json"

/* What ends the directory name of a kept previous image (previous.h). */
#define IMAGE_PREVIOUS_SUFFIX ".previous"

/* 1 when NAME (a directory name, not NULL) ends in IMAGE_PREVIOUS_SUFFIX
 * (and is longer than it), else 0. */
int image_name_is_previous(const char *name);

/* Write the description of IMG to PATH atomically, as a JSON object with
 * name, distro, release, digest, created_at, method (strings), mirror
 * (string; "" = the tool's default), build_seconds (number; wall time of
 * the bootstrap tool in seconds, digest excluded; 0 if unknown), packages
 * (object name -> version), libpkgs (object library -> package), and,
 * when not NULL, source, verification and pkgdb (strings).
 * img->dir and img->rootfs are not stored (they follow from where the file
 * is). Returns 0, or -1 with err set. */
int image_json_write(const struct image *img, const char *mirror,
		     double build_seconds, const char *path, bo_err *err);

/* STATE_DIR/images as an absolute path (relative STATE_DIR taken from the
 * current directory). Newly allocated, or NULL with err set. */
char *images_dir_abs(const char *state_dir, bo_err *err);

/* Make sure the image store IMAGES_DIR (STATE/images) is closed to other
 * users (images/storedir.c): with CREATE, it is created mode 0700 when
 * missing (STATE, its parent, 0755); without, a missing store is fine (0).
 * It must be a directory, not a symlink, owned by the effective uid or by
 * root, or it is refused; a store of ours open to group or others is
 * tightened to 0700, and so is each directory in it (images made before
 * the store was closed: their group and other bits are cleared); root's
 * store is left as it is for another caller. Returns 0, or -1 with
 * err set (one line naming IMAGES_DIR). */
int images_store_ready(const char *images_dir, int create, bo_err *err);

/* 1 when DATA_DIR/images/DISTRO.json exists. */
int recipe_exists(const char *data_dir, const char *distro);

/* Take the images lock IMAGES_DIR/.lock (blocking; gives up when
 * interrupted; says it waits when ctx->progress). Returns the locked fd
 * (close it to unlock), or -1 with err set. */
int images_lock(const struct image_ctx *ctx, const char *images_dir,
		bo_err *err);

#endif
