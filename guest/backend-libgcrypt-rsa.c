/* guest/backend-libgcrypt-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) in libgcrypt through its S-expression
 * API, as an application (GnuPG) uses it.
 *
 * import: the S-expression of the fixed test key (guest/rsa-keys.h)
 *   (private-key (rsa (n N) (e E) (d D) (p P) (q Q) (u U)))
 * built from its components. libgcrypt's CRT takes u = p^-1 mod q, the
 * inverse of PKCS #1's qinv = q^-1 mod p: the primes go in swapped (its
 * p is the key's q), so that qinv is its u. libgcrypt checks nothing
 * here: the numbers are read at each signature, which is part of what
 * `sign` costs in this library. A public key is
 *   (public-key (rsa (n N) (e E))).
 *
 * sign, verify: the message hashed with libgcrypt's SHA-256
 * (gcry_md_hash_buffer), then gcry_pk_sign / gcry_pk_verify of
 *   (data (flags pkcs1) (hash sha256 DIGEST))
 *   (data (flags pss) (salt-length 2:32) (hash sha256 DIGEST))
 * (PSS: MGF1 with the same hash) and (sig-val (rsa (s S))), built per
 * message; S comes back as an MPI, brought to the modulus's bytes.
 *
 * keygen: gcry_pk_genkey of (genkey (rsa (nbits 2048))) (e 65537, its
 * default), the modulus read from the key pair it returns.
 *
 * Prototypes restate gcrypt.h of libgcrypt 1.10.1 (see
 * backend-libgcrypt-pk.c); GCRY_MD_SHA256 = 8. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

#define GC_MD_SHA256 8	/* GCRY_MD_SHA256, <gcrypt.h> */

typedef struct gcry_sexp *gc_sexp;

static struct {
	unsigned int (*sexp_build)(gc_sexp *retsexp, size_t *erroff,
				   const char *format, ...);
	void (*sexp_release)(gc_sexp sexp);
	gc_sexp (*sexp_find_token)(gc_sexp list, const char *tok,
				   size_t toklen);
	const char *(*sexp_nth_data)(const gc_sexp list, int number,
				     size_t *datalen);
	unsigned int (*pk_sign)(gc_sexp *result, gc_sexp data, gc_sexp skey);
	unsigned int (*pk_verify)(gc_sexp sigval, gc_sexp data,
				  gc_sexp pkey);
	void (*md_hash_buffer)(int algo, void *digest, const void *buffer,
			       size_t length);
	unsigned int (*genkey)(gc_sexp *r_key, gc_sexp s_parms);
	bool ok;
} pk;

/* A key: its algorithm, modulus bytes and S-expression (private or
 * public). */
struct gc_rsa_key {
	enum guest_pk_algo algo;
	size_t bytes;
	gc_sexp sexp;
};

/* Resolve the entry points in HANDLE (libgcrypt's, initialised by
 * backend-libgcrypt.c); RSA needs every one. */
void guest_rsa_libgcrypt_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.sexp_build, "gcry_sexp_build" },
		{ &pk.sexp_release, "gcry_sexp_release" },
		{ &pk.sexp_find_token, "gcry_sexp_find_token" },
		{ &pk.sexp_nth_data, "gcry_sexp_nth_data" },
		{ &pk.pk_sign, "gcry_pk_sign" },
		{ &pk.pk_verify, "gcry_pk_verify" },
		{ &pk.md_hash_buffer, "gcry_md_hash_buffer" },
		{ &pk.genkey, "gcry_pk_genkey" },
	};
	char why[128];

	pk.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0;
}

/* struct guest_pk_ops: the RSA algorithms. */
static bool gc_rsa_supports(enum guest_pk_algo algo)
{
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* Release KEY (struct gc_rsa_key, with its S-expression); NULL is
 * ignored. */
static void gc_rsa_free(void *key)
{
	struct gc_rsa_key *k = key;

	if (!k)
		return;
	if (k->sexp)
		pk.sexp_release(k->sexp);
	free(k);
}

/* A new struct gc_rsa_key of ALGO (no S-expression yet), or NULL when
 * unsupported or out of memory. */
static struct gc_rsa_key *key_alloc(enum guest_pk_algo algo)
{
	struct gc_rsa_key *k;

	if (!gc_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	return k;
}

/* The fixed private key of ALGO (PRIV is not read). Returns it (caller
 * owns: gc_rsa_free) or NULL when unsupported, out of memory or
 * refused. */
static void *gc_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct gc_rsa_key *k = key_alloc(algo);
	int h;

	(void)priv;
	if (!k)
		return NULL;
	h = (int)k->bytes / 2;
	if (pk.sexp_build(&k->sexp, NULL,
			  "(private-key (rsa (n %b) (e %b) (d %b) (p %b) (q %b)"
			  " (u %b)))", (int)k->bytes, t->n, (int)t->e_bytes,
			  t->e, (int)k->bytes, t->d, h, t->q, h, t->p, h,
			  t->qinv) != 0) {
		gc_rsa_free(k);
		return NULL;
	}
	return k;
}

/* A public key of ALGO of the modulus PUB (e = 65537). Returns it
 * (caller owns: gc_rsa_free) or NULL. */
static void *gc_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct gc_rsa_key *k = key_alloc(algo);

	if (!k)
		return NULL;
	if (pk.sexp_build(&k->sexp, NULL, "(public-key (rsa (n %b) (e %b)))",
			  (int)k->bytes, pub, (int)t->e_bytes, t->e) != 0) {
		gc_rsa_free(k);
		return NULL;
	}
	return k;
}

