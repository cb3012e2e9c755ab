/* judge.h - what the host concludes from one invocation's validated guest
 * output before it is stored: which results and key setups count as
 * verified, which libraries failed (the invocation is then partial), the
 * start-up/per-byte fit of every curve (lib/curves.h) and the memory peak
 * of every algorithm. The database stores these figures as it is handed
 * them (db/db.h); it decides none. */
#ifndef BENCHORCH_JUDGE_H
#define BENCHORCH_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/curves.h"
#include "lib/guest_output.h"

/* One algorithm's memory in one library's process, derived from the
 * high-water mark the guest reported after each point (maxrss_kib of its
 * results, in the order printed). */
struct guest_algo_peak {
	const char *library, *algorithm;	/* borrowed from the output */
	int64_t peak_kib;	/* the mark after the algorithm's last point,
				 * KiB */
	int64_t raise_kib;	/* how far the algorithm raised the mark above
				 * where it stood before its first point
				 * (the library's footprint, or the peak of
				 * the algorithms before it), KiB, >= 0;
				 * -1 when the library has no footprint */
};

/* A point is noisy when its relative interquartile range exceeds this
 * many times the invocation's median one: on a 2-core virtual machine,
 * two --quick --interleave runs had a median of 3.6 % and 2.8 % of their
 * points above three times it, where the guest's fixed 2 % coefficient
 * of variation marked 82 % (and 90 % of a full sequential run's). */
#define JUDGE_NOISE_FACTOR 3.0

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
	int *result_noisy;	/* one per out->results[]: 1 when the point
				 * is noisy: its relative interquartile
				 * range (p75 - p25) / median, over its
				 * samples (its rounds when measured
				 * interleaved) is above
				 * JUDGE_NOISE_FACTOR times the median of
				 * that range over the invocation's points,
				 * the typical spread of this host in this
				 * invocation. The guest's own flag (cv
				 * above its --max-cv) is not used. NULL
				 * when nresults is 0 */
	size_t nkeysetups;	/* = out->nkeysetups */
	int *keysetup_verified;	/* the same per out->keysetups[]; NULL
				 * when nkeysetups is 0 */
	int *keysetup_noisy;	/* the same per out->keysetups[]: 1 when
				 * noisy by the rule of result_noisy over
				 * the invocation's key setups. NULL when
				 * nkeysetups is 0 */
	size_t nfaults;
	struct guest_fault *faults;	/* guest_output_faults(): at most
				 * one per library; NULL when nfaults is 0 */
	int partial;		/* 1: the guest ran to its end but a library
				 * of it failed (nfaults > 0), else 0 */
	size_t ncurves;
	struct curve_fit *curves;	/* curves_fit(), sorted by library,
				 * algorithm, operation and mode; NULL when
				 * ncurves is 0 */
	size_t nalgo_peaks;
	struct guest_algo_peak *algo_peaks;	/* guest_output_algo_peaks();
				 * NULL when nalgo_peaks is 0 */
};

/* Judge OUT, a complete validated output (guest_output_finish and the
 * cross-library check done as its lines were added), into *RET, which is
 * overwritten. Never fails (out of memory aborts, xmalloc). */
void guest_output_judge(const struct guest_output *out,
			struct guest_judgement *ret);

/* Which results of OUT are noisy (guest_judgement.result_noisy says
 * how), one flag per out->results[] into NOISY (the caller's, nresults
 * entries). Returns how many are. */
size_t guest_output_noisy(const struct guest_output *out, int *noisy);

/* The same for the key setups of OUT: one flag per out->keysetups[] into
 * NOISY (the caller's, nkeysetups entries), each against the median
 * relative interquartile range of the invocation's key setups. Returns
 * how many are noisy. */
size_t guest_output_keysetups_noisy(const struct guest_output *out,
				    int *noisy);

/* Replace J's noisy flags (of OUT, the output J judges) with the guest's
 * own: its coefficient of variation above the --max-cv it was given, a
 * fixed limit the user asked for (run --max-cv). */
void guest_judgement_noisy_by_guest(struct guest_judgement *j,
				    const struct guest_output *out);

/* Free what J owns and zero it (J itself is not freed; the output it
 * borrows from is untouched). */
void guest_judgement_release(struct guest_judgement *j);

/* 1 when LIBRARY ran at least one known-answer test of ALGORITHM in OUT
 * and passed every one it ran, else 0. */
int guest_output_kat_passed(const struct guest_output *out,
			    const char *library, const char *algorithm);

/* The per-algorithm peaks of OUT, one per (library, algorithm) with at
 * least one result carrying maxrss_kib, in the order of OUT's results,
 * into *RET (caller frees the array, not the strings: they belong to
 * OUT). Returns the count; *RET is NULL when 0. */
size_t guest_output_algo_peaks(const struct guest_output *out,
			       struct guest_algo_peak **ret);

#endif
