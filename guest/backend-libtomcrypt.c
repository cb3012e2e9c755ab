/* guest/backend-libtomcrypt.c - LibTomCrypt through its mode functions
 * (ecb_*, cbc_*, ctr_*, gcm_*), its stream ciphers (chacha_*,
 * rc4_stream_*), chacha20poly1305_* and the hash functions (md5_init,
 * _process, _done, ...).
 *
 * Soname: libtomcrypt.so.1 (LibTomCrypt 1.18; Debian bookworm has
 * 1.18.2). Block ciphers are used through their cipher descriptors,
 * exported data objects (aes_desc, twofish_desc, ...) that load()
 * registers with register_cipher(), which returns the index the mode
 * functions take. No math provider (ltc_mp) is set: LibTomCrypt needs one
 * for public-key algorithms only.
 *
 * Algorithms in 1.18.2: AES (ECB, CBC, CTR, GCM), Twofish, Blowfish,
 * CAST5, 3DES, Camellia, ChaCha20, ChaCha20-Poly1305, RC4, MD5, SHA-1,
 * SHA-256, SHA-512, SHA3-256, BLAKE2b-512 - 29 of 32. Not in 1.18:
 * Serpent and Salsa20. An algorithm whose symbols are missing (a build
 * configured without it) or whose trial key setup fails is reported
 * unsupported.
 *
 * State is caller-allocated (symmetric_ECB, symmetric_CBC, symmetric_CTR,
 * gcm_state, chacha_state, chacha20poly1305_state, rc4_state, hash_state)
 * and its size depends on the version and on build options (GCM tables,
 * Twofish tables, LTC_FAST). Checked with 1.18.2 as Debian bookworm
 * builds it, whose crypt_get_size() reports: symmetric_ECB 4264,
 * symmetric_CBC 4392, symmetric_CTR 4536, gcm_state 69904 (with
 * LTC_GCM_TABLES), chacha_state 152, chacha20poly1305_state 264,
 * rc4_state 264, hash_state 416 bytes. A library that has crypt_get_size()
 * (1.18+) gets the size it reports, what a program compiled against its
 * headers allocates (so that a one-shot does not also pay for zeroing a
 * larger block); an older one gets the generous sizes below, about four
 * times 1.18.2's. States are zeroed and 64-byte aligned.
 *
 * CTR: ctr_start with CTR_COUNTER_BIG_ENDIAN and no counter length: the
 * whole 128-bit IV is the big-endian counter, and the first key stream
 * block is the encrypted IV, as SP 800-38A's CTR.
 * GCM: gcm_done only produces the tag; decryption compares it here.
 * ChaCha20-Poly1305: chacha20poly1305_done ends with chacha_done, which
 * wipes the ChaCha20 key from the state (1.18.2), so every message starts
 * with chacha20poly1305_init (the key, a ChaCha20 key setup) before
 * chacha20poly1305_setiv: the only way the API allows a second message.
 *
 * --nohw: no switch; LibTomCrypt 1.18's AES is portable C (plus AES-NI
 * only when built with LTC_AES_NI, which 1.18 does not have).
 *
 * Nothing of tomcrypt.h is included: the prototypes and constants below
 * restate the public ABI of 1.18.2 (tomcrypt_cipher.h, tomcrypt_hash.h,
 * tomcrypt_misc.h).
 */
#include "compat.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* tomcrypt.h: CRYPT_OK; tomcrypt_cipher.h: CTR_COUNTER_BIG_ENDIAN,
 * GCM_ENCRYPT / GCM_DECRYPT (LTC_ENCRYPT / LTC_DECRYPT). */
#define CRYPT_OK 0	/* <tomcrypt.h> */
#define CTR_COUNTER_BIG_ENDIAN 0x1000	/* <tomcrypt_cipher.h> */
#define GCM_ENCRYPT 0	/* <tomcrypt_cipher.h> */
#define GCM_DECRYPT 1	/* <tomcrypt_cipher.h> */

/* Bytes allocated per state without crypt_get_size() (see above). */
#define MODE_STATE_BYTES 16384		/* symmetric_ECB, _CBC, _CTR */
#define GCM_STATE_BYTES 262144		/* gcm_state */
#define STREAM_STATE_BYTES 1024		/* chacha, chacha20poly1305, rc4 */
#define HASH_STATE_BYTES 2048		/* hash_state */

