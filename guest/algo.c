/* guest/algo.c - the algorithms and operations of guest protocol 1. */
#include "compat.h"

#include <string.h>

#include "algo.h"

const uint8_t guest_aead_aad[GUEST_AEAD_AAD_BYTES] = { 0xcc };

static const struct guest_algo_info algos[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_CBC] = { "aes-128-cbc", GUEST_KIND_CIPHER,
				16, 16, 0, 0, 16 },
	[GUEST_AES_128_CTR] = { "aes-128-ctr", GUEST_KIND_CIPHER,
				16, 16, 0, 0, 1 },
	[GUEST_AES_256_GCM] = { "aes-256-gcm", GUEST_KIND_AEAD,
				32, 12, 16, 0, 1 },
	[GUEST_CHACHA20_POLY1305] = { "chacha20-poly1305", GUEST_KIND_AEAD,
				      32, 12, 16, 0, 1 },
	[GUEST_SHA_256] = { "sha-256", GUEST_KIND_HASH, 0, 0, 0, 32, 1 },
};

const struct guest_algo_info *algo_info(enum guest_algo algo)
{
	return &algos[algo];
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
