/* lib/algorithm-table.c - the algorithm names of the guest protocol (see
 * algorithm-table.h). Built into liborch and into the guest: no config.h,
 * no libc calls. */
#include "lib/algorithm-table.h"

const struct algorithm algorithm_table[ALGORITHM_COUNT] = {
	/* Block ciphers in ECB and CBC (NIST SP 800-38A modes): AES
	 * (FIPS 197), Serpent, Twofish, Blowfish, CAST5 (RFC 2144), 3DES
	 * (NIST SP 800-67). */
	{ "aes-128-ecb", ALGO_CIPHER },
	{ "aes-128-cbc", ALGO_CIPHER },
	{ "aes-192-ecb", ALGO_CIPHER },
	{ "aes-192-cbc", ALGO_CIPHER },
	{ "aes-256-ecb", ALGO_CIPHER },
	{ "aes-256-cbc", ALGO_CIPHER },
	{ "serpent-256-ecb", ALGO_CIPHER },
	{ "serpent-256-cbc", ALGO_CIPHER },
	{ "twofish-256-ecb", ALGO_CIPHER },
	{ "twofish-256-cbc", ALGO_CIPHER },
	{ "blowfish-128-ecb", ALGO_CIPHER },
	{ "blowfish-128-cbc", ALGO_CIPHER },
	{ "cast5-128-ecb", ALGO_CIPHER },
	{ "cast5-128-cbc", ALGO_CIPHER },
	{ "3des-ecb", ALGO_CIPHER },
	{ "3des-cbc", ALGO_CIPHER },
	/* AES-CTR (SP 800-38A), AES-GCM (SP 800-38D), Camellia (RFC 3713),
	 * ChaCha20 and ChaCha20-Poly1305 (RFC 8439), Salsa20, RC4. */
	{ "aes-128-ctr", ALGO_CIPHER },
	{ "aes-256-ctr", ALGO_CIPHER },
	{ "aes-128-gcm", ALGO_CIPHER },
	{ "aes-256-gcm", ALGO_CIPHER },
	{ "camellia-128-cbc", ALGO_CIPHER },
	{ "camellia-256-cbc", ALGO_CIPHER },
	{ "chacha20", ALGO_CIPHER },
	{ "chacha20-poly1305", ALGO_CIPHER },
	{ "salsa20", ALGO_CIPHER },
	{ "rc4", ALGO_CIPHER },
	/* Hashes: MD5 (RFC 1321), SHA-1/-256/-512 (FIPS 180-4), SHA3-256
	 * (FIPS 202), BLAKE2b-512 (RFC 7693). */
	{ "md5", ALGO_HASH },
	{ "sha-1", ALGO_HASH },
	{ "sha-256", ALGO_HASH },
	{ "sha-512", ALGO_HASH },
	{ "sha3-256", ALGO_HASH },
	{ "blake2b-512", ALGO_HASH },
};
