/* db-image.c - an image described for the database (see db-image.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/run/db-image.h"

void run_db_image(const struct image *img, struct db_image *ret)
{
	struct db_image_package *pkgs = NULL;
	struct db_library_package *libpkgs = NULL;
	size_t i;

	memset(ret, 0, sizeof(*ret));
	ret->distro = img->distro;
	ret->release = img->release;
	ret->digest = img->digest;
	ret->method = img->method;
	ret->created_at = img->created_at;
	if (img->npackages)
		pkgs = xcalloc(img->npackages, sizeof(*pkgs));
	for (i = 0; i < img->npackages; i++) {
		pkgs[i].name = img->packages[i].name;
		pkgs[i].version = img->packages[i].version;
	}
	if (img->nlibpkgs)
		libpkgs = xcalloc(img->nlibpkgs, sizeof(*libpkgs));
	for (i = 0; i < img->nlibpkgs; i++) {
		libpkgs[i].library = img->libpkgs[i].library;
		libpkgs[i].package = img->libpkgs[i].package;
		libpkgs[i].version = image_package_version(img,
						img->libpkgs[i].package);
	}
	ret->npackages = img->npackages;
	ret->packages = pkgs;
	ret->nlibpkgs = img->nlibpkgs;
	ret->libpkgs = libpkgs;
}

void run_db_image_release(struct db_image *d)
{
	free((void *)d->packages);
	free((void *)d->libpkgs);
	memset(d, 0, sizeof(*d));
}
