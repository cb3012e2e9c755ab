/* guest/backend-botan-pk.c - X25519 and Ed25519 through Botan 2's FFI
 * (botan_privkey_load_x25519 / _ed25519, botan_pk_op_*), when the build
 * exports them (Debian bookworm's 2.19 does). Botan 2 has no X448 (it
 * came with Botan 3.4): unsupported.
 *
 * Key set-up (import) makes what Botan needs to use a key: the key object
 * (Ed25519: which derives the public key from the seed) and its operation
 * object (key agreement "Raw"; signature "Pure"), as an application
 * holding a key does once. The peer's public key of a derive is taken raw
 * in every call (botan_pk_op_key_agreement takes its bytes). A verify
 * runs its operation's update and finish on the kept verify object;
 * Botan's Ed25519 signer is deterministic and never reads the random
 * generator its finish call takes. Prototypes restate <botan/ffi.h>
 * (2.19); return value 0 is success, BOTAN_FFI_INVALID_VERIFIER (1) a
 * rejected signature. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

typedef void *bh;	/* an opaque Botan FFI object */

static struct {
	int (*load_x25519)(bh *key, const uint8_t priv[32]);
	int (*x25519_pub)(bh pub, uint8_t out[32]);
	int (*load_ed25519)(bh *key, const uint8_t seed[32]);
	int (*load_ed25519_pub)(bh *key, const uint8_t pub[32]);
	int (*ed25519_pub)(bh pub, uint8_t out[32]);
	int (*export_pub)(bh *pub, bh priv);
	int (*priv_destroy)(bh key);
	int (*pub_destroy)(bh key);
	int (*ka_create)(bh *op, bh key, const char *kdf, uint32_t flags);
	int (*ka)(bh op, uint8_t *out, size_t *out_len, const uint8_t *other,
		  size_t other_len, const uint8_t *salt, size_t salt_len);
	int (*ka_destroy)(bh op);
	int (*sign_create)(bh *op, bh key, const char *padding,
			   uint32_t flags);
	int (*sign_update)(bh op, const uint8_t *in, size_t len);
	int (*sign_finish)(bh op, bh rng, uint8_t *sig, size_t *sig_len);
	int (*sign_destroy)(bh op);
	int (*verify_create)(bh *op, bh key, const char *padding,
			     uint32_t flags);
	int (*verify_update)(bh op, const uint8_t *in, size_t len);
	int (*verify_finish)(bh op, const uint8_t *sig, size_t sig_len);
	int (*verify_destroy)(bh op);
	int (*rng_init)(bh *rng, const char *type);
	bool x25519, ed25519;
	bh rng;		/* the signer's (unused by Ed25519), made at load */
} pk;

/* A key: ALGO's Botan private (or, for verify, public) key object, its
 * operation object and its public key's bytes. */
struct bo_key {
	enum guest_pk_algo algo;
	int is_public;
	bh key, op;
	uint8_t pub[GUEST_PK_KEY_BYTES];
};

void guest_pk_botan_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.export_pub, "botan_privkey_export_pubkey" },
		{ &pk.priv_destroy, "botan_privkey_destroy" },
		{ &pk.pub_destroy, "botan_pubkey_destroy" },
	};
	const struct backend_symbol x[] = {
		{ &pk.load_x25519, "botan_privkey_load_x25519" },
		{ &pk.x25519_pub, "botan_pubkey_x25519_get_pubkey" },
		{ &pk.ka_create, "botan_pk_op_key_agreement_create" },
		{ &pk.ka, "botan_pk_op_key_agreement" },
		{ &pk.ka_destroy, "botan_pk_op_key_agreement_destroy" },
	};
	const struct backend_symbol ed[] = {
		{ &pk.load_ed25519, "botan_privkey_load_ed25519" },
		{ &pk.load_ed25519_pub, "botan_pubkey_load_ed25519" },
		{ &pk.ed25519_pub, "botan_pubkey_ed25519_get_pubkey" },
		{ &pk.sign_create, "botan_pk_op_sign_create" },
		{ &pk.sign_update, "botan_pk_op_sign_update" },
		{ &pk.sign_finish, "botan_pk_op_sign_finish" },
		{ &pk.sign_destroy, "botan_pk_op_sign_destroy" },
		{ &pk.verify_create, "botan_pk_op_verify_create" },
		{ &pk.verify_update, "botan_pk_op_verify_update" },
		{ &pk.verify_finish, "botan_pk_op_verify_finish" },
		{ &pk.verify_destroy, "botan_pk_op_verify_destroy" },
		{ &pk.rng_init, "botan_rng_init" },
	};
	char why[128];

	if (backend_require(handle, common,
			    sizeof(common) / sizeof(common[0]), why,
			    sizeof(why)) < 0)
		return;
	pk.x25519 = backend_require(handle, x, sizeof(x) / sizeof(x[0]), why,
				    sizeof(why)) == 0;
	pk.ed25519 = backend_require(handle, ed, sizeof(ed) / sizeof(ed[0]),
				     why, sizeof(why)) == 0 &&
		     pk.rng_init(&pk.rng, "system") == 0;
}

