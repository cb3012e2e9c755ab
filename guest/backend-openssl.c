/* guest/backend-openssl.c - OpenSSL's libcrypto through the EVP API.
 *
 * Works with libcrypto 3.x (libcrypto.so.3) and 1.1.x (libcrypto.so.1.1):
 * only functions present in both are required; the 3.x fetch functions are
 * used when present, as `openssl speed` 3.x does (an explicitly fetched
 * EVP_MD avoids the implicit per-call fetch EVP_Digest would otherwise do).
 *
 * Nothing from OpenSSL's headers is used: the prototypes below restate the
 * public, stable ABI of the functions called, with opaque structure types.
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* Opaque OpenSSL types (pointers only). */
typedef struct ossl_cipher_ctx EVP_CIPHER_CTX;
typedef struct ossl_cipher EVP_CIPHER;
typedef struct ossl_md EVP_MD;
typedef struct ossl_engine ENGINE;
typedef struct ossl_lib_ctx OSSL_LIB_CTX;

/* ABI constants (include/openssl/evp.h, crypto.h; same in 1.1 and 3.x). */
#define OSSL_OPENSSL_VERSION 0		/* OpenSSL_version() type */
#define OSSL_CTRL_AEAD_SET_IVLEN 0x9	/* EVP_CTRL_AEAD_SET_IVLEN */
#define OSSL_CTRL_AEAD_GET_TAG 0x10	/* EVP_CTRL_AEAD_GET_TAG */
#define OSSL_CTRL_AEAD_SET_TAG 0x11	/* EVP_CTRL_AEAD_SET_TAG */

/* Sonames in order of preference. */
static const char *const sonames[] = { "libcrypto.so.3", "libcrypto.so.1.1" };

static struct {
	void *handle;
	const char *(*OpenSSL_version)(int type);
	EVP_CIPHER_CTX *(*EVP_CIPHER_CTX_new)(void);
	void (*EVP_CIPHER_CTX_free)(EVP_CIPHER_CTX *ctx);
	int (*EVP_CipherInit_ex)(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher,
				 ENGINE *impl, const unsigned char *key,
				 const unsigned char *iv, int enc);
	int (*EVP_EncryptUpdate)(EVP_CIPHER_CTX *ctx, unsigned char *out,
				 int *outl, const unsigned char *in, int inl);
	int (*EVP_DecryptUpdate)(EVP_CIPHER_CTX *ctx, unsigned char *out,
				 int *outl, const unsigned char *in, int inl);
	int (*EVP_EncryptFinal_ex)(EVP_CIPHER_CTX *ctx, unsigned char *out,
				   int *outl);
	int (*EVP_DecryptFinal_ex)(EVP_CIPHER_CTX *ctx, unsigned char *out,
				   int *outl);
	int (*EVP_CIPHER_CTX_ctrl)(EVP_CIPHER_CTX *ctx, int type, int arg,
				   void *ptr);
	int (*EVP_CIPHER_CTX_set_padding)(EVP_CIPHER_CTX *ctx, int pad);
	int (*EVP_Digest)(const void *data, size_t count, unsigned char *md,
			  unsigned int *size, const EVP_MD *type, ENGINE *impl);
	/* legacy getters: may each be absent (no-chacha builds etc.) */
	const EVP_CIPHER *(*EVP_aes_128_cbc)(void);
	const EVP_CIPHER *(*EVP_aes_128_ctr)(void);
	const EVP_CIPHER *(*EVP_aes_256_gcm)(void);
	const EVP_CIPHER *(*EVP_chacha20_poly1305)(void);
	const EVP_MD *(*EVP_sha256)(void);
	/* 3.x only, optional */
	EVP_CIPHER *(*EVP_CIPHER_fetch)(OSSL_LIB_CTX *ctx, const char *name,
					const char *properties);
	EVP_MD *(*EVP_MD_fetch)(OSSL_LIB_CTX *ctx, const char *name,
				const char *properties);
} api;

/* Per algorithm: the cipher or digest, and whether a trial use worked. */
static const EVP_CIPHER *ciphers[GUEST_ALGO_COUNT];
static const EVP_MD *sha256;
static bool usable[GUEST_ALGO_COUNT];

/* dlsym NAME into *SLOT (a function pointer); returns 0 if found. */
static int resolve(void *slot, const char *name)
{
	void *p = dlsym(api.handle, name);

	memcpy(slot, &p, sizeof(p));
	return p ? 0 : -1;
}

