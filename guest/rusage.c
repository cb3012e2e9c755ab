/* guest/rusage.c - CPU time and resident memory of the guest's processes
 * (see rusage.h). */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "rusage.h"

uint64_t rusage_rss_now_kib(void)
{
	char buf[256];
	uint64_t resident = 0;
	const char *s;
	ssize_t n;
	long page;
	int fd;

	fd = open("/proc/self/statm", O_RDONLY);
	if (fd < 0)
		return 0;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* proc(5): "size resident shared text lib data dt", in pages */
	s = strchr(buf, ' ');
	if (!s || s[1] < '0' || s[1] > '9')
		return 0;
	for (s++; *s >= '0' && *s <= '9'; s++)
		resident = resident * 10 + (uint64_t)(*s - '0');
	page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return 0;
	return resident * (uint64_t)page / 1024;
}

uint64_t rusage_peak_kib(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0 || ru.ru_maxrss < 0)
		return 0;
	return (uint64_t)ru.ru_maxrss;
}

/* Microseconds in TV. */
static uint64_t tv_us(const struct timeval *tv)
{
	if (tv->tv_sec < 0 || tv->tv_usec < 0)
		return 0;
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

void rusage_from(struct rusage_lib *out, const char *library,
		 const struct rusage *ru)
{
	out->library = library;
	out->user_us = tv_us(&ru->ru_utime);
	out->sys_us = tv_us(&ru->ru_stime);
	out->maxrss_kib = ru->ru_maxrss > 0 ? (uint64_t)ru->ru_maxrss : 0;
}

void rusage_add_json(struct json_line *j, const char *key,
		     const struct rusage_lib *libs, size_t n)
{
	char text[JSON_LINE_MAX];
	struct json_line o;
	size_t len = 0;

	text[len++] = '[';
	for (size_t i = 0; i < n; i++) {
		json_begin(&o);
		json_add_str(&o, "library", libs[i].library);
		json_add_uint(&o, "user_us", libs[i].user_us);
		json_add_uint(&o, "sys_us", libs[i].sys_us);
		json_add_uint(&o, "maxrss_kib", libs[i].maxrss_kib);
		/* the object without its newline, then ',' or ']' */
		if (json_end(&o) < 0 || len + o.len + 1 > sizeof(text)) {
			j->failed = true;
			return;
		}
		if (i > 0)
			text[len++] = ',';
		memcpy(text + len, o.buf, o.len - 1);
		len += o.len - 1;
	}
	if (len + 1 > sizeof(text)) {
		j->failed = true;
		return;
	}
	text[len++] = ']';
	json_add_raw(j, key, text, len);
}
