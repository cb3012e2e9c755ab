/* guest/backend-libmcrypt.c - libmcrypt through its generic API
 * (mcrypt_module_open, mcrypt_generic_init, mcrypt_generic /
 * mdecrypt_generic, mcrypt_generic_deinit, mcrypt_module_close).
 *
 * Soname: libmcrypt.so.4 (libmcrypt 2.5.x; Debian bookworm has 2.5.8,
 * built with every algorithm and mode inside the library: no module
 * directory is searched, mcrypt_module_support_dynamic() is 0).
 *
 * Algorithms: AES as "rijndael-128" (128-bit blocks, 16/24/32-byte keys)
 * in "ecb", "cbc" and "ctr" modes, "serpent", "twofish", "blowfish",
 * "cast-128", "tripledes" in "ecb" and "cbc", "arcfour" in "stream" mode -
 * 19 of 32. libmcrypt has no Camellia, GCM, ChaCha20, Salsa20 or AEAD and
 * no hashes (those are in the separate libmhash). Its "blowfish" is the
 * standard Blowfish (Schneier's all-zero vector gives 4ef997456198dd78 in
 * 2.5.8); "blowfish-compat" is a byte-swapped variant and not used. Its
 * "ctr" takes the IV as the initial counter block and increments it as a
 * big-endian number, SP 800-38A's CTR. Each algorithm is opened at load
 * and its block, IV and key sizes checked against the protocol's
 * (mcrypt_enc_get_block_size, _get_iv_size, _get_supported_key_sizes); a
 * mismatch or a failing open is reported unsupported.
 *
 * libmcrypt encrypts in place only: when input and output differ the input
 * is copied to the output first (the timed path is in place).
 *
 * Costs the one-shot mode shows as they are: mcrypt_module_open looks the
 * algorithm and mode up by name and allocates the descriptor, and
 * mcrypt_generic_init allocates and expands the key - the generic
 * one-shot (backend_oneshot) does both for every message, as an
 * application that follows the API does. With 2.5.8 on x86-64 that is
 * about 20 us for a 16-byte AES-128-CBC message (bulk: under 0.5 us), 17
 * us of it mcrypt_generic_deinit and _init, and about 95 us for 3DES.
 *
 * --nohw: no switch, and none needed: libmcrypt is portable C.
 *
 * Nothing of mcrypt.h is included: the prototypes below restate the
 * public ABI of 2.5.8 (mutils/mcrypt.h, MCRYPT_API_VERSION 20021217);
 * MCRYPT is an opaque pointer, MCRYPT_FAILED is NULL.
 */
#include "compat.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

typedef struct mc_stream *MCRYPT;

static const char *const sonames[] = { "libmcrypt.so.4" };

static struct {
	void *handle;
	MCRYPT (*module_open)(char *algorithm, char *a_directory, char *mode,
			      char *m_directory);
	int (*module_close)(MCRYPT td);
	int (*generic_init)(MCRYPT td, void *key, int keylen, void *iv);
	int (*generic)(MCRYPT td, void *buf, int len);
	int (*mdecrypt)(MCRYPT td, void *buf, int len);
	int (*generic_deinit)(MCRYPT td);
	int (*get_block_size)(MCRYPT td);
	int (*get_iv_size)(MCRYPT td);
	int (*get_key_size)(MCRYPT td);
	int *(*get_supported_key_sizes)(MCRYPT td, int *len);
	void (*mc_free)(void *p);
	const char *(*check_version)(const char *req);
} api;

/* libmcrypt's algorithm and mode names per protocol algorithm (NULL: not
 * in libmcrypt). */
