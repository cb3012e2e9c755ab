/* cpuchoice.c - choose the CPU a run's guests are pinned to, and say why
 * (see cpuchoice.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/cpuchoice.h"
#include "lib/util.h"

/* sysfs CPU lists are short; /proc/stat of a large machine is not. */
#define LIST_MAX_BYTES 4096
#define STAT_MAX_BYTES (1024 * 1024)

/* The first line of SYSFS/REL, or NULL. Caller frees. */
static char *read_line(const char *sysfs, const char *rel)
{
	char *path = xasprintf("%s/%s", sysfs, rel), *buf;
	bo_err err;

	if (bo_read_file(path, LIST_MAX_BYTES, &buf, NULL, &err) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

int cpuchoice_parse_list(const char *s, unsigned char *set, int ncpus)
{
	int n = 0;

	memset(set, 0, (size_t)ncpus);
	while (*s && isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	for (;;) {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*s))
			return -1;
		a = strtol(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			b = strtol(s, &end, 10);
			s = end;
		}
		if (b < a)
			return -1;
		for (long i = a; i <= b && i < ncpus; i++)
			if (!set[i]) {
				set[i] = 1;
				n++;
			}
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (*s != ',')
			return -1;
		s++;
	}
}

/* Is CPU online? cpuN must exist; its "online" file, when there is one
 * (CPU 0 often has none), must not say 0. */
static int online(const char *sysfs, int cpu)
{
	char *path = xasprintf("%s/devices/system/cpu/cpu%d", sysfs, cpu);
	char rel[64], *s;
	struct stat st;
	int ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	free(path);
	if (!ok)
		return 0;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/online", cpu);
	s = read_line(sysfs, rel);
	ok = !s || strcmp(s, "0") != 0;
	free(s);
	return ok;
}

/* CPU's cpuinfo_max_freq in kHz, or -1. */
static long long max_khz(const char *sysfs, int cpu)
{
	char rel[96], *s, *end;
	long long v;

	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
	if (!(s = read_line(sysfs, rel)))
		return -1;
	v = strtoll(s, &end, 10);
	if (end == s || v <= 0)
		v = -1;
	free(s);
	return v;
}

/* Number of set entries of SET (NCPUS). */
static int count(const unsigned char *set, int ncpus)
{
	int n = 0;

	for (int i = 0; i < ncpus; i++)
		n += set[i] != 0;
	return n;
}

/* The siblings of CPU but itself, as a CPU list, or NULL. */
static char *siblings_of(const char *sysfs, int cpu, int ncpus)
{
	char rel[96], *s, *out = NULL;
	unsigned char *set;
	int big = ncpus > 4096 ? ncpus : 4096;

	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	if (!(s = read_line(sysfs, rel)))
		return NULL;
	set = xcalloc((size_t)big, 1);
	if (cpuchoice_parse_list(s, set, big) > 0) {
		for (int i = 0; i < big; i++) {
			char *t;

			if (!set[i] || i == cpu)
				continue;
			t = out ? xasprintf("%s,%d", out, i) : xasprintf("%d", i);
			free(out);
			out = t;
		}
	}
	free(set);
	free(s);
	return out;
}

int cpuchoice_pick(const char *sysfs, const unsigned char *allowed,
		   int ncpus, struct cpuchoice *ret)
{
	unsigned char *cand = xcalloc((size_t)ncpus + 1, 1);
	unsigned char *pcores = xcalloc((size_t)ncpus + 1, 1);
	char *list, *why_type, *why_clock;
	long long best = -1;
	int n, np = 0, nbest = 0, cpu = -1;

	memset(ret, 0, sizeof(*ret));
	ret->cpu = -1;
	for (int i = 0; i < ncpus; i++)
		cand[i] = allowed[i] && online(sysfs, i);
	n = count(cand, ncpus);
	if (n == 0) {
		free(cand);
		free(pcores);
		return -1;
	}
	/* 1. performance cores of a hybrid part */
	list = read_line(sysfs, "devices/cpu_core/cpus");
	if (list && cpuchoice_parse_list(list, pcores, ncpus) > 0) {
		for (int i = 0; i < ncpus; i++)
			if (cand[i] && pcores[i])
				np++;
		if (np > 0) {
			for (int i = 0; i < ncpus; i++)
				cand[i] = cand[i] && pcores[i];
			why_type = xasprintf("a performance core (devices/cpu_core/cpus %s)",
					     list);
		} else {
			why_type = xasprintf("no performance core (devices/cpu_core/cpus %s) is allowed",
					     list);
		}
	} else {
		why_type = xstrdup("no hybrid core types in sysfs");
	}
	free(list);
	/* 2. the highest maximum clock */
	for (int i = 0; i < ncpus; i++)
		if (cand[i] && max_khz(sysfs, i) > best)
			best = max_khz(sysfs, i);
	if (best > 0) {
		for (int i = 0; i < ncpus; i++) {
			cand[i] = cand[i] && max_khz(sysfs, i) == best;
			nbest += cand[i] != 0;
		}
		why_clock = xasprintf("highest maximum clock %lld MHz (%d of %d CPUs)",
				      best / 1000, nbest, n);
	} else {
		why_clock = xstrdup("maximum clock not shown");
	}
	/* 3. the highest-numbered */
	for (int i = ncpus - 1; i >= 0 && cpu < 0; i--)
		if (cand[i])
			cpu = i;
	ret->cpu = cpu;
	ret->siblings = siblings_of(sysfs, cpu, ncpus);
	ret->reason = xasprintf("cpu %d: %s, %s, highest-numbered of those; SMT siblings %s",
				cpu, why_type, why_clock,
				ret->siblings ? ret->siblings : "none");
	free(why_type);
	free(why_clock);
	free(cand);
	free(pcores);
	return 0;
}

int cpuchoice_pick_self(const char *sysfs, struct cpuchoice *ret)
{
	unsigned char allowed[CPU_SETSIZE];
	cpu_set_t set;

	memset(ret, 0, sizeof(*ret));
	ret->cpu = -1;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int i = 0; i < CPU_SETSIZE; i++)
		allowed[i] = CPU_ISSET(i, &set) != 0;
	if (cpuchoice_pick(sysfs, allowed, CPU_SETSIZE, ret) < 0) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

void cpuchoice_release(struct cpuchoice *c)
{
	free(c->reason);
	free(c->siblings);
	c->reason = c->siblings = NULL;
}

/* The busy and total jiffies of CPU in /proc/stat text STAT. Returns 0 or
 * -1 when its line is missing. */
static int jiffies(const char *stat, int cpu, unsigned long long *busy,
		   unsigned long long *total)
{
	char tag[32];
	size_t n = (size_t)snprintf(tag, sizeof(tag), "cpu%d ", cpu);
	const char *p = stat;

	while (p && *p) {
		if (strncmp(p, tag, n) == 0) {
			unsigned long long v[10] = { 0 };
			int k = sscanf(p + n, "%llu %llu %llu %llu %llu %llu %llu %llu",
				       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
				       &v[6], &v[7]);

			if (k < 4)
				return -1;
			*total = 0;
			for (int i = 0; i < 8; i++)
				*total += v[i];
			/* idle (4th) and iowait (5th) are not busy */
			*busy = *total - v[3] - v[4];
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int cpuchoice_busy(const char *before, const char *after, int cpu,
		   double *ret_busy)
{
	unsigned long long b0, t0, b1, t1;

	if (jiffies(before, cpu, &b0, &t0) < 0 ||
	    jiffies(after, cpu, &b1, &t1) < 0 || t1 <= t0 || b1 < b0)
		return -1;
	*ret_busy = (double)(b1 - b0) / (double)(t1 - t0);
	if (*ret_busy > 1)
		*ret_busy = 1;
	return 0;
}

/* Append LINE to *ACC (newline-joined); takes LINE. */
static void append(char **acc, char *line)
{
	char *t;

	if (!*acc) {
		*acc = line;
		return;
	}
	t = xasprintf("%s\n%s", *acc, line);
	free(*acc);
	free(line);
	*acc = t;
}

char *cpuchoice_busy_warning_from(const struct cpuchoice *c,
				  const char *before, const char *after)
{
	unsigned char set[4096];
	char *out = NULL;
	double busy;

	if (cpuchoice_busy(before, after, c->cpu, &busy) == 0 &&
	    busy > CPUCHOICE_BUSY)
		append(&out, xasprintf("cpu %d, the guests' cpu, was %.0f %% busy just before the run: other tasks share it",
				       c->cpu, busy * 100));
	if (c->siblings &&
	    cpuchoice_parse_list(c->siblings, set, (int)sizeof(set)) > 0)
		for (int i = 0; i < (int)sizeof(set); i++)
			if (set[i] && cpuchoice_busy(before, after, i, &busy) == 0 &&
			    busy > CPUCHOICE_BUSY)
				append(&out, xasprintf("cpu %d, the SMT sibling of the guests' cpu %d, was %.0f %% busy just before the run: it shares that core with the guests",
						       i, c->cpu, busy * 100));
	return out;
}

char *cpuchoice_busy_warning(const struct cpuchoice *c, const char *stat_path,
			     unsigned interval_ms)
{
	struct timespec ts = { (time_t)(interval_ms / 1000),
			       (long)(interval_ms % 1000) * 1000000L };
	char *before, *after, *w;
	bo_err err;

	if (bo_read_file(stat_path, STAT_MAX_BYTES, &before, NULL, &err) < 0)
		return NULL;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	if (bo_read_file(stat_path, STAT_MAX_BYTES, &after, NULL, &err) < 0) {
		free(before);
		return NULL;
	}
	w = cpuchoice_busy_warning_from(c, before, after);
	free(before);
	free(after);
	return w;
}