static const char *const sonames[] = { "libtomcrypt.so.1" };

typedef int hash_init_fn(void *md);
typedef int hash_process_fn(void *md, const unsigned char *in,
			    unsigned long len);
typedef int hash_done_fn(void *md, unsigned char *out);

static struct {
	void *handle;
	const char *const *build_settings;	/* crypt_build_settings */
	int (*get_size)(const char *name, unsigned int *size);	/* optional */
	int (*register_cipher)(const void *desc);
	int (*ecb_start)(int cipher, const unsigned char *key, int keylen,
			 int rounds, void *ecb);
	int (*ecb_encrypt)(const unsigned char *pt, unsigned char *ct,
			   unsigned long len, void *ecb);
	int (*ecb_decrypt)(const unsigned char *ct, unsigned char *pt,
			   unsigned long len, void *ecb);
	int (*ecb_done)(void *ecb);
	int (*cbc_start)(int cipher, const unsigned char *iv,
			 const unsigned char *key, int keylen, int rounds,
			 void *cbc);
	int (*cbc_encrypt)(const unsigned char *pt, unsigned char *ct,
			   unsigned long len, void *cbc);
	int (*cbc_decrypt)(const unsigned char *ct, unsigned char *pt,
			   unsigned long len, void *cbc);
	int (*cbc_done)(void *cbc);
	int (*ctr_start)(int cipher, const unsigned char *iv,
			 const unsigned char *key, int keylen, int rounds,
			 int ctr_mode, void *ctr);
	int (*ctr_encrypt)(const unsigned char *pt, unsigned char *ct,
			   unsigned long len, void *ctr);
	int (*ctr_decrypt)(const unsigned char *ct, unsigned char *pt,
			   unsigned long len, void *ctr);
	int (*ctr_done)(void *ctr);
	int (*gcm_init)(void *gcm, int cipher, const unsigned char *key,
			int keylen);
	int (*gcm_reset)(void *gcm);
	int (*gcm_add_iv)(void *gcm, const unsigned char *iv,
			  unsigned long len);
	int (*gcm_add_aad)(void *gcm, const unsigned char *aad,
			   unsigned long len);
	int (*gcm_process)(void *gcm, unsigned char *pt, unsigned long len,
			   unsigned char *ct, int direction);
	int (*gcm_done)(void *gcm, unsigned char *tag, unsigned long *taglen);
	int (*chacha_setup)(void *st, const unsigned char *key,
			    unsigned long keylen, int rounds);
	int (*chacha_ivctr32)(void *st, const unsigned char *iv,
			      unsigned long ivlen, uint32_t counter);
	int (*chacha_crypt)(void *st, const unsigned char *in,
			    unsigned long len, unsigned char *out);
	int (*chacha_done)(void *st);
	int (*ccp_init)(void *st, const unsigned char *key,
			unsigned long keylen);
	int (*ccp_setiv)(void *st, const unsigned char *iv,
			 unsigned long ivlen);
	int (*ccp_add_aad)(void *st, const unsigned char *aad,
			   unsigned long len);
	int (*ccp_encrypt)(void *st, const unsigned char *in,
			   unsigned long len, unsigned char *out);
	int (*ccp_decrypt)(void *st, const unsigned char *in,
			   unsigned long len, unsigned char *out);
	int (*ccp_done)(void *st, unsigned char *tag, unsigned long *taglen);
	int (*rc4_setup)(void *st, const unsigned char *key,
			 unsigned long keylen);
	int (*rc4_crypt)(void *st, const unsigned char *in, unsigned long len,
			 unsigned char *out);
	int (*rc4_done)(void *st);
} api;

/* How an algorithm is used. */
enum lt_kind {
	LK_NONE, LK_ECB, LK_CBC, LK_CTR, LK_GCM, LK_CHACHA, LK_CCP, LK_RC4,
	LK_HASH
};

/* Per algorithm: the cipher descriptor (block ciphers) or the hash
 * functions' names; NULL: not in LibTomCrypt 1.18. */