static bool bo_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? pk.x25519 :
	       algo == GUEST_PK_ED25519 ? pk.ed25519 : false;
}

static void bo_pk_free(void *key)
{
	struct bo_key *k = key;

	if (!k)
		return;
	if (k->op)
		(k->algo == GUEST_PK_X25519 ? pk.ka_destroy :
		 k->is_public ? pk.verify_destroy : pk.sign_destroy)(k->op);
	if (k->key)
		(k->is_public ? pk.pub_destroy : pk.priv_destroy)(k->key);
	free(k);
}

/* The public key of private key object PRIV of ALGO into OUT. */
static int public_bytes(enum guest_pk_algo algo, bh priv, uint8_t *out)
{
	bh pub = NULL;
	int rc;

	if (pk.export_pub(&pub, priv) != 0)
		return -1;
	rc = (algo == GUEST_PK_X25519 ? pk.x25519_pub : pk.ed25519_pub)(pub,
									 out);
	pk.pub_destroy(pub);
	return rc == 0 ? 0 : -1;
}

static void *bo_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct bo_key *k;

	if (!bo_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	if ((algo == GUEST_PK_X25519 ? pk.load_x25519 : pk.load_ed25519)(
		     &k->key, priv) != 0) {
		k->key = NULL;
		goto fail;
	}
	if (public_bytes(algo, k->key, k->pub) < 0)
		goto fail;
	if ((algo == GUEST_PK_X25519 ? pk.ka_create(&k->op, k->key, "Raw", 0) :
	     pk.sign_create(&k->op, k->key, "Pure", 0)) != 0) {
		k->op = NULL;
		goto fail;
	}
	return k;
fail:
	bo_pk_free(k);
	return NULL;
}

static void *bo_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct bo_key *k;

	if (algo != GUEST_PK_ED25519 || !bo_pk_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->is_public = 1;
	memcpy(k->pub, pub, GUEST_PK_KEY_BYTES);
	if (pk.load_ed25519_pub(&k->key, pub) != 0) {
		k->key = NULL;
		goto fail;
	}
	if (pk.verify_create(&k->op, k->key, "Pure", 0) != 0) {
		k->op = NULL;
		goto fail;
	}
	return k;
fail:
	bo_pk_free(k);
	return NULL;
}

static int bo_pk_public(void *key, uint8_t *pub)
{
	struct bo_key *k = key;

	memcpy(pub, k->pub, GUEST_PK_KEY_BYTES);
	return 0;
}

static int bo_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct bo_key *k = key;
	size_t len = GUEST_PK_KEY_BYTES;

	return pk.ka(k->op, out, &len, peer, GUEST_PK_KEY_BYTES, NULL, 0) ==
		       0 && len == GUEST_PK_KEY_BYTES ? 0 : -1;
}

static int bo_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct bo_key *k = key;
	size_t n = GUEST_PK_SIG_BYTES;

	return pk.sign_update(k->op, msg, len) == 0 &&
	       pk.sign_finish(k->op, pk.rng, sig, &n) == 0 &&
	       n == GUEST_PK_SIG_BYTES ? 0 : -1;
}

static int bo_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct bo_key *k = pub;

	if (pk.verify_update(k->op, msg, len) != 0)
		return -1;
	return pk.verify_finish(k->op, sig, GUEST_PK_SIG_BYTES) == 0 ? 0 : 1;
}

const struct guest_pk_ops guest_pk_botan = {
	.supports = bo_pk_supports,
	.key_new = bo_pk_key_new,
	.pub_new = bo_pk_pub_new,
	.key_free = bo_pk_free,
	.public_key = bo_pk_public,
	.derive = bo_pk_derive,
	.sign = bo_pk_sign,
	.verify = bo_pk_verify,
};
