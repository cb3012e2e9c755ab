/* guest/backend-botan-kdf.c - the key derivation functions of Botan's FFI
 * (2.8 and later): botan_pwdhash with "PBKDF2(SHA-256)", "Scrypt" and
 * "Argon2id", and botan_kdf with "HKDF(SHA-256)" (extract with the salt,
 * expand with the label as info). botan_pwdhash takes no Argon2 secret
 * or associated data, so Botan cannot take RFC 9106's vector: its
 * Argon2id is checked against the other libraries only. Whether the
 * library was built with an algorithm is asked by one derivation at the
 * lowest cost when the run first asks for it (the FFI has no query; not
 * at load, whose footprint is measured). Prototypes restated from <botan/ffi.h>. */
#include "compat.h"

#include "backend-kdf.h"

static struct {
	int (*pwdhash)(const char *algo, size_t p1, size_t p2, size_t p3,
		       uint8_t *out, size_t outlen, const char *pass,
		       size_t passlen, const uint8_t *salt, size_t saltlen);
	int (*kdf)(const char *algo, uint8_t *out, size_t outlen,
		   const uint8_t *secret, size_t secretlen,
		   const uint8_t *salt, size_t saltlen, const uint8_t *label,
		   size_t labellen);
	bool probed, have[GUEST_KDF_COUNT];
} api;

static int bo_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out);

void guest_kdf_botan_load(void *handle)
{
	backend_sym(handle, &api.pwdhash, "botan_pwdhash");
	backend_sym(handle, &api.kdf, "botan_kdf");
}

/* Try every KDF once at its lowest cost into api.have. */
static void probe(void)
{
	static const uint8_t salt[16];
	struct guest_kdf_input in = {
		.pass = (const uint8_t *)"x", .pass_bytes = 1,
		.salt = salt, .salt_bytes = sizeof(salt), .info = salt,
		.block = 1, .memory_kib = 8, .lanes = 1, .out_bytes = 16,
	};
	uint8_t out[16];

	api.probed = true;
	for (int a = 0; a < GUEST_KDF_COUNT; a++) {
		api.have[a] = true;
		in.cost = a == GUEST_KDF_SCRYPT ? 2 : 1;
		api.have[a] = bo_derive((enum guest_kdf_algo)a, &in, out) == 0;
	}
}

static bool bo_supports(enum guest_kdf_algo algo)
{
	if (!api.probed)
		probe();
	return algo < GUEST_KDF_COUNT && api.have[algo];
}

static int bo_derive(enum guest_kdf_algo algo,
		     const struct guest_kdf_input *in, uint8_t *out)
{
	/* botan_pwdhash takes strlen of a password of length 0 */
	const char *pass = in->pass_bytes ? (const char *)in->pass : "";

	if (!bo_supports(algo))
		return -1;
	switch (algo) {
	case GUEST_KDF_PBKDF2_SHA256:
		if (!api.pwdhash)
			return -1;
		return api.pwdhash("PBKDF2(SHA-256)", (size_t)in->cost, 0, 0,
				   out, in->out_bytes, pass, in->pass_bytes,
				   in->salt, in->salt_bytes) == 0 ? 0 : -1;
	case GUEST_KDF_SCRYPT:
		if (!api.pwdhash)
			return -1;
		return api.pwdhash("Scrypt", (size_t)in->cost, in->block,
				   in->lanes, out, in->out_bytes, pass,
				   in->pass_bytes, in->salt,
				   in->salt_bytes) == 0 ? 0 : -1;
	case GUEST_KDF_ARGON2ID:
		if (!api.pwdhash)
			return -1;
		if (in->secret_bytes || in->ad_bytes)
			return 1;
		/* Botan's Argon2 parameters: memory (KiB), passes, lanes */
		return api.pwdhash("Argon2id", in->memory_kib, (size_t)in->cost,
				   in->lanes, out, in->out_bytes, pass,
				   in->pass_bytes, in->salt,
				   in->salt_bytes) == 0 ? 0 : -1;
	case GUEST_KDF_HKDF_SHA256:
		if (!api.kdf)
			return -1;
		return api.kdf("HKDF(SHA-256)", out, in->out_bytes, in->pass,
			       in->pass_bytes, in->salt, in->salt_bytes,
			       in->info, in->info_bytes) == 0 ? 0 : -1;
	default:
		return -1;
	}
}

const struct guest_kdf_ops guest_kdf_botan = {
	.supports = bo_supports,
	.derive = bo_derive,
};
