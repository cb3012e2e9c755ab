/* algorithms.c - the algorithm names the guest protocol knows, and which
 * operations each has. */
#include "config.h"

#include <string.h>

#include "lib/algorithms.h"

static const struct algorithm algorithms[] = {
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

/* Library names of the guest's backends (guest/backends.c), in its default
 * order. Keep in step with the guest: it refuses an unknown --libs name. */
static const char *const libraries[] = {
	"openssl", "libgcrypt", "nettle", "libsodium", "mbedtls",
	"gnutls", "wolfssl", "botan", "libtomcrypt", "libmcrypt",
};

const char *algorithm_name(size_t i)
{
	return i < sizeof(algorithms) / sizeof(algorithms[0]) ?
	       algorithms[i].name : NULL;
}

int library_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++)
		if (strcmp(libraries[i], name) == 0)
			return 1;
	return 0;
}

const char *library_name(size_t i)
{
	return i < sizeof(libraries) / sizeof(libraries[0]) ? libraries[i]
							     : NULL;
}

const struct algorithm *algorithm_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(algorithms) / sizeof(algorithms[0]); i++)
		if (strcmp(algorithms[i].name, name) == 0)
			return &algorithms[i];
	return NULL;
}

int algorithm_has_operation(const struct algorithm *a, const char *op)
{
	if (a->kind == ALGO_HASH)
		return strcmp(op, "hash") == 0;
	return strcmp(op, "encrypt") == 0 || strcmp(op, "decrypt") == 0;
}
