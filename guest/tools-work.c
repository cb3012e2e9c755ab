/* guest/tools-work.c - the work directory, input files and child
 * processes of the tool mode (see tools-work.h). */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools.h"
#include "fdio.h"
#include "tools-work.h"

/* statfs f_type of the file systems that live in memory (linux/magic.h). */
#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6
#define PASSPHRASE "benchorch tool mode passphrase"
#define PIECE ((size_t)1 << 20)

void tools_say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, "benchorch-guest: ", 17) < 0 || write(2, buf, (size_t)n) < 0)
		return;
}

uint64_t tools_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void tools_find_tool(const char *prog, char *buf, size_t len)
{
	static const char *const dirs[] = { "/usr/local/bin", "/usr/bin",
					    "/bin", "/usr/sbin", "/sbin" };
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(buf, len, "%s/%s", dirs[i], prog);
		if (access(buf, X_OK) == 0)
			return;
	}
	buf[0] = '\0';
}

int guest_tools_same_content(const char *file_a, const char *file_b)
{
	int fa = open(file_a, O_RDONLY | O_CLOEXEC);
	int fb = open(file_b, O_RDONLY | O_CLOEXEC);
	char *a = malloc(PIECE), *b = malloc(PIECE);
	int rc = -1;

	if (fa < 0 || fb < 0 || !a || !b)
		goto out;
	for (;;) {
		ssize_t na = fdio_read_all(fa, a, PIECE), nb = fdio_read_all(fb, b, PIECE);

		if (na < 0 || nb < 0)
			goto out;
		if (na != nb || memcmp(a, b, (size_t)na) != 0) {
			rc = 0;
			goto out;
		}
		if (na == 0) {
			rc = 1;
			goto out;
		}
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	free(a);
	free(b);
	return rc;
}

/* The input: SIZE bytes of an xorshift64 stream (Marsaglia, "Xorshift
 * RNGs", J. Stat. Softw. 8(14), 2003; shifts 13, 7, 17), incompressible
 * like real data, written to PATH. Returns 0 or -1 (errno set). */
static int write_input(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15), left = size;
	uint64_t *buf = malloc(PIECE);
	int rc = -1;

	if (fd < 0 || !buf)
		goto out;
	while (left > 0) {
		size_t n = left < PIECE ? (size_t)left : PIECE, i;

		for (i = 0; i < PIECE / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		if (fdio_write_all(fd, buf, n) < 0)
			goto out;
		left -= n;
	}
	rc = 0;
out:
	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	free(buf);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc;

	if (fd < 0)
		return -1;
	rc = fdio_write_all(fd, text, strlen(text));
	if (close(fd) < 0)
		rc = -1;
	return rc;
}


void tools_work_paths(struct work *w, const char *dir)
{
	snprintf(w->dir, sizeof(w->dir), "%s", dir);
	snprintf(w->plain, sizeof(w->plain), "%s/plain", dir);
	snprintf(w->enc, sizeof(w->enc), "%s/enc", dir);
	snprintf(w->dec, sizeof(w->dec), "%s/dec", dir);
	snprintf(w->pass, sizeof(w->pass), "%s/pass", dir);
	snprintf(w->gnupg, sizeof(w->gnupg), "%s/gnupg", dir);
	snprintf(w->agekey, sizeof(w->agekey), "%s/age.key", dir);
	/* the layer laid over /etc for libgcrypt's nohw: gcrypt/hwf.deny */
	snprintf(w->gcrypt_top, sizeof(w->gcrypt_top), "%s/etc-nohw", dir);
}

int tools_work_setup(struct work *w, uint64_t size)
{
	struct statfs sf;
	char p[256];

	if (mkdir(w->dir, 0700) < 0 && errno != EEXIST) {
		tools_say("cannot create '%s': %s", w->dir, strerror(errno));
		return -1;
	}
	if (statfs(w->dir, &sf) < 0) {
		tools_say("cannot stat '%s': %s", w->dir, strerror(errno));
		return -1;
	}
	if ((unsigned long)sf.f_type != TMPFS_MAGIC_ &&
	    (unsigned long)sf.f_type != RAMFS_MAGIC_) {
		tools_say("'%s' is not in memory (a tmpfs): refusing to write the tool input there",
		    w->dir);
		return -1;
	}
	if (write_input(w->plain, size) < 0 ||
	    write_text(w->pass, PASSPHRASE "\n") < 0) {
		tools_say("cannot write the input in '%s': %s", w->dir,
		    strerror(errno));
		return -1;
	}
	snprintf(p, sizeof(p), "%s/gcrypt", w->gcrypt_top);
	if ((mkdir(w->gnupg, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(w->gcrypt_top, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(p, 0755) < 0 && errno != EEXIST)) {
		tools_say("cannot create directories in '%s': %s", w->dir,
		    strerror(errno));
		return -1;
	}
	/* libgcrypt reads /etc/gcrypt/hwf.deny at initialisation: one
	 * feature a line, "all" for every one (libgcrypt's doc/gcrypt.texi,
	 * "Hardware features"); the same as GCRYCTL_DISABLE_HWF "all", which
	 * guest --nohw uses for the library */
	snprintf(p, sizeof(p), "%s/gcrypt/hwf.deny", w->gcrypt_top);
	if (write_text(p, "all\n") < 0) {
		tools_say("cannot write '%s': %s", p, strerror(errno));
		return -1;
	}
	return 0;
}

/* Write TEXT into the file PATH (a /proc/self map). Returns 0 or -1. */
static int write_proc(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* In a child before exec: lay W's gcrypt_top over /etc in a mount
 * namespace of the child's own, so that libgcrypt finds
 * /etc/gcrypt/hwf.deny while the rootfs stays untouched. The guest runs
 * without privileges (the runner's confiner, guest/confine.c), so the
 * child first makes a user namespace of its own, with its own uid and gid
 * mapped to themselves (user_namespaces(7)); what it may do there it may do
 * to its own mounts only, and the tool it executes next keeps no
 * capability (execve(2) recomputes them for a uid other than 0). Returns 0
 * or -1 (errno set). */
static int mask_gcrypt(const struct work *w)
{
	char opts[512], map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (uid != 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return -1;
		snprintf(map, sizeof(map), "%lu %lu 1", (unsigned long)uid,
			 (unsigned long)uid);
		if (write_proc("/proc/self/uid_map", map) < 0)
			return -1;
		snprintf(map, sizeof(map), "%lu %lu 1", (unsigned long)gid,
			 (unsigned long)gid);
		if (write_proc("/proc/self/setgroups", "deny") < 0 ||
		    write_proc("/proc/self/gid_map", map) < 0)
			return -1;
	} else if (unshare(CLONE_NEWNS) < 0) {
		return -1;
	}
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	/* a read-only overlay of two lower layers, the first on top */
	snprintf(opts, sizeof(opts), "lowerdir=%s:/etc", w->gcrypt_top);
	return mount("overlay", "/etc", "overlay", MS_RDONLY, opts);
}


int tools_run_child(char *const argv[], char *const env[], int out_fd,
		    const struct work *w, bool nohw_gcrypt, struct cost *cost,
		    char *msg, size_t msglen)
{
	int errpipe[2], status, saved;
	struct rusage ru;
	uint64_t t0;
	pid_t pid;
	ssize_t n;

	if (pipe(errpipe) < 0) {
		snprintf(msg, msglen, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fcntl(errpipe[1], F_SETFD, FD_CLOEXEC);
	fcntl(errpipe[0], F_SETFD, FD_CLOEXEC);
	t0 = tools_now_ns();
	pid = fork();
	if (pid < 0) {
		snprintf(msg, msglen, "cannot fork: %s", strerror(errno));
		close(errpipe[0]);
		close(errpipe[1]);
		return -1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);
		const char *what = "exec";

		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
		dup2(out_fd >= 0 ? out_fd : 2, 1);
		if (nohw_gcrypt && mask_gcrypt(w) < 0)
			what = "mask libgcrypt's hardware features (overlay on /etc)";
		else
			execve(argv[0], argv, env);
		saved = errno;
		{
			char m[256];

			snprintf(m, sizeof(m), "cannot %s for '%s': %s", what,
				 argv[0], strerror(saved));
			if (write(errpipe[1], m, strlen(m)) < 0)
				_exit(127);
		}
		_exit(127);
	}
	close(errpipe[1]);
	n = read(errpipe[0], msg, msglen - 1);
	close(errpipe[0]);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			snprintf(msg, msglen, "cannot wait: %s", strerror(errno));
			return -1;
		}
	cost->wall_ns = tools_now_ns() - t0;
	cost->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
			(uint64_t)ru.ru_utime.tv_usec * 1000u;
	cost->sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
		       (uint64_t)ru.ru_stime.tv_usec * 1000u;
	cost->rss_kib = (uint64_t)ru.ru_maxrss;	/* Linux: KiB */
	if (n > 0) {
		msg[n] = '\0';
		return -1;
	}
	msg[0] = '\0';
	if (WIFSIGNALED(status))
		return 256 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int tools_run_capture(char *const argv[], char *const env[],
		      const struct work *w, bool nohw_gcrypt, char *buf,
		      size_t len)
{
	char tmp[256], msg[256];
	struct cost c;
	int fd, rc;
	ssize_t n;

	buf[0] = '\0';
	snprintf(tmp, sizeof(tmp), "%s/capture", w->dir);
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	rc = tools_run_child(argv, env, fd, w, nohw_gcrypt, &c, msg, sizeof(msg));
	if (lseek(fd, 0, SEEK_SET) == 0) {
		n = fdio_read_all(fd, buf, len - 1);
		buf[n > 0 ? n : 0] = '\0';
	}
	close(fd);
	unlink(tmp);
	return rc;
}

