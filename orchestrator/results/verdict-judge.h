/* verdict-judge.h - the parts of a verdict (verdict.c) that judge: the
 * statistics of each curve (verdict-judge.c) and the correction by a
 * confirmation run (verdict-confirm.c). Private to results/verdict*.c;
 * the method is in orchestrator/results/verdicts.md. */
#ifndef BENCHORCH_VERDICT_JUDGE_H
#define BENCHORCH_VERDICT_JUDGE_H

#include <stddef.h>

#include "orchestrator/results/verdict-curve.h"
#include "orchestrator/results/verdict.h"

/* Fill R's curves from the NC compared curves CS: effect (a ratio),
 * bootstrap interval, p and q (Benjamini-Hochberg), the noise each was
 * judged against, and its state. The spread across the curves serves as
 * noise only when USE_ACROSS (not for a confirmation's own verdict,
 * which measured only curves that looked changed). R owns what it gets;
 * CS is adjusted (pooled noise) but stays the caller's. */
void verdict_decide(struct verdict_result *r, struct ccurve *cs, size_t nc,
		    int use_across);

/* Per library of R, the minimum detectable effect (a fraction) at 80 %
 * power and a two-sided alpha of 5 %, from the noise its curves were
 * judged against. */
void verdict_mdes(struct verdict_result *r);

/* Set the state of R's changed curves of DISTRO ("debian:bookworm") from
 * C, the confirmation run's verdict on it: confirmed when C found the same
 * direction, else unchanged with confirmation 0; a curve C flagged keeps
 * the rule without a confirmation. Adds to *HELD, *NOT_HELD and *AGAIN
 * (counts of curves) and appends the names of those not held to *NAMES
 * (reallocated; the caller frees). */
void verdict_apply_confirmation(struct verdict_result *r, const char *distro,
				const struct verdict_result *c, size_t *held,
				size_t *not_held, size_t *again,
				char **names);

/* Judge R's flagged curves of DISTRO (their canary moved) by C, the
 * verdict of the confirmation run that measured them again: C's effect,
 * interval, p, q and state replace theirs unless C flagged them too
 * (*AGAIN). Adds to *CHANGED, *QUIET and *AGAIN (counts of curves). */
void verdict_apply_flagged(struct verdict_result *r, const char *distro,
			   const struct verdict_result *c, size_t *changed,
			   size_t *quiet, size_t *again);

#endif
