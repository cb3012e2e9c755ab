/* guest/backend-mbedtls.c - Mbed TLS (libmbedcrypto) through its generic
 * cipher layer (mbedtls_cipher_*, cipher.h) and message-digest layer
 * (mbedtls_md, md.h).
 *
 * Sonames, in order of preference: libmbedcrypto.so.16 (Mbed TLS 3.6 LTS),
 * libmbedcrypto.so.7 (2.28 LTS, Debian bookworm), libmbedcrypto.so.3
 * (2.16 LTS). Ciphers and digests are looked up by name
 * (mbedtls_cipher_info_from_string, mbedtls_md_info_from_string), which is
 * stable from 2.16 to 3.6 where the numeric enums are not; an algorithm
 * whose name the library does not know is reported unsupported.
 *
 * The only caller-allocated structure is mbedtls_cipher_context_t: about
 * 100 bytes on x86_64 in 2.16, 2.28 and 3.6 (cipher_info pointer, key
 * length, operation, two padding function pointers, 16-byte unprocessed
 * buffer and length, 16-byte IV and size, cipher context pointer, CMAC
 * context pointer, PSA flag); CIPHER_CTX_BYTES below gives it ample room.
 * The cipher's own context is allocated by mbedtls_cipher_setup().
 * X25519: guest/backend-mbedtls-pk.c.
 *
 * Algorithms in 2.28: AES (ECB, CBC, CTR, GCM), Blowfish, 3DES, Camellia,
 * ChaCha20, ChaCha20-Poly1305, RC4 ("ARC4-128"), MD5, SHA-1, SHA-256,
 * SHA-512 - 23 of 32. Not in Mbed TLS: Serpent, Twofish, CAST5, Salsa20,
 * BLAKE2b; SHA3-256 only from 3.5 on; Blowfish and RC4 were removed in
 * 3.0.
 *
 * Mode notes (behaviour of mbedtls_cipher_update, cipher.c 2.28/3.6): ECB
 * processes exactly one block per call, so ECB buffers are fed block by
 * block; CBC with MBEDTLS_PADDING_NONE processes whole blocks at once and
 * keeps the chaining IV in the context; CTR and the stream ciphers carry
 * their counter over. AEADs go set_iv, reset, update_ad, update, finish,
 * write_tag / check_tag, the order cipher.h documents.
 *
 * No header of Mbed TLS is used: the prototypes and constants below restate
 * its public ABI (cipher.h, md.h, version.h of 2.28 and 3.6).
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

/* mbedtls_operation_t */
#define MBEDTLS_DECRYPT 0	/* <mbedtls/cipher.h> */
#define MBEDTLS_ENCRYPT 1	/* <mbedtls/cipher.h> */
/* mbedtls_cipher_padding_t: PKCS7, ONE_AND_ZEROS, ZEROS_AND_LEN, ZEROS,
 * NONE */
#define MBEDTLS_PADDING_NONE 4	/* <mbedtls/cipher.h> */
/* MBEDTLS_ERR_CIPHER_AUTH_FAILED (<mbedtls/cipher.h>): the tag does not
 * match */
#define MBEDTLS_ERR_CIPHER_AUTH_FAILED (-0x6300)

/* Bytes allocated for one mbedtls_cipher_context_t (about 100 needed). */
#define CIPHER_CTX_BYTES 512

static const char *const sonames[] = {
	"libmbedcrypto.so.16", "libmbedcrypto.so.7", "libmbedcrypto.so.3"
};

