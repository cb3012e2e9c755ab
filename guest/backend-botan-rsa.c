/* guest/backend-botan-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) through Botan 2's FFI, when the build
 * exports them (Debian bookworm's 2.19 does).
 *
 * import makes what Botan needs to use a key, as backend-botan-ec.c
 * does: the key object, botan_privkey_load_rsa of the fixed test key's p,
 * q and e (guest/rsa-keys.h) as botan_mp_t - Botan computes d and the CRT
 * values from them - and its signature operation object, with
 * "EMSA3(SHA-256)" (PKCS #1 v1.5) or "EMSA4(SHA-256,MGF1,32)" (PSS, MGF1
 * with SHA-256, a 32-byte salt, which its verifier then requires), Botan
 * 2's names. A public key: botan_pubkey_load_rsa of n and e, and its
 * verification object. The modulus is read back with
 * botan_privkey_rsa_get_n. sign and verify give the message to the
 * operation object (botan_pk_op_sign_update, _finish, which hash it);
 * the signer's generator (blinding, PSS's salt) is one "system" RNG made
 * at load. keygen: botan_privkey_create_rsa with that generator (e
 * 65537), the modulus read back. Botan 2's import is slow beside the others' (milliseconds):
 * the signer's blinder is set up when the operation object is made, a
 * constant-time inversion modulo n among it - work an application pays
 * once per key, as here. Prototypes restate <botan/ffi.h> (2.19); return value 0 is
 * success, BOTAN_FFI_INVALID_VERIFIER (1) a rejected signature. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

typedef void *bh;	/* an opaque Botan FFI object */

static struct {
	int (*mp_init)(bh *mp);
	int (*mp_from_bin)(bh mp, const uint8_t *bin, size_t len);
	int (*mp_to_bin)(bh mp, uint8_t *out);
	int (*mp_num_bytes)(bh mp, size_t *bytes);
	int (*mp_destroy)(bh mp);
	int (*load_rsa)(bh *key, bh p, bh q, bh e);
	int (*pub_load_rsa)(bh *key, bh n, bh e);
	int (*get_n)(bh n, bh key);
	int (*priv_destroy)(bh key);
	int (*pub_destroy)(bh key);
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
	int (*create_rsa)(bh *key, bh rng, size_t bits);
	bool ok;
	bh rng;		/* the signer's, made at load */
} pk;

/* A key: its algorithm, whether it is public, the modulus's bytes, the
 * Botan key object and its operation object. */
struct bo_rsa_key {
	enum guest_pk_algo algo;
	bool is_public;
	size_t bytes;
	bh key, op;
};

/* Resolve the entry points in HANDLE (libbotan, loaded by
 * backend-botan.c); without all of them RSA stays unsupported. */
void guest_rsa_botan_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.mp_init, "botan_mp_init" },
		{ &pk.mp_from_bin, "botan_mp_from_bin" },
		{ &pk.mp_to_bin, "botan_mp_to_bin" },
		{ &pk.mp_num_bytes, "botan_mp_num_bytes" },
		{ &pk.mp_destroy, "botan_mp_destroy" },
		{ &pk.load_rsa, "botan_privkey_load_rsa" },
		{ &pk.pub_load_rsa, "botan_pubkey_load_rsa" },
		{ &pk.get_n, "botan_privkey_rsa_get_n" },
		{ &pk.priv_destroy, "botan_privkey_destroy" },
		{ &pk.pub_destroy, "botan_pubkey_destroy" },
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

	pk.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0 &&
		pk.rng_init(&pk.rng, "system") == 0;
	if (backend_sym(handle, &pk.create_rsa, "botan_privkey_create_rsa") != 0)
		pk.create_rsa = NULL;
}

