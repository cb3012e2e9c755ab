/* guest/pubkey.h - the public-key algorithms of a run (--pubkey;
 * guest/PROTOCOL.md, "Public key"): X25519, X448, Ed25519, ECDH P-256,
 * ECDSA P-256, the RSA signatures (PKCS#1 v1.5 2048 and 3072 bits,
 * PSS 2048 bits), ML-KEM-768 and ML-DSA-65 in every library whose
 * backend has them (struct guest_pk_ops), in three steps:
 *
 *  1. in each library's process, after its ciphers and hashes
 *     (pubkey_measure_library): `unsupported`, or the known-answer tests
 *     (`kat` lines, guest/pubkey-kat.c, then guest/pubkey-kat-pq.c's
 *     ML-KEM-768 decapsulation and ML-DSA-65 verification), then every
 *     operation timed with the guest's timing (bench_measure: calibrated
 *     batches, sets, median), the results and the last output of the
 *     timed path kept in memory shared with the parent (struct
 *     pk_shared);
 *  2. after every library (pubkey_finish, in the parent): each library,
 *     in a process of its own, checks every other library's timed
 *     output - verifies its signature (Ed25519, ECDSA, RSA, ML-DSA),
 *     derives the shared secret (X25519, X448, ECDH) from the peer's
 *     side or decapsulates its ciphertext (ML-KEM) and compares;
 *  3. then the parent prints, per library and algorithm, one `pkcheck`
 *     line (who confirmed, who rejected) and its `pkresult` lines,
 *     verified when its known-answer tests passed and more of the
 *     other libraries whose own tests passed confirmed its output than
 *     rejected it (when there was one to ask).
 */
#ifndef GUEST_PUBKEY_H
#define GUEST_PUBKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "bench.h"
#include "measure.h"
#include "lib/pubkey-table.h"

/* One library's outcome for one algorithm, written by its process in
 * step 1 (and the verdicts of the others in step 2). */
struct pk_outcome {
	bool measured;		/* supported: tests run, timing tried */
	bool kat_ok;		/* every known-answer test passed */
	bool out_ok;		/* out holds the timed path's output */
	uint8_t out[GUEST_PK_OUT_MAX];	/* the last shared secret (32
				 * bytes, X448 56), signature (guest_pk_sig_bytes: 64,
				 * RSA 256 or 384, ML-DSA 3309) or, for a KEM,
				 * ciphertext (1088 bytes) and its shared
				 * secret (32) the timed path made */
	bool have[PUBKEY_MAX_OPS];	/* operation i (pubkey_table's order)
				 * was timed into r[i] */
	struct bench_result r[PUBKEY_MAX_OPS];
	int8_t check[MAX_LIBS];	/* verdict of o->libs[j] on out: 1
				 * confirmed, 0 rejected, -1 not given */
};

/* Every library's outcomes (o->libs order), in memory shared by the
 * parent and the libraries' processes (pubkey_shared_new): about 3.6 kB
 * per library and algorithm (out[] holds an ML-DSA-65 signature), some
 * 700 kB for MAX_LIBS libraries, mapped once per run. */
struct pk_shared {
	struct pk_outcome o[MAX_LIBS][GUEST_PK_COUNT];
};

/* Map a zeroed struct pk_shared, shared with child processes forked
 * later, every verdict -1. Returns it, or NULL when out of memory. Freed
 * by pubkey_shared_free. */
struct pk_shared *pubkey_shared_new(void);

/* Unmap P (from pubkey_shared_new; NULL is ignored). */
void pubkey_shared_free(struct pk_shared *p);

/* Step 1 for the loaded library B in the calling process: prints its
 * `unsupported` or `kat` lines (and `error` lines for an operation that
 * failed) for every algorithm of run->o->pk, and keeps timing and
 * outputs in run->pk. Does nothing when run->pk is NULL. */
void pubkey_measure_library(struct run *run, const struct guest_backend *b);

/* Interleaved (--interleave, a duet too; guest/PROTOCOL.md,
 * "Interleaved measurement"): step 1 as points whose blocks take turns,
 * the interleaved scheduler's (guest/interleave.c) in the library's
 * worker process, one algorithm and one operation open at a time. The
 * parent keeps the blocks' timing in run->pk (the `pkresult` lines of
 * step 3 then hold the rounds' blocks, one set); known answers and
 * outputs are the worker's, as in step 1. The pubkey_duet_* names are
 * from when only a duet had them. */

/* Whether operation I (pubkey_table's order) of ALGO is an interleaved
 * point: every one but RSA key generation, whose time varies by nature
 * (measured in pubkey_duet_algo under --interleave, left out of a
 * duet). */
bool pubkey_duet_has_op(int algo, int i);

/* In B's worker: ALGO's `unsupported` or `kat` lines and its timed
 * path's keys set up (an `error` line when they cannot be); except in a
 * duet, the operations that are no point (RSA key generation) timed
 * into run->pk with the guest's timing, as in step 1. Returns true when
 * the operations can be opened. */
bool pubkey_duet_algo(struct run *run, const struct guest_backend *b,
		      int algo);

/* Open operation I of the algorithm open: one untimed call, then the
 * calls per batch calibrated to --min-batch-ns into *CALLS. Adds the ns
 * spent to *SPENT_NS. Returns 0, or -1 (not here, or failed: an `error`
 * line). */
int pubkey_duet_op(struct run *run, int i, uint64_t *calls,
		   uint64_t *spent_ns);

/* One timed batch of the open operation at stack offset PLACE
 * (guest/place.h) into *NS and *TICKS (and *SPENT_NS). Returns 0, or -1
 * when it failed (an `error` line; the operation is closed). */
int pubkey_duet_block(uint32_t place, uint64_t *ns, uint64_t *ticks,
		      uint64_t *spent_ns);

/* Close what pubkey_duet_algo opened (nothing when nothing is). */
void pubkey_duet_close(void);

/* Steps 2 and 3, after every library's step 1: the cross-checks (each
 * library in a child process, killed after --lib-timeout; in this
 * process with --no-fork), then the `pkcheck` and `pkresult` lines.
 * Does nothing when run->pk is NULL. */
void pubkey_finish(struct run *run);

#endif /* GUEST_PUBKEY_H */
