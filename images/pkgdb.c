/* pkgdb.c - the installed packages of Alpine (apk) and Gentoo (portage)
 * root filesystems, and choosing the database an image has. dpkg's status
 * file is read in dpkg.c. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/archive.h"

struct pkglist {
	struct image_package *v;
	size_t n, cap;
};

/* Append NAME/VERSION (taking ownership). */
static void add(struct pkglist *l, char *name, char *version)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 128;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].name = name;
	l->v[l->n].version = version;
	l->n++;
}

static int cmp_pkg(const void *a, const void *b)
{
	const struct image_package *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->version, y->version);
}

/* Sort by name, keep one entry per name, hand the list over. */
static void finish(struct pkglist *l, struct image_package **ret,
		   size_t *ret_n)
{
	size_t i, j = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_pkg);
	for (i = 0; i < l->n; i++) {
		if (j > 0 && strcmp(l->v[j - 1].name, l->v[i].name) == 0) {
			free(l->v[i].name);
			free(l->v[i].version);
			continue;
		}
		l->v[j++] = l->v[i];
	}
	*ret = l->v;
	*ret_n = j;
}

const char *pkgdb_kind_name(enum pkgdb_kind k)
{
	switch (k) {
	case PKGDB_DPKG: return "dpkg";
	case PKGDB_APK: return "apk";
	case PKGDB_PORTAGE: return "portage";
	default: return "none";
	}
}

static char *rstrip(char *s)
{
	char *e = s + strlen(s);

	while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' ||
			 e[-1] == '\t'))
		*--e = '\0';
	return s;
}

int apk_installed_read_stream(FILE *f, const char *shown,
			      struct image_package **ret, size_t *ret_n,
			      bo_err *err)
{
	struct pkglist l = { 0 };
	char *line = NULL, *name = NULL, *version = NULL;
	size_t cap = 0;

	*ret = NULL;
	*ret_n = 0;
	errno = 0;
	for (;;) {
		ssize_t len = getline(&line, &cap, f);

		if (len < 0 || *rstrip(line) == '\0') {
			/* End of a stanza. */
			if (name && version && *name && *version) {
				add(&l, name, version);
				name = version = NULL;
			}
			free(name);
			free(version);
			name = version = NULL;
			if (len < 0)
				break;
			continue;
		}
		if (line[0] == 'P' && line[1] == ':') {
			free(name);
			name = xstrdup(line + 2);
		} else if (line[0] == 'V' && line[1] == ':') {
			free(version);
			version = xstrdup(line + 2);
		}
	}
	free(line);
	if (ferror(f)) {
		int e = errno;

		image_packages_free(l.v, l.n);
		return bo_err_set(err, "cannot read '%s': %s", shown,
				  strerror(e ? e : EIO));
	}
	finish(&l, ret, ret_n);
	return 0;
}

/* Gentoo version syntax (PMS 3.2): digits(.digits)*[a-z]?
 * (_(alpha|beta|pre|rc|p)digits*)*(-rdigits)? -- the whole of V. */
static int version_ok(const char *v)
{
	static const char *const suffixes[] = { "alpha", "beta", "pre", "rc",
						"p" };

	if (*v < '0' || *v > '9')
		return 0;
	while (*v >= '0' && *v <= '9')
		v++;
	while (*v == '.' && v[1] >= '0' && v[1] <= '9') {
		v++;
		while (*v >= '0' && *v <= '9')
			v++;
	}
	if (*v >= 'a' && *v <= 'z')
		v++;
	while (*v == '_') {
		size_t i, n = 0;

		v++;
		for (i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
			n = strlen(suffixes[i]);
			if (strncmp(v, suffixes[i], n) == 0)
				break;
		}
		if (i == sizeof(suffixes) / sizeof(*suffixes))
			return 0;
		v += n;
		while (*v >= '0' && *v <= '9')
			v++;
	}
	if (v[0] == '-' && v[1] == 'r' && v[2] >= '0' && v[2] <= '9') {
		v += 2;
		while (*v >= '0' && *v <= '9')
			v++;
	}
	return *v == '\0';
}

size_t portage_split_pf(const char *pf)
{
	const char *p;

	for (p = strchr(pf, '-'); p; p = strchr(p + 1, '-'))
		if (p > pf && version_ok(p + 1))
			return (size_t)(p - pf);
	return 0;
}

static int is_dir_at(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		S_ISDIR(st.st_mode);
}

