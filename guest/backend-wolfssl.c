/* guest/backend-wolfssl.c - wolfSSL's wolfCrypt (libwolfssl) through its
 * wc_* functions.
 *
 * Sonames: libwolfssl.so.35 (Debian bookworm's 5.5.4) and libwolfssl.so.42
 * (trixie's 5.7.2, Ubuntu noble's 5.6: the same wc_* functions; their
 * contexts are measured as below, and their known answers and the
 * cross-check pass in every algorithm, public key and key derivation
 * included: t1148). The older and newer sonames of the image recipes
 * (.so.24 in bullseye, .so.32 in jammy, .so.45 in sid) are not tried:
 * untested here, they are reported absent.
 * Every entry point is optional: an algorithm whose functions the build at
 * hand does not export is reported unsupported (wolfSSL's feature set is a
 * build-time choice).
 *
 * Context sizes: wolfCrypt's contexts (Aes, Des3, Camellia, ChaCha, Arc4,
 * Blake2b) are caller-allocated structs whose size depends on the build
 * configuration (AES-NI, GCM table size, streaming GCM, async support).
 * On x86_64 wolfSSL 5.5 they are at most a few KiB (Aes about 1.1 KiB with
 * the 4-bit GCM table, 4.1 KiB more with the 8-bit one; Des3 about 0.4
 * KiB; the others under 0.5 KiB). The guest does not know the build's
 * sizes, so load() measures them: for every algorithm it runs
 * initialisation, key setup and one message in each direction on a
 * CTX_BYTES buffer filled with a canary (twice, with two canaries, so that
 * a byte written with the canary's value does not hide), takes the last
 * byte written, and from then on allocates that much rounded up to 64
 * bytes plus CTX_MARGIN (for a field that is read but was not written)
 * per context - a few KiB at most, rather than 64 KiB zeroed per
 * one-shot message. An algorithm whose context reaches past CTX_CHECKED
 * bytes is reported unsupported (AES: the library broken).
 *
 * Algorithms in Debian's 5.5.4: AES (ECB, CBC, CTR, GCM), 3DES-CBC,
 * Camellia-CBC, ChaCha20, ChaCha20-Poly1305, RC4, MD5, SHA-1, SHA-256,
 * SHA-512, SHA3-256, BLAKE2b-512 - 22 of 32. Not in wolfCrypt: Serpent,
 * Twofish, Blowfish, CAST5, Salsa20; 3DES-ECB only encrypts (no
 * wc_Des3_EcbDecrypt), so it is unsupported.
 *
 * The prototypes and constants below restate wolfCrypt's public ABI
 * (wolfssl/wolfcrypt/aes.h, des3.h, camellia.h, chacha.h,
 * chacha20_poly1305.h, arc4.h, blake2.h, hash.h, error-crypt.h of 5.5).
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

typedef unsigned char byte;
typedef unsigned int word32;

#define AES_ENCRYPTION 0	/* <wolfssl/wolfcrypt/aes.h> */
#define AES_DECRYPTION 1	/* <wolfssl/wolfcrypt/aes.h> */
#define DES_ENCRYPTION 0	/* <wolfssl/wolfcrypt/des3.h> */
#define DES_DECRYPTION 1	/* <wolfssl/wolfcrypt/des3.h> */
#define INVALID_DEVID (-2)	/* <wolfssl/wolfcrypt/types.h> */
/* error-crypt.h: tag mismatch of AES-GCM and of ChaCha20-Poly1305 */
#define AES_GCM_AUTH_E (-180)	/* <wolfssl/wolfcrypt/error-crypt.h> */
#define MAC_CMP_FAILED_E (-213)	/* <wolfssl/wolfcrypt/error-crypt.h> */

/* Bytes of the buffer load() measures a wolfCrypt context in, the most a
 * context may use, and the bytes allocated past the last one it was seen
 * to write. */
#define CTX_BYTES 65536
#define CTX_CHECKED 16384
#define CTX_MARGIN 512

static const char *const sonames[] = { "libwolfssl.so.35", "libwolfssl.so.42" };

