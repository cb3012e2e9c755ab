/* schedule.h - when a schedule is due, and the last-run times the daemon
 * keeps in STATE/schedules so a run missed while it was down happens once
 * at start-up. */
#ifndef BENCHORCH_SCHEDULE_H
#define BENCHORCH_SCHEDULE_H

#include <time.h>

#include "orchestrator/daemon/config-file.h"
#include "lib/util.h"

/* The first time strictly after AFTER (seconds since the epoch) at which S
 * fires. An interval schedule: AFTER + interval_s seconds. A daily one
 * fires once per local calendar day (local time as TZ / localtime(3)
 * says): at HH:MM:SS; on a day the clock falls back and shows that time
 * twice, at the first of the two; on a day it springs forward over that
 * time, at the first whole minute the clock shows after it (02:30 in a
 * 02:00 -> 03:00 jump fires at 03:00). So after firing at a day's
 * occurrence, the next one is on a later day. */
time_t sched_next(const struct sched *s, time_t after);

/* The next due time of S after a run due at LAST_DUE: sched_next(), but
 * for a daily schedule never on the local calendar day of LAST_DUE, even
 * when its time was changed to a later one since. Seconds since the
 * epoch. */
time_t sched_next_run(const struct sched *s, time_t last_due);

/* The occurrence of the daily schedule S on the local date of DAY
 * (tm_year, tm_mon, tm_mday; other fields ignored), by the rules of
 * sched_next. Returns seconds since the epoch, or -1 when mktime() cannot
 * represent it. */
time_t sched_occurrence(const struct sched *s, const struct tm *day);

/* The latest due time of S that is not after NOW, starting from NEXT (a
 * due time <= NOW): missed due times are run once, as the last of them.
 * Returns seconds since the epoch. */
time_t sched_due(const struct sched *s, time_t next, time_t now);

/* Last-run times, one per schedule name. */
struct sched_times {
	size_t n;
	char **names;		/* owned */
	time_t *last;		/* seconds since the epoch */
	int *ran;		/* 1: last is the due time of its last run;
				 * 0: the schedule never ran, last is when
				 * it was first planned */
};

/* Read PATH ("NAME SECONDS" lines, "NAME SECONDS planned" for a schedule
 * that never ran). A missing file gives an empty set.
 * Lines that do not parse are skipped (the file is ours; a damaged one
 * must not stop the daemon). Returns 0, or -1 with err set when the file
 * exists but cannot be read. */
int sched_times_load(const char *path, struct sched_times *ret, bo_err *err);

/* Write T to PATH atomically. Returns 0, or -1 with err set. */
int sched_times_save(const char *path, const struct sched_times *t,
		     bo_err *err);

/* The due time of the last run of NAME, or 0 when it never ran. */
time_t sched_times_get(const struct sched_times *t, const char *name);

/* When NAME was first planned if it never ran, else 0. */
time_t sched_times_planned(const struct sched_times *t, const char *name);

/* Set (adding if needed) the due time of the last run of NAME. */
void sched_times_set(struct sched_times *t, const char *name, time_t when);

/* Record that NAME, which never ran, is planned from WHEN on. Returns 1
 * when that added a record, 0 when NAME already had one (kept). */
int sched_times_plan(struct sched_times *t, const char *name, time_t when);

/* Free what t owns and empty it (not t itself). */
void sched_times_release(struct sched_times *t);

#endif
