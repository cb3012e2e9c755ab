/* lib/library-support.c - the algorithms each guest backend implements
 * (see library-support.h). Keep in step with guest/backend-NAME.c: each
 * row restates the algorithm table of that file's header comment. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "lib/algorithms.h"
#include "lib/library-support.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"

/* A library and the protocol algorithms it lacks: most libraries have
 * most algorithms, so the exceptions are the shorter list. */
struct support {
	const char *library;
	const char *const *lacks;	/* NULL-terminated */
};

/* guest/backend-openssl.c: not in OpenSSL. */
static const char *const openssl_lacks[] = {
	"serpent-256-ecb", "serpent-256-cbc", "twofish-256-ecb",
	"twofish-256-cbc", "salsa20", NULL,
};
/* guest/backend-libgcrypt.c, backend-nettle.c, backend-botan.c: all. */
static const char *const none_lacked[] = { NULL };
/* guest/backend-libsodium.c: ChaCha20, ChaCha20-Poly1305, Salsa20,
 * AES-256-GCM, SHA-256, SHA-512, BLAKE2b-512 and nothing else. */
static const char *const libsodium_lacks[] = {
	"aes-128-ecb", "aes-128-cbc", "aes-192-ecb", "aes-192-cbc",
	"aes-256-ecb", "aes-256-cbc", "serpent-256-ecb", "serpent-256-cbc",
	"twofish-256-ecb", "twofish-256-cbc", "blowfish-128-ecb",
	"blowfish-128-cbc", "cast5-128-ecb", "cast5-128-cbc", "3des-ecb",
	"3des-cbc", "aes-128-ctr", "aes-256-ctr", "aes-128-gcm",
	"camellia-128-cbc", "camellia-256-cbc", "rc4", "md5", "sha-1",
	"sha3-256", NULL,
};
/* guest/backend-mbedtls.c: no Serpent, Twofish, CAST5, Salsa20,
 * BLAKE2b. */
static const char *const mbedtls_lacks[] = {
	"serpent-256-ecb", "serpent-256-cbc", "twofish-256-ecb",
	"twofish-256-cbc", "cast5-128-ecb", "cast5-128-cbc", "salsa20",
	"blake2b-512", NULL,
};
/* guest/backend-gnutls.c: no ECB, no CTR, no Serpent, Twofish, Blowfish,
 * CAST5 or BLAKE2b (Salsa20 only where its nonce works). */
static const char *const gnutls_lacks[] = {
	"aes-128-ecb", "aes-192-ecb", "aes-256-ecb", "serpent-256-ecb",
	"serpent-256-cbc", "twofish-256-ecb", "twofish-256-cbc",
	"blowfish-128-ecb", "blowfish-128-cbc", "cast5-128-ecb",
	"cast5-128-cbc", "3des-ecb", "aes-128-ctr", "aes-256-ctr",
	"blake2b-512", NULL,
};
/* guest/backend-wolfssl.c: no Serpent, Twofish, Blowfish, CAST5,
 * Salsa20, and no 3DES-ECB (wolfCrypt cannot decrypt it). */
static const char *const wolfssl_lacks[] = {
	"serpent-256-ecb", "serpent-256-cbc", "twofish-256-ecb",
	"twofish-256-cbc", "blowfish-128-ecb", "blowfish-128-cbc",
	"cast5-128-ecb", "cast5-128-cbc", "3des-ecb", "salsa20", NULL,
};
/* guest/backend-libtomcrypt.c: no Serpent, no Salsa20. */
static const char *const libtomcrypt_lacks[] = {
	"serpent-256-ecb", "serpent-256-cbc", "salsa20", NULL,
};
/* guest/backend-libmcrypt.c: no Camellia, GCM, ChaCha20, Salsa20, AEAD,
 * no hashes. */
static const char *const libmcrypt_lacks[] = {
	"aes-128-gcm", "aes-256-gcm", "camellia-128-cbc", "camellia-256-cbc",
	"chacha20", "chacha20-poly1305", "salsa20", "md5", "sha-1",
	"sha-256", "sha-512", "sha3-256", "blake2b-512", NULL,
};

static const struct support table[] = {
	{ "openssl", openssl_lacks },
	{ "libgcrypt", none_lacked },
	{ "nettle", none_lacked },
	{ "libsodium", libsodium_lacks },
	{ "mbedtls", mbedtls_lacks },
	{ "gnutls", gnutls_lacks },
	{ "wolfssl", wolfssl_lacks },
	{ "botan", none_lacked },
	{ "libtomcrypt", libtomcrypt_lacks },
	{ "libmcrypt", libmcrypt_lacks },
};

/* The public-key algorithms each library has (guest/backend-NAME-pk.c,
 * -ec.c and -rsa.c, guest/PROTOCOL.md "Public key"); a library not named
 * has none. */
