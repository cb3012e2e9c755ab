/* schedule.c - next firing times and the persisted last-run times. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/schedule.h"

time_t sched_next(const struct sched *s, time_t after)
{
	struct tm tm;
	time_t t;
	int day;

	if (s->kind == SCHED_INTERVAL)
		return after + s->interval_s;
	/* Today's time, else tomorrow's (two days covers a DST jump). */
	for (day = 0; day < 3; day++) {
		localtime_r(&after, &tm);
		tm.tm_mday += day;
		tm.tm_hour = s->hour;
		tm.tm_min = s->min;
		tm.tm_sec = s->sec;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t != (time_t)-1 && t > after)
			return t;
	}
	return after + 86400;
}

void sched_times_release(struct sched_times *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->last);
	memset(t, 0, sizeof(*t));
}

time_t sched_times_get(const struct sched_times *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->names[i], name) == 0)
			return t->last[i];
	return 0;
}

void sched_times_set(struct sched_times *t, const char *name, time_t when)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->names[i], name) == 0) {
			t->last[i] = when;
			return;
		}
	t->names = xrealloc(t->names, (t->n + 1) * sizeof(char *));
	t->last = xrealloc(t->last, (t->n + 1) * sizeof(time_t));
	t->names[t->n] = xstrdup(name);
	t->last[t->n++] = when;
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

		if (sscanf(line, "%64s %lld%n", name, &when, &used) == 2 &&
		    line[used] == '\0' && when > 0)
			sched_times_set(ret, name, (time_t)when);
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
		char *l = xasprintf("%s %lld\n", t->names[i],
				    (long long)t->last[i]);
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
