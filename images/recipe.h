/* recipe.h - distribution recipes: the data (DATA/images/<distro>.json)
 * that says how to obtain a root filesystem for each release of a distro.
 *
 * A recipe is a JSON object:
 *
 *   distro           string, optional; must equal the file's base name
 *   method           string or array of strings: how to build, in order of
 *                    preference ("mmdebstrap", "debootstrap"; later
 *                    "tarball"); the first whose tool is installed is used
 *   variant          string, optional: bootstrap variant ("minbase")
 *   default_release  string: release used when the spec names none; must be
 *                    one of "releases"
 *   mirror           string, optional: "" = the tool's own default
 *   components       array of strings, optional (archive components)
 *   options          object, optional: method name -> array of extra
 *                    command-line options for that tool (each starting
 *                    with '-'), e.g. mmdebstrap hook directories; read by
 *                    bootstrap.c when that method is chosen
 *   releases         object: release name -> object with
 *       packages     array of strings: extra packages to install (--include)
 *       libraries    object: guest library name -> package that ships it
 *       suite        string, optional: archive suite (default: release name)
 *       mirror       string, optional: overrides the recipe's mirror
 *       script       string, optional: debootstrap script to use (e.g. the
 *                    "gutsy" script for Ubuntu releases newer than the host's
 *                    debootstrap)
 *       archived     boolean, optional (default false): the release is on
 *                    an archive whose Release files are no longer renewed
 *                    (archive.debian.org, old-releases.ubuntu.com), so apt
 *                    is told not to refuse them as expired (mmdebstrap
 *                    --aptopt Acquire::Check-Valid-Until "false"). For any
 *                    other release that check stays on: a mirror cannot
 *                    serve an old signed Release for ever.
 *
 * Keys not listed are ignored, so methods added later can carry their own
 * settings; they can read them from recipe->json. */
#ifndef BENCHORCH_RECIPE_H
#define BENCHORCH_RECIPE_H

#include <stddef.h>
#include <jansson.h>
#include "lib/util.h"
#include "images/image.h"

struct recipe_release {
	char *name;		/* "bookworm" */
	char *suite;		/* archive suite; defaults to name */
	char *mirror;		/* NULL = inherit the recipe's */
	char *script;		/* NULL = the tool's choice */
	int archived;		/* 1: its Release files may have expired */
	size_t npackages;
	char **packages;
	size_t nlibraries;
	struct image_libpkg *libraries;	/* in file order */
	json_t *json;		/* the release object (borrowed from
				 * recipe->json) */
};

struct recipe {
	char *path;		/* file it was read from */
	char *distro;		/* "debian" */
	size_t nmethods;
	char **methods;		/* preference order, at least one */
	char *variant;		/* NULL when absent */
	char *default_release;
	char *mirror;		/* "" = tool default */
	size_t ncomponents;
	char **components;
	size_t nreleases;
	struct recipe_release *releases;	/* in file order */
	json_t *json;		/* the whole document (one reference owned) */
};

/* Read and validate the recipe file PATH for distro DISTRO (the file's base
 * name). Returns 0 and a new recipe in *ret (free with recipe_free), or -1
 * with err set to a message naming the file and the offending key, e.g.
 * "invalid recipe 'x/debian.json': 'releases.bookworm.packages' must be an
 * array of strings". */
int recipe_load_file(const char *path, const char *distro,
		     struct recipe **ret, bo_err *err);

/* Load DATA_DIR/images/DISTRO.json. A missing file is reported as
 * "unknown distro 'DISTRO' (known: a, b)". Returns 0 or -1 with err set. */
int recipe_load(const char *data_dir, const char *distro, struct recipe **ret,
		bo_err *err);

/* The release called NAME, or NULL. Owned by r. */
const struct recipe_release *recipe_release_find(const struct recipe *r,
						 const char *name);

/* Newly allocated ", "-separated list of r's releases in file order. */
char *recipe_release_names(const struct recipe *r);

void recipe_free(struct recipe *r);

/* 1 when S is a usable distro or release name: non-empty, at most 64
 * bytes, only [a-z0-9._-], not starting with '.' or '-'; else 0. Defined
 * in spec.c. */
int image_name_ok(const char *s);

/* The same check, saying what is wrong: returns 0 when S (may be NULL) is
 * a usable name, else -1 with err set to a phrase to follow the name:
 * "is empty", "has a character outside [a-z0-9._-]", "starts with '.'"
 * (or '-'), "is N characters long (at most 64)", in that order of
 * precedence. Defined in spec.c. */
int image_name_check(const char *s, bo_err *err);

#endif
