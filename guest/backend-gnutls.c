/* guest/backend-gnutls.c - GnuTLS (libgnutls) through its crypto API
 * (gnutls/crypto.h): gnutls_cipher_* for unauthenticated ciphers,
 * gnutls_aead_cipher_* for AEADs, gnutls_hash_fast for digests.
 *
 * Soname: libgnutls.so.30 (GnuTLS 3.4 onwards; Debian bookworm has 3.7.9).
 * Algorithms are looked up by name (gnutls_cipher_get_id,
 * gnutls_digest_get_id), and their key, IV and tag sizes checked against
 * the protocol's (gnutls_cipher_get_key_size, _get_iv_size,
 * _get_tag_size, gnutls_hash_get_len); a name the library does not know
 * is reported unsupported.
 *
 * Algorithms in 3.7: AES-CBC (128, 192, 256), 3DES-CBC, Camellia-CBC,
 * AES-GCM, ChaCha20 ("CHACHA20-32", 3.7.2+), ChaCha20-Poly1305, Salsa20
 * RC4 ("ARCFOUR-128"), MD5, SHA-1, SHA-256, SHA-512, SHA3-256 - 16 of 32
 * in 3.7.9. GnuTLS's API has no ECB and no CTR mode for AES and no
 * Serpent, Twofish, Blowfish, CAST5 or BLAKE2b; Salsa20 ("SALSA20-256",
 * 20 rounds) only when its nonce works, see below.
 *
 * Salsa20: GnuTLS 3.7.9's "SALSA20-256" ignores the nonce given to
 * gnutls_cipher_init and gnutls_cipher_set_iv (its keystream is that of
 * the all-zero nonce; found by the cross-check against Nettle and
 * libgcrypt), so it cannot do the protocol's Salsa20. load() tests this
 * (nonce_works) and reports Salsa20 unsupported when two nonces give the
 * same keystream.
 *
 * ChaCha20 ("CHACHA20-32") takes a 16-byte IV: the 32-bit little-endian
 * block counter (0 here) then the 96-bit nonce (lib/nettle/cipher.c sets
 * the counter from the first 4 bytes); the KAT checks the layout.
 *
 * AEADs: the timed path (guest/PROTOCOL.md, "Buffers": out of place, the
 * tag right after the text) goes through gnutls_aead_cipher_encrypt and
 * _decrypt (3.4+), which take exactly that layout (ciphertext followed by
 * its tag) and copy nothing. A caller whose tag lies elsewhere (the
 * known-answer tests, the cross-check) gets gnutls_aead_cipher_encryptv2
 * and _decryptv2 (3.6.10+), which work in place with the tag apart, after
 * the input is copied to the output. Without all four AEADs are reported
 * unsupported.
 *
 * All handles are allocated by GnuTLS (opaque pointers); no
 * caller-allocated structure is used. The prototypes and constants below
 * restate GnuTLS's public ABI (gnutls/crypto.h, gnutls/gnutls.h of 3.7).
 * Ed25519, X25519 and X448: guest/backend-gnutls-pk.c; P-256:
 * guest/backend-gnutls-ec.c; their key agreement (GnuTLS 3.8.2 and
 * later): guest/backend-gnutls-kx.c.
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

/* gnutls_datum_t */
struct gt_datum {
	unsigned char *data;
	unsigned int size;
};
/* giovec_t */
struct gt_iovec {
	void *iov_base;
	size_t iov_len;
};
/* GNUTLS_E_DECRYPTION_FAILED: the tag does not match */
#define GNUTLS_E_DECRYPTION_FAILED (-24)	/* <gnutls/gnutls.h> */

typedef void *gt_cipher_hd;
typedef void *gt_aead_hd;

static const char *const sonames[] = { "libgnutls.so.30" };

