/* guest/backend-nettle-kdf.c - the key derivation functions of Nettle
 * (libnettle): pbkdf2_hmac_sha256, and HKDF as hkdf_extract then
 * hkdf_expand on HMAC-SHA256 contexts (3.3 and later). Nettle has no
 * scrypt or Argon2. The HMAC context is allocated on the stack, larger
 * than any Nettle's struct hmac_sha256_ctx (336 bytes in 3.x, less
 * since 3.10). Prototypes restated from <nettle/pbkdf2.h>,
 * <nettle/hkdf.h> and <nettle/hmac.h> (their symbols carry the nettle_
 * prefix). */
#include "compat.h"

#include <string.h>

#include "backend-kdf.h"

/* Room for a struct hmac_sha256_ctx, bytes. */
#define HMAC_CTX_BYTES 1024
#define SHA256_BYTES 32

typedef void update_fn(void *ctx, size_t len, const uint8_t *data);
typedef void digest_fn(void *ctx, size_t len, uint8_t *out);

static struct {
	void (*pbkdf2)(size_t keylen, const uint8_t *key, unsigned iter,
		       size_t saltlen, const uint8_t *salt, size_t len,
		       uint8_t *dst);
	void (*set_key)(void *ctx, size_t keylen, const uint8_t *key);
	update_fn *update;
	digest_fn *digest;
	void (*extract)(void *ctx, update_fn *update, digest_fn *digest,
			size_t digest_size, size_t secret_size,
			const uint8_t *secret, uint8_t *dst);
	void (*expand)(void *ctx, update_fn *update, digest_fn *digest,
		       size_t digest_size, size_t info_size,
		       const uint8_t *info, size_t length, uint8_t *dst);
	bool have_pbkdf2, have_hkdf;
} api;

void guest_kdf_nettle_load(void *handle)
{
	const struct backend_symbol hkdf[] = {
		{ &api.set_key, "nettle_hmac_sha256_set_key" },
		{ &api.update, "nettle_hmac_sha256_update" },
		{ &api.digest, "nettle_hmac_sha256_digest" },
		{ &api.extract, "nettle_hkdf_extract" },
		{ &api.expand, "nettle_hkdf_expand" },
	};
	char why[128];

	api.have_pbkdf2 = backend_sym(handle, &api.pbkdf2,
				      "nettle_pbkdf2_hmac_sha256") == 0;
	api.have_hkdf = backend_require(handle, hkdf, 5, why,
					sizeof(why)) == 0;
}

static bool ne_supports(enum guest_kdf_algo algo)
{
	return algo == GUEST_KDF_PBKDF2_SHA256 ? api.have_pbkdf2 :
	       algo == GUEST_KDF_HKDF_SHA256 && api.have_hkdf;
}

static int ne_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	_Alignas(16) uint8_t ctx[HMAC_CTX_BYTES];
	uint8_t prk[SHA256_BYTES];

	if (!ne_supports(algo))
		return -1;
	if (algo == GUEST_KDF_PBKDF2_SHA256) {
		api.pbkdf2(in->pass_bytes, in->pass, (unsigned)in->cost,
			   in->salt_bytes, in->salt, in->out_bytes, out);
		return 0;
	}
	/* RFC 5869 2.2: PRK = HMAC-Hash(salt, IKM); 2.3: expand with PRK */
	api.set_key(ctx, in->salt_bytes, in->salt);
	api.extract(ctx, api.update, api.digest, SHA256_BYTES,
		    in->pass_bytes, in->pass, prk);
	api.set_key(ctx, sizeof(prk), prk);
	api.expand(ctx, api.update, api.digest, SHA256_BYTES, in->info_bytes,
		   in->info, in->out_bytes, out);
	return 0;
}

const struct guest_kdf_ops guest_kdf_nettle = {
	.supports = ne_supports,
	.derive = ne_derive,
};