/* The cipher for ALGO: fetched (3.x) or from the legacy getter. */
static const EVP_CIPHER *find_cipher(const char *fetch_name,
				     const EVP_CIPHER *(*getter)(void))
{
	const EVP_CIPHER *c = NULL;

	if (api.EVP_CIPHER_fetch)
		c = api.EVP_CIPHER_fetch(NULL, fetch_name, NULL);
	if (!c && getter)
		c = getter();
	return c;
}

/* Can a context be keyed for ALGO? (A 3.x fetch can succeed for an
 * algorithm no loaded provider lets us use.) */
static bool trial(enum guest_algo algo)
{
	static const unsigned char zero[GUEST_MAX_KEY + GUEST_MAX_IV];
	EVP_CIPHER_CTX *ctx;
	bool ok;

	if (algo == GUEST_SHA_256) {
		unsigned char d[GUEST_MAX_DIGEST];

		return sha256 && api.EVP_Digest(zero, 1, d, NULL, sha256,
						 NULL) == 1;
	}
	if (!ciphers[algo] || !(ctx = api.EVP_CIPHER_CTX_new()))
		return false;
	ok = api.EVP_CipherInit_ex(ctx, ciphers[algo], NULL, zero, zero, 1)
		== 1;
	api.EVP_CIPHER_CTX_free(ctx);
	return ok;
}

static enum guest_load ossl_load(struct guest_lib_info *info, char *why,
				 size_t why_bytes)
{
	const char *err = NULL;
	size_t i;

	for (i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		api.handle = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (api.handle)
			break;
		err = dlerror();
	}
	if (!api.handle) {
		backend_copy(why, why_bytes, err ? err : "not found");
		return GUEST_LOAD_ABSENT;
	}
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);

#define REQUIRE(fn) \
	do { \
		if (resolve(&api.fn, #fn) < 0) { \
			backend_copy(why, why_bytes, \
				     "missing symbol " #fn); \
			return GUEST_LOAD_BROKEN; \
		} \
	} while (0)
	REQUIRE(OpenSSL_version);
	REQUIRE(EVP_CIPHER_CTX_new);
	REQUIRE(EVP_CIPHER_CTX_free);
	REQUIRE(EVP_CipherInit_ex);
	REQUIRE(EVP_EncryptUpdate);
	REQUIRE(EVP_DecryptUpdate);
	REQUIRE(EVP_EncryptFinal_ex);
	REQUIRE(EVP_DecryptFinal_ex);
	REQUIRE(EVP_CIPHER_CTX_ctrl);
	REQUIRE(EVP_CIPHER_CTX_set_padding);
	REQUIRE(EVP_Digest);
#undef REQUIRE
	resolve(&api.EVP_aes_128_cbc, "EVP_aes_128_cbc");
	resolve(&api.EVP_aes_128_ctr, "EVP_aes_128_ctr");
	resolve(&api.EVP_aes_256_gcm, "EVP_aes_256_gcm");
	resolve(&api.EVP_chacha20_poly1305, "EVP_chacha20_poly1305");
	resolve(&api.EVP_sha256, "EVP_sha256");
	resolve(&api.EVP_CIPHER_fetch, "EVP_CIPHER_fetch");
	resolve(&api.EVP_MD_fetch, "EVP_MD_fetch");

	backend_copy(info->version, sizeof(info->version),
		     api.OpenSSL_version(OSSL_OPENSSL_VERSION));
	backend_lib_path((const void *)api.OpenSSL_version, info->path,
			 sizeof(info->path));

	ciphers[GUEST_AES_128_CBC] = find_cipher("AES-128-CBC",
						 api.EVP_aes_128_cbc);
	ciphers[GUEST_AES_128_CTR] = find_cipher("AES-128-CTR",
						 api.EVP_aes_128_ctr);
	ciphers[GUEST_AES_256_GCM] = find_cipher("AES-256-GCM",
						 api.EVP_aes_256_gcm);
	ciphers[GUEST_CHACHA20_POLY1305] =
		find_cipher("ChaCha20-Poly1305", api.EVP_chacha20_poly1305);
	if (api.EVP_MD_fetch)
		sha256 = api.EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!sha256 && api.EVP_sha256)
		sha256 = api.EVP_sha256();
	for (i = 0; i < GUEST_ALGO_COUNT; i++)
		usable[i] = trial((enum guest_algo)i);
	return GUEST_LOAD_OK;
}

static bool ossl_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && usable[algo];
}

/* Key CTX for ALGO in direction ENC (1 encrypt, 0 decrypt): no padding;
 * AEAD nonce length set explicitly. Returns 0 or -1. */
