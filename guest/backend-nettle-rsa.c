/* guest/backend-nettle-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) in Nettle's libhogweed, opened when a
 * public-key algorithm is first asked for (guest_pk_nettle_hogweed), as
 * the other public-key algorithms are.
 *
 * A key holds Nettle's struct rsa_public_key and (private keys) struct
 * rsa_private_key, GMP integers. import reads the fixed test key's
 * components (guest/rsa-keys.h) into them (nettle_mpz_set_str_256_u:
 * PKCS #1's dp, dq and qinv are Nettle's a, b and c) and prepares both
 * (rsa_public_key_prepare, rsa_private_key_prepare: the sizes, and a
 * check of the modulus). sign hashes the message with Nettle's SHA-256
 * and signs the digest: rsa_sha256_sign_digest_tr (PKCS #1 v1.5) or
 * rsa_pss_sha256_sign_digest_tr (PSS, MGF1 with SHA-256, a 32-byte
 * salt), both with the blinding Nettle takes random bytes for, and the
 * salt: here from a deterministic xorshift64* stream of the key's (as
 * backend-nettle-ec.c's nonces), not a cryptographic generator, whose
 * few ns are left out where an application would pay its CSPRNG's.
 * verify reads the signature into an integer and checks it
 * (rsa_sha256_verify_digest, rsa_pss_sha256_verify_digest).
 *
 * keygen: rsa_generate_keypair with e = 65537 preset, its random bytes
 * from a deterministic stream as above, one for the process, so that
 * every key is a new one (the primes' search is the cost; the keys are
 * no secret here), the modulus read back.
 *
 * Every entry point is resolved through libhogweed's handle (dlsym
 * searches libnettle's SHA-256 and GMP's __gmpz_* too). Prototypes
 * restate <nettle/rsa.h>, <nettle/bignum.h> and <nettle/sha2.h> (3.4 to
 * 3.10): struct rsa_public_key is { size_t size; mpz_t n, e; }, struct
 * rsa_private_key { size_t size; mpz_t d, p, q, a, b, c; }, an mpz_t
 * { int, int, pointer } (GMP 6). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

struct nt_mpz {
	int alloc, size;
	void *d;
};
struct nt_rsa_pub {
	size_t size;
	struct nt_mpz n, e;
};
struct nt_rsa_priv {
	size_t size;
	struct nt_mpz d, p, q, a, b, c;
};

/* Room for struct sha256_ctx (112 bytes in 3.4 to 3.10). */
#define SHA256_CTX_BYTES 256
#define PSS_SALT_BYTES 32

typedef void nt_random_fn(void *ctx, size_t length, uint8_t *dst);

static struct {
	bool tried, ok;
	void (*mpz_init)(struct nt_mpz *x);
	void (*mpz_clear)(struct nt_mpz *x);
	void (*mpz_set_256)(struct nt_mpz *x, size_t length,
			    const uint8_t *s);
	void (*mpz_get_256)(size_t length, uint8_t *s,
			    const struct nt_mpz *x);
	void (*pub_init)(struct nt_rsa_pub *key);
	void (*pub_clear)(struct nt_rsa_pub *key);
	int (*pub_prepare)(struct nt_rsa_pub *key);
	void (*priv_init)(struct nt_rsa_priv *key);
	void (*priv_clear)(struct nt_rsa_priv *key);
	int (*priv_prepare)(struct nt_rsa_priv *key);
	int (*sign)(const struct nt_rsa_pub *pub,
		    const struct nt_rsa_priv *key, void *random_ctx,
		    nt_random_fn *random, const uint8_t *digest,
		    struct nt_mpz *s);
	int (*verify)(const struct nt_rsa_pub *key, const uint8_t *digest,
		      const struct nt_mpz *s);
	int (*pss_sign)(const struct nt_rsa_pub *pub,
			const struct nt_rsa_priv *key, void *random_ctx,
			nt_random_fn *random, size_t salt_length,
			const uint8_t *salt, const uint8_t *digest,
			struct nt_mpz *s);
	int (*pss_verify)(const struct nt_rsa_pub *key, size_t salt_length,
			  const uint8_t *digest, const struct nt_mpz *s);
	int (*generate)(struct nt_rsa_pub *pub, struct nt_rsa_priv *key,
			void *random_ctx, nt_random_fn *random,
			void *progress_ctx, void *progress, unsigned n_size,
			unsigned e_size);
	void (*sha_init)(void *ctx);
	void (*sha_update)(void *ctx, size_t length, const uint8_t *data);
	void (*sha_digest)(void *ctx, size_t length, uint8_t *digest);
	bool pss;
} pk;

/* A key: its algorithm, the public and (PRIV) private key, the integer
 * of a signature and the random stream's state. */