static struct {
	void *handle;
	const void *(*cipher_info_from_string)(const char *name);
	void (*cipher_init)(void *ctx);
	void (*cipher_free)(void *ctx);
	int (*cipher_setup)(void *ctx, const void *info);
	int (*cipher_setkey)(void *ctx, const unsigned char *key,
			     int key_bitlen, int operation);
	int (*cipher_set_padding_mode)(void *ctx, int mode);
	int (*cipher_set_iv)(void *ctx, const unsigned char *iv, size_t len);
	int (*cipher_reset)(void *ctx);
	int (*cipher_update_ad)(void *ctx, const unsigned char *ad,
				size_t len);
	int (*cipher_update)(void *ctx, const unsigned char *in, size_t ilen,
			     unsigned char *out, size_t *olen);
	int (*cipher_finish)(void *ctx, unsigned char *out, size_t *olen);
	int (*cipher_write_tag)(void *ctx, unsigned char *tag, size_t len);
	int (*cipher_check_tag)(void *ctx, const unsigned char *tag,
				size_t len);
	const void *(*md_info_from_string)(const char *name);
	unsigned char (*md_get_size)(const void *info);
	int (*md)(const void *info, const unsigned char *in, size_t len,
		  unsigned char *out);
	void (*version_get_string_full)(char *out);	/* optional */
} api;

/* Mbed TLS names of the protocol algorithms (cipher.c's
 * mbedtls_cipher_definitions, md.c's md_names); NULL: not in Mbed TLS. */
static const char *const names[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = "AES-128-ECB",
	[GUEST_AES_128_CBC] = "AES-128-CBC",
	[GUEST_AES_192_ECB] = "AES-192-ECB",
	[GUEST_AES_192_CBC] = "AES-192-CBC",
	[GUEST_AES_256_ECB] = "AES-256-ECB",
	[GUEST_AES_256_CBC] = "AES-256-CBC",
	[GUEST_BLOWFISH_128_ECB] = "BLOWFISH-ECB",
	[GUEST_BLOWFISH_128_CBC] = "BLOWFISH-CBC",
	[GUEST_3DES_ECB] = "DES-EDE3-ECB",
	[GUEST_3DES_CBC] = "DES-EDE3-CBC",
	[GUEST_AES_128_CTR] = "AES-128-CTR",
	[GUEST_AES_256_CTR] = "AES-256-CTR",
	[GUEST_AES_128_GCM] = "AES-128-GCM",
	[GUEST_AES_256_GCM] = "AES-256-GCM",
	[GUEST_CAMELLIA_128_CBC] = "CAMELLIA-128-CBC",
	[GUEST_CAMELLIA_256_CBC] = "CAMELLIA-256-CBC",
	[GUEST_CHACHA20] = "CHACHA20",
	[GUEST_CHACHA20_POLY1305] = "CHACHA20-POLY1305",
	[GUEST_RC4] = "ARC4-128",
	[GUEST_MD5] = "MD5",
	[GUEST_SHA_1] = "SHA1",
	[GUEST_SHA_256] = "SHA256",
	[GUEST_SHA_512] = "SHA512",
	[GUEST_SHA3_256] = "SHA3-256",
	/* Serpent, Twofish, CAST5, Salsa20, BLAKE2b: not in Mbed TLS. */
};

/* The cipher or md info of each supported algorithm (NULL: unsupported). */
static const void *infos[GUEST_ALGO_COUNT];