static struct {
	void *handle;
	const char *(*lib_version)(void);
	int (*crypt_init)(void);
	int (*aes_init)(void *aes, void *heap, int dev);
	void (*aes_free)(void *aes);
	int (*aes_set_key)(void *aes, const byte *key, word32 len,
			   const byte *iv, int dir);
	int (*aes_ecb_enc)(void *aes, byte *out, const byte *in, word32 sz);
	int (*aes_ecb_dec)(void *aes, byte *out, const byte *in, word32 sz);
	int (*aes_cbc_enc)(void *aes, byte *out, const byte *in, word32 sz);
	int (*aes_cbc_dec)(void *aes, byte *out, const byte *in, word32 sz);
	int (*aes_ctr)(void *aes, byte *out, const byte *in, word32 sz);
	int (*gcm_set_key)(void *aes, const byte *key, word32 len);
	int (*gcm_enc)(void *aes, byte *out, const byte *in, word32 sz,
		       const byte *iv, word32 ivsz, byte *tag, word32 tagsz,
		       const byte *aad, word32 aadsz);
	int (*gcm_dec)(void *aes, byte *out, const byte *in, word32 sz,
		       const byte *iv, word32 ivsz, const byte *tag,
		       word32 tagsz, const byte *aad, word32 aadsz);
	int (*des3_init)(void *des, void *heap, int dev);
	void (*des3_free)(void *des);
	int (*des3_set_key)(void *des, const byte *key, const byte *iv,
			    int dir);
	int (*des3_cbc_enc)(void *des, byte *out, const byte *in, word32 sz);
	int (*des3_cbc_dec)(void *des, byte *out, const byte *in, word32 sz);
	int (*cam_set_key)(void *cam, const byte *key, word32 len,
			   const byte *iv);
	int (*cam_cbc_enc)(void *cam, byte *out, const byte *in, word32 sz);
	int (*cam_cbc_dec)(void *cam, byte *out, const byte *in, word32 sz);
	int (*chacha_set_key)(void *ctx, const byte *key, word32 len);
	int (*chacha_set_iv)(void *ctx, const byte *iv, word32 counter);
	int (*chacha_process)(void *ctx, byte *out, const byte *in,
			      word32 len);
	int (*ccp_enc)(const byte *key, const byte *iv, const byte *aad,
		       word32 aadlen, const byte *in, word32 len, byte *out,
		       byte *tag);
	int (*ccp_dec)(const byte *key, const byte *iv, const byte *aad,
		       word32 aadlen, const byte *in, word32 len,
		       const byte *tag, byte *out);
	int (*arc4_init)(void *arc4, void *heap, int dev);
	int (*arc4_set_key)(void *arc4, const byte *key, word32 len);
	int (*arc4_process)(void *arc4, byte *out, const byte *in, word32 len);
	int (*blake2b_init)(void *b, word32 digest);
	int (*blake2b_update)(void *b, const byte *in, word32 len);
	int (*blake2b_final)(void *b, byte *out, word32 len);
	int (*hash[GUEST_ALGO_COUNT])(const byte *in, word32 len, byte *out);
} api;

/* How each algorithm is done. */
enum wkind { WK_NONE, WK_AES, WK_GCM, WK_DES3, WK_CAM, WK_CHACHA, WK_CCP,
	     WK_RC4, WK_HASH, WK_BLAKE2B };
static enum wkind kinds[GUEST_ALGO_COUNT];
/* Bytes allocated for the wolfCrypt context of each algorithm (measured
 * by load(), see the top of this file). */
static size_t ctx_alloc[GUEST_ALGO_COUNT];
static size_t measure_ctx(enum guest_algo algo);

