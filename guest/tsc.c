/* guest/tsc.c - CPUID and the time-stamp counter (see tsc.h). */
#include "compat.h"

#include "tsc.h"

#if defined(__x86_64__)
void tsc_cpuid(uint32_t leaf, uint32_t r[4])
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

	tsc_cpuid(0x80000000u, r);	/* highest extended leaf */
	if (r[0] < 0x80000007u)
		return false;
	tsc_cpuid(0x80000007u, r);
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
