/* t0040-cpustate - the CPU state readers on fixture sysfs trees with the
 * kernel's layout (an intel_pstate machine, an acpi-cpufreq guest under
 * Xen, a virtual machine without cpufreq), and the warnings. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/cpustate.h"
#include "lib/util.h"
#include "tests/tap.h"

static char *fixture(const char *name)
{
	return xasprintf("%s/tests/fixtures/%s", tap_srcdir(), name);
}

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int main(void)
{
	char *intel = fixture("sysfs-intel"), *acpi = fixture("sysfs-acpi");
	char *none = fixture("sysfs-none"), *gone = fixture("sysfs-nosuch");
	char *w, *d, *flags = NULL, *hv;
	struct cpustate s;
	bo_err err;

	cpustate_read(intel, 1, "fpu sse2 hypervisor aes", &s);
	tap_ok(s.cpu == 1 && s.cpufreq == 1 && streq(s.governor, "powersave") &&
	       s.freq_khz == 2800000 && s.boost == 1,
	       "intel_pstate: governor, scaling frequency in kHz, turbo on from no_turbo = 0 (%s, %lld, %d)",
	       s.governor ? s.governor : "NULL", (long long)s.freq_khz, s.boost);
	tap_ok(s.virtualized == 1 && s.hypervisor == NULL,
	       "the hypervisor flag is seen; no vendor in sysfs stays unknown");
	w = cpustate_governor_warning(&s);
	tap_ok(w && strstr(w, "cpu 1") && strstr(w, "'powersave', not 'performance'") &&
	       !strchr(w, '\n'), "a governor other than performance is one line of warning (%s)",
	       w ? w : "none");
	free(w);
	d = cpustate_describe(&s, 2500000);
	tap_ok(streq(d, "cpu 1: governor powersave, boost on, scaling frequency 2800 -> 2500 MHz, hypervisor present, vendor unknown"),
	       "described in one line (%s)", d);
	free(d);
	cpustate_release(&s);

	cpustate_read(intel, 0, "fpu sse2 aes", &s);
	tap_ok(streq(s.governor, "performance") && s.freq_khz == 3500000 &&
	       s.virtualized == 0,
	       "reads the CPU asked for, through its cpufreq policy link (cpu 0: %s, %lld)",
	       s.governor ? s.governor : "NULL", (long long)s.freq_khz);
	w = cpustate_governor_warning(&s);
	tap_ok(w == NULL, "performance needs no warning");
	free(w);
	cpustate_release(&s);

	cpustate_read(acpi, 1, "fpu hypervisorx", &s);
	tap_ok(streq(s.governor, "performance") && s.boost == 0 &&
	       s.freq_khz == 2100000 && streq(s.hypervisor, "xen") &&
	       s.virtualized == 0,
	       "acpi-cpufreq: boost off from cpufreq/boost, hypervisor from hypervisor/type; 'hypervisorx' is not the flag");
	cpustate_release(&s);
	cpustate_read(acpi, 0, "", &s);
	tap_ok(s.freq_khz == -1 && s.virtualized == -1,
	       "a frequency of '<unknown>' is unknown; no flags, virtualization unknown");
	cpustate_release(&s);

	cpustate_read(none, 1, "fpu hypervisor", &s);
	tap_ok(s.cpufreq == 0 && s.governor == NULL && s.boost == -1 &&
	       s.freq_khz == -1,
	       "no cpufreq in sysfs: governor, boost and frequency unknown, none invented");
	d = cpustate_describe(&s, cpustate_freq_khz(none, 1));
	tap_ok(streq(d, "cpu 1: governor unknown, boost unknown, scaling frequency unknown (the kernel shows no cpufreq for it), hypervisor present, vendor unknown"),
	       "and says so (%s)", d);
	free(d);
	w = cpustate_governor_warning(&s);
	tap_ok(w == NULL, "an unknown governor is not warned about");
	free(w);
	cpustate_release(&s);

	cpustate_read(gone, 3, NULL, &s);
	tap_ok(s.cpufreq == 0 && !s.governor && s.boost == -1 && s.freq_khz == -1 &&
	       s.virtualized == -1 && !s.hypervisor,
	       "a missing sysfs root leaves everything unknown");
	cpustate_release(&s);

	w = cpustate_freq_warning(1, 2800000, 2800000);
	tap_ok(w == NULL, "an unchanged frequency is no warning");
	free(w);
	w = cpustate_freq_warning(1, 2800000, 3080000);
	tap_ok(w == NULL, "a change of exactly %d %% is within the tolerance",
	       CPUSTATE_FREQ_TOLERANCE_PCT);
	free(w);
	w = cpustate_freq_warning(1, 2800000, 3080001);
	tap_ok(w != NULL, "just above it is a warning (%s)", w ? w : "none");
	free(w);
	w = cpustate_freq_warning(2, 2800000, 2000000);
	tap_ok(w && strstr(w, "cpu 2") && strstr(w, "-28.6 %") &&
	       strstr(w, "2800000 kHz before, 2000000 kHz after") && !strchr(w, '\n'),
	       "a drop is a one-line warning with both readings (%s)", w ? w : "none");
	free(w);
	w = cpustate_freq_warning(1, -1, 2000000);
	tap_ok(w == NULL, "an unknown reading is no warning");
	free(w);

	{
		/* measured clocks: 10 % of the lowest is the limit */
		const int64_t steady[] = { 2800000000, 0, 3080000000, -1,
					   2900000000 };
		const int64_t moved[] = { 3080000001, 2800000000, 2950000000 };
		const int64_t unknown[] = { 0, -1 };

		w = cpustate_clock_warning(1, steady, 5);
		tap_ok(w == NULL, "measured clocks within 10 %% (unknown ones "
		       "skipped) are no warning");
		free(w);
		w = cpustate_clock_warning(3, moved, 3);
		tap_ok(w && strstr(w, "cpu 3") && strstr(w, "spread by 10.00 %") &&
		       strstr(w, "lowest 2.800 GHz, highest 3.080 GHz") &&
		       !strchr(w, '\n'),
		       "a spread just above 10 %% is a one-line warning with "
		       "both ends (%s)", w ? w : "none");
		free(w);
		w = cpustate_clock_warning(1, unknown, 2);
		tap_ok(w == NULL, "no known measured clock, no warning");
		free(w);
		w = cpustate_clock_warning(1, NULL, 0);
		tap_ok(w == NULL, "no invocation, no warning");
		free(w);
	}

	/* CPUID's hypervisor signature, when there is one, agrees with the
	 * kernel's flags and is short printable text. */
	hv = cpustate_cpuid_hypervisor();
	if (bo_read_file("/proc/cpuinfo", 4u << 20, &flags, NULL, &err) < 0)
		flags = NULL;
	tap_ok(!hv || (flags && strstr(flags, " hypervisor") && strlen(hv) <= 12),
	       "the CPUID signature (%s) comes with the hypervisor flag",
	       hv ? hv : "none");
	free(flags);
	free(hv);
	/* signatures as the hypervisors publish them (see cpustate.h) */
	tap_ok(!strcmp(cpustate_hypervisor_name("KVMKVMKVM"), "KVM") &&
	       !strcmp(cpustate_hypervisor_name("Microsoft Hv"), "Hyper-V") &&
	       !strcmp(cpustate_hypervisor_name("VMwareVMware"), "VMware") &&
	       !strcmp(cpustate_hypervisor_name("XenVMMXenVMM"), "Xen"),
	       "a known CPUID signature is shown by the hypervisor's name");
	tap_ok(!strcmp(cpustate_hypervisor_name("NewVisor"), "NewVisor") &&
	       !strcmp(cpustate_hypervisor_name("KVM"), "KVM"),
	       "an unknown signature is shown as it is");
	free(intel);
	free(acpi);
	free(none);
	free(gone);
	return tap_done();
}
