/* t0050-cpuchoice - the choice of the CPU a run's guests are pinned to
 * (lib/cpuchoice.h), on sysfs trees this test builds with the
 * kernel's layout: a hybrid part (performance cores listed in
 * devices/cpu_core/cpus, with SMT, efficiency cores numbered above them),
 * a part with favoured cores (a higher cpuinfo_max_freq on some), a
 * virtual machine that shows neither, an offline CPU; the kernel's CPU
 * list format; and the busy warnings from two /proc/stat readings. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cpuchoice.h"
#include "lib/util.h"
#include "tests/tap.h"

static char root[] = "/tmp/t0050.XXXXXX";

/* Write TEXT to ROOT/TREE/REL, creating the directories. */
static void put(const char *tree, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s/%s", root, tree, rel), *p;
	FILE *f;

	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

/* CPU N of TREE: online, maximum clock KHZ ("" = no cpufreq), siblings
 * list SIBS. */
static void cpu(const char *tree, int n, const char *khz, const char *sibs)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/online", n);
	put(tree, rel, "1\n");
	if (*khz) {
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", n);
		put(tree, rel, khz);
	}
	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/topology/thread_siblings_list", n);
	put(tree, rel, sibs);
}

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int main(void)
{
	unsigned char all[64], set[16];
	struct cpuchoice c;
	char *t, *w;
	int r;

	if (!mkdtemp(root)) {
		printf("1..0 # SKIP cannot make a temporary directory\n");
		return 0;
	}
	memset(all, 1, sizeof(all));

	/* hybrid: P-cores 0-3 with SMT (0,1 2,3), E-cores 4-7; the E-cores
	 * have the higher numbers, which is what the old choice took */
	cpu("hybrid", 0, "5400000\n", "0-1\n");
	cpu("hybrid", 1, "5400000\n", "0-1\n");
	cpu("hybrid", 2, "5600000\n", "2-3\n");
	cpu("hybrid", 3, "5600000\n", "2-3\n");
	for (int i = 4; i < 8; i++)
		cpu("hybrid", i, "4300000\n", i == 4 ? "4\n" : i == 5 ? "5\n" :
		    i == 6 ? "6\n" : "7\n");
	put("hybrid", "devices/cpu_core/cpus", "0-3\n");
	put("hybrid", "devices/cpu_atom/cpus", "4-7\n");
	t = xasprintf("%s/hybrid", root);
	r = cpuchoice_pick(t, all, 8, &c);
	tap_ok(r == 0 && c.cpu == 3,
	       "hybrid: a performance core with the highest maximum clock, not the highest-numbered efficiency core (cpu %d)",
	       c.cpu);
	tap_ok(streq(c.siblings, "2"), "its SMT sibling is noted (%s)",
	       c.siblings ? c.siblings : "none");
	tap_ok(c.reason && strstr(c.reason, "performance core") &&
	       strstr(c.reason, "5600 MHz") && strstr(c.reason, "siblings 2"),
	       "the reason says why (%s)", c.reason ? c.reason : "");
	cpuchoice_release(&c);
	/* allowed only the efficiency cores */
	memset(all, 0, sizeof(all));
	all[5] = all[6] = 1;
	r = cpuchoice_pick(t, all, 8, &c);
	tap_ok(r == 0 && c.cpu == 6 &&
	       c.siblings == NULL && strstr(c.reason, "no performance core"),
	       "only efficiency cores allowed: the highest of those, and the reason says so (%s)",
	       c.reason);
	cpuchoice_release(&c);
	memset(all, 1, sizeof(all));
	free(t);

	/* favoured cores, no hybrid types; cpu 7 offline */
	for (int i = 0; i < 8; i++)
		cpu("favoured", i, i == 1 || i == 5 ? "4900000\n" : "4600000\n",
		    i < 4 ? (char[]){ (char)('0' + i), ',', (char)('4' + i),
				      '\n', 0 }
			  : (char[]){ (char)('0' + i - 4), ',', (char)('0' + i),
				      '\n', 0 });
	put("favoured", "devices/system/cpu/cpu7/online", "0\n");
	t = xasprintf("%s/favoured", root);
	r = cpuchoice_pick(t, all, 8, &c);
	tap_ok(r == 0 && c.cpu == 5 &&
	       streq(c.siblings, "1"),
	       "favoured cores: the highest maximum clock wins (cpu %d, sibling %s)",
	       c.cpu, c.siblings ? c.siblings : "none");
	cpuchoice_release(&c);
	put("favoured", "devices/system/cpu/cpu5/online", "0\n");
	r = cpuchoice_pick(t, all, 8, &c);
	tap_ok(r == 0 && c.cpu == 1,
	       "an offline CPU is never chosen (cpu %d)", c.cpu);
	cpuchoice_release(&c);
	free(t);

	/* a virtual machine: no cpufreq, no topology, two CPUs */
	cpu("vm", 0, "", "");
	cpu("vm", 1, "", "");
	t = xasprintf("%s/vm", root);
	r = cpuchoice_pick(t, all, 2, &c);
	tap_ok(r == 0 && c.cpu == 1 &&
	       c.siblings == NULL && strstr(c.reason, "not shown"),
	       "nothing shown: the highest-numbered, and the reason says what was unknown (%s)",
	       c.reason);
	cpuchoice_release(&c);
	memset(all, 0, sizeof(all));
	tap_ok(cpuchoice_pick(t, all, 2, &c) == -1, "no allowed CPU: -1");
	free(t);

	tap_ok(cpuchoice_parse_list("0-3,8,10-11\n", set, 16) == 7 && set[0] &&
	       set[3] && !set[4] && set[8] && set[11] && !set[12],
	       "CPU lists: ranges and single CPUs");
	tap_ok(cpuchoice_parse_list("3-1", set, 16) == -1 &&
	       cpuchoice_parse_list("a", set, 16) == -1 &&
	       cpuchoice_parse_list("1,", set, 16) == -1,
	       "malformed CPU lists are refused");

	/* /proc/stat: cpu 3 50 % busy, its sibling cpu 2 idle; then the
	 * sibling 40 % busy (iowait counts as idle) */
	{
		const char *b = "cpu  100 0 100 800 0 0 0 0 0 0\n"
				"cpu2 10 0 10 80 0 0 0 0 0 0\n"
				"cpu3 10 0 10 80 0 0 0 0 0 0\n";
		const char *a = "cpu  200 0 200 1600 0 0 0 0 0 0\n"
				"cpu2 10 0 10 170 10 0 0 0 0 0\n"
				"cpu3 60 0 10 130 0 0 0 0 0 0\n";
		const char *a2 = "cpu  200 0 200 1600 0 0 0 0 0 0\n"
				 "cpu2 40 0 20 130 10 0 0 0 0 0\n"
				 "cpu3 10 0 10 180 0 0 0 0 0 0\n";
		double busy = -1;
		struct cpuchoice k = { 3, NULL, (char *)"2" };

		r = cpuchoice_busy(b, a, 3, &busy);
		tap_ok(r == 0 && busy > 0.49 &&
		       busy < 0.51, "busy fraction of a CPU from two readings (%.2f)",
		       busy);
		tap_ok(cpuchoice_busy(b, a, 9, &busy) == -1,
		       "a CPU without a line: -1");
		w = cpuchoice_busy_warning_from(&k, b, a);
		tap_ok(w && strstr(w, "cpu 3, the guests' cpu, was 50 % busy") &&
		       !strchr(w, '\n'),
		       "a busy pinned CPU is warned about, an idle sibling not (%s)",
		       w ? w : "none");
		free(w);
		w = cpuchoice_busy_warning_from(&k, b, a2);
		tap_ok(w && strstr(w, "cpu 2, the SMT sibling of the guests' cpu 3, was 40 % busy") &&
		       !strstr(w, "cpu 3, the guests'"),
		       "a busy SMT sibling is warned about (%s)", w ? w : "none");
		free(w);
	}

	t = xasprintf("rm -rf '%s'", root);
	if (system(t) != 0)
		tap_diag("could not remove %s", root);
	free(t);
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}
