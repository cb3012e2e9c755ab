/* guest/algo.h - the algorithms and operations of guest protocol 1.
 *
 * Names here are the protocol's names (guest/PROTOCOL.md). Sizes are in
 * bytes.
 */
#ifndef GUEST_ALGO_H
#define GUEST_ALGO_H

#include <stddef.h>
#include <stdint.h>

enum guest_algo {
	GUEST_AES_128_CBC,
	GUEST_AES_128_CTR,
	GUEST_AES_256_GCM,
	GUEST_CHACHA20_POLY1305,
	GUEST_SHA_256,
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
	size_t block_bytes;	/* buffer lengths must be a multiple (CBC: 16
				 * without padding); 1 for streams */
};

/* Description of ALGO (< GUEST_ALGO_COUNT). Static storage, never NULL. */
const struct guest_algo_info *algo_info(enum guest_algo algo);

/* Look NAME up. Returns 0 and sets *algo, or -1 if NAME is not a protocol
 * algorithm. */
int algo_by_name(const char *name, enum guest_algo *algo);

/* Protocol name of OP ("encrypt", "decrypt", "hash"). Static storage. */
const char *op_name(enum guest_op op);

#endif /* GUEST_ALGO_H */
