/* guest/pubkey-kat.c - known answers of X25519, Ed25519, ECDH P-256,
 * ECDSA P-256 and the RSA signatures (see pubkey-kat.h). Every value is
 * copied from the cited source (and was checked against a second
 * implementation when it was typed in). */
#include "compat.h"

#include <string.h>

#include "pubkey-kat.h"
#include "rsa-keys.h"

/* Decode the 2 x N lowercase hex digits of HEX into OUT (room for N
 * bytes); returns the byte count, or (size_t)-1 on a bad digit. */
static size_t unhex(const char *hex, uint8_t *out, size_t n)
{
	size_t i;

	for (i = 0; i < n && hex[2 * i]; i++) {
		unsigned v = 0;

		for (int k = 0; k < 2; k++) {
			char c = hex[2 * i + k];

			v <<= 4;
			if (c >= '0' && c <= '9')
				v |= (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				v |= (unsigned)(c - 'a' + 10);
			else
				return (size_t)-1;
		}
		out[i] = (uint8_t)v;
	}
	return i;
}

/* X25519 of scalar hex[0] and u-coordinate hex[1] is hex[2] (RFC 7748
 * 5.2). */
static bool x25519_mul(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t k[32], u[32], want[32], got[32];
	void *key;
	bool ok;

	if (unhex(v->hex[0], k, 32) != 32 || unhex(v->hex[1], u, 32) != 32 ||
	    unhex(v->hex[2], want, 32) != 32 || !(key = pk->key_new(v->algo, k)))
		return false;
	ok = pk->derive(key, u, got) == 0 && memcmp(got, want, 32) == 0;
	pk->key_free(key);
	return ok;
}

/* RFC 7748 6.1: Alice's private key hex[0] and public key hex[1], Bob's
 * hex[2] and hex[3], their shared secret hex[4]: both public keys, and
 * the secret from both sides. */
static bool x25519_dh(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t a[32], ap[32], b[32], bp[32], k[32], p[32], s[32];
	void *ka = NULL, *kb = NULL;
	bool ok;

	if (unhex(v->hex[0], a, 32) != 32 || unhex(v->hex[1], ap, 32) != 32 ||
	    unhex(v->hex[2], b, 32) != 32 || unhex(v->hex[3], bp, 32) != 32 ||
	    unhex(v->hex[4], k, 32) != 32)
		return false;
	ok = (ka = pk->key_new(v->algo, a)) && (kb = pk->key_new(v->algo, b)) &&
	     pk->public_key(ka, p) == 0 && memcmp(p, ap, 32) == 0 &&
	     pk->public_key(kb, p) == 0 && memcmp(p, bp, 32) == 0 &&
	     pk->derive(ka, bp, s) == 0 && memcmp(s, k, 32) == 0 &&
	     pk->derive(kb, ap, s) == 0 && memcmp(s, k, 32) == 0;
	pk->key_free(ka);
	pk->key_free(kb);
	return ok;
}

/* RFC 8032 7.1: secret key (seed) hex[0], public key hex[1], message
 * hex[2] (any length up to 64 bytes), signature hex[3]: the public key
 * from the seed, the signature (deterministic), its verification, and
 * the rejection of the signature with its last bit flipped. */
static bool ed25519(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t seed[32], pub[32], msg[64], sig[64], got[64];
	size_t mlen = unhex(v->hex[2], msg, sizeof(msg));
	void *key = NULL, *pkey = NULL;
	bool ok;

	if (unhex(v->hex[0], seed, 32) != 32 || unhex(v->hex[1], pub, 32) != 32 ||
	    mlen == (size_t)-1 || unhex(v->hex[3], sig, 64) != 64)
		return false;
	ok = (key = pk->key_new(v->algo, seed)) &&
	     pk->public_key(key, got) == 0 && memcmp(got, pub, 32) == 0 &&
	     pk->sign(key, msg, mlen, got) == 0 && memcmp(got, sig, 64) == 0 &&
	     (pkey = pk->pub_new(v->algo, pub)) &&
	     pk->verify(pkey, msg, mlen, sig) == 0;
	if (ok) {
		sig[63] ^= 1;
		ok = pk->verify(pkey, msg, mlen, sig) == 1;
	}
	pk->key_free(key);
	pk->key_free(pkey);
	return ok;
}

/* ECDH P-256 (NIST CAVP KAS ECC CDH primitive): the peer's public point
 * hex[0] (QCAVS, uncompressed), the private scalar hex[1] (dIUT), its
 * public point hex[2] (QIUT) and the shared secret hex[3] (ZIUT): the
 * public point from the scalar, and the secret with the peer's point. */
static bool ecdh_cdh(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t peer[65], d[32], q[65], z[32], got[65];
	void *key;
	bool ok;

	if (unhex(v->hex[0], peer, 65) != 65 || unhex(v->hex[1], d, 32) != 32 ||
	    unhex(v->hex[2], q, 65) != 65 || unhex(v->hex[3], z, 32) != 32 ||
	    !(key = pk->key_new(v->algo, d)))
		return false;
	ok = pk->public_key(key, got) == 0 && memcmp(got, q, 65) == 0 &&
	     pk->derive(key, peer, got) == 0 && memcmp(got, z, 32) == 0;
	pk->key_free(key);
	return ok;
}

/* ECDSA P-256 / SHA-256 (RFC 6979 A.2.5): private scalar hex[0], public
 * point hex[1] (uncompressed), message hex[2], the deterministic
 * signature hex[3] (r || s): the public point from the scalar; the
 * signature verifies and is rejected with its last bit flipped; and the
 * library's own signing, twice: where it gives the same signature both
 * times (deterministic, RFC 6979) that must be the RFC's, where it does
 * not (randomised nonces) both must verify. */
static bool ecdsa(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t d[32], q[65], msg[64], sig[64], got[65], s1[64], s2[64];
	size_t mlen = unhex(v->hex[2], msg, sizeof(msg));
	void *key = NULL, *pkey = NULL;
	bool ok;

	if (unhex(v->hex[0], d, 32) != 32 || unhex(v->hex[1], q, 65) != 65 ||
	    mlen == (size_t)-1 || unhex(v->hex[3], sig, 64) != 64)
		return false;
	ok = (key = pk->key_new(v->algo, d)) &&
	     pk->public_key(key, got) == 0 && memcmp(got, q, 65) == 0 &&
	     (pkey = pk->pub_new(v->algo, q)) &&
	     pk->verify(pkey, msg, mlen, sig) == 0 &&
	     pk->sign(key, msg, mlen, s1) == 0 &&
	     pk->sign(key, msg, mlen, s2) == 0;
	if (ok && memcmp(s1, s2, 64) == 0)
		ok = memcmp(s1, sig, 64) == 0;
	else if (ok)
		ok = pk->verify(pkey, msg, mlen, s1) == 0 &&
		     pk->verify(pkey, msg, mlen, s2) == 0;
	if (ok) {
		sig[63] ^= 1;
		ok = pk->verify(pkey, msg, mlen, sig) == 1;
	}
	pk->key_free(key);
	pk->key_free(pkey);
	return ok;
}

/* The RSA algorithms, with the fixed test key of V->algo and its
 * signatures of the 64-byte message 0x40 .. 0x7f (guest/rsa-keys.c, made
 * with OpenSSL): the public key (the modulus) from the imported private
 * key; PKCS#1 v1.5, deterministic: the library's signature is exactly
 * the known one; PSS, randomised: the library's own signature verifies;
 * both: the known signature verifies and, with its last bit flipped, is
 * rejected. */
static bool rsa(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	const struct rsa_test_key *k = rsa_test_key_of(v->algo);
	bool pss = v->algo == GUEST_PK_RSA_PSS_2048;
	uint8_t msg[64], unused[GUEST_PK_KEY_BYTES] = { 0 };
	uint8_t got[GUEST_PK_SIG_MAX], sig[GUEST_PK_SIG_MAX];
	void *key = NULL, *pkey = NULL;
	bool ok;

	if (!k)
		return false;
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(0x40 + i);
	memcpy(sig, pss ? k->sig_pss : k->sig_pkcs1, k->bytes);
	ok = (key = pk->key_new(v->algo, unused)) &&
	     pk->public_key(key, got) == 0 && memcmp(got, k->n, k->bytes) == 0 &&
	     (pkey = pk->pub_new(v->algo, k->n)) &&
	     pk->verify(pkey, msg, sizeof(msg), sig) == 0 &&
	     pk->sign(key, msg, sizeof(msg), got) == 0 &&
	     (pss ? pk->verify(pkey, msg, sizeof(msg), got) == 0
		  : memcmp(got, sig, k->bytes) == 0);
	if (ok) {
		sig[k->bytes - 1] ^= 1;
		ok = pk->verify(pkey, msg, sizeof(msg), sig) == 1;
	}
	pk->key_free(key);
	pk->key_free(pkey);
	return ok;
}

static const struct pk_kat table[] = {
	{ GUEST_PK_X25519, "RFC 7748 5.2, first X25519 test vector", x25519_mul, {
	  "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
	  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
	  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" } },
	{ GUEST_PK_X25519, "RFC 7748 5.2, second X25519 test vector", x25519_mul, {
	  "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
	  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
	  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" } },
	{ GUEST_PK_X25519, "RFC 7748 6.1, Alice's and Bob's keys and shared secret", x25519_dh, {
	  "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
	  "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
	  "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
	  "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
	  "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742" } },
	{ GUEST_PK_ED25519, "RFC 8032 7.1 TEST 1", ed25519, {
	  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	  "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	  "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" } },
	{ GUEST_PK_ED25519, "RFC 8032 7.1 TEST 2", ed25519, {
	  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	  "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	  "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" } },
	{ GUEST_PK_ED25519, "RFC 8032 7.1 TEST 3", ed25519, {
	  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	  "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" } },
	/* NIST CAVP, ecccdhtestvectors.zip, KAS_ECC_CDH_PrimitiveTest.txt,
	 * [P-256], COUNT = 0 */
	{ GUEST_PK_ECDH_P256, "NIST CAVP, ecccdhtestvectors, KAS ECC CDH primitive, P-256, COUNT = 0", ecdh_cdh, {
	  "04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287"
	  "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
	  "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
	  "04ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230"
	  "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
	  "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b" } },
	/* RFC 6979 A.2.5: the P-256 key, and the signature with SHA-256 of
	 * the message "sample" (73 61 6d 70 6c 65) */
	{ GUEST_PK_ECDSA_P256, "RFC 6979 A.2.5, P-256, SHA-256, message sample", ecdsa, {
	  "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
	  "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
	  "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
	  "73616d706c65",
	  "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
	  "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8" } },
	/* the fixed test keys and their signatures, guest/rsa-keys.c */
	{ GUEST_PK_RSA_2048, "fixed 2048-bit test key, PKCS#1 v1.5 SHA-256 signature by openssl dgst -sha256 -sign", rsa, { 0 } },
	{ GUEST_PK_RSA_3072, "fixed 3072-bit test key, PKCS#1 v1.5 SHA-256 signature by openssl dgst -sha256 -sign", rsa, { 0 } },
	{ GUEST_PK_RSA_PSS_2048, "fixed 2048-bit test key, PSS SHA-256 MGF1-SHA-256 salt 32 signature by openssl dgst -sha256 -sign", rsa, { 0 } },
};

const struct pk_kat *pk_kat_table(size_t *count)
{
	*count = sizeof(table) / sizeof(table[0]);
	return table;
}

bool pk_kat_run(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	return v->check(pk, v);
}
