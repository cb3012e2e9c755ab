/* t2030-images-digest - the tree digest is stable, independent of creation
 * order and timestamps, and changes with content, mode, symlink target,
 * names and structure. */
#include "config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "images/digest.h"
#include "tests/tap.h"

static void put(const char *dir, const char *rel, const char *content,
		mode_t mode)
{
	char *p = xasprintf("%s/%s", dir, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, content, strlen(content)) !=
	    (ssize_t)strlen(content))
		tap_diag("cannot write %s", p);
	if (fd >= 0)
		close(fd);
	chmod(p, mode);
	free(p);
}

static void mk(const char *dir, const char *rel, mode_t mode)
{
	char *p = xasprintf("%s/%s", dir, rel);

	mkdir(p, mode);
	chmod(p, mode);
	free(p);
}

static void ln(const char *dir, const char *target, const char *rel)
{
	char *p = xasprintf("%s/%s", dir, rel);

	unlink(p);
	if (symlink(target, p) < 0)
		tap_diag("cannot symlink %s", p);
	free(p);
}

/* Build the same small tree; ORDER changes the creation order. */
static void make_tree(const char *dir, int order)
{
	mkdir(dir, 0755);
	if (order == 0) {
		mk(dir, "etc", 0755);
		mk(dir, "usr", 0755);
		mk(dir, "usr/lib", 0755);
		put(dir, "etc/os-release", "ID=test\n", 0644);
		put(dir, "usr/lib/libx.so.1", "\x7f" "ELF fake", 0644);
		put(dir, "usr/bin-tool", "#!/bin/sh\n", 0755);
		put(dir, "empty", "", 0600);
		ln(dir, "usr/lib", "lib");
		ln(dir, "libx.so.1", "usr/lib/libx.so");
		mk(dir, "tmp", 01777);
	} else {
		mk(dir, "tmp", 01777);
		put(dir, "empty", "", 0600);
		mk(dir, "usr", 0755);
		put(dir, "usr/bin-tool", "#!/bin/sh\n", 0755);
		mk(dir, "usr/lib", 0755);
		ln(dir, "libx.so.1", "usr/lib/libx.so");
		put(dir, "usr/lib/libx.so.1", "\x7f" "ELF fake", 0644);
		ln(dir, "usr/lib", "lib");
		mk(dir, "etc", 0755);
		put(dir, "etc/os-release", "ID=test\n", 0644);
	}
	chmod(dir, 0755);
}

static int digest(const char *dir, char *out)
{
	bo_err err;

	if (digest_tree(dir, out, DIGEST_STR_LEN, &err) < 0) {
		tap_diag("%s", err.msg);
		snprintf(out, DIGEST_STR_LEN, "error");
		return -1;
	}
	return 0;
}

