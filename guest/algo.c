/* guest/algo.c - the algorithms and operations of guest protocol 2. */
#include "compat.h"

#include <string.h>

#include "algo.h"

const uint8_t guest_aead_aad[GUEST_AEAD_AAD_BYTES] = { 0xcc };

#define C GUEST_KIND_CIPHER
#define A GUEST_KIND_AEAD
#define H GUEST_KIND_HASH

/* name, kind, key, iv, tag, digest, block, mode, family. Key and block
 * sizes from the ciphers' specifications: AES FIPS 197, Serpent and
 * Twofish their AES submissions (256-bit keys used here), Blowfish with a
 * 128-bit key, CAST5 RFC 2144 (128-bit key), 3DES SP 800-67 (three keys),
 * Camellia RFC 3713, ChaCha20 RFC 8439, Salsa20 Bernstein's specification
 * (256-bit key), RC4 with a 128-bit key (RFC 6229). */
static const struct guest_algo_info algos[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = { "aes-128-ecb", C, 16, 0, 0, 0, 16,
		GUEST_MODE_ECB, GUEST_FAM_AES },
	[GUEST_AES_128_CBC] = { "aes-128-cbc", C, 16, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_AES },
	[GUEST_AES_192_ECB] = { "aes-192-ecb", C, 24, 0, 0, 0, 16,
		GUEST_MODE_ECB, GUEST_FAM_AES },
	[GUEST_AES_192_CBC] = { "aes-192-cbc", C, 24, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_AES },
	[GUEST_AES_256_ECB] = { "aes-256-ecb", C, 32, 0, 0, 0, 16,
		GUEST_MODE_ECB, GUEST_FAM_AES },
	[GUEST_AES_256_CBC] = { "aes-256-cbc", C, 32, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_AES },
	[GUEST_SERPENT_256_ECB] = { "serpent-256-ecb", C, 32, 0, 0, 0, 16,
		GUEST_MODE_ECB, GUEST_FAM_SERPENT },
	[GUEST_SERPENT_256_CBC] = { "serpent-256-cbc", C, 32, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_SERPENT },
	[GUEST_TWOFISH_256_ECB] = { "twofish-256-ecb", C, 32, 0, 0, 0, 16,
		GUEST_MODE_ECB, GUEST_FAM_TWOFISH },
	[GUEST_TWOFISH_256_CBC] = { "twofish-256-cbc", C, 32, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_TWOFISH },
	[GUEST_BLOWFISH_128_ECB] = { "blowfish-128-ecb", C, 16, 0, 0, 0, 8,
		GUEST_MODE_ECB, GUEST_FAM_BLOWFISH },
	[GUEST_BLOWFISH_128_CBC] = { "blowfish-128-cbc", C, 16, 8, 0, 0, 8,
		GUEST_MODE_CBC, GUEST_FAM_BLOWFISH },
	[GUEST_CAST5_128_ECB] = { "cast5-128-ecb", C, 16, 0, 0, 0, 8,
		GUEST_MODE_ECB, GUEST_FAM_CAST5 },
	[GUEST_CAST5_128_CBC] = { "cast5-128-cbc", C, 16, 8, 0, 0, 8,
		GUEST_MODE_CBC, GUEST_FAM_CAST5 },
	[GUEST_3DES_ECB] = { "3des-ecb", C, 24, 0, 0, 0, 8,
		GUEST_MODE_ECB, GUEST_FAM_3DES },
	[GUEST_3DES_CBC] = { "3des-cbc", C, 24, 8, 0, 0, 8,
		GUEST_MODE_CBC, GUEST_FAM_3DES },
	[GUEST_AES_128_CTR] = { "aes-128-ctr", C, 16, 16, 0, 0, 1,
		GUEST_MODE_CTR, GUEST_FAM_AES },
	[GUEST_AES_256_CTR] = { "aes-256-ctr", C, 32, 16, 0, 0, 1,
		GUEST_MODE_CTR, GUEST_FAM_AES },
	[GUEST_AES_128_GCM] = { "aes-128-gcm", A, 16, 12, 16, 0, 1,
		GUEST_MODE_GCM, GUEST_FAM_AES },
	[GUEST_AES_256_GCM] = { "aes-256-gcm", A, 32, 12, 16, 0, 1,
		GUEST_MODE_GCM, GUEST_FAM_AES },
	[GUEST_CAMELLIA_128_CBC] = { "camellia-128-cbc", C, 16, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_CAMELLIA },
	[GUEST_CAMELLIA_256_CBC] = { "camellia-256-cbc", C, 32, 16, 0, 0, 16,
		GUEST_MODE_CBC, GUEST_FAM_CAMELLIA },
	[GUEST_CHACHA20] = { "chacha20", C, 32, 12, 0, 0, 1,
		GUEST_MODE_STREAM, GUEST_FAM_CHACHA20 },
	[GUEST_CHACHA20_POLY1305] = { "chacha20-poly1305", A, 32, 12, 16, 0, 1,
		GUEST_MODE_AEAD, GUEST_FAM_CHACHA20 },
	[GUEST_SALSA20] = { "salsa20", C, 32, 8, 0, 0, 1,
		GUEST_MODE_STREAM, GUEST_FAM_SALSA20 },
	[GUEST_RC4] = { "rc4", C, 16, 0, 0, 0, 1,
		GUEST_MODE_STREAM, GUEST_FAM_RC4 },
	[GUEST_MD5] = { "md5", H, 0, 0, 0, 16, 1,
		GUEST_MODE_NONE, GUEST_FAM_MD5 },
	[GUEST_SHA_1] = { "sha-1", H, 0, 0, 0, 20, 1,
		GUEST_MODE_NONE, GUEST_FAM_SHA1 },
	[GUEST_SHA_256] = { "sha-256", H, 0, 0, 0, 32, 1,
		GUEST_MODE_NONE, GUEST_FAM_SHA256 },
	[GUEST_SHA_512] = { "sha-512", H, 0, 0, 0, 64, 1,
		GUEST_MODE_NONE, GUEST_FAM_SHA512 },
	[GUEST_SHA3_256] = { "sha3-256", H, 0, 0, 0, 32, 1,
		GUEST_MODE_NONE, GUEST_FAM_SHA3_256 },
	[GUEST_BLAKE2B_512] = { "blake2b-512", H, 0, 0, 0, 64, 1,
		GUEST_MODE_NONE, GUEST_FAM_BLAKE2B },
};

#undef C
#undef A
#undef H

const struct guest_algo_info *algo_info(enum guest_algo algo)
{
	return &algos[algo];
}

size_t algo_stream_block(enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);

	if (ai->kind == GUEST_KIND_CIPHER &&
	    (ai->family == GUEST_FAM_CHACHA20 ||
	     ai->family == GUEST_FAM_SALSA20))
		return 64;
	if (ai->mode == GUEST_MODE_CTR)
		return 16;
	return ai->block_bytes;
}

int algo_by_name(const char *name, enum guest_algo *algo)
{
	for (int i = 0; i < GUEST_ALGO_COUNT; i++) {
		if (strcmp(algos[i].name, name) == 0) {
			*algo = (enum guest_algo)i;
			return 0;
		}
	}
	return -1;
}

const char *op_name(enum guest_op op)
{
	switch (op) {
	case GUEST_OP_ENCRYPT:
		return "encrypt";
	case GUEST_OP_DECRYPT:
		return "decrypt";
	case GUEST_OP_HASH:
		break;
	}
	return "hash";
}
