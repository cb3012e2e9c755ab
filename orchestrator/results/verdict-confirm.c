/* verdict-confirm.c - a verdict corrected by its confirmation run: the
 * changes that held, those that did not, and the flagged curves measured
 * again (see verdict-judge.h, verdicts.md). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/results/verdict-judge.h"
#include "orchestrator/results/verdict.h"

/* 1 when A and B name the same curve; a variant of '*' (sides matched
 * regardless of variant) matches any. */
static int same_curve(const struct verdict_curve *a,
		      const struct verdict_curve *b)
{
	return !strcmp(a->distro, b->distro) &&
	       !strcmp(a->library, b->library) &&
	       !strcmp(a->algorithm, b->algorithm) &&
	       !strcmp(a->operation, b->operation) &&
	       !strcmp(a->mode, b->mode) &&
	       (!strcmp(a->variant, b->variant) || !strcmp(a->variant, "*") ||
		!strcmp(b->variant, "*"));
}

/* The curve of C that names the same curve as V, or NULL. */
static const struct verdict_curve *find_same(const struct verdict_result *c,
					     const struct verdict_curve *v)
{
	size_t k;

	for (k = 0; k < c->ncurves; k++)
		if (same_curve(v, &c->curves[k]))
			return &c->curves[k];
	return NULL;
}

/* Set the state of R's changed curves of distro DISTRO ("debian:bookworm")
 * from C, the verdict of the confirmation run on that distro: a curve C
 * judged is confirmed when C found it changed (or confirmed) in the same
 * direction, else unchanged with confirmation 0 (measured again, the
 * change did not hold: it is not reported); one C flagged (its canary
 * moved again) keeps the rule without a confirmation (*again); the others
 * keep theirs. Adds to *held and *not_held, and the names of those not
 * held to *names. */
void verdict_apply_confirmation(struct verdict_result *r, const char *distro,
				const struct verdict_result *c, size_t *held,
				size_t *not_held, size_t *again,
				char **names)
{
	size_t i;

	for (i = 0; i < r->ncurves; i++) {
		struct verdict_curve *v = &r->curves[i];
		const struct verdict_curve *w;

		if (strcmp(v->distro, distro) ||
		    (v->state != VERDICT_CHANGED && v->state != VERDICT_CONFIRMED))
			continue;
		w = find_same(c, v);
		if (!w)
			continue;	/* not measured again: the rule without */
		if (w->state == VERDICT_FLAGGED) {
			/* measured again but disturbed again: no evidence
			 * either way, the rule without */
			(*again)++;
			continue;
		}
		v->confirmation = (w->state == VERDICT_CHANGED ||
				   w->state == VERDICT_CONFIRMED) &&
				  (w->effect < 0) == (v->effect < 0);
		if (v->state == VERDICT_CONFIRMED) {
			r->nconfirmed--;
			if (v->effect < 0)
				r->nconfirmed_regressions--;
		}
		v->state = v->confirmation ? VERDICT_CONFIRMED :
					     VERDICT_UNCHANGED;
		if (!v->confirmation) {
			r->nchanged--;
			if (v->effect < 0)
				r->nregressions--;
			else
				r->nimprovements--;
		}
		if (v->confirmation) {
			r->nconfirmed++;
			if (v->effect < 0)
				r->nconfirmed_regressions++;
			(*held)++;
		} else if (*not_held >= 8) {
			(*not_held)++;	/* the caveat counts the rest */
		} else {
			char *s = xasprintf("%s%s%s %s %s %s %s", *names,
					    **names ? ", " : "", v->distro,
					    v->library, v->algorithm,
					    v->operation, v->mode);

			free(*names);
			*names = s;
			(*not_held)++;
		}
	}
}

/* Judge R's flagged curves of distro DISTRO (their canary moved: no
 * verdict from that measurement) by C, the verdict of the confirmation
 * run that measured them again: a curve C flagged too stays flagged
 * (*again); otherwise it takes C's effect, interval, p, q and noise - the
 * undisturbed measurement - and C's state: changed, and confirmed when
 * the disturbed measurement had moved the same way (*changed; moved the
 * other way, the disturbed one is no evidence: changed, confirmation
 * unknown), or unchanged with confirmation 0 (*quiet). Curves C did not
 * measure stay flagged. */
void verdict_apply_flagged(struct verdict_result *r, const char *distro,
			   const struct verdict_result *c, size_t *changed,
			   size_t *quiet, size_t *again)
{
	size_t i;

	for (i = 0; i < r->ncurves; i++) {
		struct verdict_curve *v = &r->curves[i];
		const struct verdict_curve *w;
		int moved_same_way;

		if (strcmp(v->distro, distro) || v->state != VERDICT_FLAGGED)
			continue;
		w = find_same(c, v);
		if (!w)
			continue;
		if (w->state == VERDICT_FLAGGED) {
			(*again)++;
			continue;
		}
		moved_same_way = (w->effect < 0) == (v->effect < 0);
		v->effect = w->effect;
		v->ci_low = w->ci_low;
		v->ci_high = w->ci_high;
		v->p = w->p;
		v->q = w->q;
		v->shape = w->shape;
		v->noise = w->noise;
		v->noise_within = w->noise_within;
		v->noise_history = w->noise_history;
		v->source = w->source;
		v->halves = w->halves;
		r->nflagged--;
		if (w->state == VERDICT_UNCHANGED) {
			v->state = VERDICT_UNCHANGED;
			v->confirmation = 0;
			(*quiet)++;
			continue;
		}
		v->confirmation = moved_same_way ? 1 : -1;
		v->state = moved_same_way ? VERDICT_CONFIRMED : VERDICT_CHANGED;
		r->nchanged++;
		if (v->effect < 0)
			r->nregressions++;
		else
			r->nimprovements++;
		if (moved_same_way) {
			r->nconfirmed++;
			if (v->effect < 0)
				r->nconfirmed_regressions++;
		}
		(*changed)++;
	}
}
