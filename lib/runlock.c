/* runlock.c - the machine's run lock, in a directory only its owner (root)
 * can create files in (runlock.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/runlock.h"

#define RUN_LOCK_NAME "run.lock"

/* Create DIR 0700 (and its missing parents 0755) unless it exists.
 * Returns 0, or -1 with err set. */
static int make_lock_dir(const char *dir, bo_err *err)
{
	char *parent, *slash;
	int rc = 0;

	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return bo_err_set(err, "cannot create the run lock directory "
				  "'%s': %s", dir, strerror(errno));
	parent = xstrdup(dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		rc = bo_mkdir_p(parent, err);
	}
	free(parent);
	if (rc == 0 && mkdir(dir, 0700) < 0 && errno != EEXIST)
		rc = bo_err_set(err, "cannot create the run lock directory "
				"'%s': %s", dir, strerror(errno));
	return rc;
}

/* Open DIR, which must be a real directory of ours (tightened to 0700
 * when open to others). Returns its fd, or -1 with err set. */
static int open_lock_dir(const char *dir, bo_err *err)
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return bo_err_set(err, "refusing the run lock directory '%s': "
				  "%s", dir, errno == ELOOP || errno == ENOTDIR ?
				  "it is not a directory (a symbolic link?)" :
				  strerror(errno));
	if (fstat(fd, &st) < 0) {
		bo_err_set(err, "cannot read the run lock directory '%s': %s",
			   dir, strerror(errno));
		close(fd);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		bo_err_set(err, "refusing the run lock directory '%s': it "
			   "belongs to uid %lu, not to uid %lu who runs "
			   "benchorch (remove it)", dir,
			   (unsigned long)st.st_uid,
			   (unsigned long)geteuid());
		close(fd);
		return -1;
	}
	if ((st.st_mode & 07077) && fchmod(fd, 0700) < 0) {
		bo_err_set(err, "cannot make the run lock directory '%s' "
			   "private: %s", dir, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int bo_run_lock(const char *dir, bo_lock_wait_fn on_wait, void *ctx,
		bo_err *err)
{
	char *path = xasprintf("%s/%s", dir, RUN_LOCK_NAME);
	struct stat st = { 0 };
	int dfd, fd = -1;

	if (make_lock_dir(dir, err) < 0 || (dfd = open_lock_dir(dir, err)) < 0)
		goto out;
	fd = openat(dfd, RUN_LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW |
		    O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0600);
	close(dfd);
	if (fd < 0) {
		bo_err_set(err, "refusing the run lock '%s': %s", path,
			   errno == ELOOP ? "it is a symbolic link" :
			   strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		if (!S_ISREG(st.st_mode))
			bo_err_set(err, "refusing the run lock '%s': it is not "
				   "a regular file (remove it)", path);
		else
			bo_err_set(err, "refusing the run lock '%s': it "
				   "belongs to uid %lu, not to uid %lu who "
				   "runs benchorch (remove it)", path,
				   (unsigned long)st.st_uid,
				   (unsigned long)geteuid());
		close(fd);
		fd = -1;
		goto out;
	}
	fd = bo_flock_wait(fd, path, on_wait, ctx, err);
out:
	free(path);
	return fd;
}
