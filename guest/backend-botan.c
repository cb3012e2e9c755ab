/* guest/backend-botan.c - Botan through its C FFI (botan/ffi.h):
 * botan_cipher_* for CBC, CTR, the stream ciphers and the AEADs,
 * botan_block_cipher_* for ECB, botan_hash_* for digests.
 *
 * Sonames, in order of preference: libbotan-3.so.N (Botan 3.N; Botan 3's
 * ABI revision is its minor version, so every N from 31 down to 0 is
 * tried), libbotan-2.so.19 (2.19, Debian bookworm and trixie),
 * libbotan-2.so.18, libbotan-2.so.17 (Debian bullseye).
 *
 * Algorithms are looked up by Botan's names (the table below; block
 * ciphers "AES-128", "Serpent", "Twofish", "Blowfish", "CAST-128",
 * "TripleDES", "Camellia-128"; modes "/CBC/NoPadding", "/CTR", "/GCM";
 * "ChaCha(20)", "ChaCha20Poly1305", "Salsa20", "RC4"; hashes "MD5",
 * "SHA-1", "SHA-256", "SHA-512", "SHA-3(256)", "BLAKE2b(512)"), and each is
 * tried at load: a name the library does not know, or whose key, nonce,
 * block, tag or digest size is not the protocol's, is reported
 * unsupported. Every protocol algorithm is in Botan 2.19.
 *
 * ECB: Botan's cipher-mode layer has no ECB ("AES-128/ECB" gives
 * BOTAN_FFI_ERROR_NOT_IMPLEMENTED in 2.19), so ECB is the block cipher
 * object's encrypt_blocks / decrypt_blocks over the whole buffer.
 *
 * Streaming (CBC, CTR, stream ciphers): every call is one
 * botan_cipher_update with BOTAN_CIPHER_UPDATE_FLAG_FINAL over the whole
 * buffer. Without the flag the FFI takes only whole multiples of the
 * mode's update granularity (256 bytes for AES-CBC in 2.19, so a 16-byte
 * buffer is not processed at all) and walks stream modes, whose
 * granularity is 1, byte by byte (about a tenth of the speed). In 2.19 a
 * final update leaves the chaining value / key stream position where it
 * was, so the next call carries on as the protocol's timed path wants;
 * load() checks that (one 128-byte update must equal two 64-byte ones)
 * and reports an algorithm whose library does not carry on unsupported.
 *
 * AEADs: per message set_associated_data, start(nonce), one final update.
 * The FFI wants ciphertext and tag in one buffer (output of encryption,
 * input of decryption), so a message goes through the context's scratch
 * buffer (len + 16 bytes); a rejected tag is BOTAN_FFI_ERROR_BAD_MAC.
 *
 * --nohw: Botan 3 clears the CPUID bits named in the environment variable
 * BOTAN_CLEAR_CPUID, which main() sets; Botan 2 (2.19 included) reads no
 * such variable and has no other switch, so it is measured as it is.
 *
 * All objects are allocated by Botan (opaque handles); nothing of
 * botan/ffi.h is included: the prototypes and constants below restate the
 * FFI's public ABI (ffi.h of Botan 2.19; unchanged in 3.x for what is used
 * here).
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend-kdf.h"
#include "backend-pk.h"

typedef struct bo_cipher *botan_cipher_t;
typedef struct bo_block *botan_block_cipher_t;
typedef struct bo_hash *botan_hash_t;

/* ffi.h: botan_cipher_init flags, botan_cipher_update flag, errors */
#define BOTAN_CIPHER_INIT_FLAG_ENCRYPT 0	/* <botan/ffi.h> */
#define BOTAN_CIPHER_INIT_FLAG_DECRYPT 1	/* <botan/ffi.h> */
#define BOTAN_CIPHER_UPDATE_FLAG_FINAL 1u	/* <botan/ffi.h> */
#define BOTAN_FFI_ERROR_BAD_MAC (-2)	/* <botan/ffi.h> */

/* Botan 3 sonames tried: libbotan-3.so.BO3_MAX_MINOR down to .0. */
#define BO3_MAX_MINOR 31
#define BO_SONAMES (BO3_MAX_MINOR + 1 + 3)

