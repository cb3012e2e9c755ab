/* guest/main.c - benchorch-guest: benchmark the crypto libraries of the
 * rootfs it runs in and print guest/PROTOCOL.md lines on stdout.
 *
 * Exit status: 0 after printing `done`; 2 on a usage error (nothing is
 * printed on stdout then); 1 on any other failure.
 */
#include "compat.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "algo.h"
#include "backend.h"
#include "bench.h"
#include "cpuclock.h"
#include "emit.h"
#include "canary.h"
#include "hwmask.h"
#include "interleave.h"
#include "isolate.h"
#include "kat.h"
#include "rusage.h"
#include "lib/shuffle.h"
#include "measure.h"
#include "options.h"
#include "place.h"
#include "kdf.h"
#include "pubkey.h"
#include "tools.h"

#ifndef GUEST_VERSION
#define GUEST_VERSION "unknown"
#endif

/* Pin the process to CPU. Returns 0 or -1 (errno set). */
static int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	struct options o;
	struct run run;
	char libc[64];
	uint64_t clock_hz, hello_ns, hello_tsc, elapsed_ns, tsc_hz = 0;
	const char *clock_source;
	int rc;

	/* A closed stdout must end the run with status 1, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	/* A hang-up is not ours to act on: the orchestrator (or the daemon's
	 * job) decides when a run stops, and stops this process itself. */
	signal(SIGHUP, SIG_IGN);
	/* `benchorch-guest tool ...`: the distribution's own tools */
	if (argc > 1 && strcmp(argv[1], "tool") == 0)
		return guest_tools_main(argc - 1, argv + 1);
	rc = parse_args(argc, argv, &o);
	if (rc == 1)
		return 0;
	if (rc != 0) {
		put_fd(2, "Try 'benchorch-guest --help'.\n");
		return 2;
	}
	/* --fixed-layout: the same addresses in every guest (place.h) */
	if (o.fixed_layout)
		place_fixed_layout(argv);
	if (o.cpu >= 0 && pin_cpu(o.cpu) < 0) {
		complain("cannot pin to CPU %d: %s", o.cpu, strerror(errno));
		return 1;
	}
	/* --nohw: the mask, before any library is loaded (guest/hwmask.h;
	 * libgcrypt is masked by its backend, backend-libgcrypt.c, when
	 * guest_nohw is set); without it the stand-in of the same size.
	 * Libraries without a runtime switch (libsodium, Mbed TLS, wolfSSL,
	 * Botan 2, LibTomCrypt, libmcrypt) are measured as they are;
	 * PROTOCOL.md says which. */
	if (hwmask_apply(o.nohw) < 0) {
		complain("cannot set the environment: %s", strerror(errno));
		return 1;
	}
	guest_nohw = o.nohw;
#ifdef __GLIBC__
	snprintf(libc, sizeof(libc), "glibc %s", gnu_get_libc_version());
#else
	snprintf(libc, sizeof(libc), "musl");
#endif
	memset(&run, 0, sizeof(run));
	run.o = &o;
	run.params.min_batch_ns = o.min_batch_ns;
	run.params.repetitions = o.repetitions;
	run.params.max_cv = o.max_cv;
	run.params.sets = o.max_reruns + 1;
	run.params.tsc = cpuclock_have_tsc();
	for (size_t i = 0; i < sizeof(run.key); i++)
		run.key[i] = (uint8_t)(0x10 + i);
	for (size_t i = 0; i < sizeof(run.iv); i++)
		run.iv[i] = (uint8_t)(0xa0 + i);
	run.counts = mmap(NULL, sizeof(*run.counts), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run.counts == MAP_FAILED || alloc_buffers(&run.bufs) < 0) {
		complain("out of memory");
		return 1;
	}
	memset(run.counts, 0, sizeof(*run.counts));
	if (o.pubkey && !(run.pk = pubkey_shared_new())) {
		complain("out of memory");
		return 1;
	}
	if (o.kdf_any && !(run.kdf = kdf_shared_new())) {
		complain("out of memory");
		return 1;
	}
	/* the clock on the pinned CPU, before anything else runs */
	clock_hz = cpuclock_measure(o.cpu, &clock_source);
	check_emit(emit_hello(GUEST_VERSION, libc, o.cpu,
			      o.nohw ? "nohw" : "hw", clock_hz, clock_source,
			      o.seed_set ? (int64_t)o.seed : -1));
	hello_ns = bench_now_ns();
	hello_tsc = run.params.tsc ? cpuclock_tsc() : 0;
	if (o.interleave)
		interleave_run(&run);
	for (size_t i = 0; i < o.nlibs && !o.interleave; i++) {
		if (o.no_fork)
			run_library(&run, o.libs[i]);
		else
			isolate_run_library(&run, o.libs[i]);
	}
	pubkey_finish(&run);
	kdf_finish(&run);
	interleave_emit_late_pairs();
	clock_hz = cpuclock_measure(o.cpu, &clock_source);
	elapsed_ns = bench_now_ns() - hello_ns;
	if (run.params.tsc && elapsed_ns > 0)
		tsc_hz = (uint64_t)((double)(cpuclock_tsc() - hello_tsc) * 1e9 /
				    (double)elapsed_ns + 0.5);
	check_emit(emit_done(run.counts->results, run.counts->measure_ns,
			     elapsed_ns, clock_hz, clock_source, tsc_hz,
			     o.no_fork ? NULL : run.rusage, run.nrusage));
	free_buffers(&run.bufs);
	pubkey_shared_free(run.pk);
	kdf_shared_free(run.kdf);
	munmap(run.counts, sizeof(*run.counts));
	return 0;
}
