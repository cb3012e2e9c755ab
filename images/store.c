/* store.c - read and write image descriptions (image.json) and look up
 * packages in a loaded image. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "images/image.h"
#include "images/store.h"

int image_json_write(const struct image *img, const char *mirror,
		     double build_seconds, const char *path, bo_err *err)
{
	json_t *root = json_object(), *pk = json_object(), *lp = json_object();
	char *text;
	size_t i;
	int rc;

	if (!root || !pk || !lp) {
		json_decref(root);
		json_decref(pk);
		json_decref(lp);
		return bo_err_set(err, "out of memory writing '%s'", path);
	}
	for (i = 0; i < img->npackages; i++)
		json_object_set_new(pk, img->packages[i].name,
				    json_string(img->packages[i].version));
	for (i = 0; i < img->nlibpkgs; i++)
		json_object_set_new(lp, img->libpkgs[i].library,
				    json_string(img->libpkgs[i].package));
	json_object_set_new(root, "name", json_string(img->name));
	json_object_set_new(root, "distro", json_string(img->distro));
	json_object_set_new(root, "release", json_string(img->release));
	json_object_set_new(root, "digest", json_string(img->digest));
	json_object_set_new(root, "created_at", json_string(img->created_at));
	json_object_set_new(root, "method", json_string(img->method));
	json_object_set_new(root, "mirror", json_string(mirror ? mirror : ""));
	json_object_set_new(root, "build_seconds", json_real(build_seconds));
	if (img->source)
		json_object_set_new(root, "source", json_string(img->source));
	if (img->verification)
		json_object_set_new(root, "verification",
				    json_string(img->verification));
	if (img->pkgdb)
		json_object_set_new(root, "pkgdb", json_string(img->pkgdb));
	json_object_set_new(root, "packages", pk);
	json_object_set_new(root, "libpkgs", lp);
	text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS |
			  JSON_REAL_PRECISION(6));
	json_decref(root);
	if (!text)
		return bo_err_set(err, "cannot encode '%s' (invalid UTF-8 in "
				  "a package name or version?)", path);
	{
		size_t len = strlen(text);
		char *withnl = xmalloc(len + 2);

		memcpy(withnl, text, len);
		withnl[len] = '\n';
		withnl[len + 1] = '\0';
		free(text);
		rc = bo_write_file_atomic(path, withnl, len + 1, err);
		free(withnl);
	}
	return rc;
}

static int cmp_pkg(const void *a, const void *b)
{
	return strcmp(((const struct image_package *)a)->name,
		      ((const struct image_package *)b)->name);
}

/* Required string member KEY of OBJ, copied into *out. */
static int req_string(json_t *obj, const char *key, const char *path,
		      char **out, bo_err *err)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_string(v))
		return bo_err_set(err, "invalid image description '%s': '%s' "
				  "must be a string", path, key);
	*out = xstrdup(json_string_value(v));
	return 0;
}

int image_name_is_previous(const char *name)
{
	size_t n = strlen(name), s = strlen(IMAGE_PREVIOUS_SUFFIX);

	return n > s && strcmp(name + n - s, IMAGE_PREVIOUS_SUFFIX) == 0;
}

