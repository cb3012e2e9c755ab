/* image.h - root filesystem images: recipes, building, caching and the
 * package versions found inside. */
#ifndef BENCHORCH_IMAGE_H
#define BENCHORCH_IMAGE_H

#include <stddef.h>
#include "lib/util.h"

/* One installed package as read from the image's package database. */
struct image_package {
	char *name;
	char *version;
};

/* A crypto library the recipe maps to the package that ships it, so results
 * can carry the distribution's package version. */
struct image_libpkg {
	char *library;	/* guest backend name, e.g. "openssl" */
	char *package;	/* e.g. "libssl3" */
};

/* A built image, as described by its image.json. All strings owned by the
 * struct; free with image_free(). */
struct image {
	char *name;		/* "debian-bookworm": directory name */
	char *distro;		/* "debian" */
	char *release;		/* "bookworm" */
	char *dir;		/* STATE/images/debian-bookworm */
	char *rootfs;		/* STATE/images/debian-bookworm/rootfs */
	char *digest;		/* "sha256:<64 hex>" over the rootfs content */
	char *created_at;	/* ISO 8601 UTC */
	char *method;		/* "debootstrap", "mmdebstrap", "tarball" */
	size_t npackages;
	struct image_package *packages;	/* all packages, sorted by name */
	size_t nlibpkgs;
	struct image_libpkg *libpkgs;
	/* Added for tarballs and imports (NULL when not recorded, e.g. in
	 * images built before): */
	char *source;		/* the tarball's URL or file; NULL = a
				 * bootstrap tool's mirror */
	char *verification;	/* what was checked: "sha512 (x.DIGESTS)",
				 * "none (--no-verify)", ...; NULL = the
				 * bootstrap tool's own archive signatures */
	char *pkgdb;		/* "dpkg", "apk", "portage", "none" */
	int previous;		/* 1: the previous version of an image, kept
				 * after a rebuild changed its packages
				 * (images/previous.h); name and dir end in
				 * ".previous" */
};

/* Where images live and how to build them. */
struct image_ctx {
	const char *state_dir;	/* images go under STATE/images */
	const char *data_dir;	/* recipes: DATA/images/<distro>.json */
	const char *mirror;	/* NULL = the recipe's (or the tool's) default */
	int refresh;		/* rebuild even if cached */
	int progress;		/* print progress lines: one plain line per
				 * build step, on a terminal or not */
	void (*progress_sink)(void *ctx, const char *line);	/* instead
				 * of stderr when set (the daemon's log);
				 * LINE has no "benchorch: " prefix */
	void *progress_sink_ctx;
	/* Tarball methods (gentoo, alpine); all optional: */
	const char *from;	/* local tarball instead of the recipe's URL */
	const char *digests;	/* its checksum file; NULL = next to it */
	const char *keyring;	/* gpgv keyring: also check the signature */
	int no_verify;		/* skip verification (recorded) */
};

/* Split "NAME[:RELEASE]" into newly allocated *ret_distro and *ret_release
 * (NULL release when absent). Returns 0, or -1 with err set on an empty or
 * malformed spec: characters outside [a-z0-9._-] ("invalid image spec
 * 'S': expected DISTRO[:RELEASE] made of [a-z0-9._-]"), else the part that
 * is empty, starts with '.' or '-' or is too long ("invalid image spec
 * 'S': the distro is 70 characters long (at most 64)"). */
int image_spec_parse(const char *spec, char **ret_distro, char **ret_release,
		     bo_err *err);

/* Return a newly allocated, comma-separated, sorted list of the distro names
 * that have a recipe under data_dir/images. Caller frees. */
char *image_known_distros(const char *data_dir);

/* Make sure the image for SPEC exists (building it when missing or when
 * ctx->refresh), then load it. Building happens in a temporary directory
 * under STATE/images renamed into place only on success, under a lock file
 * so two processes never build the same image at once; the builder runs in
 * a private mount namespace so nothing stays mounted. A rebuild whose
 * packages differ from the image it replaces keeps the old one as
 * STATE/images/NAME.previous (images/previous.h; one at most, replacing an
 * older one), else deletes it. Unknown distro: error
 * lists the known ones. Returns 0 and a new image in *ret (caller frees with
 * image_free), or -1 with err set. */
int image_ensure(const struct image_ctx *ctx, const char *spec,
		 struct image **ret, bo_err *err);

/* Import the root filesystem tarball FILE (anything libarchive reads) as
 * the image NAME (image_name_ok(); not the name of a distro with a recipe,
 * so specs stay unambiguous): unpacked safely (see archive_unpack_fd()) into a
 * temporary directory under STATE/images, checked to have the shape of a
 * root filesystem, described (packages from its dpkg/apk/portage database,
 * crypto library packages matched against every recipe, digest, size) and
 * renamed into STATE/images/NAME only on success; on failure or
 * interruption nothing is left behind. An existing image NAME is an error
 * unless ctx->refresh. Returns 0 and the new image in *ret (caller frees),
 * or -1 with err set. */
