/* guest/backend-openssl-kdf.c - the key derivation functions of OpenSSL's
 * libcrypto: PKCS5_PBKDF2_HMAC and EVP_PBE_scrypt (1.1.1 and 3.x), HKDF
 * through EVP_KDF "HKDF" (3.0 and later; 1.1.1's EVP_PKEY_HKDF is not
 * used, so HKDF is unsupported there) and Argon2id through EVP_KDF
 * "ARGON2ID" (3.2 and later). The EVP_KDFs are fetched once, when the
 * run first asks for a KDF (not at load, whose footprint is measured),
 * and kept, as an application keeps them; every derivation makes and
 * frees its own EVP_KDF_CTX. Prototypes and OSSL_PARAM restated from <openssl/kdf.h>,
 * <openssl/evp.h> and <openssl/core.h> (stable ABI). */
#include "compat.h"

#include <string.h>

#include "backend-kdf.h"

typedef struct ossl_md EVP_MD;
typedef struct ossl_kdf EVP_KDF;
typedef struct ossl_kdf_ctx EVP_KDF_CTX;

/* struct ossl_param_st of <openssl/core.h> */
typedef struct {
	const char *key;
	unsigned int data_type;
	void *data;
	size_t data_size;
	size_t return_size;
} OSSL_PARAM;

#define OSSL_PARAM_UNSIGNED_INTEGER 2	/* <openssl/core.h> */
#define OSSL_PARAM_UTF8_STRING 4	/* <openssl/core.h> */
#define OSSL_PARAM_OCTET_STRING 5	/* <openssl/core.h> */
#define OSSL_PARAM_UNMODIFIED ((size_t)-1)	/* <openssl/params.h> */

/* Most parameters one derivation hands EVP_KDF, the end marker
 * included. */
#define MAX_PARAMS 12

static struct {
	int (*pbkdf2)(const char *pass, int passlen, const unsigned char *salt,
		      int saltlen, int iter, const EVP_MD *md, int keylen,
		      unsigned char *out);
	const EVP_MD *(*sha256)(void);
	int (*scrypt)(const char *pass, size_t passlen,
		      const unsigned char *salt, size_t saltlen, uint64_t n,
		      uint64_t r, uint64_t p, uint64_t maxmem,
		      unsigned char *key, size_t keylen);
	EVP_KDF *(*kdf_fetch)(void *libctx, const char *name,
			      const char *props);
	EVP_KDF_CTX *(*ctx_new)(EVP_KDF *kdf);
	void (*ctx_free)(EVP_KDF_CTX *ctx);
	int (*derive)(EVP_KDF_CTX *ctx, unsigned char *key, size_t keylen,
		      const OSSL_PARAM *params);
	EVP_KDF *hkdf, *argon2id;
	bool have_pbkdf2, have_scrypt, have_kdf, fetched;
} api;

void guest_kdf_openssl_load(void *handle)
{
	const struct backend_symbol pb[] = {
		{ &api.pbkdf2, "PKCS5_PBKDF2_HMAC" },
		{ &api.sha256, "EVP_sha256" },
	};
	const struct backend_symbol kdf[] = {
		{ &api.kdf_fetch, "EVP_KDF_fetch" },
		{ &api.ctx_new, "EVP_KDF_CTX_new" },
		{ &api.ctx_free, "EVP_KDF_CTX_free" },
		{ &api.derive, "EVP_KDF_derive" },
	};
	char why[128];

	api.have_pbkdf2 = backend_require(handle, pb, 2, why, sizeof(why)) == 0;
	api.have_scrypt = backend_sym(handle, &api.scrypt, "EVP_PBE_scrypt") == 0;
	api.have_kdf = backend_require(handle, kdf, 4, why, sizeof(why)) == 0;
}

