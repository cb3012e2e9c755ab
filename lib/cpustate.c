/* cpustate.c - read the CPU's governor, boost, frequency and hypervisor
 * from sysfs (and CPUID), and say what is worth a warning. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/cpustate.h"
#include "lib/util.h"

/* sysfs attribute files are one short line; anything longer is not one. */
#define ATTR_MAX_BYTES 256

/* The first line of SYSFS/REL with surrounding white space removed, or
 * NULL when it cannot be read or is empty. Caller frees. */
static char *read_attr(const char *sysfs, const char *rel)
{
	char *path = xasprintf("%s/%s", sysfs, rel), *buf, *s, *e;
	bo_err err;

	if (bo_read_file(path, ATTR_MAX_BYTES, &buf, NULL, &err) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	e = s + strcspn(s, "\n");
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*e = '\0';
	s = *s ? xstrdup(s) : NULL;
	free(buf);
	return s;
}

/* SYSFS/REL as a non-negative decimal integer, or -1. */
static int64_t read_int(const char *sysfs, const char *rel)
{
	char *s = read_attr(sysfs, rel), *end;
	long long v;

	if (!s)
		return -1;
	v = strtoll(s, &end, 10);
	if (end == s || *end || v < 0)
		v = -1;
	free(s);
	return v;
}

/* 1 when S is a plain word (letters, digits, '-', '_'), the shape of a
 * governor's or hypervisor's name. */
static int is_word(const char *s)
{
	return s && *s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") ==
	       strlen(s);
}

/* 1 when the space-separated FLAGS contain the word FLAG. */
static int has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = flags;

	while ((p = strstr(p, flag)) != NULL) {
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

int64_t cpustate_freq_khz(const char *sysfs, int cpu)
{
	char rel[96];
	int64_t v;

	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	v = read_int(sysfs, rel);
	return v > 0 ? v : -1;
}

void cpustate_read(const char *sysfs, int cpu, const char *flags,
		   struct cpustate *s)
{
	char rel[96], *path;
	struct stat st;
	int64_t v;

	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq", cpu);
	path = xasprintf("%s/%s", sysfs, rel);
	s->cpufreq = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	s->governor = read_attr(sysfs, rel);
	if (!is_word(s->governor)) {
		free(s->governor);
		s->governor = NULL;
	}
	s->freq_khz = cpustate_freq_khz(sysfs, cpu);
	s->boost = -1;
	if ((v = read_int(sysfs, "devices/system/cpu/intel_pstate/no_turbo")) == 0 ||
	    v == 1)
		s->boost = v == 0;
	else if ((v = read_int(sysfs, "devices/system/cpu/cpufreq/boost")) == 0 ||
		 v == 1)
		s->boost = (int)v;
	s->virtualized = flags && *flags ? has_flag(flags, "hypervisor") : -1;
	s->hypervisor = read_attr(sysfs, "hypervisor/type");
	if (!is_word(s->hypervisor)) {
		free(s->hypervisor);
		s->hypervisor = NULL;
	}
}

const char *cpustate_hypervisor_name(const char *sig)
{
	static const char *const names[][2] = {
		{ "KVMKVMKVM", "KVM" },
		{ "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" },
		{ "bhyve bhyve", "bhyve" },
		{ "TCGTCGTCGTCG", "QEMU (TCG)" },
		{ " lrpepyh  vr", "Parallels" },
		{ "ACRNACRNACRN", "ACRN" },
		{ "QNXQVMBSQG", "QNX" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(sig, names[i][0]) == 0)
			return names[i][1];
	return sig;
}

char *cpustate_cpuid_hypervisor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];
	size_t n;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return NULL;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	n = strlen(sig);
	while (n > 0 && sig[n - 1] == ' ')
		sig[--n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)sig[i]))
			return NULL;
	return n ? xstrdup(cpustate_hypervisor_name(sig)) : NULL;
#else
	return NULL;
#endif
}

void cpustate_release(struct cpustate *s)
{
	free(s->governor);
	free(s->hypervisor);
	memset(s, 0, sizeof(*s));
	s->cpufreq = s->boost = s->virtualized = -1;
	s->freq_khz = -1;
}

char *cpustate_governor_warning(const struct cpustate *s)
{
	if (!s->governor || strcmp(s->governor, "performance") == 0)
		return NULL;
	return xasprintf("the scaling governor of cpu %d is '%s', not 'performance': its clock follows the load and the numbers may drift",
			 s->cpu, s->governor);
}

char *cpustate_freq_warning(int cpu, int64_t before_khz, int64_t after_khz)
{
	int64_t diff = after_khz - before_khz;

	if (before_khz <= 0 || after_khz <= 0)
		return NULL;
	if (diff < 0)
		diff = -diff;
	/* diff / before > tolerance / 100, in integers */
	if (diff * 100 <= before_khz * CPUSTATE_FREQ_TOLERANCE_PCT)
		return NULL;
	return xasprintf("the scaling frequency of cpu %d changed by %.1f %% during the run (%lld kHz before, %lld kHz after; tolerance %d %%)",
			 cpu, 100.0 * (double)(after_khz - before_khz) /
			 (double)before_khz, (long long)before_khz,
			 (long long)after_khz, CPUSTATE_FREQ_TOLERANCE_PCT);
}

char *cpustate_clock_warning(int cpu, const int64_t *hz, size_t n)
{
	int64_t lo = 0, hi = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (hz[i] <= 0)
			continue;
		if (lo == 0 || hz[i] < lo)
			lo = hz[i];
		if (hz[i] > hi)
			hi = hz[i];
	}
	/* (hi - lo) / lo > tolerance / 100, in integers (Hz x 100 fits) */
	if (lo == 0 || (hi - lo) * 100 <= lo * CPUSTATE_FREQ_TOLERANCE_PCT)
		return NULL;
	return xasprintf("the core clock measured on cpu %d spread by %.2f %% during the run (lowest %.3f GHz, highest %.3f GHz; tolerance %d %%)",
			 cpu, 100.0 * (double)(hi - lo) / (double)lo,
			 (double)lo / 1e9, (double)hi / 1e9,
			 CPUSTATE_FREQ_TOLERANCE_PCT);
}

/* "2800" (MHz, from kHz) or "unknown", into BUF. */
static const char *mhz(int64_t khz, char *buf, size_t len)
{
	if (khz <= 0)
		return "unknown";
	snprintf(buf, len, "%lld", (long long)((khz + 500) / 1000));
	return buf;
}

char *cpustate_describe(const struct cpustate *s, int64_t after_khz)
{
	char b1[32], b2[32], *freq, *out;
	const char *hv;

	if (s->freq_khz <= 0 && after_khz <= 0)
		freq = xstrdup("unknown");
	else if (after_khz <= 0)
		freq = xasprintf("%s MHz", mhz(s->freq_khz, b1, sizeof(b1)));
	else
		freq = xasprintf("%s -> %s MHz", mhz(s->freq_khz, b1, sizeof(b1)),
				 mhz(after_khz, b2, sizeof(b2)));
	if (s->virtualized == 0)
		hv = "none";
	else if (s->hypervisor)
		hv = s->hypervisor;
	else if (s->virtualized == 1)
		hv = "present, vendor unknown";
	else
		hv = "unknown";
	out = xasprintf("cpu %d: governor %s, boost %s, scaling frequency %s%s, hypervisor %s",
			s->cpu, s->governor ? s->governor : "unknown",
			s->boost < 0 ? "unknown" : s->boost ? "on" : "off", freq,
			s->cpufreq == 0 ? " (the kernel shows no cpufreq for it)" : "",
			hv);
	free(freq);
	return out;
}
