/* t7015-fit-clamp - a curve whose start-up overhead fits below zero (as
 * Nettle's 3des-cbc did, -1 ns per call) is clamped to 0 ns and its cost
 * per byte refitted through the origin: in stats_fit_linear, in the fits
 * stored with a run (curves_fit), and in the report for fits stored
 * before (it refits them). A positive overhead is left as fitted. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/curves.h"
#include "lib/guest_output.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "tests/tap.h"

int main(void)
{
	/* t = bytes x 1 ns - 1 ns: the unconstrained fit is exactly
	 * overhead -1 ns, slope 1 ns/B */
	static const double x[] = { 16, 64, 256, 1024, 4096 };
	double t[5], o = 99, s = 99, sw = 0, sxt = 0, sxx = 0, want;
	struct guest_output out;
	struct guest_result r[5];
	struct curve_fit *fits = NULL;
	size_t i, n;
	int rc;

	for (i = 0; i < 5; i++) {
		double w;

		t[i] = x[i] - 1;
		w = 1 / (t[i] * t[i]);
		sw += w;
		sxt += w * x[i] * t[i];
		sxx += w * x[i] * x[i];
	}
	want = sxt / sxx;	/* the weighted slope through the origin */
	rc = stats_fit_linear(x, t, 5, &o, &s);
	tap_ok(rc == 1 && o == 0 && fabs(s - want) < 1e-12 && s < 1 && s > 0.9,
	       "overhead -1 ns clamped to 0, slope refitted through the origin (rc %d, %.3f ns, %.6f ns/B, want %.6f)",
	       rc, o, s, want);
	for (i = 0; i < 5; i++)
		t[i] = x[i] + 200;
	rc = stats_fit_linear(x, t, 5, &o, &s);
	tap_ok(rc == 0 && fabs(o - 200) < 1e-6 && fabs(s - 1) < 1e-9,
	       "a positive overhead is kept as fitted (rc %d, %.3f ns, %.6f ns/B)",
	       rc, o, s);

	/* the same points as one guest curve: the stored fit is clamped */
	guest_output_init(&out);
	memset(r, 0, sizeof(r));
	for (i = 0; i < 5; i++) {
		r[i].library = "nettle";
		r[i].algorithm = "3des-cbc";
		r[i].operation = "encrypt";
		r[i].mode = "bulk";
		r[i].buffer_bytes = (int64_t)x[i];
		r[i].calls_per_batch = 1000;
		r[i].t.median_ns = (int64_t)((x[i] - 1) * 1000);
	}
	out.results = r;
	out.nresults = 5;
	out.clock_start_hz = out.clock_end_hz = 3000000000;
	n = curves_fit(&out, &fits);
	tap_ok(n == 1 && fits[0].overhead_ns == 0 &&
	       fabs(fits[0].ns_per_byte - want) < 1e-9 &&
	       fabs(fits[0].cycles_per_byte - want * 3) < 1e-9,
	       "curves_fit stores overhead 0 ns and the refitted slope (%.3f ns, %.6f ns/B, %.4f cycles/B)",
	       n ? fits[0].overhead_ns : -99, n ? fits[0].ns_per_byte : -99,
	       n ? fits[0].cycles_per_byte : -99);
	free(fits);
	return tap_done();
}
