/* t0030-run-lock - bo_run_lock, the machine's run lock: its directory is
 * created 0700, the lock 0600 in it; a directory or lock file of another
 * user (as anyone could plant in /run/lock) and symlinks in their place
 * are refused with one line naming them; a directory of ours open to
 * others is tightened; a held lock is waited for, said once. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/paths.h"
#include "lib/runlock.h"
#include "tests/tap.h"

#define OTHER_UID 65534

static int said;

static void on_wait(void *ctx, const char *path)
{
	(void)ctx;
	(void)path;
	said++;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? st.st_mode : 0;
}

/* bo_run_lock(DIR) is refused with a one-line message holding WANT. */
static void refused(const char *dir, const char *want, const char *what)
{
	bo_err err;
	int fd = bo_run_lock(dir, NULL, NULL, &err);

	tap_ok(fd < 0 && tap_contains(err.msg, want) && !strchr(err.msg, '\n'),
	       "%s: %s", what, fd < 0 ? err.msg : "(taken)");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char tmpl[] = "/tmp/t0030-run-lock-XXXXXX";
	char *base = mkdtemp(tmpl), *dir, *lock, *p;
	bo_err err;
	int fd;

	if (!base) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	tap_ok(strncmp(BENCHORCH_RUN_LOCK, BENCHORCH_RUN_LOCK_DIR "/", strlen(BENCHORCH_RUN_LOCK_DIR) + 1) == 0 &&
	       strncmp(BENCHORCH_RUN_LOCK, "/run/lock/", 10) != 0,
	       "the lock is in a directory of its own, not in /run/lock: %s",
	       BENCHORCH_RUN_LOCK);
	dir = xasprintf("%s/parent/benchorch", base);
	lock = xasprintf("%s/run.lock", dir);

	/* 1. Created: directory 0700, lock 0600, both ours. */
	fd = bo_run_lock(dir, on_wait, NULL, &err);
	tap_ok(fd >= 0, "taken, its directory created%s%s", fd < 0 ? ": " : "",
	       fd < 0 ? err.msg : "");
	tap_ok(S_ISDIR(mode_of(dir)) && (mode_of(dir) & 07777) == 0700,
	       "the directory is 0700 (%o)", mode_of(dir) & 07777);
	tap_ok(S_ISREG(mode_of(lock)) && (mode_of(lock) & 07777) == 0600,
	       "the lock file is 0600 (%o)", mode_of(lock) & 07777);

	/* 2. Held: another process waits, says so once, then takes it. */
	if (fd >= 0) {
		int fds[2];
		pid_t pid;
		char c = 0;

		if (pipe(fds) < 0)
			fds[0] = fds[1] = -1;
		pid = fork();
		if (pid == 0) {
			int f;

			close(fds[0]);
			close(fd);	/* the parent's lock, shared */
			f = bo_run_lock(dir, on_wait, NULL, &err);
			c = f >= 0 && said == 1 ? 'y' : 'n';
			if (write(fds[1], &c, 1) != 1)
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		usleep(400000);
		close(fd);	/* let it have the lock */
		if (read(fds[0], &c, 1) != 1)
			c = 0;
		close(fds[0]);
		waitpid(pid, NULL, 0);
		tap_ok(c == 'y', "a held lock is waited for (said once), then "
		       "taken");
	}

	/* 3. Ours but open to others: tightened. */
	chmod(dir, 01777);
	fd = bo_run_lock(dir, NULL, NULL, &err);
	tap_ok(fd >= 0 && (mode_of(dir) & 07777) == 0700,
	       "a directory of ours open to others is tightened to 0700 (%o)",
	       mode_of(dir) & 07777);
	if (fd >= 0)
		close(fd);

	/* 4. Symlinks in their place. */
	unlink(lock);
	p = xasprintf("%s/elsewhere", base);
	symlink(p, lock);
	refused(dir, lock, "a lock that is a symlink is refused, named");
	tap_ok(!mode_of(p), "and nothing was created where it points");
	unlink(lock);
	rmdir(dir);
	mkdir(p, 0700);
	symlink(p, dir);
	refused(dir, dir, "a lock directory that is a symlink is refused, "
		"named");
	unlink(dir);
	free(p);

	/* 5. Another user's directory or lock file. */
	if (geteuid() != 0) {
		tap_skip(3, "needs root (files of another user)");
	} else {
		mkdir(dir, 0700);
		if (chown(dir, OTHER_UID, OTHER_UID) < 0)
			tap_diag("chown: %s", strerror(errno));
		refused(dir, dir, "a lock directory of another user is "
			"refused, named");
		if (chown(dir, 0, 0) < 0)
			tap_diag("chown: %s", strerror(errno));
		fd = open(lock, O_WRONLY | O_CREAT, 0666);
		if (fd >= 0)
			close(fd);
		if (chown(lock, OTHER_UID, OTHER_UID) < 0)
			tap_diag("chown: %s", strerror(errno));
		refused(dir, lock, "a lock file of another user is refused, "
			"named");
		unlink(lock);
		mkfifo(lock, 0600);
		refused(dir, lock, "a lock that is not a regular file is "
			"refused, named");
	}
	if (bo_rm_rf(base, &err) < 0)
		tap_diag("%s", err.msg);
	free(dir);
	free(lock);
	return tap_done();
}
