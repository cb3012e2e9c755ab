/* t6120-schedule-dst - when a daily schedule fires on the days a zone
 * changes its clock, and how missed due times fold into one, without a
 * daemon. The zone is a fixed POSIX TZ rule (POSIX.1-2017, Base
 * Definitions 8.3, TZ): Central European Time, +1 h, summer time +2 h from
 * the last Sunday of March 02:00 to the last Sunday of October 03:00 local
 * (so 2026-03-29 and 2026-10-25, both at 01:00 UTC). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "orchestrator/daemon/schedule.h"
#include "tests/tap.h"

#define CET_RULE "CET-1CEST,M3.5.0,M10.5.0/3"

/* Seconds since the epoch of a UTC date and time. */
static time_t utc(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	return timegm(&tm);
}

static const char *show(time_t t)
{
	static char buf[4][40];
	static int k;
	struct tm tm;

	k = (k + 1) % 4;
	gmtime_r(&t, &tm);
	strftime(buf[k], sizeof(buf[k]), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf[k];
}

static void is_time(time_t got, time_t want, const char *what)
{
	tap_ok(got == want, "%s: %s (want %s)", what, show(got), show(want));
}

static struct sched daily(int h, int m)
{
	struct sched s;

	memset(&s, 0, sizeof(s));
	s.name = "t";
	s.kind = SCHED_DAILY;
	s.hour = h;
	s.min = m;
	return s;
}

/* Fall back, 2026-10-25: 03:00 CEST -> 02:00 CET, 02:00-02:59 twice. */
static void test_fall_back(void)
{
	struct sched s = daily(2, 30);
	time_t first = utc(2026, 10, 25, 0, 30, 0);	/* 02:30 CEST */
	time_t next_day = utc(2026, 10, 26, 1, 30, 0);	/* 02:30 CET */
	struct sched s3 = daily(3, 0), s2 = daily(2, 0);

	is_time(sched_next(&s, utc(2026, 10, 24, 22, 0, 0)), first,
		"fall back: 02:30 fires at the first of the two 02:30s");
	is_time(sched_next(&s, first), next_day,
		"fall back: after firing, not again at the second 02:30 but the next day");
	is_time(sched_next(&s, first + 1), next_day,
		"fall back: planned a second after firing, the next day");
	/* A restart or reload inside the repeated hour (02:40 CET) plans
	 * from the last run: the next day. */
	is_time(sched_next(&s, utc(2026, 10, 25, 1, 40, 0)), next_day,
		"fall back: planned inside the repeated hour, the next day");
	is_time(sched_next(&s2, utc(2026, 10, 24, 23, 0, 0)),
		utc(2026, 10, 25, 0, 0, 0),
		"fall back: 02:00, the start of the repeated hour, fires at its first");
	is_time(sched_next(&s2, utc(2026, 10, 25, 0, 0, 0)),
		utc(2026, 10, 26, 1, 0, 0),
		"fall back: 02:00 then fires the next day");
	is_time(sched_next(&s3, utc(2026, 10, 24, 23, 0, 0)),
		utc(2026, 10, 25, 2, 0, 0),
		"fall back: 03:00, shown once, fires once");
}

/* Spring forward, 2026-03-29: 02:00 CET -> 03:00 CEST, no 02:xx. */
static void test_spring_forward(void)
{
	struct sched s = daily(2, 30), s1 = daily(1, 59), s3 = daily(3, 0);
	time_t jump = utc(2026, 3, 29, 1, 0, 0);	/* 03:00 CEST */

	is_time(sched_next(&s, utc(2026, 3, 28, 22, 0, 0)), jump,
		"spring forward: 02:30, skipped by the clock, fires at 03:00 (the first minute after the gap)");
	is_time(sched_next(&s, jump), utc(2026, 3, 30, 0, 30, 0),
		"spring forward: then at 02:30 CEST the next day");
	is_time(sched_next(&s1, utc(2026, 3, 28, 22, 0, 0)),
		utc(2026, 3, 29, 0, 59, 0), "spring forward: 01:59 as usual");
	is_time(sched_next(&s3, utc(2026, 3, 28, 22, 0, 0)), jump,
		"spring forward: 03:00 at the jump");
	is_time(sched_next(&s3, jump), utc(2026, 3, 30, 1, 0, 0),
		"spring forward: 03:00 once that day");
}

/* Every day of a year fires exactly once, whatever the clock does. */
static void test_year(void)
{
	struct sched times[] = { daily(2, 0), daily(2, 30), daily(2, 59),
				 daily(3, 0), daily(0, 0), daily(23, 59) };
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		time_t t = utc(2025, 12, 31, 12, 0, 0), end = utc(2027, 1, 1, 0, 0, 0);
		int days = 0, twice = 0, prev_yday = -1;

		while ((t = sched_next(&times[i], t)) < end) {
			struct tm tm;

			localtime_r(&t, &tm);
			if (tm.tm_year != 126)
				continue;
			if (tm.tm_yday == prev_yday)
				twice++;
			prev_yday = tm.tm_yday;
			days++;
		}
		tap_ok(days == 365 && twice == 0,
		       "daily at %02d:%02d fires on 365 local days of 2026, none twice (%d, %d twice)",
		       times[i].hour, times[i].min, days, twice);
	}
}

/* After a run, a daily schedule whose time was changed to a later one
 * waits for the next day. */
static void test_next_run(void)
{
	struct sched s = daily(2, 45), every;
	time_t ran = utc(2026, 10, 25, 0, 30, 0);	/* 02:30 CEST */

	memset(&every, 0, sizeof(every));
	every.kind = SCHED_INTERVAL;
	every.interval_s = 60;
	is_time(sched_next_run(&s, ran), utc(2026, 10, 26, 1, 45, 0),
		"ran at 02:30, now at 02:45: not again that day");
	is_time(sched_next_run(&every, ran), ran + 60,
		"an interval: the due time plus the interval");
}

static void test_due(void)
{
	struct sched s = daily(2, 30), every;
	time_t d1 = utc(2026, 7, 1, 0, 30, 0);

	memset(&every, 0, sizeof(every));
	every.kind = SCHED_INTERVAL;
	every.interval_s = 10;
	is_time(sched_due(&s, d1, utc(2026, 7, 3, 10, 0, 0)),
		utc(2026, 7, 3, 0, 30, 0),
		"three missed nights run once, as the last of them");
	is_time(sched_due(&s, d1, d1), d1, "a due time that is now is itself");
	is_time(sched_due(&every, 100, 125), 120,
		"an interval's missed due times fold into the last");
	is_time(sched_due(&every, 100, 100000005), 100000000,
		"a long-missed short interval folds into the last at once");
}

int main(void)
{
	setenv("TZ", CET_RULE, 1);
	tzset();
	test_fall_back();
	test_spring_forward();
	test_year();
	test_next_run();
	test_due();
	return tap_done();
}
