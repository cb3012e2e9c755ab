/* t1210-guest-flavour - guest_flavour_detect on fixture root filesystems:
 * musl and glibc loaders where distributions put them, links resolved
 * inside the rootfs (never on the host), no loader at all; and paths_guest
 * per flavour. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/flavour.h"
#include "lib/paths.h"
#include "tests/tap.h"

static char base[64];
static int ncase;

/* A fresh empty rootfs directory under base. Caller frees. */
static char *new_root(void)
{
	char *r = xasprintf("%s/root%d", base, ++ncase);
	bo_err err;

	if (bo_mkdir_p(r, &err) < 0) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	return r;
}

/* Create ROOT/REL (a regular file, parents made). */
static void mkfile(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel), *slash = strrchr(p, '/');
	bo_err err;
	int fd;

	*slash = '\0';
	if (bo_mkdir_p(p, &err) < 0) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	*slash = '/';
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0) {
		printf("Bail out! cannot create %s\n", p);
		exit(1);
	}
	close(fd);
	free(p);
}

/* Create ROOT/REL as a symbolic link to TARGET (parents made). */
static void mklink(const char *root, const char *rel, const char *target)
{
	char *p = xasprintf("%s/%s", root, rel), *slash = strrchr(p, '/');
	bo_err err;

	*slash = '\0';
	if (bo_mkdir_p(p, &err) < 0) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	*slash = '/';
	if (symlink(target, p) < 0) {
		printf("Bail out! cannot link %s\n", p);
		exit(1);
	}
	free(p);
}

/* Detect ROOT and check the outcome: WANT, or -1 for an error. */
static void expect(const char *root, int want, const char *what)
{
	enum guest_flavour f = GUEST_FLAVOUR_GLIBC;
	bo_err err = { "" };
	int rc = guest_flavour_detect(root, &f, &err);

	if (want < 0) {
		tap_ok(rc < 0 && tap_contains(err.msg, root),
		       "%s: error naming the rootfs", what);
		tap_diag("%s", err.msg);
	} else {
		tap_ok(rc == 0 && (int)f == want, "%s: %s", what,
		       guest_flavour_name((enum guest_flavour)want));
		if (rc < 0)
			tap_diag("%s", err.msg);
	}
}

