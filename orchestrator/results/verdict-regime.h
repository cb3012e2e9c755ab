/* verdict-regime.h - a curve's log throughputs adjusted for the host's
 * speed at the time, as the contention canary measured it around the
 * curve. Internal to verdict*.c (see verdicts.md, "The host's speed").
 *
 * A virtual machine's core can run slower for seconds to minutes (another
 * tenant on the host core or its hyperthread sibling): every curve of a
 * run measured then is slower, each by its own amount (throughput-bound
 * AES-NI code by more than the canary, latency-bound code by less). The
 * canary, the same libc-only kernel everywhere, is timed right before and
 * after each curve. Across invocations whose library did not change, a
 * curve's log throughput falls with the canary's log time along a slope
 * of its own; that slope, fitted where no change is possible, removes the
 * host's share from every invocation before the sides are compared. The
 * regression adjustment is the covariate adjustment of controlled
 * experiments (e.g. CUPED: Deng, Xu, Kohavi and Walker, "Improving the
 * Sensitivity of Online Controlled Experiments by Utilizing
 * Pre-Experiment Data", WSDM 2013), with the canary as the covariate. */
#ifndef BENCHORCH_VERDICT_REGIME_H
#define BENCHORCH_VERDICT_REGIME_H

#include <stddef.h>

#include "orchestrator/results/verdict-load.h"

/* Steepest slope used (log throughput per log canary time): a curve
 * cannot slow more than this many times the canary's own slowdown; a
 * steeper fit is noise. */
#define VREGIME_SLOPE_MIN (-3.0)
/* The canary must vary by at least this much (root mean square of its
 * log time about each group's mean, over the invocations) for a slope to
 * be fitted. */
#define VREGIME_MIN_SPREAD 0.02
/* The fit needs this many invocations in all, at least, and the base
 * group this many runs: the slope is learnt from the history, where the
 * library did not change; a run's two invocations alone would fit any
 * difference between them, a library's own bimodality included. */
#define VREGIME_MIN_POINTS 6
#define VREGIME_MIN_RUNS 3

/* Adjust one curve's rows: B[0..NB) the base side, N[0..NN) the new side,
 * H[0..NH) its history (any runs; those of another package version than
 * BASE_VERSION take no part in the fit). The slope is fitted by least
 * squares of log throughput on log canary time, one point per invocation
 * (its mean over the sizes, each size about its group's mean), within
 * groups where the library did not change: the base side with its
 * history of the same package version (other than the base run, which is
 * the base side), and the new side on its own; each group is centred on
 * its own means, so a change between the sides never enters the fit. It
 * is clamped to [VREGIME_SLOPE_MIN, 0] (a slower host never makes code
 * faster). Then every row's logthr of the three sets loses slope x (its
 * logcan - the base group's mean logcan). Rows are left as they are, and
 * 0 returned, when a row of B or N has no canary (NAN), when the base
 * group spans fewer than VREGIME_MIN_RUNS runs, the fit has fewer than
 * VREGIME_MIN_POINTS invocations, or the canary varied less than
 * VREGIME_MIN_SPREAD. Returns the slope used (<= 0); *SE_SHIFT gets the
 * standard error the adjustment adds to the effect between the sides, in
 * log units (the slope's standard error from the fit's residuals, times
 * the difference of the sides' mean log canary time; 0 when not
 * adjusted), for the verdict to add to its noise. */
double vregime_adjust(struct vrow *b, size_t nb, struct vrow *n, size_t nn,
		      struct vrow *h, size_t nh, const char *base_version,
		      double *se_shift);

#endif /* BENCHORCH_VERDICT_REGIME_H */