static const struct {
	const char *desc;		/* block cipher descriptor symbol */
	const char *init, *process, *done;	/* hash functions */
} syms[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = { "aes_desc" },
	[GUEST_AES_128_CBC] = { "aes_desc" },
	[GUEST_AES_192_ECB] = { "aes_desc" },
	[GUEST_AES_192_CBC] = { "aes_desc" },
	[GUEST_AES_256_ECB] = { "aes_desc" },
	[GUEST_AES_256_CBC] = { "aes_desc" },
	[GUEST_TWOFISH_256_ECB] = { "twofish_desc" },
	[GUEST_TWOFISH_256_CBC] = { "twofish_desc" },
	[GUEST_BLOWFISH_128_ECB] = { "blowfish_desc" },
	[GUEST_BLOWFISH_128_CBC] = { "blowfish_desc" },
	[GUEST_CAST5_128_ECB] = { "cast5_desc" },
	[GUEST_CAST5_128_CBC] = { "cast5_desc" },
	[GUEST_3DES_ECB] = { "des3_desc" },
	[GUEST_3DES_CBC] = { "des3_desc" },
	[GUEST_AES_128_CTR] = { "aes_desc" },
	[GUEST_AES_256_CTR] = { "aes_desc" },
	[GUEST_AES_128_GCM] = { "aes_desc" },
	[GUEST_AES_256_GCM] = { "aes_desc" },
	[GUEST_CAMELLIA_128_CBC] = { "camellia_desc" },
	[GUEST_CAMELLIA_256_CBC] = { "camellia_desc" },
	[GUEST_MD5] = { NULL, "md5_init", "md5_process", "md5_done" },
	[GUEST_SHA_1] = { NULL, "sha1_init", "sha1_process", "sha1_done" },
	[GUEST_SHA_256] = { NULL, "sha256_init", "sha256_process",
			    "sha256_done" },
	[GUEST_SHA_512] = { NULL, "sha512_init", "sha512_process",
			    "sha512_done" },
	[GUEST_SHA3_256] = { NULL, "sha3_256_init", "sha3_process",
			     "sha3_done" },
	[GUEST_BLAKE2B_512] = { NULL, "blake2b_512_init", "blake2b_process",
				"blake2b_done" },
};

static enum lt_kind kinds[GUEST_ALGO_COUNT];
static int cipher_idx[GUEST_ALGO_COUNT];	/* register_cipher() index */
static struct {
	hash_init_fn *init;
	hash_process_fn *process;
	hash_done_fn *done;
} hashes[GUEST_ALGO_COUNT];
/* State bytes per kind (size_of()). */
static size_t state_bytes[LK_HASH + 1];

/* The kind ALGO would have. */
static enum lt_kind kind_of(enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);

	if (ai->kind == GUEST_KIND_HASH)
		return LK_HASH;
	switch (ai->mode) {
	case GUEST_MODE_ECB:
		return LK_ECB;
	case GUEST_MODE_CBC:
		return LK_CBC;
	case GUEST_MODE_CTR:
		return LK_CTR;
	case GUEST_MODE_GCM:
		return LK_GCM;
	case GUEST_MODE_AEAD:
		return LK_CCP;
	case GUEST_MODE_STREAM:
		return ai->family == GUEST_FAM_CHACHA20 ? LK_CHACHA
		       : ai->family == GUEST_FAM_RC4 ? LK_RC4 : LK_NONE;
	case GUEST_MODE_NONE:
		break;
	}
	return LK_NONE;
}

/* Bytes to allocate for the structure NAME: what crypt_get_size() says,
 * or DEFLT when the library has no such function or does not know NAME. */
static size_t size_of(const char *name, size_t deflt)
{
	unsigned int n = 0;

	if (api.get_size && api.get_size(name, &n) == 0 && n > 0)
		return n;
	return deflt;
}

/* Key the state ST of a cipher of kind K for ALGO (KEY, IV), as the
 * library's start / setup call does. Returns 0 or -1. */
