/* guest/backend-mbedtls-pk.c - X25519 and X448 in Mbed TLS through its
 * ECP and ECDH modules (ecp.h, ecdh.h, bignum.h): mbedtls_ecp_group_load
 * with MBEDTLS_ECP_DP_CURVE25519 or MBEDTLS_ECP_DP_CURVE448,
 * mbedtls_ecp_mul for the public key and mbedtls_ecdh_compute_shared for
 * the shared secret. The same calls exist in 2.28 (Debian bookworm) and
 * 3.6; a library missing one (or built without the curve) has the
 * algorithm unsupported. Mbed TLS has no Ed25519 (up to 3.6):
 * unsupported.
 *
 * Key set-up (import) does what an application holding an X25519 key
 * does once: loads the curve's group, reads the scalar and computes the
 * public key (the scalar times the base point u = 9, X448's u = 5, as
 * mbedtls_ecdh_gen_public does). The scalar is clamped first as RFC 7748
 * 5 decodeScalar25519 (decodeScalar448) does (mbedtls_ecp_read_key does the same; this
 * file reads the bignum directly): Mbed TLS refuses an unclamped
 * Curve25519 scalar (mbedtls_ecp_check_privkey), and clamping does not
 * change the result. A derive takes the peer's raw u-coordinate in every
 * call (mbedtls_ecp_point_read_binary, which for Curve25519 reads it
 * little-endian and clears its top bit, RFC 7748 5; Curve448's has no
 * unused bit), computes the secret and writes it little-endian
 * (mbedtls_mpi_write_binary_le).
 *
 * Random generator: the scalar multiplication randomises its projective
 * coordinates against side channels with the f_rng it is given (3.x
 * requires one; 2.28 falls back to an internal one seeded from the
 * scalar). A key here hands it a deterministic generator of its own
 * (xorshift64*, fixed seed): the randomisation is a blinding that never
 * changes the result, so any stream that is not constant does, and the
 * work is that of a real generator's output minus the generator's own
 * cost (a few ns against tens of microseconds).
 *
 * Structures: mbedtls_ecp_group, mbedtls_ecp_point and mbedtls_mpi are
 * caller-allocated and change between versions (2.28 on x86_64: 248, 72
 * and 24 bytes; 3.6 smaller); a key gives each far more zeroed room
 * (GRP_BYTES, POINT_BYTES, MPI_BYTES) and never reads their fields, as
 * backend-mbedtls.c does with its cipher context. The base point is read
 * from its encoding (u = 9) rather than taken from the group's G, whose
 * offset differs between versions.
 *
 * Prototypes restate ecp.h, ecdh.h and bignum.h of Mbed TLS 2.28.3
 * (unchanged in 3.6). Constants: mbedtls_ecp_group_id
 * MBEDTLS_ECP_DP_CURVE25519 = 9 (NONE 0, SECP192R1 .. SECP521R1 1 .. 5,
 * BP256R1 .. BP512R1 6 .. 8, CURVE25519 9, SECP192K1 .. SECP256K1
 * 10 .. 12, CURVE448 13; ecp.h), and the point format
 * MBEDTLS_ECP_PF_UNCOMPRESSED = 0 (for Curve25519 the u-coordinate
 * and Curve448 the u-coordinate alone, little-endian). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define MB_ECP_DP_CURVE25519 9	/* <mbedtls/ecp.h> */
#define MB_ECP_DP_CURVE448 13	/* <mbedtls/ecp.h> */
#define MB_ECP_PF_UNCOMPRESSED 0	/* <mbedtls/ecp.h> */

/* Bytes given to each caller-allocated Mbed TLS structure. */
#define GRP_BYTES 1024
#define POINT_BYTES 256
#define MPI_BYTES 128

typedef int (*mb_rng)(void *p_rng, unsigned char *out, size_t len);

