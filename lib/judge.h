/* judge.h - what the host concludes from one invocation's validated guest
 * output before it is stored: which results and key setups count as
 * verified, which libraries failed (the invocation is then partial), and
 * the start-up/per-byte fit of every curve (lib/curves.h). The database
 * stores these figures as it is handed them (db/db.h); it decides none. */
#ifndef BENCHORCH_JUDGE_H
#define BENCHORCH_JUDGE_H

#include <stddef.h>

#include "lib/curves.h"
#include "lib/guest_output.h"

/* The judgement of one guest_output. Its arrays are owned (free with
 * guest_judgement_release); every string in faults and curves is
 * borrowed from the output judged, which must outlive the judgement. */
struct guest_judgement {
	size_t nresults;	/* = out->nresults */
	int *result_verified;	/* one per out->results[], same order: 1 when
				 * the guest said verified, the library ran
				 * at least one known-answer test of the
				 * algorithm and passed every one it ran,
				 * and it did not disagree with the others
				 * in the cross-library check
				 * (guest_output_crosscheck_ok); else 0.
				 * NULL when nresults is 0 */
	size_t nkeysetups;	/* = out->nkeysetups */
	int *keysetup_verified;	/* the same per out->keysetups[]; NULL
				 * when nkeysetups is 0 */
	size_t nfaults;
	struct guest_fault *faults;	/* guest_output_faults(): at most
				 * one per library; NULL when nfaults is 0 */
	int partial;		/* 1: the guest ran to its end but a library
				 * of it failed (nfaults > 0), else 0 */
	size_t ncurves;
	struct curve_fit *curves;	/* curves_fit(), sorted by library,
				 * algorithm, operation and mode; NULL when
				 * ncurves is 0 */
};

/* Judge OUT, a complete validated output (guest_output_finish and the
 * cross-library check done as its lines were added), into *RET, which is
 * overwritten. Never fails (out of memory aborts, xmalloc). */
void guest_output_judge(const struct guest_output *out,
			struct guest_judgement *ret);

/* Free what J owns and zero it (J itself is not freed; the output it
 * borrows from is untouched). */
void guest_judgement_release(struct guest_judgement *j);

/* 1 when LIBRARY ran at least one known-answer test of ALGORITHM in OUT
 * and passed every one it ran, else 0. */
int guest_output_kat_passed(const struct guest_output *out,
			    const char *library, const char *algorithm);

#endif