int image_load(const char *dir, struct image **ret, bo_err *err)
{
	char *path = xasprintf("%s/%s", dir, IMAGE_JSON);
	struct image *img = NULL;
	json_error_t jerr;
	json_t *root, *pk, *lp, *v;
	const char *key;
	int rc = -1;

	*ret = NULL;
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		if (access(path, F_OK) < 0)
			bo_err_set(err, "cannot read image description '%s': "
				   "%s", path, strerror(errno));
		else
			bo_err_set(err, "invalid image description '%s': line "
				   "%d: %s", path, jerr.line, jerr.text);
		free(path);
		return -1;
	}
	if (!json_is_object(root)) {
		bo_err_set(err, "invalid image description '%s': not a JSON "
			   "object", path);
		goto out;
	}
	img = xcalloc(1, sizeof(*img));
	img->dir = xstrdup(dir);
	img->rootfs = xasprintf("%s/rootfs", dir);
	if (req_string(root, "name", path, &img->name, err) < 0 ||
	    req_string(root, "distro", path, &img->distro, err) < 0 ||
	    req_string(root, "release", path, &img->release, err) < 0 ||
	    req_string(root, "digest", path, &img->digest, err) < 0 ||
	    req_string(root, "created_at", path, &img->created_at, err) < 0 ||
	    req_string(root, "method", path, &img->method, err) < 0)
		goto out;
	{
		/* a kept previous is named by its directory, so it stays
		 * apart from the current image in lists and runs */
		const char *base = strrchr(dir, '/');

		base = base ? base + 1 : dir;
		if (image_name_is_previous(base)) {
			free(img->name);
			img->name = xstrdup(base);
			img->previous = 1;
		}
	}
	if (strncmp(img->digest, "sha256:", 7) != 0 ||
	    strlen(img->digest) != 71) {
		bo_err_set(err, "invalid image description '%s': 'digest' must "
			   "be sha256:<64 hex digits>", path);
		goto out;
	}
	/* Optional members (absent in images from older versions). */
	v = json_object_get(root, "source");
	if (json_is_string(v))
		img->source = xstrdup(json_string_value(v));
	v = json_object_get(root, "verification");
	if (json_is_string(v))
		img->verification = xstrdup(json_string_value(v));
	v = json_object_get(root, "pkgdb");
	if (json_is_string(v))
		img->pkgdb = xstrdup(json_string_value(v));
	pk = json_object_get(root, "packages");
	lp = json_object_get(root, "libpkgs");
	if (!json_is_object(pk) || (lp && !json_is_object(lp))) {
		bo_err_set(err, "invalid image description '%s': '%s' must be "
			   "an object", path, json_is_object(pk) ? "libpkgs" :
			   "packages");
		goto out;
	}
	img->packages = xcalloc(json_object_size(pk) + 1,
				sizeof(*img->packages));
	json_object_foreach(pk, key, v) {
		if (!json_is_string(v)) {
			bo_err_set(err, "invalid image description '%s': "
				   "version of '%s' must be a string", path,
				   key);
			goto out;
		}
		img->packages[img->npackages].name = xstrdup(key);
		img->packages[img->npackages].version =
			xstrdup(json_string_value(v));
		img->npackages++;
	}
	if (img->npackages)
		qsort(img->packages, img->npackages, sizeof(*img->packages),
		      cmp_pkg);
	img->libpkgs = xcalloc(lp ? json_object_size(lp) + 1 : 1,
			       sizeof(*img->libpkgs));
	if (lp) {
		json_object_foreach(lp, key, v) {
			if (!json_is_string(v)) {
				bo_err_set(err, "invalid image description "
					   "'%s': package of library '%s' must "
					   "be a string", path, key);
				goto out;
			}
			img->libpkgs[img->nlibpkgs].library = xstrdup(key);
			img->libpkgs[img->nlibpkgs].package =
				xstrdup(json_string_value(v));
			img->nlibpkgs++;
		}
	}
	rc = 0;
out:
	json_decref(root);
	free(path);
	if (rc == 0) {
		*ret = img;
	} else {
		image_free(img);
	}
	return rc;
}

const char *image_package_version(const struct image *img, const char *name)
{
	size_t lo = 0, hi;

	if (!img || !name)
		return NULL;
	hi = img->npackages;
	while (lo < hi) {	/* packages are sorted by name */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, img->packages[mid].name);

		if (c == 0)
			return img->packages[mid].version;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *image_library_package(const struct image *img,
				  const char *library)
{
	size_t i;

	if (!img || !library)
		return NULL;
	for (i = 0; i < img->nlibpkgs; i++)
		if (strcmp(img->libpkgs[i].library, library) == 0)
			return img->libpkgs[i].package;
	return NULL;
}

void image_free(struct image *img)
{
	size_t i;

	if (!img)
		return;
	free(img->name);
	free(img->distro);
	free(img->release);
	free(img->dir);
	free(img->rootfs);
	free(img->digest);
	free(img->created_at);
	free(img->method);
	free(img->source);
	free(img->verification);
	free(img->pkgdb);
	image_packages_free(img->packages, img->npackages);
	for (i = 0; i < img->nlibpkgs; i++) {
		free(img->libpkgs[i].library);
		free(img->libpkgs[i].package);
	}
	free(img->libpkgs);
	free(img);
}