static struct {
	void *handle;
	const char *(*version_string)(void);
	int (*cipher_init)(botan_cipher_t *c, const char *name, uint32_t flags);
	int (*cipher_set_key)(botan_cipher_t c, const uint8_t *key, size_t len);
	int (*cipher_start)(botan_cipher_t c, const uint8_t *nonce, size_t len);
	int (*cipher_set_ad)(botan_cipher_t c, const uint8_t *ad, size_t len);
	int (*cipher_update)(botan_cipher_t c, uint32_t flags, uint8_t *out,
			     size_t out_size, size_t *written,
			     const uint8_t *in, size_t in_size,
			     size_t *consumed);
	int (*cipher_valid_nonce_length)(botan_cipher_t c, size_t len);
	int (*cipher_get_tag_length)(botan_cipher_t c, size_t *len);
	int (*cipher_destroy)(botan_cipher_t c);
	int (*block_init)(botan_block_cipher_t *b, const char *name);
	int (*block_set_key)(botan_block_cipher_t b, const uint8_t *key,
			     size_t len);
	int (*block_size)(botan_block_cipher_t b);
	int (*block_encrypt)(botan_block_cipher_t b, const uint8_t *in,
			     uint8_t *out, size_t blocks);
	int (*block_decrypt)(botan_block_cipher_t b, const uint8_t *in,
			     uint8_t *out, size_t blocks);
	int (*block_destroy)(botan_block_cipher_t b);
	int (*hash_init)(botan_hash_t *h, const char *name, uint32_t flags);
	int (*hash_output_length)(botan_hash_t h, size_t *len);
	int (*hash_update)(botan_hash_t h, const uint8_t *in, size_t len);
	int (*hash_final)(botan_hash_t h, uint8_t *out);
	int (*hash_destroy)(botan_hash_t h);
} api;

/* How an algorithm is used. */
enum bo_kind { BK_NONE, BK_BLOCK, BK_MODE, BK_AEAD, BK_HASH };

/* Botan's name of each protocol algorithm (block cipher for ECB, cipher
 * mode, or hash); NULL: not tried. */
static const char *const names[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = "AES-128",
	[GUEST_AES_128_CBC] = "AES-128/CBC/NoPadding",
	[GUEST_AES_192_ECB] = "AES-192",
	[GUEST_AES_192_CBC] = "AES-192/CBC/NoPadding",
	[GUEST_AES_256_ECB] = "AES-256",
	[GUEST_AES_256_CBC] = "AES-256/CBC/NoPadding",
	[GUEST_SERPENT_256_ECB] = "Serpent",
	[GUEST_SERPENT_256_CBC] = "Serpent/CBC/NoPadding",
	[GUEST_TWOFISH_256_ECB] = "Twofish",
	[GUEST_TWOFISH_256_CBC] = "Twofish/CBC/NoPadding",
	[GUEST_BLOWFISH_128_ECB] = "Blowfish",
	[GUEST_BLOWFISH_128_CBC] = "Blowfish/CBC/NoPadding",
	[GUEST_CAST5_128_ECB] = "CAST-128",
	[GUEST_CAST5_128_CBC] = "CAST-128/CBC/NoPadding",
	[GUEST_3DES_ECB] = "TripleDES",
	[GUEST_3DES_CBC] = "TripleDES/CBC/NoPadding",
	[GUEST_AES_128_CTR] = "AES-128/CTR",
	[GUEST_AES_256_CTR] = "AES-256/CTR",
	[GUEST_AES_128_GCM] = "AES-128/GCM",
	[GUEST_AES_256_GCM] = "AES-256/GCM",
	[GUEST_CAMELLIA_128_CBC] = "Camellia-128/CBC/NoPadding",
	[GUEST_CAMELLIA_256_CBC] = "Camellia-256/CBC/NoPadding",
	[GUEST_CHACHA20] = "ChaCha(20)",
	[GUEST_CHACHA20_POLY1305] = "ChaCha20Poly1305",
	[GUEST_SALSA20] = "Salsa20",
	[GUEST_RC4] = "RC4",
	[GUEST_MD5] = "MD5",
	[GUEST_SHA_1] = "SHA-1",
	[GUEST_SHA_256] = "SHA-256",
	[GUEST_SHA_512] = "SHA-512",
	[GUEST_SHA3_256] = "SHA-3(256)",
	[GUEST_BLAKE2B_512] = "BLAKE2b(512)",
};

/* What load() found usable for each algorithm. */
static enum bo_kind kinds[GUEST_ALGO_COUNT];

/* The kind ALGO would have if the library has it. */
static enum bo_kind kind_of(enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);

	if (ai->kind == GUEST_KIND_HASH)
		return BK_HASH;
	if (ai->kind == GUEST_KIND_AEAD)
		return BK_AEAD;
	return ai->mode == GUEST_MODE_ECB ? BK_BLOCK : BK_MODE;
}

/* backend_hctx releases, one per object type. */
static void bo_release_cipher(void *h)
{
	api.cipher_destroy(h);
}

static void bo_release_block(void *h)
{
	api.block_destroy(h);
}

