/* guest/backend-wolfssl-kdf.c - the key derivation functions of wolfCrypt
 * (libwolfssl): wc_PBKDF2, wc_HKDF and wc_scrypt, each where the build
 * has it. wc_scrypt takes N as its base-2 logarithm (a power of two).
 * wolfCrypt's Argon2 is not in the distributions' builds. Prototypes and
 * constants restated from <wolfssl/wolfcrypt/pwdbased.h>,
 * <wolfssl/wolfcrypt/hmac.h> and <wolfssl/wolfcrypt/hash.h> (WC_SHA256
 * = WC_HASH_TYPE_SHA256). */
#include "compat.h"

#include "backend-kdf.h"

/* WC_SHA256 = WC_HASH_TYPE_SHA256: <wolfssl/wolfcrypt/sha256.h>, types.h */
#define WC_SHA256 6

static struct {
	int (*pbkdf2)(uint8_t *out, const uint8_t *pass, int plen,
		      const uint8_t *salt, int slen, int iter, int klen,
		      int type);
	int (*hkdf)(int type, const uint8_t *key, uint32_t keylen,
		    const uint8_t *salt, uint32_t saltlen, const uint8_t *info,
		    uint32_t infolen, uint8_t *out, uint32_t outlen);
	int (*scrypt)(uint8_t *out, const uint8_t *pass, int plen,
		      const uint8_t *salt, int slen, int cost, int block,
		      int parallel, int dklen);
} api;

void guest_kdf_wolfssl_load(void *handle)
{
	backend_sym(handle, &api.pbkdf2, "wc_PBKDF2");
	backend_sym(handle, &api.hkdf, "wc_HKDF");
	backend_sym(handle, &api.scrypt, "wc_scrypt");
}

static bool wo_supports(enum guest_kdf_algo algo)
{
	switch (algo) {
	case GUEST_KDF_PBKDF2_SHA256:
		return api.pbkdf2 != NULL;
	case GUEST_KDF_HKDF_SHA256:
		return api.hkdf != NULL;
	case GUEST_KDF_SCRYPT:
		return api.scrypt != NULL;
	default:
		return false;
	}
}

/* log2(N) when N is a power of two > 1, else -1. */
static int log2_exact(uint64_t n)
{
	int k = 0;

	if (n < 2 || (n & (n - 1)))
		return -1;
	while (n > 1) {
		n >>= 1;
		k++;
	}
	return k;
}

static int wo_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	int cost;

	if (!wo_supports(algo))
		return -1;
	switch (algo) {
	case GUEST_KDF_PBKDF2_SHA256:
		return api.pbkdf2(out, in->pass, (int)in->pass_bytes, in->salt,
				  (int)in->salt_bytes, (int)in->cost,
				  (int)in->out_bytes, WC_SHA256) == 0 ? 0 : -1;
	case GUEST_KDF_HKDF_SHA256:
		return api.hkdf(WC_SHA256, in->pass, (uint32_t)in->pass_bytes,
				in->salt, (uint32_t)in->salt_bytes, in->info,
				(uint32_t)in->info_bytes, out,
				(uint32_t)in->out_bytes) == 0 ? 0 : -1;
	case GUEST_KDF_SCRYPT:
		if ((cost = log2_exact(in->cost)) < 0)
			return 1;
		return api.scrypt(out, in->pass, (int)in->pass_bytes, in->salt,
				  (int)in->salt_bytes, cost, (int)in->block,
				  (int)in->lanes, (int)in->out_bytes) == 0 ? 0 : -1;
	default:
		return -1;
	}
}

const struct guest_kdf_ops guest_kdf_wolfssl = {
	.supports = wo_supports,
	.derive = wo_derive,
};
