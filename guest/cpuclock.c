/* guest/cpuclock.c - measure the core clock (see cpuclock.h); the TSC is
 * read in tsc.c. */
#include "compat.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "bench.h"
#include "cpuclock.h"
#include "tsc.h"

/* Additions per chain step (one asm statement) and steps per trial: 2^20
 * additions, 0.25 ms at 4 GHz, 1 ms at 1 GHz. */
#define CHAIN_ADDS 16
#define CHAIN_STEPS (UINT64_C(1) << 16)
/* Trials; the fastest counts. */
#define CHAIN_TRIALS 9

/* The addend of the chain: 1, read from memory so that the compiler and
 * the CPU's renamer cannot know it. */
static volatile uint64_t chain_one = 1;

/* CHAIN_ADDS dependent additions of register Y to X. On x86-64 and
 * AArch64 they are written out in one asm statement, so that their
 * dependency chain is exactly CHAIN_ADDS single-cycle register-register
 * adds whatever the optimisation level; elsewhere in C, each addition
 * followed by an empty asm with a register constraint, which keeps the
 * compiler from folding them. */
static uint64_t chain_step(uint64_t x, uint64_t y)
{
#if defined(__x86_64__)
	__asm__ volatile(
		"add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
		"add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
		"add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
		"add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
		: "+r"(x) : "r"(y) : "cc");
#elif defined(__aarch64__)
	__asm__ volatile(
		"add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
		"add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
		"add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
		"add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
		"add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
		"add %0, %0, %1"
		: "+r"(x) : "r"(y));
#else
	for (int i = 0; i < CHAIN_ADDS; i++) {
		x += y;
		__asm__ volatile("" : "+r"(x));
	}
#endif
	return x;
}

#if defined(__linux__) && defined(SYS_perf_event_open) && \
	(defined(__x86_64__) || defined(__aarch64__))
/* struct perf_event_attr in its first version (PERF_ATTR_SIZE_VER0, 64
 * bytes; linux/perf_event.h, perf_event_open(2)), which every kernel
 * accepts: restated here because the musl toolchain has no kernel
 * headers. The flags word is a bit field, little-endian on the two
 * architectures this is built for. */
struct perf_attr_v0 {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format, flags;
	uint32_t wakeup_events, bp_type;
	uint64_t bp_addr;
};
#define PERF_TYPE_HARDWARE_ 0
#define PERF_COUNT_HW_CPU_CYCLES_ 0
#define PERF_FLAG_EXCLUDE_KERNEL (UINT64_C(1) << 5)
#define PERF_FLAG_EXCLUDE_HV (UINT64_C(1) << 6)

/* A counter of this thread's core cycles in user space (perf_event_open
 * (2), PERF_COUNT_HW_CPU_CYCLES), running from now on; -1 when the kernel
 * or its container does not allow it. */
static int perf_cycles_open(void)
{
	struct perf_attr_v0 a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE_;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_CPU_CYCLES_;
	a.flags = PERF_FLAG_EXCLUDE_KERNEL | PERF_FLAG_EXCLUDE_HV;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* The counter FD's count, or 0 when it cannot be read. */
static uint64_t perf_cycles_read(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}
#else
static int perf_cycles_open(void) { return -1; }
static uint64_t perf_cycles_read(int fd) { (void)fd; return 0; }
#endif

/* The CPU's stated maximum clock in Hz: CPUID leaf 0x16 EBX (MHz), else
 * /sys/devices/system/cpu/cpuCPU/cpufreq/cpuinfo_max_freq (kHz); 0 when
 * neither says. */
static uint64_t max_clock_hz(int cpu)
{
	char path[96], buf[32];
	uint64_t khz = 0;
	ssize_t n;
	int fd;

#if defined(__x86_64__)
	uint32_t r[4];

	tsc_cpuid(0, r);
	if (r[0] >= 0x16) {
		tsc_cpuid(0x16, r);
		if (r[1] & 0xffff)
			return (uint64_t)(r[1] & 0xffff) * 1000000u;
	}
#endif
	if (cpu < 0)
		return 0;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
	if ((fd = open(path, O_RDONLY)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
		khz = khz * 10 + (uint64_t)(buf[i] - '0');
	return khz * 1000u;
}

uint64_t cpuclock_choose(const struct cpuclock_inputs *in,
			 const char **source)
{
	double bound = 0;
	const char *src = CPUCLOCK_CHAIN;
	uint64_t hz = in->chain_hz;

	if (in->perf_hz) {
		hz = in->perf_hz;
		src = CPUCLOCK_PERF;
	} else {
		if (in->max_hz)
			bound = (double)in->max_hz * 1.05;
		else if (in->tsc_hz)
			bound = (double)in->tsc_hz * CPUCLOCK_MAX_TURBO_RATIO *
				1.05;
		if (bound > 0 && (double)hz > bound && in->tsc_hz) {
			hz = in->tsc_hz;
			src = CPUCLOCK_TSC;
		} else if (bound > 0 && (double)hz > bound) {
			hz = (uint64_t)bound;	/* no TSC: the bound itself */
			src = CPUCLOCK_TSC;
		}
	}
	if (source)
		*source = src;
	return hz;
}

uint64_t cpuclock_measure(int cpu, const char **source)
{
	struct cpuclock_inputs in;
	double best = 0, best_perf = 0, best_tsc = 0;
	bool tsc = cpuclock_have_tsc();
	int fd = perf_cycles_open();
	volatile uint64_t sink;

	memset(&in, 0, sizeof(in));
	for (int t = 0; t < CHAIN_TRIALS; t++) {
		uint64_t x = 0, y = chain_one, t0, ns, c0, p0, c, p;
		double hz;

		p0 = perf_cycles_read(fd);
		c0 = tsc ? cpuclock_tsc() : 0;
		t0 = bench_now_ns();
		for (uint64_t i = 0; i < CHAIN_STEPS; i++)
			x = chain_step(x, y);
		ns = bench_now_ns() - t0;
		c = tsc ? cpuclock_tsc() - c0 : 0;
		p = perf_cycles_read(fd) - p0;
		sink = x;
		(void)sink;
		if (ns == 0)
			continue;
		hz = (double)(CHAIN_STEPS * CHAIN_ADDS) * 1e9 / (double)ns;
		if (hz > best)
			best = hz;
		if (fd >= 0 && p > 0 && (double)p * 1e9 / (double)ns > best_perf)
			best_perf = (double)p * 1e9 / (double)ns;
		if (tsc && (double)c * 1e9 / (double)ns > best_tsc)
			best_tsc = (double)c * 1e9 / (double)ns;
	}
	if (fd >= 0)
		close(fd);
	in.chain_hz = (uint64_t)(best + 0.5);
	in.perf_hz = (uint64_t)(best_perf + 0.5);
	in.tsc_hz = (uint64_t)(best_tsc + 0.5);
	in.max_hz = max_clock_hz(cpu);
	return cpuclock_choose(&in, source);
}

uint64_t cpuclock_core_hz(void)
{
	return cpuclock_measure(-1, NULL);
}