/* The datum of token NAME of S-expression S as a big-endian unsigned
 * number of exactly N bytes into OUT (leading zeros dropped or added).
 * Returns 0, or -1 when it is missing or longer. */
static int token_be(gc_sexp s, const char *name, uint8_t *out, size_t n)
{
	gc_sexp t = pk.sexp_find_token(s, name, 0);
	const char *p;
	size_t len = 0;
	int rc = -1;

	if (!t)
		return -1;
	p = pk.sexp_nth_data(t, 1, &len);
	while (p && len > n && *p == 0) {
		p++;
		len--;
	}
	if (p && len <= n) {
		memset(out, 0, n - len);
		memcpy(out + n - len, p, len);
		rc = 0;
	}
	pk.sexp_release(t);
	return rc;
}

/* The modulus of KEY into PUB, read from its S-expression. Returns 0,
 * or -1 when it is not there. */
static int gc_rsa_public(void *key, uint8_t *pub)
{
	struct gc_rsa_key *k = key;

	return token_be(k->sexp, "n", pub, k->bytes);
}

/* The data S-expression of the SHA-256 digest of the LEN bytes of MSG
 * for K's padding into *DATA (caller releases it). Returns 0, or -1
 * when refused. */
static int rsa_data(const struct gc_rsa_key *k, const uint8_t *msg,
		    size_t len, gc_sexp *data)
{
	uint8_t digest[32];

	pk.md_hash_buffer(GC_MD_SHA256, digest, msg, len);
	*data = NULL;
	return pk.sexp_build(data, NULL, k->algo == GUEST_PK_RSA_PSS_2048 ?
			     "(data (flags pss) (salt-length 2:32)"
			     " (hash sha256 %b))" :
			     "(data (flags pkcs1) (hash sha256 %b))",
			     (int)sizeof(digest), digest) == 0 ? 0 : -1;
}

/* Sign the LEN bytes of MSG with KEY into SIG (the modulus's bytes).
 * Returns 0, or -1 when a step failed. */
static int gc_rsa_sign(void *key, const uint8_t *msg, size_t len,
		       uint8_t *sig)
{
	struct gc_rsa_key *k = key;
	gc_sexp data, s = NULL;
	int rc = -1;

	if (rsa_data(k, msg, len, &data) != 0)
		return -1;
	if (pk.pk_sign(&s, data, k->sexp) == 0 &&
	    token_be(s, "s", sig, k->bytes) == 0)
		rc = 0;
	if (s)
		pk.sexp_release(s);
	pk.sexp_release(data);
	return rc;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 rejected (any refusal of gcry_pk_verify), -1 when
 * an S-expression could not be built. */
static int gc_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			 const uint8_t *sig)
{
	struct gc_rsa_key *k = pub;
	gc_sexp data, s = NULL;
	int rc;

	if (rsa_data(k, msg, len, &data) != 0)
		return -1;
	if (pk.sexp_build(&s, NULL, "(sig-val (rsa (s %b)))", (int)k->bytes,
			  sig) != 0)
		rc = -1;
	else
		rc = pk.pk_verify(s, data, k->sexp) == 0 ? 0 : 1;
	if (s)
		pk.sexp_release(s);
	pk.sexp_release(data);
	return rc;
}

/* A new key pair of ALGO's size; its modulus into N. Returns 0, or -1
 * when libgcrypt failed. */
static int gc_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	gc_sexp parms = NULL, key = NULL;
	int rc = -1;

	if (pk.sexp_build(&parms, NULL, "(genkey (rsa (nbits %d)))",
			  (int)guest_pk_pub_bytes(algo) * 8) != 0)
		return -1;
	if (pk.genkey(&key, parms) == 0)
		rc = token_be(key, "n", n, guest_pk_pub_bytes(algo));
	if (key)
		pk.sexp_release(key);
	pk.sexp_release(parms);
	return rc;
}

const struct guest_pk_ops guest_rsa_libgcrypt = {
	.supports = gc_rsa_supports,
	.key_new = gc_rsa_key_new,
	.pub_new = gc_rsa_pub_new,
	.key_free = gc_rsa_free,
	.public_key = gc_rsa_public,
	.sign = gc_rsa_sign,
	.verify = gc_rsa_verify,
	.keygen = gc_rsa_keygen,
};
