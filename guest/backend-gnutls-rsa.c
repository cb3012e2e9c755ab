/* guest/backend-gnutls-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) in GnuTLS through its abstract key API
 * (gnutls/abstract.h), GnuTLS 3.6 and later (Debian bookworm has 3.7.9).
 *
 * import: gnutls_privkey_import_rsa_raw of the fixed test key's
 * components (guest/rsa-keys.h: n, e, d, p, q, the coefficient qinv,
 * dp and dq), which GnuTLS checks and completes as it does a key it
 * reads. A public key: gnutls_pubkey_import_rsa_raw (n, e), once. The
 * modulus is kept as it was given (GnuTLS's export allocates).
 *
 * sign and verify take the message as a gnutls_datum_t and GnuTLS
 * hashes it: gnutls_privkey_sign_data2 / gnutls_pubkey_verify_data2 with
 * GNUTLS_SIGN_RSA_SHA256 (PKCS #1 v1.5) or GNUTLS_SIGN_RSA_PSS_RSAE_SHA256
 * (PSS with an rsaEncryption key, as TLS 1.3 signs: MGF1 with SHA-256
 * and a salt as long as the hash, 32 bytes; GNUTLS_SIGN_RSA_PSS_SHA256 is
 * the same scheme for keys of the RSA-PSS type). A signature comes back
 * in memory GnuTLS allocates, released with gnutls_free in every call,
 * as an application does.
 *
 * keygen: gnutls_privkey_generate (GNUTLS_PK_RSA, its default e 65537),
 * the modulus read back with gnutls_privkey_export_rsa_raw (the other
 * parts not asked for), which allocates it.
 *
 * Prototypes restate gnutls/abstract.h and gnutls/gnutls.h of 3.7.9.
 * Constants (gnutls/gnutls.h): GNUTLS_PK_RSA = 1, GNUTLS_SIGN_RSA_SHA256 = 6,
 * GNUTLS_SIGN_RSA_PSS_RSAE_SHA256 = 40, GNUTLS_E_PK_SIG_VERIFY_FAILED =
 * -89. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

#define GT_PK_RSA 1	/* <gnutls/gnutls.h> */
#define GT_SIGN_RSA_SHA256 6	/* <gnutls/gnutls.h> */
#define GT_SIGN_RSA_PSS_RSAE_SHA256 40	/* <gnutls/gnutls.h> */
#define GT_E_PK_SIG_VERIFY_FAILED (-89)	/* <gnutls/gnutls.h> */

/* gnutls_datum_t */
struct gt_datum {
	unsigned char *data;
	unsigned int size;
};

typedef struct gnutls_privkey_st *gt_privkey;
typedef struct gnutls_pubkey_st *gt_pubkey;

static struct {
	int (*privkey_init)(gt_privkey *key);
	void (*privkey_deinit)(gt_privkey key);
	int (*privkey_import_rsa_raw)(gt_privkey key, const struct gt_datum *m,
				      const struct gt_datum *e,
				      const struct gt_datum *d,
				      const struct gt_datum *p,
				      const struct gt_datum *q,
				      const struct gt_datum *u,
				      const struct gt_datum *e1,
				      const struct gt_datum *e2);
	int (*privkey_sign_data2)(gt_privkey signer, int algo,
				  unsigned int flags,
				  const struct gt_datum *data,
				  struct gt_datum *signature);
	int (*pubkey_init)(gt_pubkey *key);
	void (*pubkey_deinit)(gt_pubkey key);
	int (*pubkey_import_rsa_raw)(gt_pubkey key, const struct gt_datum *m,
				     const struct gt_datum *e);
	int (*pubkey_verify_data2)(gt_pubkey pubkey, int algo,
				   unsigned int flags,
				   const struct gt_datum *data,
				   const struct gt_datum *signature);
	void (**free_fn)(void *ptr);	/* the variable gnutls_free */
	int (*privkey_generate)(gt_privkey key, int algo, unsigned int bits,
				unsigned int flags);
	int (*privkey_export_rsa_raw)(gt_privkey key, struct gt_datum *m,
				      struct gt_datum *e, struct gt_datum *d,
				      struct gt_datum *p, struct gt_datum *q,
				      struct gt_datum *u, struct gt_datum *e1,
				      struct gt_datum *e2);
	bool ok, gen;
} pk;