static int key_ctx(EVP_CIPHER_CTX *ctx, enum guest_algo algo, int enc,
		   const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);

	if (api.EVP_CipherInit_ex(ctx, ciphers[algo], NULL, NULL, NULL, enc)
	    != 1)
		return -1;
	if (ai->kind == GUEST_KIND_AEAD &&
	    api.EVP_CIPHER_CTX_ctrl(ctx, OSSL_CTRL_AEAD_SET_IVLEN,
				    (int)ai->iv_bytes, NULL) != 1)
		return -1;
	if (api.EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, enc) != 1)
		return -1;
	if (ai->kind == GUEST_KIND_CIPHER &&
	    api.EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
		return -1;
	return 0;
}

static int ossl_oneshot(enum guest_algo algo, enum guest_op op,
			const struct guest_oneshot *io)
{
	const struct guest_algo_info *ai = algo_info(algo);
	EVP_CIPHER_CTX *ctx;
	int enc = op == GUEST_OP_ENCRYPT;
	int outl = 0, finl = 0, rc = -1;
	int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
		      const unsigned char *, int);

	if (!ossl_supports(algo) || io->len > (size_t)(1 << 30))
		return -1;
	if (ai->kind == GUEST_KIND_HASH)
		return op == GUEST_OP_HASH &&
		       api.EVP_Digest(io->in, io->len, io->out, NULL, sha256,
				      NULL) == 1 ? 0 : -1;
	if (op == GUEST_OP_HASH || !(ctx = api.EVP_CIPHER_CTX_new()))
		return -1;
	update = enc ? api.EVP_EncryptUpdate : api.EVP_DecryptUpdate;
	if (key_ctx(ctx, algo, enc, io->key, io->iv) < 0)
		goto out;
	if (ai->kind == GUEST_KIND_AEAD) {
		if (!enc && api.EVP_CIPHER_CTX_ctrl(ctx, OSSL_CTRL_AEAD_SET_TAG,
						    (int)ai->tag_bytes,
						    io->tag) != 1)
			goto out;
		if (io->aad_bytes > 0 &&
		    update(ctx, NULL, &outl, io->aad, (int)io->aad_bytes) != 1)
			goto out;
	}
	if (update(ctx, io->out, &outl, io->in, (int)io->len) != 1 ||
	    (size_t)outl > io->len)
		goto out;
	if (enc) {
		if (api.EVP_EncryptFinal_ex(ctx, io->out + outl, &finl) != 1)
			goto out;
	} else if (api.EVP_DecryptFinal_ex(ctx, io->out + outl, &finl) != 1) {
		/* AEAD: the tag did not match */
		rc = ai->kind == GUEST_KIND_AEAD ? 1 : -1;
		goto out;
	}
	if ((size_t)outl + (size_t)finl != io->len)
		goto out;
	if (ai->kind == GUEST_KIND_AEAD && enc &&
	    api.EVP_CIPHER_CTX_ctrl(ctx, OSSL_CTRL_AEAD_GET_TAG,
				    (int)ai->tag_bytes, io->tag) != 1)
		goto out;
	rc = 0;
out:
	api.EVP_CIPHER_CTX_free(ctx);
	return rc;
}

/* A timed-path context. */
struct ossl_bulk {
	enum guest_algo algo;
	enum guest_op op;
	EVP_CIPHER_CTX *ctx;		/* ciphers */
	uint8_t iv[GUEST_MAX_IV];	/* AEAD nonce reset on every call */
};

static void *ossl_bulk_new(enum guest_algo algo, enum guest_op op,
			   const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);
	struct ossl_bulk *b;

	if (!ossl_supports(algo) ||
	    (ai->kind == GUEST_KIND_HASH) != (op == GUEST_OP_HASH))
		return NULL;
	if (!(b = calloc(1, sizeof(*b))))
		return NULL;
	b->algo = algo;
	b->op = op;
	if (ai->kind == GUEST_KIND_HASH)
		return b;
	memcpy(b->iv, iv, ai->iv_bytes);
	if (!(b->ctx = api.EVP_CIPHER_CTX_new()) ||
	    key_ctx(b->ctx, algo, op == GUEST_OP_ENCRYPT, key, iv) < 0) {
		if (b->ctx)
			api.EVP_CIPHER_CTX_free(b->ctx);
		free(b);
		return NULL;
	}
	return b;
}

/* Stream CALLS updates through the keyed context (openssl speed -evp's
 * EVP_Update_loop). */