static enum guest_load mb_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;
	char full[64], ver[96];

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	{
		const struct backend_symbol required[] = {
			{ &api.cipher_info_from_string, "mbedtls_cipher_info_from_string" },
			{ &api.cipher_init, "mbedtls_cipher_init" },
			{ &api.cipher_free, "mbedtls_cipher_free" },
			{ &api.cipher_setup, "mbedtls_cipher_setup" },
			{ &api.cipher_setkey, "mbedtls_cipher_setkey" },
			{ &api.cipher_set_padding_mode, "mbedtls_cipher_set_padding_mode" },
			{ &api.cipher_set_iv, "mbedtls_cipher_set_iv" },
			{ &api.cipher_reset, "mbedtls_cipher_reset" },
			{ &api.cipher_update_ad, "mbedtls_cipher_update_ad" },
			{ &api.cipher_update, "mbedtls_cipher_update" },
			{ &api.cipher_finish, "mbedtls_cipher_finish" },
			{ &api.cipher_write_tag, "mbedtls_cipher_write_tag" },
			{ &api.cipher_check_tag, "mbedtls_cipher_check_tag" },
			{ &api.md_info_from_string, "mbedtls_md_info_from_string" },
			{ &api.md_get_size, "mbedtls_md_get_size" },
			{ &api.md, "mbedtls_md" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	backend_sym(api.handle, &api.version_get_string_full,
		    "mbedtls_version_get_string_full");

	/* "Mbed TLS 2.28.3" (2.x: "mbed TLS 2.28.3"); the buffer must hold
	 * at least 18 bytes (version.h). */
	memset(full, 0, sizeof(full));
	if (api.version_get_string_full)
		api.version_get_string_full(full);
	else
		snprintf(full, sizeof(full), "Mbed TLS (%s)", sonames[i]);
	full[sizeof(full) - 1] = '\0';
	snprintf(ver, sizeof(ver), "%s", full);
	backend_copy(info->version, sizeof(info->version), ver);
	backend_lib_path((const void *)api.cipher_setup, info->path,
			 sizeof(info->path));

	for (int a = 0; a < GUEST_ALGO_COUNT; a++) {
		const struct guest_algo_info *ai = algo_info((enum guest_algo)a);

		if (!names[a])
			continue;
		if (ai->kind == GUEST_KIND_HASH) {
			const void *md = api.md_info_from_string(names[a]);

			if (md && api.md_get_size(md) == ai->digest_bytes)
				infos[a] = md;
		} else {
			infos[a] = api.cipher_info_from_string(names[a]);
		}
	}
	guest_pk_mbedtls_load(api.handle);
	guest_kdf_mbedtls_load(api.handle);
	guest_ec_mbedtls_load(api.handle);
	guest_rsa_mbedtls_load(api.handle);
	return GUEST_LOAD_OK;
}

static bool mb_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && infos[algo] != NULL;
}

/* One keyed use of a cipher. */
struct mb_ctx {
	enum guest_algo algo;
	enum guest_op op;
	uint8_t iv[GUEST_MAX_IV];	/* AEAD nonce, reset per message */
	_Alignas(16) unsigned char cipher[CIPHER_CTX_BYTES];
					/* mbedtls_cipher_context_t */
};

/* Set KEY and IV (iv_bytes; none for ECB and RC4) on the set-up context
 * of C, and reset it for a new message. Returns 0 or -1. */
static int mb_key(struct mb_ctx *c, const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(c->algo);

	if (api.cipher_setkey(c->cipher, key, (int)(ai->key_bytes * 8),
			      c->op == GUEST_OP_ENCRYPT ? MBEDTLS_ENCRYPT
							: MBEDTLS_DECRYPT) != 0)
		return -1;
	if (ai->iv_bytes) {
		memcpy(c->iv, iv, ai->iv_bytes);
		if (api.cipher_set_iv(c->cipher, iv, ai->iv_bytes) != 0)
			return -1;
	}
	return api.cipher_reset(c->cipher) == 0 ? 0 : -1;
}

static void mb_free(void *p)
{
	struct mb_ctx *c = p;

	if (!c)
		return;
	if (algo_info(c->algo)->kind != GUEST_KIND_HASH)
		api.cipher_free(c->cipher);
	free(c);
}

/* A context for OP of ALGO, keyed (ciphers), or NULL. */
static struct mb_ctx *mb_new(enum guest_algo algo, enum guest_op op,
			     const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai;
	struct mb_ctx *c;

	if (!mb_supports(algo))
		return NULL;
	ai = algo_info(algo);
	if (!backend_op_fits(algo, op))
		return NULL;
	if (!(c = calloc(1, sizeof(*c))))
		return NULL;
	c->algo = algo;
	c->op = op;
	if (op == GUEST_OP_HASH)
		return c;
	api.cipher_init(c->cipher);
	if (api.cipher_setup(c->cipher, infos[algo]) != 0 ||
	    (ai->mode == GUEST_MODE_CBC &&
	     api.cipher_set_padding_mode(c->cipher, MBEDTLS_PADDING_NONE) != 0) ||
	    mb_key(c, key, iv) < 0) {
		mb_free(c);
		return NULL;
	}
	return c;
}

/* LEN bytes of an unauthenticated cipher through C, state carried over.
 * ECB goes one block per update call (the only length Mbed TLS's ECB
 * update accepts). Returns 0 or -1. */
static int mb_crypt(struct mb_ctx *c, const uint8_t *in, uint8_t *out,
		    size_t len)
{
	const struct guest_algo_info *ai = algo_info(c->algo);
	size_t olen;

	if (ai->mode == GUEST_MODE_ECB) {
		size_t bs = ai->block_bytes;

		for (size_t off = 0; off < len; off += bs)
			if (api.cipher_update(c->cipher, in + off, bs,
					      out + off, &olen) != 0 ||
			    olen != bs)
				return -1;
		return 0;
	}
	if (api.cipher_update(c->cipher, in, len, out, &olen) != 0 ||
	    olen != len)
		return -1;
	return 0;
}

/* One AEAD message on context CTX: nonce reset, AAD, LEN bytes, then the
 * tag made (encrypt) or checked (decrypt). Returns 0, 1 (tag mismatch) or
 * -1. */
static int mb_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct mb_ctx *c = ctx;
	const struct guest_algo_info *ai = algo_info(c->algo);
	size_t olen = 0, flen = 0;
	int rc;

	if (api.cipher_set_iv(c->cipher, c->iv, ai->iv_bytes) != 0 ||
	    api.cipher_reset(c->cipher) != 0 ||
	    api.cipher_update_ad(c->cipher, aad, aad_bytes) != 0 ||
	    api.cipher_update(c->cipher, in, len, out, &olen) != 0 ||
	    api.cipher_finish(c->cipher, out + olen, &flen) != 0 ||
	    olen + flen != len)
		return -1;
	if (c->op == GUEST_OP_ENCRYPT)
		return api.cipher_write_tag(c->cipher, tag, ai->tag_bytes) == 0
		       ? 0 : -1;
	rc = api.cipher_check_tag(c->cipher, tag, ai->tag_bytes);
	return rc == 0 ? 0 : rc == MBEDTLS_ERR_CIPHER_AUTH_FAILED ? 1 : -1;
}