int main(void)
{
	char tmpl[] = "/tmp/t2030-images-XXXXXX";
	char *tmp, *a, *b;
	char da[DIGEST_STR_LEN], db[DIGEST_STR_LEN], dc[DIGEST_STR_LEN];
	bo_err err;

	tmp = mkdtemp(tmpl);
	if (!tmp) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	a = xasprintf("%s/a", tmp);
	b = xasprintf("%s/b", tmp);
	make_tree(a, 0);
	make_tree(b, 1);

	digest(a, da);
	tap_ok(strncmp(da, "sha256:", 7) == 0 && strlen(da) == 71,
	       "format sha256:<64 hex>: %s", da);
	digest(a, db);
	tap_ok(strcmp(da, db) == 0, "stable across two runs");
	digest(b, db);
	tap_ok(strcmp(da, db) == 0,
	       "same tree built in another order digests the same");

	/* Timestamps do not count. */
	{
		char *p = xasprintf("%s/etc/os-release", b);
		struct timeval tv[2] = { { 1000000, 0 }, { 1000000, 0 } };

		utimes(p, tv);
		free(p);
		digest(b, db);
		tap_ok(strcmp(da, db) == 0, "mtime does not change the digest");
	}

	/* Content. */
	put(b, "etc/os-release", "ID=tesT\n", 0644);
	digest(b, dc);
	tap_ok(strcmp(da, dc) != 0, "one changed byte changes it");
	put(b, "etc/os-release", "ID=test\n", 0644);
	digest(b, dc);
	tap_ok(strcmp(da, dc) == 0, "changed back: same digest again");
	put(b, "empty", "\n", 0600);
	digest(b, dc);
	tap_ok(strcmp(da, dc) != 0, "an empty file gaining a byte changes it");
	put(b, "empty", "", 0600);

	/* Mode. */
	{
		char *p = xasprintf("%s/usr/bin-tool", b);

		chmod(p, 0775);
		digest(b, dc);
		tap_ok(strcmp(da, dc) != 0, "file mode changes it");
		chmod(p, 0755);
		free(p);
		p = xasprintf("%s/tmp", b);
		chmod(p, 0777);
		digest(b, dc);
		tap_ok(strcmp(da, dc) != 0, "sticky bit on a directory "
		       "changes it");
		chmod(p, 01777);
		free(p);
	}

	/* Symlink target, not followed. */
	ln(b, "libx.so.2", "usr/lib/libx.so");
	digest(b, dc);
	tap_ok(strcmp(da, dc) != 0, "symlink target changes it");
	ln(b, "libx.so.1", "usr/lib/libx.so");
	digest(b, dc);
	tap_ok(strcmp(da, dc) == 0, "target restored: same digest");
	{
		/* Symlinks that point out of the tree, at a directory and at
		 * a file: what they point at is not part of the tree, so
		 * changing it must not move the digest. */
		char *out = xasprintf("%s/outside", tmp);
		char *file = xasprintf("%s/outside/f", tmp);

		mk(tmp, "outside", 0755);
		put(out, "f", "before", 0644);
		ln(b, out, "outdir");
		ln(b, file, "outfile");
		digest(b, da);
		put(out, "f", "after, and longer", 0600);
		put(out, "g", "a new file", 0644);
		digest(b, dc);
		tap_ok(strcmp(da, dc) == 0, "links are not followed: a file "
		       "changed and a file added outside, behind a symlink "
		       "to their directory and one to the file, leave the "
		       "digest alone");
		unlink(file);
		digest(b, dc);
		tap_ok(strcmp(da, dc) == 0, "nor does a dangling link's "
		       "target vanishing");
		free(out);
		free(file);
		out = xasprintf("%s/outdir", b);
		unlink(out);
		free(out);
		out = xasprintf("%s/outfile", b);
		unlink(out);
		free(out);
		digest(a, da);
	}
	{
		/* A symlink to a directory is hashed as a link, so a tree
		 * whose symlink points outside does not pull that in. */
		char *c = xasprintf("%s/c", tmp);

		make_tree(c, 0);
		ln(c, "/usr", "outside");
		digest(c, dc);
		tap_ok(strcmp(da, dc) != 0, "an added symlink changes it");
		free(c);
	}

	/* Names and structure. */
	{
		char *p = xasprintf("%s/empty", b), *q = xasprintf("%s/emptz", b);

		rename(p, q);
		digest(b, dc);
		tap_ok(strcmp(da, dc) != 0, "a renamed file changes it");
		rename(q, p);
		free(p);
		free(q);
		mk(b, "newdir", 0755);
		digest(b, dc);
		tap_ok(strcmp(da, dc) != 0, "an added empty directory "
		       "changes it");
	}

	/* Errors. */
	tap_ok(digest_tree("/nonexistent-t2030", dc, sizeof(dc), &err) == -1 &&
	       tap_contains(err.msg, "/nonexistent-t2030"),
	       "missing root: error names it");
	{
		char *f = xasprintf("%s/etc/os-release", a);

		tap_ok(digest_tree(f, dc, sizeof(dc), &err) == -1 &&
		       tap_contains(err.msg, "not a directory"),
		       "a file is not a tree");
		free(f);
	}

	/* digest_file_sha256 against a known vector. */
	{
		char *f = xasprintf("%s/abc", tmp);
		char hex[65];

		put(tmp, "abc", "abc", 0644);
		tap_ok(digest_file_sha256(f, hex, sizeof(hex), &err) == 0 &&
		       strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a3"
			      "96177a9cb410ff61f20015ad") == 0,
		       "digest_file_sha256('abc')");
		free(f);
	}

	/* A known answer, worked out by hand from the encoding in
	 * images/digest.h (SHA-256, FIPS 180-4, of the byte string
	 *   "benchorch-tree-v1"
	 *   "\nd 0755 0 0 1:."
	 *   "\nf 0644 0 0 1:a 3 abc"
	 *   "\nd 0700 0 0 1:d"
	 *   "\nl 0777 0 0 3:d/l 4:../a"
	 * e.g. python3 -c 'import hashlib; print(hashlib.sha256(b"...")
	 * .hexdigest())'). Owner and group are part of it: root makes
	 * them 0. */
	if (geteuid() == 0) {
		char *k = xasprintf("%s/known", tmp);
		char *p;

		mk(tmp, "known", 0755);
		put(k, "a", "abc", 0644);
		mk(k, "d", 0700);
		ln(k, "../a", "d/l");
		if (lchown(k, 0, 0) < 0)
			tap_diag("cannot chown %s", k);
		p = xasprintf("%s/a", k);
		if (lchown(p, 0, 0) < 0)
			tap_diag("cannot chown %s", p);
		free(p);
		p = xasprintf("%s/d", k);
		if (lchown(p, 0, 0) < 0)
			tap_diag("cannot chown %s", p);
		free(p);
		p = xasprintf("%s/d/l", k);
		if (lchown(p, 0, 0) < 0)
			tap_diag("cannot chown %s", p);
		free(p);
		digest(k, dc);
		tap_ok(strcmp(dc, "sha256:f147f046d57837c000b3aa062814f817"
			      "982f4f3f38ab08fa279799711b363cd0") == 0,
		       "known answer for a fixed tree of a file, a directory "
		       "and a symlink (%s)", dc);
		free(k);
	} else {
		tap_skip(1, "the known-answer tree must be owned by 0:0: "
			 "needs root");
	}

	/* The test image's rootfs (tests/lib.sh builds it before this
	 * test when it is missing). */
	{
		char *root = tap_test_rootfs();

		if (geteuid() == 0 && access(root, R_OK) == 0) {
			uint64_t t0 = bo_now_ns();
			int r1 = digest(root, da);
			double s = (double)(bo_now_ns() - t0) / 1e9;
			int r2 = digest(root, db);

			tap_ok(r1 == 0 && r2 == 0 && strcmp(da, db) == 0,
			       "real rootfs %s: stable (%s, %.2f s)", root, da,
			       s);
		} else {
			tap_skip(1, "no readable rootfs at %s (or not root)",
				 root);
		}
		free(root);
	}

	free(a);
	free(b);
	if (bo_rm_rf(tmp, &err) < 0)
		tap_diag("%s", err.msg);
	return tap_done();
}
