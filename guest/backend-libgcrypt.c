/* guest/backend-libgcrypt.c - libgcrypt (GnuPG's crypto library) through
 * its gcry_cipher_* and gcry_md_* API.
 *
 * Sonames: libgcrypt.so.20 (libgcrypt 1.6 to 1.11; the ABI has been
 * stable since 1.6, 2013). Every protocol algorithm is in libgcrypt 1.8+;
 * an algorithm the library at hand lacks is found by a trial open and
 * reported unsupported.
 *
 * Nothing from gcrypt.h is used: the prototypes and constants below restate
 * the public ABI (values checked against gcrypt.h of libgcrypt 1.10.1:
 * enum gcry_cipher_algos, gcry_cipher_modes, gcry_md_algos, gcry_ctl_cmds).
 * gcry_error_t is an unsigned int whose low 16 bits are the gpg-error code
 * (libgpg-error's gpg_err_code()).
 * X25519 and Ed25519: guest/backend-libgcrypt-pk.c.
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

typedef unsigned int gcry_error_t;
typedef struct gcry_cipher_handle *gcry_cipher_hd_t;
typedef struct gcry_md_handle *gcry_md_hd_t;

/* <gcrypt.h>: enum gcry_ctl_cmds */
#define GCRYCTL_RESET 4
#define GCRYCTL_DISABLE_SECMEM 37
#define GCRYCTL_INITIALIZATION_FINISHED 38
#define GCRYCTL_DISABLE_HWF 63
/* <gcrypt.h>: enum gcry_cipher_algos */
#define GCRY_CIPHER_3DES 2
#define GCRY_CIPHER_CAST5 3
#define GCRY_CIPHER_BLOWFISH 4
#define GCRY_CIPHER_AES 7
#define GCRY_CIPHER_AES192 8
#define GCRY_CIPHER_AES256 9
#define GCRY_CIPHER_TWOFISH 10
#define GCRY_CIPHER_ARCFOUR 301
#define GCRY_CIPHER_SERPENT256 306
#define GCRY_CIPHER_CAMELLIA128 310
#define GCRY_CIPHER_CAMELLIA256 312
#define GCRY_CIPHER_SALSA20 313
#define GCRY_CIPHER_CHACHA20 316
/* <gcrypt.h>: enum gcry_cipher_modes */
#define GCRY_CIPHER_MODE_ECB 1
#define GCRY_CIPHER_MODE_CBC 3
#define GCRY_CIPHER_MODE_STREAM 4
#define GCRY_CIPHER_MODE_CTR 6
#define GCRY_CIPHER_MODE_GCM 9
#define GCRY_CIPHER_MODE_POLY1305 10
/* <gcrypt.h>: enum gcry_md_algos */
#define GCRY_MD_MD5 1
#define GCRY_MD_SHA1 2
#define GCRY_MD_SHA256 8
#define GCRY_MD_SHA512 10
#define GCRY_MD_SHA3_256 313
#define GCRY_MD_BLAKE2B_512 318
/* <gpg-error.h> (libgpg-error): GPG_ERR_CHECKSUM, a tag that does not match */
#define GPG_ERR_CHECKSUM 10

static const char *const sonames[] = { "libgcrypt.so.20" };

