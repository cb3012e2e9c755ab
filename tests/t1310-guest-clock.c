/* tests/t1310-guest-clock.c - the guest's core-clock measurement
 * (guest/cpuclock.h): the choice between counted cycles, the add chain
 * and the TSC on given readings, and the chain measured on this machine
 * against the clock the kernel states for it. Prints TAP. */
#include "guest/compat.h"
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "guest/cpuclock.h"
#include "tests/tap.h"

/* cpuclock_choose on the four readings: is the answer HZ from SOURCE? */
static int chooses(uint64_t chain, uint64_t perf, uint64_t tsc, uint64_t max,
		   uint64_t hz, const char *source)
{
	struct cpuclock_inputs in = { chain, perf, tsc, max };
	const char *src = NULL;
	uint64_t got = cpuclock_choose(&in, &src);

	if (got == hz && src && strcmp(src, source) == 0)
		return 1;
	tap_diag("got %llu from %s", (unsigned long long)got,
		 src ? src : "(null)");
	return 0;
}

/* The largest "cpu MHz" of /proc/cpuinfo, in Hz; 0 when there is none. */
static double cpuinfo_mhz_hz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double best = 0, mhz;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1 && mhz > best)
			best = mhz;
	fclose(f);
	return best * 1e6;
}

int main(void)
{
	const char *src = NULL;
	uint64_t hz;
	double stated;

	tap_ok(chooses(9000000000u, 3100000000u, 2100000000u, 0, 3100000000u,
		       CPUCLOCK_PERF),
	       "counted cycles win over the chain");
	tap_ok(chooses(3000000000u, 0, 2100000000u, 3500000000u, 3000000000u,
		       CPUCLOCK_CHAIN),
	       "a chain reading below the stated maximum is kept");
	tap_ok(chooses(3600000000u, 0, 2100000000u, 3500000000u, 3600000000u,
		       CPUCLOCK_CHAIN),
	       "a chain reading within 5 %% above the stated maximum is kept");
	tap_ok(chooses(3700000000u, 0, 2100000000u, 3500000000u, 2100000000u,
		       CPUCLOCK_TSC),
	       "a chain reading more than 5 %% above the stated maximum is rejected for the TSC rate");
	/* no stated maximum: 4 x TSC + 5 % = 8.82 GHz for a 2.1 GHz TSC */
	tap_ok(chooses(8800000000u, 0, 2100000000u, 0, 8800000000u,
		       CPUCLOCK_CHAIN),
	       "without a stated maximum, up to 4.2 x the TSC rate is kept");
	tap_ok(chooses(8900000000u, 0, 2100000000u, 0, 2100000000u,
		       CPUCLOCK_TSC),
	       "without a stated maximum, above 4.2 x the TSC rate is rejected");
	tap_ok(chooses(2500000000u, 0, 0, 0, 2500000000u, CPUCLOCK_CHAIN),
	       "no TSC and no maximum: the chain as measured");

	/* On this machine: the chain's clock is not several times the
	 * clock the kernel states (a chain the core collapses at rename,
	 * such as adds of an immediate on Golden Cove, reads 3-5 times too
	 * high); twice the stated figure leaves room for turbo above a
	 * nominal or virtualised figure. */
	hz = cpuclock_measure(-1, &src);
	stated = cpuinfo_mhz_hz();
	tap_diag("measured %llu Hz (%s), /proc/cpuinfo states %.0f Hz",
		 (unsigned long long)hz, src, stated);
	tap_ok(src && strcmp(src, CPUCLOCK_TSC) != 0,
	       "the chain's reading is within the bound, not replaced by the TSC rate");
	if (stated > 0)
		tap_ok(hz > 0 && (double)hz <= 2 * stated &&
		       (double)hz >= stated / 4,
		       "the measured clock is within 1/4 .. 2 x the stated clock");
	else
		tap_skip(1, "/proc/cpuinfo states no clock here");
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}