static struct {
	void *handle;
	const char *(*check_version)(const char *req);
	int (*cipher_get_id)(const char *name);
	size_t (*cipher_get_key_size)(int algo);
	unsigned (*cipher_get_iv_size)(int algo);
	unsigned (*cipher_get_tag_size)(int algo);
	int (*cipher_init)(gt_cipher_hd *h, int algo,
			   const struct gt_datum *key,
			   const struct gt_datum *iv);
	int (*cipher_encrypt2)(gt_cipher_hd h, const void *in, size_t inlen,
			       void *out, size_t outlen);
	int (*cipher_decrypt2)(gt_cipher_hd h, const void *in, size_t inlen,
			       void *out, size_t outlen);
	void (*cipher_deinit)(gt_cipher_hd h);
	int (*aead_cipher_init)(gt_aead_hd *h, int algo,
				const struct gt_datum *key);
	int (*aead_cipher_set_key)(gt_aead_hd h, const struct gt_datum *key);
	int (*aead_cipher_encryptv2)(gt_aead_hd h, const void *nonce,
				     size_t nonce_len,
				     const struct gt_iovec *auth, int auth_cnt,
				     const struct gt_iovec *iov, int iov_cnt,
				     void *tag, size_t *tag_size);
	int (*aead_cipher_decryptv2)(gt_aead_hd h, const void *nonce,
				     size_t nonce_len,
				     const struct gt_iovec *auth, int auth_cnt,
				     const struct gt_iovec *iov, int iov_cnt,
				     void *tag, size_t tag_size);
	int (*aead_cipher_encrypt)(gt_aead_hd h, const void *nonce,
				   size_t nonce_len, const void *auth,
				   size_t auth_len, size_t tag_size,
				   const void *ptext, size_t ptext_len,
				   void *ctext, size_t *ctext_len);
	int (*aead_cipher_decrypt)(gt_aead_hd h, const void *nonce,
				   size_t nonce_len, const void *auth,
				   size_t auth_len, size_t tag_size,
				   const void *ctext, size_t ctext_len,
				   void *ptext, size_t *ptext_len);
	void (*aead_cipher_deinit)(gt_aead_hd h);
	int (*digest_get_id)(const char *name);
	unsigned (*hash_get_len)(int algo);
	int (*hash_fast)(int algo, const void *text, size_t len, void *digest);
} api;

/* GnuTLS names of the protocol algorithms (lib/algorithms/ciphers.c,
 * lib/algorithms/mac.c); NULL: not in GnuTLS. */
static const char *const names[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_CBC] = "AES-128-CBC",
	[GUEST_AES_192_CBC] = "AES-192-CBC",
	[GUEST_AES_256_CBC] = "AES-256-CBC",
	[GUEST_3DES_CBC] = "3DES-CBC",
	[GUEST_AES_128_GCM] = "AES-128-GCM",
	[GUEST_AES_256_GCM] = "AES-256-GCM",
	[GUEST_CAMELLIA_128_CBC] = "CAMELLIA-128-CBC",
	[GUEST_CAMELLIA_256_CBC] = "CAMELLIA-256-CBC",
	[GUEST_CHACHA20] = "CHACHA20-32",
	[GUEST_CHACHA20_POLY1305] = "CHACHA20-POLY1305",
	[GUEST_SALSA20] = "SALSA20-256",
	[GUEST_RC4] = "ARCFOUR-128",
	[GUEST_MD5] = "MD5",
	[GUEST_SHA_1] = "SHA1",
	[GUEST_SHA_256] = "SHA256",
	[GUEST_SHA_512] = "SHA512",
	[GUEST_SHA3_256] = "SHA3-256",
};

/* GnuTLS algorithm id of each supported algorithm (0: unsupported). */
static int ids[GUEST_ALGO_COUNT];
/* IV bytes GnuTLS takes for each cipher (ChaCha20: 16, see above). */
static unsigned ivlens[GUEST_ALGO_COUNT];

/* Does stream cipher ID (KEY_BYTES key, IV_BYTES nonce) apply the nonce
 * given to gnutls_cipher_init? Encrypts 64 zero bytes under two nonces and
 * compares. False also when a handle cannot be made. */
