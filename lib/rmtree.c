/* rmtree.c - bo_rm_rf(): remove a tree relative to directory descriptors,
 * never following a symbolic link and never entering another file system,
 * so that whoever can write inside the tree (an image's world-writable
 * tmp/, say) cannot make the removal reach files outside it. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

/* Directories nested deeper than this are refused (each level holds an
 * open descriptor). */
#define RM_MAX_DEPTH 512
/* Passes over a directory whose entries keep coming back (a process still
 * writing into it) before giving up. */
#define RM_PASSES 4

struct rm {
	dev_t dev;		/* the file system of the top of the tree */
	const char *top;	/* the path given, for messages */
	bo_err *err;
};

static int rm_entry(struct rm *r, int dfd, const char *name, const char *rel,
		    int depth);

/* Remove every entry of the open directory FD (REL below the top);
 * FD is consumed. Returns 0, or -1 with r->err set. */
static int rm_children(struct rm *r, int fd, const char *rel, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		close(fd);
		return bo_err_set(r->err, "cannot remove '%s': %s", rel,
				  strerror(errno));
	}
	errno = 0;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *sub;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		sub = xasprintf("%s/%s", rel, de->d_name);
		rc = rm_entry(r, dirfd(d), de->d_name, sub, depth + 1);
		free(sub);
		errno = 0;
	}
	if (rc == 0 && errno != 0)
		rc = bo_err_set(r->err, "cannot read '%s': %s", rel,
				strerror(errno));
	closedir(d);
	return rc;
}

/* Remove the directory NAME of DFD, whose lstat is *ST: its entries, then
 * itself. A directory swapped for something else meanwhile is removed as
 * that thing, never entered. Returns 0, or -1 with r->err set. */
static int rm_dir(struct rm *r, int dfd, const char *name, const char *rel,
		  const struct stat *st, int depth)
{
	int pass;

	if (st->st_dev != r->dev)
		return bo_err_set(r->err, "cannot remove '%s': another file "
				  "system is mounted there", rel);
	if (depth > RM_MAX_DEPTH)
		return bo_err_set(r->err, "cannot remove '%s': nested more "
				  "than %d directories deep", rel,
				  RM_MAX_DEPTH);
	for (pass = 0; pass < RM_PASSES; pass++) {
		struct stat fst;
		int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				O_NOCTTY | O_CLOEXEC);

		if (fd < 0) {
			if (errno == ENOENT)
				return 0;
			if (errno == ELOOP || errno == ENOTDIR)	/* swapped */
				return rm_entry(r, dfd, name, rel, depth + 1);
			return bo_err_set(r->err, "cannot remove '%s': %s",
					  rel, strerror(errno));
		}
		if (fstat(fd, &fst) < 0 || fst.st_dev != st->st_dev ||
		    fst.st_ino != st->st_ino) {
			close(fd);	/* swapped for another directory */
			return rm_entry(r, dfd, name, rel, depth + 1);
		}
		if (rm_children(r, fd, rel, depth) < 0)
			return -1;
		if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return 0;
		if (errno == ENOTDIR)	/* swapped for a link meanwhile */
			return rm_entry(r, dfd, name, rel, depth + 1);
		if (errno != ENOTEMPTY && errno != EEXIST)
			break;
	}
	return bo_err_set(r->err, "cannot remove '%s': %s", rel,
			  strerror(errno));
}

/* Remove the entry NAME of DFD (REL below the top), whatever it is. */
static int rm_entry(struct rm *r, int dfd, const char *name, const char *rel,
		    int depth)
{
	struct stat st;

	/* bo_interrupted is not polled: the removal is what cleans up
	 * after an interrupted build */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 :
			bo_err_set(r->err, "cannot remove '%s': %s", rel,
				   strerror(errno));
	if (S_ISDIR(st.st_mode))
		return rm_dir(r, dfd, name, rel, &st, depth);
	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno == EISDIR)	/* swapped for a directory meanwhile */
		return rm_entry(r, dfd, name, rel, depth + 1);
	return bo_err_set(r->err, "cannot remove '%s': %s", rel,
			  strerror(errno));
}

int bo_rm_rf(const char *path, bo_err *err)
{
	char *parent = xstrdup(path), *slash, *base;
	struct rm r = { 0, path, err };
	struct stat st;
	int pfd, rc;

	/* the path leading to the tree is the caller's; below it nothing is
	 * trusted */
	while ((slash = strrchr(parent, '/')) != NULL && slash[1] == '\0' &&
	       slash != parent)
		*slash = '\0';
	slash = strrchr(parent, '/');
	if (!slash) {
		base = parent;
		pfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		*slash = '\0';
		base = slash + 1;
		pfd = open(slash == parent ? "/" : parent,
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (pfd < 0) {
		rc = errno == ENOENT ? 0 :
			bo_err_set(err, "cannot remove '%s': %s", path,
				   strerror(errno));
		free(parent);
		return rc;
	}
	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		rc = bo_err_set(err, "cannot remove '%s': not a removable "
				"name", path);
	} else if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		rc = errno == ENOENT ? 0 :
			bo_err_set(err, "cannot remove '%s': %s", path,
				   strerror(errno));
	} else {
		r.dev = st.st_dev;
		rc = rm_entry(&r, pfd, base, path, 0);
	}
	close(pfd);
	free(parent);
	return rc;
}
