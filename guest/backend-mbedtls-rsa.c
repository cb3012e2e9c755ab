/* guest/backend-mbedtls-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) in Mbed TLS through its RSA module
 * (rsa.h), 2.28 (Debian bookworm) and 3.x.
 *
 * import: mbedtls_rsa_import_raw of the fixed test key's n, p, q, d and
 * e (guest/rsa-keys.h), then mbedtls_rsa_complete, which derives and
 * checks the CRT values (dp, dq, qinv) as Mbed TLS does for every key it
 * is given in parts; the padding set on the context (PKCS #1 v1.5, or
 * v2.1 with SHA-256 for MGF1). A public key: n and e, completed.
 * sign: SHA-256 of the message (mbedtls_sha256_ret in 2.28,
 * mbedtls_sha256 in 3.x), then mbedtls_rsa_pkcs1_sign (v1.5) or
 * mbedtls_rsa_rsassa_pss_sign_ext with a 32-byte salt; verify:
 * mbedtls_rsa_pkcs1_verify or mbedtls_rsa_rsassa_pss_verify_ext (salt
 * length 32 expected). The digest's id is asked of the library
 * (mbedtls_md_info_from_string "SHA256"): its enum changed in 3.x.
 *
 * The blinding of the private operation and PSS's salt take a random
 * generator: a key here hands them a deterministic xorshift64* stream,
 * as backend-mbedtls-ec.c does (its few ns are left out, where an
 * application would pay its CSPRNG's).
 *
 * keygen: mbedtls_rsa_gen_key (e 65537) on a new context, its generator
 * a deterministic stream too, one for the process so that every key is
 * a new one; the modulus exported.
 *
 * 3.0 dropped the mode argument (and the generator of the public
 * operations) of the sign and verify calls and the padding arguments of
 * mbedtls_rsa_init: which prototype applies is told by
 * mbedtls_sha256_ret, which only 2.x has. The context is given far more
 * room than it needs and its fields are never read. Prototypes restate
 * Mbed TLS 2.28.3's and 3.6's rsa.h. Constants: MBEDTLS_RSA_PKCS_V15 =
 * 0, MBEDTLS_RSA_PKCS_V21 = 1, MBEDTLS_RSA_PUBLIC = 0,
 * MBEDTLS_RSA_PRIVATE = 1 (2.x). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

#define MB_RSA_PKCS_V15 0	/* <mbedtls/rsa.h> */
#define MB_RSA_PKCS_V21 1	/* <mbedtls/rsa.h> */
#define MB_RSA_PUBLIC 0	/* <mbedtls/rsa.h> */
#define MB_RSA_PRIVATE 1	/* <mbedtls/rsa.h> */
#define PSS_SALT_BYTES 32

/* Bytes given to an mbedtls_rsa_context (about 300 in 2.28 and 3.6). */
#define RSA_CTX_BYTES 2048

typedef int (*mb_rng)(void *p_rng, unsigned char *out, size_t len);

static struct {
	bool v2, ok;
	int md_sha256;
	void (*init2)(void *ctx, int padding, int hash_id);	/* 2.x */
	void (*init3)(void *ctx);				/* 3.x */
	void (*rsa_free)(void *ctx);
	int (*set_padding)(void *ctx, int padding, int hash_id); /* void in
				 * 2.x: its result is not read there */
	int (*import_raw)(void *ctx, const unsigned char *n, size_t n_len,
			  const unsigned char *p, size_t p_len,
			  const unsigned char *q, size_t q_len,
			  const unsigned char *d, size_t d_len,
			  const unsigned char *e, size_t e_len);
	int (*complete)(void *ctx);
	int (*export_raw)(const void *ctx, unsigned char *n, size_t n_len,
			  unsigned char *p, size_t p_len, unsigned char *q,
			  size_t q_len, unsigned char *d, size_t d_len,
			  unsigned char *e, size_t e_len);
	int (*sha256)(const unsigned char *in, size_t len, unsigned char *out,
		      int is224);
	const void *(*md_from_string)(const char *name);
	int (*md_get_type)(const void *info);
	/* 2.x, with mode */
	int (*sign2)(void *ctx, mb_rng f_rng, void *p_rng, int mode,
		     int md_alg, unsigned int hashlen,
		     const unsigned char *hash, unsigned char *sig);
	int (*verify2)(void *ctx, mb_rng f_rng, void *p_rng, int mode,
		       int md_alg, unsigned int hashlen,
		       const unsigned char *hash, const unsigned char *sig);
	int (*pss_verify2)(void *ctx, mb_rng f_rng, void *p_rng, int mode,
			   int md_alg, unsigned int hashlen,
			   const unsigned char *hash, int mgf1_hash_id,
			   int expected_salt_len, const unsigned char *sig);
	/* 3.x */
	int (*sign3)(void *ctx, mb_rng f_rng, void *p_rng, int md_alg,
		     unsigned int hashlen, const unsigned char *hash,
		     unsigned char *sig);
	int (*verify3)(void *ctx, int md_alg, unsigned int hashlen,
		       const unsigned char *hash, const unsigned char *sig);
	int (*pss_verify3)(void *ctx, int md_alg, unsigned int hashlen,
			   const unsigned char *hash, int mgf1_hash_id,
			   int expected_salt_len, const unsigned char *sig);
	int (*gen_key)(void *ctx, mb_rng f_rng, void *p_rng,
		       unsigned int nbits, int exponent);
	/* both (2.28 has the 3.x prototype) */
	int (*pss_sign)(void *ctx, mb_rng f_rng, void *p_rng, int md_alg,
			unsigned int hashlen, const unsigned char *hash,
			int saltlen, unsigned char *sig);
} pk;