static int lt_key(void *st, enum lt_kind k, enum guest_algo algo,
		  const uint8_t *key, const uint8_t *iv)
{
	int kb = (int)algo_info(algo)->key_bytes, rc = -1;
	int c = cipher_idx[algo];

	switch (k) {
	case LK_ECB:
		rc = api.ecb_start(c, key, kb, 0, st);
		break;
	case LK_CBC:
		rc = api.cbc_start(c, iv, key, kb, 0, st);
		break;
	case LK_CTR:
		rc = api.ctr_start(c, iv, key, kb, 0, CTR_COUNTER_BIG_ENDIAN,
				   st);
		break;
	case LK_GCM:
		rc = api.gcm_init(st, c, key, kb);
		break;
	case LK_CHACHA:
		rc = api.chacha_setup(st, key, (unsigned long)kb, 20);
		if (rc == CRYPT_OK)
			rc = api.chacha_ivctr32(st, iv, 12, 0);
		break;
	case LK_CCP:
		rc = api.ccp_init(st, key, (unsigned long)kb);
		break;
	case LK_RC4:
		rc = api.rc4_setup(st, key, (unsigned long)kb);
		break;
	case LK_HASH:
	case LK_NONE:
		break;
	}
	return rc == CRYPT_OK ? 0 : -1;
}

/* Fresh 64-byte aligned, zeroed state for kind K, or NULL. */
static void *new_state(enum lt_kind k)
{
	void *p;

	if (posix_memalign(&p, 64, state_bytes[k]) != 0)
		return NULL;
	memset(p, 0, state_bytes[k]);
	return p;
}

/* backend_hctx releases: the mode's or stream cipher's _done, then free;
 * GCM, ChaCha20-Poly1305 and hash states have no _done that frees (theirs
 * finish a message), so only free. */
static void lt_release_ecb(void *st)
{
	api.ecb_done(st);
	free(st);
}

static void lt_release_cbc(void *st)
{
	api.cbc_done(st);
	free(st);
}

static void lt_release_ctr(void *st)
{
	api.ctr_done(st);
	free(st);
}

static void lt_release_chacha(void *st)
{
	api.chacha_done(st);
	free(st);
}

static void lt_release_rc4(void *st)
{
	api.rc4_done(st);
	free(st);
}

static void lt_release_plain(void *st)
{
	free(st);
}

/* Can ALGO be used? Symbols present (checked by the caller) and a trial
 * key setup with the protocol's sizes succeeds. */
static bool trial(enum guest_algo algo, enum lt_kind k)
{
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV];
	void *st;
	int rc;

	/* not all-zero, and the three 3DES keys differ */
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	memset(iv, 0xa5, sizeof(iv));
	if (k == LK_HASH)
		return true;
	if (!(st = new_state(k)))
		return false;
	rc = lt_key(st, k, algo, key, iv);
	free(st);
	return rc == 0;
}

/* The optional entry points: a NULL pointer is a mode or cipher family
 * this build of LibTomCrypt lacks (1.18 has no ChaCha20-Poly1305, ...). */
static void lt_load_optional(void)
{
	/* data object: the address dlsym gives is that of the pointer */
	api.build_settings = dlsym(api.handle, "crypt_build_settings");
	backend_sym(api.handle, &api.get_size, "crypt_get_size");
	backend_sym(api.handle, &api.ctr_start, "ctr_start");
	backend_sym(api.handle, &api.ctr_encrypt, "ctr_encrypt");
	backend_sym(api.handle, &api.ctr_decrypt, "ctr_decrypt");
	backend_sym(api.handle, &api.ctr_done, "ctr_done");
	backend_sym(api.handle, &api.gcm_init, "gcm_init");
	backend_sym(api.handle, &api.gcm_reset, "gcm_reset");
	backend_sym(api.handle, &api.gcm_add_iv, "gcm_add_iv");
	backend_sym(api.handle, &api.gcm_add_aad, "gcm_add_aad");
	backend_sym(api.handle, &api.gcm_process, "gcm_process");
	backend_sym(api.handle, &api.gcm_done, "gcm_done");
	backend_sym(api.handle, &api.chacha_setup, "chacha_setup");
	backend_sym(api.handle, &api.chacha_ivctr32, "chacha_ivctr32");
	backend_sym(api.handle, &api.chacha_crypt, "chacha_crypt");
	backend_sym(api.handle, &api.chacha_done, "chacha_done");
	backend_sym(api.handle, &api.ccp_init, "chacha20poly1305_init");
	backend_sym(api.handle, &api.ccp_setiv, "chacha20poly1305_setiv");
	backend_sym(api.handle, &api.ccp_add_aad, "chacha20poly1305_add_aad");
	backend_sym(api.handle, &api.ccp_encrypt, "chacha20poly1305_encrypt");
	backend_sym(api.handle, &api.ccp_decrypt, "chacha20poly1305_decrypt");
	backend_sym(api.handle, &api.ccp_done, "chacha20poly1305_done");
	backend_sym(api.handle, &api.rc4_setup, "rc4_stream_setup");
	backend_sym(api.handle, &api.rc4_crypt, "rc4_stream_crypt");
	backend_sym(api.handle, &api.rc4_done, "rc4_stream_done");
}