int image_import(const struct image_ctx *ctx, const char *name,
		 const char *file, struct image **ret, bo_err *err);

/* Check that SPEC names something image_ensure() can give: an imported
 * image STATE/images/NAME, or a distro with a recipe. Returns 0, or -1
 * with err set ("unknown distro 'x' (known: ...)"). */
int image_spec_check(const char *data_dir, const char *state_dir,
		     const char *spec, bo_err *err);

/* The name of the image SPEC gives (its directory under STATE/images):
 * "DISTRO-RELEASE" for a distro with a recipe in DATA_DIR (its default
 * release when SPEC names none), else SPEC itself (an imported image's
 * name). So "debian", "debian:bookworm" and "debian-bookworm" give the
 * same "debian-bookworm". Returns 0 with *ret_name set (free() it), or -1
 * with err set (a malformed spec, an unreadable recipe, an unknown
 * release). */
int image_spec_name(const char *data_dir, const char *spec, char **ret_name,
		    bo_err *err);

/* The name of the image (its directory under STATE/images) that a run
 * given SPEC measured, the image's release then being RELEASE (as its
 * image.json said, stored with the run): SPEC itself when it names no
 * distro with a recipe in DATA_DIR and no release (an imported image, or
 * an image directory's name), else "DISTRO-RELEASE" with SPEC's release,
 * or RELEASE when SPEC names none (not the recipe's default release
 * now). Never looks at the images themselves: two images with the same
 * distro, release and digest (an imported copy of a built one) keep
 * their own names. Returns 0 with *RET_NAME set (free() it), or -1 with
 * ERR set on a malformed SPEC (image_spec_parse). */
int image_measured_name(const char *data_dir, const char *spec,
			const char *release, char **ret_name, bo_err *err);

/* Check that NAME can name an imported image: image_name_ok(), not the
 * name of a distro with a recipe in DATA_DIR and not ending in ".previous"
 * (images/previous.h). Returns 0, or -1 with err set
 * ("invalid image name 'x': it is 70 characters long (at most 64)", "...:
 * it has a character outside [a-z0-9._-]"; image_name_check()). */
int image_import_name_check(const char *data_dir, const char *name,
			    bo_err *err);

/* Find an existing image by NAME: an image directory name
 * ("debian-bookworm", an imported name) or a spec ("debian:bookworm",
 * "debian" = its default release). Never builds. Returns 0 and *ret
 * (caller frees), or -1 with err set ("no image 'x'"). */
int image_find(const struct image_ctx *ctx, const char *name,
	       struct image **ret, bo_err *err);

/* All images under STATE/images, sorted by name, in a new array of new
 * images (free with image_list_free). Directories that are not whole
 * images (no valid image.json) are skipped. Returns 0, or -1 with err. */
int image_list(const char *state_dir, struct image ***ret, size_t *ret_n,
	       bo_err *err);

void image_list_free(struct image **v, size_t n);

/* Remove the image IMG (from image_find) under the images lock: renamed
 * away first, so it disappears at once, then deleted; the previous kept
 * beside it (images/previous.h) goes with it, unless IMG is itself that
 * previous, and so do its builds (STATE/builds/NAME, images/builds.h).
 * Returns 0, or -1 with err set. */
int image_remove(const struct image_ctx *ctx, const struct image *img,
		 bo_err *err);

/* Apparent size in bytes of everything under ROOTFS (regular files counted
 * once per inode, symlinks and directories by their size), never following
 * a symlink. Returns 0, or -1 with err set. */
int image_rootfs_size(const char *rootfs, unsigned long long *ret_bytes,
		      bo_err *err);

/* Load an already built image from DIR (its image.json). Returns 0, or -1
 * with err set. */
int image_load(const char *dir, struct image **ret, bo_err *err);

/* Look up the version of package NAME in img; NULL when absent. The string
 * is owned by img. */
const char *image_package_version(const struct image *img, const char *name);

/* Name of the package that ships LIBRARY in img, or NULL. Owned by img. */
const char *image_library_package(const struct image *img,
				  const char *library);

void image_free(struct image *img);

/* Parse a dpkg status file (PATH, e.g. ROOTFS/var/lib/dpkg/status) and
 * return the installed packages ("Status: install ok installed") sorted by
 * name in a newly allocated array (*ret, *ret_n; free with
 * image_packages_free). Returns 0, or -1 with err set. */
int dpkg_status_read(const char *path, struct image_package **ret,
		     size_t *ret_n, bo_err *err);

void image_packages_free(struct image_package *p, size_t n);

/* Inside ROOTFS, create the directories of RELPATH (relative, e.g.
 * "run/benchorch") and, if is_file, an empty regular file at its end, never
 * following a symlink (every component is opened with O_NOFOLLOW relative
 * to its parent) so nothing can be created outside the rootfs. Returns 0,
 * or -1 with err set (e.g. a component is a symlink). */
int rootfs_make_path(const char *rootfs, const char *relpath, int is_file,
		     bo_err *err);

#endif
