/* guest/backend-openssl.c - OpenSSL's libcrypto through the EVP API.
 *
 * Algorithms: every protocol algorithm but Serpent, Twofish and Salsa20
 * (which OpenSSL does not implement); Blowfish, CAST5 and RC4 need 3.x's
 * legacy provider (loaded here when its module is installed).
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
#include "backend-kdf.h"
#include "backend-pk.h"

/* Opaque OpenSSL types (pointers only). */
typedef struct ossl_cipher_ctx EVP_CIPHER_CTX;
typedef struct ossl_cipher EVP_CIPHER;
typedef struct ossl_md EVP_MD;
typedef struct ossl_md_ctx EVP_MD_CTX;
typedef struct ossl_engine ENGINE;
typedef struct ossl_lib_ctx OSSL_LIB_CTX;
typedef struct ossl_provider OSSL_PROVIDER;

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
	EVP_MD_CTX *(*EVP_MD_CTX_new)(void);
	void (*EVP_MD_CTX_free)(EVP_MD_CTX *ctx);
	int (*EVP_DigestInit_ex)(EVP_MD_CTX *ctx, const EVP_MD *type,
				 ENGINE *impl);
	int (*EVP_DigestUpdate)(EVP_MD_CTX *ctx, const void *d, size_t cnt);
	int (*EVP_DigestFinal_ex)(EVP_MD_CTX *ctx, unsigned char *md,
				  unsigned int *s);
	/* 3.x only, optional */
	EVP_CIPHER *(*EVP_CIPHER_fetch)(OSSL_LIB_CTX *ctx, const char *name,
					const char *properties);
	EVP_MD *(*EVP_MD_fetch)(OSSL_LIB_CTX *ctx, const char *name,
				const char *properties);
	OSSL_PROVIDER *(*OSSL_PROVIDER_load)(OSSL_LIB_CTX *ctx,
					     const char *name);
} api;

/* Per algorithm: OpenSSL's name (EVP_CIPHER_fetch / EVP_MD_fetch in 3.x)
 * and the 1.1-style getter (dlsym'ed; each may be absent in a build
 * configured without that algorithm). */
static const struct {
	const char *fetch;
	const char *getter;
} names[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = { "AES-128-ECB", "EVP_aes_128_ecb" },
	[GUEST_AES_128_CBC] = { "AES-128-CBC", "EVP_aes_128_cbc" },
	[GUEST_AES_192_ECB] = { "AES-192-ECB", "EVP_aes_192_ecb" },
	[GUEST_AES_192_CBC] = { "AES-192-CBC", "EVP_aes_192_cbc" },
	[GUEST_AES_256_ECB] = { "AES-256-ECB", "EVP_aes_256_ecb" },
	[GUEST_AES_256_CBC] = { "AES-256-CBC", "EVP_aes_256_cbc" },
	[GUEST_BLOWFISH_128_ECB] = { "BF-ECB", "EVP_bf_ecb" },
	[GUEST_BLOWFISH_128_CBC] = { "BF-CBC", "EVP_bf_cbc" },
	[GUEST_CAST5_128_ECB] = { "CAST5-ECB", "EVP_cast5_ecb" },
	[GUEST_CAST5_128_CBC] = { "CAST5-CBC", "EVP_cast5_cbc" },
	[GUEST_3DES_ECB] = { "DES-EDE3-ECB", "EVP_des_ede3_ecb" },
	[GUEST_3DES_CBC] = { "DES-EDE3-CBC", "EVP_des_ede3_cbc" },
	[GUEST_AES_128_CTR] = { "AES-128-CTR", "EVP_aes_128_ctr" },
	[GUEST_AES_256_CTR] = { "AES-256-CTR", "EVP_aes_256_ctr" },
	[GUEST_AES_128_GCM] = { "AES-128-GCM", "EVP_aes_128_gcm" },
	[GUEST_AES_256_GCM] = { "AES-256-GCM", "EVP_aes_256_gcm" },
	[GUEST_CAMELLIA_128_CBC] = { "CAMELLIA-128-CBC",
				     "EVP_camellia_128_cbc" },
	[GUEST_CAMELLIA_256_CBC] = { "CAMELLIA-256-CBC",
				     "EVP_camellia_256_cbc" },
	[GUEST_CHACHA20] = { "ChaCha20", "EVP_chacha20" },
	[GUEST_CHACHA20_POLY1305] = { "ChaCha20-Poly1305",
				      "EVP_chacha20_poly1305" },
	[GUEST_RC4] = { "RC4", "EVP_rc4" },
	[GUEST_MD5] = { "MD5", "EVP_md5" },
	[GUEST_SHA_1] = { "SHA1", "EVP_sha1" },
	[GUEST_SHA_256] = { "SHA256", "EVP_sha256" },
	[GUEST_SHA_512] = { "SHA512", "EVP_sha512" },
	[GUEST_SHA3_256] = { "SHA3-256", "EVP_sha3_256" },
	[GUEST_BLAKE2B_512] = { "BLAKE2B-512", "EVP_blake2b512" },
	/* Serpent, Twofish, Salsa20: not in OpenSSL. */
};

