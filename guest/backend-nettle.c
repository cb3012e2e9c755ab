/* guest/backend-nettle.c - GNU Nettle (libnettle) through its low-level
 * functions and its "meta" descriptors.
 *
 * Sonames: libnettle.so.8 (Nettle 3.6 onwards), libnettle.so.7 (3.4-3.5),
 * libnettle.so.6 (3.2-3.3). Nettle's contexts are caller-allocated structs;
 * wherever Nettle publishes a descriptor (struct nettle_cipher,
 * nettle_aead, nettle_hash in nettle-meta.h: name, context_size, ...) the
 * context size is taken from it at run time. For the few algorithms used
 * without a descriptor the size is a generous constant, checked against the
 * struct definitions of Nettle 3.4 to 3.10 (see CTX_* below).
 *
 * Algorithms: AES (ECB, CBC, CTR, GCM), Serpent, Twofish, Blowfish, CAST5,
 * 3DES, Camellia, ChaCha20 (96-bit nonce, nettle_chacha_set_nonce96, 3.5+),
 * ChaCha20-Poly1305, Salsa20, RC4, MD5, SHA-1, SHA-256, SHA-512, SHA3-256,
 * BLAKE2b-512 (only in Nettle versions that export nettle_blake2b_512).
 * CBC and CTR use nettle_cbc_encrypt/_decrypt and nettle_ctr_crypt over
 * the block cipher, as Nettle's own cbc.h/ctr.h macros do.
 * X25519 and Ed25519 (libhogweed): guest/backend-nettle-pk.c.
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

/* nettle-types.h function types. */
typedef void nettle_set_key_func(void *ctx, const uint8_t *key);
typedef void nettle_cipher_func(const void *ctx, size_t length, uint8_t *dst,
				const uint8_t *src);
typedef void nettle_crypt_func(void *ctx, size_t length, uint8_t *dst,
			       const uint8_t *src);
typedef void nettle_hash_init_func(void *ctx);
typedef void nettle_hash_update_func(void *ctx, size_t length,
				     const uint8_t *src);
typedef void nettle_hash_digest_func(void *ctx, size_t length, uint8_t *dst);

/* nettle-meta.h descriptors (layout unchanged from Nettle 3.0 to 3.10). */
struct nettle_cipher {
	const char *name;
	unsigned context_size;
	unsigned block_size;
	unsigned key_size;
	nettle_set_key_func *set_encrypt_key;
	nettle_set_key_func *set_decrypt_key;
	nettle_cipher_func *encrypt;
	nettle_cipher_func *decrypt;
};
struct nettle_hash {
	const char *name;
	unsigned context_size;
	unsigned digest_size;
	unsigned block_size;
	nettle_hash_init_func *init;
	nettle_hash_update_func *update;
	nettle_hash_digest_func *digest;
};
struct nettle_aead {
	const char *name;
	unsigned context_size;
	unsigned block_size;
	unsigned key_size;
	unsigned nonce_size;
	unsigned digest_size;
	nettle_set_key_func *set_encrypt_key;
	nettle_set_key_func *set_decrypt_key;
	nettle_set_key_func *set_nonce;
	nettle_hash_update_func *update;
	nettle_crypt_func *encrypt;
	nettle_crypt_func *decrypt;
	nettle_hash_digest_func *digest;
};

/* Context sizes for algorithms used without a descriptor, in bytes. The
 * structs (x86_64): blowfish_ctx 4168 (s[4][256], p[18] of uint32_t),
 * des3_ctx 384 (3 x uint32_t[32]), chacha_ctx and salsa20_ctx 64
 * (uint32_t[16]), arcfour_ctx 258 (S[256], i, j) - the same from Nettle
 * 3.4 to 3.10; allocated with room to spare. */
#define CTX_BLOWFISH 8192
#define CTX_DES3 1024
#define CTX_STREAM 512

