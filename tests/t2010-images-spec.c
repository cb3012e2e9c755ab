/* t2010-images-spec - image specs, recipes (good and bad), image.json
 * loading, and the parts of image_ensure that need neither root nor the
 * network: unknown distro/release, a cached image, a missing builder. */
#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include "images/image.h"
#include "images/recipe.h"
#include "images/store.h"
#include "tests/tap.h"

static void spec_ok(const char *spec, const char *distro, const char *release)
{
	char *d = NULL, *r = NULL;
	bo_err err;
	int rc = image_spec_parse(spec, &d, &r, &err);

	tap_ok(rc == 0 && d && strcmp(d, distro) == 0 &&
	       ((!release && !r) || (release && r && strcmp(r, release) == 0)),
	       "spec '%s' -> '%s' '%s'", spec, distro,
	       release ? release : "(none)");
	free(d);
	free(r);
}

static void spec_bad(const char *spec)
{
	char *d = (char *)"x", *r = (char *)"x";
	bo_err err = { "" };
	int rc = image_spec_parse(spec, &d, &r, &err);

	tap_ok(rc == -1 && !d && !r && err.msg[0],
	       "spec '%s' is refused (%s)", spec, err.msg);
}

static void recipe_bad(const char *dir, const char *name, const char *what)
{
	char *path = xasprintf("%s/images/%s.json", dir, name);
	struct recipe *r = (struct recipe *)1;
	bo_err err = { "" };
	int rc = recipe_load(dir, name, &r, &err);

	tap_ok(rc == -1 && r == NULL && tap_contains(err.msg, path) &&
	       tap_contains(err.msg, what),
	       "bad recipe %s: error names the file and '%s' (%s)", name,
	       what, err.msg);
	free(path);
}

