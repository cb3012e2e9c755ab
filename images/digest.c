/* digest.c - canonical SHA-256 over a directory tree (see digest.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "images/digest.h"

#define READ_CHUNK (256 * 1024)
#define MAX_DEPTH 256

struct walk {
	EVP_MD_CTX *md;
	char *buf;		/* READ_CHUNK bytes */
	const char *root;
	bo_err *err;
};

static void upd(struct walk *w, const void *p, size_t n)
{
	EVP_DigestUpdate(w->md, p, n);
}

/* Length-prefixed string, so no separator can be forged by a name. */
static void upd_str(struct walk *w, const char *s, size_t n)
{
	char hdr[32];
	int l = snprintf(hdr, sizeof(hdr), "%zu:", n);

	upd(w, hdr, (size_t)l);
	upd(w, s, n);
}

static int fail_errno(struct walk *w, const char *what, const char *rel)
{
	return bo_err_set(w->err, "cannot %s '%s/%s': %s", what, w->root, rel,
			  strerror(errno));
}

/* Hash the contents of regular file NAME in DFD; st is its lstat. */
static int hash_file(struct walk *w, int dfd, const char *name,
		     const char *rel, const struct stat *st)
{
	struct stat fst;
	off_t total = 0;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK |
		    O_CLOEXEC);
	if (fd < 0)
		return fail_errno(w, "open", rel);
	if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode) ||
	    fst.st_ino != st->st_ino || fst.st_dev != st->st_dev) {
		close(fd);
		return bo_err_set(w->err, "'%s/%s' changed while being read",
				  w->root, rel);
	}
	for (;;) {
		ssize_t n = read(fd, w->buf, READ_CHUNK);

		if (n < 0) {
			if (errno == EINTR && !bo_interrupted)
				continue;
			fail_errno(w, "read", rel);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		upd(w, w->buf, (size_t)n);
		total += n;
	}
	close(fd);
	if (total != st->st_size)
		return bo_err_set(w->err, "'%s/%s' changed while being read",
				  w->root, rel);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(struct walk *w, int dfd, const char *rel, int depth);

/* Hash one entry NAME of directory DFD whose path relative to the root is
 * REL ("." for the root itself, then NAME is "."). */
static int walk_entry(struct walk *w, int dfd, const char *name,
		      const char *rel, int depth)
{
	struct stat st;
	char hdr[96];
	char type;
	int l;

	if (bo_interrupted)
		return bo_err_set(w->err, "interrupted");
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_errno(w, "stat", rel);
	switch (st.st_mode & S_IFMT) {
	case S_IFREG: type = 'f'; break;
	case S_IFDIR: type = 'd'; break;
	case S_IFLNK: type = 'l'; break;
	case S_IFCHR: type = 'c'; break;
	case S_IFBLK: type = 'b'; break;
	case S_IFIFO: type = 'p'; break;
	case S_IFSOCK: type = 's'; break;
	default: type = '?'; break;
	}
	l = snprintf(hdr, sizeof(hdr), "\n%c %04o %lu %lu ", type,
		     (unsigned)(st.st_mode & 07777), (unsigned long)st.st_uid,
		     (unsigned long)st.st_gid);
	upd(w, hdr, (size_t)l);
	upd_str(w, rel, strlen(rel));

	switch (type) {
	case 'f':
		l = snprintf(hdr, sizeof(hdr), " %lld ",
			     (long long)st.st_size);
		upd(w, hdr, (size_t)l);
		return hash_file(w, dfd, name, rel, &st);
	case 'l': {
		size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 256;
		char *target;
		ssize_t n;

		for (;;) {
			target = xmalloc(cap);
			n = readlinkat(dfd, name, target, cap);
			if (n < 0) {
				free(target);
				return fail_errno(w, "read link", rel);
			}
			if ((size_t)n < cap)
				break;
			free(target);
			cap *= 2;
		}
		upd(w, " ", 1);
		upd_str(w, target, (size_t)n);
		free(target);
		return 0;
	}
	case 'c':
	case 'b':
		l = snprintf(hdr, sizeof(hdr), " %u,%u",
			     major(st.st_rdev), minor(st.st_rdev));
		upd(w, hdr, (size_t)l);
		return 0;
	case 'd': {
		int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC);
		int rc;

		if (sub < 0)
			return fail_errno(w, "open", rel);
		rc = walk_dir(w, sub, rel, depth + 1);	/* closes sub */
		return rc;
	}
	default:
		return 0;
	}
}