static struct {
	void (*group_init)(void *grp);
	void (*group_free)(void *grp);
	int (*group_load)(void *grp, int id);
	void (*point_init)(void *pt);
	void (*point_free)(void *pt);
	int (*point_read_binary)(const void *grp, void *pt,
				 const unsigned char *buf, size_t ilen);
	int (*point_write_binary)(const void *grp, const void *pt, int format,
				  size_t *olen, unsigned char *buf,
				  size_t buflen);
	int (*ecp_mul)(void *grp, void *r, const void *m, const void *p,
		       mb_rng f_rng, void *p_rng);
	int (*compute_shared)(void *grp, void *z, const void *q, const void *d,
			      mb_rng f_rng, void *p_rng);
	void (*mpi_init)(void *x);
	void (*mpi_free)(void *x);
	int (*mpi_read_binary_le)(void *x, const unsigned char *buf,
				  size_t buflen);
	int (*mpi_write_binary_le)(const void *x, unsigned char *buf,
				   size_t buflen);
	bool x25519, x448;
} pk;

/* An X25519 or X448 key (ALGO): its group, scalar d, a point for the
 * peer's key (and, at import, the base point), a point for the public
 * key, the shared secret's bignum z, the public key's bytes
 * (guest_pk_pub_bytes(ALGO)) and the generator's state. */
struct mb_key {
	enum guest_pk_algo algo;
	_Alignas(16) unsigned char grp[GRP_BYTES];
	_Alignas(16) unsigned char d[MPI_BYTES];
	_Alignas(16) unsigned char peer[POINT_BYTES];
	_Alignas(16) unsigned char q[POINT_BYTES];
	_Alignas(16) unsigned char z[MPI_BYTES];
	uint8_t pub[GUEST_PK_X448_BYTES];
	uint64_t rng;
	bool inited;
};

/* Resolve the entry points in HANDLE (libmbedcrypto, loaded by
 * backend-mbedtls.c); X25519 (X448) is supported when every one is there
 * and the library has Curve25519 (Curve448): a trial group load, as a
 * build may leave either out. */
void guest_pk_mbedtls_load(void *handle)
{
	const struct backend_symbol x[] = {
		{ &pk.group_init, "mbedtls_ecp_group_init" },
		{ &pk.group_free, "mbedtls_ecp_group_free" },
		{ &pk.group_load, "mbedtls_ecp_group_load" },
		{ &pk.point_init, "mbedtls_ecp_point_init" },
		{ &pk.point_free, "mbedtls_ecp_point_free" },
		{ &pk.point_read_binary, "mbedtls_ecp_point_read_binary" },
		{ &pk.point_write_binary, "mbedtls_ecp_point_write_binary" },
		{ &pk.ecp_mul, "mbedtls_ecp_mul" },
		{ &pk.compute_shared, "mbedtls_ecdh_compute_shared" },
		{ &pk.mpi_init, "mbedtls_mpi_init" },
		{ &pk.mpi_free, "mbedtls_mpi_free" },
		{ &pk.mpi_read_binary_le, "mbedtls_mpi_read_binary_le" },
		{ &pk.mpi_write_binary_le, "mbedtls_mpi_write_binary_le" },
	};
	_Alignas(16) unsigned char grp[GRP_BYTES];
	char why[128];

	pk.x25519 = pk.x448 = false;
	if (backend_require(handle, x, sizeof(x) / sizeof(x[0]), why,
			    sizeof(why)) != 0)
		return;
	memset(grp, 0, sizeof(grp));
	pk.group_init(grp);
	pk.x25519 = pk.group_load(grp, MB_ECP_DP_CURVE25519) == 0;
	pk.group_free(grp);
	memset(grp, 0, sizeof(grp));
	pk.group_init(grp);
	pk.x448 = pk.group_load(grp, MB_ECP_DP_CURVE448) == 0;
	pk.group_free(grp);
}

/* struct guest_pk_ops: X25519 and X448 only (see the top of the file). */
static bool mb_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? pk.x25519 :
	       algo == GUEST_PK_X448 ? pk.x448 : false;
}

/* The f_rng of the scalar multiplication: LEN bytes of the xorshift64*
 * stream whose state P_RNG (a uint64_t, never 0) points to, into OUT.
 * Always 0 (success). */
static int det_rng(void *p_rng, unsigned char *out, size_t len)
{
	uint64_t *s = p_rng;

	while (len) {
		uint64_t x = *s, r;
		size_t n = len < 8 ? len : 8;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*s = x;
		r = x * UINT64_C(0x2545f4914f6cdd1d);
		memcpy(out, &r, n);
		out += n;
		len -= n;
	}
	return 0;
}