static const EVP_CIPHER *ciphers[GUEST_ALGO_COUNT];
static const EVP_MD *mds[GUEST_ALGO_COUNT];
static bool usable[GUEST_ALGO_COUNT];

/* dlsym NAME into *SLOT (a function pointer); returns 0 if found. */
static int resolve(void *slot, const char *name)
{
	return backend_sym(api.handle, slot, name);
}

/* The cipher or digest of ALGO: fetched (3.x) or from the legacy getter.
 * Sets ciphers[algo] or mds[algo]. */
static void find_algo(enum guest_algo algo)
{
	const void *(*getter)(void) = NULL;
	const void *p = NULL;
	bool hash = algo_info(algo)->kind == GUEST_KIND_HASH;

	if (!names[algo].fetch)
		return;
	if (hash && api.EVP_MD_fetch)
		p = api.EVP_MD_fetch(NULL, names[algo].fetch, NULL);
	else if (!hash && api.EVP_CIPHER_fetch)
		p = api.EVP_CIPHER_fetch(NULL, names[algo].fetch, NULL);
	if (!p && resolve(&getter, names[algo].getter) == 0)
		p = getter();
	if (hash)
		mds[algo] = p;
	else
		ciphers[algo] = p;
}

/* OpenSSL's IV for ALGO from the protocol's IV IV: ChaCha20 takes a
 * 16-byte IV, a 32-bit little-endian block counter (0 here) then the
 * 96-bit nonce (OpenSSL's EVP_chacha20 manual); everything else takes the
 * protocol IV as it is (NULL when the algorithm has none). */
static const uint8_t *ossl_iv(enum guest_algo algo, const uint8_t *iv,
			      uint8_t buf[16])
{
	if (algo == GUEST_CHACHA20) {
		memset(buf, 0, 4);
		memcpy(buf + 4, iv, 12);
		return buf;
	}
	return algo_info(algo)->iv_bytes ? iv : NULL;
}

static int key_ctx(EVP_CIPHER_CTX *ctx, enum guest_algo algo, int enc,
		   const uint8_t *key, const uint8_t *iv);

/* Can a context be keyed for ALGO? (A 3.x fetch can succeed for an
 * algorithm no loaded provider lets us use.) */
static bool trial(enum guest_algo algo)
{
	static const unsigned char zero[GUEST_MAX_KEY + GUEST_MAX_IV];
	EVP_CIPHER_CTX *ctx;
	bool ok;

	if (algo_info(algo)->kind == GUEST_KIND_HASH) {
		unsigned char d[GUEST_MAX_DIGEST];

		return mds[algo] && api.EVP_Digest(zero, 1, d, NULL, mds[algo],
						    NULL) == 1;
	}
	if (!ciphers[algo] || !(ctx = api.EVP_CIPHER_CTX_new()))
		return false;
	ok = key_ctx(ctx, algo, 1, zero, zero) == 0;
	api.EVP_CIPHER_CTX_free(ctx);
	return ok;
}

