/* guest/backend-gnutls-kdf.c - the key derivation functions of GnuTLS
 * (3.6.13 and later): gnutls_pbkdf2, and HKDF as gnutls_hkdf_extract then
 * gnutls_hkdf_expand. GnuTLS has no scrypt or Argon2. Prototypes and
 * constants restated from <gnutls/crypto.h> and <gnutls/gnutls.h>. */
#include "compat.h"

#include "backend-kdf.h"

#define GNUTLS_MAC_SHA256 6	/* <gnutls/gnutls.h> */
#define SHA256_BYTES 32

/* gnutls_datum_t */
struct gt_datum {
	unsigned char *data;
	unsigned int size;
};

static struct {
	int (*pbkdf2)(int mac, const struct gt_datum *key,
		      const struct gt_datum *salt, unsigned iter, void *out,
		      size_t len);
	int (*extract)(int mac, const struct gt_datum *key,
		       const struct gt_datum *salt, void *out);
	int (*expand)(int mac, const struct gt_datum *key,
		      const struct gt_datum *info, void *out, size_t len);
	bool have_pbkdf2, have_hkdf;
} api;

void guest_kdf_gnutls_load(void *handle)
{
	const struct backend_symbol hkdf[] = {
		{ &api.extract, "gnutls_hkdf_extract" },
		{ &api.expand, "gnutls_hkdf_expand" },
	};
	char why[128];

	api.have_pbkdf2 = backend_sym(handle, &api.pbkdf2, "gnutls_pbkdf2") == 0;
	api.have_hkdf = backend_require(handle, hkdf, 2, why, sizeof(why)) == 0;
}

static bool gt_supports(enum guest_kdf_algo algo)
{
	return algo == GUEST_KDF_PBKDF2_SHA256 ? api.have_pbkdf2 :
	       algo == GUEST_KDF_HKDF_SHA256 && api.have_hkdf;
}

static int gt_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	struct gt_datum pass = { (unsigned char *)in->pass,
				 (unsigned)in->pass_bytes };
	struct gt_datum salt = { (unsigned char *)in->salt,
				 (unsigned)in->salt_bytes };
	struct gt_datum info = { (unsigned char *)in->info,
				 (unsigned)in->info_bytes };
	uint8_t prk[SHA256_BYTES];
	struct gt_datum key = { prk, sizeof(prk) };

	if (!gt_supports(algo))
		return -1;
	if (algo == GUEST_KDF_PBKDF2_SHA256)
		return api.pbkdf2(GNUTLS_MAC_SHA256, &pass, &salt,
				  (unsigned)in->cost, out,
				  in->out_bytes) == 0 ? 0 : -1;
	if (api.extract(GNUTLS_MAC_SHA256, &pass, &salt, prk) != 0)
		return -1;
	return api.expand(GNUTLS_MAC_SHA256, &key, &info, out,
			  in->out_bytes) == 0 ? 0 : -1;
}

const struct guest_kdf_ops guest_kdf_gnutls = {
	.supports = gt_supports,
	.derive = gt_derive,
};
