/* schedule.c - next firing times and the persisted last-run times. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/daemon/schedule.h"

/* Does T show local date Y-M-D and time H:M:S? */
static int shows(time_t t, const struct tm *want)
{
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return 0;
	return tm.tm_year == want->tm_year && tm.tm_mon == want->tm_mon &&
	       tm.tm_mday == want->tm_mday && tm.tm_hour == want->tm_hour &&
	       tm.tm_min == want->tm_min && tm.tm_sec == want->tm_sec;
}

/* The earliest instant that the local clock shows as DAY (a normalised
 * date, time fields ignored) at H:M:S, or -1 when it never does (the time
 * falls into a gap where the clock jumps forward). In the repeated hour of
 * a fall-back day both instants show it; the first is taken. */
static time_t local_instant(const struct tm *day, int h, int m, int sec)
{
	static const int dst[] = { 1, 0, -1 };
	struct tm want = *day, tm;
	time_t best = -1;
	size_t i;

	want.tm_hour = h;
	want.tm_min = m;
	want.tm_sec = sec;
	for (i = 0; i < sizeof(dst) / sizeof(dst[0]); i++) {
		time_t t;

		tm = want;
		tm.tm_isdst = dst[i];
		t = mktime(&tm);
		if (t != (time_t)-1 && shows(t, &want) &&
		    (best == -1 || t < best))
			best = t;
	}
	return best;
}

time_t sched_occurrence(const struct sched *s, const struct tm *day)
{
	struct tm d = *day;
	int k;

	d.tm_hour = 12;		/* normalise the date away from any change */
	d.tm_min = d.tm_sec = 0;
	d.tm_isdst = -1;
	if (mktime(&d) == (time_t)-1)
		return -1;
	{
		time_t t = local_instant(&d, s->hour, s->min, s->sec);

		if (t != -1)
			return t;
	}
	/* In a gap: the first whole minute after it that the clock shows
	 * (zones jump by at most a few hours; look a day ahead at most). */
	for (k = 1; k <= 24 * 60; k++) {
		int mins = s->hour * 60 + s->min + k;
		time_t t;

		if (mins >= 24 * 60)
			break;
		t = local_instant(&d, mins / 60, mins % 60, 0);
		if (t != -1)
			return t;
	}
	return -1;
}

time_t sched_next(const struct sched *s, time_t after)
{
	struct tm day;
	int i;

	if (s->kind == SCHED_INTERVAL)
		return after + s->interval_s;
	/* The local day of AFTER, else the next ones: each local day has
	 * exactly one occurrence, so a schedule that fired at its
	 * occurrence on one day next fires on a later day. */
	if (!localtime_r(&after, &day))
		return after + 86400;
	for (i = 0; i < 4; i++) {
		struct tm d = day;
		time_t t;

		d.tm_mday += i;
		t = sched_occurrence(s, &d);
		if (t != -1 && t > after)
			return t;
	}
	return after + 86400;
}

time_t sched_next_run(const struct sched *s, time_t last_due)
{
	time_t t = sched_next(s, last_due);
	struct tm a, b;

	if (s->kind == SCHED_DAILY && localtime_r(&t, &a) &&
	    localtime_r(&last_due, &b) && a.tm_year == b.tm_year &&
	    a.tm_yday == b.tm_yday)
		t = sched_next(s, t);
	return t;
}

time_t sched_due(const struct sched *s, time_t next, time_t now)
{
	time_t due = next, t;

	if (now <= next)
		return next;
	if (s->kind == SCHED_INTERVAL)
		return next + (now - next) / s->interval_s * s->interval_s;
	while ((t = sched_next(s, due)) <= now && t > due)
		due = t;
	return due;
}

void sched_times_release(struct sched_times *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->last);
	free(t->ran);
	memset(t, 0, sizeof(*t));
}

static long find(const struct sched_times *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->names[i], name) == 0)
			return (long)i;
	return -1;
}

time_t sched_times_get(const struct sched_times *t, const char *name)
{
	long i = find(t, name);

	return i >= 0 && t->ran[i] ? t->last[i] : 0;
}

time_t sched_times_planned(const struct sched_times *t, const char *name)
{
	long i = find(t, name);

	return i >= 0 && !t->ran[i] ? t->last[i] : 0;
}

static void put(struct sched_times *t, const char *name, time_t when,
		int ran)
{
	long i = find(t, name);

	if (i < 0) {
		t->names = xrealloc(t->names, (t->n + 1) * sizeof(char *));
		t->last = xrealloc(t->last, (t->n + 1) * sizeof(time_t));
		t->ran = xrealloc(t->ran, (t->n + 1) * sizeof(int));
		t->names[t->n] = xstrdup(name);
		i = (long)t->n++;
	}
	t->last[i] = when;
	t->ran[i] = ran;
}

void sched_times_set(struct sched_times *t, const char *name, time_t when)
{
	put(t, name, when, 1);
}

int sched_times_plan(struct sched_times *t, const char *name, time_t when)
{
	if (find(t, name) >= 0)
		return 0;
	put(t, name, when, 0);
	return 1;
}

int sched_times_load(const char *path, struct sched_times *ret, bo_err *err)
{
	char *buf, *line, *save = NULL;
	FILE *probe;

	memset(ret, 0, sizeof(*ret));
	probe = fopen(path, "r");
	if (!probe) {
		if (errno == ENOENT)
			return 0;
		return bo_err_set(err, "cannot open '%s': %s", path,
				  strerror(errno));
	}
	fclose(probe);
	if (bo_read_file(path, 1u << 20, &buf, NULL, err) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[CONF_MAX_NAME + 1];
		long long when;
		int used = 0;

		if (sscanf(line, "%64s %lld%n", name, &when, &used) != 2 ||
		    when <= 0)
			continue;
		if (line[used] == '\0')
			sched_times_set(ret, name, (time_t)when);
		else if (strcmp(line + used, " planned") == 0)
			sched_times_plan(ret, name, (time_t)when);
	}
	free(buf);
	return 0;
}

int sched_times_save(const char *path, const struct sched_times *t,
		     bo_err *err)
{
	size_t i, len = 0, cap = 64;
	char *buf = xmalloc(cap);
	int rc;

	buf[0] = '\0';
	for (i = 0; i < t->n; i++) {
		char *l = xasprintf("%s %lld%s\n", t->names[i],
				    (long long)t->last[i],
				    t->ran[i] ? "" : " planned");
		size_t ll = strlen(l);

		if (len + ll + 1 > cap) {
			cap = (len + ll + 1) * 2;
			buf = xrealloc(buf, cap);
		}
		memcpy(buf + len, l, ll + 1);
		len += ll;
		free(l);
	}
	rc = bo_write_file_atomic(path, buf, len, err);
	free(buf);
	return rc;
}
