/* guest/kdf.h - the key derivation functions of a run (--kdf;
 * guest/PROTOCOL.md, "Key derivation"): PBKDF2-HMAC-SHA256, HKDF-SHA256,
 * scrypt and Argon2id in every library whose backend has them (struct
 * guest_kdf_ops), at the fixed cost of lib/kdf-table.c, in two steps:
 *
 *  1. in each library's process, after its ciphers, hashes and public-key
 *     algorithms (kdf_measure_library): `unsupported`, or the known-answer
 *     tests (`kat` lines, guest/kdf-kat.c) the library's API can take,
 *     then one derivation timed with the guest's timing (bench_measure),
 *     the result and the derived key kept in memory shared with the
 *     parent (struct kdf_shared);
 *  2. after every library (kdf_finish, in the parent): every library's
 *     derived key is compared with every other's - the same inputs and
 *     cost must give the same key - and the parent prints, per library
 *     and KDF, one `kdfcheck` line (who agreed, who disagreed) and one
 *     `kdfresult` line, verified when its known-answer tests passed, at
 *     least one library whose own tests passed derived the same key, and
 *     more such libraries (with itself) derived it than derived any
 *     other key (when there was one to compare with, or when the
 *     library ran no known-answer test of its own).
 */
#ifndef GUEST_KDF_H
#define GUEST_KDF_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "bench.h"
#include "measure.h"
#include "options.h"
#include "lib/kdf-table.h"

/* Longest derived key of the timed path, bytes. */
#define KDF_MAX_OUT 32

/* One library's outcome for one KDF, written by its process in step 1. */
struct kdf_outcome {
	bool measured;		/* supported: tests run, timing tried */
	bool kat_ok;		/* every known-answer test run passed */
	unsigned nkat;		/* known-answer tests run (the API could
				 * take their inputs) */
	bool have;		/* the timed derivation gave r and out */
	uint8_t out[KDF_MAX_OUT];	/* the key the timed path derived */
	struct bench_result r;
};

/* Every library's outcomes (o->libs order), in memory shared by the
 * parent and the libraries' processes (kdf_shared_new). */
struct kdf_shared {
	struct kdf_outcome o[MAX_LIBS][GUEST_KDF_COUNT];
};

/* Interleaved (--interleave, a duet too; guest/PROTOCOL.md,
 * "Interleaved measurement"): step 1 as points whose
 * blocks take turns, in the library's worker (guest/interleave.c); the
 * parent keeps the blocks' timing in run->kdf, the worker the known
 * answers and the derived key. */

/* In B's worker: ALGO's `unsupported` or `kat` lines and its inputs set
 * up. Returns whether B has ALGO. */
bool kdf_duet_algo(struct run *run, const struct guest_backend *b, int algo);

/* Calibrate the derivations per batch of the KDF open into *CALLS (to
 * --min-batch-ns: one for the slow ones), adding the ns spent to
 * *SPENT_NS. Returns 0, or -1 (none open, or failed: an `error`
 * line). */
int kdf_duet_op(struct run *run, uint64_t *calls, uint64_t *spent_ns);

/* One timed batch of the KDF open at stack offset PLACE into *NS and
 * *TICKS (and *SPENT_NS). Returns 0, or -1 (an `error` line). */
int kdf_duet_block(uint32_t place, uint64_t *ns, uint64_t *ticks,
		   uint64_t *spent_ns);

/* Map a zeroed struct kdf_shared, shared with child processes forked
 * later. Returns it, or NULL when out of memory. Freed by
 * kdf_shared_free. */
struct kdf_shared *kdf_shared_new(void);

/* Unmap P (from kdf_shared_new; NULL is ignored). */
void kdf_shared_free(struct kdf_shared *p);

/* Step 1 for the loaded library B in the calling process: prints its
 * `unsupported` or `kat` lines (and an `error` line when the timed
 * derivation fails) for every KDF of run->o->kdf, and keeps timing and
 * derived keys in run->kdf. Does nothing when run->kdf is NULL. */
void kdf_measure_library(struct run *run, const struct guest_backend *b);

/* Step 2, after every library's step 1: the comparison, then the
 * `kdfcheck` and `kdfresult` lines. Does nothing when run->kdf is
 * NULL. */
void kdf_finish(struct run *run);

#endif /* GUEST_KDF_H */