static enum guest_load ws_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;
	char ver[96];
	void *h;

	api.handle = h = backend_dlopen(sonames,
					sizeof(sonames) / sizeof(sonames[0]),
					&i, why, why_bytes);
	if (!h)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	if (backend_sym(h, &api.lib_version, "wolfSSL_lib_version") < 0 ||
	    backend_sym(h, &api.crypt_init, "wolfCrypt_Init") < 0) {
		backend_copy(why, why_bytes,
			     "missing symbol wolfSSL_lib_version/wolfCrypt_Init");
		return GUEST_LOAD_BROKEN;
	}
	if (api.crypt_init() != 0) {
		backend_copy(why, why_bytes, "wolfCrypt_Init failed");
		return GUEST_LOAD_BROKEN;
	}
	snprintf(ver, sizeof(ver), "wolfSSL %s", api.lib_version());
	backend_copy(info->version, sizeof(info->version), ver);
	backend_lib_path((const void *)api.crypt_init, info->path,
			 sizeof(info->path));

	guest_pk_wolfssl_load(h);

	guest_kdf_wolfssl_load(h);
	guest_ec_wolfssl_load(h);
	guest_rsa_wolfssl_load(h);
	backend_sym(h, &api.aes_init, "wc_AesInit");
	backend_sym(h, &api.aes_free, "wc_AesFree");
	backend_sym(h, &api.aes_set_key, "wc_AesSetKey");
	backend_sym(h, &api.aes_ecb_enc, "wc_AesEcbEncrypt");
	backend_sym(h, &api.aes_ecb_dec, "wc_AesEcbDecrypt");
	backend_sym(h, &api.aes_cbc_enc, "wc_AesCbcEncrypt");
	backend_sym(h, &api.aes_cbc_dec, "wc_AesCbcDecrypt");
	backend_sym(h, &api.aes_ctr, "wc_AesCtrEncrypt");
	if (backend_sym(h, &api.gcm_set_key, "wc_AesGcmSetKey") < 0 ||
	    backend_sym(h, &api.gcm_enc, "wc_AesGcmEncrypt") < 0 ||
	    backend_sym(h, &api.gcm_dec, "wc_AesGcmDecrypt") < 0)
		api.gcm_set_key = NULL;
	backend_sym(h, &api.des3_init, "wc_Des3Init");
	backend_sym(h, &api.des3_free, "wc_Des3Free");
	backend_sym(h, &api.des3_set_key, "wc_Des3_SetKey");
	backend_sym(h, &api.des3_cbc_enc, "wc_Des3_CbcEncrypt");
	backend_sym(h, &api.des3_cbc_dec, "wc_Des3_CbcDecrypt");
	backend_sym(h, &api.cam_set_key, "wc_CamelliaSetKey");
	backend_sym(h, &api.cam_cbc_enc, "wc_CamelliaCbcEncrypt");
	backend_sym(h, &api.cam_cbc_dec, "wc_CamelliaCbcDecrypt");
	backend_sym(h, &api.chacha_set_key, "wc_Chacha_SetKey");
	backend_sym(h, &api.chacha_set_iv, "wc_Chacha_SetIV");
	backend_sym(h, &api.chacha_process, "wc_Chacha_Process");
	backend_sym(h, &api.ccp_enc, "wc_ChaCha20Poly1305_Encrypt");
	backend_sym(h, &api.ccp_dec, "wc_ChaCha20Poly1305_Decrypt");
	backend_sym(h, &api.arc4_init, "wc_Arc4Init");
	backend_sym(h, &api.arc4_set_key, "wc_Arc4SetKey");
	backend_sym(h, &api.arc4_process, "wc_Arc4Process");
	backend_sym(h, &api.blake2b_init, "wc_InitBlake2b");
	backend_sym(h, &api.blake2b_update, "wc_Blake2bUpdate");
	backend_sym(h, &api.blake2b_final, "wc_Blake2bFinal");
	backend_sym(h, &api.hash[GUEST_MD5], "wc_Md5Hash");
	backend_sym(h, &api.hash[GUEST_SHA_1], "wc_ShaHash");
	backend_sym(h, &api.hash[GUEST_SHA_256], "wc_Sha256Hash");
	backend_sym(h, &api.hash[GUEST_SHA_512], "wc_Sha512Hash");
	backend_sym(h, &api.hash[GUEST_SHA3_256], "wc_Sha3_256Hash");

	if (api.aes_init && api.aes_set_key) {
		if (api.aes_ecb_enc && api.aes_ecb_dec)
			kinds[GUEST_AES_128_ECB] = kinds[GUEST_AES_192_ECB] =
				kinds[GUEST_AES_256_ECB] = WK_AES;
		if (api.aes_cbc_enc && api.aes_cbc_dec)
			kinds[GUEST_AES_128_CBC] = kinds[GUEST_AES_192_CBC] =
				kinds[GUEST_AES_256_CBC] = WK_AES;
		if (api.aes_ctr)
			kinds[GUEST_AES_128_CTR] = kinds[GUEST_AES_256_CTR] =
				WK_AES;
		if (api.gcm_set_key)
			kinds[GUEST_AES_128_GCM] = kinds[GUEST_AES_256_GCM] =
				WK_GCM;
	}
	if (api.des3_set_key && api.des3_cbc_enc && api.des3_cbc_dec)
		kinds[GUEST_3DES_CBC] = WK_DES3;
	if (api.cam_set_key && api.cam_cbc_enc && api.cam_cbc_dec)
		kinds[GUEST_CAMELLIA_128_CBC] = kinds[GUEST_CAMELLIA_256_CBC] =
			WK_CAM;
	if (api.chacha_set_key && api.chacha_set_iv && api.chacha_process)
		kinds[GUEST_CHACHA20] = WK_CHACHA;
	if (api.ccp_enc && api.ccp_dec)
		kinds[GUEST_CHACHA20_POLY1305] = WK_CCP;
	if (api.arc4_set_key && api.arc4_process)
		kinds[GUEST_RC4] = WK_RC4;
	if (api.blake2b_init && api.blake2b_update && api.blake2b_final)
		kinds[GUEST_BLAKE2B_512] = WK_BLAKE2B;
	for (int a = 0; a < GUEST_ALGO_COUNT; a++)
		if (api.hash[a])
			kinds[a] = WK_HASH;
	for (int a = 0; a < GUEST_ALGO_COUNT; a++) {
		if (kinds[a] == WK_NONE)
			continue;
		ctx_alloc[a] = measure_ctx((enum guest_algo)a);
		if (ctx_alloc[a] > CTX_CHECKED && kinds[a] == WK_AES) {
			backend_copy(why, why_bytes, "wolfCrypt's Aes context "
				     "is larger than the guest allows");
			return GUEST_LOAD_BROKEN;
		}
		if (ctx_alloc[a] > CTX_CHECKED)
			kinds[a] = WK_NONE;
	}
	return GUEST_LOAD_OK;
}