struct nt_rsa_key {
	enum guest_pk_algo algo;
	bool priv, inited;
	size_t bytes;
	struct nt_rsa_pub pub;
	struct nt_rsa_priv key;
	struct nt_mpz s;
	uint64_t rng;
};

/* Resolve the entry points in libhogweed, once. */
static void resolve(void)
{
	const struct backend_symbol sym[] = {
		{ &pk.mpz_init, "__gmpz_init" },
		{ &pk.mpz_clear, "__gmpz_clear" },
		{ &pk.mpz_set_256, "nettle_mpz_set_str_256_u" },
		{ &pk.mpz_get_256, "nettle_mpz_get_str_256" },
		{ &pk.pub_init, "nettle_rsa_public_key_init" },
		{ &pk.pub_clear, "nettle_rsa_public_key_clear" },
		{ &pk.pub_prepare, "nettle_rsa_public_key_prepare" },
		{ &pk.priv_init, "nettle_rsa_private_key_init" },
		{ &pk.priv_clear, "nettle_rsa_private_key_clear" },
		{ &pk.priv_prepare, "nettle_rsa_private_key_prepare" },
		{ &pk.sign, "nettle_rsa_sha256_sign_digest_tr" },
		{ &pk.verify, "nettle_rsa_sha256_verify_digest" },
		{ &pk.sha_init, "nettle_sha256_init" },
		{ &pk.sha_update, "nettle_sha256_update" },
		{ &pk.sha_digest, "nettle_sha256_digest" },
	};
	const struct backend_symbol pss[] = {
		{ &pk.pss_sign, "nettle_rsa_pss_sha256_sign_digest_tr" },
		{ &pk.pss_verify, "nettle_rsa_pss_sha256_verify_digest" },
	};
	const struct backend_symbol gen[] = {
		{ &pk.generate, "nettle_rsa_generate_keypair" },
	};
	void *h = guest_pk_nettle_hogweed();
	char why[128];

	pk.tried = true;
	if (!h)
		return;
	pk.ok = backend_require(h, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0;
	pk.pss = pk.ok && backend_require(h, pss, sizeof(pss) / sizeof(pss[0]),
					  why, sizeof(why)) == 0;
	if (!pk.ok || backend_require(h, gen, 1, why, sizeof(why)) != 0)
		pk.generate = NULL;
}

/* struct guest_pk_ops: the RSA algorithms, where resolved (PSS: Nettle
 * 3.4 and later). */
static bool nt_rsa_supports(enum guest_pk_algo algo)
{
	if (!pk.tried)
		resolve();
	if (algo == GUEST_PK_RSA_PSS_2048)
		return pk.pss;
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* Release KEY (struct nt_rsa_key, with what GMP allocated); NULL is
 * ignored. */
static void nt_rsa_free(void *key)
{
	struct nt_rsa_key *k = key;

	if (!k)
		return;
	if (k->inited) {
		pk.pub_clear(&k->pub);
		pk.priv_clear(&k->key);
		pk.mpz_clear(&k->s);
	}
	free(k);
}

/* A new key record of ALGO, its Nettle and GMP objects initialised, or
 * NULL. */
static struct nt_rsa_key *key_alloc(enum guest_pk_algo algo)
{
	struct nt_rsa_key *k;

	if (!nt_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	k->rng = UINT64_C(0x9e3779b97f4a7c15);
	pk.pub_init(&k->pub);
	pk.priv_init(&k->key);
	pk.mpz_init(&k->s);
	k->inited = true;
	return k;
}

/* The fixed private key of ALGO (PRIV is not read), prepared. Returns it
 * (caller owns: nt_rsa_free) or NULL when unsupported, out of memory or
 * refused. */
static void *nt_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct nt_rsa_key *k = key_alloc(algo);
	size_t h;

	(void)priv;
	if (!k)
		return NULL;
	h = k->bytes / 2;
	k->priv = true;
	pk.mpz_set_256(&k->pub.n, k->bytes, t->n);
	pk.mpz_set_256(&k->pub.e, t->e_bytes, t->e);
	pk.mpz_set_256(&k->key.d, k->bytes, t->d);
	pk.mpz_set_256(&k->key.p, h, t->p);
	pk.mpz_set_256(&k->key.q, h, t->q);
	pk.mpz_set_256(&k->key.a, h, t->dp);
	pk.mpz_set_256(&k->key.b, h, t->dq);
	pk.mpz_set_256(&k->key.c, h, t->qinv);
	if (pk.pub_prepare(&k->pub) != 1 || pk.priv_prepare(&k->key) != 1 ||
	    k->pub.size != k->bytes) {
		nt_rsa_free(k);
		return NULL;
	}
	return k;
}

/* A public key of ALGO of the modulus PUB (e = 65537). Returns it
 * (caller owns: nt_rsa_free) or NULL. */
static void *nt_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct nt_rsa_key *k = key_alloc(algo);

	if (!k)
		return NULL;
	pk.mpz_set_256(&k->pub.n, k->bytes, pub);
	pk.mpz_set_256(&k->pub.e, t->e_bytes, t->e);
	if (pk.pub_prepare(&k->pub) != 1 || k->pub.size != k->bytes) {
		nt_rsa_free(k);
		return NULL;
	}
	return k;
}

/* The modulus of KEY into PUB (its bytes); cannot fail (0). */
static int nt_rsa_public(void *key, uint8_t *pub)
{
	struct nt_rsa_key *k = key;

	pk.mpz_get_256(k->bytes, pub, &k->pub.n);
	return 0;
}

/* The nettle_random_func of the blinding and the salt: LENGTH bytes of
 * the xorshift64* stream whose state CTX (a uint64_t, never 0) points
 * to, into DST. */
static void det_rng(void *ctx, size_t length, uint8_t *dst)
{
	uint64_t *s = ctx;

	while (length) {
		uint64_t x = *s, r;
		size_t n = length < 8 ? length : 8;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*s = x;
		r = x * UINT64_C(0x2545f4914f6cdd1d);
		memcpy(dst, &r, n);
		dst += n;
		length -= n;
	}
}

/* SHA-256 of the LEN bytes of MSG into DIGEST (32 bytes). */
static void sha256(const uint8_t *msg, size_t len, uint8_t *digest)
{
	_Alignas(16) unsigned char ctx[SHA256_CTX_BYTES];

	pk.sha_init(ctx);
	pk.sha_update(ctx, len, msg);
	pk.sha_digest(ctx, 32, digest);
}

/* Sign the LEN bytes of MSG with KEY into SIG (the modulus's bytes).
 * Returns 0, or -1 for a public key or when Nettle failed. */
static int nt_rsa_sign(void *key, const uint8_t *msg, size_t len,
		       uint8_t *sig)
{
	struct nt_rsa_key *k = key;
	uint8_t digest[32], salt[PSS_SALT_BYTES];
	int ok;

	if (!k->priv)
		return -1;
	sha256(msg, len, digest);
	if (k->algo == GUEST_PK_RSA_PSS_2048) {
		det_rng(&k->rng, sizeof(salt), salt);
		ok = pk.pss_sign(&k->pub, &k->key, &k->rng, det_rng,
				 sizeof(salt), salt, digest, &k->s);
	} else {
		ok = pk.sign(&k->pub, &k->key, &k->rng, det_rng, digest, &k->s);
	}
	if (ok != 1)
		return -1;
	pk.mpz_get_256(k->bytes, sig, &k->s);
	return 0;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 rejected. */
static int nt_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			 const uint8_t *sig)
{
	struct nt_rsa_key *k = pub;
	uint8_t digest[32];
	int ok;

	sha256(msg, len, digest);
	pk.mpz_set_256(&k->s, k->bytes, sig);
	if (k->algo == GUEST_PK_RSA_PSS_2048)
		ok = pk.pss_verify(&k->pub, PSS_SALT_BYTES, digest, &k->s);
	else
		ok = pk.verify(&k->pub, digest, &k->s);
	return ok == 1 ? 0 : 1;
}

/* A new key pair of ALGO's size (e = 65537); its modulus into N.
 * Returns 0, or -1 when Nettle failed. */
static int nt_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	static const uint8_t e[3] = { 0x01, 0x00, 0x01 };
	/* one stream for every key generated, so that each is new */
	static uint64_t rng = UINT64_C(0x2545f4914f6cdd1d);
	struct nt_rsa_key *k = key_alloc(algo);
	int rc = -1;

	if (!k || !pk.generate) {
		nt_rsa_free(k);
		return -1;
	}
	pk.mpz_set_256(&k->pub.e, sizeof(e), e);
	if (pk.generate(&k->pub, &k->key, &rng, det_rng, NULL, NULL,
			(unsigned)k->bytes * 8, 0) == 1) {
		pk.mpz_get_256(k->bytes, n, &k->pub.n);
		rc = 0;
	}
	nt_rsa_free(k);
	return rc;
}

const struct guest_pk_ops guest_rsa_nettle = {
	.supports = nt_rsa_supports,
	.key_new = nt_rsa_key_new,
	.pub_new = nt_rsa_pub_new,
	.key_free = nt_rsa_free,
	.public_key = nt_rsa_public,
	.sign = nt_rsa_sign,
	.verify = nt_rsa_verify,
	.keygen = nt_rsa_keygen,
};
