/* tests/t1050-guest-canary.c - the contention canary's judgement on
 * hand-made timings (medians, noise from the interquartile range with its
 * floor, moved), and that its kernel's time follows its work. Prints
 * TAP. */
#include "guest/compat.h"
#include "config.h"

#include <math.h>
#include <string.h>

#include "guest/canary.h"
#include "tests/tap.h"

int main(void)
{
	static const uint64_t flat[] = { 100, 100, 100, 100, 100 };
	static const uint64_t up10[] = { 110, 110, 110, 110, 110 };
	static const uint64_t down5[] = { 95, 95, 95, 95, 95 };
	static const uint64_t up2[] = { 102, 102, 102, 102, 102 };
	/* sorted 100 100 100 120 140: median 100, p25 100, p75 120 */
	static const uint64_t wide[] = { 140, 100, 120, 100, 100 };
	static const uint64_t up30[] = { 130, 130, 130, 130, 130 };
	static const uint64_t up50[] = { 150, 150, 150, 150, 150 };
	uint64_t plain[5], triple[5], a = UINT64_MAX, b = UINT64_MAX;
	struct canary c;

	tap_ok(canary_judge(flat, flat, 5, &c) == 0 && c.before_ns == 100 &&
	       c.after_ns == 100 && c.noise == CANARY_MIN_NOISE && !c.moved,
	       "the same times: medians 100 and 100, noise at its floor, not moved");
	tap_ok(canary_judge(flat, up2, 5, &c) == 0 && !c.moved,
	       "2 %% slower, within the 3 %% floor: not moved");
	tap_ok(canary_judge(flat, up10, 5, &c) == 0 && c.after_ns == 110 &&
	       c.moved, "10 %% slower against 3 %%: moved");
	tap_ok(canary_judge(flat, down5, 5, &c) == 0 && c.moved,
	       "5 %% faster against 3 %%: moved too (either way)");
	tap_ok(canary_judge(wide, up30, 5, &c) == 0 && c.before_ns == 100 &&
	       fabs(c.noise - 0.4) < 1e-12 && !c.moved,
	       "a side with interquartile range 20 %%: noise 40 %% (%.3f), 30 %% is not a move",
	       c.noise);
	tap_ok(canary_judge(wide, up50, 5, &c) == 0 && c.moved,
	       "50 %% against the same 40 %%: moved");
	tap_ok(canary_judge(up30, wide, 5, &c) == 0 && c.before_ns == 130 &&
	       c.after_ns == 100 && fabs(c.noise - 0.4) < 1e-12 && !c.moved,
	       "the wider side sets the noise whichever it is");
	tap_ok(canary_judge(flat, flat, 0, &c) < 0 &&
	       canary_judge(flat, flat, 65, &c) < 0,
	       "no timings, or more than 64: refused");

	/* three times the work takes about three times as long: the
	 * fastest of five each way, so that a busy moment does not decide */
	for (int round = 0; round < 3; round++) {
		canary_time(plain, 5, 0);
		canary_time(triple, 5, 2);
		for (int i = 0; i < 5; i++) {
			a = plain[i] < a ? plain[i] : a;
			b = triple[i] < b ? triple[i] : b;
		}
	}
	tap_ok(a > 0 && (double)b > 2.0 * (double)a &&
	       (double)b < 4.5 * (double)a,
	       "the kernel run 3 times over takes 2 to 4.5 times as long (%llu ns, %llu ns)",
	       (unsigned long long)a, (unsigned long long)b);
	/* the allowance of sweeps measured again */
	tap_ok(canary_may_remeasure(1, 0, 10) && !canary_may_remeasure(2, 1, 10),
	       "10 %%: the first moved sweep is measured again, a second of two is not");
	tap_ok(canary_may_remeasure(10, 1, 10) && !canary_may_remeasure(10, 2, 10) &&
	       canary_may_remeasure(100, 10, 10) && !canary_may_remeasure(100, 11, 10),
	       "10 %%: at most 1 + 10 %% of the sweeps begun (2 of 10, 11 of 100)");
	tap_ok(!canary_may_remeasure(1, 0, 0) && canary_may_remeasure(5, 5, 100),
	       "0 %%: never; 100 %%: always");
	return tap_done();
}
