/* flavour.c - tell a musl rootfs from a glibc one by its dynamic loader. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/flavour.h"

/* Symbolic links followed while resolving one path, as the kernel's limit. */
#define MAX_LINKS 40

const char *guest_flavour_name(enum guest_flavour f)
{
	return f == GUEST_FLAVOUR_MUSL ? "musl" : "glibc";
}

/* Resolve PATH (absolute, as seen from inside the rootfs) the way the
 * kernel would after chroot(ROOTFS): every symbolic link is read here, an
 * absolute target restarts at ROOTFS, ".." never climbs above it. On
 * success stores the host path of the final object in host (hostlen bytes)
 * and its lstat in *st (never a link) and returns 0; returns -1 when the
 * path does not resolve (missing, a loop, too long). */
static int resolve_in_root(const char *rootfs, const char *path, char *host,
			   size_t hostlen, struct stat *st)
{
	char done[PATH_MAX] = "";	/* resolved so far, "" = the root */
	char todo[PATH_MAX], next[PATH_MAX], target[PATH_MAX];
	int links = 0;

	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return -1;
	for (;;) {
		char *p = todo, *comp, *rest;
		size_t dlen = strlen(done);
		ssize_t n;

		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		comp = p;
		rest = strchr(p, '/');
		if (rest)
			*rest++ = '\0';
		else
			rest = p + strlen(p);
		if (strcmp(comp, ".") == 0) {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (strcmp(comp, "..") == 0) {
			char *slash = strrchr(done, '/');

			if (slash)
				*slash = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (dlen + 1 + strlen(comp) >= sizeof(done))
			return -1;
		snprintf(done + dlen, sizeof(done) - dlen, "/%s", comp);
		if (snprintf(host, hostlen, "%s%s", rootfs, done) >= (int)hostlen ||
		    lstat(host, st) < 0)
			return -1;
		if (!S_ISLNK(st->st_mode)) {
			if (*rest && !S_ISDIR(st->st_mode))
				return -1;
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (++links > MAX_LINKS)
			return -1;
		n = readlink(host, target, sizeof(target) - 1);
		if (n <= 0)
			return -1;
		target[n] = '\0';
		done[dlen] = '\0';	/* the link itself is replaced */
		if (target[0] == '/')
			done[0] = '\0';	/* absolute: from the rootfs's root */
		if (snprintf(next, sizeof(next), "%s/%s", target, rest) >=
		    (int)sizeof(next))
			return -1;
		memcpy(todo, next, sizeof(todo));
	}
	if (snprintf(host, hostlen, "%s%s", rootfs, done[0] ? done : "/") >=
	    (int)hostlen)
		return -1;
	return lstat(host, st) < 0 ? -1 : 0;
}

/* 1 when PATH inside ROOTFS resolves to a regular file; its host path then
 * in host. */
static int is_file_in_root(const char *rootfs, const char *path, char *host,
			   size_t hostlen)
{
	struct stat st;

	return resolve_in_root(rootfs, path, host, hostlen, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

/* 1 when ROOTFS/lib holds an ld-musl-*.so.1 that resolves to a file. */
static int has_musl_loader(const char *rootfs)
{
	char libdir[PATH_MAX], name[PATH_MAX], host[PATH_MAX];
	struct stat st;
	struct dirent *de;
	DIR *d;
	int found = 0;

	if (resolve_in_root(rootfs, "/lib", libdir, sizeof(libdir), &st) < 0 ||
	    !S_ISDIR(st.st_mode) || !(d = opendir(libdir)))
		return 0;
	while (!found && (de = readdir(d))) {
		if (fnmatch("ld-musl-*.so.1", de->d_name, 0) != 0)
			continue;
		snprintf(name, sizeof(name), "/lib/%s", de->d_name);
		found = is_file_in_root(rootfs, name, host, sizeof(host));
	}
	closedir(d);
	return found;
}

/* Where glibc distributions keep the x86_64 loader: the ABI path (Fedora,
 * Gentoo, Arch, and Debian's link) and Debian's multiarch file. */
static const char *const glibc_loaders[] = {
	"/lib64/ld-linux-x86-64.so.2",
	"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	NULL,
};

/* 1 when a glibc loader is present that is not gcompat's (musl with a
 * glibc compatibility shim is still musl). */
static int has_glibc_loader(const char *rootfs)
{
	char host[PATH_MAX];
	size_t i;

	for (i = 0; glibc_loaders[i]; i++) {
		const char *base;

		if (!is_file_in_root(rootfs, glibc_loaders[i], host,
				     sizeof(host)))
			continue;
		base = strrchr(host, '/');
		base = base ? base + 1 : host;
		if (strncmp(base, "libgcompat.so", 13) != 0)
			return 1;
	}
	return 0;
}

int guest_flavour_detect(const char *rootfs, enum guest_flavour *ret,
			 bo_err *err)
{
	struct stat st;

	if (stat(rootfs, &st) < 0)
		return bo_err_set(err, "cannot read rootfs '%s': %s", rootfs,
				  strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bo_err_set(err, "rootfs '%s' is not a directory", rootfs);
	if (has_glibc_loader(rootfs))
		*ret = GUEST_FLAVOUR_GLIBC;
	else if (has_musl_loader(rootfs))
		*ret = GUEST_FLAVOUR_MUSL;
	else
		return bo_err_set(err, "rootfs '%s' has no dynamic loader the guest can use (neither /lib/ld-musl-*.so.1 nor /lib64/ld-linux-x86-64.so.2 nor /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)",
				  rootfs);
	return 0;
}