static struct {
	void *handle;
	const char *(*gcry_check_version)(const char *req);
	gcry_error_t (*gcry_control)(int cmd, ...);
	gcry_error_t (*gcry_cipher_open)(gcry_cipher_hd_t *h, int algo,
					 int mode, unsigned int flags);
	void (*gcry_cipher_close)(gcry_cipher_hd_t h);
	gcry_error_t (*gcry_cipher_ctl)(gcry_cipher_hd_t h, int cmd,
					void *buf, size_t len);
	gcry_error_t (*gcry_cipher_setkey)(gcry_cipher_hd_t h, const void *k,
					   size_t n);
	gcry_error_t (*gcry_cipher_setiv)(gcry_cipher_hd_t h, const void *iv,
					  size_t n);
	gcry_error_t (*gcry_cipher_setctr)(gcry_cipher_hd_t h, const void *c,
					   size_t n);
	gcry_error_t (*gcry_cipher_encrypt)(gcry_cipher_hd_t h, void *out,
					    size_t outsize, const void *in,
					    size_t inlen);
	gcry_error_t (*gcry_cipher_decrypt)(gcry_cipher_hd_t h, void *out,
					    size_t outsize, const void *in,
					    size_t inlen);
	gcry_error_t (*gcry_cipher_authenticate)(gcry_cipher_hd_t h,
						 const void *a, size_t n);
	gcry_error_t (*gcry_cipher_gettag)(gcry_cipher_hd_t h, void *tag,
					   size_t n);
	gcry_error_t (*gcry_cipher_checktag)(gcry_cipher_hd_t h,
					     const void *tag, size_t n);
	void (*gcry_md_hash_buffer)(int algo, void *digest, const void *buf,
				    size_t len);
	unsigned int (*gcry_md_get_algo_dlen)(int algo);
	gcry_error_t (*gcry_md_open)(gcry_md_hd_t *h, int algo,
				     unsigned int flags);
	void (*gcry_md_close)(gcry_md_hd_t h);
	void (*gcry_md_reset)(gcry_md_hd_t h);
	void (*gcry_md_write)(gcry_md_hd_t h, const void *buf, size_t len);
	unsigned char *(*gcry_md_read)(gcry_md_hd_t h, int algo);
} api;

/* Per algorithm: libgcrypt's cipher (or digest) and mode; 0 = none. */
static const struct { int algo, mode; } map[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = { GCRY_CIPHER_AES, GCRY_CIPHER_MODE_ECB },
	[GUEST_AES_128_CBC] = { GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC },
	[GUEST_AES_192_ECB] = { GCRY_CIPHER_AES192, GCRY_CIPHER_MODE_ECB },
	[GUEST_AES_192_CBC] = { GCRY_CIPHER_AES192, GCRY_CIPHER_MODE_CBC },
	[GUEST_AES_256_ECB] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_ECB },
	[GUEST_AES_256_CBC] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CBC },
	[GUEST_SERPENT_256_ECB] = { GCRY_CIPHER_SERPENT256,
				    GCRY_CIPHER_MODE_ECB },
	[GUEST_SERPENT_256_CBC] = { GCRY_CIPHER_SERPENT256,
				    GCRY_CIPHER_MODE_CBC },
	[GUEST_TWOFISH_256_ECB] = { GCRY_CIPHER_TWOFISH, GCRY_CIPHER_MODE_ECB },
	[GUEST_TWOFISH_256_CBC] = { GCRY_CIPHER_TWOFISH, GCRY_CIPHER_MODE_CBC },
	[GUEST_BLOWFISH_128_ECB] = { GCRY_CIPHER_BLOWFISH,
				     GCRY_CIPHER_MODE_ECB },
	[GUEST_BLOWFISH_128_CBC] = { GCRY_CIPHER_BLOWFISH,
				     GCRY_CIPHER_MODE_CBC },
	[GUEST_CAST5_128_ECB] = { GCRY_CIPHER_CAST5, GCRY_CIPHER_MODE_ECB },
	[GUEST_CAST5_128_CBC] = { GCRY_CIPHER_CAST5, GCRY_CIPHER_MODE_CBC },
	[GUEST_3DES_ECB] = { GCRY_CIPHER_3DES, GCRY_CIPHER_MODE_ECB },
	[GUEST_3DES_CBC] = { GCRY_CIPHER_3DES, GCRY_CIPHER_MODE_CBC },
	[GUEST_AES_128_CTR] = { GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CTR },
	[GUEST_AES_256_CTR] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CTR },
	[GUEST_AES_128_GCM] = { GCRY_CIPHER_AES, GCRY_CIPHER_MODE_GCM },
	[GUEST_AES_256_GCM] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM },
	[GUEST_CAMELLIA_128_CBC] = { GCRY_CIPHER_CAMELLIA128,
				     GCRY_CIPHER_MODE_CBC },
	[GUEST_CAMELLIA_256_CBC] = { GCRY_CIPHER_CAMELLIA256,
				     GCRY_CIPHER_MODE_CBC },
	[GUEST_CHACHA20] = { GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_STREAM },
	[GUEST_CHACHA20_POLY1305] = { GCRY_CIPHER_CHACHA20,
				      GCRY_CIPHER_MODE_POLY1305 },
	[GUEST_SALSA20] = { GCRY_CIPHER_SALSA20, GCRY_CIPHER_MODE_STREAM },
	[GUEST_RC4] = { GCRY_CIPHER_ARCFOUR, GCRY_CIPHER_MODE_STREAM },
	[GUEST_MD5] = { GCRY_MD_MD5, 0 },
	[GUEST_SHA_1] = { GCRY_MD_SHA1, 0 },
	[GUEST_SHA_256] = { GCRY_MD_SHA256, 0 },
	[GUEST_SHA_512] = { GCRY_MD_SHA512, 0 },
	[GUEST_SHA3_256] = { GCRY_MD_SHA3_256, 0 },
	[GUEST_BLAKE2B_512] = { GCRY_MD_BLAKE2B_512, 0 },
};

