/* guest/backend-mbedtls-kdf.c - the key derivation functions of Mbed TLS:
 * mbedtls_pkcs5_pbkdf2_hmac (on an HMAC context set up and freed per
 * derivation, as an application does) and mbedtls_hkdf (2.x and 3.x).
 * Mbed TLS has no scrypt or Argon2. SHA-256 is found by name
 * (mbedtls_md_info_from_string), whose enum value changed in 3.x.
 * Prototypes restated from <mbedtls/pkcs5.h>, <mbedtls/hkdf.h> and
 * <mbedtls/md.h>; the context is room larger than any Mbed TLS's
 * mbedtls_md_context_t (three pointers in 2.x and 3.x). */
#include "compat.h"

#include "backend-kdf.h"

/* Room for an mbedtls_md_context_t, bytes. */
#define MD_CTX_BYTES 256

static struct {
	const void *(*info_from_string)(const char *name);
	void (*md_init)(void *ctx);
	int (*md_setup)(void *ctx, const void *info, int hmac);
	void (*md_free)(void *ctx);
	int (*pbkdf2)(void *ctx, const unsigned char *pass, size_t plen,
		      const unsigned char *salt, size_t slen,
		      unsigned int iter, uint32_t keylen, unsigned char *out);
	int (*hkdf)(const void *md, const unsigned char *salt, size_t slen,
		    const unsigned char *ikm, size_t ikmlen,
		    const unsigned char *info, size_t infolen,
		    unsigned char *okm, size_t okmlen);
	const void *sha256;
	bool have_pbkdf2, have_hkdf;
} api;

void guest_kdf_mbedtls_load(void *handle)
{
	const struct backend_symbol md[] = {
		{ &api.info_from_string, "mbedtls_md_info_from_string" },
		{ &api.md_init, "mbedtls_md_init" },
		{ &api.md_setup, "mbedtls_md_setup" },
		{ &api.md_free, "mbedtls_md_free" },
	};
	char why[128];

	if (backend_require(handle, md, 4, why, sizeof(why)) != 0 ||
	    !(api.sha256 = api.info_from_string("SHA256")))
		return;
	api.have_pbkdf2 = backend_sym(handle, &api.pbkdf2,
				      "mbedtls_pkcs5_pbkdf2_hmac") == 0;
	api.have_hkdf = backend_sym(handle, &api.hkdf, "mbedtls_hkdf") == 0;
}

static bool mb_supports(enum guest_kdf_algo algo)
{
	return algo == GUEST_KDF_PBKDF2_SHA256 ? api.have_pbkdf2 :
	       algo == GUEST_KDF_HKDF_SHA256 && api.have_hkdf;
}

static int mb_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	_Alignas(16) uint8_t ctx[MD_CTX_BYTES];
	int rc;

	if (!mb_supports(algo))
		return -1;
	if (algo == GUEST_KDF_HKDF_SHA256)
		return api.hkdf(api.sha256, in->salt, in->salt_bytes, in->pass,
				in->pass_bytes, in->info, in->info_bytes, out,
				in->out_bytes) == 0 ? 0 : -1;
	api.md_init(ctx);
	rc = api.md_setup(ctx, api.sha256, 1) == 0 &&
	     api.pbkdf2(ctx, in->pass, in->pass_bytes, in->salt,
			in->salt_bytes, (unsigned)in->cost,
			(uint32_t)in->out_bytes, out) == 0 ? 0 : -1;
	api.md_free(ctx);
	return rc;
}

const struct guest_kdf_ops guest_kdf_mbedtls = {
	.supports = mb_supports,
	.derive = mb_derive,
};