static bool ws_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && kinds[algo] != WK_NONE;
}

/* One keyed use of an algorithm. */
struct ws_ctx {
	enum guest_algo algo;
	enum guest_op op;
	uint8_t key[GUEST_MAX_KEY];	/* ChaCha20-Poly1305 (keyed per call) */
	uint8_t iv[GUEST_MAX_IV];	/* AEAD nonce, reset per message */
	bool inited;			/* wc_*Init done: free with wc_*Free */
	_Alignas(64) uint8_t ctx[];	/* the wolfCrypt context,
					 * ctx_alloc[algo] bytes */
};

/* wc_*Free of C's context (when initialised); C itself stays. */
static void ws_free_ctx(struct ws_ctx *c)
{
	if (!c->inited)
		return;
	if ((kinds[c->algo] == WK_AES || kinds[c->algo] == WK_GCM) &&
	    api.aes_free)
		api.aes_free(c->ctx);
	else if (kinds[c->algo] == WK_DES3 && api.des3_free)
		api.des3_free(c->ctx);
	c->inited = false;
}

static void ws_free(void *p)
{
	struct ws_ctx *c = p;

	if (!c)
		return;
	ws_free_ctx(c);
	free(c);
}

/* Set KEY and IV on C for its direction (the library's set-key call).
 * Returns 0 or -1. */
static int ws_key(struct ws_ctx *c, const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(c->algo);
	word32 klen = (word32)ai->key_bytes;
	int enc = c->op == GUEST_OP_ENCRYPT;

	if (ai->iv_bytes)
		memcpy(c->iv, iv, ai->iv_bytes);
	memcpy(c->key, key, ai->key_bytes);
	switch (kinds[c->algo]) {
	case WK_AES:	/* CTR keys the encryption direction */
		return api.aes_set_key(c->ctx, key, klen,
				       ai->iv_bytes ? iv : NULL,
				       enc || ai->mode == GUEST_MODE_CTR
				       ? AES_ENCRYPTION : AES_DECRYPTION);
	case WK_GCM:
		return api.gcm_set_key(c->ctx, key, klen);
	case WK_DES3:
		return api.des3_set_key(c->ctx, key, iv, enc ? DES_ENCRYPTION
							     : DES_DECRYPTION);
	case WK_CAM:
		return api.cam_set_key(c->ctx, key, klen, iv);
	case WK_CHACHA:
		return api.chacha_set_key(c->ctx, key, klen) != 0 ||
		       api.chacha_set_iv(c->ctx, iv, 0) != 0 ? -1 : 0;
	case WK_RC4:
		return api.arc4_set_key(c->ctx, key, klen);
	case WK_CCP:
		return 0;
	default:
		break;
	}
	return -1;
}

/* wc_*Init of C's context where the algorithm has one; sets c->inited.
 * Returns 0 or the library's error. */
