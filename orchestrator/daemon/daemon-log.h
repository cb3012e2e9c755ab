/* daemon-log.h - the daemon's log lines on stderr, with syslog levels. */
#ifndef BENCHORCH_DAEMON_LOG_H
#define BENCHORCH_DAEMON_LOG_H

#include <stddef.h>
#include <time.h>

/* The syslog priorities the daemon logs with. */
enum daemon_log_level {
	DLOG_ERR = 3,
	DLOG_WARNING = 4,
	DLOG_NOTICE = 5,
	DLOG_INFO = 6,
};

/* Log one line on stderr (LEVEL a daemon_log_level; FMT printf's, no
 * newline): with a "<N>" syslog priority prefix when stderr is the
 * journal ($JOURNAL_STREAM set: journald strips it and keeps the level),
 * else with a readable one ("benchorch daemon: error: ..."). Flushes
 * stderr. */
void daemon_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* T (seconds since the epoch) as ISO 8601 UTC, "2026-01-31T02:00:00Z",
 * into BUF (LEN bytes, 21 or more for the whole). Returns BUF. */
char *daemon_iso(time_t t, char *buf, size_t len);

#endif
