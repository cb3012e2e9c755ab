/* guest/cpuclock.h - the CPU's clocks, measured by the guest itself on the
 * CPU it is pinned to (not read from /proc/cpuinfo, which states a
 * nominal or last-sampled figure).
 *
 *  - Core clock: a chain of dependent additions of two registers (x += y,
 *    y loaded from memory so that its value is not known when the
 *    instructions are renamed), timed against CLOCK_MONOTONIC. An integer
 *    add of two registers has a latency of one core cycle on x86-64
 *    (Intel 64 and IA-32 Architectures Optimization Reference Manual;
 *    Agner Fog's instruction tables: ADD r,r latency 1) and AArch64 (Arm
 *    Cortex-A and Neoverse software optimization guides: ADD (shifted
 *    register, no shift) latency 1), and no current core removes one from
 *    the dependency chain: Golden Cove and later Intel cores fold adds of
 *    an immediate at rename, several per cycle, which is why the chain
 *    does not use them. The best (fastest) of a few short trials is kept.
 *    Where the kernel lets the guest count its own core cycles
 *    (perf_event_open(2), PERF_COUNT_HW_CPU_CYCLES, user space only) the
 *    counted cycles over the same trials are the reference and are
 *    reported instead ("perf"). Otherwise the chain's figure is checked
 *    against the most the clock can be: CPUID leaf 0x16's maximum
 *    frequency (Intel SDM vol. 2A, CPUID "Processor Frequency Information
 *    Leaf"), else the pinned CPU's cpufreq cpuinfo_max_freq, else the
 *    invariant TSC's rate times CPUCLOCK_MAX_TURBO_RATIO, each with 5 %
 *    tolerance; a chain reading above it is rejected and the TSC's rate
 *    reported instead ("tsc").
 *  - Time-stamp counter (x86-64 only): see tsc.h.
 */
#ifndef GUEST_CPUCLOCK_H
#define GUEST_CPUCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* cpuclock_have_tsc() and cpuclock_tsc() are in tsc.h. */
#include "tsc.h"

/* The largest ratio of a core's highest turbo clock to its TSC rate the
 * guest assumes when nothing better is known: x86 parts run their TSC at
 * about the base clock, and low-power mobile parts turbo to about three
 * times their base (e.g. 1.3 to 3.9 GHz). */
#define CPUCLOCK_MAX_TURBO_RATIO 4.0

/* Where a clock figure comes from (the protocol's `clock_source`). */
#define CPUCLOCK_PERF "perf"	/* core cycles counted by the kernel */
#define CPUCLOCK_CHAIN "chain"	/* the add chain, within the bound */
#define CPUCLOCK_TSC "tsc"	/* the chain read above the bound: the
				 * TSC's rate instead */

/* What one measurement saw, all in Hz (0 = not available). */
struct cpuclock_inputs {
	uint64_t chain_hz;	/* additions of the chain per second */
	uint64_t perf_hz;	/* counted core cycles per second */
	uint64_t tsc_hz;	/* the invariant TSC's rate */
	uint64_t max_hz;	/* the CPU's stated maximum clock (CPUID
				 * 0x16 or cpufreq) */
};

/* The decision described above, on measured INPUTS: the clock in Hz, and
 * its source (one of the CPUCLOCK_* strings, static) in *source. The
 * bound is max_hz when known, else tsc_hz * CPUCLOCK_MAX_TURBO_RATIO,
 * plus 5 %; none when neither is known. Returns 0 only when every input
 * is 0. */
uint64_t cpuclock_choose(const struct cpuclock_inputs *in,
			 const char **source);

/* The core clock of the CPU this thread runs on (pinned to CPU, or -1
 * when unknown: then no cpufreq figure is read), in Hz (cycles per
 * second), measured and chosen as described above; *source (may be NULL)
 * says how. Takes about 10 ms (20 ms without an invariant TSC's rate
 * from a previous call). Returns 0 only if CLOCK_MONOTONIC did not
 * advance. */
uint64_t cpuclock_measure(int cpu, const char **source);

/* cpuclock_measure(-1, NULL). */
uint64_t cpuclock_core_hz(void);

#endif /* GUEST_CPUCLOCK_H */
