/* guest/backend-libgcrypt-kdf.c - the key derivation functions of
 * libgcrypt: PBKDF2 and scrypt through gcry_kdf_derive, Argon2id through
 * gcry_kdf_open / _compute / _final / _close (1.10 and later; single
 * threaded: no thread operations are given). HKDF is not used.
 * gcry_kdf_derive's scrypt has r = 8 fixed (its subalgo is N, its
 * iterations p), so it cannot take RFC 7914's N=16 r=1 vector.
 * Prototypes and constants restated from <gcrypt.h> (1.10). */
#include "compat.h"

#include "backend-kdf.h"

typedef unsigned int gcry_error_t;
typedef struct gcry_kdf_handle *gcry_kdf_hd_t;

#define GCRY_KDF_PBKDF2 34	/* <gcrypt.h> */
#define GCRY_KDF_SCRYPT 48	/* <gcrypt.h> */
#define GCRY_KDF_ARGON2 64	/* <gcrypt.h> */
#define GCRY_KDF_ARGON2ID 2	/* <gcrypt.h> */
#define GCRY_MD_SHA256 8	/* <gcrypt.h> */

static struct {
	gcry_error_t (*derive)(const void *pass, size_t passlen, int algo,
			       int subalgo, const void *salt, size_t saltlen,
			       unsigned long iterations, size_t keysize,
			       void *key);
	gcry_error_t (*open)(gcry_kdf_hd_t *hd, int algo, int subalgo,
			     const unsigned long *param, unsigned int paramlen,
			     const void *pass, size_t passlen,
			     const void *salt, size_t saltlen,
			     const void *key, size_t keylen,
			     const void *ad, size_t adlen);
	gcry_error_t (*compute)(gcry_kdf_hd_t hd, const void *ops);
	gcry_error_t (*final)(gcry_kdf_hd_t hd, size_t len, void *out);
	void (*close)(gcry_kdf_hd_t hd);
	bool have_derive, have_open;
} api;

void guest_kdf_libgcrypt_load(void *handle)
{
	const struct backend_symbol open[] = {
		{ &api.open, "gcry_kdf_open" },
		{ &api.compute, "gcry_kdf_compute" },
		{ &api.final, "gcry_kdf_final" },
		{ &api.close, "gcry_kdf_close" },
	};
	char why[128];

	api.have_derive = backend_sym(handle, &api.derive,
				      "gcry_kdf_derive") == 0;
	api.have_open = backend_require(handle, open, 4, why,
					sizeof(why)) == 0;
}

static bool gc_supports(enum guest_kdf_algo algo)
{
	return algo == GUEST_KDF_PBKDF2_SHA256 || algo == GUEST_KDF_SCRYPT ?
	       api.have_derive : algo == GUEST_KDF_ARGON2ID && api.have_open;
}

/* Argon2id of IN into OUT: 0, or -1. */
static int argon2id(const struct guest_kdf_input *in, uint8_t *out)
{
	unsigned long param[4] = { (unsigned long)in->out_bytes,
				   (unsigned long)in->cost, in->memory_kib,
				   in->lanes };
	gcry_kdf_hd_t hd = NULL;
	int rc = -1;

	if (api.open(&hd, GCRY_KDF_ARGON2, GCRY_KDF_ARGON2ID, param, 4,
		     in->pass, in->pass_bytes, in->salt, in->salt_bytes,
		     in->secret_bytes ? in->secret : NULL, in->secret_bytes,
		     in->ad_bytes ? in->ad : NULL, in->ad_bytes) != 0)
		return -1;
	if (api.compute(hd, NULL) == 0 &&
	    api.final(hd, in->out_bytes, out) == 0)
		rc = 0;
	api.close(hd);
	return rc;
}

static int gc_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	if (!gc_supports(algo))
		return -1;
	switch (algo) {
	case GUEST_KDF_PBKDF2_SHA256:
		return api.derive(in->pass, in->pass_bytes, GCRY_KDF_PBKDF2,
				  GCRY_MD_SHA256, in->salt, in->salt_bytes,
				  (unsigned long)in->cost, in->out_bytes,
				  out) == 0 ? 0 : -1;
	case GUEST_KDF_SCRYPT:
		if (in->block != 8)
			return 1;
		return api.derive(in->pass, in->pass_bytes, GCRY_KDF_SCRYPT,
				  (int)in->cost, in->salt, in->salt_bytes,
				  in->lanes, in->out_bytes, out) == 0 ? 0 : -1;
	case GUEST_KDF_ARGON2ID:
		return argon2id(in, out);
	default:
		return -1;
	}
}

const struct guest_kdf_ops guest_kdf_libgcrypt = {
	.supports = gc_supports,
	.derive = gc_derive,
};