static bool nonce_works(int id, size_t key_bytes, unsigned iv_bytes)
{
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV], ks[2][64];
	struct gt_datum k = { key, (unsigned)key_bytes }, v = { iv, iv_bytes };

	if (key_bytes > sizeof(key) || iv_bytes > sizeof(iv))
		return false;
	memset(key, 0x5a, sizeof(key));
	for (int n = 0; n < 2; n++) {
		gt_cipher_hd h;
		int rc;

		memset(iv, n ? 0xa5 : 0, sizeof(iv));
		memset(ks[n], 0, sizeof(ks[n]));
		if (api.cipher_init(&h, id, &k, &v) < 0)
			return false;
		rc = api.cipher_encrypt2(h, ks[n], sizeof(ks[n]), ks[n],
					 sizeof(ks[n]));
		api.cipher_deinit(h);
		if (rc < 0)
			return false;
	}
	return memcmp(ks[0], ks[1], sizeof(ks[0])) != 0;
}

/* Check ALGO's GnuTLS cipher against the protocol's sizes; sets ids[]. */
static void find_cipher(enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	int id = api.cipher_get_id(names[algo]);
	unsigned iv;

	if (id <= 0 || api.cipher_get_key_size(id) != ai->key_bytes)
		return;
	iv = api.cipher_get_iv_size(id);
	if (algo == GUEST_CHACHA20 ? iv != 16 : iv != ai->iv_bytes)
		return;
	if (ai->kind == GUEST_KIND_AEAD &&
	    (!api.aead_cipher_init || !api.aead_cipher_encryptv2 ||
	     !api.aead_cipher_encrypt || !api.aead_cipher_decrypt ||
	     !api.aead_cipher_decryptv2 || !api.aead_cipher_deinit ||
	     api.cipher_get_tag_size(id) != ai->tag_bytes))
		return;
	if (ai->mode == GUEST_MODE_STREAM && ai->iv_bytes &&
	    !nonce_works(id, ai->key_bytes, iv))
		return;
	ids[algo] = id;
	ivlens[algo] = iv;
}

