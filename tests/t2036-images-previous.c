/* t2036-images-previous - a rebuild that changes an image's packages keeps
 * the old image as NAME.previous (one at most), a rebuild with the same
 * packages keeps nothing, the previous is listed and found by its name,
 * and removing the image removes its previous too. Uses the stand-in
 * bootstrap tool of tests/fixtures/images-fakebin (root: the builder gets
 * a private mount namespace). */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/image.h"
#include "images/previous.h"
#include "tests/tap.h"

static char *state;

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Entries of STATE/images that start with PREFIX. */
static int count_entries(const char *prefix)
{
	char *dir = xasprintf("%s/images", state);
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	free(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

/* The version of libssl3t64 the stand-in tool installs next. */
static void fake_ssl_version(const char *v)
{
	char *p = xasprintf("%s/fake-ssl-version", state);
	FILE *f = fopen(p, "w");

	if (f) {
		fprintf(f, "%s\n", v);
		fclose(f);
	}
	free(p);
}

/* Rebuild debian:trixie; its libssl3t64 version, or "" on failure. */
static const char *rebuild(struct image_ctx *ctx, struct image **img)
{
	bo_err err;

	image_free(*img);
	*img = NULL;
	if (image_ensure(ctx, "debian:trixie", img, &err) < 0) {
		tap_diag("%s", err.msg);
		return "";
	}
	return image_package_version(*img, "libssl3t64");
}

int main(void)
{
	const char *src = tap_srcdir();
	char tmpl[] = "/tmp/t2036-images-XXXXXX";
	char *fakebin, *prevdir;
	struct image_ctx ctx = { 0 };
	struct image *img = NULL, *prev = NULL, **list = NULL;
	size_t n = 0;
	bo_err err;
	int rc;

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (private mount namespace)\n");
		return 0;
	}
	state = mkdtemp(tmpl);
	if (!state) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	fakebin = xasprintf("%s/tests/fixtures/images-fakebin", src);
	setenv("PATH", fakebin, 1);
	ctx.state_dir = state;
	ctx.data_dir = src;
	prevdir = xasprintf("%s/images/debian-trixie.previous", state);

	/* 1. A build, then a rebuild with the same packages: no previous. */
	fake_ssl_version("3.9.9-1");
	tap_ok(strcmp(rebuild(&ctx, &img), "3.9.9-1") == 0, "first build");
	ctx.refresh = 1;
	tap_ok(strcmp(rebuild(&ctx, &img), "3.9.9-1") == 0 &&
	       !exists(prevdir) && count_entries(".old-") == 0,
	       "a rebuild with the same packages keeps no previous");

	/* 2. A package changed: the old image is kept beside the new. */
	fake_ssl_version("3.9.9-2");
	tap_ok(strcmp(rebuild(&ctx, &img), "3.9.9-2") == 0 && exists(prevdir),
	       "a rebuild with a changed package keeps the previous image");
	rc = image_previous_find(img, &prev, &err);
	tap_ok(rc == 0 && prev && prev->previous &&
	       strcmp(prev->name, "debian-trixie.previous") == 0 &&
	       strcmp(prev->distro, "debian") == 0 &&
	       strcmp(prev->release, "trixie") == 0 &&
	       strcmp(image_package_version(prev, "libssl3t64"), "3.9.9-1") == 0 &&
	       strcmp(prev->digest, img->digest) != 0 && !img->previous,
	       "the previous keeps its name, digest and package versions");
	image_free(prev);
	prev = NULL;
	rc = image_list(state, &list, &n, &err);
	tap_ok(rc == 0 && n == 2 &&
	       strcmp(list[0]->name, "debian-trixie") == 0 &&
	       strcmp(list[1]->name, "debian-trixie.previous") == 0 &&
	       list[1]->previous,
	       "the image list shows the image and its previous");
	image_list_free(list, n);
	rc = image_find(&ctx, "debian-trixie.previous", &prev, &err);
	tap_ok(rc == 0 && prev->previous &&
	       strcmp(prev->rootfs, "") != 0 && exists(prev->rootfs),
	       "the previous is found by its name");
	image_free(prev);
	prev = NULL;

	/* 3. Another change: still one previous, now the last image. */
	fake_ssl_version("3.9.9-3");
	tap_ok(strcmp(rebuild(&ctx, &img), "3.9.9-3") == 0,
	       "another rebuild with a changed package");
	rc = image_previous_find(img, &prev, &err);
	tap_ok(rc == 0 && prev &&
	       strcmp(image_package_version(prev, "libssl3t64"), "3.9.9-2") == 0 &&
	       count_entries("debian-trixie") == 2 &&
	       count_entries(".old-") == 0,
	       "one previous at most: the older one is replaced");
	image_free(prev);
	prev = NULL;

	/* 4. A later build that is not a refresh leaves the previous alone
	 * (it waits for its confirmation). */
	ctx.refresh = 0;
	tap_ok(strcmp(rebuild(&ctx, &img), "3.9.9-3") == 0 && exists(prevdir),
	       "using the cached image keeps the previous");

	/* 5. Removing the image removes its previous too. */
	rc = image_remove(&ctx, img, &err);
	tap_ok(rc == 0 && !exists(img->dir) && !exists(prevdir) &&
	       count_entries(".old-") == 0,
	       "removing the image removes its previous%s%s",
	       rc ? ": " : "", rc ? err.msg : "");

	/* 6. Removing a previous alone leaves the image. */
	ctx.refresh = 1;
	fake_ssl_version("3.9.9-4");
	rebuild(&ctx, &img);
	fake_ssl_version("3.9.9-5");
	rebuild(&ctx, &img);
	rc = image_find(&ctx, "debian-trixie.previous", &prev, &err);
	if (rc == 0)
		rc = image_remove(&ctx, prev, &err);
	tap_ok(rc == 0 && !exists(prevdir) && exists(img->dir),
	       "removing the previous leaves the image");
	image_free(prev);

	/* 7. An imported image cannot take a previous's name. */
	rc = image_import_name_check(src, "mine.previous", &err);
	tap_ok(rc < 0 && tap_contains(err.msg, "'mine.previous' ends in '.previous'") &&
	       image_import_name_check(src, "mine.prev", &err) == 0,
	       "an imported image's name may not end in .previous");

	image_free(img);
	{
		bo_err e;

		bo_rm_rf(state, &e);
	}
	free(prevdir);
	free(fakebin);
	return tap_done();
}