static enum guest_load ossl_load(struct guest_lib_info *info, char *why,
				 size_t why_bytes)
{
	size_t i;

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);

	{
		const struct backend_symbol required[] = {
			{ &api.OpenSSL_version, "OpenSSL_version" },
			{ &api.EVP_CIPHER_CTX_new, "EVP_CIPHER_CTX_new" },
			{ &api.EVP_CIPHER_CTX_free, "EVP_CIPHER_CTX_free" },
			{ &api.EVP_CipherInit_ex, "EVP_CipherInit_ex" },
			{ &api.EVP_EncryptUpdate, "EVP_EncryptUpdate" },
			{ &api.EVP_DecryptUpdate, "EVP_DecryptUpdate" },
			{ &api.EVP_EncryptFinal_ex, "EVP_EncryptFinal_ex" },
			{ &api.EVP_DecryptFinal_ex, "EVP_DecryptFinal_ex" },
			{ &api.EVP_CIPHER_CTX_ctrl, "EVP_CIPHER_CTX_ctrl" },
			{ &api.EVP_CIPHER_CTX_set_padding, "EVP_CIPHER_CTX_set_padding" },
			{ &api.EVP_Digest, "EVP_Digest" },
			{ &api.EVP_MD_CTX_new, "EVP_MD_CTX_new" },
			{ &api.EVP_MD_CTX_free, "EVP_MD_CTX_free" },
			{ &api.EVP_DigestInit_ex, "EVP_DigestInit_ex" },
			{ &api.EVP_DigestUpdate, "EVP_DigestUpdate" },
			{ &api.EVP_DigestFinal_ex, "EVP_DigestFinal_ex" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	resolve(&api.EVP_CIPHER_fetch, "EVP_CIPHER_fetch");
	resolve(&api.EVP_MD_fetch, "EVP_MD_fetch");
	resolve(&api.OSSL_PROVIDER_load, "OSSL_PROVIDER_load");

	backend_copy(info->version, sizeof(info->version),
		     api.OpenSSL_version(OSSL_OPENSSL_VERSION));
	backend_lib_path((const void *)api.OpenSSL_version, info->path,
			 sizeof(info->path));

	/* 3.x: Blowfish, CAST5 and RC4 live in the legacy provider. Loading
	 * any provider explicitly stops the default one from being loaded
	 * implicitly, so load both (default first: it is preferred). A
	 * missing legacy module only makes those algorithms unsupported. */
	if (api.OSSL_PROVIDER_load) {
		api.OSSL_PROVIDER_load(NULL, "default");
		api.OSSL_PROVIDER_load(NULL, "legacy");
	}
	for (i = 0; i < GUEST_ALGO_COUNT; i++) {
		find_algo((enum guest_algo)i);
		usable[i] = trial((enum guest_algo)i);
	}
	guest_pk_openssl_load(api.handle);
	guest_kdf_openssl_load(api.handle);
	guest_ec_openssl_load(api.handle);
	guest_rsa_openssl_load(api.handle);
	guest_pq_openssl_load(api.handle);
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
	uint8_t ivbuf[16];

	if (api.EVP_CipherInit_ex(ctx, ciphers[algo], NULL, NULL, NULL, enc)
	    != 1)
		return -1;
	if (ai->kind == GUEST_KIND_AEAD &&
	    api.EVP_CIPHER_CTX_ctrl(ctx, OSSL_CTRL_AEAD_SET_IVLEN,
				    (int)ai->iv_bytes, NULL) != 1)
		return -1;
	if (api.EVP_CipherInit_ex(ctx, NULL, NULL, key,
				  ossl_iv(algo, iv, ivbuf), enc) != 1)
		return -1;
	if (ai->kind == GUEST_KIND_CIPHER && ai->block_bytes > 1 &&
	    api.EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
		return -1;
	return 0;
}

/* backend_hctx release: EVP_CIPHER_CTX_free. */
static void ossl_release(void *ctx)
{
	api.EVP_CIPHER_CTX_free(ctx);
}

/* backend_hctx release: EVP_MD_CTX_free. */
static void ossl_release_md(void *ctx)
{
	api.EVP_MD_CTX_free(ctx);
}

/* The timed-path context: a struct backend_hctx whose handle is a keyed
 * EVP_CIPHER_CTX, or for hashes an EVP_MD_CTX reused for every digest
 * (so that the timed path allocates nothing, guest/PROTOCOL.md "Timing
 * modes"; EVP_Digest would allocate and free a context per call). */
static void *ossl_bulk_new(enum guest_algo algo, enum guest_op op,
			   const uint8_t *key, const uint8_t *iv)
{
	struct backend_hctx *b;
	EVP_CIPHER_CTX *ctx;

	if (!ossl_supports(algo) ||
	    !(b = backend_hctx_new(algo, op, iv,
				   op == GUEST_OP_HASH ? ossl_release_md
						       : ossl_release)))
		return NULL;
	if (op == GUEST_OP_HASH) {
		if (!(b->handle = api.EVP_MD_CTX_new())) {
			backend_hctx_free(b);
			return NULL;
		}
		return b;
	}
	if (!(ctx = api.EVP_CIPHER_CTX_new())) {
		backend_hctx_free(b);
		return NULL;
	}
	b->handle = ctx;
	if (key_ctx(ctx, algo, op == GUEST_OP_ENCRYPT, key, iv) < 0) {
		backend_hctx_free(b);
		return NULL;
	}
	return b;
}

/* Stream CALLS updates through the keyed context (openssl speed -evp's
 * EVP_Update_loop). */
static int run_stream(struct backend_hctx *b, const uint8_t *in, uint8_t *out,
		      int len, uint64_t calls)
{
	int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
		      const unsigned char *, int);
	EVP_CIPHER_CTX *ctx = b->handle;
	int outl;

	update = b->op == GUEST_OP_ENCRYPT ? api.EVP_EncryptUpdate
					   : api.EVP_DecryptUpdate;
	for (uint64_t i = 0; i < calls; i++)
		if (update(ctx, out, &outl, in, len) != 1)
			return -1;
	return 0;
}

/* One AEAD message on the keyed context of B: nonce reset, (decrypt: the
 * expected tag), AAD, LEN bytes, final, (encrypt: the tag). Returns 0, 1
 * (tag mismatch) or -1. */
static int ossl_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		     const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct backend_hctx *b = ctx;
	EVP_CIPHER_CTX *c = b->handle;
	int taglen = (int)algo_info(b->algo)->tag_bytes;
	int enc = b->op == GUEST_OP_ENCRYPT;
	int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *,
		      const unsigned char *, int);
	int outl, finl;

	if (len > (size_t)(1 << 30) || aad_bytes > (size_t)(1 << 30))
		return -1;
	update = enc ? api.EVP_EncryptUpdate : api.EVP_DecryptUpdate;
	if (api.EVP_CipherInit_ex(c, NULL, NULL, NULL, b->iv, enc) != 1 ||
	    (!enc && api.EVP_CIPHER_CTX_ctrl(c, OSSL_CTRL_AEAD_SET_TAG,
					     taglen, tag) != 1) ||
	    (aad_bytes &&
	     update(c, NULL, &outl, aad, (int)aad_bytes) != 1) ||
	    update(c, out, &outl, in, (int)len) != 1 ||
	    (size_t)outl > len)
		return -1;
	if (enc)
		return api.EVP_EncryptFinal_ex(c, out + outl, &finl) != 1 ||
		       api.EVP_CIPHER_CTX_ctrl(c, OSSL_CTRL_AEAD_GET_TAG,
					       taglen, tag) != 1 ? -1 : 0;
	/* the decryption's final fails exactly when the tag does not match */
	return api.EVP_DecryptFinal_ex(c, out + outl, &finl) == 1 ? 0 : 1;
}