/* Hash the sorted entries of directory DFD (closed on return). */
static int walk_dir(struct walk *w, int dfd, const char *rel, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (depth > MAX_DEPTH) {
		close(dfd);
		return bo_err_set(w->err, "'%s/%s' is nested too deeply",
				  w->root, rel);
	}
	d = fdopendir(dfd);
	if (!d) {
		fail_errno(w, "read directory", rel);
		close(dfd);
		return -1;
	}
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
		errno = 0;
	}
	if (errno) {
		fail_errno(w, "read directory", rel);
		rc = -1;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n && rc == 0; i++) {
		char *child = strcmp(rel, ".") == 0 ? xstrdup(names[i]) :
			xasprintf("%s/%s", rel, names[i]);

		rc = walk_entry(w, dirfd(d), names[i], child, depth);
		free(child);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
}

static void to_hex(const unsigned char *md, unsigned n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[2 * n] = '\0';
}

int digest_tree(const char *root, char *buf, size_t len, bo_err *err)
{
	struct walk w = { .root = root, .err = err };
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	struct stat st;
	int rc = -1;

	if (len < DIGEST_STR_LEN)
		return bo_err_set(err, "digest buffer too small");
	if (lstat(root, &st) < 0)
		return bo_err_set(err, "cannot stat '%s': %s", root,
				  strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bo_err_set(err, "'%s' is not a directory", root);
	w.md = EVP_MD_CTX_new();
	if (!w.md || EVP_DigestInit_ex(w.md, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(w.md);
		return bo_err_set(err, "cannot initialise SHA-256");
	}
	w.buf = xmalloc(READ_CHUNK);
	upd(&w, "benchorch-tree-v1", 17);
	rc = walk_entry(&w, AT_FDCWD, root, ".", 0);
	if (rc == 0 && EVP_DigestFinal_ex(w.md, md, &mdlen) != 1)
		rc = bo_err_set(err, "cannot finish SHA-256");
	if (rc == 0) {
		memcpy(buf, "sha256:", 7);
		to_hex(md, mdlen, buf + 7);
	}
	free(w.buf);
	EVP_MD_CTX_free(w.md);
	return rc;
}

int digest_file_sha256(const char *path, char *buf, size_t len, bo_err *err)
{
	return digest_file_hex(path, DIGEST_SHA256, buf, len, err);
}

int digest_file_hex(const char *path, enum digest_alg alg, char *buf,
		    size_t len, bo_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return bo_err_set(err, "cannot open '%s': %s", path,
				  strerror(errno));
	rc = digest_fd_hex(fd, path, alg, buf, len, err);
	close(fd);
	return rc;
}

int digest_fd_hex(int fd, const char *shown, enum digest_alg alg, char *buf,
		  size_t len, bo_err *err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	EVP_MD_CTX *ctx;
	const EVP_MD *type = alg == DIGEST_SHA512 ? EVP_sha512() :
		EVP_sha256();
	const char *tname = alg == DIGEST_SHA512 ? "SHA-512" : "SHA-256";
	char *chunk;
	int rc = 0;

	if (len < (size_t)EVP_MD_size(type) * 2 + 1)
		return bo_err_set(err, "digest buffer too small");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return bo_err_set(err, "cannot read '%s': %s", shown,
				  strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, type, NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		return bo_err_set(err, "cannot initialise %s", tname);
	}
	chunk = xmalloc(READ_CHUNK);
	for (;;) {
		ssize_t n = read(fd, chunk, READ_CHUNK);

		if (n < 0) {
			if (errno == EINTR && !bo_interrupted)
				continue;
			rc = bo_err_set(err, "cannot read '%s': %s", shown,
					strerror(errno));
			break;
		}
		if (n == 0)
			break;
		EVP_DigestUpdate(ctx, chunk, (size_t)n);
	}
	if (rc == 0 && EVP_DigestFinal_ex(ctx, md, &mdlen) != 1)
		rc = bo_err_set(err, "cannot finish %s", tname);
	if (rc == 0)
		to_hex(md, mdlen, buf);
	if (lseek(fd, 0, SEEK_SET) < 0 && rc == 0)
		rc = bo_err_set(err, "cannot rewind '%s': %s", shown,
				strerror(errno));
	free(chunk);
	EVP_MD_CTX_free(ctx);
	return rc;
}