/* The version string into VER (LEN bytes): "LibTomCrypt 1.18.2" from the
 * library's build settings, else "LibTomCrypt (SONAME)". */
static void lt_version(char *ver, size_t len, const char *soname)
{
	const char *bs;

	/* "LibTomCrypt 1.18.2 (www.libtom.net)\n..." -> "LibTomCrypt 1.18.2" */
	bs = api.build_settings && *api.build_settings ? *api.build_settings
						       : NULL;
	if (bs && strncmp(bs, "LibTomCrypt ", 12) == 0) {
		size_t n = strcspn(bs + 12, " \n\r");

		snprintf(ver, len, "LibTomCrypt %.*s",
			 (int)(n < 32 ? n : 32), bs + 12);
	} else {
		snprintf(ver, len, "LibTomCrypt (%s)", soname);
	}
}

/* The sizes of the library's state structures (crypt_get_size, else the
 * defaults of this file), into state_bytes[]. */
static void lt_state_sizes(void)
{
	state_bytes[LK_ECB] = size_of("symmetric_ECB", MODE_STATE_BYTES);
	state_bytes[LK_CBC] = size_of("symmetric_CBC", MODE_STATE_BYTES);
	state_bytes[LK_CTR] = size_of("symmetric_CTR", MODE_STATE_BYTES);
	state_bytes[LK_GCM] = size_of("gcm_state", GCM_STATE_BYTES);
	state_bytes[LK_CHACHA] = size_of("chacha_state", STREAM_STATE_BYTES);
	state_bytes[LK_CCP] = size_of("chacha20poly1305_state",
				      STREAM_STATE_BYTES);
	state_bytes[LK_RC4] = size_of("rc4_state", STREAM_STATE_BYTES);
	state_bytes[LK_HASH] = size_of("hash_state", HASH_STATE_BYTES);
}

/* Find out whether ALGO works in this build: its entry points are there,
 * its cipher registers, and a trial call succeeds; then kinds[ALGO] is
 * set. */
static void lt_probe(enum guest_algo algo)
{
	enum lt_kind k = kind_of(algo);
	bool have;

	switch (k) {
	case LK_ECB:
	case LK_CBC:
		have = true;
		break;
	case LK_CTR:
		have = api.ctr_start && api.ctr_encrypt &&
		       api.ctr_decrypt && api.ctr_done;
		break;
	case LK_GCM:
		have = api.gcm_init && api.gcm_reset &&
		       api.gcm_add_iv && api.gcm_add_aad &&
		       api.gcm_process && api.gcm_done;
		break;
	case LK_CHACHA:
		have = api.chacha_setup && api.chacha_ivctr32 &&
		       api.chacha_crypt && api.chacha_done;
		break;
	case LK_CCP:
		have = api.ccp_init && api.ccp_setiv &&
		       api.ccp_add_aad && api.ccp_encrypt &&
		       api.ccp_decrypt && api.ccp_done;
		break;
	case LK_RC4:
		have = api.rc4_setup && api.rc4_crypt && api.rc4_done;
		break;
	case LK_HASH:
		have = syms[algo].init &&
		       backend_sym(api.handle, &hashes[algo].init,
				   syms[algo].init) == 0 &&
		       backend_sym(api.handle, &hashes[algo].process,
				   syms[algo].process) == 0 &&
		       backend_sym(api.handle, &hashes[algo].done,
				   syms[algo].done) == 0;
		break;
	default:
		have = false;
		break;
	}
	if (have && syms[algo].desc) {
		const void *desc = dlsym(api.handle, syms[algo].desc);

		cipher_idx[algo] = desc ? api.register_cipher(desc) : -1;
		have = cipher_idx[algo] >= 0;
	} else if (k != LK_HASH && k != LK_CHACHA && k != LK_CCP &&
		   k != LK_RC4) {
		have = false;	/* a block cipher 1.18 lacks */
	}
	if (have && trial(algo, k))
		kinds[algo] = k;
}

