/* cpuchoice.h - choose the CPU a run's guests are pinned to, deliberately,
 * and say why.
 *
 * Among the CPUs this process may run on that are online, the choice
 * keeps, in order:
 *  1. on a hybrid part, the performance cores: the kernel lists them in
 *     SYSFS/devices/cpu_core/cpus (the efficiency cores are under
 *     devices/cpu_atom; Documentation/ABI/testing/sysfs-devices-system-cpu
 *     and the perf hybrid PMU naming; CPUID leaf 0x1A says the same per
 *     CPU but only to a thread running on it);
 *  2. the CPUs with the highest maximum clock,
 *     SYSFS/devices/system/cpu/cpuN/cpufreq/cpuinfo_max_freq (kHz), where
 *     the kernel shows it (favoured cores of a part with per-core turbo);
 *  3. the highest-numbered of those (CPU 0 usually takes most interrupts).
 * Its SMT siblings come from
 * SYSFS/devices/system/cpu/cpuN/topology/thread_siblings_list: a busy
 * sibling shares the core's execution units with the guest, so the run
 * samples how busy the chosen CPU and its siblings are before it starts
 * (/proc/stat) and warns.
 */
#ifndef BENCHORCH_CPUCHOICE_H
#define BENCHORCH_CPUCHOICE_H

#include <stddef.h>

/* The chosen CPU. */
struct cpuchoice {
	int cpu;		/* the CPU, >= 0 */
	char *reason;		/* why, one line (owned) */
	char *siblings;		/* its SMT siblings but itself, as a kernel
				 * CPU list ("3", "3,5"); NULL when it has
				 * none or the kernel does not say (owned) */
};

/* Choose among the NCPUS CPUs 0 .. ncpus - 1 for which ALLOWED[i] is
 * nonzero, reading SYSFS (a tree with sysfs's layout) as described above.
 * Fills *ret (release with cpuchoice_release). Returns 0, or -1 when no
 * allowed CPU is online. */
int cpuchoice_pick(const char *sysfs, const unsigned char *allowed,
		   int ncpus, struct cpuchoice *ret);

/* Choose among the CPUs this process may run on (sched_getaffinity).
 * Returns 0, or -1 (errno set when the affinity cannot be read). */
int cpuchoice_pick_self(const char *sysfs, struct cpuchoice *ret);

/* Release what cpuchoice_pick filled; NULL members are fine. */
void cpuchoice_release(struct cpuchoice *c);

/* Parse the kernel CPU list S ("0-3,8,10-11") into SET (NCPUS entries,
 * cleared first; CPUs beyond it are ignored). Returns the number of CPUs
 * set, or -1 when S is not a CPU list. */
int cpuchoice_parse_list(const char *s, unsigned char *set, int ncpus);

/* How busy CPU was between two readings of /proc/stat, BEFORE and AFTER
 * (their text): (busy jiffies) / (all jiffies) of its "cpuN" line, where
 * idle and iowait are not busy (proc(5)). Sets *ret_busy (0 .. 1).
 * Returns 0, or -1 when the CPU's line is missing or no time passed. */
int cpuchoice_busy(const char *before, const char *after, int cpu,
		   double *ret_busy);

/* Fraction above which a CPU counts as busy: 10 %. */
#define CPUCHOICE_BUSY 0.10

/* The warning for C after sampling /proc/stat at STAT_PATH twice,
 * INTERVAL_MS ms apart: one line per CPU (the chosen one, each sibling)
 * more than CPUCHOICE_BUSY busy, joined by newlines; NULL when none was
 * (or /proc/stat cannot be read). Caller frees. */
char *cpuchoice_busy_warning(const struct cpuchoice *c, const char *stat_path,
			     unsigned interval_ms);

/* The same from two readings already taken (for tests). */
char *cpuchoice_busy_warning_from(const struct cpuchoice *c,
				  const char *before, const char *after);

#endif /* BENCHORCH_CPUCHOICE_H */