static void bo_release_hash(void *h)
{
	api.hash_destroy(h);
}

/* A non-NULL pointer for an empty nonce or AD (the FFI may refuse NULL). */
static const uint8_t no_bytes[1];

/* Key cipher mode C for ALGO with KEY and start a message with IV (none
 * for RC4); AEADs get their nonce per message, so only the key. Returns 0
 * or -1. */
static int mode_key(botan_cipher_t c, enum guest_algo algo, const uint8_t *key,
		    const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);

	if (api.cipher_set_key(c, key, ai->key_bytes) != 0)
		return -1;
	if (ai->kind == GUEST_KIND_AEAD)
		return 0;
	return api.cipher_start(c, ai->iv_bytes ? iv : no_bytes,
				ai->iv_bytes) == 0 ? 0 : -1;
}

/* A keyed cipher-mode object for OP of ALGO, or NULL. */
static botan_cipher_t open_mode(enum guest_algo algo, enum guest_op op,
				const uint8_t *key, const uint8_t *iv)
{
	botan_cipher_t c = NULL;

	if (api.cipher_init(&c, names[algo], op == GUEST_OP_ENCRYPT
			    ? BOTAN_CIPHER_INIT_FLAG_ENCRYPT
			    : BOTAN_CIPHER_INIT_FLAG_DECRYPT) != 0 || !c)
		return NULL;
	if (mode_key(c, algo, key, iv) < 0) {
		api.cipher_destroy(c);
		return NULL;
	}
	return c;
}

/* LEN bytes IN -> OUT through streaming mode C, one final update. Returns
 * 0 or -1. */
static int mode_crypt(botan_cipher_t c, const uint8_t *in, uint8_t *out,
		      size_t len)
{
	size_t written = 0, consumed = 0;

	if (api.cipher_update(c, BOTAN_CIPHER_UPDATE_FLAG_FINAL, out, len,
			      &written, len ? in : no_bytes, len,
			      &consumed) != 0)
		return -1;
	return written == len && consumed == len ? 0 : -1;
}

/* Does streaming mode ALGO carry its state over final updates? Encrypts
 * 128 zero bytes once and as two 64-byte updates and compares. */
static bool carries_over(enum guest_algo algo)
{
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV], one[128], two[128];
	botan_cipher_t c;
	bool ok;

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	memset(iv, 0xa5, sizeof(iv));
	memset(one, 0, sizeof(one));
	memset(two, 0, sizeof(two));
	if (!(c = open_mode(algo, GUEST_OP_ENCRYPT, key, iv)))
		return false;
	ok = mode_crypt(c, one, one, sizeof(one)) == 0;
	api.cipher_destroy(c);
	if (!ok || !(c = open_mode(algo, GUEST_OP_ENCRYPT, key, iv)))
		return false;
	ok = mode_crypt(c, two, two, 64) == 0 &&
	     mode_crypt(c, two + 64, two + 64, 64) == 0;
	api.cipher_destroy(c);
	return ok && memcmp(one, two, sizeof(one)) == 0;
}

/* Is ALGO usable with the protocol's sizes? */
static bool trial(enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	uint8_t key[GUEST_MAX_KEY];
	bool ok = false;

	/* not all-zero, and the three 3DES keys differ */
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	switch (kind_of(algo)) {
	case BK_HASH: {
		botan_hash_t h = NULL;
		size_t n = 0;

		if (api.hash_init(&h, names[algo], 0) != 0 || !h)
			return false;
		ok = api.hash_output_length(h, &n) == 0 &&
		     n == ai->digest_bytes;
		api.hash_destroy(h);
		return ok;
	}
	case BK_BLOCK: {
		botan_block_cipher_t b = NULL;

		if (api.block_init(&b, names[algo]) != 0 || !b)
			return false;
		ok = api.block_size(b) == (int)ai->block_bytes &&
		     api.block_set_key(b, key, ai->key_bytes) == 0;
		api.block_destroy(b);
		return ok;
	}
	case BK_AEAD:
	case BK_MODE: {
		botan_cipher_t c = NULL;
		size_t tag = 0;

		if (api.cipher_init(&c, names[algo],
				    BOTAN_CIPHER_INIT_FLAG_ENCRYPT) != 0 || !c)
			return false;
		ok = api.cipher_valid_nonce_length(c, ai->iv_bytes) == 1 &&
		     api.cipher_get_tag_length(c, &tag) == 0 &&
		     tag == ai->tag_bytes &&
		     api.cipher_set_key(c, key, ai->key_bytes) == 0;
		api.cipher_destroy(c);
		return ok && (kind_of(algo) == BK_AEAD || carries_over(algo));
	}
	case BK_NONE:
		break;
	}
	return false;
}

