/* slurm-spool.c - the spool directory of a Slurm submission is shared
 * with every node: it is used only when no other user can write to it,
 * and what is read from it is never reached through a symlink. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/digest.h"
#include "orchestrator/run/slurm.h"

int slurm_spool_check(const char *dir, bo_err *err)
{
	struct stat st;

	if (lstat(dir, &st) != 0)
		return bo_err_set(err, "cannot use spool '%s': %s", dir,
				  strerror(errno));
	if (S_ISLNK(st.st_mode))
		return bo_err_set(err, "refusing spool '%s': it is a symbolic link",
				  dir);
	if (!S_ISDIR(st.st_mode))
		return bo_err_set(err, "refusing spool '%s': it is not a directory",
				  dir);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return bo_err_set(err, "refusing spool '%s': it is owned by uid %lu, neither this user (%lu) nor root",
				  dir, (unsigned long)st.st_uid,
				  (unsigned long)geteuid());
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return bo_err_set(err, "refusing spool '%s': it is writable by %s (mode %04o; chmod go-w it)",
				  dir, st.st_mode & S_IWOTH ? "every user" :
				  "its group", (unsigned)(st.st_mode & 07777));
	return 0;
}

int slurm_spool_open(const char *path, bo_err *err)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO put in a file's place does not hang the open */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return bo_err_set(err, errno == ELOOP ?
				  "'%s' is a symbolic link: not followed" :
				  "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return bo_err_set(err, "'%s' is not a regular file", path);
	}
	if (fcntl(fd, F_SETFL, 0) < 0) {
		close(fd);
		return bo_err_set(err, "cannot read '%s': %s", path,
				  strerror(errno));
	}
	return fd;
}

int slurm_spool_read(const char *path, size_t max_bytes, char **ret_buf,
		     bo_err *err)
{
	char *buf = xmalloc(max_bytes + 1);
	size_t len = 0;
	int fd = slurm_spool_open(path, err);

	if (fd < 0) {
		free(buf);
		return -1;
	}
	while (len < max_bytes) {
		ssize_t got = read(fd, buf + len, max_bytes - len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			bo_err_set(err, "cannot read '%s': %s", path,
				   strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	buf[len] = '\0';
	*ret_buf = buf;
	return 0;
}

int slurm_db_digest(const char *path, char *hex, size_t len, bo_err *err)
{
	char fdpath[64];
	int fd = slurm_spool_open(path, err), rc;

	if (fd < 0)
		return -1;
	/* the file just opened, whatever the name points to by now */
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	rc = digest_file_sha256(fdpath, hex, len, err);
	close(fd);
	if (rc < 0)
		return bo_err_set(err, "cannot read '%s' to check its digest",
				  path);
	return 0;
}
