/* guest/backend-libsodium.c - libsodium through its high-level API.
 *
 * Sonames: libsodium.so.23 (1.0.13 to 1.0.18 and later 1.0.x),
 * libsodium.so.26 (1.0.19+), libsodium.so.18 (1.0.0-1.0.12).
 *
 * Algorithms: ChaCha20 (IETF, 96-bit nonce: crypto_stream_chacha20_ietf),
 * ChaCha20-Poly1305 (crypto_aead_chacha20poly1305_ietf), Salsa20
 * (crypto_stream_salsa20), AES-256-GCM (crypto_aead_aes256gcm, only when
 * crypto_aead_aes256gcm_is_available(): libsodium implements it with
 * AES-NI and PCLMUL only), SHA-256, SHA-512 (crypto_hash_*), BLAKE2b-512
 * (crypto_generichash with a 64-byte output). Nothing else: libsodium has
 * no ECB/CBC block ciphers, no MD5, SHA-1 or SHA-3.
 *
 * libsodium's stream and AEAD functions are stateless one-call functions.
 * The timed path of the stream ciphers carries the stream over from call
 * to call as every other library does (guest/backend.h): the context
 * keeps the next 64-byte block counter and passes it to the _xor_ic
 * functions (initial counter), advancing it by len / 64 per call; the
 * guest streams only whole blocks there (algo_stream_block), and a call
 * that is not a whole number of blocks is refused. The stream ciphers are
 * supported only when the _ic functions exist (libsodium 1.0.12 and
 * later for ChaCha20-IETF's). The one-shot starts at counter 0.
 * Only AES-256-GCM has a key setup of its own (crypto_aead_aes256gcm_
 * beforenm expands the key into a crypto_aead_aes256gcm_state, whose size
 * crypto_aead_aes256gcm_statebytes() gives - 512 bytes in 1.0.x); the
 * timed path uses it through the _afternm functions.
 *
 * One-shot: this backend keeps its own (na_oneshot), because libsodium's
 * API is one-shot by design and cheaper than its context path: the
 * stream and AEAD functions take the raw key in every call, so a message
 * with a new key is one call (AES-256-GCM's expands the key on the stack),
 * where the generic one-shot would add the context's allocation and, for
 * AES-256-GCM, an aligned state allocation and a separate beforenm.
 *
 * No --nohw switch: libsodium picks its implementations from CPUID at
 * sodium_init() with no way to mask features.
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

static const char *const sonames[] = {
	"libsodium.so.23", "libsodium.so.26", "libsodium.so.18"
};

typedef int aead_enc_fn(unsigned char *c, unsigned char *mac,
			unsigned long long *maclen, const unsigned char *m,
			unsigned long long mlen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *nsec,
			const unsigned char *npub, const unsigned char *k);
typedef int aead_dec_fn(unsigned char *m, unsigned char *nsec,
			const unsigned char *c, unsigned long long clen,
			const unsigned char *mac, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k);
typedef int stream_fn(unsigned char *c, const unsigned char *m,
		      unsigned long long mlen, const unsigned char *n,
		      const unsigned char *k);
typedef int stream_ic32_fn(unsigned char *c, const unsigned char *m,
			   unsigned long long mlen, const unsigned char *n,
			   uint32_t ic, const unsigned char *k);
typedef int stream_ic64_fn(unsigned char *c, const unsigned char *m,
			   unsigned long long mlen, const unsigned char *n,
			   uint64_t ic, const unsigned char *k);
typedef int hash_fn(unsigned char *out, const unsigned char *in,
		    unsigned long long inlen);

static struct {
	void *handle;
	int (*sodium_init)(void);
	const char *(*sodium_version_string)(void);
	stream_fn *chacha20_ietf_xor, *salsa20_xor;
	stream_ic32_fn *chacha20_ietf_xor_ic;
	stream_ic64_fn *salsa20_xor_ic;
	aead_enc_fn *chapoly_enc, *gcm_enc;
	aead_dec_fn *chapoly_dec, *gcm_dec;
	int (*gcm_is_available)(void);
	size_t (*gcm_statebytes)(void);
	int (*gcm_beforenm)(void *state, const unsigned char *k);
	int (*gcm_enc_afternm)(unsigned char *c, unsigned char *mac,
			       unsigned long long *maclen,
			       const unsigned char *m, unsigned long long mlen,
			       const unsigned char *ad,
			       unsigned long long adlen,
			       const unsigned char *nsec,
			       const unsigned char *npub, const void *state);
	int (*gcm_dec_afternm)(unsigned char *m, unsigned char *nsec,
			       const unsigned char *c, unsigned long long clen,
			       const unsigned char *mac,
			       const unsigned char *ad,
			       unsigned long long adlen,
			       const unsigned char *npub, const void *state);
	hash_fn *sha256, *sha512;
	int (*generichash)(unsigned char *out, size_t outlen,
			   const unsigned char *in, unsigned long long inlen,
			   const unsigned char *key, size_t keylen);
} api;

static bool usable[GUEST_ALGO_COUNT];

static enum guest_load na_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	if (backend_sym(api.handle, &api.sodium_init, "sodium_init") < 0 ||
	    backend_sym(api.handle, &api.sodium_version_string,
			"sodium_version_string") < 0) {
		backend_copy(why, why_bytes, "missing symbol sodium_init");
		return GUEST_LOAD_BROKEN;
	}
	if (api.sodium_init() < 0) {
		backend_copy(why, why_bytes, "sodium_init failed");
		return GUEST_LOAD_BROKEN;
	}
	backend_copy(info->version, sizeof(info->version),
		     api.sodium_version_string());
	backend_lib_path((const void *)api.sodium_init, info->path,
			 sizeof(info->path));
#define SYM(slot, name) backend_sym(api.handle, &api.slot, name)
	SYM(chacha20_ietf_xor, "crypto_stream_chacha20_ietf_xor");
	SYM(salsa20_xor, "crypto_stream_salsa20_xor");
	SYM(chacha20_ietf_xor_ic, "crypto_stream_chacha20_ietf_xor_ic");
	SYM(salsa20_xor_ic, "crypto_stream_salsa20_xor_ic");
	SYM(chapoly_enc, "crypto_aead_chacha20poly1305_ietf_encrypt_detached");
	SYM(chapoly_dec, "crypto_aead_chacha20poly1305_ietf_decrypt_detached");
	SYM(gcm_enc, "crypto_aead_aes256gcm_encrypt_detached");
	SYM(gcm_dec, "crypto_aead_aes256gcm_decrypt_detached");
	SYM(gcm_is_available, "crypto_aead_aes256gcm_is_available");
	SYM(gcm_statebytes, "crypto_aead_aes256gcm_statebytes");
	SYM(gcm_beforenm, "crypto_aead_aes256gcm_beforenm");
	SYM(gcm_enc_afternm, "crypto_aead_aes256gcm_encrypt_detached_afternm");
	SYM(gcm_dec_afternm, "crypto_aead_aes256gcm_decrypt_detached_afternm");
	SYM(sha256, "crypto_hash_sha256");
	SYM(sha512, "crypto_hash_sha512");
	SYM(generichash, "crypto_generichash");
#undef SYM
	usable[GUEST_CHACHA20] = api.chacha20_ietf_xor &&
				 api.chacha20_ietf_xor_ic;
	usable[GUEST_SALSA20] = api.salsa20_xor && api.salsa20_xor_ic;
	usable[GUEST_CHACHA20_POLY1305] = api.chapoly_enc && api.chapoly_dec;
	usable[GUEST_AES_256_GCM] = api.gcm_enc && api.gcm_dec &&
		api.gcm_is_available && api.gcm_statebytes &&
		api.gcm_beforenm && api.gcm_enc_afternm &&
		api.gcm_dec_afternm && api.gcm_is_available() == 1;
	usable[GUEST_SHA_256] = api.sha256 != NULL;
	usable[GUEST_SHA_512] = api.sha512 != NULL;
	usable[GUEST_BLAKE2B_512] = api.generichash != NULL;
	guest_pk_libsodium_load(api.handle);
	guest_kdf_libsodium_load(api.handle);
	return GUEST_LOAD_OK;
}

static bool na_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && usable[algo];
}

/* A keyed use of an algorithm. */
struct na_ctx {
	enum guest_algo algo;
	enum guest_op op;
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV];
	void *gcm_state;	/* AES-256-GCM: expanded key, 16-aligned */
	uint64_t counter;	/* stream ciphers: next 64-byte block */
};

