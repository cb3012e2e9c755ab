/* t2120-images-pkgdb.c - the package database readers: apk
 * (/lib/apk/db/installed), Gentoo's /var/db/pkg, the choice between them
 * and dpkg, Gentoo PF splitting, and rootfs_open() never leaving the
 * rootfs. The apk fixture follows the format in apk-tools' documentation
 * (apk-installed(5): one stanza per package, "P:" name, "V:" version); the
 * PF vectors follow the Package Manager Specification, section 3.2
 * (version syntax) with real package names. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/archive.h"
#include "tests/tap.h"

static void mkdirs(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel);
	bo_err e;

	bo_mkdir_p(p, &e);
	free(p);
}

static void put(const char *root, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", root, rel);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

/* Read up to 15 bytes of FD (closed) into buf; returns the count or -1. */
static ssize_t slurp(int fd, char *buf, size_t len)
{
	ssize_t r;

	if (fd < 0)
		return -1;
	r = read(fd, buf, len - 1);
	buf[r > 0 ? r : 0] = '\0';
	close(fd);
	return r;
}

static void unlink_hostname(const char *root)
{
	char *path = xasprintf("%s/etc/hostname", root);

	unlink(path);
	free(path);
}

/* rootfs_open() on ROOT's var/lib/dpkg/status -> /etc/hostname and
 * up -> ../../../../../../etc, with openat2 (FALLBACK 0: resolved inside
 * ROOT) or without (FALLBACK 1: no symlink followed); leaves
 * ROOT/etc/hostname absent. 4 points with openat2, 5 without. */
static void symlink_points(const char *root, int fallback)
{
	const char *how = fallback ? "without openat2" : "with openat2";
	char buf[16] = "";
	ssize_t r;
	int fd;

	unlink_hostname(root);
	fd = rootfs_open(root, "var/lib/dpkg/status", 0);
	tap_ok(fd < 0, "%s: rootfs_open does not reach the host's /etc/hostname",
	       how);
	if (fd >= 0)
		close(fd);
	put(root, "etc/hostname", "inside\n");
	fd = rootfs_open(root, "var/lib/dpkg/status", 0);
	r = slurp(fd, buf, sizeof(buf));
	if (fallback)
		tap_ok(fd < 0 && errno == ELOOP, "%s: the absolute symlink is "
		       "not followed, not even inside the rootfs (%s)", how,
		       fd < 0 ? strerror(errno) : buf);
	else
		tap_ok(r == 7 && !strcmp(buf, "inside\n"),
		       "%s: the absolute symlink resolves inside the rootfs",
		       how);
	fd = rootfs_open(root, "up/hostname", 0);
	r = slurp(fd, buf, sizeof(buf));
	if (fallback)
		tap_ok(fd < 0, "%s: a climbing symlink is not followed", how);
	else
		tap_ok(fd < 0 || (r == 7 && !strcmp(buf, "inside\n")),
		       "%s: a climbing symlink stops at the rootfs", how);
	fd = rootfs_open(root, "var/lib/dpkg/plain/hostname", 0);
	r = slurp(fd, buf, sizeof(buf));
	if (fallback)
		tap_ok(fd < 0, "%s: a symlinked directory on the way is not "
		       "followed", how);
	else
		tap_ok(r == 7 && !strcmp(buf, "inside\n"),
		       "%s: a relative symlinked directory on the way resolves "
		       "inside the rootfs", how);
	if (fallback) {
		fd = rootfs_open(root, "etc/hostname", 0);
		r = slurp(fd, buf, sizeof(buf));
		tap_ok(r == 7 && !strcmp(buf, "inside\n"),
		       "%s: a plain path through directories opens", how);
	}
	unlink_hostname(root);
}

