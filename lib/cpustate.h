/* cpustate.h - the state of the CPU a run's guests are pinned to, as the
 * kernel shows it in sysfs: scaling governor, turbo/boost, scaling
 * frequency, and whether (and under which hypervisor) the machine is
 * virtual. Recorded with every run, next to the CPU's identity
 * (cpuinfo.h), because it changes from run to run while the model does
 * not. */
#ifndef BENCHORCH_CPUSTATE_H
#define BENCHORCH_CPUSTATE_H

#include <stddef.h>
#include <stdint.h>

/* A change of the scaling frequency between the readings before and after
 * a run larger than this (in percent of the reading before) is flagged.
 * One reading of scaling_cur_freq is a snapshot of a clock that moves with
 * load and power states: this is a choice to catch a clock that really
 * moved (a power or thermal limit, another governor decision), not the
 * noise of two snapshots. */
#define CPUSTATE_FREQ_TOLERANCE_PCT 10

/* What was read. Strings owned by the struct; unknown values are NULL or
 * -1: a value that cannot be read is never guessed. */
struct cpustate {
	int cpu;		/* the CPU described */
	int cpufreq;		/* 1: SYSFS/devices/system/cpu/cpuN/cpufreq
				 * exists; 0: the kernel exposes no cpufreq
				 * for it (common in virtual machines); -1:
				 * not looked at */
	char *governor;		/* scaling_governor ("performance",
				 * "powersave", ...), NULL = unknown */
	int boost;		/* turbo/boost: 1 on, 0 off, -1 unknown */
	int64_t freq_khz;	/* scaling_cur_freq in kHz, -1 = unknown */
	int virtualized;	/* 1: the CPU flags have "hypervisor"; 0: they
				 * do not; -1: no flags to look at */
	char *hypervisor;	/* its vendor ("xen", "KVMKVMKVM", ...), NULL =
				 * unknown or not virtualized */
};

/* Read the state of CPU from the sysfs tree rooted at SYSFS (normally
 * "/sys"; tests point it at a fixture tree with the same layout):
 *   governor   SYSFS/devices/system/cpu/cpuCPU/cpufreq/scaling_governor
 *   frequency  SYSFS/devices/system/cpu/cpuCPU/cpufreq/scaling_cur_freq
 *              (kHz, the kernel's cpufreq sysfs ABI)
 *   boost      SYSFS/devices/system/cpu/intel_pstate/no_turbo (1 = turbo
 *              off; the intel_pstate driver), else
 *              SYSFS/devices/system/cpu/cpufreq/boost (1 = on; acpi-cpufreq
 *              and others), else unknown
 *   hypervisor SYSFS/hypervisor/type (Xen and a few others publish it)
 * and "virtualized" from FLAGS, the space-separated CPU flags of
 * /proc/cpuinfo (NULL or "" = unknown). A file that is missing or does
 * not hold what it should leaves its value unknown. Never fails. Release
 * with cpustate_release. */
void cpustate_read(const char *sysfs, int cpu, const char *flags,
		   struct cpustate *ret);

/* The scaling frequency of CPU in kHz (as cpustate_read), or -1 when
 * unknown. */
int64_t cpustate_freq_khz(const char *sysfs, int cpu);

/* The hypervisor named by its vendor signature from CPUID leaf 0x40000000
 * (EBX, ECX, EDX as 12 characters, trailing NULs and spaces dropped:
 * "KVMKVMKVM", "Microsoft Hv", "VMwareVMware", "XenVMMXenVMM", "bhyve
 * bhyve"), read only when CPUID leaf 1 ECX bit 31 says a hypervisor is
 * present (the convention hypervisors follow: Linux arch/x86
 * X86_FEATURE_HYPERVISOR, Documentation/virt/kvm/x86/cpuid.rst; VMware KB
 * 1009458), as cpustate_hypervisor_name gives it. Newly allocated; NULL on
 * bare metal, on other architectures, or when the signature is not
 * printable text. */
char *cpustate_cpuid_hypervisor(void);

/* The usual name of the hypervisor whose CPUID signature (as above) is SIG:
 * "KVM", "Hyper-V", "VMware", "Xen", "bhyve", "QEMU (TCG)", "Parallels",
 * "ACRN", "QNX"; SIG itself when it is none of these (signatures as the
 * Linux kernel's arch/x86/kernel/cpu/ hypervisor detection matches them).
 * Returns SIG or a static string; never NULL for a non-NULL SIG. */
const char *cpustate_hypervisor_name(const char *sig);

/* Free what s owns and reset it to unknown. */
void cpustate_release(struct cpustate *s);

/* A one-line warning when the governor is known and is not
 * "performance" (its clock follows load, so numbers drift with it), else
 * NULL. Newly allocated; caller frees. */
char *cpustate_governor_warning(const struct cpustate *s);

/* A one-line warning when both readings are known (kHz, > 0) and differ
 * by more than CPUSTATE_FREQ_TOLERANCE_PCT percent of BEFORE_KHZ, else
 * NULL. CPU names the CPU in the text. Newly allocated; caller frees. */
char *cpustate_freq_warning(int cpu, int64_t before_khz, int64_t after_khz);

/* A one-line warning when the core clock the guests measured (HZ, N
 * readings in Hz; readings <= 0 are unknown and skipped) spread by more
 * than CPUSTATE_FREQ_TOLERANCE_PCT percent of the lowest one during the
 * run - the check that still works where the kernel shows no cpufreq
 * (virtual machines) - else NULL. CPU names the CPU in the text. Newly
 * allocated; caller frees. */
char *cpustate_clock_warning(int cpu, const int64_t *hz, size_t n);

/* One line for people: "cpu 1: governor performance, boost on, scaling
 * frequency 2800 -> 2795 MHz, hypervisor KVMKVMKVM", saying "unknown"
 * for what is unknown (and that the kernel shows no cpufreq when
 * s->cpufreq is 0). AFTER_KHZ
 * is the reading after the run, -1 if none. Newly allocated; caller
 * frees. */
char *cpustate_describe(const struct cpustate *s, int64_t after_khz);

#endif
