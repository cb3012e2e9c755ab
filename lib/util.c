/* util.c - error reporting, allocation and file helpers. */
#include "config.h"

#include <sys/random.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

volatile sig_atomic_t bo_interrupted;

int bo_err_set(bo_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static void on_signal(int sig)
{
	bo_interrupted = sig;
}

void bo_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: blocking calls return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void oom(size_t n)
{
	fprintf(stderr, "benchorch: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s) + 1);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

int bo_mkdir_p(const char *path, bo_err *err)
{
	char *p = xstrdup(path);
	char *s;
	int rc = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				rc = bo_err_set(err, "cannot create directory '%s': %s",
						p, strerror(errno));
				break;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	if (rc == 0) {
		struct stat st;

		if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			rc = bo_err_set(err, "'%s' is not a directory", path);
	}
	free(p);
	return rc;
}

int bo_read_file(const char *path, size_t max_bytes, char **ret_buf,
		 size_t *ret_len, bo_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, len = 0;
	char *buf;

	if (fd < 0)
		return bo_err_set(err, "cannot open '%s': %s", path,
				  strerror(errno));
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			bo_err_set(err, "cannot read '%s': %s", path,
				   strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max_bytes) {
			bo_err_set(err, "'%s' is larger than %zu bytes", path,
				   max_bytes);
			goto fail;
		}
	}
	close(fd);
	buf[len] = '\0';
	*ret_buf = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
fail:
	close(fd);
	free(buf);
	return -1;
}

int bo_write_file_atomic(const char *path, const void *buf, size_t len,
			 bo_err *err)
{
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	const char *p = buf;
	int fd = mkstemp(tmp);

	if (fd < 0) {
		/* name the file asked for, not the temporary one beside it */
		bo_err_set(err, "cannot write '%s': %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			bo_err_set(err, "cannot write '%s': %s", path,
				   strerror(errno));
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		bo_err_set(err, "cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		bo_err_set(err, "cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		bo_err_set(err, "cannot rename '%s' to '%s': %s", tmp, path,
			   strerror(errno));
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int bo_flock_wait(int fd, const char *path, bo_lock_wait_fn on_wait,
		  void *ctx, bo_err *err)
{
	int said = 0;

	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		if (errno != EWOULDBLOCK && errno != EINTR) {
			bo_err_set(err, "cannot lock '%s': %s", path,
				   strerror(errno));
			close(fd);
			return -1;
		}
		if (bo_interrupted) {
			bo_err_set(err, "interrupted while waiting for the lock '%s'",
				   path);
			close(fd);
			return -1;
		}
		if (!said && on_wait)
			on_wait(ctx, path);
		said = 1;
		nanosleep(&ts, NULL);
	}
	return fd;
}

int bo_lock_wait(const char *path, bo_lock_wait_fn on_wait, void *ctx,
		 bo_err *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd < 0)
		return bo_err_set(err, "cannot open lock file '%s': %s", path,
				  strerror(errno));
	return bo_flock_wait(fd, path, on_wait, ctx, err);
}

uint64_t bo_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

char *bo_cmdline_option(const char *cmdline, const char *opt)
{
	const char *p = cmdline;
	size_t n = strlen(opt), len;

	while ((p = strstr(p, opt)) != NULL) {
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || p[n] == '=')) {
			p += n + 1;
			len = strcspn(p, " ");
			return xasprintf("%.*s", (int)len, p);
		}
		p += n;
	}
	return NULL;
}

int bo_cmdline_flag(const char *cmdline, const char *opt)
{
	const char *p = cmdline;
	size_t n = strlen(opt);

	while (p && (p = strstr(p, opt)) != NULL) {
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

char *bo_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

uint64_t bo_random_seed(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	return (bo_now_ns() ^ ((uint64_t)getpid() << 16)) & UINT32_MAX;
}

int bo_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);

		if (len == n && strncmp(list, name, n) == 0)
			return 1;
		list = comma ? comma + 1 : NULL;
	}
	return 0;
}

void bo_list_add(char **list, const char *name)
{
	char *s;

	if (*list) {
		if (bo_list_has(*list, name))
			return;
		s = xasprintf("%s,%s", *list, name);
		free(*list);
		*list = s;
	} else {
		*list = xstrdup(name);
	}
}