int portage_vdb_read_fd(int dirfd, const char *shown,
			struct image_package **ret, size_t *ret_n,
			bo_err *err)
{
	struct pkglist l = { 0 };
	DIR *top;
	struct dirent *cat;
	int fd = dup(dirfd);

	*ret = NULL;
	*ret_n = 0;
	if (fd < 0 || !(top = fdopendir(fd))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return bo_err_set(err, "cannot read '%s': %s", shown,
				  strerror(e));
	}
	rewinddir(top);
	while ((cat = readdir(top)) != NULL) {
		struct dirent *pe;
		DIR *cd;
		int cfd;

		if (cat->d_name[0] == '.' || !is_dir_at(dirfd, cat->d_name))
			continue;
		cfd = openat(dirfd, cat->d_name, O_RDONLY | O_DIRECTORY |
			     O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0 || !(cd = fdopendir(cfd))) {
			int e = errno;

			if (cfd >= 0)
				close(cfd);
			closedir(top);
			image_packages_free(l.v, l.n);
			return bo_err_set(err, "cannot read '%s/%s': %s", shown,
					  cat->d_name, strerror(e));
		}
		while ((pe = readdir(cd)) != NULL) {
			size_t cut;

			/* Portage's temporary "-MERGING-" entries start with
			 * '-'; hidden entries are not packages. */
			if (pe->d_name[0] == '.' || pe->d_name[0] == '-' ||
			    !is_dir_at(cfd, pe->d_name))
				continue;
			cut = portage_split_pf(pe->d_name);
			if (!cut)
				continue;
			add(&l, xasprintf("%s/%.*s", cat->d_name, (int)cut,
					  pe->d_name),
			    xstrdup(pe->d_name + cut + 1));
		}
		closedir(cd);
	}
	closedir(top);
	finish(&l, ret, ret_n);
	return 0;
}

/* Read the stream database at RELPATH with READER. */
static int read_file_db(const char *rootfs, const char *relpath,
			int (*reader)(FILE *, const char *,
				      struct image_package **, size_t *,
				      bo_err *),
			struct image_package **ret, size_t *ret_n,
			bo_err *err)
{
	char *shown = xasprintf("%s/%s", rootfs, relpath);
	int fd = rootfs_open(rootfs, relpath, 0), rc;
	FILE *f;

	if (fd < 0) {
		rc = bo_err_set(err, "cannot open '%s': %s", shown,
				strerror(errno));
		free(shown);
		return rc;
	}
	f = fdopen(fd, "r");
	if (!f) {
		rc = bo_err_set(err, "cannot read '%s': %s", shown,
				strerror(errno));
		close(fd);
		free(shown);
		return rc;
	}
	rc = reader(f, shown, ret, ret_n, err);
	fclose(f);
	free(shown);
	return rc;
}

/* 1 when RELPATH exists inside ROOTFS (resolved in it). */
static int exists_in(const char *rootfs, const char *relpath, int flags)
{
	int fd = rootfs_open(rootfs, relpath, flags);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int image_read_packages(const char *rootfs, struct image_package **ret,
			size_t *ret_n, enum pkgdb_kind *ret_kind,
			bo_err *err)
{
	*ret = NULL;
	*ret_n = 0;
	*ret_kind = PKGDB_NONE;
	if (exists_in(rootfs, "var/lib/dpkg/status", 0)) {
		*ret_kind = PKGDB_DPKG;
		return read_file_db(rootfs, "var/lib/dpkg/status",
				    dpkg_status_read_stream, ret, ret_n, err);
	}
	if (exists_in(rootfs, "lib/apk/db/installed", 0)) {
		*ret_kind = PKGDB_APK;
		return read_file_db(rootfs, "lib/apk/db/installed",
				    apk_installed_read_stream, ret, ret_n,
				    err);
	}
	if (exists_in(rootfs, "var/db/pkg", O_DIRECTORY)) {
		char *shown = xasprintf("%s/var/db/pkg", rootfs);
		int fd = rootfs_open(rootfs, "var/db/pkg", O_DIRECTORY), rc;

		*ret_kind = PKGDB_PORTAGE;
		if (fd < 0) {
			rc = bo_err_set(err, "cannot open '%s': %s", shown,
					strerror(errno));
		} else {
			rc = portage_vdb_read_fd(fd, shown, ret, ret_n, err);
			close(fd);
		}
		free(shown);
		return rc;
	}
	return 0;
}
