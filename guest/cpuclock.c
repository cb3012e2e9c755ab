/* guest/cpuclock.c - measure the core clock, read the TSC (see
 * cpuclock.h). */
#include "compat.h"

#include "bench.h"
#include "cpuclock.h"

/* Additions per chain step (one asm statement) and steps per trial: 2^20
 * additions, 0.25 ms at 4 GHz, 1 ms at 1 GHz. */
#define CHAIN_ADDS 16
#define CHAIN_STEPS (UINT64_C(1) << 16)
/* Trials; the fastest counts. */
#define CHAIN_TRIALS 9

/* CHAIN_ADDS dependent additions of 1 to X. On x86-64 and AArch64 they
 * are written out in one asm statement, so that their dependency chain is
 * exactly CHAIN_ADDS single-cycle instructions whatever the optimisation
 * level; elsewhere in C, each addition followed by an empty asm with a
 * register constraint, which keeps the compiler from folding them. */
static uint64_t chain_step(uint64_t x)
{
#if defined(__x86_64__)
	__asm__ volatile(
		"add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
		"add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
		"add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
		"add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
		: "+r"(x) : : "cc");
#elif defined(__aarch64__)
	__asm__ volatile(
		"add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
		"add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
		"add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
		"add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
		"add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
		"add %0, %0, #1"
		: "+r"(x));
#else
	for (int i = 0; i < CHAIN_ADDS; i++) {
		x += 1;
		__asm__ volatile("" : "+r"(x));
	}
#endif
	return x;
}

uint64_t cpuclock_core_hz(void)
{
	double best = 0;
	volatile uint64_t sink;

	for (int t = 0; t < CHAIN_TRIALS; t++) {
		uint64_t x = 0, t0, ns;
		double hz;

		t0 = bench_now_ns();
		for (uint64_t i = 0; i < CHAIN_STEPS; i++)
			x = chain_step(x);
		ns = bench_now_ns() - t0;
		sink = x;
		(void)sink;
		if (ns == 0)
			continue;
		hz = (double)(CHAIN_STEPS * CHAIN_ADDS) * 1e9 / (double)ns;
		if (hz > best)
			best = hz;
	}
	return (uint64_t)(best + 0.5);
}

#if defined(__x86_64__)
/* CPUID leaf LEAF (subleaf 0) into r[0..3] = EAX, EBX, ECX, EDX. */
static void cpuid(uint32_t leaf, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(0));
}
#endif

bool cpuclock_have_tsc(void)
{
#if defined(__x86_64__)
	uint32_t r[4];

	cpuid(0x80000000u, r);		/* highest extended leaf */
	if (r[0] < 0x80000007u)
		return false;
	cpuid(0x80000007u, r);
	return (r[3] >> 8) & 1;		/* EDX bit 8: invariant TSC */
#else
	return false;
#endif
}

uint64_t cpuclock_tsc(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#else
	return 0;
#endif
}
