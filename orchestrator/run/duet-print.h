/* duet-print.h - a duet's verdicts on stdout: a table a person reads in
 * one screen (per library, then the curves that changed), or every curve
 * as CSV or JSON. */
#ifndef BENCHORCH_DUET_PRINT_H
#define BENCHORCH_DUET_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "lib/format.h"
#include "orchestrator/run/duet-judge.h"

/* What the verdicts are of. */
struct duet_heading {
	const char *base, *new_name;	/* image names */
	const char *base_build, *new_build;	/* the build loaded in place
					 * of its library on that side, or
					 * NULL */
	double threshold;		/* a fraction */
	unsigned rounds;		/* rounds of the first look */
	unsigned max_rounds;		/* the most an undecided curve got
					 * (duet-pass.h), >= rounds */
	double seconds;			/* the duet's wall time, s */
};

/* Print the N curves C of the duet H to F in FMT. Table: a line per
 * library (tested or control; curves slower, faster, same, undecided;
 * median effect and minimum detectable effect, in per cent), then each
 * curve judged slower or faster with its effect and 95 % interval.
 * CSV: a row per curve (base, new, library, algorithm, operation, mode,
 * tested, verdict, effect, low, high, rounds, mde, sizes). JSON: an
 * object with base, new, threshold, rounds, max_rounds, seconds, mde_median (of the
 * tested curves) and curves, an array of objects with the curve's keys
 * and p (effects as fractions: -0.05 is 5 % slower). Returns 0, or -1 when F cannot be written. */
int duet_print(FILE *f, enum format fmt, const struct duet_heading *h,
	       const struct duet_curve *c, size_t n);

#endif /* BENCHORCH_DUET_PRINT_H */