static enum guest_load gt_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;
	char ver[96];

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	{
		const struct backend_symbol required[] = {
			{ &api.check_version, "gnutls_check_version" },
			{ &api.cipher_get_id, "gnutls_cipher_get_id" },
			{ &api.cipher_get_key_size, "gnutls_cipher_get_key_size" },
			{ &api.cipher_get_iv_size, "gnutls_cipher_get_iv_size" },
			{ &api.cipher_get_tag_size, "gnutls_cipher_get_tag_size" },
			{ &api.cipher_init, "gnutls_cipher_init" },
			{ &api.cipher_encrypt2, "gnutls_cipher_encrypt2" },
			{ &api.cipher_decrypt2, "gnutls_cipher_decrypt2" },
			{ &api.cipher_deinit, "gnutls_cipher_deinit" },
			{ &api.digest_get_id, "gnutls_digest_get_id" },
			{ &api.hash_get_len, "gnutls_hash_get_len" },
			{ &api.hash_fast, "gnutls_hash_fast" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	backend_sym(api.handle, &api.aead_cipher_init, "gnutls_aead_cipher_init");
	backend_sym(api.handle, &api.aead_cipher_set_key,
		    "gnutls_aead_cipher_set_key");
	backend_sym(api.handle, &api.aead_cipher_encryptv2,
		    "gnutls_aead_cipher_encryptv2");
	backend_sym(api.handle, &api.aead_cipher_decryptv2,
		    "gnutls_aead_cipher_decryptv2");
	backend_sym(api.handle, &api.aead_cipher_encrypt,
		    "gnutls_aead_cipher_encrypt");
	backend_sym(api.handle, &api.aead_cipher_decrypt,
		    "gnutls_aead_cipher_decrypt");
	backend_sym(api.handle, &api.aead_cipher_deinit,
		    "gnutls_aead_cipher_deinit");

	snprintf(ver, sizeof(ver), "GnuTLS %s", api.check_version(NULL));
	backend_copy(info->version, sizeof(info->version), ver);
	backend_lib_path((const void *)api.cipher_init, info->path,
			 sizeof(info->path));

	for (int a = 0; a < GUEST_ALGO_COUNT; a++) {
		const struct guest_algo_info *ai = algo_info((enum guest_algo)a);

		if (!names[a])
			continue;
		if (ai->kind == GUEST_KIND_HASH) {
			int id = api.digest_get_id(names[a]);

			if (id > 0 && api.hash_get_len(id) == ai->digest_bytes)
				ids[a] = id;
		} else {
			find_cipher((enum guest_algo)a);
		}
	}
	guest_pk_gnutls_load(api.handle);
	guest_kdf_gnutls_load(api.handle);
	guest_ec_gnutls_load(api.handle);
	guest_rsa_gnutls_load(api.handle);
	return GUEST_LOAD_OK;
}

static bool gt_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && ids[algo] > 0;
}

/* backend_hctx releases: gnutls_cipher_deinit, gnutls_aead_cipher_deinit. */
static void gt_release_cipher(void *h)
{
	api.cipher_deinit(h);
}

static void gt_release_aead(void *h)
{
	api.aead_cipher_deinit(h);
}

/* GnuTLS's IV for ALGO from the protocol IV into BUF (ChaCha20: counter 0
 * then nonce). Returns the datum. */
static struct gt_datum gt_iv(enum guest_algo algo, const uint8_t *iv,
			     uint8_t buf[GUEST_MAX_IV])
{
	struct gt_datum d = { buf, ivlens[algo] };

	if (algo == GUEST_CHACHA20) {
		memset(buf, 0, 4);
		memcpy(buf + 4, iv, 12);
	} else if (ivlens[algo]) {
		memcpy(buf, iv, ivlens[algo]);
	} else {
		d.data = NULL;
	}
	return d;
}

/* The timed-path context for OP of ALGO: a struct backend_hctx whose
 * handle is a keyed gnutls_cipher_hd_t (unauthenticated ciphers) or
 * gnutls_aead_cipher_hd_t (AEADs); none for hashes. NULL on error. */
static void *gt_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai;
	struct backend_hctx *c;
	struct gt_datum k, d;
	uint8_t ivbuf[GUEST_MAX_IV];
	int rc;

	if (!gt_supports(algo))
		return NULL;
	ai = algo_info(algo);
	if (!(c = backend_hctx_new(algo, op, iv,
				   ai->kind == GUEST_KIND_AEAD ? gt_release_aead
							       : gt_release_cipher)))
		return NULL;
	if (op == GUEST_OP_HASH)
		return c;
	k.data = (unsigned char *)(uintptr_t)key;
	k.size = (unsigned)ai->key_bytes;
	if (ai->kind == GUEST_KIND_AEAD) {
		rc = api.aead_cipher_init(&c->handle, ids[algo], &k);
	} else {
		d = gt_iv(algo, iv, ivbuf);
		rc = api.cipher_init(&c->handle, ids[algo], &k,
				     d.data ? &d : NULL);
	}
	if (rc < 0) {
		c->handle = NULL;
		backend_hctx_free(c);
		return NULL;
	}
	return c;
}

/* LEN bytes of an unauthenticated cipher through C, state carried over.
 * Returns 0 or -1. */
static int gt_crypt(struct backend_hctx *c, const uint8_t *in, uint8_t *out,
		    size_t len)
{
	if (c->op == GUEST_OP_ENCRYPT)
		return api.cipher_encrypt2(c->handle, in, len, out, len) < 0
		       ? -1 : 0;
	return api.cipher_decrypt2(c->handle, in, len, out, len) < 0 ? -1 : 0;
}

