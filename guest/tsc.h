/* guest/tsc.h - CPUID and the time-stamp counter (x86-64 only), the lowest
 * clock piece of the guest: guest/bench.c reads the TSC around its
 * batches and guest/cpuclock.c measures the core clock with bench.c's
 * clock, so both call down to here and neither calls the other back.
 *
 * The TSC is read with RDTSC when CPUID leaf 0x80000007 reports an
 * invariant TSC in EDX bit 8 (Intel SDM vol. 3B 17.17.1 "Invariant TSC";
 * AMD APM vol. 3, CPUID Fn8000_0007 EDX TscInvariant). Its ticks are
 * reference cycles at the TSC's constant rate, not core cycles.
 */
#ifndef GUEST_TSC_H
#define GUEST_TSC_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
/* CPUID leaf LEAF (subleaf 0) into r[0..3] = EAX, EBX, ECX, EDX. No
 * errors: every x86-64 CPU has CPUID; a leaf above the highest one gives
 * the CPU's own (undefined) answer, so check leaf 0 or 0x80000000 first.
 * x86-64 only. */
void tsc_cpuid(uint32_t leaf, uint32_t r[4]);
#endif

/* True when this CPU has an invariant TSC the guest can read (x86-64,
 * CPUID 0x80000007 EDX bit 8); always false elsewhere. */
bool cpuclock_have_tsc(void);

/* The time-stamp counter now, in TSC ticks; 0 where there is none (call
 * only when cpuclock_have_tsc()). */
uint64_t cpuclock_tsc(void);

#endif /* GUEST_TSC_H */
