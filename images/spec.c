/* spec.c - "DISTRO[:RELEASE]" specs and the list of known distros. */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "images/image.h"
#include "images/recipe.h"

#define NAME_MAX_LEN 64

/* Copy of the first n bytes of s; aborts on out-of-memory like xmalloc. */
static char *dupn(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int image_name_check(const char *s, bo_err *err)
{
	size_t n;

	if (!s || !*s)
		return bo_err_set(err, "is empty");
	n = strlen(s);
	if (strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789._-") != n)
		return bo_err_set(err, "has a character outside [a-z0-9._-]");
	if (*s == '.' || *s == '-')
		return bo_err_set(err, "starts with '%c'", *s);
	if (n > NAME_MAX_LEN)
		return bo_err_set(err, "is %zu characters long (at most %d)", n,
				  NAME_MAX_LEN);
	return 0;
}

int image_name_ok(const char *s)
{
	bo_err err;

	return image_name_check(s, &err) == 0;
}

int image_spec_parse(const char *spec, char **ret_distro, char **ret_release,
		     bo_err *err)
{
	const char *colon;
	char *distro, *release = NULL;
	bo_err e;

	*ret_distro = NULL;
	*ret_release = NULL;
	if (!spec || !*spec)
		return bo_err_set(err, "empty image spec: expected "
				  "DISTRO[:RELEASE]");
	colon = strchr(spec, ':');
	if (colon) {
		distro = dupn(spec, (size_t)(colon - spec));
		release = xstrdup(colon + 1);
	} else {
		distro = xstrdup(spec);
	}
	if (image_name_check(distro, &e) < 0 ||
	    (release && image_name_check(release, &e) < 0)) {
		const char *part = image_name_ok(distro) ? "release" : "distro";

		/* the characters: the form expected says it best; else
		 * which part, and what is wrong with it (empty, too long) */
		if (strncmp(e.msg, "has a character", 15) == 0)
			bo_err_set(err, "invalid image spec '%s': expected "
				   "DISTRO[:RELEASE] made of [a-z0-9._-]", spec);
		else
			bo_err_set(err, "invalid image spec '%s': the %s %s",
				   spec, part, e.msg);
		free(distro);
		free(release);
		return -1;
	}
	*ret_distro = distro;
	*ret_release = release;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *image_known_distros(const char *data_dir)
{
	char *dir = xasprintf("%s/images", data_dir);
	DIR *d = opendir(dir);
	char **names = NULL, *out;
	size_t n = 0, cap = 0, len = 1, i;
	struct dirent *de;

	free(dir);
	if (!d)
		return xstrdup("");
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		char *name;

		if (l <= 5 || strcmp(de->d_name + l - 5, ".json") != 0)
			continue;
		name = dupn(de->d_name, l - 5);
		if (!image_name_ok(name)) {
			free(name);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = name;
		len += l - 5 + 2;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	out = xmalloc(len);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(out, ", ");
		strcat(out, names[i]);
		free(names[i]);
	}
	free(names);
	return out;
}