static int copy_file(const char *from, const char *to)
{
	char *buf;
	size_t len;
	bo_err err;
	int rc;

	if (bo_read_file(from, 1 << 20, &buf, &len, &err) < 0)
		return -1;
	rc = bo_write_file_atomic(to, buf, len, &err);
	free(buf);
	return rc;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int main(void)
{
	const char *src = tap_srcdir();
	char *fixdir = xasprintf("%s/tests/fixtures/images-recipes", src);
	char tmpl[] = "/tmp/t2010-images-XXXXXX";
	char *tmp, *known;
	struct recipe *r = NULL;
	struct image *img = NULL;
	bo_err err;

	/* Specs. */
	spec_ok("debian", "debian", NULL);
	spec_ok("debian:bookworm", "debian", "bookworm");
	spec_ok("ubuntu:24.04", "ubuntu", "24.04");
	spec_ok("my_distro-2:rel.1", "my_distro-2", "rel.1");
	spec_bad("");
	spec_bad("Debian");
	spec_bad("debian:");
	spec_bad(":bookworm");
	spec_bad("deb ian");
	spec_bad("debian:bookworm:x");
	spec_bad("../etc");
	spec_bad("debian:-rc");
	spec_bad("debian/../../x");

	/* Known distros: the real recipes, then the fixtures. */
	known = image_known_distros(src);
	tap_ok(strcmp(known, "debian") == 0 || strncmp(known, "debian, ", 8)
	       == 0 || tap_contains(known, ", debian"),
	       "known distros in the source tree include debian: '%s'", known);
	free(known);
	known = image_known_distros(fixdir);
	tap_ok(tap_contains(known, "badlib, badpackages") &&
	       tap_contains(known, "good") &&
	       strncmp(known, "baddefault, ", 12) == 0,
	       "known distros are sorted and comma-separated: '%s'", known);
	free(known);
	known = image_known_distros("/nonexistent");
	tap_ok(strcmp(known, "") == 0, "no recipe dir: empty list");
	free(known);

	/* The real Debian recipe. */
	if (recipe_load(src, "debian", &r, &err) < 0) {
		tap_ok(0, "debian recipe loads: %s", err.msg);
	} else {
		const struct recipe_release *b = recipe_release_find(r,
								     "bookworm");
		char *names = recipe_release_names(r);
		size_t i, found = 0;

		tap_ok(1, "debian recipe loads");
		tap_ok(strcmp(names, "bullseye, bookworm, trixie, sid") == 0,
		       "debian releases in file order: %s", names);
		tap_ok(strcmp(r->default_release, "bookworm") == 0 &&
		       r->variant && strcmp(r->variant, "minbase") == 0 &&
		       strcmp(r->mirror, "") == 0,
		       "debian: default bookworm, minbase, tool's mirror");
		tap_ok(r->nmethods >= 1 &&
		       strcmp(r->methods[r->nmethods - 1], "debootstrap") == 0,
		       "debian: debootstrap is the last resort method");
		for (i = 0; i < r->nreleases; i++)
			if (r->releases[i].nlibraries == 10)
				found++;
		tap_ok(found == r->nreleases,
		       "debian: every release maps the ten libraries");
		for (i = 0, found = 0; b && i < b->nlibraries; i++)
			if (strcmp(b->libraries[i].library, "openssl") == 0 &&
			    strcmp(b->libraries[i].package, "libssl3") == 0)
				found = 1;
		/* the ten libraries, openssl, and the tool mode's gnupg
		 * and age */
		tap_ok(b && found && b->npackages == 13 &&
		       strcmp(b->suite, "bookworm") == 0,
		       "debian bookworm: openssl -> libssl3, 13 packages");
		b = recipe_release_find(r, "trixie");
		tap_ok(b && b->nlibraries && strcmp(b->libraries[0].package,
						    "libssl3t64") == 0,
		       "debian trixie uses t64 names");
		free(names);
		recipe_free(r);
		r = NULL;
	}

	/* A good fixture with every optional key. */
	if (recipe_load(fixdir, "good", &r, &err) < 0) {
		tap_ok(0, "good fixture loads: %s", err.msg);
	} else {
		const struct recipe_release *t = recipe_release_find(r, "two");
		const struct recipe_release *o = recipe_release_find(r, "one");

		tap_ok(strcmp(r->distro, "good") == 0 && r->nmethods == 1 &&
		       strcmp(r->methods[0], "debootstrap") == 0,
		       "good fixture: distro from the file name, one method");
		tap_ok(t && strcmp(t->suite, "stable") == 0 && t->mirror &&
		       t->script && strcmp(t->script, "gutsy") == 0 &&
		       t->npackages == 0,
		       "good fixture: suite, mirror, script of a release");
		tap_ok(o && strcmp(o->suite, "one") == 0 && !o->mirror &&
		       o->npackages == 2 && o->nlibraries == 1,
		       "good fixture: defaults of a release");
		tap_ok(!recipe_release_find(r, "three"),
		       "good fixture: no release 'three'");
		recipe_free(r);
		r = NULL;
	}

	/* Bad fixtures. */
	recipe_bad(fixdir, "syntax", "line 4");
	recipe_bad(fixdir, "nomethod", "'method' is missing");
	recipe_bad(fixdir, "badpackages", "'releases.one.packages'");
	recipe_bad(fixdir, "badlib", "'releases.one.libraries.a'");
	recipe_bad(fixdir, "baddefault", "default_release 'three'");
	recipe_bad(fixdir, "mismatch", "'distro' is 'other'");
	recipe_bad(fixdir, "badrelease", "release name 'One'");
	recipe_bad(fixdir, "dupkey", "duplicate");
	recipe_bad(fixdir, "notobject", "not a JSON object");
	recipe_bad(fixdir, "badpkgname", "invalid package name");
	recipe_bad(fixdir, "notbool", "'releases.one.archived' must be true or false");
	{
		bo_err e = { "" };

		r = (struct recipe *)1;
		tap_ok(recipe_load(fixdir, "absent", &r, &e) == -1 && !r &&
		       tap_contains(e.msg, "unknown distro 'absent' (known: "
				    "baddefault, badlib,"),
		       "missing recipe: unknown distro, known ones listed");
	}

	/* image.json */
	{
		char *good = xasprintf("%s/tests/fixtures/images-image-good.json",
				       src);
		char *bad = xasprintf("%s/tests/fixtures/images-image-bad.json",
				      src);

		tmp = mkdtemp(tmpl);
		if (!tmp) {
			tap_ok(0, "mkdtemp");
			return tap_done();
		}
		{
			char *d = xasprintf("%s/good", tmp);
			char *j = xasprintf("%s/image.json", d);

			mkdir(d, 0755);
			copy_file(good, j);
			if (image_load(d, &img, &err) < 0) {
				tap_ok(0, "image_load: %s", err.msg);
			} else {
				char *rootfs = xasprintf("%s/rootfs", d);

				tap_ok(strcmp(img->name, "debian-bookworm") ==
				       0 && strcmp(img->dir, d) == 0 &&
				       strcmp(img->rootfs, rootfs) == 0 &&
				       strcmp(img->method, "debootstrap") == 0 &&
				       strcmp(img->created_at,
					      "2025-01-02T03:04:05Z") == 0,
				       "image_load: fields, dir and rootfs");
				tap_ok(img->npackages == 4 &&
				       strcmp(img->packages[0].name,
					      "base-files") == 0 &&
				       strcmp(img->packages[3].name,
					      "zlib1g") == 0,
				       "image_load: packages sorted by name");
				tap_ok(image_package_version(img, "libssl3") &&
				       strcmp(image_package_version(img,
						"libssl3"),
					      "3.0.15-1~deb12u1") == 0 &&
				       !image_package_version(img, "nope") &&
				       image_package_version(img, "zlib1g") &&
				       image_package_version(img, "base-files"),
				       "image_package_version");
				tap_ok(image_library_package(img, "openssl") &&
				       strcmp(image_library_package(img,
						"openssl"), "libssl3") == 0 &&
				       !image_library_package(img, "botan"),
				       "image_library_package");
				free(rootfs);

				/* Write it back and read it again. */
				{
					char *d2 = xasprintf("%s/again", tmp);
					char *j2 = xasprintf("%s/image.json", d2);
					struct image *img2 = NULL;

					mkdir(d2, 0755);
					tap_ok(image_json_write(img, "http://m",
								1.5, j2,
								&err) == 0 &&
					       image_load(d2, &img2, &err) == 0 &&
					       img2->npackages == 4 &&
					       img2->nlibpkgs == 2 &&
					       strcmp(img2->digest,
						      img->digest) == 0,
					       "image_json_write round trip");
					image_free(img2);
					free(j2);
					free(d2);
				}
				image_free(img);
				img = NULL;
			}
			copy_file(bad, j);
			img = (struct image *)1;
			tap_ok(image_load(d, &img, &err) == -1 && !img &&
			       tap_contains(err.msg, j) &&
			       tap_contains(err.msg, "zlib1g"),
			       "image_load: a bad description is refused (%s)",
			       err.msg);
			img = NULL;
			tap_ok(image_load("/nonexistent", &img, &err) == -1 &&
			       tap_contains(err.msg, "/nonexistent/image.json"),
			       "image_load: missing description");
			free(j);
			free(d);
		}
		free(good);
		free(bad);
	}

	/* image_ensure without building. */
	{
		struct image_ctx ctx = { .state_dir = tmp, .data_dir = src };
		char *idir = xasprintf("%s/images/debian-bookworm", tmp);
		char *ijson = xasprintf("%s/image.json", idir);
		char *good = xasprintf("%s/tests/fixtures/images-image-good.json",
				       src);
		char *stale = xasprintf("%s/images/.build-debian-trixie-dead",
					tmp);
		char *old = xasprintf("%s/images/.old-debian-sid-dead", tmp);
		char *emptybin = xasprintf("%s/emptybin", tmp);
		char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;

		char *known_all = image_known_distros(src);
		char *want = xasprintf("unknown distro 'nosuchdistro' (known: "
				       "%s)", known_all);

		img = (struct image *)1;
		tap_ok(image_ensure(&ctx, "nosuchdistro:latest", &img, &err) ==
		       -1 && !img && strcmp(err.msg, want) == 0 &&
		       tap_contains(err.msg, "debian"),
		       "ensure: %s", err.msg);
		free(want);
		free(known_all);
		tap_ok(image_ensure(&ctx, "debian:potato", &img, &err) == -1 &&
		       strcmp(err.msg, "unknown release 'potato' of distro "
			      "'debian' (known: bullseye, bookworm, trixie, "
			      "sid)") == 0, "ensure: %s", err.msg);
		tap_ok(image_ensure(&ctx, "Debian", &img, &err) == -1 &&
		       tap_contains(err.msg, "invalid image spec"),
		       "ensure: %s", err.msg);

		bo_mkdir_p(idir, &err);
		copy_file(good, ijson);
		img = NULL;
		tap_ok(image_ensure(&ctx, "debian:bookworm", &img, &err) == 0 &&
		       img && strcmp(img->digest, "sha256:0123456789abcdef"
				     "0123456789abcdef0123456789abcdef"
				     "0123456789abcdef") == 0,
		       "ensure: a cached image is loaded, not rebuilt");
		image_free(img);
		img = NULL;
		tap_ok(image_ensure(&ctx, "debian", &img, &err) == 0 && img &&
		       strcmp(img->release, "bookworm") == 0,
		       "ensure: 'debian' means the default release");
		image_free(img);
		img = NULL;

		/* No builder program: a clear message, leftovers removed. */
		bo_mkdir_p(stale, &err);
		bo_mkdir_p(old, &err);
		mkdir(emptybin, 0755);
		setenv("PATH", emptybin, 1);
		tap_ok(image_ensure(&ctx, "debian:trixie", &img, &err) == -1 &&
		       !img && strcmp(err.msg, "debootstrap not found: install "
				      "the debootstrap package") == 0,
		       "ensure without a builder: %s", err.msg);
		if (path)
			setenv("PATH", path, 1);
		else
			unsetenv("PATH");
		tap_ok(!exists(stale) && !exists(old),
		       "ensure: leftover .build-* and .old-* are removed "
		       "under the lock");
		tap_ok(exists(ijson), "ensure: other images are untouched");
		free(idir);
		free(ijson);
		free(good);
		free(stale);
		free(old);
		free(emptybin);
		free(path);
	}

	if (bo_rm_rf(tmp, &err) < 0)
		tap_diag("%s", err.msg);
	free(fixdir);
	return tap_done();
}