int main(void)
{
	struct image_package *p = NULL;
	size_t n = 0;
	enum pkgdb_kind kind;
	bo_err e;
	char tmpl[] = "/tmp/t2120-XXXXXX", *root, *path;
	FILE *f;
	int rc;

	/* Gentoo PF splitting. */
	tap_ok(portage_split_pf("openssl-3.0.13-r1") == 7, "PF openssl-3.0.13-r1");
	tap_ok(portage_split_pf("font-adobe-100dpi-1.0.4") == 17,
	       "PF font-adobe-100dpi-1.0.4: '100dpi' is part of the name");
	tap_ok(portage_split_pf("python-3.12.3_p1-r2") == 6,
	       "PF python-3.12.3_p1-r2 (suffix and revision)");
	tap_ok(portage_split_pf("gcc-14.1.1_pre20240525") == 3,
	       "PF gcc-14.1.1_pre20240525");
	tap_ok(portage_split_pf("openssl-1.1.1w") == 7, "PF openssl-1.1.1w (letter)");
	tap_ok(portage_split_pf("noversion") == 0, "PF without a version");
	tap_ok(portage_split_pf("foo-1.2_bogus") == 0, "PF with an invalid suffix");

	/* apk database. */
	path = xasprintf("%s/tests/fixtures/images-apk-installed", tap_srcdir());
	f = fopen(path, "r");
	rc = f ? apk_installed_read_stream(f, path, &p, &n, &e) : -1;
	if (f)
		fclose(f);
	tap_ok(rc == 0 && n == 3, "apk: 3 packages (a stanza without V: "
	       "skipped; last stanza without a blank line read): n=%zu", n);
	tap_ok(rc == 0 && n == 3 && !strcmp(p[0].name, "libcrypto3") &&
	       !strcmp(p[0].version, "3.3.2-r0") && !strcmp(p[1].name, "musl") &&
	       !strcmp(p[2].name, "zlib") && !strcmp(p[2].version, "1.3.1-r1"),
	       "apk: sorted by name with versions");
	image_packages_free(p, n);
	free(path);

	/* A rootfs with a Gentoo vdb. */
	root = mkdtemp(tmpl);
	if (!root) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return 1;
	}
	mkdirs(root, "var/db/pkg/dev-libs/openssl-3.0.13-r1");
	mkdirs(root, "var/db/pkg/dev-libs/libgcrypt-1.10.3-r1");
	mkdirs(root, "var/db/pkg/sys-libs/glibc-2.39-r6");
	mkdirs(root, "var/db/pkg/sys-libs/-MERGING-zlib-1.3");
	mkdirs(root, "var/db/pkg/.cache");
	put(root, "var/db/pkg/dev-libs/not-a-dir-1.0", "x");
	rc = image_read_packages(root, &p, &n, &kind, &e);
	tap_ok(rc == 0 && kind == PKGDB_PORTAGE && n == 3,
	       "portage: 3 packages (merging, hidden and files skipped): n=%zu",
	       n);
	tap_ok(rc == 0 && n == 3 && !strcmp(p[0].name, "dev-libs/libgcrypt") &&
	       !strcmp(p[0].version, "1.10.3-r1") &&
	       !strcmp(p[1].name, "dev-libs/openssl") &&
	       !strcmp(p[1].version, "3.0.13-r1") &&
	       !strcmp(p[2].name, "sys-libs/glibc"),
	       "portage: CATEGORY/NAME -> VERSION, sorted");
	image_packages_free(p, n);

	/* apk wins over portage; dpkg over both. */
	mkdirs(root, "lib/apk/db");
	put(root, "lib/apk/db/installed", "P:musl\nV:1.2.5-r0\n");
	rc = image_read_packages(root, &p, &n, &kind, &e);
	tap_ok(rc == 0 && kind == PKGDB_APK && n == 1, "apk database chosen");
	image_packages_free(p, n);
	mkdirs(root, "var/lib/dpkg");
	put(root, "var/lib/dpkg/status", "Package: libssl3\nStatus: install ok "
	    "installed\nVersion: 3.0.13-1\n");
	rc = image_read_packages(root, &p, &n, &kind, &e);
	tap_ok(rc == 0 && kind == PKGDB_DPKG && n == 1 &&
	       !strcmp(p[0].version, "3.0.13-1"), "dpkg status chosen");
	image_packages_free(p, n);

	/* A status file that is an absolute symlink to the host's, and a
	 * climbing one: never the host's file, with openat2 (resolved
	 * inside the rootfs) and without it (no symlink followed). */
	path = xasprintf("%s/var/lib/dpkg/status", root);
	unlink(path);
	tap_ok(symlink("/etc/hostname", path) == 0, "status -> /etc/hostname");
	free(path);
	path = xasprintf("%s/up", root);
	tap_ok(symlink("../../../../../../etc", path) == 0, "up -> ../../..");
	free(path);
	mkdirs(root, "etc");
	path = xasprintf("%s/var/lib/dpkg/plain", root);
	tap_ok(symlink("../../../etc", path) == 0,
	       "var/lib/dpkg/plain -> ../../../etc");
	free(path);
	if (rootfs_openat2_available()) {
		symlink_points(root, 0);
	} else {
		tap_skip(4, "no openat2 here (an old kernel, or valgrind)");
		unlink_hostname(root);
	}
	rootfs_open_force_fallback = 1;
	symlink_points(root, 1);
	rootfs_open_force_fallback = 0;
	tap_ok(rootfs_check_shape(root, "t", &e) < 0 &&
	       tap_contains(e.msg, "is not a root filesystem"),
	       "etc/ without usr/ or bin/: not a root filesystem");
	mkdirs(root, "usr");
	tap_ok(rootfs_check_shape(root, "t", &e) == 0, "etc/ and usr/: a rootfs");
	bo_rm_rf(root, &e);
	return tap_done();
}
