/* guest/canary.h - the contention canary: a fixed reference kernel timed
 * right before and right after each curve (one library, algorithm,
 * operation and mode over its buffer sizes), so that a curve measured
 * while something else took the CPU (another process, a clock change) is
 * known, measured again or flagged (guest/PROTOCOL.md, "Canary").
 *
 * The kernel depends on libc alone and does the same work everywhere:
 * CANARY_STEPS steps of an xorshift64 generator (Marsaglia, "Xorshift
 * RNGs", Journal of Statistical Software 8(14), 2003; shifts 13, 7, 17),
 * each reading and updating one word of a CANARY_WORDS-word table chosen
 * by the generator (32 KiB: an L1 data cache on current x86-64 and
 * AArch64 cores), every step depending on the one before. It is timed in
 * the thread's CPU time, like the batches (guest/bench.h, bench_cpu_ns):
 * time off the CPU shows in neither, so its time only changes when the
 * CPU it runs on does - a lower clock, another cache state, a busy
 * hyperthread sibling - which is what would move the curve's own time.
 */
#ifndef GUEST_CANARY_H
#define GUEST_CANARY_H

#include <stdbool.h>
#include <stdint.h>

#define CANARY_STEPS 65536
#define CANARY_WORDS 4096
/* Timings of the kernel on each side of a curve. */
#define CANARY_REPS 5
/* Smallest noise a move is judged against, a fraction: below it, a
 * move is the kernel's own jitter between two moments a few seconds
 * apart on an idle core. */
#define CANARY_MIN_NOISE 0.03

/* Sweeps measured again, at most, in percent of the sweeps begun (plus
 * one): on a host whose speed moves in spans of seconds, a quarter of the
 * sweeps of a run saw their canary move, and measuring each again cost a
 * quarter of the run's time. Beyond the allowance a moved sweep is kept,
 * its curves marked moved; the run's other invocation (every curve is
 * measured in two) judges them (guest/PROTOCOL.md, "Contention canary"). */
#define CANARY_REMEASURE_PCT 10

/* The canary of one curve. */
struct canary {
	uint64_t before_ns;	/* median time of the kernel before, ns */
	uint64_t after_ns;	/* median time after, ns */
	double noise;		/* the relative spread judged against */
	bool moved;		/* |after / before - 1| > noise */
};

/* Run the kernel once with extra = 0; EXTRA > 0 runs it 1 + EXTRA times
 * (a test's way to make the canary move). Returns a value that depends on
 * every step, so that the work cannot be left out. */
uint64_t canary_kernel(unsigned extra);

/* Run the kernel once untimed (warm-up), then time it N (1 .. 64) times
 * into NS[0 .. N-1], ns each (>= 1), each run EXTRA times over as
 * canary_kernel says. */
void canary_time(uint64_t *ns, unsigned n, unsigned extra);

/* Judge the N (1 .. 64) timings BEFORE and the N timings AFTER, ns each,
 * into *c: before_ns and after_ns are their medians (type 7, as
 * guest/samples.h), noise is the larger of CANARY_MIN_NOISE and twice the
 * larger relative interquartile range ((p75 - p25) / median) of the two
 * sides, and moved says that the medians differ by more than noise
 * relative to before_ns. Returns 0, or -1 when N is out of range. */
int canary_judge(const uint64_t *before, const uint64_t *after, unsigned n,
		 struct canary *c);

/* Whether a sweep whose canary moved may be measured again: SWEEPS
 * sweeps begun so far (first attempts, this one included), REMEASURED of
 * them measured again so far, PCT (0 .. 100) the allowance in percent.
 * True when REMEASURED <= SWEEPS * PCT / 100 (rounded down), so the
 * first moved sweep of a process is measured again whenever PCT > 0 and
 * at most 1 + PCT % of the sweeps are; PCT 0 never, 100 always. */
bool canary_may_remeasure(uint64_t sweeps, uint64_t remeasured,
			  unsigned pct);

#endif /* GUEST_CANARY_H */