static bool os_supports(enum guest_kdf_algo algo)
{
	if (api.have_kdf && !api.fetched) {
		api.fetched = true;
		api.hkdf = api.kdf_fetch(NULL, "HKDF", NULL);
		api.argon2id = api.kdf_fetch(NULL, "ARGON2ID", NULL);
	}
	switch (algo) {
	case GUEST_KDF_PBKDF2_SHA256:
		return api.have_pbkdf2;
	case GUEST_KDF_HKDF_SHA256:
		return api.hkdf != NULL;
	case GUEST_KDF_SCRYPT:
		return api.have_scrypt;
	case GUEST_KDF_ARGON2ID:
		return api.argon2id != NULL;
	default:
		return false;
	}
}

/* An octet-string parameter KEY of N bytes at DATA. */
static OSSL_PARAM octets(const char *key, const void *data, size_t n)
{
	OSSL_PARAM p = { key, OSSL_PARAM_OCTET_STRING, (void *)data, n,
			 OSSL_PARAM_UNMODIFIED };

	return p;
}

/* A uint32_t parameter KEY at V. */
static OSSL_PARAM u32(const char *key, uint32_t *v)
{
	OSSL_PARAM p = { key, OSSL_PARAM_UNSIGNED_INTEGER, v, sizeof(*v),
			 OSSL_PARAM_UNMODIFIED };

	return p;
}

/* One derivation with KDF and the parameters P (ending with a NULL key)
 * into OUT, N bytes: 0 or -1. */
static int kdf_derive(EVP_KDF *kdf, const OSSL_PARAM *p, uint8_t *out,
		      size_t n)
{
	EVP_KDF_CTX *ctx = api.ctx_new(kdf);
	int ok;

	if (!ctx)
		return -1;
	ok = api.derive(ctx, out, n, p) == 1;
	api.ctx_free(ctx);
	return ok ? 0 : -1;
}

static int os_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	OSSL_PARAM p[MAX_PARAMS];
	uint32_t iter, mem, lanes, threads = 1, size;
	char digest[] = "SHA256";
	int n = 0;

	if (!os_supports(algo))
		return -1;
	switch (algo) {
	case GUEST_KDF_PBKDF2_SHA256:
		return api.pbkdf2((const char *)in->pass, (int)in->pass_bytes,
				  in->salt, (int)in->salt_bytes, (int)in->cost,
				  api.sha256(), (int)in->out_bytes,
				  out) == 1 ? 0 : -1;
	case GUEST_KDF_SCRYPT:
		/* maxmem 1 GiB: the default 32 MiB is enough for the timed
		 * cost, this leaves room for larger tests */
		return api.scrypt((const char *)in->pass, in->pass_bytes,
				  in->salt, in->salt_bytes, in->cost, in->block,
				  in->lanes, UINT64_C(1) << 30, out,
				  in->out_bytes) == 1 ? 0 : -1;
	case GUEST_KDF_HKDF_SHA256:
		p[n] = octets("digest", digest, strlen(digest));
		p[n++].data_type = OSSL_PARAM_UTF8_STRING;
		p[n++] = octets("key", in->pass, in->pass_bytes);
		p[n++] = octets("salt", in->salt, in->salt_bytes);
		p[n++] = octets("info", in->info, in->info_bytes);
		break;
	case GUEST_KDF_ARGON2ID:
		iter = (uint32_t)in->cost;
		mem = in->memory_kib;
		lanes = in->lanes;
		size = (uint32_t)in->out_bytes;
		p[n++] = octets("pass", in->pass, in->pass_bytes);
		p[n++] = octets("salt", in->salt, in->salt_bytes);
		if (in->secret_bytes)
			p[n++] = octets("secret", in->secret, in->secret_bytes);
		if (in->ad_bytes)
			p[n++] = octets("ad", in->ad, in->ad_bytes);
		p[n++] = u32("iter", &iter);
		p[n++] = u32("memcost", &mem);
		p[n++] = u32("lanes", &lanes);
		p[n++] = u32("threads", &threads);
		p[n++] = u32("size", &size);
		break;
	default:
		return -1;
	}
	memset(&p[n], 0, sizeof(p[n]));
	return kdf_derive(algo == GUEST_KDF_HKDF_SHA256 ? api.hkdf : api.argon2id,
			  p, out, in->out_bytes);
}

const struct guest_kdf_ops guest_kdf_openssl = {
	.supports = os_supports,
	.derive = os_derive,
};