static void *mb_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	return mb_new(algo, op, key, iv);
}

static int mb_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct mb_ctx *c = ctx;

	switch (algo_info(c->algo)->kind) {
	case GUEST_KIND_HASH:
		for (uint64_t i = 0; i < calls; i++)
			if (api.md(infos[c->algo], in, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (mb_aead(c, guest_aead_aad, GUEST_AEAD_AAD_BYTES, in,
				    out, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_CIPHER:
		break;
	}
	for (uint64_t i = 0; i < calls; i++)
		if (mb_crypt(c, in, out, len) < 0)
			return -1;
	return 0;
}

/* Key setup: mbedtls_cipher_setkey (the key schedule of the cipher
 * context), then set_iv and reset, on the set-up context. */
static int mb_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct mb_ctx *c = ctx;

	if (algo_info(c->algo)->kind == GUEST_KIND_HASH)
		return -1;
	for (uint64_t i = 0; i < calls; i++)
		if (mb_key(c, key, iv) < 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_mbedtls = {
	.name = "mbedtls",
	.load = mb_load,
	.supports = mb_supports,
	.bulk_new = mb_bulk_new,
	.bulk_run = mb_bulk_run,
	.aead = mb_aead,
	.bulk_free = mb_free,
	.rekey = mb_rekey,
	.pk = &guest_pk_mbedtls,
	.kdf = &guest_kdf_mbedtls,
	.ec = &guest_ec_mbedtls,
	.rsa = &guest_rsa_mbedtls,
};
