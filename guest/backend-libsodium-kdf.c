/* guest/backend-libsodium-kdf.c - the key derivation functions of
 * libsodium: Argon2id through crypto_pwhash with
 * crypto_pwhash_ALG_ARGON2ID13 (1.0.13 and later), scrypt through
 * crypto_pwhash_scryptsalsa208sha256_ll. crypto_pwhash takes no Argon2
 * secret or associated data, always one lane, and a salt of exactly 16
 * bytes (crypto_pwhash_SALTBYTES), so it cannot take RFC 9106's vector:
 * its Argon2id is checked against the other libraries only. libsodium
 * has no PBKDF2 or HKDF-SHA256 (its crypto_kdf_hkdf_sha256_* came in
 * 1.0.19 and is not used). Prototypes and constants restated from
 * <sodium/crypto_pwhash.h> and <sodium/crypto_pwhash_scryptsalsa208sha256.h>. */
#include "compat.h"

#include "backend-kdf.h"

#define crypto_pwhash_ALG_ARGON2ID13 2	/* <sodium/crypto_pwhash.h> */
#define crypto_pwhash_SALTBYTES 16	/* <sodium/crypto_pwhash.h> */

typedef unsigned long long ull;

static struct {
	int (*pwhash)(unsigned char *out, ull outlen, const char *passwd,
		      ull passwdlen, const unsigned char *salt, ull opslimit,
		      size_t memlimit, int alg);
	int (*scrypt)(const uint8_t *passwd, size_t passwdlen,
		      const uint8_t *salt, size_t saltlen, uint64_t n,
		      uint32_t r, uint32_t p, uint8_t *buf, size_t buflen);
	bool have_pwhash, have_scrypt;
} api;

void guest_kdf_libsodium_load(void *handle)
{
	int (*alg)(void) = NULL;

	/* crypto_pwhash_alg_argon2id13 appeared with Argon2id itself */
	api.have_pwhash =
		backend_sym(handle, &alg, "crypto_pwhash_alg_argon2id13") == 0 &&
		alg() == crypto_pwhash_ALG_ARGON2ID13 &&
		backend_sym(handle, &api.pwhash, "crypto_pwhash") == 0;
	api.have_scrypt = backend_sym(handle, &api.scrypt,
			"crypto_pwhash_scryptsalsa208sha256_ll") == 0;
}

static bool na_supports(enum guest_kdf_algo algo)
{
	return algo == GUEST_KDF_ARGON2ID ? api.have_pwhash :
	       algo == GUEST_KDF_SCRYPT && api.have_scrypt;
}

static int na_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	if (!na_supports(algo))
		return -1;
	if (algo == GUEST_KDF_SCRYPT)
		return api.scrypt(in->pass, in->pass_bytes, in->salt,
				  in->salt_bytes, in->cost, in->block,
				  in->lanes, out, in->out_bytes) == 0 ? 0 : -1;
	if (in->secret_bytes || in->ad_bytes || in->lanes != 1 ||
	    in->salt_bytes != crypto_pwhash_SALTBYTES)
		return 1;
	return api.pwhash(out, in->out_bytes, (const char *)in->pass,
			  in->pass_bytes, in->salt, in->cost,
			  (size_t)in->memory_kib * 1024,
			  crypto_pwhash_ALG_ARGON2ID13) == 0 ? 0 : -1;
}

const struct guest_kdf_ops guest_kdf_libsodium = {
	.supports = na_supports,
	.derive = na_derive,
};
