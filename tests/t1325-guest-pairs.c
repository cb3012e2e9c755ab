/* t1325-guest-pairs - the paired estimate of the interleaved scheduler
 * (guest/pairs.h): the interval ranks of a median are the sign-test ones
 * (the binomial probabilities, exact: for n = 20, 2 P(X <= 5) =
 * 2 x 21700 / 2^20 = 0.0414, W. J. Conover, Practical Nonparametric
 * Statistics, 3rd ed., 1999, 3.2 and its Table A3); an A/A pair under a
 * drift shared by both sides is exactly 1 and a tie; a 5 % difference
 * under a drift of tens of per cent that moves both sides alike is found,
 * with an interval that does not hold 1; equal libraries with independent
 * noise tie; the reference is the lowest median; rounds without both
 * blocks are left out. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "guest/pairs.h"
#include "tests/tap.h"

#define R 12

/* A drift of the host shared by both blocks of a round: tens of per
 * cent, as measured over minutes (DESIGN.md, "Noise"). */
static const double drift[R] = { 1.00, 1.31, 0.82, 1.95, 1.10, 0.77,
				 1.42, 1.05, 2.30, 0.91, 1.18, 1.60 };

static int near(double a, double b, double tol)
{
	return a > b - tol && a < b + tol;
}

int main(void)
{
	double ref[R], lib[R], cov, t[3 * R];
	struct pair_est e;
	unsigned k;
	int rc;

	k = pairs_interval_rank(20, &cov);
	tap_ok(k == 6 && near(cov, 1 - 2 * 21700.0 / 1048576.0, 1e-9),
	       "20 rounds: the 6th smallest to the 6th largest, coverage "
	       "%.4f (k %u)", cov, k);
	k = pairs_interval_rank(12, &cov);
	tap_ok(k == 3 && near(cov, 1 - 2 * 79.0 / 4096.0, 1e-9),
	       "12 rounds: k = 3, coverage %.4f (k %u)", cov, k);
	k = pairs_interval_rank(6, &cov);
	tap_ok(k == 1 && near(cov, 1 - 2 / 64.0, 1e-9),
	       "6 rounds: the whole range, coverage %.4f (k %u)", cov, k);
	k = pairs_interval_rank(5, &cov);
	tap_ok(k == 1 && near(cov, 1 - 2 / 32.0, 1e-9) && cov < 0.95,
	       "5 rounds: the whole range, and it says its coverage is "
	       "below 95 %% (%.4f)", cov);

	/* A/A: the same code in both, the host's drift on both */
	for (int r = 0; r < R; r++)
		ref[r] = lib[r] = 0.5 * drift[r];
	rc = pairs_estimate(ref, lib, R, &e);
	tap_ok(rc == 0 && e.ratio == 1 &&
	       e.low == 1 && e.high == 1 && e.tie && e.rounds == R,
	       "A/A under a shared drift of x0.77 .. x2.3: ratio 1, a tie "
	       "(%.4f in %.4f .. %.4f)", e.ratio, e.low, e.high);

	/* 5 % slower (ns per byte x 1/0.95), 1 % noise of its own, the same
	 * drift: found, the interval away from 1 and around 0.95 */
	for (int r = 0; r < R; r++)
		lib[r] = 0.5 * drift[r] / 0.95 * (r % 2 ? 1.01 : 0.99);
	rc = pairs_estimate(ref, lib, R, &e);
	tap_ok(rc == 0 && !e.tie &&
	       e.high < 1 && near(e.ratio, 0.95, 0.011) && e.low > 0.93,
	       "5 %% slower under the same drift: ratio %.4f in %.4f .. "
	       "%.4f, not a tie", e.ratio, e.low, e.high);

	/* equal, with independent noise of +-3 % either way: a tie */
	for (int r = 0; r < R; r++)
		lib[r] = ref[r] * (1 + (r % 2 ? 1 : -1) * 0.01 * (1 + r % 3));
	rc = pairs_estimate(ref, lib, R, &e);
	tap_ok(rc == 0 && e.tie,
	       "equal with noise of their own: a tie (%.4f in %.4f .. %.4f)",
	       e.ratio, e.low, e.high);

	/* rounds where one side has no block are left out */
	for (int r = 0; r < R; r++)
		lib[r] = r < 4 ? 0 : ref[r] / 0.5;
	rc = pairs_estimate(ref, lib, R, &e);
	tap_ok(rc == 0 && e.rounds == R - 4 &&
	       e.ratio == 0.5 && !e.tie,
	       "a round without a block is left out (%u rounds, ratio %.3f)",
	       e.rounds, e.ratio);
	for (int r = 0; r < R; r++)
		lib[r] = r % 2 ? 1 : 0, ref[r] = r % 2 ? 0 : 1;
	rc = pairs_estimate(ref, lib, R, &e);
	tap_ok(rc == -1 && e.rounds == 0,
	       "no round with both: no estimate");

	/* the reference: the lowest median, not the lowest minimum */
	for (int r = 0; r < R; r++) {
		t[r] = 2.0;			/* steady */
		t[R + r] = r == 0 ? 0.5 : 3.0;	/* one lucky block */
		t[2 * R + r] = r < 3 ? 0 : 1.5;	/* fastest, 3 missing */
	}
	tap_ok(pairs_reference(t, 3, R) == 2,
	       "the reference is the library with the lowest median");
	memset(t, 0, sizeof(t));
	tap_ok(pairs_reference(t, 3, R) == -1,
	       "no block at all: no reference");
	return tap_done();
}