/* LEN bytes (whole 64-byte blocks) of stream cipher C->algo IN -> OUT from
 * the context's block counter, which then advances past them (ChaCha20's
 * is 32 bits, RFC 8439 2.3, and wraps as the libraries' do). Returns 0,
 * or -1 (also when LEN is not a whole number of blocks). */
static int na_stream(struct na_ctx *c, const uint8_t *in, uint8_t *out,
		     size_t len)
{
	int rc;

	if (len % 64 != 0)
		return -1;
	if (c->algo == GUEST_CHACHA20)
		rc = api.chacha20_ietf_xor_ic(out, in, len, c->iv,
					      (uint32_t)c->counter, c->key);
	else
		rc = api.salsa20_xor_ic(out, in, len, c->iv, c->counter,
					c->key);
	c->counter += len / 64;
	if (c->algo == GUEST_CHACHA20)
		c->counter &= UINT32_MAX;
	return rc == 0 ? 0 : -1;
}

/* Hash LEN bytes of IN into OUT. */
static int na_hash(enum guest_algo algo, const uint8_t *in, size_t len,
		   uint8_t *out)
{
	switch (algo) {
	case GUEST_SHA_256:
		return api.sha256(out, in, len) == 0 ? 0 : -1;
	case GUEST_SHA_512:
		return api.sha512(out, in, len) == 0 ? 0 : -1;
	case GUEST_BLAKE2B_512:
		return api.generichash(out, 64, in, len, NULL, 0) == 0 ? 0 : -1;
	default:
		return -1;
	}
}