static bool usable[GUEST_ALGO_COUNT];

/* The gpg-error code of E (0 = success). */
static unsigned int code(gcry_error_t e)
{
	return e & 0xffffu;
}

/* Key H for ALGO with KEY and IV (CTR: the counter block; stream ciphers
 * and AEADs: the nonce). Returns 0 or -1. */
static int key_hd(gcry_cipher_hd_t h, enum guest_algo algo,
		  const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);

	if (code(api.gcry_cipher_setkey(h, key, ai->key_bytes)))
		return -1;
	if (ai->mode == GUEST_MODE_CTR)
		return code(api.gcry_cipher_setctr(h, iv, ai->iv_bytes)) ? -1
									  : 0;
	if (ai->iv_bytes && code(api.gcry_cipher_setiv(h, iv, ai->iv_bytes)))
		return -1;
	return 0;
}

/* A cipher handle for ALGO keyed with KEY/IV, or NULL. */
static gcry_cipher_hd_t open_hd(enum guest_algo algo, const uint8_t *key,
				const uint8_t *iv)
{
	gcry_cipher_hd_t h = NULL;

	if (code(api.gcry_cipher_open(&h, map[algo].algo, map[algo].mode, 0)))
		return NULL;
	if (key_hd(h, algo, key, iv) < 0) {
		api.gcry_cipher_close(h);
		return NULL;
	}
	return h;
}

/* Can ALGO be used? (The library may predate it, or be in FIPS mode.) */
static bool trial(enum guest_algo algo)
{
	uint8_t key[GUEST_MAX_KEY + GUEST_MAX_IV];
	gcry_cipher_hd_t h;

	/* not all-zero: libgcrypt refuses weak 3DES keys */
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	if (!map[algo].algo)
		return false;
	if (algo_info(algo)->kind == GUEST_KIND_HASH)
		return api.gcry_md_get_algo_dlen(map[algo].algo) ==
		       algo_info(algo)->digest_bytes;
	if (!(h = open_hd(algo, key, key)))
		return false;
	api.gcry_cipher_close(h);
	return true;
}