static int ws_init(struct ws_ctx *c)
{
	int rc = 0;

	if (kinds[c->algo] == WK_AES || kinds[c->algo] == WK_GCM)
		rc = api.aes_init(c->ctx, NULL, INVALID_DEVID);
	else if (kinds[c->algo] == WK_DES3 && api.des3_init)
		rc = api.des3_init(c->ctx, NULL, INVALID_DEVID);
	else if (kinds[c->algo] == WK_RC4 && api.arc4_init)
		rc = api.arc4_init(c->ctx, NULL, INVALID_DEVID);
	c->inited = rc == 0;
	return rc;
}

static int ws_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux);

/* Bytes past the start of ALGO's context that initialisation, key setup
 * and one 64-byte message in each direction write, on a CTX_BYTES
 * context filled with CANARY; CTX_BYTES + 1 when that cannot be run. */
static size_t ctx_extent(enum guest_algo algo, uint8_t canary)
{
	struct ws_ctx *c = malloc(sizeof(*c) + CTX_BYTES);
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV], buf[64], tag[64];
	size_t end;

	if (!c)
		return CTX_BYTES + 1;
	memset(c, 0, sizeof(*c));
	memset(c->ctx, canary, CTX_BYTES);
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	memset(iv, 0xa0, sizeof(iv));
	memset(buf, 0, sizeof(buf));
	memset(tag, 0, sizeof(tag));
	c->algo = algo;
	c->op = algo_info(algo)->kind == GUEST_KIND_HASH ? GUEST_OP_HASH
							 : GUEST_OP_ENCRYPT;
	if (c->op == GUEST_OP_HASH) {
		ws_bulk_run(c, buf, buf, sizeof(buf), 1, tag);
	} else if (ws_init(c) == 0 && ws_key(c, key, iv) == 0) {
		ws_bulk_run(c, buf, buf, sizeof(buf), 1, tag);
		c->op = GUEST_OP_DECRYPT;
		if (ws_key(c, key, iv) == 0)	/* a bad tag is fine here */
			ws_bulk_run(c, buf, buf, sizeof(buf), 1, tag);
	} else {
		end = CTX_BYTES + 1;
		goto out;
	}
	for (end = CTX_BYTES; end > 0 && c->ctx[end - 1] == canary; end--)
		;
out:
	if (c->inited)
		ws_free_ctx(c);
	free(c);
	return end;
}

/* The bytes to allocate for ALGO's context: the most ctx_extent() saw
 * written with either of two canaries, rounded up to 64, plus
 * CTX_MARGIN; more than CTX_CHECKED when it does not fit. */
static size_t measure_ctx(enum guest_algo algo)
{
	size_t a = ctx_extent(algo, 0xa5), b = ctx_extent(algo, 0x5a);
	size_t end = a > b ? a : b;

	if (end > CTX_CHECKED)
		return CTX_CHECKED + 1;
	return (end + 63) / 64 * 64 + CTX_MARGIN;
}

/* A context for OP of ALGO, keyed, or NULL. */
static struct ws_ctx *ws_new(enum guest_algo algo, enum guest_op op,
			     const uint8_t *key, const uint8_t *iv)
{
	struct ws_ctx *c;
	int rc = 0;

	if (!ws_supports(algo) || !backend_op_fits(algo, op))
		return NULL;
	if (!(c = calloc(1, sizeof(*c) + ctx_alloc[algo])))
		return NULL;
	c->algo = algo;
	c->op = op;
	if (op == GUEST_OP_HASH)
		return c;
	rc = ws_init(c);
	if (rc != 0 || ws_key(c, key, iv) != 0) {
		ws_free(c);
		return NULL;
	}
	return c;
}

/* LEN bytes of an unauthenticated cipher through C, state carried over.
 * Returns 0 or -1. */