/* One message of ALGO, direction ENC, with KEY/NONCE (and, for GCM, the
 * expanded STATE when not NULL). Returns 0, 1 (tag rejected) or -1. */
static int na_crypt(enum guest_algo algo, int enc, const uint8_t *key,
		    const uint8_t *nonce, const void *state,
		    const uint8_t *aad, size_t aad_bytes, const uint8_t *in,
		    uint8_t *out, size_t len, uint8_t *tag)
{
	unsigned long long maclen;

	switch (algo) {
	case GUEST_CHACHA20:
		return api.chacha20_ietf_xor(out, in, len, nonce, key) == 0 ? 0
									     : -1;
	case GUEST_SALSA20:
		return api.salsa20_xor(out, in, len, nonce, key) == 0 ? 0 : -1;
	case GUEST_CHACHA20_POLY1305:
		if (enc)
			return api.chapoly_enc(out, tag, &maclen, in, len, aad,
					       aad_bytes, NULL, nonce, key) == 0
				? 0 : -1;
		return api.chapoly_dec(out, NULL, in, len, tag, aad, aad_bytes,
				       nonce, key) == 0 ? 0 : 1;
	case GUEST_AES_256_GCM:
		if (state && enc)
			return api.gcm_enc_afternm(out, tag, &maclen, in, len,
						   aad, aad_bytes, NULL, nonce,
						   state) == 0 ? 0 : -1;
		if (state)
			return api.gcm_dec_afternm(out, NULL, in, len, tag,
						   aad, aad_bytes, nonce,
						   state) == 0 ? 0 : 1;
		if (enc)
			return api.gcm_enc(out, tag, &maclen, in, len, aad,
					   aad_bytes, NULL, nonce, key) == 0
				? 0 : -1;
		return api.gcm_dec(out, NULL, in, len, tag, aad, aad_bytes,
				   nonce, key) == 0 ? 0 : 1;
	default:
		return -1;
	}
}