static enum guest_load bo_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	static char buf[BO_SONAMES][32];
	const char *sonames[BO_SONAMES];
	size_t i, n = 0;

	for (int m = BO3_MAX_MINOR; m >= 0; m--) {
		snprintf(buf[n], sizeof(buf[n]), "libbotan-3.so.%d", m);
		sonames[n] = buf[n];
		n++;
	}
	sonames[n++] = "libbotan-2.so.19";
	sonames[n++] = "libbotan-2.so.18";
	sonames[n++] = "libbotan-2.so.17";
	api.handle = backend_dlopen(sonames, n, &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	{
		const struct backend_symbol required[] = {
			{ &api.version_string, "botan_version_string" },
			{ &api.cipher_init, "botan_cipher_init" },
			{ &api.cipher_set_key, "botan_cipher_set_key" },
			{ &api.cipher_start, "botan_cipher_start" },
			{ &api.cipher_set_ad, "botan_cipher_set_associated_data" },
			{ &api.cipher_update, "botan_cipher_update" },
			{ &api.cipher_valid_nonce_length, "botan_cipher_valid_nonce_length" },
			{ &api.cipher_get_tag_length, "botan_cipher_get_tag_length" },
			{ &api.cipher_destroy, "botan_cipher_destroy" },
			{ &api.block_init, "botan_block_cipher_init" },
			{ &api.block_set_key, "botan_block_cipher_set_key" },
			{ &api.block_size, "botan_block_cipher_block_size" },
			{ &api.block_encrypt, "botan_block_cipher_encrypt_blocks" },
			{ &api.block_decrypt, "botan_block_cipher_decrypt_blocks" },
			{ &api.block_destroy, "botan_block_cipher_destroy" },
			{ &api.hash_init, "botan_hash_init" },
			{ &api.hash_output_length, "botan_hash_output_length" },
			{ &api.hash_update, "botan_hash_update" },
			{ &api.hash_final, "botan_hash_final" },
			{ &api.hash_destroy, "botan_hash_destroy" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	backend_copy(info->version, sizeof(info->version),
		     api.version_string());
	backend_lib_path((const void *)api.cipher_init, info->path,
			 sizeof(info->path));
	guest_pk_botan_load(api.handle);
	guest_kdf_botan_load(api.handle);
	guest_ec_botan_load(api.handle);
	guest_rsa_botan_load(api.handle);
	for (int a = 0; a < GUEST_ALGO_COUNT; a++)
		if (names[a] && trial((enum guest_algo)a))
			kinds[a] = kind_of((enum guest_algo)a);
	return GUEST_LOAD_OK;
}

static bool bo_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && kinds[algo] != BK_NONE;
}

/* The timed-path context: a struct backend_hctx whose handle is a keyed
 * botan_cipher_t (CBC, CTR, streams, AEADs), a keyed botan_block_cipher_t
 * (ECB) or a botan_hash_t. NULL on error. */
static void *bo_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	static void (*const releases[])(void *) = {
		[BK_BLOCK] = bo_release_block, [BK_MODE] = bo_release_cipher,
		[BK_AEAD] = bo_release_cipher, [BK_HASH] = bo_release_hash,
	};
	const struct guest_algo_info *ai;
	struct backend_hctx *c;

	if (!bo_supports(algo) ||
	    !(c = backend_hctx_new(algo, op, iv, releases[kinds[algo]])))
		return NULL;
	ai = algo_info(algo);
	switch (kinds[algo]) {
	case BK_HASH: {
		botan_hash_t h = NULL;

		if (api.hash_init(&h, names[algo], 0) == 0)
			c->handle = h;
		break;
	}
	case BK_BLOCK: {
		botan_block_cipher_t b = NULL;

		if (api.block_init(&b, names[algo]) == 0 && b) {
			c->handle = b;
			if (api.block_set_key(b, key, ai->key_bytes) != 0) {
				backend_hctx_free(c);
				return NULL;
			}
		}
		break;
	}
	case BK_MODE:
	case BK_AEAD:
		c->handle = open_mode(algo, op, key, iv);
		break;
	case BK_NONE:
		break;
	}
	if (!c->handle) {
		backend_hctx_free(c);
		return NULL;
	}
	return c;
}

/* ECB: LEN bytes (whole blocks) IN -> OUT through block cipher B. */
static int block_crypt(struct backend_hctx *c, const uint8_t *in, uint8_t *out,
		       size_t len)
{
	size_t bs = algo_info(c->algo)->block_bytes;

	if (len % bs)
		return -1;
	return (c->op == GUEST_OP_ENCRYPT ? api.block_encrypt
					  : api.block_decrypt)(c->handle, in,
							       out, len / bs)
	       == 0 ? 0 : -1;
}

/* One AEAD message on context CTX (see backend.h). Botan takes the
 * ciphertext and its tag as one buffer: with the tag right after the text
 * (TAG == OUT + LEN to encrypt, TAG == IN + LEN to decrypt: the timed
 * path's layout, guest/PROTOCOL.md "Buffers") the caller's buffers are
 * passed straight through and the guest copies nothing (Botan's FFI
 * still buffers the input inside the library, as it does for every
 * caller); otherwise through the context's scratch buffer. */
static int bo_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct backend_hctx *c = ctx;
	const struct guest_algo_info *ai = algo_info(c->algo);
	size_t tl = ai->tag_bytes, written = 0, consumed = 0;
	int enc = c->op == GUEST_OP_ENCRYPT;
	bool direct = enc ? tag == out + len : tag == in + len;
	uint8_t *buf = direct ? NULL : backend_hctx_buf(c, len + tl);
	int rc;

	if ((!direct && !buf) ||
	    api.cipher_set_ad(c->handle, aad_bytes ? aad : no_bytes,
			      aad_bytes) != 0 ||
	    api.cipher_start(c->handle, c->iv, ai->iv_bytes) != 0)
		return -1;
	if (enc) {
		if (api.cipher_update(c->handle, BOTAN_CIPHER_UPDATE_FLAG_FINAL,
				      direct ? out : buf, len + tl, &written,
				      len ? in : no_bytes, len,
				      &consumed) != 0 ||
		    written != len + tl || consumed != len)
			return -1;
		if (!direct) {
			memcpy(out, buf, len);
			memcpy(tag, buf + len, tl);
		}
		return 0;
	}
	if (!direct) {
		memcpy(buf, in, len);
		memcpy(buf + len, tag, tl);
		in = buf;
	}
	rc = api.cipher_update(c->handle, BOTAN_CIPHER_UPDATE_FLAG_FINAL,
			       len || !buf ? out : buf, len, &written, in, len + tl,
			       &consumed);
	if (rc == BOTAN_FFI_ERROR_BAD_MAC)
		return 1;
	return rc == 0 && written == len && consumed == len + tl ? 0 : -1;
}