static int ws_crypt(struct ws_ctx *c, const uint8_t *in, uint8_t *out,
		    size_t len)
{
	const struct guest_algo_info *ai = algo_info(c->algo);
	int enc = c->op == GUEST_OP_ENCRYPT;
	word32 n = (word32)len;
	int rc = -1;

	if (len > 0xffffffffu)
		return -1;
	switch (kinds[c->algo]) {
	case WK_AES:
		if (ai->mode == GUEST_MODE_ECB)
			rc = (enc ? api.aes_ecb_enc : api.aes_ecb_dec)(
				c->ctx, out, in, n);
		else if (ai->mode == GUEST_MODE_CBC)
			rc = (enc ? api.aes_cbc_enc : api.aes_cbc_dec)(
				c->ctx, out, in, n);
		else
			rc = api.aes_ctr(c->ctx, out, in, n);
		break;
	case WK_DES3:
		rc = (enc ? api.des3_cbc_enc : api.des3_cbc_dec)(c->ctx, out,
								 in, n);
		break;
	case WK_CAM:
		rc = (enc ? api.cam_cbc_enc : api.cam_cbc_dec)(c->ctx, out,
							       in, n);
		break;
	case WK_CHACHA:
		rc = api.chacha_process(c->ctx, out, in, n);
		break;
	case WK_RC4:
		rc = api.arc4_process(c->ctx, out, in, n);
		break;
	default:
		break;
	}
	return rc == 0 ? 0 : -1;
}

/* One AEAD message on context CTX. Returns 0, 1 (tag mismatch) or -1. */
static int ws_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct ws_ctx *c = ctx;
	const struct guest_algo_info *ai = algo_info(c->algo);
	word32 n = (word32)len, na = (word32)aad_bytes;
	int rc;

	if (len > 0xffffffffu)
		return -1;
	if (kinds[c->algo] == WK_GCM) {
		if (c->op == GUEST_OP_ENCRYPT)
			return api.gcm_enc(c->ctx, out, in, n, c->iv,
					   (word32)ai->iv_bytes, tag,
					   (word32)ai->tag_bytes, aad, na) == 0
			       ? 0 : -1;
		rc = api.gcm_dec(c->ctx, out, in, n, c->iv,
				 (word32)ai->iv_bytes, tag,
				 (word32)ai->tag_bytes, aad, na);
		return rc == 0 ? 0 : rc == AES_GCM_AUTH_E ? 1 : -1;
	}
	if (c->op == GUEST_OP_ENCRYPT)
		return api.ccp_enc(c->key, c->iv, aad, na, in, n, out, tag) == 0
		       ? 0 : -1;
	rc = api.ccp_dec(c->key, c->iv, aad, na, in, n, tag, out);
	return rc == 0 ? 0 : rc == MAC_CMP_FAILED_E ? 1 : -1;
}

/* Digest of LEN bytes of IN into OUT; C is scratch for BLAKE2b. */
static int ws_hash(struct ws_ctx *c, const uint8_t *in, size_t len,
		   uint8_t *out)
{
	if (len > 0xffffffffu)
		return -1;
	if (kinds[c->algo] == WK_BLAKE2B)
		return api.blake2b_init(c->ctx, 64) != 0 ||
		       api.blake2b_update(c->ctx, in, (word32)len) != 0 ||
		       api.blake2b_final(c->ctx, out, 64) != 0 ? -1 : 0;
	return api.hash[c->algo](in, (word32)len, out) == 0 ? 0 : -1;
}

static void *ws_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	return ws_new(algo, op, key, iv);
}

static int ws_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct ws_ctx *c = ctx;

	switch (algo_info(c->algo)->kind) {
	case GUEST_KIND_HASH:
		for (uint64_t i = 0; i < calls; i++)
			if (ws_hash(c, in, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (ws_aead(c, guest_aead_aad, GUEST_AEAD_AAD_BYTES, in,
				    out, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_CIPHER:
		break;
	}
	for (uint64_t i = 0; i < calls; i++)
		if (ws_crypt(c, in, out, len) != 0)
			return -1;
	return 0;
}

/* Key setup: the algorithm's wc_*SetKey (and IV) on the context.
 * ChaCha20-Poly1305 takes the key with every message (one-shot functions
 * only): returns 1, nothing to time. */
static int ws_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct ws_ctx *c = ctx;

	if (kinds[c->algo] == WK_CCP)
		return 1;
	if (algo_info(c->algo)->kind == GUEST_KIND_HASH)
		return -1;
	for (uint64_t i = 0; i < calls; i++)
		if (ws_key(c, key, iv) != 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_wolfssl = {
	.name = "wolfssl",
	.pk = &guest_pk_wolfssl,
	.kdf = &guest_kdf_wolfssl,
	.ec = &guest_ec_wolfssl,
	.rsa = &guest_rsa_wolfssl,
	.load = ws_load,
	.supports = ws_supports,
	.bulk_new = ws_bulk_new,
	.bulk_run = ws_bulk_run,
	.aead = ws_aead,
	.bulk_free = ws_free,
	.rekey = ws_rekey,
};
