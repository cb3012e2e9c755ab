/* guest/backend-libgcrypt-pk.c - X25519, X448 and Ed25519 in libgcrypt.
 *
 * X25519 and X448 go through gcry_ecc_mul_point (libgcrypt 1.9 and
 * later; older ones lack it, and both are then unsupported). It takes
 * raw keys in every call, so a key here is the raw scalar and the import
 * derives the public key from it (the scalar times the base point), the
 * work OpenSSL's import does too.
 *
 * Ed25519 goes through libgcrypt's S-expression API, as an application
 * (GnuPG) uses it: a key is an S-expression
 *   (private-key (ecc (curve Ed25519) (flags eddsa) (q Q) (d SEED)))
 * that gcry_pk_sign takes, and a public key
 *   (public-key (ecc (curve Ed25519) (flags eddsa) (q Q)))
 * that gcry_pk_verify takes; Q is the 32-byte encoded public key (RFC
 * 8032 5.1.2) and SEED the 32-byte secret of RFC 8032 5.1.5, both octet
 * strings. The import builds the key S-expression once; as libgcrypt
 * does not store Q beside D by itself, it computes Q first through an
 * elliptic-curve context made from (d SEED) alone (gcry_mpi_ec_new, then
 * gcry_mpi_ec_get_mpi "q@eddsa", which derives Q from D and returns it
 * as an opaque octet string). Each sign and verify builds the message's
 *   (data (flags eddsa) (hash-algo sha512) (value MSG))
 * and each verify the signature's
 *   (sig-val (eddsa (r R) (s S)))
 * from the raw bytes, as an application does per message. gcry_pk_sign
 * returns (sig-val (eddsa (r R) (s S))) with R and S as opaque 32-byte
 * octet strings in the order of RFC 8032 5.1.6 (R the encoded point, S
 * little-endian): the signature is R || S.
 *
 * Prototypes restate gcrypt.h of libgcrypt 1.10.1 (gcry_error_t and
 * gpg_error_t are unsigned int; gcry_sexp_t, gcry_mpi_t and gcry_ctx_t
 * opaque pointers). Constants: enum gcry_ecc_curves GCRY_ECC_CURVE25519
 * = 1, GCRY_ECC_CURVE448 = 2; a NULL point of gcry_ecc_mul_point means the base point. The
 * library is initialised by backend-libgcrypt.c before this is loaded. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define GC_ECC_CURVE25519 1	/* GCRY_ECC_CURVE25519, <gcrypt.h> */
#define GC_ECC_CURVE448 2	/* GCRY_ECC_CURVE448, <gcrypt.h> */

typedef struct gcry_sexp *gc_sexp;
typedef struct gcry_mpi *gc_mpi;
typedef struct gcry_context *gc_ctx;

static struct {
	/* gcry_ecc_mul_point */
	unsigned int (*mul_point)(int curve, unsigned char *result,
				  const unsigned char *scalar,
				  const unsigned char *point);
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
	unsigned int (*ec_new)(gc_ctx *r_ctx, gc_sexp keyparam,
			       const char *curvename);
	gc_mpi (*ec_get_mpi)(const char *name, gc_ctx ctx, int copy);
	void *(*mpi_get_opaque)(gc_mpi a, unsigned int *nbits);
	void (*mpi_release)(gc_mpi a);
	void (*ctx_release)(gc_ctx ctx);
	bool ed25519;
} pk;

/* A key: X25519's or X448's raw scalar, or Ed25519's key S-expression
 * (private or, from pub_new, public); the public key's bytes
 * (guest_pk_pub_bytes of ALGO). */
struct gc_key {
	enum guest_pk_algo algo;
	uint8_t priv[GUEST_PK_X448_BYTES];
	uint8_t pub[GUEST_PK_X448_BYTES];
	gc_sexp sexp;
};

/* Resolve the entry points in HANDLE (libgcrypt's, initialised): X25519
 * and X448 need gcry_ecc_mul_point, Ed25519 the S-expression and EC-context
 * functions; a missing one leaves its algorithm unsupported. */
