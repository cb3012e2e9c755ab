/* guest/algo.c - the algorithms and operations of guest protocol 2. */
#include "compat.h"

#include <string.h>

#include "algo.h"
#include "lib/algorithm-table.h"

/* enum guest_algo follows lib/algorithm-table.c, name for name. */
_Static_assert(GUEST_ALGO_COUNT == ALGORITHM_COUNT,
	       "enum guest_algo and algorithm_table differ");

const uint8_t guest_aead_aad[GUEST_AEAD_AAD_BYTES] = { 0xcc };

#define C GUEST_KIND_CIPHER
#define A GUEST_KIND_AEAD
#define H GUEST_KIND_HASH

/* name (lib/algorithm-table.c), kind, key, iv, tag, digest, block, mode,
 * family. Key and block sizes from the ciphers' specifications: AES
 * FIPS 197, Serpent and Twofish their AES submissions (256-bit keys used
 * here), Blowfish with a 128-bit key, CAST5 RFC 2144 (128-bit key), 3DES
 * SP 800-67 (three keys), Camellia RFC 3713, ChaCha20 RFC 8439, Salsa20
 * Bernstein's specification (256-bit key), RC4 with a 128-bit key
 * (RFC 6229). */
static const struct guest_algo_info algos[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = { algorithm_table[GUEST_AES_128_ECB].name,
		C, 16, 0, 0, 0, 16, GUEST_MODE_ECB, GUEST_FAM_AES },
	[GUEST_AES_128_CBC] = { algorithm_table[GUEST_AES_128_CBC].name,
		C, 16, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_AES },
	[GUEST_AES_192_ECB] = { algorithm_table[GUEST_AES_192_ECB].name,
		C, 24, 0, 0, 0, 16, GUEST_MODE_ECB, GUEST_FAM_AES },
	[GUEST_AES_192_CBC] = { algorithm_table[GUEST_AES_192_CBC].name,
		C, 24, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_AES },
	[GUEST_AES_256_ECB] = { algorithm_table[GUEST_AES_256_ECB].name,
		C, 32, 0, 0, 0, 16, GUEST_MODE_ECB, GUEST_FAM_AES },
	[GUEST_AES_256_CBC] = { algorithm_table[GUEST_AES_256_CBC].name,
		C, 32, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_AES },
	[GUEST_SERPENT_256_ECB] = { algorithm_table[GUEST_SERPENT_256_ECB].name,
		C, 32, 0, 0, 0, 16, GUEST_MODE_ECB, GUEST_FAM_SERPENT },
	[GUEST_SERPENT_256_CBC] = { algorithm_table[GUEST_SERPENT_256_CBC].name,
		C, 32, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_SERPENT },
	[GUEST_TWOFISH_256_ECB] = { algorithm_table[GUEST_TWOFISH_256_ECB].name,
		C, 32, 0, 0, 0, 16, GUEST_MODE_ECB, GUEST_FAM_TWOFISH },
	[GUEST_TWOFISH_256_CBC] = { algorithm_table[GUEST_TWOFISH_256_CBC].name,
		C, 32, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_TWOFISH },
	[GUEST_BLOWFISH_128_ECB] = { algorithm_table[GUEST_BLOWFISH_128_ECB].name,
		C, 16, 0, 0, 0, 8, GUEST_MODE_ECB, GUEST_FAM_BLOWFISH },
	[GUEST_BLOWFISH_128_CBC] = { algorithm_table[GUEST_BLOWFISH_128_CBC].name,
		C, 16, 8, 0, 0, 8, GUEST_MODE_CBC, GUEST_FAM_BLOWFISH },
	[GUEST_CAST5_128_ECB] = { algorithm_table[GUEST_CAST5_128_ECB].name,
		C, 16, 0, 0, 0, 8, GUEST_MODE_ECB, GUEST_FAM_CAST5 },
	[GUEST_CAST5_128_CBC] = { algorithm_table[GUEST_CAST5_128_CBC].name,
		C, 16, 8, 0, 0, 8, GUEST_MODE_CBC, GUEST_FAM_CAST5 },
	[GUEST_3DES_ECB] = { algorithm_table[GUEST_3DES_ECB].name,
		C, 24, 0, 0, 0, 8, GUEST_MODE_ECB, GUEST_FAM_3DES },
	[GUEST_3DES_CBC] = { algorithm_table[GUEST_3DES_CBC].name,
		C, 24, 8, 0, 0, 8, GUEST_MODE_CBC, GUEST_FAM_3DES },
	[GUEST_AES_128_CTR] = { algorithm_table[GUEST_AES_128_CTR].name,
		C, 16, 16, 0, 0, 1, GUEST_MODE_CTR, GUEST_FAM_AES },
	[GUEST_AES_256_CTR] = { algorithm_table[GUEST_AES_256_CTR].name,
		C, 32, 16, 0, 0, 1, GUEST_MODE_CTR, GUEST_FAM_AES },
	[GUEST_AES_128_GCM] = { algorithm_table[GUEST_AES_128_GCM].name,
		A, 16, 12, 16, 0, 1, GUEST_MODE_GCM, GUEST_FAM_AES },
	[GUEST_AES_256_GCM] = { algorithm_table[GUEST_AES_256_GCM].name,
		A, 32, 12, 16, 0, 1, GUEST_MODE_GCM, GUEST_FAM_AES },
	[GUEST_CAMELLIA_128_CBC] = { algorithm_table[GUEST_CAMELLIA_128_CBC].name,
		C, 16, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_CAMELLIA },
	[GUEST_CAMELLIA_256_CBC] = { algorithm_table[GUEST_CAMELLIA_256_CBC].name,
		C, 32, 16, 0, 0, 16, GUEST_MODE_CBC, GUEST_FAM_CAMELLIA },
	[GUEST_CHACHA20] = { algorithm_table[GUEST_CHACHA20].name,
		C, 32, 12, 0, 0, 1, GUEST_MODE_STREAM, GUEST_FAM_CHACHA20 },
	[GUEST_CHACHA20_POLY1305] = { algorithm_table[GUEST_CHACHA20_POLY1305].name,
		A, 32, 12, 16, 0, 1, GUEST_MODE_AEAD, GUEST_FAM_CHACHA20 },
	[GUEST_SALSA20] = { algorithm_table[GUEST_SALSA20].name,
		C, 32, 8, 0, 0, 1, GUEST_MODE_STREAM, GUEST_FAM_SALSA20 },
	[GUEST_RC4] = { algorithm_table[GUEST_RC4].name,
		C, 16, 0, 0, 0, 1, GUEST_MODE_STREAM, GUEST_FAM_RC4 },
	[GUEST_MD5] = { algorithm_table[GUEST_MD5].name,
		H, 0, 0, 0, 16, 1, GUEST_MODE_NONE, GUEST_FAM_MD5 },
	[GUEST_SHA_1] = { algorithm_table[GUEST_SHA_1].name,
		H, 0, 0, 0, 20, 1, GUEST_MODE_NONE, GUEST_FAM_SHA1 },
	[GUEST_SHA_256] = { algorithm_table[GUEST_SHA_256].name,
		H, 0, 0, 0, 32, 1, GUEST_MODE_NONE, GUEST_FAM_SHA256 },
	[GUEST_SHA_512] = { algorithm_table[GUEST_SHA_512].name,
		H, 0, 0, 0, 64, 1, GUEST_MODE_NONE, GUEST_FAM_SHA512 },
	[GUEST_SHA3_256] = { algorithm_table[GUEST_SHA3_256].name,
		H, 0, 0, 0, 32, 1, GUEST_MODE_NONE, GUEST_FAM_SHA3_256 },
	[GUEST_BLAKE2B_512] = { algorithm_table[GUEST_BLAKE2B_512].name,
		H, 0, 0, 0, 64, 1, GUEST_MODE_NONE, GUEST_FAM_BLAKE2B },
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