static const char *const sonames[] = {
	"libnettle.so.8", "libnettle.so.7", "libnettle.so.6"
};

static struct {
	void *handle;
	int (*version_major)(void);
	int (*version_minor)(void);
	void (*cbc_encrypt)(const void *ctx, nettle_cipher_func *f,
			    size_t block_size, uint8_t *iv, size_t length,
			    uint8_t *dst, const uint8_t *src);
	void (*cbc_decrypt)(const void *ctx, nettle_cipher_func *f,
			    size_t block_size, uint8_t *iv, size_t length,
			    uint8_t *dst, const uint8_t *src);
	void (*ctr_crypt)(const void *ctx, nettle_cipher_func *f,
			  size_t block_size, uint8_t *ctr, size_t length,
			  uint8_t *dst, const uint8_t *src);
	int (*blowfish128_set_key)(void *ctx, const uint8_t *key);
	nettle_cipher_func *blowfish_encrypt, *blowfish_decrypt;
	int (*des3_set_key)(void *ctx, const uint8_t *key);
	nettle_cipher_func *des3_encrypt, *des3_decrypt;
	void (*chacha_set_key)(void *ctx, const uint8_t *key);
	void (*chacha_set_nonce96)(void *ctx, const uint8_t *nonce);
	nettle_crypt_func *chacha_crypt;
	void (*salsa20_256_set_key)(void *ctx, const uint8_t *key);
	void (*salsa20_set_nonce)(void *ctx, const uint8_t *nonce);
	nettle_crypt_func *salsa20_crypt;
	void (*arcfour128_set_key)(void *ctx, const uint8_t *key);
	nettle_crypt_func *arcfour_crypt;
} api;

/* How each algorithm is done. */
enum nkind { NK_NONE, NK_BLOCK, NK_AEAD, NK_CHACHA, NK_SALSA, NK_RC4,
	     NK_HASH };

/* A block cipher as this file uses it (from a descriptor or built from
 * functions). */
struct nblock {
	unsigned ctx_size, block;
	int (*set_enc)(void *ctx, const uint8_t *key);
	int (*set_dec)(void *ctx, const uint8_t *key);
	nettle_cipher_func *enc, *dec;
};

static struct {
	enum nkind kind;
	struct nblock blk;			/* NK_BLOCK */
	const struct nettle_aead *aead;		/* NK_AEAD */
	const struct nettle_hash *hash;		/* NK_HASH */
	nettle_set_key_func *desc_enc_key, *desc_dec_key;	/* descriptor's */
} algos[GUEST_ALGO_COUNT];

/* Descriptor key setters return void; nblock's return 0 on success.
 * One adapter per algorithm slot would be needed to call the descriptor
 * function, so the adapters look it up by the context's algorithm through
 * this thread-unsafe "current" slot (the guest is single-threaded). */
static enum guest_algo cur_algo;

static int desc_set_enc(void *ctx, const uint8_t *key)
{
	algos[cur_algo].desc_enc_key(ctx, key);
	return 0;
}

static int desc_set_dec(void *ctx, const uint8_t *key)
{
	algos[cur_algo].desc_dec_key(ctx, key);
	return 0;
}

/* Blowfish and 3DES set_key return 1 for a good key, 0 for a weak one (the
 * key is still set); the benchmark keys are not weak. */
static int bf_set(void *ctx, const uint8_t *key)
{
	return api.blowfish128_set_key(ctx, key) ? 0 : -1;
}

static int des3_set(void *ctx, const uint8_t *key)
{
	return api.des3_set_key(ctx, key) ? 0 : -1;
}