/* One AEAD message on context CTX: nonce, AAD, LEN bytes IN -> OUT, tag
 * made (encrypt) or checked (decrypt). With the tag right after the text
 * (TAG == OUT + LEN to encrypt, TAG == IN + LEN to decrypt: the timed
 * path's layout) out of place through gnutls_aead_cipher_encrypt /
 * _decrypt; otherwise in place in OUT (IN copied there first when it
 * differs) with the tag apart. Returns 0, 1 (tag mismatch) or -1. */
static int gt_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct backend_hctx *c = ctx;
	const struct guest_algo_info *ai = algo_info(c->algo);
	struct gt_iovec a = { (void *)(uintptr_t)aad, aad_bytes };
	struct gt_iovec m = { out, len };
	size_t tag_size = ai->tag_bytes, n;
	int enc = c->op == GUEST_OP_ENCRYPT, rc;

	if (enc && tag == out + len) {
		n = len + tag_size;
		return api.aead_cipher_encrypt(c->handle, c->iv, ai->iv_bytes,
					       aad, aad_bytes, tag_size, in,
					       len, out, &n) < 0 ||
		       n != len + tag_size ? -1 : 0;
	}
	if (!enc && tag == in + len) {
		n = len;
		rc = api.aead_cipher_decrypt(c->handle, c->iv, ai->iv_bytes,
					     aad, aad_bytes, tag_size, in,
					     len + tag_size, out, &n);
		if (rc == GNUTLS_E_DECRYPTION_FAILED)
			return 1;
		return rc == 0 && n == len ? 0 : -1;
	}
	if (in != out && len)
		memmove(out, in, len);
	if (enc)
		return api.aead_cipher_encryptv2(c->handle, c->iv, ai->iv_bytes,
						 &a, aad_bytes ? 1 : 0, &m, 1,
						 tag, &tag_size) < 0 ||
		       tag_size != ai->tag_bytes ? -1 : 0;
	rc = api.aead_cipher_decryptv2(c->handle, c->iv, ai->iv_bytes, &a,
				       aad_bytes ? 1 : 0, &m, 1, tag,
				       ai->tag_bytes);
	return rc == 0 ? 0 : rc == GNUTLS_E_DECRYPTION_FAILED ? 1 : -1;
}

static int gt_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct backend_hctx *c = ctx;

	switch (algo_info(c->algo)->kind) {
	case GUEST_KIND_HASH:
		for (uint64_t i = 0; i < calls; i++)
			if (api.hash_fast(ids[c->algo], in, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (gt_aead(c, guest_aead_aad, GUEST_AEAD_AAD_BYTES, in,
				    out, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_CIPHER:
		break;
	}
	for (uint64_t i = 0; i < calls; i++)
		if (gt_crypt(c, in, out, len) < 0)
			return -1;
	return 0;
}

/* Key setup: gnutls_aead_cipher_set_key (3.7.5+) on the AEAD handle. The
 * gnutls_cipher_* API keys only in gnutls_cipher_init, which also
 * allocates, so unauthenticated ciphers (and AEADs before 3.7.5) return 1:
 * no separate key setup to time. */
static int gt_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct backend_hctx *c = ctx;
	struct gt_datum k;

	(void)iv;
	if (!c->handle)
		return -1;
	if (algo_info(c->algo)->kind != GUEST_KIND_AEAD ||
	    !api.aead_cipher_set_key)
		return 1;
	k.data = (unsigned char *)(uintptr_t)key;
	k.size = (unsigned)algo_info(c->algo)->key_bytes;
	for (uint64_t i = 0; i < calls; i++)
		if (api.aead_cipher_set_key(c->handle, &k) < 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_gnutls = {
	.name = "gnutls",
	.load = gt_load,
	.supports = gt_supports,
	.bulk_new = gt_bulk_new,
	.bulk_run = gt_bulk_run,
	.aead = gt_aead,
	.bulk_free = backend_hctx_free,
	.rekey = gt_rekey,
	.pk = &guest_pk_gnutls,
	.kdf = &guest_kdf_gnutls,
	.ec = &guest_ec_gnutls,
	.rsa = &guest_rsa_gnutls,
};