static const struct {
	const char *algo, *mode;
} names[GUEST_ALGO_COUNT] = {
	[GUEST_AES_128_ECB] = { "rijndael-128", "ecb" },
	[GUEST_AES_128_CBC] = { "rijndael-128", "cbc" },
	[GUEST_AES_192_ECB] = { "rijndael-128", "ecb" },
	[GUEST_AES_192_CBC] = { "rijndael-128", "cbc" },
	[GUEST_AES_256_ECB] = { "rijndael-128", "ecb" },
	[GUEST_AES_256_CBC] = { "rijndael-128", "cbc" },
	[GUEST_SERPENT_256_ECB] = { "serpent", "ecb" },
	[GUEST_SERPENT_256_CBC] = { "serpent", "cbc" },
	[GUEST_TWOFISH_256_ECB] = { "twofish", "ecb" },
	[GUEST_TWOFISH_256_CBC] = { "twofish", "cbc" },
	[GUEST_BLOWFISH_128_ECB] = { "blowfish", "ecb" },
	[GUEST_BLOWFISH_128_CBC] = { "blowfish", "cbc" },
	[GUEST_CAST5_128_ECB] = { "cast-128", "ecb" },
	[GUEST_CAST5_128_CBC] = { "cast-128", "cbc" },
	[GUEST_3DES_ECB] = { "tripledes", "ecb" },
	[GUEST_3DES_CBC] = { "tripledes", "cbc" },
	[GUEST_AES_128_CTR] = { "rijndael-128", "ctr" },
	[GUEST_AES_256_CTR] = { "rijndael-128", "ctr" },
	[GUEST_RC4] = { "arcfour", "stream" },
};

static bool usable[GUEST_ALGO_COUNT];

/* A descriptor for ALGO (mcrypt_module_open), or NULL. The API takes
 * non-const strings it does not modify. */
static MCRYPT open_td(enum guest_algo algo)
{
	return api.module_open((char *)(uintptr_t)names[algo].algo, NULL,
			       (char *)(uintptr_t)names[algo].mode, NULL);
}

/* mcrypt_generic_init of TD for ALGO with KEY and IV (none for ECB and
 * streams). The API takes non-const buffers it only reads. Returns 0 or
 * -1. */
static int init_td(MCRYPT td, enum guest_algo algo, const uint8_t *key,
		   const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);
	bool has_iv = ai->mode == GUEST_MODE_CBC || ai->mode == GUEST_MODE_CTR;

	return api.generic_init(td, (void *)(uintptr_t)key, (int)ai->key_bytes,
				has_iv ? (void *)(uintptr_t)iv : NULL) < 0
	       ? -1 : 0;
}

/* Do TD's block, IV and key sizes fit ALGO? */
static bool sizes_fit(MCRYPT td, enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	bool has_iv = ai->mode == GUEST_MODE_CBC || ai->mode == GUEST_MODE_CTR;
	int n = 0, *sizes;
	bool ok;

	if (ai->mode != GUEST_MODE_STREAM &&
	    api.get_block_size(td) != (int)(ai->mode == GUEST_MODE_CTR
					    ? 16 : ai->block_bytes))
		return false;
	if (has_iv && api.get_iv_size(td) != (int)ai->iv_bytes)
		return false;
	if (api.get_key_size(td) < (int)ai->key_bytes)
		return false;
	/* an empty list: any length up to the maximum */
	sizes = api.get_supported_key_sizes(td, &n);
	ok = n == 0;
	for (int i = 0; sizes && i < n; i++)
		if (sizes[i] == (int)ai->key_bytes)
			ok = true;
	if (sizes)
		api.mc_free(sizes);
	return ok;
}

/* Can ALGO be used? Opened, sizes checked, a trial key setup. */
static bool trial(enum guest_algo algo)
{
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV];
	MCRYPT td;
	bool ok;

	/* not all-zero, and the three 3DES keys differ */
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	memset(iv, 0xa5, sizeof(iv));
	if (!names[algo].algo || !(td = open_td(algo)))
		return false;
	ok = sizes_fit(td, algo) && init_td(td, algo, key, iv) == 0;
	if (ok)
		api.generic_deinit(td);
	api.module_close(td);
	return ok;
}