static enum guest_load lt_load(struct guest_lib_info *info, char *why,
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
			{ &api.register_cipher, "register_cipher" },
			{ &api.ecb_start, "ecb_start" },
			{ &api.ecb_encrypt, "ecb_encrypt" },
			{ &api.ecb_decrypt, "ecb_decrypt" },
			{ &api.ecb_done, "ecb_done" },
			{ &api.cbc_start, "cbc_start" },
			{ &api.cbc_encrypt, "cbc_encrypt" },
			{ &api.cbc_decrypt, "cbc_decrypt" },
			{ &api.cbc_done, "cbc_done" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	lt_load_optional();
	lt_version(ver, sizeof(ver), sonames[i]);
	backend_copy(info->version, sizeof(info->version), ver);
	backend_lib_path((const void *)api.cbc_start, info->path,
			 sizeof(info->path));
	lt_state_sizes();
	for (int a = 0; a < GUEST_ALGO_COUNT; a++)
		lt_probe((enum guest_algo)a);
	return GUEST_LOAD_OK;
}

static bool lt_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && kinds[algo] != LK_NONE;
}

/* The timed-path context: a struct backend_hctx whose handle is the
 * keyed state (hashes: a hash_state). NULL on error. */
static void *lt_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	static void (*const releases[])(void *) = {
		[LK_ECB] = lt_release_ecb, [LK_CBC] = lt_release_cbc,
		[LK_CTR] = lt_release_ctr, [LK_GCM] = lt_release_plain,
		[LK_CHACHA] = lt_release_chacha, [LK_CCP] = lt_release_plain,
		[LK_RC4] = lt_release_rc4, [LK_HASH] = lt_release_plain,
	};
	struct backend_hctx *c;
	enum lt_kind k;

	if (!lt_supports(algo))
		return NULL;
	k = kinds[algo];
	if (!(c = backend_hctx_new(algo, op, iv, releases[k])))
		return NULL;
	if (k != LK_HASH)
		memcpy(c->key, key, algo_info(algo)->key_bytes);
	if (!(c->handle = new_state(k)) ||
	    (k != LK_HASH && lt_key(c->handle, k, algo, key, iv) < 0)) {
		backend_hctx_free(c);
		return NULL;
	}
	return c;
}

/* LEN bytes IN -> OUT through the keyed state of C (ECB, CBC, CTR,
 * ChaCha20, RC4), state carried over. Returns 0 or -1. */
static int lt_crypt(struct backend_hctx *c, const uint8_t *in, uint8_t *out,
		    size_t len)
{
	int enc = c->op == GUEST_OP_ENCRYPT, rc = -1;
	void *st = c->handle;

	switch (kinds[c->algo]) {
	case LK_ECB:
		rc = enc ? api.ecb_encrypt(in, out, len, st)
			 : api.ecb_decrypt(in, out, len, st);
		break;
	case LK_CBC:
		rc = enc ? api.cbc_encrypt(in, out, len, st)
			 : api.cbc_decrypt(in, out, len, st);
		break;
	case LK_CTR:
		rc = enc ? api.ctr_encrypt(in, out, len, st)
			 : api.ctr_decrypt(in, out, len, st);
		break;
	case LK_CHACHA:
		rc = api.chacha_crypt(st, in, len, out);
		break;
	case LK_RC4:
		rc = api.rc4_crypt(st, in, len, out);
		break;
	default:
		break;
	}
	return rc == CRYPT_OK ? 0 : -1;
}

/* One AEAD message on context CTX (see backend.h): GCM gcm_reset,
 * gcm_add_iv, gcm_add_aad, gcm_process, gcm_done; ChaCha20-Poly1305
 * chacha20poly1305_init (see above), _setiv, _add_aad, _encrypt /
 * _decrypt, _done.
 * Decryption compares the tag it computed with TAG. */