static enum guest_load gc_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;
	const char *v;

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	{
		const struct backend_symbol required[] = {
			{ &api.gcry_check_version, "gcry_check_version" },
			{ &api.gcry_control, "gcry_control" },
			{ &api.gcry_cipher_open, "gcry_cipher_open" },
			{ &api.gcry_cipher_close, "gcry_cipher_close" },
			{ &api.gcry_cipher_ctl, "gcry_cipher_ctl" },
			{ &api.gcry_cipher_setkey, "gcry_cipher_setkey" },
			{ &api.gcry_cipher_setiv, "gcry_cipher_setiv" },
			{ &api.gcry_cipher_setctr, "gcry_cipher_setctr" },
			{ &api.gcry_cipher_encrypt, "gcry_cipher_encrypt" },
			{ &api.gcry_cipher_decrypt, "gcry_cipher_decrypt" },
			{ &api.gcry_cipher_authenticate, "gcry_cipher_authenticate" },
			{ &api.gcry_cipher_gettag, "gcry_cipher_gettag" },
			{ &api.gcry_cipher_checktag, "gcry_cipher_checktag" },
			{ &api.gcry_md_hash_buffer, "gcry_md_hash_buffer" },
			{ &api.gcry_md_get_algo_dlen, "gcry_md_get_algo_dlen" },
			{ &api.gcry_md_open, "gcry_md_open" },
			{ &api.gcry_md_close, "gcry_md_close" },
			{ &api.gcry_md_reset, "gcry_md_reset" },
			{ &api.gcry_md_write, "gcry_md_write" },
			{ &api.gcry_md_read, "gcry_md_read" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	/* --nohw: must come before the first gcry_check_version, which
	 * detects the CPU's features ("all" is accepted since 1.8,
	 * src/hwfeatures.c _gcry_disable_hw_feature). */
	if (guest_nohw)
		api.gcry_control(GCRYCTL_DISABLE_HWF, "all", NULL);
	v = api.gcry_check_version(NULL);
	if (!v) {
		backend_copy(why, why_bytes, "gcry_check_version failed");
		return GUEST_LOAD_BROKEN;
	}
	api.gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	api.gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	backend_copy(info->version, sizeof(info->version), v);
	backend_lib_path((const void *)api.gcry_check_version, info->path,
			 sizeof(info->path));
	for (i = 0; i < GUEST_ALGO_COUNT; i++)
		usable[i] = trial((enum guest_algo)i);
	guest_pk_libgcrypt_load(api.handle);
	guest_kdf_libgcrypt_load(api.handle);
	guest_ec_libgcrypt_load(api.handle);
	guest_rsa_libgcrypt_load(api.handle);
	return GUEST_LOAD_OK;
}

static bool gc_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && usable[algo];
}

/* Encrypt or decrypt (ENC) LEN bytes IN -> OUT on H; in place when equal. */
static int crypt(gcry_cipher_hd_t h, int enc, uint8_t *out,
		 const uint8_t *in, size_t len)
{
	gcry_error_t (*fn)(gcry_cipher_hd_t, void *, size_t, const void *,
			   size_t) = enc ? api.gcry_cipher_encrypt
					 : api.gcry_cipher_decrypt;

	if (in == out)
		return code(fn(h, out, len, NULL, 0)) ? -1 : 0;
	return code(fn(h, out, len, in, len)) ? -1 : 0;
}

/* One AEAD message on keyed H: nonce IV, AAD, LEN bytes IN -> OUT, tag
 * produced (enc) or checked (decrypt). Returns 0, 1 (tag mismatch), -1. */
static int aead(gcry_cipher_hd_t h, enum guest_algo algo, int enc,
		const uint8_t *iv, const uint8_t *aad, size_t aad_bytes,
		const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	const struct guest_algo_info *ai = algo_info(algo);
	unsigned int c;

	if (code(api.gcry_cipher_ctl(h, GCRYCTL_RESET, NULL, 0)) ||
	    code(api.gcry_cipher_setiv(h, iv, ai->iv_bytes)) ||
	    (aad_bytes && code(api.gcry_cipher_authenticate(h, aad,
							    aad_bytes))) ||
	    crypt(h, enc, out, in, len) < 0)
		return -1;
	if (enc)
		return code(api.gcry_cipher_gettag(h, tag, ai->tag_bytes)) ? -1
									  : 0;
	c = code(api.gcry_cipher_checktag(h, tag, ai->tag_bytes));
	return c == 0 ? 0 : c == GPG_ERR_CHECKSUM ? 1 : -1;
}

/* backend_hctx release: gcry_cipher_close. */
static void gc_release(void *h)
{
	api.gcry_cipher_close(h);
}

/* backend_hctx release of a hash: gcry_md_close. */
static void gc_release_md(void *h)
{
	api.gcry_md_close(h);
}

/* The timed-path context: a struct backend_hctx whose handle is an open,
 * keyed gcry_cipher_hd_t, or for hashes an open gcry_md_hd_t. */
static void *gc_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	struct backend_hctx *b;

	if (!gc_supports(algo) ||
	    !(b = backend_hctx_new(algo, op, iv,
				   op == GUEST_OP_HASH ? gc_release_md
						       : gc_release)))
		return NULL;
	if (op == GUEST_OP_HASH) {
		/* one digest handle reused for every message (reset, write,
		 * read): gcry_md_hash_buffer would open and close one per
		 * call for the digests without a fast path (MD5, SHA3,
		 * BLAKE2b), allocating on the timed path */
		gcry_md_hd_t md = NULL;

		if (code(api.gcry_md_open(&md, map[algo].algo, 0)) || !md) {
			backend_hctx_free(b);
			return NULL;
		}
		b->handle = md;
		return b;
	}
	if (!(b->handle = open_hd(algo, key, iv))) {
		backend_hctx_free(b);
		return NULL;
	}
	return b;
}