/* A key: its algorithm, GnuTLS's private key object (key_new) or public
 * key object (pub_new), and the modulus it was given. */
struct gt_rsa_key {
	enum guest_pk_algo algo;
	size_t bytes;
	gt_privkey priv;
	gt_pubkey pub;
	uint8_t n[GUEST_PK_PUB_MAX];
};

/* Resolve the entry points in HANDLE (libgnutls, loaded and initialised
 * by backend-gnutls.c); RSA is supported when every one is there. */
void guest_rsa_gnutls_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.privkey_init, "gnutls_privkey_init" },
		{ &pk.privkey_deinit, "gnutls_privkey_deinit" },
		{ &pk.privkey_import_rsa_raw, "gnutls_privkey_import_rsa_raw" },
		{ &pk.privkey_sign_data2, "gnutls_privkey_sign_data2" },
		{ &pk.pubkey_init, "gnutls_pubkey_init" },
		{ &pk.pubkey_deinit, "gnutls_pubkey_deinit" },
		{ &pk.pubkey_import_rsa_raw, "gnutls_pubkey_import_rsa_raw" },
		{ &pk.pubkey_verify_data2, "gnutls_pubkey_verify_data2" },
		{ &pk.free_fn, "gnutls_free" },
	};
	char why[128];

	const struct backend_symbol gen[] = {
		{ &pk.privkey_generate, "gnutls_privkey_generate" },
		{ &pk.privkey_export_rsa_raw, "gnutls_privkey_export_rsa_raw" },
	};

	pk.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0 && *pk.free_fn != NULL;
	pk.gen = pk.ok && backend_require(handle, gen, sizeof(gen) /
					  sizeof(gen[0]), why, sizeof(why)) == 0;
}

/* struct guest_pk_ops: the RSA algorithms. */
static bool gt_rsa_supports(enum guest_pk_algo algo)
{
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* GnuTLS's signature algorithm for K's. */
static int sign_algo(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_RSA_PSS_2048 ? GT_SIGN_RSA_PSS_RSAE_SHA256
					     : GT_SIGN_RSA_SHA256;
}

/* Release KEY (struct gt_rsa_key, with its GnuTLS objects); NULL is
 * ignored. */
static void gt_rsa_free(void *key)
{
	struct gt_rsa_key *k = key;

	if (!k)
		return;
	if (k->priv)
		pk.privkey_deinit(k->priv);
	if (k->pub)
		pk.pubkey_deinit(k->pub);
	free(k);
}

/* A new struct gt_rsa_key of ALGO with modulus N (no GnuTLS object yet),
 * or NULL when unsupported or out of memory. */
static struct gt_rsa_key *key_alloc(enum guest_pk_algo algo,
				    const uint8_t *n)
{
	struct gt_rsa_key *k;

	if (!gt_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	memcpy(k->n, n, k->bytes);
	return k;
}

/* A gnutls_datum_t of the LEN bytes at P (GnuTLS copies them). */
static struct gt_datum datum(const uint8_t *p, size_t len)
{
	struct gt_datum d = { (unsigned char *)p, (unsigned int)len };

	return d;
}

/* The fixed private key of ALGO (PRIV is not read). Returns it (caller
 * owns: gt_rsa_free) or NULL when unsupported, out of memory or
 * refused. */
static void *gt_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct gt_rsa_key *k = t ? key_alloc(algo, t->n) : NULL;
	struct gt_datum m, e, d, p, q, u, e1, e2;
	size_t h;

	(void)priv;
	if (!k)
		return NULL;
	h = k->bytes / 2;
	m = datum(t->n, k->bytes);
	e = datum(t->e, t->e_bytes);
	d = datum(t->d, k->bytes);
	p = datum(t->p, h);
	q = datum(t->q, h);
	u = datum(t->qinv, h);
	e1 = datum(t->dp, h);
	e2 = datum(t->dq, h);
	if (pk.privkey_init(&k->priv) != 0) {
		k->priv = NULL;
		goto fail;
	}
	if (pk.privkey_import_rsa_raw(k->priv, &m, &e, &d, &p, &q, &u, &e1,
				      &e2) != 0)
		goto fail;
	return k;
fail:
	gt_rsa_free(k);
	return NULL;
}

/* A public key of ALGO of the modulus PUB (e = 65537). Returns it
 * (caller owns: gt_rsa_free) or NULL. */
static void *gt_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct gt_rsa_key *k = t ? key_alloc(algo, pub) : NULL;
	struct gt_datum m, e;

	if (!k)
		return NULL;
	m = datum(pub, k->bytes);
	e = datum(t->e, t->e_bytes);
	if (pk.pubkey_init(&k->pub) != 0) {
		k->pub = NULL;
		goto fail;
	}
	if (pk.pubkey_import_rsa_raw(k->pub, &m, &e) != 0)
		goto fail;
	return k;
fail:
	gt_rsa_free(k);
	return NULL;
}