static int bo_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct backend_hctx *c = ctx;

	switch (kinds[c->algo]) {
	case BK_HASH:
		for (uint64_t i = 0; i < calls; i++)
			if (api.hash_update(c->handle, len ? in : no_bytes,
					    len) != 0 ||
			    api.hash_final(c->handle, aux) != 0)
				return -1;
		return 0;
	case BK_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (bo_aead(c, guest_aead_aad, GUEST_AEAD_AAD_BYTES, in,
				    out, len, aux) != 0)
				return -1;
		return 0;
	case BK_BLOCK:
		for (uint64_t i = 0; i < calls; i++)
			if (block_crypt(c, in, out, len) < 0)
				return -1;
		return 0;
	case BK_MODE:
		for (uint64_t i = 0; i < calls; i++)
			if (mode_crypt(c->handle, in, out, len) < 0)
				return -1;
		return 0;
	case BK_NONE:
		break;
	}
	return -1;
}

/* Key setup: botan_block_cipher_set_key (ECB), botan_cipher_set_key and
 * botan_cipher_start with the IV (CBC, CTR, streams), botan_cipher_set_key
 * alone (AEADs, whose nonce is set per message). */
static int bo_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct backend_hctx *c = ctx;
	size_t kb = algo_info(c->algo)->key_bytes;

	for (uint64_t i = 0; i < calls; i++) {
		if (kinds[c->algo] == BK_BLOCK) {
			if (api.block_set_key(c->handle, key, kb) != 0)
				return -1;
		} else if (kinds[c->algo] == BK_MODE ||
			   kinds[c->algo] == BK_AEAD) {
			if (mode_key(c->handle, c->algo, key, iv) < 0)
				return -1;
		} else {
			return -1;
		}
	}
	return 0;
}

const struct guest_backend guest_backend_botan = {
	.name = "botan",
	.pk = &guest_pk_botan,
	.kdf = &guest_kdf_botan,
	.ec = &guest_ec_botan,
	.rsa = &guest_rsa_botan,
	.load = bo_load,
	.supports = bo_supports,
	.bulk_new = bo_bulk_new,
	.bulk_run = bo_bulk_run,
	.aead = bo_aead,
	.bulk_free = backend_hctx_free,
	.rekey = bo_rekey,
};