/* Set ALGO up from the descriptor symbol DESC (a struct nettle_cipher). */
static void use_cipher(enum guest_algo algo, const char *desc)
{
	const struct nettle_cipher *c = dlsym(api.handle, desc);
	const struct guest_algo_info *ai = algo_info(algo);
	size_t block = ai->mode == GUEST_MODE_CTR ? 16 : ai->block_bytes;

	if (!c || c->block_size != block ||
	    c->key_size != algo_info(algo)->key_bytes)
		return;
	algos[algo].kind = NK_BLOCK;
	algos[algo].blk.ctx_size = c->context_size;
	algos[algo].blk.block = c->block_size;
	algos[algo].blk.set_enc = desc_set_enc;
	algos[algo].blk.set_dec = desc_set_dec;
	algos[algo].blk.enc = c->encrypt;
	algos[algo].blk.dec = c->decrypt;
	algos[algo].desc_enc_key = c->set_encrypt_key;
	algos[algo].desc_dec_key = c->set_decrypt_key;
}

/* Set a block cipher algorithm up from functions. */
static void use_funcs(enum guest_algo algo, unsigned ctx_size,
		      int (*set)(void *, const uint8_t *),
		      nettle_cipher_func *enc, nettle_cipher_func *dec)
{
	if (!enc || !dec)
		return;
	algos[algo].kind = NK_BLOCK;
	algos[algo].blk.ctx_size = ctx_size;
	algos[algo].blk.block = (unsigned)algo_info(algo)->block_bytes;	/* ECB/CBC */
	algos[algo].blk.set_enc = set;
	algos[algo].blk.set_dec = set;
	algos[algo].blk.enc = enc;
	algos[algo].blk.dec = dec;
}

static void use_aead(enum guest_algo algo, const char *desc)
{
	const struct nettle_aead *a = dlsym(api.handle, desc);

	if (a && a->nonce_size == algo_info(algo)->iv_bytes &&
	    a->digest_size == algo_info(algo)->tag_bytes &&
	    a->key_size == algo_info(algo)->key_bytes) {
		algos[algo].kind = NK_AEAD;
		algos[algo].aead = a;
	}
}

static void use_hash(enum guest_algo algo, const char *desc)
{
	const struct nettle_hash *h = dlsym(api.handle, desc);

	if (h && h->digest_size == algo_info(algo)->digest_bytes) {
		algos[algo].kind = NK_HASH;
		algos[algo].hash = h;
	}
}

