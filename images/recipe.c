/* recipe.c - load and validate distribution recipes (JSON data files). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images/recipe.h"

/* Reporting helper: every validation error names the file and the key. */
static int bad(bo_err *err, const char *path, const char *key,
	       const char *what)
{
	return bo_err_set(err, "invalid recipe '%s': '%s' %s", path, key, what);
}

/* Optional string member: *out = copy, or NULL when absent. */
static int get_opt_string(json_t *obj, const char *key, const char *where,
			  const char *path, char **out, bo_err *err)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_string(v)) {
		char *k = xasprintf("%s%s", where, key);
		int rc = bad(err, path, k, "must be a string");

		free(k);
		return rc;
	}
	*out = xstrdup(json_string_value(v));
	return 0;
}

/* Optional boolean member: *out = 1 or 0, 0 when absent. */
static int get_opt_bool(json_t *obj, const char *key, const char *where,
			const char *path, int *out, bo_err *err)
{
	json_t *v = json_object_get(obj, key);

	*out = 0;
	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		char *k = xasprintf("%s%s", where, key);
		int rc = bad(err, path, k, "must be true or false");

		free(k);
		return rc;
	}
	*out = json_is_true(v);
	return 0;
}

/* Array of strings member (optional unless required). */
static int get_string_array(json_t *obj, const char *key, const char *where,
			    const char *path, int required, char ***out,
			    size_t *out_n, bo_err *err)
{
	json_t *v = json_object_get(obj, key);
	size_t i, n;
	char *k;

	*out = NULL;
	*out_n = 0;
	if (!v && !required)
		return 0;
	k = xasprintf("%s%s", where, key);
	if (!v) {
		bad(err, path, k, "is missing");
		free(k);
		return -1;
	}
	if (!json_is_array(v))
		goto wrong;
	n = json_array_size(v);
	for (i = 0; i < n; i++) {
		json_t *s = json_array_get(v, i);

		if (!json_is_string(s) || json_string_length(s) == 0)
			goto wrong;
	}
	*out = xcalloc(n ? n : 1, sizeof(char *));
	for (i = 0; i < n; i++)
		(*out)[i] = xstrdup(json_string_value(json_array_get(v, i)));
	*out_n = n;
	free(k);
	return 0;
wrong:
	bad(err, path, k, "must be an array of non-empty strings");
	free(k);
	return -1;
}

static void free_strings(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A package or library name as used on a command line: no spaces, commas
 * or leading dash (debootstrap --include takes a comma-separated list). */
static int name_ok(const char *s)
{
	if (!*s || *s == '-')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == 0x7f)
			return 0;
	return 1;
}

static int parse_release(struct recipe *r, const char *name, json_t *obj,
			 struct recipe_release *rel, bo_err *err)
{
	char *where = xasprintf("releases.%s.", name);
	json_t *libs;
	size_t i;
	int rc = -1;
	bo_err e;

	rel->name = xstrdup(name);
	rel->json = obj;
	if (image_name_check(name, &e) < 0) {
		bo_err_set(err, "invalid recipe '%s': release name '%s' %s",
			   r->path, name, e.msg);
		goto out;
	}
	if (!json_is_object(obj)) {
		char *k = xasprintf("releases.%s", name);

		bad(err, r->path, k, "must be an object");
		free(k);
		goto out;
	}
	if (get_string_array(obj, "packages", where, r->path, 1,
			     &rel->packages, &rel->npackages, err) < 0)
		goto out;
	for (i = 0; i < rel->npackages; i++) {
		if (!name_ok(rel->packages[i])) {
			char *k = xasprintf("%spackages", where);

			bad(err, r->path, k, "contains an invalid package name");
			free(k);
			goto out;
		}
	}
	if (get_opt_string(obj, "suite", where, r->path, &rel->suite, err) < 0 ||
	    get_opt_string(obj, "mirror", where, r->path, &rel->mirror,
			   err) < 0 ||
	    get_opt_string(obj, "script", where, r->path, &rel->script, err) < 0 ||
	    get_opt_bool(obj, "archived", where, r->path, &rel->archived, err) < 0)
		goto out;
	if (!rel->suite)
		rel->suite = xstrdup(name);
	libs = json_object_get(obj, "libraries");
	if (!libs) {
		char *k = xasprintf("%slibraries", where);

		bad(err, r->path, k, "is missing");
		free(k);
		goto out;
	}
	if (!json_is_object(libs)) {
		char *k = xasprintf("%slibraries", where);

		bad(err, r->path, k, "must be an object");
		free(k);
		goto out;
	}
	{
		const char *lib;
		json_t *pkg;

		rel->libraries = xcalloc(json_object_size(libs) + 1,
					 sizeof(*rel->libraries));
		json_object_foreach(libs, lib, pkg) {
			if (!json_is_string(pkg) ||
			    !name_ok(json_string_value(pkg)) || !name_ok(lib)) {
				char *k = xasprintf("%slibraries.%s", where,
						    lib);

				bad(err, r->path, k,
				    "must map a library name to a package name");
				free(k);
				goto out;
			}
			rel->libraries[rel->nlibraries].library = xstrdup(lib);
			rel->libraries[rel->nlibraries].package =
				xstrdup(json_string_value(pkg));
			rel->nlibraries++;
		}
	}
	rc = 0;
out:
	free(where);
	return rc;
}

