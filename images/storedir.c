/* storedir.c - the image store STATE/images kept closed to other users:
 * its trees keep setuid bits and file capabilities from their tarballs,
 * and their tmp/ is world-writable, so no other user may reach them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/store.h"

/* Close the directory entry NAME of the store DFD to group and others
 * when it is a directory open to them (an image made before the store was
 * closed). Entries that are not directories are left alone. Returns 0, or
 * -1 with err set. */
static int close_entry(int dfd, const char *images_dir, const char *name,
		       bo_err *err)
{
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISDIR(st.st_mode) || !(st.st_mode & 077))
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return 0;	/* gone or swapped meanwhile */
	if (fchmod(fd, st.st_mode & 06700) < 0) {
		bo_err_set(err, "cannot close '%s/%s' to other users: %s",
			   images_dir, name, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Close the store open at FD (IMAGES_DIR, whose fstat is *ST) and every
 * directory in it to other users. Returns 0, or -1 with err set. FD is
 * consumed. */
static int close_store(int fd, const char *images_dir, const struct stat *st,
		       bo_err *err)
{
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if ((st->st_mode & 07077) && fchmod(fd, 0700) < 0) {
		close(fd);
		return bo_err_set(err, "cannot close the image store '%s' to "
				  "other users: %s", images_dir,
				  strerror(errno));
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return bo_err_set(err, "cannot read the image store '%s': %s",
				  images_dir, strerror(errno));
	}
	while (rc == 0 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rc = close_entry(dirfd(d), images_dir, de->d_name, err);
	closedir(d);
	return rc;
}

int images_store_ready(const char *images_dir, int create, bo_err *err)
{
	struct stat st;
	int fd;

	if (create) {
		char *parent = xstrdup(images_dir), *slash = strrchr(parent, '/');
		int rc = 0;

		if (slash && slash != parent) {
			*slash = '\0';
			rc = bo_mkdir_p(parent, err);	/* STATE: 0755 */
		}
		free(parent);
		if (rc < 0)
			return -1;
		if (mkdir(images_dir, 0700) < 0 && errno != EEXIST)
			return bo_err_set(err, "cannot create the image store "
					  "'%s': %s", images_dir,
					  strerror(errno));
	}
	fd = open(images_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && !create)
			return 0;
		struct stat lst;
		int e = errno;

		if ((e == ELOOP || e == ENOTDIR) &&
		    lstat(images_dir, &lst) == 0 && S_ISLNK(lst.st_mode))
			return bo_err_set(err, "refusing the image store '%s': "
					  "it is a symbolic link", images_dir);
		return bo_err_set(err, "cannot open the image store '%s': %s",
				  images_dir, strerror(e));
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return bo_err_set(err, "cannot read the image store '%s': %s",
				  images_dir, strerror(errno));
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		close(fd);
		return bo_err_set(err, "refusing the image store '%s': it "
				  "belongs to uid %lu, neither root nor uid %lu "
				  "who runs benchorch", images_dir,
				  (unsigned long)st.st_uid,
				  (unsigned long)geteuid());
	}
	if (st.st_uid != geteuid()) {
		close(fd);	/* root's: only root may change it */
		return 0;
	}
	return close_store(fd, images_dir, &st, err);
}
