/* t0010-rmtree - bo_rm_rf removes a tree without following links: a
 * symlink to a directory outside is removed, not followed; a directory
 * swapped for a symlink to the outside while the tree is being removed
 * (as a user who can write in an image's tmp/ could) costs the outside
 * nothing; a file system mounted inside is not entered (root). */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "tests/tap.h"

/* Files in the directory swapped while it is removed: enough that its
 * removal is still going on when the swap happens. */
#define NFILES 20000

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
}

/* NFILES empty files f0 ... in DIR (created). */
static void make_files(const char *dir)
{
	int i;

	mkdir(dir, 0755);
	for (i = 0; i < NFILES; i++) {
		char *p = xasprintf("%s/f%d", dir, i);

		make_file(p);
		free(p);
	}
}

/* How many of DIR's f0 ... are there. */
static int count_files(const char *dir)
{
	int i, n = 0;

	for (i = 0; i < NFILES; i++) {
		char *p = xasprintf("%s/f%d", dir, i);

		n += exists(p);
		free(p);
	}
	return n;
}

/* A child that waits until TREE/a/b is opened (the removal has entered
 * it), then swaps TREE/a for a symlink to OUTSIDE, which holds b/ with
 * files of the same names. Returns its pid, once it watches. */
static pid_t start_swapper(const char *tree, const char *outside)
{
	char *b = xasprintf("%s/a/b", tree);
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char buf[4096];
		int in = inotify_init1(IN_CLOEXEC);
		char *a = xasprintf("%s/a", tree);
		char *moved = xasprintf("%s/a-moved", tree);

		if (in < 0 || inotify_add_watch(in, b, IN_OPEN) < 0)
			_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		alarm(20);
		if (read(in, buf, sizeof(buf)) <= 0)
			_exit(2);
		if (rename(a, moved) < 0 || symlink(outside, a) < 0)
			_exit(3);
		_exit(0);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		free(b);
		return -1;
	}
	close(ready[0]);
	free(b);
	return pid;
}

/* A tmpfs mounted at TREE/m, with a file, in a mount namespace of our
 * own: bo_rm_rf does not enter it. */
static void mount_point_case(const char *base)
{
	char *tree = xasprintf("%s/mtree", base), *m = xasprintf("%s/m", tree);
	char *inside = xasprintf("%s/keep", m);
	bo_err err;
	int rc;

	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0) {
		tap_skip(3, "needs root and a mount namespace of its own");
		goto out;
	}
	mkdir(tree, 0755);
	mkdir(m, 0755);
	if (mount("t0010", m, "tmpfs", 0, NULL) < 0) {
		tap_skip(3, "cannot mount a tmpfs: %s", strerror(errno));
		goto out;
	}
	make_file(inside);
	rc = bo_rm_rf(tree, &err);
	tap_ok(rc < 0 && tap_contains(err.msg, m) &&
	       tap_contains(err.msg, "mounted"),
	       "a file system mounted inside is refused, named: %s",
	       rc < 0 ? err.msg : "(removed)");
	tap_ok(exists(inside), "and nothing in it was removed");
	umount2(m, MNT_DETACH);
	tap_ok(bo_rm_rf(tree, &err) == 0 && !exists(tree),
	       "unmounted, the tree goes");
out:
	free(inside);
	free(m);
	free(tree);
}

int main(void)
{
	char tmpl[] = "/tmp/t0010-rmtree-XXXXXX";
	char *base = mkdtemp(tmpl), *tree, *outside, *p, *q;
	bo_err err;
	pid_t pid;
	int rc, st = 0;

	if (!base) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	tree = xasprintf("%s/tree", base);
	outside = xasprintf("%s/outside", base);

	/* 1. Symlinks to the outside, absolute and relative, are removed. */
	mkdir(tree, 0755);
	mkdir(outside, 0755);
	p = xasprintf("%s/keep", outside);
	make_file(p);
	q = xasprintf("%s/tmp", tree);
	mkdir(q, 01777);
	free(q);
	q = xasprintf("%s/tmp/abs", tree);
	symlink(outside, q);
	free(q);
	q = xasprintf("%s/tmp/rel", tree);
	symlink("../../outside", q);
	free(q);
	q = xasprintf("%s/tmp/file", tree);
	symlink(p, q);
	free(q);
	rc = bo_rm_rf(tree, &err);
	tap_ok(rc == 0 && !exists(tree), "a tree with symlinks out is "
	       "removed%s%s", rc ? ": " : "", rc ? err.msg : "");
	tap_ok(exists(p), "the files outside survive");
	free(p);

	/* 2. A directory swapped for a symlink out while it is removed. */
	mkdir(tree, 0755);
	p = xasprintf("%s/a", tree);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/a/b", tree);
	make_files(p);
	free(p);
	p = xasprintf("%s/b", outside);
	make_files(p);
	pid = start_swapper(tree, outside);
	rc = bo_rm_rf(tree, &err);
	if (pid > 0)
		waitpid(pid, &st, 0);
	tap_ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the directory was swapped for a symlink out during the "
	       "removal");
	tap_ok(count_files(p) == NFILES, "every file outside survives the "
	       "swap (%d of %d)", count_files(p), NFILES);
	tap_ok(rc == 0 && !exists(tree), "and the tree is removed%s%s",
	       rc ? ": " : "", rc ? err.msg : "");
	free(p);

	/* 3. Missing, a plain file, a symlink given as the top. */
	tap_ok(bo_rm_rf(tree, &err) == 0, "a missing path is no error");
	p = xasprintf("%s/link", base);
	symlink(outside, p);
	tap_ok(bo_rm_rf(p, &err) == 0 && !exists(p) && exists(outside),
	       "a symlink given as the tree is removed, not followed");
	free(p);

	mount_point_case(base);
	if (bo_rm_rf(base, &err) < 0)
		tap_diag("%s", err.msg);
	free(tree);
	free(outside);
	return tap_done();
}