static int lt_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		   const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct backend_hctx *c = ctx;
	const struct guest_algo_info *ai = algo_info(c->algo);
	uint8_t got[GUEST_MAX_TAG];
	unsigned long tl = (unsigned long)ai->tag_bytes;
	int enc = c->op == GUEST_OP_ENCRYPT;
	void *st = c->handle;

	if (kinds[c->algo] == LK_GCM) {
		if (api.gcm_reset(st) != CRYPT_OK ||
		    api.gcm_add_iv(st, c->iv, ai->iv_bytes) != CRYPT_OK ||
		    (aad_bytes &&
		     api.gcm_add_aad(st, aad, aad_bytes) != CRYPT_OK))
			return -1;
		if (enc ? api.gcm_process(st, (unsigned char *)(uintptr_t)in,
					  len, out, GCM_ENCRYPT)
			: api.gcm_process(st, out, len,
					  (unsigned char *)(uintptr_t)in,
					  GCM_DECRYPT))
			return -1;
		if (api.gcm_done(st, enc ? tag : got, &tl) != CRYPT_OK ||
		    tl != ai->tag_bytes)
			return -1;
	} else if (kinds[c->algo] == LK_CCP) {
		if (api.ccp_init(st, c->key, ai->key_bytes) != CRYPT_OK ||
		    api.ccp_setiv(st, c->iv, ai->iv_bytes) != CRYPT_OK ||
		    (aad_bytes &&
		     api.ccp_add_aad(st, aad, aad_bytes) != CRYPT_OK) ||
		    (enc ? api.ccp_encrypt(st, in, len, out)
			 : api.ccp_decrypt(st, in, len, out)) != CRYPT_OK ||
		    api.ccp_done(st, enc ? tag : got, &tl) != CRYPT_OK ||
		    tl != ai->tag_bytes)
			return -1;
	} else {
		return -1;
	}
	return enc || memcmp(got, tag, ai->tag_bytes) == 0 ? 0 : 1;
}

/* Hash LEN bytes of IN into DIGEST with the hash_state of C. */
static int lt_hash(struct backend_hctx *c, const uint8_t *in, size_t len,
		   uint8_t *digest)
{
	return hashes[c->algo].init(c->handle) == CRYPT_OK &&
	       hashes[c->algo].process(c->handle, in, len) == CRYPT_OK &&
	       hashes[c->algo].done(c->handle, digest) == CRYPT_OK ? 0 : -1;
}

static int lt_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct backend_hctx *c = ctx;

	switch (algo_info(c->algo)->kind) {
	case GUEST_KIND_HASH:
		for (uint64_t i = 0; i < calls; i++)
			if (lt_hash(c, in, len, aux) < 0)
				return -1;
		return 0;
	case GUEST_KIND_AEAD:
		for (uint64_t i = 0; i < calls; i++)
			if (lt_aead(c, guest_aead_aad, GUEST_AEAD_AAD_BYTES, in,
				    out, len, aux) != 0)
				return -1;
		return 0;
	case GUEST_KIND_CIPHER:
		break;
	}
	for (uint64_t i = 0; i < calls; i++)
		if (lt_crypt(c, in, out, len) < 0)
			return -1;
	return 0;
}

/* Key setup: the mode's _start with key and IV (ECB, CBC, CTR), gcm_init
 * (key schedule and the GCM multiplication tables), chacha_setup and
 * chacha_ivctr32, chacha20poly1305_init (which every ChaCha20-Poly1305
 * message repeats, see above), rc4_stream_setup - on the existing state,
 * which these calls overwrite (none allocates). */
static int lt_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct backend_hctx *c = ctx;
	enum lt_kind k = kinds[c->algo];

	if (k == LK_HASH || k == LK_NONE)
		return -1;
	memcpy(c->key, key, algo_info(c->algo)->key_bytes);
	for (uint64_t i = 0; i < calls; i++)
		if (lt_key(c->handle, k, c->algo, key, iv) < 0)
			return -1;
	return 0;
}

const struct guest_backend guest_backend_libtomcrypt = {
	.name = "libtomcrypt",
	.load = lt_load,
	.supports = lt_supports,
	.bulk_new = lt_bulk_new,
	.bulk_run = lt_bulk_run,
	.aead = lt_aead,
	.bulk_free = backend_hctx_free,
	.rekey = lt_rekey,
};