void guest_pk_libgcrypt_load(void *handle)
{
	const struct backend_symbol ed[] = {
		{ &pk.sexp_build, "gcry_sexp_build" },
		{ &pk.sexp_release, "gcry_sexp_release" },
		{ &pk.sexp_find_token, "gcry_sexp_find_token" },
		{ &pk.sexp_nth_data, "gcry_sexp_nth_data" },
		{ &pk.pk_sign, "gcry_pk_sign" },
		{ &pk.pk_verify, "gcry_pk_verify" },
		{ &pk.ec_new, "gcry_mpi_ec_new" },
		{ &pk.ec_get_mpi, "gcry_mpi_ec_get_mpi" },
		{ &pk.mpi_get_opaque, "gcry_mpi_get_opaque" },
		{ &pk.mpi_release, "gcry_mpi_release" },
		{ &pk.ctx_release, "gcry_ctx_release" },
	};
	char why[128];

	backend_sym(handle, &pk.mul_point, "gcry_ecc_mul_point");
	pk.ed25519 = backend_require(handle, ed, sizeof(ed) / sizeof(ed[0]),
				     why, sizeof(why)) == 0;
}

/* struct guest_pk_ops: is ALGO's every entry point there? */
static bool gc_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 || algo == GUEST_PK_X448 ?
	       pk.mul_point != NULL :
	       algo == GUEST_PK_ED25519 ? pk.ed25519 : false;
}

/* Release KEY (struct gc_key, with its S-expression); NULL is ignored. */
static void gc_pk_free(void *key)
{
	struct gc_key *k = key;

	if (!k)
		return;
	if (k->sexp)
		pk.sexp_release(k->sexp);
	free(k);
}

/* The Ed25519 public key of SEED (GUEST_PK_KEY_BYTES) into PUB: an
 * elliptic-curve context of the key (d SEED) derives it. Returns 0, or
 * -1 when libgcrypt refused or gave other than 32 bytes. Allocates and
 * releases its own objects. */
static int ed_public(const uint8_t *seed, uint8_t *pub)
{
	gc_sexp s = NULL;
	gc_ctx ctx = NULL;
	gc_mpi q = NULL;
	const void *p;
	unsigned int bits = 0;
	int rc = -1;

	if (pk.sexp_build(&s, NULL,
			  "(private-key (ecc (curve Ed25519) (flags eddsa)"
			  " (d %b)))", GUEST_PK_KEY_BYTES, seed) != 0 ||
	    pk.ec_new(&ctx, s, NULL) != 0 ||
	    !(q = pk.ec_get_mpi("q@eddsa", ctx, 1)))
		goto out;
	p = pk.mpi_get_opaque(q, &bits);
	if (p && bits == 8 * GUEST_PK_KEY_BYTES) {
		memcpy(pub, p, GUEST_PK_KEY_BYTES);
		rc = 0;
	}
out:
	if (q)
		pk.mpi_release(q);
	if (ctx)
		pk.ctx_release(ctx);
	if (s)
		pk.sexp_release(s);
	return rc;
}

/* A private key of ALGO from the guest_pk_priv_bytes(ALGO) bytes of PRIV
 * (32, X448 56), its public key derived (and for Ed25519 its key
 * S-expression built). Returns it (caller owns:
 * gc_pk_free) or NULL when unsupported, out of memory or refused. */
static void *gc_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct gc_key *k;

	if (!gc_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->priv, priv, guest_pk_priv_bytes(algo));
	if (algo == GUEST_PK_X25519 || algo == GUEST_PK_X448) {
		if (pk.mul_point(algo == GUEST_PK_X448 ? GC_ECC_CURVE448 :
				 GC_ECC_CURVE25519, k->pub, priv, NULL) != 0)
			goto fail;
	} else if (ed_public(priv, k->pub) != 0 ||
		   pk.sexp_build(&k->sexp, NULL,
				 "(private-key (ecc (curve Ed25519)"
				 " (flags eddsa) (q %b) (d %b)))",
				 GUEST_PK_KEY_BYTES, k->pub,
				 GUEST_PK_KEY_BYTES, priv) != 0) {
		goto fail;
	}
	return k;
fail:
	gc_pk_free(k);
	return NULL;
}

/* An Ed25519 public key of the 32 bytes of PUB (its S-expression).
 * Returns it (caller owns: gc_pk_free) or NULL. */
