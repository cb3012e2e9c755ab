/* t2000-images-dpkg - the dpkg status reader on small fixture files (and on
 * a real bookworm rootfs when one is at hand). */
#include "config.h"

#include <unistd.h>

#include "images/image.h"
#include "tests/tap.h"

static char *fixture(const char *name)
{
	return xasprintf("%s/tests/fixtures/%s", tap_srcdir(), name);
}

/* Read fixture NAME; returns the package count or -1 (err printed). */
static long read_fixture(const char *name, struct image_package **p)
{
	char *path = fixture(name);
	size_t n = 0;
	bo_err err;
	int rc = dpkg_status_read(path, p, &n, &err);

	if (rc < 0)
		tap_diag("%s", err.msg);
	free(path);
	return rc < 0 ? -1 : (long)n;
}

static const char *version_of(struct image_package *p, long n,
			      const char *name)
{
	long i;

	for (i = 0; i < n; i++)
		if (strcmp(p[i].name, name) == 0)
			return p[i].version;
	return NULL;
}

static int sorted(struct image_package *p, long n)
{
	long i;

	for (i = 1; i < n; i++)
		if (strcmp(p[i - 1].name, p[i].name) >= 0)
			return 0;
	return 1;
}

int main(void)
{
	struct image_package *p = NULL;
	long n;
	bo_err err;
	size_t sn;

	/* Normal file: three installed packages, continuation lines. */
	n = read_fixture("images-dpkg-normal.status", &p);
	tap_ok(n == 3, "normal: 3 installed packages (got %ld)", n);
	tap_ok(n == 3 && strcmp(p[0].name, "base-files") == 0 &&
	       strcmp(p[1].name, "libssl3") == 0 &&
	       strcmp(p[2].name, "zlib1g") == 0, "normal: sorted by name");
	tap_ok(tap_contains(version_of(p, n, "zlib1g"), "1:1.2.13.dfsg-1") &&
	       strcmp(version_of(p, n, "zlib1g"), "1:1.2.13.dfsg-1") == 0,
	       "normal: epoch kept in the version");
	tap_ok(version_of(p, n, "libssl3") &&
	       strcmp(version_of(p, n, "libssl3"), "3.0.15-1~deb12u1") == 0,
	       "normal: version of libssl3");
	tap_ok(!version_of(p, n, "fake-inside-a-description"),
	       "normal: a continuation line is not a field");
	image_packages_free(p, n < 0 ? 0 : (size_t)n);

	/* Removed, half-installed and config-only packages are left out. */
	n = read_fixture("images-dpkg-deinstalled.status", &p);
	tap_ok(n == 2, "deinstalled: only 2 packages count (got %ld)", n);
	tap_ok(version_of(p, n, "kept") &&
	       strcmp(version_of(p, n, "kept"), "3.0-1") == 0,
	       "deinstalled: 'install ok installed' is kept");
	tap_ok(version_of(p, n, "held") != NULL,
	       "deinstalled: 'hold ok installed' is installed too");
	tap_ok(!version_of(p, n, "removed-keeps-config") &&
	       !version_of(p, n, "purged") && !version_of(p, n, "half") &&
	       !version_of(p, n, "broken") &&
	       !version_of(p, n, "unpacked-only"),
	       "deinstalled: config-files, not-installed, half-* and "
	       "unpacked are skipped");
	tap_ok(!version_of(p, n, "no-version"),
	       "deinstalled: an entry without Version is skipped");
	image_packages_free(p, n < 0 ? 0 : (size_t)n);

	/* No trailing newline, :arch suffixes, lowercase field names. */
	n = read_fixture("images-dpkg-nonl.status", &p);
	tap_ok(n == 3, "nonl: 3 packages (got %ld)", n);
	tap_ok(version_of(p, n, "last-no-newline") &&
	       strcmp(version_of(p, n, "last-no-newline"), "0.9") == 0,
	       "nonl: last stanza without a newline is read");
	tap_ok(version_of(p, n, "libc6") &&
	       strcmp(version_of(p, n, "libc6"), "2.36-9+deb12u9") == 0,
	       "nonl: 'libc6:amd64' is reported as libc6, once");
	tap_ok(version_of(p, n, "lowercase-fields") &&
	       strcmp(version_of(p, n, "lowercase-fields"), "1.2-3") == 0,
	       "nonl: field names are case-insensitive, values trimmed");
	tap_ok(sorted(p, n), "nonl: sorted, no duplicates");
	image_packages_free(p, n < 0 ? 0 : (size_t)n);

	/* Empty file: no packages, no error. */
	n = read_fixture("images-dpkg-empty.status", &p);
	tap_ok(n == 0, "empty: no packages and no error");
	image_packages_free(p, n < 0 ? 0 : (size_t)n);

	/* Missing file: an error naming it. */
	p = NULL;
	tap_ok(dpkg_status_read("/nonexistent/var/lib/dpkg/status", &p, &sn,
				&err) < 0 &&
	       tap_contains(err.msg, "/nonexistent/var/lib/dpkg/status") &&
	       p == NULL, "missing file: error names it");

	/* The test image's rootfs (tests/lib.sh builds it before this test
	 * when it is missing). */
	{
		char *root = tap_test_rootfs();
		char *status;

		status = xasprintf("%s/var/lib/dpkg/status", root);
		if (access(status, R_OK) == 0) {
			int rc = dpkg_status_read(status, &p, &sn, &err);

			tap_ok(rc == 0 && sn > 50 &&
			       version_of(p, (long)sn, "libc6") &&
			       version_of(p, (long)sn, "dpkg") &&
			       sorted(p, (long)sn),
			       "real rootfs %s: %zu packages incl. libc6, "
			       "dpkg", root, rc == 0 ? sn : 0);
			if (rc == 0)
				image_packages_free(p, sn);
		} else {
			tap_skip(1, "no rootfs at %s", root);
		}
		free(status);
		free(root);
	}
	return tap_done();
}
