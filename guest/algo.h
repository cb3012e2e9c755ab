/* guest/algo.h - the algorithms and operations of guest protocol 2.
 *
 * Names here are the protocol's names (guest/PROTOCOL.md). Sizes are in
 * bytes.
 */
#ifndef GUEST_ALGO_H
#define GUEST_ALGO_H

#include <stddef.h>
#include <stdint.h>

enum guest_algo {
	/* block ciphers, ECB and CBC (no padding) */
	GUEST_AES_128_ECB,
	GUEST_AES_128_CBC,
	GUEST_AES_192_ECB,
	GUEST_AES_192_CBC,
	GUEST_AES_256_ECB,
	GUEST_AES_256_CBC,
	GUEST_SERPENT_256_ECB,
	GUEST_SERPENT_256_CBC,
	GUEST_TWOFISH_256_ECB,
	GUEST_TWOFISH_256_CBC,
	GUEST_BLOWFISH_128_ECB,
	GUEST_BLOWFISH_128_CBC,
	GUEST_CAST5_128_ECB,
	GUEST_CAST5_128_CBC,
	GUEST_3DES_ECB,
	GUEST_3DES_CBC,
	/* modern modes and stream ciphers */
	GUEST_AES_128_CTR,
	GUEST_AES_256_CTR,
	GUEST_AES_128_GCM,
	GUEST_AES_256_GCM,
	GUEST_CAMELLIA_128_CBC,
	GUEST_CAMELLIA_256_CBC,
	GUEST_CHACHA20,
	GUEST_CHACHA20_POLY1305,
	GUEST_SALSA20,
	GUEST_RC4,
	/* hashes */
	GUEST_MD5,
	GUEST_SHA_1,
	GUEST_SHA_256,
	GUEST_SHA_512,
	GUEST_SHA3_256,
	GUEST_BLAKE2B_512,
	GUEST_ALGO_COUNT
};

enum guest_op {
	GUEST_OP_ENCRYPT,
	GUEST_OP_DECRYPT,
	GUEST_OP_HASH
};

enum guest_kind {
	GUEST_KIND_CIPHER,	/* unauthenticated cipher: encrypt, decrypt */
	GUEST_KIND_AEAD,	/* nonce + AAD + tag: encrypt, decrypt */
	GUEST_KIND_HASH		/* hash */
};

/* Cipher modes. CTR: the IV is the initial 128-bit counter block,
 * incremented as a big-endian integer (NIST SP 800-38A, 6.5). STREAM: a
 * stream cipher, counter 0 at the start (ChaCha20: RFC 8439 2.4, 96-bit
 * nonce and 32-bit block counter; Salsa20: 64-bit nonce and counter). */
enum guest_mode {
	GUEST_MODE_NONE,
	GUEST_MODE_ECB,
	GUEST_MODE_CBC,
	GUEST_MODE_CTR,
	GUEST_MODE_GCM,
	GUEST_MODE_STREAM,
	GUEST_MODE_AEAD		/* ChaCha20-Poly1305 (RFC 8439 2.8) */
};

/* The primitive behind an algorithm. */
enum guest_family {
	GUEST_FAM_AES, GUEST_FAM_SERPENT, GUEST_FAM_TWOFISH,
	GUEST_FAM_BLOWFISH, GUEST_FAM_CAST5, GUEST_FAM_3DES,
	GUEST_FAM_CAMELLIA, GUEST_FAM_CHACHA20, GUEST_FAM_SALSA20,
	GUEST_FAM_RC4, GUEST_FAM_MD5, GUEST_FAM_SHA1, GUEST_FAM_SHA256,
	GUEST_FAM_SHA512, GUEST_FAM_SHA3_256, GUEST_FAM_BLAKE2B
};

/* Largest key, IV/nonce, tag and digest any protocol algorithm uses. */
#define GUEST_MAX_KEY 32
#define GUEST_MAX_IV 16
#define GUEST_MAX_TAG 16
#define GUEST_MAX_DIGEST 64

/* Additional authenticated data of every timed AEAD call, as
 * `openssl speed -aead` uses (a TLS-record-sized 13 bytes). */
#define GUEST_AEAD_AAD_BYTES 13
extern const uint8_t guest_aead_aad[GUEST_AEAD_AAD_BYTES];

struct guest_algo_info {
	const char *name;	/* protocol name, e.g. "aes-128-cbc" */
	enum guest_kind kind;
	size_t key_bytes;	/* 0 for hashes */
	size_t iv_bytes;	/* IV (CBC), initial counter block (CTR) or
				 * nonce (AEAD); 0 for hashes */
	size_t tag_bytes;	/* AEAD tag; 0 otherwise */
	size_t digest_bytes;	/* hash output; 0 otherwise */
	size_t block_bytes;	/* buffer lengths must be a multiple (ECB,
				 * CBC: the block, no padding); 1 for streams */
	enum guest_mode mode;	/* how the cipher is used; GUEST_MODE_NONE
				 * for hashes */
	enum guest_family family;	/* the primitive */
};

/* Description of ALGO (< GUEST_ALGO_COUNT). Static storage, never NULL. */
const struct guest_algo_info *algo_info(enum guest_algo algo);

/* The keystream block of ALGO in bytes: 64 for ChaCha20 and Salsa20
 * (RFC 8439 2.3; Bernstein's Salsa20 specification: one block function
 * call gives 64 bytes), 16 for CTR (the AES block), and block_bytes for
 * everything else (1 for RC4, AEADs and hashes). The timed bulk path of a
 * cipher streams only whole multiples of it per call, so that no library
 * keeps, discards or recomputes a part of a block between calls (see
 * guest/PROTOCOL.md, "Timing modes"). */
size_t algo_stream_block(enum guest_algo algo);

/* Look NAME up. Returns 0 and sets *algo, or -1 if NAME is not a protocol
 * algorithm. */
int algo_by_name(const char *name, enum guest_algo *algo);

/* Protocol name of OP ("encrypt", "decrypt", "hash"). Static storage. */
const char *op_name(enum guest_op op);

#endif /* GUEST_ALGO_H */
