/* guest/kat.h - known-answer tests and round-trip checks.
 *
 * A library's result for an algorithm is `verified` only if the library
 * passed every known-answer vector of that algorithm (kat_check) and the
 * round-trip check on the benchmark buffer (kat_roundtrip).
 */
#ifndef GUEST_KAT_H
#define GUEST_KAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "backend.h"

/* One published test vector, checked in one direction. Byte strings are
 * lowercase hex; in_ascii / out_ascii, when set, replace in / out (text the
 * source prints as text). */
struct kat_vector {
	enum guest_algo algo;
	enum guest_op op;	/* direction checked */
	const char *source;	/* citation, printed as the kat `source` */
	const char *key;	/* ciphers */
	const char *iv;		/* IV / initial counter block / nonce */
	const char *aad;	/* AEAD; "" for none */
	const char *in;		/* input (plaintext, ciphertext, message) */
	const char *in_ascii;
	const char *out;	/* expected output (or digest) */
	const char *out_ascii;	/* replaces out, like in_ascii */
	const char *tag;	/* AEAD tag: expected (encrypt) / given
				 * (decrypt) */
};

/* The table of all vectors. Sets *count; static storage. */
const struct kat_vector *kat_table(size_t *count);

/* Run vector V against backend B (loaded, supporting V->algo). Encrypt and
 * hash vectors must produce out (and tag); decrypt vectors must restore out,
 * and for AEAD must also reject the same message with one tag bit flipped.
 * Returns true if the library gave the published answer. */
bool kat_check(const struct guest_backend *b, const struct kat_vector *v);

/* Largest buffer kat_roundtrip() checks in full; above it only the one-shot
 * encryption is done (to give the decryption timing a valid message): the
 * KATs, the full checks at smaller sizes and the 128 KiB cross-check already
 * cover the code, and three more passes over a 1 MiB buffer of a slow
 * cipher would cost more than its timing. */
#define KAT_ROUNDTRIP_MAX 65536

/* Round trip on a benchmark buffer PT of LEN bytes with KEY and IV (sizes of
 * algo_info(ALGO)):
 *  - ciphers: one-shot encrypt PT into CT (and TAG, tag_bytes, for AEAD;
 *    the AAD is guest_aead_aad as on the timed path); one-shot decrypt of CT
 *    must restore PT; the timed path (bulk_new and one bulk_run on fresh
 *    contexts: one call for ciphers, in place; two complete messages for
 *    AEADs, from PT or CT to a separate buffer) must encrypt PT to the same
 *    CT (and TAG) and decrypt CT back to PT.
 *  - hashes: the timed path's digest of PT (two calls on one context) must
 *    equal the one-shot digest, written to TAG (digest_bytes); CT is
 *    unused.
 * Above KAT_ROUNDTRIP_MAX bytes only the one-shot encryption (or digest) is
 * done and checked to succeed.
 * CT and SCRATCH are caller buffers of at least LEN bytes; CT and TAG hold a
 * valid message afterwards (used to time AEAD decryption). Returns true if
 * every check passed. */
bool kat_roundtrip(const struct guest_backend *b, enum guest_algo algo,
		   const uint8_t *key, const uint8_t *iv, const uint8_t *pt,
		   size_t len, uint8_t *ct, uint8_t *tag, uint8_t *scratch);

#endif /* GUEST_KAT_H */
