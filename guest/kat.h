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

/* Citation printed with the kat_cbc_chain() line. */
#define KAT_CBC_CHAIN_SOURCE \
	"NIST SP 800-38A 6.2 CBC chaining, two blocks, against the cited one-block vector"

/* Chained CBC check of ALGO (a CBC algorithm) in B, with KEY and IV
 * (key_bytes, iv_bytes): the one-block vectors of Serpent, Twofish,
 * Blowfish, CAST5, 3DES and Camellia use a zero IV, where CBC is ECB, so
 * they do not show that the library chains. Two blocks P1 P2 are
 * encrypted in CBC with IV; then, with the library's own one-block
 * zero-IV CBC (the block cipher E the cited vector pins), C1 must be
 * E(P1 xor IV) and C2 E(P2 xor C1) (SP 800-38A 6.2), and decrypting C2
 * with a zero IV and xoring C1 must give P2. No new vector is invented:
 * the expected values come from the cited one. Returns true when all of
 * that held. */
bool kat_cbc_chain(const struct guest_backend *b, enum guest_algo algo,
		   const uint8_t *key, const uint8_t *iv);

/* Largest buffer whose one-shot decryption kat_roundtrip() checks; above
 * it the one-shot only encrypts (to give the decryption timing a valid
 * message), while the timed path is checked at every size: the KATs, the
 * smaller sizes and the 128 KiB cross-check already cover the one-shot
 * code, and a further pass over a 1 MiB buffer of a slow cipher would cost
 * more than its timing. */
#define KAT_ROUNDTRIP_MAX 65536

/* Round trip on a benchmark buffer PT of LEN bytes with KEY and IV (sizes of
 * algo_info(ALGO)):
 *  - ciphers: one-shot encrypt PT into CT (and TAG, tag_bytes, for AEAD;
 *    the AAD is guest_aead_aad as on the timed path); one-shot decrypt of
 *    CT must restore PT (up to KAT_ROUNDTRIP_MAX bytes); the timed path
 *    (bulk_new and bulk_run on fresh contexts, out of place as timed,
 *    guest/PROTOCOL.md "Buffers") must encrypt PT to the same CT (and
 *    TAG) and decrypt CT back to PT, at every size it times (whole
 *    keystream blocks, algo_stream_block): ciphers streamed as
 *    two calls of LEN / 2 where that splits into whole keystream blocks
 *    (algo_stream_block), AEADs two complete messages with the tag right
 *    after the text, and a timed AEAD decryption with a flipped tag bit
 *    must be rejected.
 *  - hashes: the timed path's digest of PT (two calls on one context) must
 *    equal the one-shot digest, written to TAG (digest_bytes); CT is
 *    unused.
 * CT and SCRATCH are caller buffers of at least LEN + GUEST_MAX_TAG bytes;
 * CT and TAG hold a valid message afterwards (used to time AEAD
 * decryption; CT + LEN holds a copy of TAG for AEADs). Returns true if
 * every check passed. */
bool kat_roundtrip(const struct guest_backend *b, enum guest_algo algo,
		   const uint8_t *key, const uint8_t *iv, const uint8_t *pt,
		   size_t len, uint8_t *ct, uint8_t *tag, uint8_t *scratch);

#endif /* GUEST_KAT_H */
