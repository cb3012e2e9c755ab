/* schedule.h - when a schedule is due, and the last-run times the daemon
 * keeps in STATE/schedules so a run missed while it was down happens once
 * at start-up. */
#ifndef BENCHORCH_SCHEDULE_H
#define BENCHORCH_SCHEDULE_H

#include <time.h>

#include "orchestrator/config-file.h"
#include "orchestrator/util.h"

/* The first time strictly after AFTER (seconds since the epoch) at which S
 * fires: the next HH:MM:SS in local time for a daily schedule (a time that
 * does not exist on a DST change day fires at the time mktime() normalises
 * it to), AFTER + interval for an interval. */
time_t sched_next(const struct sched *s, time_t after);

/* Last-run times, one per schedule name. */
struct sched_times {
	size_t n;
	char **names;		/* owned */
	time_t *last;		/* seconds since the epoch */
};

/* Read PATH ("NAME SECONDS" lines). A missing file gives an empty set.
 * Lines that do not parse are skipped (the file is ours; a damaged one
 * must not stop the daemon). Returns 0, or -1 with err set when the file
 * exists but cannot be read. */
int sched_times_load(const char *path, struct sched_times *ret, bo_err *err);

/* Write T to PATH atomically. Returns 0, or -1 with err set. */
int sched_times_save(const char *path, const struct sched_times *t,
		     bo_err *err);

/* The last run of NAME, or 0 when unknown. */
time_t sched_times_get(const struct sched_times *t, const char *name);

/* Set (adding if needed) the last run of NAME. */
void sched_times_set(struct sched_times *t, const char *name, time_t when);

/* Free what t owns and empty it (not t itself). */
void sched_times_release(struct sched_times *t);

#endif
