/* daemon-log.c - the daemon's log lines (daemon-log.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "orchestrator/daemon/daemon-log.h"

void daemon_log(int level, const char *fmt, ...)
{
	static const char *const names[] = {
		[DLOG_ERR] = "error: ", [DLOG_WARNING] = "warning: ",
		[DLOG_NOTICE] = "", [DLOG_INFO] = "",
	};
	va_list ap;

	if (getenv("JOURNAL_STREAM"))
		fprintf(stderr, "<%d>", level);
	else
		fprintf(stderr, "benchorch daemon: %s", names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

char *daemon_iso(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}