static int run_stream(struct ossl_bulk *b, const uint8_t *in, uint8_t *out,
		      int len, uint64_t calls)
{
	int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
		      const unsigned char *, int);
	EVP_CIPHER_CTX *ctx = b->ctx;
	int outl;

	update = b->op == GUEST_OP_ENCRYPT ? api.EVP_EncryptUpdate
					   : api.EVP_DecryptUpdate;
	for (uint64_t i = 0; i < calls; i++)
		if (update(ctx, out, &outl, in, len) != 1)
			return -1;
	return 0;
}

/* CALLS complete AEAD messages with the same nonce. */
static int run_aead(struct ossl_bulk *b, const uint8_t *in, uint8_t *out,
		    int len, uint64_t calls, uint8_t *tag)
{
	int (*init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *,
		    const unsigned char *, const unsigned char *, int);
	int (*ctrl)(EVP_CIPHER_CTX *, int, int, void *);
	EVP_CIPHER_CTX *ctx = b->ctx;
	int taglen = (int)algo_info(b->algo)->tag_bytes;
	int outl, finl;

	init = api.EVP_CipherInit_ex;
	ctrl = api.EVP_CIPHER_CTX_ctrl;
	if (b->op == GUEST_OP_ENCRYPT) {
		int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
			      const unsigned char *, int) =
			api.EVP_EncryptUpdate;
		int (*final)(EVP_CIPHER_CTX *, unsigned char *, int *) =
			api.EVP_EncryptFinal_ex;

		for (uint64_t i = 0; i < calls; i++) {
			if (init(ctx, NULL, NULL, NULL, b->iv, 1) != 1 ||
			    update(ctx, NULL, &outl, guest_aead_aad,
				   GUEST_AEAD_AAD_BYTES) != 1 ||
			    update(ctx, out, &outl, in, len) != 1 ||
			    final(ctx, out + outl, &finl) != 1 ||
			    ctrl(ctx, OSSL_CTRL_AEAD_GET_TAG, taglen, tag) != 1)
				return -1;
		}
	} else {
		int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
			      const unsigned char *, int) =
			api.EVP_DecryptUpdate;
		int (*final)(EVP_CIPHER_CTX *, unsigned char *, int *) =
			api.EVP_DecryptFinal_ex;

		for (uint64_t i = 0; i < calls; i++) {
			if (init(ctx, NULL, NULL, NULL, b->iv, 0) != 1 ||
			    ctrl(ctx, OSSL_CTRL_AEAD_SET_TAG, taglen, tag) != 1 ||
			    update(ctx, NULL, &outl, guest_aead_aad,
				   GUEST_AEAD_AAD_BYTES) != 1 ||
			    update(ctx, out, &outl, in, len) != 1 ||
			    final(ctx, out + outl, &finl) != 1)
				return -1;
		}
	}
	return 0;
}

/* CALLS one-shot digests (openssl speed -evp's EVP_Digest_loop). */
static int run_hash(const uint8_t *in, size_t len, uint64_t calls,
		    uint8_t *digest)
{
	int (*digest_fn)(const void *, size_t, unsigned char *, unsigned int *,
			 const EVP_MD *, ENGINE *) = api.EVP_Digest;
	const EVP_MD *md = sha256;

	for (uint64_t i = 0; i < calls; i++)
		if (digest_fn(in, len, digest, NULL, md, NULL) != 1)
			return -1;
	return 0;
}

static int ossl_bulk_run(void *ctx, const uint8_t *in, uint8_t *out,
			 size_t len, uint64_t calls, uint8_t *aux)
{
	struct ossl_bulk *b = ctx;

	if (len > (size_t)(1 << 30))
		return -1;
	switch (algo_info(b->algo)->kind) {
	case GUEST_KIND_CIPHER:
		return run_stream(b, in, out, (int)len, calls);
	case GUEST_KIND_AEAD:
		return run_aead(b, in, out, (int)len, calls, aux);
	case GUEST_KIND_HASH:
		break;
	}
	return run_hash(in, len, calls, aux);
}

static void ossl_bulk_free(void *ctx)
{
	struct ossl_bulk *b = ctx;

	if (!b)
		return;
	if (b->ctx)
		api.EVP_CIPHER_CTX_free(b->ctx);
	free(b);
}

const struct guest_backend guest_backend_openssl = {
	.name = "openssl",
	.load = ossl_load,
	.supports = ossl_supports,
	.oneshot = ossl_oneshot,
	.bulk_new = ossl_bulk_new,
	.bulk_run = ossl_bulk_run,
	.bulk_free = ossl_bulk_free,
};