static const struct {
	const char *library, *algorithm;
} pubkey_support[] = {
	{ "openssl", "x25519" }, { "openssl", "ed25519" },
	{ "libgcrypt", "x25519" }, { "libgcrypt", "ed25519" },
	{ "nettle", "x25519" }, { "nettle", "ed25519" },
	{ "libsodium", "x25519" }, { "libsodium", "ed25519" },
	{ "wolfssl", "x25519" }, { "wolfssl", "ed25519" },
	{ "botan", "x25519" }, { "botan", "ed25519" },
	{ "gnutls", "ed25519" },
	{ "mbedtls", "x25519" },
	/* GnuTLS's key agreement: 3.8.2 and later (gnutls_privkey_derive_secret,
	 * guest/backend-gnutls-kx.c), X25519, X448 and ECDH P-256 */
	{ "gnutls", "x25519" }, { "gnutls", "x448" }, { "gnutls", "ecdh-p256" },
	/* X448: Botan 2 and libsodium have none */
	{ "openssl", "x448" }, { "libgcrypt", "x448" }, { "nettle", "x448" },
	{ "wolfssl", "x448" }, { "mbedtls", "x448" },
	/* P-256 (guest/backend-NAME-ec.c) */
	{ "openssl", "ecdh-p256" }, { "openssl", "ecdsa-p256" },
	{ "libgcrypt", "ecdh-p256" }, { "libgcrypt", "ecdsa-p256" },
	{ "nettle", "ecdh-p256" }, { "nettle", "ecdsa-p256" },
	{ "mbedtls", "ecdh-p256" }, { "mbedtls", "ecdsa-p256" },
	{ "wolfssl", "ecdh-p256" }, { "wolfssl", "ecdsa-p256" },
	{ "botan", "ecdh-p256" }, { "botan", "ecdsa-p256" },
	{ "gnutls", "ecdsa-p256" },
	/* RSA (guest/backend-NAME-rsa.c): every library but libsodium */
#define RSA_ALL(lib) { lib, "rsa-2048" }, { lib, "rsa-3072" }, \
	{ lib, "rsa-pss-2048" }
	RSA_ALL("openssl"), RSA_ALL("libgcrypt"), RSA_ALL("nettle"),
	RSA_ALL("gnutls"), RSA_ALL("mbedtls"), RSA_ALL("wolfssl"),
	RSA_ALL("botan"),
#undef RSA_ALL
	/* post-quantum (guest/backend-NAME-pq.c): OpenSSL 3.5 and later */
	{ "openssl", "ml-kem-768" }, { "openssl", "ml-dsa-65" },
};

/* The key derivation functions each library has (guest/backend-NAME-kdf.c,
 * guest/PROTOCOL.md "Key derivation"; OpenSSL's Argon2id from 3.2); a
 * library not named has none. */
static const struct {
	const char *library, *algorithm;
} kdf_support[] = {
	{ "openssl", "pbkdf2-sha256" }, { "openssl", "hkdf-sha256" },
	{ "openssl", "scrypt" }, { "openssl", "argon2id" },
	{ "libgcrypt", "pbkdf2-sha256" }, { "libgcrypt", "scrypt" },
	{ "libgcrypt", "argon2id" },
	{ "nettle", "pbkdf2-sha256" }, { "nettle", "hkdf-sha256" },
	{ "gnutls", "pbkdf2-sha256" }, { "gnutls", "hkdf-sha256" },
	{ "libsodium", "scrypt" }, { "libsodium", "argon2id" },
	{ "mbedtls", "pbkdf2-sha256" }, { "mbedtls", "hkdf-sha256" },
	{ "wolfssl", "pbkdf2-sha256" }, { "wolfssl", "hkdf-sha256" },
	{ "wolfssl", "scrypt" },
	{ "botan", "pbkdf2-sha256" }, { "botan", "hkdf-sha256" },
	{ "botan", "scrypt" }, { "botan", "argon2id" },
};

int library_supports(const char *library, const char *algorithm)
{
	size_t i, j;

	if (kdf_find(algorithm)) {
		for (i = 0; i < sizeof(kdf_support) / sizeof(kdf_support[0]); i++)
			if (strcmp(kdf_support[i].library, library) == 0 &&
			    strcmp(kdf_support[i].algorithm, algorithm) == 0)
				return 1;
		return 0;
	}
	if (pubkey_find(algorithm)) {
		for (i = 0; i < sizeof(pubkey_support) / sizeof(pubkey_support[0]); i++)
			if (strcmp(pubkey_support[i].library, library) == 0 &&
			    strcmp(pubkey_support[i].algorithm, algorithm) == 0)
				return 1;
		return 0;
	}
	if (!algorithm_find(algorithm))
		return 0;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(table[i].library, library) != 0)
			continue;
		for (j = 0; table[i].lacks[j]; j++)
			if (strcmp(table[i].lacks[j], algorithm) == 0)
				return 0;
		return 1;
	}
	return 0;
}