/* struct guest_pk_ops: the RSA algorithms, where resolved. */
static bool bo_rsa_supports(enum guest_pk_algo algo)
{
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* Botan 2's name of ALGO's padding. */
static const char *padding(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_RSA_PSS_2048 ? "EMSA4(SHA-256,MGF1,32)"
					     : "EMSA3(SHA-256)";
}

/* Release KEY (struct bo_rsa_key, with its Botan objects); NULL is
 * ignored. */
static void bo_rsa_free(void *key)
{
	struct bo_rsa_key *k = key;

	if (!k)
		return;
	if (k->op)
		(k->is_public ? pk.verify_destroy : pk.sign_destroy)(k->op);
	if (k->key)
		(k->is_public ? pk.pub_destroy : pk.priv_destroy)(k->key);
	free(k);
}

/* A new botan_mp_t of the LEN big-endian bytes at BIN into *MP. Returns
 * 0, or -1 (*MP NULL) when Botan refused. */
static int mp_of(bh *mp, const uint8_t *bin, size_t len)
{
	if (pk.mp_init(mp) != 0) {
		*mp = NULL;
		return -1;
	}
	if (pk.mp_from_bin(*mp, bin, len) != 0) {
		pk.mp_destroy(*mp);
		*mp = NULL;
		return -1;
	}
	return 0;
}

/* A key of ALGO: private (PUB NULL: the fixed key from p, q and e) or
 * public (modulus PUB, e = 65537), with its operation object. Returns it
 * (caller owns: bo_rsa_free) or NULL when unsupported, out of memory or
 * refused. */
static struct bo_rsa_key *key_make(enum guest_pk_algo algo, const uint8_t *pub)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct bo_rsa_key *k;
	bh a = NULL, b = NULL, e = NULL;
	int rc = -1;

	if (!bo_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	k->is_public = pub != NULL;
	if (mp_of(&e, t->e, t->e_bytes) == 0) {
		if (pub)
			rc = mp_of(&a, pub, k->bytes) == 0 ?
			     pk.pub_load_rsa(&k->key, a, e) : -1;
		else
			rc = mp_of(&a, t->p, k->bytes / 2) == 0 &&
			     mp_of(&b, t->q, k->bytes / 2) == 0 ?
			     pk.load_rsa(&k->key, a, b, e) : -1;
	}
	if (a)
		pk.mp_destroy(a);
	if (b)
		pk.mp_destroy(b);
	if (e)
		pk.mp_destroy(e);
	if (rc != 0) {
		k->key = NULL;
		goto fail;
	}
	if ((pub ? pk.verify_create : pk.sign_create)(&k->op, k->key,
						      padding(algo), 0) != 0) {
		k->op = NULL;
		goto fail;
	}
	return k;
fail:
	bo_rsa_free(k);
	return NULL;
}

/* The fixed private key of ALGO (PRIV is not read). Returns it (caller
 * owns: bo_rsa_free) or NULL. */
static void *bo_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	(void)priv;
	return key_make(algo, NULL);
}

/* A public key of ALGO of the modulus PUB. Returns it (caller owns:
 * bo_rsa_free) or NULL. */
static void *bo_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	return key_make(algo, pub);
}

/* The modulus of private KEY into PUB (right-aligned). Returns 0, or -1
 * for a public key or when Botan refused. */
static int bo_rsa_public(void *key, uint8_t *pub)
{
	struct bo_rsa_key *k = key;
	uint8_t n[GUEST_PK_PUB_MAX];
	size_t len = 0;
	bh mp;
	int rc = -1;

	if (k->is_public || pk.mp_init(&mp) != 0)
		return -1;
	if (pk.get_n(mp, k->key) == 0 && pk.mp_num_bytes(mp, &len) == 0 &&
	    len <= k->bytes && pk.mp_to_bin(mp, n) == 0) {
		memset(pub, 0, k->bytes - len);
		memcpy(pub + k->bytes - len, n, len);
		rc = 0;
	}
	pk.mp_destroy(mp);
	return rc;
}

/* Sign the LEN bytes of MSG with KEY into SIG (the modulus's bytes).
 * Returns 0, or -1 when Botan failed. */
static int bo_rsa_sign(void *key, const uint8_t *msg, size_t len,
		       uint8_t *sig)
{
	struct bo_rsa_key *k = key;
	size_t n = k->bytes;

	return !k->is_public && pk.sign_update(k->op, msg, len) == 0 &&
	       pk.sign_finish(k->op, pk.rng, sig, &n) == 0 &&
	       n == k->bytes ? 0 : -1;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 rejected, -1 when the message could not be given. */
static int bo_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			 const uint8_t *sig)
{
	struct bo_rsa_key *k = pub;

	if (!k->is_public || pk.verify_update(k->op, msg, len) != 0)
		return -1;
	return pk.verify_finish(k->op, sig, k->bytes) == 0 ? 0 : 1;
}

/* A new key pair of ALGO's size; its modulus into N. Returns 0, or -1
 * when Botan failed. */
static int bo_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	struct bo_rsa_key k = { algo, false, guest_pk_pub_bytes(algo), NULL,
				NULL };
	int rc;

	if (!bo_rsa_supports(algo) || !pk.create_rsa ||
	    pk.create_rsa(&k.key, pk.rng, k.bytes * 8) != 0)
		return -1;
	rc = bo_rsa_public(&k, n);
	pk.priv_destroy(k.key);
	return rc;
}

const struct guest_pk_ops guest_rsa_botan = {
	.supports = bo_rsa_supports,
	.key_new = bo_rsa_key_new,
	.pub_new = bo_rsa_pub_new,
	.key_free = bo_rsa_free,
	.public_key = bo_rsa_public,
	.sign = bo_rsa_sign,
	.verify = bo_rsa_verify,
	.keygen = bo_rsa_keygen,
};