static int na_oneshot(enum guest_algo algo, enum guest_op op,
		      const struct guest_oneshot *io)
{
	if (!na_supports(algo))
		return -1;
	if (algo_info(algo)->kind == GUEST_KIND_HASH)
		return op == GUEST_OP_HASH ? na_hash(algo, io->in, io->len,
						     io->out) : -1;
	if (op == GUEST_OP_HASH)
		return -1;
	return na_crypt(algo, op == GUEST_OP_ENCRYPT, io->key, io->iv, NULL,
			io->aad, io->aad_bytes, io->in, io->out, io->len,
			io->tag);
}

static void na_bulk_free(void *p)
{
	struct na_ctx *c = p;

	if (!c)
		return;
	free(c->gcm_state);
	free(c);
}

static void *na_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);
	struct na_ctx *c;

	if (!na_supports(algo) || !backend_op_fits(algo, op))
		return NULL;
	if (!(c = calloc(1, sizeof(*c))))
		return NULL;
	c->algo = algo;
	c->op = op;
	if (ai->kind == GUEST_KIND_HASH)
		return c;
	memcpy(c->key, key, ai->key_bytes);
	memcpy(c->iv, iv, ai->iv_bytes);
	if (algo == GUEST_AES_256_GCM &&
	    (posix_memalign(&c->gcm_state, 64, api.gcm_statebytes() + 64) != 0
	     || api.gcm_beforenm(c->gcm_state, key) != 0)) {
		na_bulk_free(c);
		return NULL;
	}
	return c;
}

/* One AEAD message on context CTX with the caller's AAD (see backend.h). */
static int na_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct na_ctx *c = ctx;

	return na_crypt(c->algo, c->op == GUEST_OP_ENCRYPT, c->key, c->iv,
			c->gcm_state, aad, aad_bytes, in, out, len, tag);
}

static int na_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct na_ctx *c = ctx;
	int enc = c->op == GUEST_OP_ENCRYPT;
	bool aead = algo_info(c->algo)->kind == GUEST_KIND_AEAD;

	if (c->algo == GUEST_CHACHA20 || c->algo == GUEST_SALSA20) {
		for (uint64_t i = 0; i < calls; i++)
			if (na_stream(c, in, out, len) < 0)
				return -1;
		return 0;
	}
	for (uint64_t i = 0; i < calls; i++) {
		if (c->op == GUEST_OP_HASH) {
			if (na_hash(c->algo, in, len, aux) < 0)
				return -1;
		} else if (na_crypt(c->algo, enc, c->key, c->iv, c->gcm_state,
				    aead ? guest_aead_aad : NULL,
				    aead ? GUEST_AEAD_AAD_BYTES : 0, in, out,
				    len, aux) != 0) {
			return -1;
		}
	}
	return 0;
}

/* Key setup: only AES-256-GCM has one (beforenm); the stream ciphers and
 * ChaCha20-Poly1305 take the raw key in every call. */
static int na_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct na_ctx *c = ctx;

	(void)iv;
	if (c->algo != GUEST_AES_256_GCM || !c->gcm_state)
		return 1;
	for (uint64_t i = 0; i < calls; i++)
		if (api.gcm_beforenm(c->gcm_state, key) != 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_libsodium = {
	.name = "libsodium",
	.load = na_load,
	.supports = na_supports,
	.oneshot = na_oneshot,
	.bulk_new = na_bulk_new,
	.bulk_run = na_bulk_run,
	.aead = na_aead,
	.bulk_free = na_bulk_free,
	.rekey = na_rekey,
	.pk = &guest_pk_libsodium,
	.kdf = &guest_kdf_libsodium,
};