/* Release KEY (struct mb_key, with what Mbed TLS allocated in its
 * structures); NULL is ignored. */
static void mb_pk_free(void *key)
{
	struct mb_key *k = key;

	if (!k)
		return;
	if (k->inited) {
		pk.mpi_free(k->z);
		pk.point_free(k->q);
		pk.point_free(k->peer);
		pk.mpi_free(k->d);
		pk.group_free(k->grp);
	}
	free(k);
}

/* An X25519 (X448) key of the 32-byte (56-byte) scalar PRIV, clamped
 * here, its group loaded and public key computed. Returns it (caller
 * owns: mb_pk_free) or NULL when unsupported, out of memory or refused
 * by Mbed TLS. */
static void *mb_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	bool x448 = algo == GUEST_PK_X448;
	size_t n = guest_pk_pub_bytes(algo);
	unsigned char base[GUEST_PK_X448_BYTES] = { 0 };
	uint8_t s[GUEST_PK_X448_BYTES];
	struct mb_key *k;
	size_t olen = 0;

	if (!mb_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->rng = UINT64_C(0x9e3779b97f4a7c15);
	pk.group_init(k->grp);
	pk.mpi_init(k->d);
	pk.point_init(k->peer);
	pk.point_init(k->q);
	pk.mpi_init(k->z);
	k->inited = true;
	/* RFC 7748 5, decodeScalar25519 and decodeScalar448; the base
	 * points u = 9 and u = 5 */
	memcpy(s, priv, n);
	if (x448) {
		s[0] &= 252;
		s[55] |= 128;
		base[0] = 5;
	} else {
		s[0] &= 248;
		s[31] &= 127;
		s[31] |= 64;
		base[0] = 9;
	}
	if (pk.group_load(k->grp, x448 ? MB_ECP_DP_CURVE448
				       : MB_ECP_DP_CURVE25519) != 0 ||
	    pk.mpi_read_binary_le(k->d, s, n) != 0 ||
	    pk.point_read_binary(k->grp, k->peer, base, n) != 0 ||
	    pk.ecp_mul(k->grp, k->q, k->d, k->peer, det_rng, &k->rng) != 0 ||
	    pk.point_write_binary(k->grp, k->q, MB_ECP_PF_UNCOMPRESSED, &olen,
				  k->pub, n) != 0 ||
	    olen != n) {
		mb_pk_free(k);
		return NULL;
	}
	return k;
}

/* No Ed25519 in Mbed TLS, so no public key to import: NULL. */
static void *mb_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	(void)algo;
	(void)pub;
	return NULL;
}

/* The public key of KEY (32 bytes, X448 56) into PUB; cannot fail
 * (0). */
static int mb_pk_public(void *key, uint8_t *pub)
{
	struct mb_key *k = key;

	memcpy(pub, k->pub, guest_pk_pub_bytes(k->algo));
	return 0;
}

/* X25519 (X448) of KEY's scalar and the raw u-coordinate PEER into OUT
 * (32 bytes each, X448 56). Returns 0, or -1 when Mbed TLS refused (2.28
 * refuses a low-order PEER such as u = 0, MBEDTLS_ERR_ECP_INVALID_KEY). */
static int mb_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct mb_key *k = key;
	size_t n = guest_pk_pub_bytes(k->algo);

	return pk.point_read_binary(k->grp, k->peer, peer, n) == 0 &&
	       pk.compute_shared(k->grp, k->z, k->peer, k->d, det_rng,
				 &k->rng) == 0 &&
	       pk.mpi_write_binary_le(k->z, out, n) == 0 ? 0 : -1;
}

/* Ed25519 is unsupported: never called. */
static int mb_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	(void)key;
	(void)msg;
	(void)len;
	(void)sig;
	return -1;
}

/* Ed25519 is unsupported: never called. */
static int mb_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	(void)pub;
	(void)msg;
	(void)len;
	(void)sig;
	return -1;
}

const struct guest_pk_ops guest_pk_mbedtls = {
	.supports = mb_pk_supports,
	.key_new = mb_pk_key_new,
	.pub_new = mb_pk_pub_new,
	.key_free = mb_pk_free,
	.public_key = mb_pk_public,
	.derive = mb_pk_derive,
	.sign = mb_pk_sign,
	.verify = mb_pk_verify,
};