/* A key: its algorithm, whether it is private, the modulus's bytes, the
 * context and the random stream's state. */
struct mb_rsa_key {
	enum guest_pk_algo algo;
	bool priv, inited;
	size_t bytes;
	uint64_t rng;
	_Alignas(16) unsigned char ctx[RSA_CTX_BYTES];
};

/* Resolve the entry points in HANDLE (libmbedcrypto, loaded by
 * backend-mbedtls.c); without all of them RSA stays unsupported. */
void guest_rsa_mbedtls_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.rsa_free, "mbedtls_rsa_free" },
		{ &pk.set_padding, "mbedtls_rsa_set_padding" },
		{ &pk.import_raw, "mbedtls_rsa_import_raw" },
		{ &pk.complete, "mbedtls_rsa_complete" },
		{ &pk.export_raw, "mbedtls_rsa_export_raw" },
		{ &pk.md_from_string, "mbedtls_md_info_from_string" },
		{ &pk.md_get_type, "mbedtls_md_get_type" },
		{ &pk.pss_sign, "mbedtls_rsa_rsassa_pss_sign_ext" },
	};
	const struct backend_symbol v2[] = {
		{ &pk.init2, "mbedtls_rsa_init" },
		{ &pk.sign2, "mbedtls_rsa_pkcs1_sign" },
		{ &pk.verify2, "mbedtls_rsa_pkcs1_verify" },
		{ &pk.pss_verify2, "mbedtls_rsa_rsassa_pss_verify_ext" },
	};
	const struct backend_symbol v3[] = {
		{ &pk.init3, "mbedtls_rsa_init" },
		{ &pk.sign3, "mbedtls_rsa_pkcs1_sign" },
		{ &pk.verify3, "mbedtls_rsa_pkcs1_verify" },
		{ &pk.pss_verify3, "mbedtls_rsa_rsassa_pss_verify_ext" },
	};
	const void *md;
	char why[128];

	pk.ok = false;
	pk.v2 = backend_sym(handle, &pk.sha256, "mbedtls_sha256_ret") == 0;
	if (!pk.v2 && backend_sym(handle, &pk.sha256, "mbedtls_sha256") != 0)
		return;
	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) != 0)
		return;
	if ((pk.v2 ? backend_require(handle, v2, sizeof(v2) / sizeof(v2[0]),
				     why, sizeof(why))
		   : backend_require(handle, v3, sizeof(v3) / sizeof(v3[0]),
				     why, sizeof(why))) != 0 ||
	    !(md = pk.md_from_string("SHA256")))
		return;
	pk.md_sha256 = pk.md_get_type(md);
	pk.ok = true;
	if (backend_sym(handle, &pk.gen_key, "mbedtls_rsa_gen_key") != 0)
		pk.gen_key = NULL;
}

/* struct guest_pk_ops: the RSA algorithms, where resolved. */
static bool mb_rsa_supports(enum guest_pk_algo algo)
{
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* The f_rng of the blinding and the salt: LEN bytes of the xorshift64*
 * stream whose state P_RNG (a uint64_t, never 0) points to, into OUT.
 * Always 0. */
static int det_rng(void *p_rng, unsigned char *out, size_t len)
{
	uint64_t *st = p_rng;

	while (len) {
		uint64_t x = *st, r;
		size_t n = len < 8 ? len : 8;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*st = x;
		r = x * UINT64_C(0x2545f4914f6cdd1d);
		memcpy(out, &r, n);
		out += n;
		len -= n;
	}
	return 0;
}

/* Release KEY (struct mb_rsa_key, with what Mbed TLS allocated in its
 * context); NULL is ignored. */
static void mb_rsa_free(void *key)
{
	struct mb_rsa_key *k = key;

	if (!k)
		return;
	if (k->inited)
		pk.rsa_free(k->ctx);
	free(k);
}

/* A new key of ALGO: N (the modulus) and E, and for a private key (D
 * not NULL) P, Q and D (HALF bytes each for P and Q), imported and
 * completed, the padding set. Returns it (caller owns: mb_rsa_free) or
 * NULL when unsupported, out of memory or refused. */
static struct mb_rsa_key *key_make(enum guest_pk_algo algo, const uint8_t *n,
				   const uint8_t *p, const uint8_t *q,
				   const uint8_t *d)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	bool pss = algo == GUEST_PK_RSA_PSS_2048;
	struct mb_rsa_key *k;
	size_t h;

	if (!mb_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	k->priv = d != NULL;
	k->rng = UINT64_C(0x9e3779b97f4a7c15);
	h = d ? k->bytes / 2 : 0;
	if (pk.v2)
		pk.init2(k->ctx, MB_RSA_PKCS_V15, 0);
	else
		pk.init3(k->ctx);
	k->inited = true;
	pk.set_padding(k->ctx, pss ? MB_RSA_PKCS_V21 : MB_RSA_PKCS_V15,
		       pss ? pk.md_sha256 : 0);
	if (pk.import_raw(k->ctx, n, k->bytes, p, h, q, h, d, d ? k->bytes : 0,
			  t->e, t->e_bytes) != 0 ||
	    pk.complete(k->ctx) != 0) {
		mb_rsa_free(k);
		return NULL;
	}
	return k;
}

/* The fixed private key of ALGO (PRIV is not read). Returns it (caller
 * owns: mb_rsa_free) or NULL. */
static void *mb_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);

	(void)priv;
	return t ? key_make(algo, t->n, t->p, t->q, t->d) : NULL;
}

