/* curves.h - the start-up/per-byte fit of every curve one guest invocation
 * measured (DESIGN.md, "Where the numbers come from": fit time =
 * overhead + bytes x slope so each curve has a start-up cost and a
 * cycles-per-byte figure). */
#ifndef BENCHORCH_CURVES_H
#define BENCHORCH_CURVES_H

#include <stddef.h>

#include "lib/guest_output.h"

/* One curve: the results of one library, algorithm, operation and mode
 * over buffer sizes, fitted by stats_fit_linear. */
struct curve_fit {
	const char *library, *algorithm, *operation, *mode;	/* borrowed
				 * from the guest_output */
	size_t points;		/* results (buffer sizes) fitted, >= 2 */
	double overhead_ns;	/* time per call at 0 bytes, ns; >= 0 (a fit
				 * below zero is clamped, stats_fit_linear) */
	double ns_per_byte;	/* slope, ns per byte */
	double cycles_per_byte;	/* ns_per_byte x the measured core clock
				 * (mean of hello's and done's clock_hz) in
				 * cycles per ns; -1 when the guest reported
				 * no clock */
};

/* Fit time per call (median_ns / calls_per_batch, ns) against buffer_bytes
 * for every curve in OUT with at least two distinct sizes. Returns the
 * number of fits and *RET an array of them (caller frees with free(); its
 * strings belong to OUT), sorted by library, algorithm, operation and
 * mode; *RET is NULL when there are none. */
size_t curves_fit(const struct guest_output *out, struct curve_fit **ret);

#endif