int recipe_load_file(const char *path, const char *distro,
		     struct recipe **ret, bo_err *err)
{
	json_error_t jerr;
	json_t *root, *v;
	struct recipe *r;

	*ret = NULL;
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (access(path, R_OK) < 0)
			return bo_err_set(err, "cannot read recipe '%s': %s",
					  path, strerror(errno));
		return bo_err_set(err, "invalid recipe '%s': line %d: %s",
				  path, jerr.line, jerr.text);
	}
	r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	r->json = root;
	if (!json_is_object(root)) {
		bo_err_set(err, "invalid recipe '%s': not a JSON object", path);
		goto fail;
	}

	if (get_opt_string(root, "distro", "", path, &r->distro, err) < 0)
		goto fail;
	if (r->distro && strcmp(r->distro, distro) != 0) {
		bo_err_set(err, "invalid recipe '%s': 'distro' is '%s', "
			   "expected '%s'", path, r->distro, distro);
		goto fail;
	}
	if (!r->distro)
		r->distro = xstrdup(distro);

	v = json_object_get(root, "method");
	if (json_is_string(v) && json_string_length(v) > 0) {
		r->methods = xcalloc(1, sizeof(char *));
		r->methods[0] = xstrdup(json_string_value(v));
		r->nmethods = 1;
	} else if (json_is_array(v)) {
		if (get_string_array(root, "method", "", path, 1, &r->methods,
				     &r->nmethods, err) < 0)
			goto fail;
		if (r->nmethods == 0) {
			bad(err, path, "method", "must not be empty");
			goto fail;
		}
	} else {
		bad(err, path, "method", v ? "must be a string or an array "
		    "of strings" : "is missing");
		goto fail;
	}

	if (get_opt_string(root, "variant", "", path, &r->variant, err) < 0 ||
	    get_opt_string(root, "mirror", "", path, &r->mirror, err) < 0 ||
	    get_opt_string(root, "default_release", "", path,
			   &r->default_release, err) < 0)
		goto fail;
	if (!r->mirror)
		r->mirror = xstrdup("");
	if (get_string_array(root, "components", "", path, 0, &r->components,
			     &r->ncomponents, err) < 0)
		goto fail;

	v = json_object_get(root, "releases");
	if (!json_is_object(v) || json_object_size(v) == 0) {
		bad(err, path, "releases", v ? "must be a non-empty object" :
		    "is missing");
		goto fail;
	}
	{
		const char *name;
		json_t *rel;

		r->releases = xcalloc(json_object_size(v),
				      sizeof(*r->releases));
		json_object_foreach(v, name, rel) {
			struct recipe_release *dst =
				&r->releases[r->nreleases++];

			if (parse_release(r, name, rel, dst, err) < 0)
				goto fail;
		}
	}
	if (!r->default_release) {
		bad(err, path, "default_release", "is missing");
		goto fail;
	}
	if (!recipe_release_find(r, r->default_release)) {
		bo_err_set(err, "invalid recipe '%s': default_release '%s' is "
			   "not in 'releases'", path, r->default_release);
		goto fail;
	}
	*ret = r;
	return 0;
fail:
	recipe_free(r);
	return -1;
}

int recipe_load(const char *data_dir, const char *distro, struct recipe **ret,
		bo_err *err)
{
	char *path = xasprintf("%s/images/%s.json", data_dir, distro);
	int rc;

	*ret = NULL;
	if (access(path, F_OK) < 0 && errno == ENOENT) {
		char *known = image_known_distros(data_dir);

		rc = bo_err_set(err, "unknown distro '%s' (known: %s)", distro,
				*known ? known : "none");
		free(known);
	} else {
		rc = recipe_load_file(path, distro, ret, err);
	}
	free(path);
	return rc;
}

const struct recipe_release *recipe_release_find(const struct recipe *r,
						 const char *name)
{
	size_t i;

	for (i = 0; i < r->nreleases; i++)
		if (strcmp(r->releases[i].name, name) == 0)
			return &r->releases[i];
	return NULL;
}

char *recipe_release_names(const struct recipe *r)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < r->nreleases; i++)
		len += strlen(r->releases[i].name) + 2;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < r->nreleases; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, r->releases[i].name);
	}
	return s;
}

void recipe_free(struct recipe *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->nreleases; i++) {
		struct recipe_release *rel = &r->releases[i];

		free(rel->name);
		free(rel->suite);
		free(rel->mirror);
		free(rel->script);
		free_strings(rel->packages, rel->npackages);
		for (j = 0; j < rel->nlibraries; j++) {
			free(rel->libraries[j].library);
			free(rel->libraries[j].package);
		}
		free(rel->libraries);
	}
	free(r->releases);
	free(r->path);
	free(r->distro);
	free_strings(r->methods, r->nmethods);
	free(r->variant);
	free(r->default_release);
	free(r->mirror);
	free_strings(r->components, r->ncomponents);
	json_decref(r->json);
	free(r);
}