/* A public key of ALGO of the modulus PUB (e = 65537). Returns it
 * (caller owns: mb_rsa_free) or NULL. */
static void *mb_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	return key_make(algo, pub, NULL, NULL, NULL);
}

/* The modulus of KEY into PUB, exported from its context. Returns 0, or
 * -1 when Mbed TLS refused. */
static int mb_rsa_public(void *key, uint8_t *pub)
{
	struct mb_rsa_key *k = key;

	return pk.export_raw(k->ctx, pub, k->bytes, NULL, 0, NULL, 0, NULL, 0,
			     NULL, 0) == 0 ? 0 : -1;
}

/* Sign the LEN bytes of MSG with private KEY into SIG (the modulus's
 * bytes). Returns 0, or -1 when Mbed TLS failed. */
static int mb_rsa_sign(void *key, const uint8_t *msg, size_t len,
		       uint8_t *sig)
{
	struct mb_rsa_key *k = key;
	unsigned char digest[32];
	int rc;

	if (!k->priv || pk.sha256(msg, len, digest, 0) != 0)
		return -1;
	if (k->algo == GUEST_PK_RSA_PSS_2048)
		rc = pk.pss_sign(k->ctx, det_rng, &k->rng, pk.md_sha256,
				 sizeof(digest), digest, PSS_SALT_BYTES, sig);
	else if (pk.v2)
		rc = pk.sign2(k->ctx, det_rng, &k->rng, MB_RSA_PRIVATE,
			      pk.md_sha256, sizeof(digest), digest, sig);
	else
		rc = pk.sign3(k->ctx, det_rng, &k->rng, pk.md_sha256,
			      sizeof(digest), digest, sig);
	return rc == 0 ? 0 : -1;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 rejected (any refusal), -1 when the hash failed. */
static int mb_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			 const uint8_t *sig)
{
	struct mb_rsa_key *k = pub;
	unsigned char digest[32];
	unsigned int n = sizeof(digest);
	int rc;

	if (pk.sha256(msg, len, digest, 0) != 0)
		return -1;
	if (k->algo == GUEST_PK_RSA_PSS_2048)
		rc = pk.v2 ? pk.pss_verify2(k->ctx, NULL, NULL, MB_RSA_PUBLIC,
					    pk.md_sha256, n, digest,
					    pk.md_sha256, PSS_SALT_BYTES, sig)
			   : pk.pss_verify3(k->ctx, pk.md_sha256, n, digest,
					    pk.md_sha256, PSS_SALT_BYTES, sig);
	else
		rc = pk.v2 ? pk.verify2(k->ctx, NULL, NULL, MB_RSA_PUBLIC,
					pk.md_sha256, n, digest, sig)
			   : pk.verify3(k->ctx, pk.md_sha256, n, digest, sig);
	return rc == 0 ? 0 : 1;
}

/* A new key pair of ALGO's size (e = 65537); its modulus into N.
 * Returns 0, or -1 when Mbed TLS failed. */
static int mb_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	/* one stream for every key generated, so that each is new */
	static uint64_t rng = UINT64_C(0x2545f4914f6cdd1d);
	struct mb_rsa_key *k;
	int rc;

	if (!mb_rsa_supports(algo) || !pk.gen_key ||
	    !(k = calloc(1, sizeof(*k))))
		return -1;
	k->bytes = guest_pk_pub_bytes(algo);
	if (pk.v2)
		pk.init2(k->ctx, MB_RSA_PKCS_V15, 0);
	else
		pk.init3(k->ctx);
	k->inited = true;
	rc = pk.gen_key(k->ctx, det_rng, &rng, (unsigned)k->bytes * 8,
			65537) == 0 &&
	     mb_rsa_public(k, n) == 0 ? 0 : -1;
	mb_rsa_free(k);
	return rc;
}

const struct guest_pk_ops guest_rsa_mbedtls = {
	.supports = mb_rsa_supports,
	.key_new = mb_rsa_key_new,
	.pub_new = mb_rsa_pub_new,
	.key_free = mb_rsa_free,
	.public_key = mb_rsa_public,
	.sign = mb_rsa_sign,
	.verify = mb_rsa_verify,
	.keygen = mb_rsa_keygen,
};