static enum guest_load nt_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;
	char ver[64];

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	{
		const struct backend_symbol required[] = {
			{ &api.cbc_encrypt, "nettle_cbc_encrypt" },
			{ &api.cbc_decrypt, "nettle_cbc_decrypt" },
			{ &api.ctr_crypt, "nettle_ctr_crypt" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	backend_sym(api.handle, &api.version_major, "nettle_version_major");
	backend_sym(api.handle, &api.version_minor, "nettle_version_minor");
	backend_sym(api.handle, &api.blowfish128_set_key,
		    "nettle_blowfish128_set_key");
	backend_sym(api.handle, &api.blowfish_encrypt, "nettle_blowfish_encrypt");
	backend_sym(api.handle, &api.blowfish_decrypt, "nettle_blowfish_decrypt");
	backend_sym(api.handle, &api.des3_set_key, "nettle_des3_set_key");
	backend_sym(api.handle, &api.des3_encrypt, "nettle_des3_encrypt");
	backend_sym(api.handle, &api.des3_decrypt, "nettle_des3_decrypt");
	backend_sym(api.handle, &api.chacha_set_key, "nettle_chacha_set_key");
	backend_sym(api.handle, &api.chacha_set_nonce96,
		    "nettle_chacha_set_nonce96");
	/* chacha_crypt32 (3.7+) keeps the RFC 8439 32-bit counter; before
	 * it, chacha_crypt with a 96-bit nonce differs only after 2^32
	 * blocks (256 GiB), far beyond any buffer here. */
	if (backend_sym(api.handle, &api.chacha_crypt,
			"nettle_chacha_crypt32") < 0)
		backend_sym(api.handle, &api.chacha_crypt, "nettle_chacha_crypt");
	backend_sym(api.handle, &api.salsa20_256_set_key,
		    "nettle_salsa20_256_set_key");
	backend_sym(api.handle, &api.salsa20_set_nonce,
		    "nettle_salsa20_set_nonce");
	backend_sym(api.handle, &api.salsa20_crypt, "nettle_salsa20_crypt");
	backend_sym(api.handle, &api.arcfour128_set_key,
		    "nettle_arcfour128_set_key");
	backend_sym(api.handle, &api.arcfour_crypt, "nettle_arcfour_crypt");

	if (api.version_major && api.version_minor)
		snprintf(ver, sizeof(ver), "Nettle %d.%d", api.version_major(),
			 api.version_minor());
	else	/* before 3.1: no version functions */
		snprintf(ver, sizeof(ver), "Nettle (%s)", sonames[i]);
	backend_copy(info->version, sizeof(info->version), ver);
	backend_lib_path((const void *)api.cbc_encrypt, info->path,
			 sizeof(info->path));

	use_cipher(GUEST_AES_128_ECB, "nettle_aes128");
	use_cipher(GUEST_AES_128_CBC, "nettle_aes128");
	use_cipher(GUEST_AES_192_ECB, "nettle_aes192");
	use_cipher(GUEST_AES_192_CBC, "nettle_aes192");
	use_cipher(GUEST_AES_256_ECB, "nettle_aes256");
	use_cipher(GUEST_AES_256_CBC, "nettle_aes256");
	use_cipher(GUEST_SERPENT_256_ECB, "nettle_serpent256");
	use_cipher(GUEST_SERPENT_256_CBC, "nettle_serpent256");
	use_cipher(GUEST_TWOFISH_256_ECB, "nettle_twofish256");
	use_cipher(GUEST_TWOFISH_256_CBC, "nettle_twofish256");
	use_cipher(GUEST_CAST5_128_ECB, "nettle_cast128");
	use_cipher(GUEST_CAST5_128_CBC, "nettle_cast128");
	use_cipher(GUEST_AES_128_CTR, "nettle_aes128");
	use_cipher(GUEST_AES_256_CTR, "nettle_aes256");
	use_cipher(GUEST_CAMELLIA_128_CBC, "nettle_camellia128");
	use_cipher(GUEST_CAMELLIA_256_CBC, "nettle_camellia256");
	if (api.blowfish128_set_key) {
		use_funcs(GUEST_BLOWFISH_128_ECB, CTX_BLOWFISH, bf_set,
			  api.blowfish_encrypt, api.blowfish_decrypt);
		use_funcs(GUEST_BLOWFISH_128_CBC, CTX_BLOWFISH, bf_set,
			  api.blowfish_encrypt, api.blowfish_decrypt);
	}
	if (api.des3_set_key) {
		use_funcs(GUEST_3DES_ECB, CTX_DES3, des3_set, api.des3_encrypt,
			  api.des3_decrypt);
		use_funcs(GUEST_3DES_CBC, CTX_DES3, des3_set, api.des3_encrypt,
			  api.des3_decrypt);
	}
	use_aead(GUEST_AES_128_GCM, "nettle_gcm_aes128");
	use_aead(GUEST_AES_256_GCM, "nettle_gcm_aes256");
	use_aead(GUEST_CHACHA20_POLY1305, "nettle_chacha_poly1305");
	if (api.chacha_set_key && api.chacha_set_nonce96 && api.chacha_crypt)
		algos[GUEST_CHACHA20].kind = NK_CHACHA;
	if (api.salsa20_256_set_key && api.salsa20_set_nonce &&
	    api.salsa20_crypt)
		algos[GUEST_SALSA20].kind = NK_SALSA;
	if (api.arcfour128_set_key && api.arcfour_crypt)
		algos[GUEST_RC4].kind = NK_RC4;
	use_hash(GUEST_MD5, "nettle_md5");
	use_hash(GUEST_SHA_1, "nettle_sha1");
	use_hash(GUEST_SHA_256, "nettle_sha256");
	use_hash(GUEST_SHA_512, "nettle_sha512");
	use_hash(GUEST_SHA3_256, "nettle_sha3_256");
	use_hash(GUEST_BLAKE2B_512, "nettle_blake2b_512");
	guest_pk_nettle_load(i);
	guest_kdf_nettle_load(api.handle);
	return GUEST_LOAD_OK;
}

static bool nt_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && algos[algo].kind != NK_NONE;
}

/* The state of one keyed use of an algorithm. */
struct nt_ctx {
	enum guest_algo algo;
	enum guest_op op;
	uint8_t iv[GUEST_MAX_IV];	/* CBC IV / CTR counter, carried over;
					 * AEAD nonce, reset per message */
	void *ctx;			/* the Nettle context: in the same
					 * allocation, after this struct,
					 * 64-byte aligned */
};

/* Bytes of Nettle context ALGO needs. */
static size_t ctx_size(enum guest_algo algo)
{
	switch (algos[algo].kind) {
	case NK_BLOCK:
		return algos[algo].blk.ctx_size;
	case NK_AEAD:
		return algos[algo].aead->context_size;
	case NK_HASH:
		return algos[algo].hash->context_size;
	case NK_CHACHA:
	case NK_SALSA:
	case NK_RC4:
		return CTX_STREAM;
	case NK_NONE:
		break;
	}
	return 0;
}

/* Set the key (and IV / nonce) of C for its direction. Returns 0 or -1. */
static int nt_key(struct nt_ctx *c, const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(c->algo);
	int enc = c->op == GUEST_OP_ENCRYPT;

	cur_algo = c->algo;
	if (ai->iv_bytes)
		memcpy(c->iv, iv, ai->iv_bytes);
	switch (algos[c->algo].kind) {
	case NK_BLOCK:
		/* CTR always uses the encryption direction of the cipher */
		if (enc || ai->mode == GUEST_MODE_CTR)
			return algos[c->algo].blk.set_enc(c->ctx, key);
		return algos[c->algo].blk.set_dec(c->ctx, key);
	case NK_AEAD:
		(enc ? algos[c->algo].aead->set_encrypt_key
		     : algos[c->algo].aead->set_decrypt_key)(c->ctx, key);
		return 0;
	case NK_CHACHA:
		api.chacha_set_key(c->ctx, key);
		api.chacha_set_nonce96(c->ctx, iv);
		return 0;
	case NK_SALSA:
		api.salsa20_256_set_key(c->ctx, key);
		api.salsa20_set_nonce(c->ctx, iv);
		return 0;
	case NK_RC4:
		api.arcfour128_set_key(c->ctx, key);
		return 0;
	case NK_HASH:
	case NK_NONE:
		break;
	}
	return -1;
}

/* Create a keyed context (KEY, IV unused for hashes), or NULL. */
static struct nt_ctx *nt_new(enum guest_algo algo, enum guest_op op,
			     const uint8_t *key, const uint8_t *iv)
{
	struct nt_ctx *c;

	if (!nt_supports(algo) || !backend_op_fits(algo, op))
		return NULL;
	/* one allocation per context, the Nettle context in it (the
	 * one-shot's allocation rule, guest/PROTOCOL.md "Timing modes") */
	if (!(c = calloc(1, sizeof(*c) + 64 + ctx_size(algo))))
		return NULL;
	c->algo = algo;
	c->op = op;
	c->ctx = (void *)(((uintptr_t)(c + 1) + 63) & ~(uintptr_t)63);
	if (op != GUEST_OP_HASH && nt_key(c, key, iv) < 0) {
		free(c);
		return NULL;
	}
	return c;
}

static void nt_free(void *p)
{
	struct nt_ctx *c = p;

	free(c);
}

/* Process LEN bytes of a non-AEAD cipher on C, state carried over. */
static void nt_crypt(struct nt_ctx *c, const uint8_t *in, uint8_t *out,
		     size_t len)
{
	const struct guest_algo_info *ai = algo_info(c->algo);
	const struct nblock *b = &algos[c->algo].blk;
	int enc = c->op == GUEST_OP_ENCRYPT;

	switch (algos[c->algo].kind) {
	case NK_BLOCK:
		if (ai->mode == GUEST_MODE_ECB)
			(enc ? b->enc : b->dec)(c->ctx, len, out, in);
		else if (ai->mode == GUEST_MODE_CBC)
			(enc ? api.cbc_encrypt : api.cbc_decrypt)(
				c->ctx, enc ? b->enc : b->dec, b->block, c->iv,
				len, out, in);
		else
			api.ctr_crypt(c->ctx, b->enc, b->block, c->iv, len, out,
				      in);
		break;
	case NK_CHACHA:
		api.chacha_crypt(c->ctx, len, out, in);
		break;
	case NK_SALSA:
		api.salsa20_crypt(c->ctx, len, out, in);
		break;
	case NK_RC4:
		api.arcfour_crypt(c->ctx, len, out, in);
		break;
	default:
		break;
	}
}

/* One AEAD message on context CTX: nonce, AAD, LEN bytes, tag made
 * (encrypt) or compared (decrypt). Returns 0, 1 (tag mismatch) or -1. */
static int nt_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct nt_ctx *c = ctx;
	const struct nettle_aead *a = algos[c->algo].aead;
	uint8_t got[GUEST_MAX_TAG];

	a->set_nonce(c->ctx, c->iv);
	if (aad_bytes)
		a->update(c->ctx, aad_bytes, aad);
	if (c->op == GUEST_OP_ENCRYPT) {
		a->encrypt(c->ctx, len, out, in);
		a->digest(c->ctx, a->digest_size, tag);
		return 0;
	}
	a->decrypt(c->ctx, len, out, in);
	a->digest(c->ctx, a->digest_size, got);
	return memcmp(got, tag, a->digest_size) == 0 ? 0 : 1;
}