static enum guest_load mc_load(struct guest_lib_info *info, char *why,
			       size_t why_bytes)
{
	size_t i;
	char ver[64];
	const char *v;

	api.handle = backend_dlopen(sonames, sizeof(sonames) / sizeof(sonames[0]),
				    &i, why, why_bytes);
	if (!api.handle)
		return backend_not_loaded(why);
	backend_copy(info->soname, sizeof(info->soname), sonames[i]);
	{
		const struct backend_symbol required[] = {
			{ &api.module_open, "mcrypt_module_open" },
			{ &api.module_close, "mcrypt_module_close" },
			{ &api.generic_init, "mcrypt_generic_init" },
			{ &api.generic, "mcrypt_generic" },
			{ &api.mdecrypt, "mdecrypt_generic" },
			{ &api.generic_deinit, "mcrypt_generic_deinit" },
			{ &api.get_block_size, "mcrypt_enc_get_block_size" },
			{ &api.get_iv_size, "mcrypt_enc_get_iv_size" },
			{ &api.get_key_size, "mcrypt_enc_get_key_size" },
			{ &api.get_supported_key_sizes, "mcrypt_enc_get_supported_key_sizes" },
			{ &api.mc_free, "mcrypt_free" },
			{ &api.check_version, "mcrypt_check_version" },
		};

		if (backend_require(api.handle, required,
				    sizeof(required) / sizeof(required[0]), why,
				    why_bytes) < 0)
			return GUEST_LOAD_BROKEN;
	}
	v = api.check_version(NULL);
	snprintf(ver, sizeof(ver), "libmcrypt %s", v ? v : "(unknown)");
	backend_copy(info->version, sizeof(info->version), ver);
	backend_lib_path((const void *)api.module_open, info->path,
			 sizeof(info->path));
	for (int a = 0; a < GUEST_ALGO_COUNT; a++)
		usable[a] = trial((enum guest_algo)a);
	return GUEST_LOAD_OK;
}

static bool mc_supports(enum guest_algo algo)
{
	return algo < GUEST_ALGO_COUNT && usable[algo];
}

/* backend_hctx release: mcrypt_generic_deinit, mcrypt_module_close. */
static void mc_release(void *td)
{
	api.generic_deinit(td);
	api.module_close(td);
}

/* The timed-path context: a struct backend_hctx whose handle is an open
 * MCRYPT descriptor after mcrypt_generic_init. NULL on error. */
static void *mc_bulk_new(enum guest_algo algo, enum guest_op op,
			 const uint8_t *key, const uint8_t *iv)
{
	struct backend_hctx *c;
	MCRYPT td;

	if (!mc_supports(algo) ||
	    !(c = backend_hctx_new(algo, op, iv, mc_release)))
		return NULL;
	if (!(td = open_td(algo))) {
		backend_hctx_free(c);
		return NULL;
	}
	if (init_td(td, algo, key, iv) < 0) {
		api.module_close(td);
		backend_hctx_free(c);
		return NULL;
	}
	c->handle = td;
	return c;
}

static int mc_bulk_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		       uint64_t calls, uint8_t *aux)
{
	struct backend_hctx *c = ctx;
	int (*fn)(MCRYPT, void *, int) = c->op == GUEST_OP_ENCRYPT
					 ? api.generic : api.mdecrypt;

	(void)aux;
	if (len > INT_MAX)
		return -1;
	for (uint64_t i = 0; i < calls; i++) {
		if (in != out && len)
			memmove(out, in, len);
		if (fn(c->handle, out, (int)len) != 0)
			return -1;
	}
	return 0;
}

/* Key setup: mcrypt_generic_deinit then mcrypt_generic_init with the new
 * key and IV - the API's only way to re-key a descriptor (init allocates
 * and expands the key, deinit frees). On failure the descriptor is closed
 * and the context left without one. */
static int mc_rekey(void *ctx, const uint8_t *key, const uint8_t *iv,
		    uint64_t calls)
{
	struct backend_hctx *c = ctx;

	if (!c->handle)
		return -1;
	for (uint64_t i = 0; i < calls; i++) {
		api.generic_deinit(c->handle);
		if (init_td(c->handle, c->algo, key, iv) < 0) {
			api.module_close(c->handle);
			c->handle = NULL;
			return -1;
		}
	}
	return 0;
}

const struct guest_backend guest_backend_libmcrypt = {
	.name = "libmcrypt",
	.load = mc_load,
	.supports = mc_supports,
	.bulk_new = mc_bulk_new,
	.bulk_run = mc_bulk_run,
	.bulk_free = backend_hctx_free,
	.rekey = mc_rekey,
};