/* CALLS complete digests of LEN bytes on the reused context MDCTX: init,
 * update, final, as an application hashing one message after another
 * does. */
static int run_hash(EVP_MD_CTX *mdctx, enum guest_algo algo,
		    const uint8_t *in, size_t len, uint64_t calls,
		    uint8_t *digest)
{
	const EVP_MD *md = mds[algo];

	for (uint64_t i = 0; i < calls; i++)
		if (api.EVP_DigestInit_ex(mdctx, md, NULL) != 1 ||
		    api.EVP_DigestUpdate(mdctx, in, len) != 1 ||
		    api.EVP_DigestFinal_ex(mdctx, digest, NULL) != 1)
			return -1;
	return 0;
}

static int ossl_bulk_run(void *ctx, const uint8_t *in, uint8_t *out,
			 size_t len, uint64_t calls, uint8_t *aux)
{
	struct backend_hctx *b = ctx;

	if (len > (size_t)(1 << 30))
		return -1;
	switch (algo_info(b->algo)->kind) {
	case GUEST_KIND_CIPHER:
		return run_stream(b, in, out, (int)len, calls);
	case GUEST_KIND_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (ossl_aead(b, guest_aead_aad, GUEST_AEAD_AAD_BYTES,
				      in, out, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_HASH:
		break;
	}
	return run_hash(b->handle, b->algo, in, len, calls, aux);
}

/* Key setup: EVP_CipherInit_ex with a new key and IV on the keyed
 * context, as an application re-keys a context it keeps. */
static int ossl_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		      uint64_t calls)
{
	struct backend_hctx *b = ctx;
	int enc = b->op == GUEST_OP_ENCRYPT;
	uint8_t ivbuf[16];
	const uint8_t *oiv;

	if (!b->handle)
		return -1;
	oiv = ossl_iv(b->algo, iv, ivbuf);
	for (uint64_t i = 0; i < calls; i++)
		if (api.EVP_CipherInit_ex(b->handle, NULL, NULL, key, oiv, enc)
		    != 1)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_openssl = {
	.name = "openssl",
	.load = ossl_load,
	.supports = ossl_supports,
	.bulk_new = ossl_bulk_new,
	.bulk_run = ossl_bulk_run,
	.aead = ossl_aead,
	.bulk_free = backend_hctx_free,
	.rekey = ossl_rekey,
	.pk = &guest_pk_openssl,
	.kdf = &guest_kdf_openssl,
	.ec = &guest_ec_openssl,
	.rsa = &guest_rsa_openssl,
	.pq = &guest_pq_openssl,
};
