/* rootfs.c - create paths inside a root filesystem without ever following
 * a symlink the image may contain. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/image.h"

/* Explain why component COMP (ending the prefix SHOWN of relpath) could
 * not be used, looking at what is there now. */
static int comp_error(int dfd, const char *comp, const char *rootfs,
		      const char *shown, int e, bo_err *err)
{
	struct stat st;

	if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			return bo_err_set(err, "refusing to follow symlink "
					  "'%s' in '%s'", shown, rootfs);
		if (!S_ISDIR(st.st_mode) && e == ENOTDIR)
			return bo_err_set(err, "'%s' in '%s' is not a "
					  "directory", shown, rootfs);
	}
	return bo_err_set(err, "cannot create '%s' in '%s': %s", shown, rootfs,
			  strerror(e));
}

/* Make sure regular file COMP exists in DFD (created empty when missing;
 * an existing regular file is left as it is). */
static int make_file(int dfd, const char *comp, const char *rootfs,
		     const char *shown, bo_err *err)
{
	int tries;

	for (tries = 0; tries < 8; tries++) {
		struct stat st;
		int fd;

		if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISREG(st.st_mode))
				return 0;
			if (S_ISLNK(st.st_mode))
				return bo_err_set(err, "refusing to follow "
						  "symlink '%s' in '%s'",
						  shown, rootfs);
			return bo_err_set(err, "'%s' in '%s' exists and is not "
					  "a regular file", shown, rootfs);
		}
		if (errno != ENOENT)
			return comp_error(dfd, comp, rootfs, shown, errno, err);
		fd = openat(dfd, comp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_NOCTTY | O_CLOEXEC, 0644);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)	/* EEXIST: raced; look again */
			return comp_error(dfd, comp, rootfs, shown, errno, err);
	}
	return bo_err_set(err, "cannot create '%s' in '%s': it keeps changing",
			  shown, rootfs);
}

int rootfs_make_path(const char *rootfs, const char *relpath, int is_file,
		     bo_err *err)
{
	char *path, *shown, **comps;
	size_t n = 0, i;
	char *p;
	int dfd, rc = 0;

	if (!relpath || relpath[0] == '/' || relpath[0] == '\0')
		return bo_err_set(err, "path '%s' must be relative to the "
				  "rootfs", relpath ? relpath : "");
	/* Split into components, dropping empty ones and ".". */
	path = xstrdup(relpath);
	comps = xcalloc(strlen(relpath) + 1, sizeof(*comps));
	for (p = path; *p; ) {
		char *c = p;

		while (*p && *p != '/')
			p++;
		if (*p)
			*p++ = '\0';
		if (*c == '\0' || strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			free(comps);
			free(path);
			return bo_err_set(err, "path '%s' must not contain "
					  "'..'", relpath);
		}
		comps[n++] = c;
	}
	if (n == 0) {
		free(comps);
		free(path);
		return bo_err_set(err, "path '%s' names no file", relpath);
	}
	dfd = open(rootfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		rc = bo_err_set(err, "cannot open rootfs '%s': %s", rootfs,
				strerror(errno));
		free(comps);
		free(path);
		return rc;
	}
	shown = xmalloc(strlen(relpath) + 1);
	shown[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *comp = comps[i];
		int nfd;

		if (i)
			strcat(shown, "/");
		strcat(shown, comp);
		if (i == n - 1 && is_file) {
			rc = make_file(dfd, comp, rootfs, shown, err);
			break;
		}
		if (mkdirat(dfd, comp, 0755) < 0 && errno != EEXIST) {
			rc = comp_error(dfd, comp, rootfs, shown, errno, err);
			break;
		}
		nfd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
		if (nfd < 0) {
			rc = comp_error(dfd, comp, rootfs, shown, errno, err);
			break;
		}
		close(dfd);
		dfd = nfd;
	}
	close(dfd);
	free(shown);
	free(comps);
	free(path);
	return rc;
}