/* The modulus of KEY into PUB; cannot fail (0). */
static int gt_rsa_public(void *key, uint8_t *pub)
{
	struct gt_rsa_key *k = key;

	memcpy(pub, k->n, k->bytes);
	return 0;
}

/* Sign the LEN bytes of MSG with private KEY into SIG (the modulus's
 * bytes). GnuTLS allocates the signature; it is copied and freed here.
 * Returns 0, or -1 when GnuTLS failed or gave another length. */
static int gt_rsa_sign(void *key, const uint8_t *msg, size_t len,
		       uint8_t *sig)
{
	struct gt_rsa_key *k = key;
	struct gt_datum d = datum(msg, len), s = { NULL, 0 };
	int rc = -1;

	if (!k->priv || pk.privkey_sign_data2(k->priv, sign_algo(k->algo), 0,
					      &d, &s) != 0)
		return -1;
	if (s.data && s.size == k->bytes) {
		memcpy(sig, s.data, k->bytes);
		rc = 0;
	}
	(*pk.free_fn)(s.data);
	return rc;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 rejected (GNUTLS_E_PK_SIG_VERIFY_FAILED), -1 any
 * other error of GnuTLS. */
static int gt_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			 const uint8_t *sig)
{
	struct gt_rsa_key *k = pub;
	struct gt_datum d = datum(msg, len), s = datum(sig, k->bytes);
	int rc;

	if (!k->pub)
		return -1;
	rc = pk.pubkey_verify_data2(k->pub, sign_algo(k->algo), 0, &d, &s);
	return rc == 0 ? 0 : rc == GT_E_PK_SIG_VERIFY_FAILED ? 1 : -1;
}

/* A new key pair of ALGO's size; its modulus into N (GnuTLS's export
 * may lead with a zero byte: dropped). Returns 0, or -1 when GnuTLS
 * failed. */
static int gt_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	size_t bytes = guest_pk_pub_bytes(algo);
	struct gt_datum m = { NULL, 0 };
	gt_privkey key;
	int rc = -1;

	if (!pk.gen || pk.privkey_init(&key) != 0)
		return -1;
	if (pk.privkey_generate(key, GT_PK_RSA, (unsigned)bytes * 8, 0) == 0 &&
	    pk.privkey_export_rsa_raw(key, &m, NULL, NULL, NULL, NULL, NULL,
				      NULL, NULL) == 0 && m.data) {
		const unsigned char *p = m.data;
		size_t len = m.size;

		while (len > bytes && *p == 0) {
			p++;
			len--;
		}
		if (len <= bytes) {
			memset(n, 0, bytes - len);
			memcpy(n + bytes - len, p, len);
			rc = 0;
		}
	}
	if (m.data)
		(*pk.free_fn)(m.data);
	pk.privkey_deinit(key);
	return rc;
}

const struct guest_pk_ops guest_rsa_gnutls = {
	.supports = gt_rsa_supports,
	.key_new = gt_rsa_key_new,
	.pub_new = gt_rsa_pub_new,
	.key_free = gt_rsa_free,
	.public_key = gt_rsa_public,
	.sign = gt_rsa_sign,
	.verify = gt_rsa_verify,
	.keygen = gt_rsa_keygen,
};
