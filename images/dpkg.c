/* dpkg.c - read the installed packages from a dpkg status file.
 *
 * The file is a sequence of RFC 822-style stanzas separated by blank lines;
 * a line starting with a space or tab continues the previous field. Only
 * Package, Version and Status matter here. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "images/archive.h"
#include "images/image.h"

struct pkglist {
	struct image_package *v;
	size_t n, cap;
};

/* The stanza being read. */
struct stanza {
	char *package;
	char *version;
	char *status;
};

static void stanza_clear(struct stanza *s)
{
	free(s->package);
	free(s->version);
	free(s->status);
	memset(s, 0, sizeof(*s));
}

/* Strip leading and trailing blanks in place; returns the start. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* "want flag status" with status "installed" and flag "ok": the package's
 * files are on disk. want "install" or "hold" (a held package is
 * installed too); "deinstall"/"purge" mean it is on its way out and
 * "config-files", "half-installed" etc. that it is not usable. */
static int status_installed(const char *st)
{
	char want[32], flag[32], state[32], extra;
	int n = sscanf(st, "%31s %31s %31s %c", want, flag, state, &extra);

	if (n != 3)
		return 0;
	return (strcmp(want, "install") == 0 || strcmp(want, "hold") == 0) &&
		strcmp(flag, "ok") == 0 && strcmp(state, "installed") == 0;
}

static void stanza_end(struct stanza *s, struct pkglist *l)
{
	if (s->package && s->version && s->status && *s->package &&
	    *s->version && status_installed(s->status)) {
		char *colon = strchr(s->package, ':');

		if (colon)	/* "libc6:amd64" -> "libc6" */
			*colon = '\0';
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 128;
			l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
		}
		l->v[l->n].name = s->package;
		l->v[l->n].version = s->version;
		l->n++;
		s->package = NULL;
		s->version = NULL;
	}
	stanza_clear(s);
}

static int cmp_pkg(const void *a, const void *b)
{
	const struct image_package *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->version, y->version);
}

int dpkg_status_read(const char *path, struct image_package **ret,
		     size_t *ret_n, bo_err *err)
{
	FILE *f = fopen(path, "re");
	int rc;

	*ret = NULL;
	*ret_n = 0;
	if (!f)
		return bo_err_set(err, "cannot open '%s': %s", path,
				  strerror(errno));
	rc = dpkg_status_read_stream(f, path, ret, ret_n, err);
	fclose(f);
	return rc;
}

int dpkg_status_read_stream(FILE *f, const char *path,
			    struct image_package **ret, size_t *ret_n,
			    bo_err *err)
{
	struct pkglist l = { 0 };
	struct stanza s = { 0 };
	char *line = NULL;
	size_t cap = 0, i, j;
	ssize_t len;

	*ret = NULL;
	*ret_n = 0;
	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *colon, *val;

		if (line[0] == ' ' || line[0] == '\t')
			continue;	/* continuation of a field */
		if (*trim(line) == '\0') {
			stanza_end(&s, &l);
			continue;
		}
		colon = strchr(line, ':');
		if (!colon)
			continue;	/* not a field; dpkg would complain */
		*colon = '\0';
		val = trim(colon + 1);
		if (strcasecmp(line, "Package") == 0) {
			free(s.package);
			s.package = xstrdup(val);
		} else if (strcasecmp(line, "Version") == 0) {
			free(s.version);
			s.version = xstrdup(val);
		} else if (strcasecmp(line, "Status") == 0) {
			free(s.status);
			s.status = xstrdup(val);
		}
		errno = 0;
	}
	if (ferror(f)) {
		int e = errno;

		free(line);
		stanza_clear(&s);
		image_packages_free(l.v, l.n);
		return bo_err_set(err, "cannot read '%s': %s", path,
				  strerror(e ? e : EIO));
	}
	stanza_end(&s, &l);	/* last stanza without a trailing blank line */
	free(line);

	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_pkg);
	/* One entry per name (a Multi-Arch: same package appears once per
	 * architecture, normally with the same version). */
	for (i = 0, j = 0; i < l.n; i++) {
		if (j > 0 && strcmp(l.v[j - 1].name, l.v[i].name) == 0) {
			free(l.v[i].name);
			free(l.v[i].version);
			continue;
		}
		l.v[j++] = l.v[i];
	}
	*ret = l.v;
	*ret_n = j;
	return 0;
}

void image_packages_free(struct image_package *p, size_t n)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].version);
	}
	free(p);
}
