/* verdict-curve.h - the curves of a comparison, as verdict.c judges
 * them: per side a sizes x invocations matrix of log throughputs, and the
 * curve's history. Internal to verdict*.c. */
#ifndef BENCHORCH_VERDICT_CURVE_H
#define BENCHORCH_VERDICT_CURVE_H

#include <stddef.h>
#include <stdint.h>

#include "orchestrator/results/verdict-load.h"
#include "orchestrator/results/verdict.h"

/* The parts of a curve judged: every size, the smaller half, the larger
 * half (enum verdict_shape). */
#define NSHAPES 3

/* One side of one curve: a sizes x invocations matrix of log throughputs
 * (NAN where an invocation did not measure a size). */
struct cside {
	size_t ninv;
	int64_t *inv;		/* invocation ids, ascending */
	double *x;		/* x[size * ninv + k] */
	double clock_hz;	/* mean over invocations; 0 unknown */
	const char *package, *version;	/* borrowed from the rows */
};

struct ccurve {
	const struct vrow *name;	/* a row naming the curve (borrowed) */
	size_t ns;
	int64_t *bytes;		/* sizes on both sides, ascending */
	struct cside b, n;
	double ss[NSHAPES];	/* within-run sum of squared deviations */
	double df[NSHAPES];	/* and its degrees of freedom */
	double hist_sigma[NSHAPES], hist_max[NSHAPES];	/* -1: none */
	int hist_pairs[NSHAPES];	/* A/A pairs behind hist_sigma */
	int hist_runs;
	int moved;
	double regime_slope;	/* vregime_adjust's slope; 0: not adjusted */
	double regime_se;	/* and the standard error it adds, log */
};

/* Is size index SI (of NS, ascending) part of SHAPE? */
int vc_in_shape(size_t ns, int shape, size_t si);

/* Is SHAPE judged on a curve of NS sizes? Every size from three sizes;
 * each half from six (three sizes a half, so that no single size can
 * decide it). */
int vc_shape_usable(size_t ns, int shape);

/* Mean log throughput of side S at size index SI over its invocations
 * IDX[0..NIDX) (all when IDX is NULL); NAN when none measured it. */
double vc_side_mean(const struct cside *s, size_t si, const size_t *idx,
		    size_t nidx);

/* The log effect of C on SHAPE: the median over the shape's sizes of
 * (mean log throughput of new - of base), over the chosen invocations of
 * each side (NULL: all). NAN when no size is measured on both sides. */
double vc_effect(const struct ccurve *c, int shape, const size_t *bi,
		 size_t nbi, const size_t *ni, size_t nni);

/* Add side S's between-invocation deviations on SHAPE to *ss and *df
 * (see verdicts.md, "The noise model"). */
void vc_side_within(const struct cside *s, size_t ns, int shape, double *ss,
		    double *df);

/* Pair the curves of B and N (sorted as vload_side sorts) and their
 * history H (sorted as vload_history sorts) into *ret (free with
 * vc_free); MB[0..NMB) and MN[0..NMN) are the sorted names of the curves
 * whose canary moved on each side. Each curve's rows in B, N and H are
 * first adjusted for the host's speed (vregime_adjust: their logthr
 * changes). Returns the number of curves. */
size_t vc_build(struct vrows *b, struct vrows *n,
		struct vrows *h, char **mb, size_t nmb, char **mn,
		size_t nmn, struct ccurve **ret);

void vc_free(struct ccurve *cs, size_t n);

#endif