/* Hash LEN bytes of IN into DIGEST with context C. */
static void nt_hash(struct nt_ctx *c, const uint8_t *in, size_t len,
		    uint8_t *digest)
{
	const struct nettle_hash *h = algos[c->algo].hash;

	h->init(c->ctx);
	h->update(c->ctx, len, in);
	h->digest(c->ctx, h->digest_size, digest);
}

static void *nt_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	return nt_new(algo, op, key, iv);
}

static int nt_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct nt_ctx *c = ctx;

	if (c->op == GUEST_OP_HASH) {
		for (uint64_t i = 0; i < calls; i++)
			nt_hash(c, in, len, aux);
		return 0;
	}
	if (algos[c->algo].kind == NK_AEAD) {
		for (uint64_t i = 0; i < calls; i++)
			if (nt_aead(c, guest_aead_aad, GUEST_AEAD_AAD_BYTES, in,
				    out, len, aux) != 0)
				return -1;
		return 0;
	}
	for (uint64_t i = 0; i < calls; i++)
		nt_crypt(c, in, out, len);
	return 0;
}

/* Key setup: the algorithm's set_key (and nonce) on the context. */
static int nt_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	for (uint64_t i = 0; i < calls; i++)
		if (nt_key(ctx, key, iv) < 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_nettle = {
	.name = "nettle",
	.load = nt_load,
	.supports = nt_supports,
	.bulk_new = nt_bulk_new,
	.bulk_run = nt_bulk_run,
	.aead = nt_aead,
	.bulk_free = nt_free,
	.rekey = nt_rekey,
	.pk = &guest_pk_nettle,
	.kdf = &guest_kdf_nettle,
	.ec = &guest_ec_nettle,
	.rsa = &guest_rsa_nettle,
};
