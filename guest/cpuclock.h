/* guest/cpuclock.h - the CPU's clocks, measured by the guest itself on the
 * CPU it is pinned to (not read from /proc/cpuinfo, which states a
 * nominal or last-sampled figure).
 *
 *  - Core clock: a chain of dependent integer additions, each with a
 *    latency of one core cycle on x86-64 (Intel 64 and IA-32 Architectures
 *    Optimization Reference Manual, and Agner Fog's instruction tables:
 *    ADD r,imm latency 1) and on AArch64 (Arm Cortex-A and Neoverse
 *    software optimization guides: ADD (immediate) latency 1), timed
 *    against CLOCK_MONOTONIC: cycles per second = additions per second.
 *    The best (fastest) of a few short trials is kept, so that an
 *    interruption or a clock still ramping up in one trial does not count.
 *  - Time-stamp counter (x86-64 only): read with RDTSC when CPUID leaf
 *    0x80000007 reports an invariant TSC in EDX bit 8 (Intel SDM vol. 3B
 *    17.17.1 "Invariant TSC"; AMD APM vol. 3, CPUID Fn8000_0007 EDX
 *    TscInvariant). Its ticks are reference cycles at the TSC's constant
 *    rate, not core cycles.
 */
#ifndef GUEST_CPUCLOCK_H
#define GUEST_CPUCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* True when this CPU has an invariant TSC the guest can read (x86-64,
 * CPUID 0x80000007 EDX bit 8); always false elsewhere. */
bool cpuclock_have_tsc(void);

/* The time-stamp counter now, in TSC ticks; 0 where there is none (call
 * only when cpuclock_have_tsc()). */
uint64_t cpuclock_tsc(void);

/* The core clock of the CPU this thread runs on, in Hz (cycles per
 * second), measured as described above; takes about 10 ms. Returns 0 only
 * if CLOCK_MONOTONIC did not advance. */
uint64_t cpuclock_core_hz(void);

#endif /* GUEST_CPUCLOCK_H */
