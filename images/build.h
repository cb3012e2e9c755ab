/* images/build.h - what image_ensure() and image_import() (build.c) share
 * with the bootstrap tools that fill a root filesystem (bootstrap.c).
 * Private to images/: build.c calls down into bootstrap.c, never back. */
#ifndef BENCHORCH_IMAGES_BUILD_H
#define BENCHORCH_IMAGES_BUILD_H

#include <stddef.h>

#include "images/image.h"
#include "images/recipe.h"
#include "images/tarball.h"

/* Everything one build needs. */
struct build {
	const struct image_ctx *ctx;
	const struct recipe *recipe;
	const struct recipe_release *rel;
	const char *display;	/* "debian:bookworm" */
	const char *name;	/* "debian-bookworm" */
	const char *images_dir;	/* STATE/images */
	const char *dir;	/* STATE/images/debian-bookworm */
	const char *method;	/* chosen method */
	const char *tool;	/* absolute path of its program */
	const char *mirror;	/* "" = tool default */
	const char *import_file;	/* image_import(): the tarball */
	struct tarball_result tb;	/* tarball method / import */
	char *tmp;		/* STATE/images/.build-NAME-XXXXXX */
	char *rootfs;		/* tmp/rootfs */
	char *log;		/* tmp/build.log */
	char *keyring;		/* bootstrap builds: the one keyring trusted
				 * (absolute path) */
	char *no_parts;		/* mmdebstrap: an empty directory given as
				 * apt's TrustedParts, tmp/apt-trusted.d */
};

/* Fill a NULL-terminated argv for the chosen tool; strings borrowed from
 * the build or newly allocated into *owned (freed by the caller). */
typedef int (*argv_fn)(const struct build *b, const char ***ret_argv,
		       char ***owned, size_t *nowned, bo_err *err);

struct method {
	const char *name;	/* as in recipes and image.json */
	const char *program;	/* looked up in PATH */
	const char *package;	/* the Debian package shipping it */
	argv_fn make_argv;
};

/* Choose the first method of b->recipe whose program is installed (a
 * built-in method, such as "tarball", needs none). Returns 0 with *ret set
 * (static storage) and *ret_tool the absolute path of its program (newly
 * allocated, the caller frees; NULL for a built-in method), or -1 with err
 * set: an unknown method name, a recipe without methods, or none of its
 * programs installed ("X not found: install the Y package"). */
int bootstrap_choose_method(struct build *b, const struct method **ret,
			    char **ret_tool, bo_err *err);

/* Run M's program (M->make_argv not NULL) into b->rootfs: first binds
 * the one keyring trusted (b->keyring, owned by b), then runs the tool in
 * a private mount namespace with a builder environment, its output in
 * b->log, for at most an hour. Returns 0, or -1 with err set ("cannot
 * build image '...': ..."); a failed tool's log is then kept as
 * STATE/images/NAME.failed.log and named in the message. */
int bootstrap_run_tool(struct build *b, const struct method *m, bo_err *err);

#endif
