/* t2020-images-rootfs - rootfs_make_path creates paths inside a rootfs and
 * refuses every symlink on the way, so nothing is created outside. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/image.h"
#include "tests/tap.h"

static char *tmp;

static char *P(const char *rel)
{
	return xasprintf("%s/%s", tmp, rel);
}

static int is_dir(const char *rel)
{
	char *p = P(rel);
	struct stat st;
	int r = lstat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return r;
}

static int is_reg(const char *rel)
{
	char *p = P(rel);
	struct stat st;
	int r = lstat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return r;
}

/* Number of entries in directory REL (-1 if it cannot be read). */
static int count_entries(const char *rel)
{
	char *p = P(rel);
	DIR *d = opendir(p);
	struct dirent *de;
	int n = 0;

	free(p);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void do_symlink(const char *target, const char *rel)
{
	char *p = P(rel);

	if (symlink(target, p) < 0)
		tap_diag("symlink %s: %s", p, strerror(errno));
	free(p);
}

static void do_mkdir(const char *rel)
{
	char *p = P(rel);

	mkdir(p, 0755);
	free(p);
}

int main(void)
{
	char tmpl[] = "/tmp/t2020-images-XXXXXX";
	char *root, *outside;
	bo_err err;
	int rc;

	tmp = mkdtemp(tmpl);
	if (!tmp) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	root = P("root");
	outside = P("outside");
	do_mkdir("root");
	do_mkdir("outside");
	do_mkdir("root/var");
	do_symlink(outside, "root/run");		/* absolute */
	do_symlink("../../outside", "root/var/run");	/* relative */
	do_symlink("/nonexistent-dir-t2020", "root/dangling");
	{
		char *t = P("outside/file");

		do_symlink(t, "root/linkfile");
		free(t);
	}

	/* Plain creation. */
	rc = rootfs_make_path(root, "srv/benchorch/guest", 1, &err);
	tap_ok(rc == 0 && is_dir("root/srv/benchorch") &&
	       is_reg("root/srv/benchorch/guest"),
	       "creates directories and an empty file");
	rc = rootfs_make_path(root, "srv/benchorch/guest", 1, &err);
	tap_ok(rc == 0, "again: an existing file is fine");
	rc = rootfs_make_path(root, "./srv//benchorch/data/", 0, &err);
	tap_ok(rc == 0 && is_dir("root/srv/benchorch/data"),
	       "directories only, with '.', '//' and a trailing '/'");

	/* Symlinks anywhere on the path are refused. */
	rc = rootfs_make_path(root, "run/benchorch/guest", 1, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "symlink") &&
	       tap_contains(err.msg, "'run'"),
	       "absolute symlinked component refused (%s)", err.msg);
	tap_ok(count_entries("outside") == 0,
	       "nothing was created outside the rootfs");
	rc = rootfs_make_path(root, "var/run/benchorch", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "'var/run'"),
	       "relative symlinked component refused (%s)", err.msg);
	rc = rootfs_make_path(root, "dangling/x", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "symlink"),
	       "dangling symlink refused (%s)", err.msg);
	tap_ok(access("/nonexistent-dir-t2020", F_OK) < 0,
	       "dangling target not created");
	rc = rootfs_make_path(root, "linkfile", 1, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "symlink"),
	       "symlink as the final file refused (%s)", err.msg);
	rc = rootfs_make_path(root, "run", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "symlink"),
	       "symlink as the final directory refused");
	tap_ok(count_entries("outside") == 0,
	       "still nothing created outside the rootfs");

	/* Other refusals. */
	rc = rootfs_make_path(root, "srv/benchorch/guest/x", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "not a directory"),
	       "a file in the middle of the path (%s)", err.msg);
	rc = rootfs_make_path(root, "srv/benchorch", 1, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "not a regular file"),
	       "a directory where a file is wanted (%s)", err.msg);
	rc = rootfs_make_path(root, "srv/../../outside/x", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "'..'") &&
	       count_entries("outside") == 0, "'..' refused");
	rc = rootfs_make_path(root, "/etc/x", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "relative"),
	       "absolute path refused");
	rc = rootfs_make_path(root, "", 0, &err);
	tap_ok(rc == -1, "empty path refused");
	rc = rootfs_make_path(root, "./", 0, &err);
	tap_ok(rc == -1, "path naming no file refused");
	rc = rootfs_make_path("/nonexistent-root-t2020", "x", 0, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "/nonexistent-root-t2020"),
	       "missing rootfs");

	free(root);
	free(outside);
	if (bo_rm_rf(tmp, &err) < 0)
		tap_diag("%s", err.msg);
	return tap_done();
}