int main(void)
{
	char *r, *p;
	bo_err err;
	const char *tmp = getenv("TMPDIR");

	snprintf(base, sizeof(base), "%s/t1210.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(base)) {
		printf("Bail out! mkdtemp failed\n");
		return 1;
	}

	r = new_root();
	mkfile(r, "lib/ld-musl-x86_64.so.1");
	mkfile(r, "etc/os-release");
	expect(r, GUEST_FLAVOUR_MUSL, "musl loader in /lib");
	free(r);

	r = new_root();
	mkfile(r, "lib64/ld-linux-x86-64.so.2");
	expect(r, GUEST_FLAVOUR_GLIBC, "glibc loader in /lib64");
	free(r);

	r = new_root();
	mkfile(r, "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
	expect(r, GUEST_FLAVOUR_GLIBC, "glibc loader in /lib/x86_64-linux-gnu");
	free(r);

	/* Alpine: an absolute link, whose target exists in the rootfs only. */
	r = new_root();
	mklink(r, "lib/ld-musl-x86_64.so.1", "/lib/libc.musl-x86_64.so.1");
	mkfile(r, "lib/libc.musl-x86_64.so.1");
	tap_ok(access("/lib/libc.musl-x86_64.so.1", F_OK) != 0,
	       "the link's target does not exist on the host");
	expect(r, GUEST_FLAVOUR_MUSL, "absolute musl loader link");
	free(r);

	/* Debian, merged /usr: /lib and /lib64 are links, the loader too. */
	r = new_root();
	mklink(r, "lib", "usr/lib");
	mklink(r, "lib64", "usr/lib64");
	mklink(r, "usr/lib64/ld-linux-x86-64.so.2",
	       "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
	mkfile(r, "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
	expect(r, GUEST_FLAVOUR_GLIBC, "merged /usr, absolute loader link");
	free(r);

	/* No loader at all. */
	r = new_root();
	mkfile(r, "etc/os-release");
	p = xasprintf("%s/usr", r);
	bo_mkdir_p(p, &err);
	free(p);
	expect(r, -1, "no loader");
	free(r);

	/* Links that only resolve on the host do not count. */
	r = new_root();
	mklink(r, "lib/ld-musl-x86_64.so.1",
	       "../../../../../../../../../../bin/sh");
	mklink(r, "lib64/ld-linux-x86-64.so.2", "/bin/sh");
	expect(r, -1, "links climbing out of the rootfs");
	free(r);

	r = new_root();
	mklink(r, "lib/ld-musl-x86_64.so.1", "libc.musl-x86_64.so.1");
	expect(r, -1, "dangling musl loader link");
	free(r);

	r = new_root();
	mklink(r, "lib/ld-musl-x86_64.so.1", "ld-musl-x86_64.so.1");
	mklink(r, "lib64/ld-linux-x86-64.so.2", "/lib64/loop");
	mklink(r, "lib64/loop", "ld-linux-x86-64.so.2");
	expect(r, -1, "link loops");
	free(r);

	/* A glibc distribution with its musl package installed stays glibc. */
	r = new_root();
	mkfile(r, "lib64/ld-linux-x86-64.so.2");
	mklink(r, "lib/ld-musl-x86_64.so.1",
	       "/usr/lib/x86_64-linux-musl/libc.so");
	mkfile(r, "usr/lib/x86_64-linux-musl/libc.so");
	expect(r, GUEST_FLAVOUR_GLIBC, "glibc with musl installed");
	free(r);

	/* Alpine with gcompat: its ld-linux is a shim over musl. */
	r = new_root();
	mkfile(r, "lib/ld-musl-x86_64.so.1");
	mklink(r, "lib64/ld-linux-x86-64.so.2", "/lib/libgcompat.so.0");
	mkfile(r, "lib/libgcompat.so.0");
	expect(r, GUEST_FLAVOUR_MUSL, "musl with gcompat");
	free(r);

	/* A loader name that is a directory is no loader. */
	r = new_root();
	p = xasprintf("%s/lib/ld-musl-x86_64.so.1", r);
	bo_mkdir_p(p, &err);
	free(p);
	expect(r, -1, "loader name that is a directory");
	free(r);

	r = xasprintf("%s/does-not-exist", base);
	expect(r, -1, "missing rootfs");
	free(r);

	/* paths_guest: one binary per flavour, each with its override. */
	setenv("BENCHORCH_GUEST", "/x/glibc-guest", 1);
	setenv("BENCHORCH_GUEST_MUSL", "/x/musl-guest", 1);
	p = paths_guest(GUEST_FLAVOUR_GLIBC);
	tap_ok(strcmp(p, "/x/glibc-guest") == 0, "BENCHORCH_GUEST: %s", p);
	free(p);
	p = paths_guest(GUEST_FLAVOUR_MUSL);
	tap_ok(strcmp(p, "/x/musl-guest") == 0, "BENCHORCH_GUEST_MUSL: %s", p);
	free(p);
	unsetenv("BENCHORCH_GUEST");
	unsetenv("BENCHORCH_GUEST_MUSL");
	p = paths_guest(GUEST_FLAVOUR_MUSL);
	tap_ok(tap_contains(p, "/benchorch-guest-musl"), "musl default: %s", p);
	free(p);
	p = paths_guest(GUEST_FLAVOUR_GLIBC);
	tap_ok(tap_contains(p, "/benchorch-guest") &&
	       !tap_contains(p, "musl"), "glibc default: %s", p);
	free(p);

	bo_rm_rf(base, &err);
	return tap_done();
}