/* One AEAD message on the handle of context CTX (see backend.h). */
static int gc_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct backend_hctx *b = ctx;

	return aead(b->handle, b->algo, b->op == GUEST_OP_ENCRYPT, b->iv, aad,
		    aad_bytes, in, out, len, tag);
}

static int gc_bulk_run(void *ctx, const uint8_t *in, uint8_t *out,
		       size_t len, uint64_t calls, uint8_t *aux)
{
	struct backend_hctx *b = ctx;
	const struct guest_algo_info *ai = algo_info(b->algo);
	int enc = b->op == GUEST_OP_ENCRYPT;

	switch (ai->kind) {
	case GUEST_KIND_CIPHER:
		for (uint64_t i = 0; i < calls; i++)
			if (crypt(b->handle, enc, out, in, len) < 0)
				return -1;
		return 0;
	case GUEST_KIND_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (aead(b->handle, b->algo, enc, b->iv, guest_aead_aad,
				 GUEST_AEAD_AAD_BYTES, in, out, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_HASH:
		break;
	}
	for (uint64_t i = 0; i < calls; i++) {
		const unsigned char *d;

		api.gcry_md_reset(b->handle);
		api.gcry_md_write(b->handle, in, len);
		if (!(d = api.gcry_md_read(b->handle, map[b->algo].algo)))
			return -1;
		memcpy(aux, d, ai->digest_bytes);
	}
	return 0;
}

/* Key setup: gcry_cipher_setkey (and the IV / counter) on the open
 * handle. */
static int gc_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct backend_hctx *b = ctx;

	if (!b->handle)
		return -1;
	for (uint64_t i = 0; i < calls; i++)
		if (key_hd(b->handle, b->algo, key, iv) < 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_libgcrypt = {
	.name = "libgcrypt",
	.load = gc_load,
	.supports = gc_supports,
	.bulk_new = gc_bulk_new,
	.bulk_run = gc_bulk_run,
	.aead = gc_aead,
	.bulk_free = backend_hctx_free,
	.rekey = gc_rekey,
	.pk = &guest_pk_libgcrypt,
	.kdf = &guest_kdf_libgcrypt,
	.ec = &guest_ec_libgcrypt,
	.rsa = &guest_rsa_libgcrypt,
};