static void *gc_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct gc_key *k;

	if (algo != GUEST_PK_ED25519 || !gc_pk_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->pub, pub, GUEST_PK_KEY_BYTES);
	if (pk.sexp_build(&k->sexp, NULL,
			  "(public-key (ecc (curve Ed25519) (flags eddsa)"
			  " (q %b)))", GUEST_PK_KEY_BYTES, pub) != 0) {
		gc_pk_free(k);
		return NULL;
	}
	return k;
}

/* The public key of KEY (guest_pk_pub_bytes of its algorithm: 32, X448
 * 56) into PUB; cannot fail (0). */
static int gc_pk_public(void *key, uint8_t *pub)
{
	struct gc_key *k = key;

	memcpy(pub, k->pub, guest_pk_pub_bytes(k->algo));
	return 0;
}

/* X25519 or X448 of KEY's scalar and the raw u-coordinate PEER into OUT
 * (32 bytes each, X448 56). Returns 0, or -1 when libgcrypt refused. */
static int gc_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct gc_key *k = key;

	return pk.mul_point(k->algo == GUEST_PK_X448 ? GC_ECC_CURVE448 :
			    GC_ECC_CURVE25519, out, k->priv, peer) == 0 ? 0 : -1;
}

/* The S-expression of the LEN bytes of MSG for EdDSA into *DATA (caller
 * releases it). Returns 0, or -1 when libgcrypt refused. */
static int ed_data(const uint8_t *msg, size_t len, gc_sexp *data)
{
	*data = NULL;
	return pk.sexp_build(data, NULL,
			     "(data (flags eddsa) (hash-algo sha512)"
			     " (value %b))", (int)len, msg) == 0 ? 0 : -1;
}

/* Copy the 32-byte octet string of token NAME of signature SIG into OUT.
 * Returns 0, or -1 when it is missing or of another length. */
static int sig_part(gc_sexp sig, const char *name, uint8_t *out)
{
	gc_sexp t = pk.sexp_find_token(sig, name, 0);
	const char *p;
	size_t n = 0;
	int rc = -1;

	if (!t)
		return -1;
	p = pk.sexp_nth_data(t, 1, &n);
	if (p && n == GUEST_PK_KEY_BYTES) {
		memcpy(out, p, n);
		rc = 0;
	}
	pk.sexp_release(t);
	return rc;
}

/* Sign the LEN bytes of MSG with private KEY into SIG (64 bytes: R ||
 * S). Returns 0, or -1 when a step failed (SIG then undefined). */
static int gc_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct gc_key *k = key;
	gc_sexp data, s = NULL;
	int rc = -1;

	if (ed_data(msg, len, &data) != 0)
		return -1;
	if (pk.pk_sign(&s, data, k->sexp) == 0 &&
	    sig_part(s, "r", sig) == 0 &&
	    sig_part(s, "s", sig + GUEST_PK_KEY_BYTES) == 0)
		rc = 0;
	if (s)
		pk.sexp_release(s);
	pk.sexp_release(data);
	return rc;
}

/* Check the 64-byte SIG over the LEN bytes of MSG with public key PUB.
 * gcry_pk_verify returns 0 for a good signature and an error code
 * (GPG_ERR_BAD_SIGNATURE, or another for a malformed R) otherwise: every
 * refusal of a signature that could be built is a rejection (1); -1
 * when an S-expression could not be built. */
static int gc_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct gc_key *k = pub;
	gc_sexp data, s = NULL;
	int rc;

	if (ed_data(msg, len, &data) != 0)
		return -1;
	if (pk.sexp_build(&s, NULL, "(sig-val (eddsa (r %b) (s %b)))",
			  GUEST_PK_KEY_BYTES, sig, GUEST_PK_KEY_BYTES,
			  sig + GUEST_PK_KEY_BYTES) != 0)
		rc = -1;
	else
		rc = pk.pk_verify(s, data, k->sexp) == 0 ? 0 : 1;
	if (s)
		pk.sexp_release(s);
	pk.sexp_release(data);
	return rc;
}

const struct guest_pk_ops guest_pk_libgcrypt = {
	.supports = gc_pk_supports,
	.key_new = gc_pk_key_new,
	.pub_new = gc_pk_pub_new,
	.key_free = gc_pk_free,
	.public_key = gc_pk_public,
	.derive = gc_pk_derive,
	.sign = gc_pk_sign,
	.verify = gc_pk_verify,
};
