/* guest/pubkey-kat.c - known answers of X25519, X448, Ed25519, ECDH
 * P-256, ECDSA P-256, the RSA signatures, and ML-KEM-768's and
 * ML-DSA-65's key generation (see pubkey-kat.h; their decapsulation and
 * verification vectors are in pubkey-kat-pq.c). Every value is copied from the cited source (and was
 * checked against a second implementation when it was typed in). */
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

/* X25519 or X448 (V->algo) of scalar hex[0] and u-coordinate hex[1] is
 * hex[2] (RFC 7748 5.2); every value guest_pk_pub_bytes(V->algo) long. */
static bool xdh_mul(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t k[GUEST_PK_X448_BYTES], u[GUEST_PK_X448_BYTES];
	uint8_t want[GUEST_PK_X448_BYTES], got[GUEST_PK_X448_BYTES];
	size_t n = guest_pk_pub_bytes(v->algo);
	void *key;
	bool ok;

	if (n > sizeof(k) || unhex(v->hex[0], k, n) != n ||
	    unhex(v->hex[1], u, n) != n || unhex(v->hex[2], want, n) != n ||
	    !(key = pk->key_new(v->algo, k)))
		return false;
	ok = pk->derive(key, u, got) == 0 && memcmp(got, want, n) == 0;
	pk->key_free(key);
	return ok;
}

/* RFC 7748 6.1 (X25519) or 6.2 (X448): Alice's private key hex[0] and
 * public key hex[1], Bob's hex[2] and hex[3], their shared secret
 * hex[4]: both public keys, and the secret from both sides. */
static bool xdh_dh(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t a[GUEST_PK_X448_BYTES], ap[GUEST_PK_X448_BYTES];
	uint8_t b[GUEST_PK_X448_BYTES], bp[GUEST_PK_X448_BYTES];
	uint8_t k[GUEST_PK_X448_BYTES], p[GUEST_PK_X448_BYTES];
	uint8_t s[GUEST_PK_X448_BYTES];
	size_t n = guest_pk_pub_bytes(v->algo);
	void *ka = NULL, *kb = NULL;
	bool ok;

	if (n > sizeof(a) || unhex(v->hex[0], a, n) != n ||
	    unhex(v->hex[1], ap, n) != n || unhex(v->hex[2], b, n) != n ||
	    unhex(v->hex[3], bp, n) != n || unhex(v->hex[4], k, n) != n)
		return false;
	ok = (ka = pk->key_new(v->algo, a)) && (kb = pk->key_new(v->algo, b)) &&
	     pk->public_key(ka, p) == 0 && memcmp(p, ap, n) == 0 &&
	     pk->public_key(kb, p) == 0 && memcmp(p, bp, n) == 0 &&
	     pk->derive(ka, bp, s) == 0 && memcmp(s, k, n) == 0 &&
	     pk->derive(kb, ap, s) == 0 && memcmp(s, k, n) == 0;
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

/* ML-KEM-768 (FIPS 203): the seed d hex[0] and z hex[1], the
 * encapsulation key hex[2]: the key pair from d || z gives that
 * encapsulation key; an encapsulation to it decapsulates to the same
 * shared secret; and that ciphertext with one bit flipped decapsulates
 * (successfully, FIPS 203 6.3's implicit rejection) to another. */
static bool mlkem(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t ek[GUEST_PK_MLKEM_EK_BYTES], got[GUEST_PK_MLKEM_EK_BYTES];
	uint8_t ct[GUEST_PK_MLKEM_CT_BYTES];
	uint8_t seed[GUEST_PK_MLKEM_SEED_BYTES], ss[32], ss2[32];
	void *key = NULL, *pkey = NULL;
	bool ok;

	if (unhex(v->hex[0], seed, 32) != 32 ||
	    unhex(v->hex[1], seed + 32, 32) != 32 ||
	    unhex(v->hex[2], ek, sizeof(ek)) != sizeof(ek))
		return false;
	ok = (key = pk->key_new(v->algo, seed)) &&
	     pk->public_key(key, got) == 0 && memcmp(got, ek, sizeof(ek)) == 0 &&
	     (pkey = pk->pub_new(v->algo, ek)) &&
	     pk->encaps(pkey, ct, ss) == 0 &&
	     pk->decaps(key, ct, ss2) == 0 && memcmp(ss, ss2, 32) == 0;
	if (ok) {
		ct[0] ^= 1;
		ok = pk->decaps(key, ct, ss2) == 0 && memcmp(ss, ss2, 32) != 0;
	}
	pk->key_free(key);
	pk->key_free(pkey);
	return ok;
}

/* ML-DSA-65 (FIPS 204): the seed xi hex[0], the public key hex[1]: the
 * key pair from the seed gives that public key; the library's own
 * signature of the 64-byte message 0x00 .. 0x3f verifies under it, and
 * is rejected with its last bit flipped. */
static bool mldsa(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	uint8_t pub[GUEST_PK_MLDSA_PUB_BYTES], got[GUEST_PK_MLDSA_PUB_BYTES];
	uint8_t sig[GUEST_PK_MLDSA_SIG_BYTES];
	uint8_t seed[32], msg[64];
	void *key = NULL, *pkey = NULL;
	bool ok;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	if (unhex(v->hex[0], seed, 32) != 32 ||
	    unhex(v->hex[1], pub, sizeof(pub)) != sizeof(pub))
		return false;
	ok = (key = pk->key_new(v->algo, seed)) &&
	     pk->public_key(key, got) == 0 &&
	     memcmp(got, pub, sizeof(pub)) == 0 &&
	     (pkey = pk->pub_new(v->algo, pub)) &&
	     pk->sign(key, msg, sizeof(msg), sig) == 0 &&
	     pk->verify(pkey, msg, sizeof(msg), sig) == 0;
	if (ok) {
		sig[sizeof(sig) - 1] ^= 1;
		ok = pk->verify(pkey, msg, sizeof(msg), sig) == 1;
	}
	pk->key_free(key);
	pk->key_free(pkey);
	return ok;
}

static const struct pk_kat table[] = {
	{ GUEST_PK_X25519, "RFC 7748 5.2, first X25519 test vector", xdh_mul, {
	  "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
	  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
	  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" } },
	{ GUEST_PK_X25519, "RFC 7748 5.2, second X25519 test vector", xdh_mul, {
	  "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
	  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
	  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" } },
	{ GUEST_PK_X25519, "RFC 7748 6.1, Alice's and Bob's keys and shared secret", xdh_dh, {
	  "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
	  "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
	  "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
	  "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
	  "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742" } },
	/* RFC 7748 5.2 (the two X448 test vectors, one iteration each) and
	 * 6.2 (Alice's and Bob's X448 keys and their shared secret) */
	{ GUEST_PK_X448, "RFC 7748 5.2, first X448 test vector", xdh_mul, {
	  "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121"
	  "700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
	  "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9"
	  "814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
	  "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239f"
	  "e14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f" } },
	{ GUEST_PK_X448, "RFC 7748 5.2, second X448 test vector", xdh_mul, {
	  "203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c5"
	  "38345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
	  "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b"
	  "165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
	  "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7"
	  "ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d" } },
	{ GUEST_PK_X448, "RFC 7748 6.2, Alice's and Bob's keys and shared secret", xdh_dh, {
	  "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28d"
	  "d9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b",
	  "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c"
	  "22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0",
	  "1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d"
	  "6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d",
	  "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b430"
	  "27d8b972fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609",
	  "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282b"
	  "b60c0b56fd2464c335543936521c24403085d59a449a5037514a879d" } },
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
	/* NIST ACVP-Server (github.com/usnistgov/ACVP-Server, commit
	 * a9496ad1031556369a9d2c1f20371ff2f50783c0),
	 * gen-val/json-files/ML-KEM-keyGen-FIPS203/prompt.json and
	 * expectedResults.json, tgId 2 (ML-KEM-768), tcId 26: d, z, ek */
	{ GUEST_PK_ML_KEM_768, "NIST ACVP-Server ML-KEM-keyGen-FIPS203, ML-KEM-768, tcId 26", mlkem, {
	  "706d0283ec389266e596018feb19e8daccc5e72e47e2acc8e5240a81298e5dd1",
	  "c15b8c9b80fa3920fc873937a3cd2cf4f5418327986ab8fc09827e25588fed1e",
	  "133878d73b12edf2579f324bf9c073d58cad37a4ce2b6b5fb2146a94aba5b430"
	  "0704b71d36714d362102f6933d29cc20810b7a3c9964286a6251a2407c19b745"
	  "b63fbe38bc75936b0e7b82a4837414320c48e9652c643b2ce951e1f6b52d850f"
	  "44a58d555509996982de0b652b08a0b267540e79c75dc1169c31acf977492df4"
	  "738f7002e5b78260086181997f0515b34fd8ac36b19d3fd95bf923ca787459a7"
	  "5c5f75d55c12f3687a1294f2927abbcb9ce118742ef37c45fc3ea05441d1c985"
	  "f3d2ab43fa8c564c409a948846974847d301e10b16c041ad5d61c2e38a26e077"
	  "1a2fd38733d97cd509a7f70231d103c11e6259f974b3ee2674e325cdc4cb06ee"
	  "420dd67617ca5b9233b990fdf6bcf919cf3eb20676e41b8cf400af5431a2706e"
	  "32f5027d4b0c3bf8cd5bd662c742c79d061185bbaf4eda29e1f9807f55a95643"
	  "bd7bd453143c7fc87552e2487447e1ae520a03a15c43e4fb7cff5712172bb446"
	  "f591a6775b3886bb11b90db2f8ab5ab3bba40aa2fba00a22cb4b71660d155228"
	  "18a1c660a73ad0706412258601e65f71e462e305b9bed6c16cc70dc8f4b24150"
	  "90c40722005b7747d978db110b8b918f34c837df35916f74ac38606734b2cbae"
	  "6b1f7cc146319513658539e1175932894cb2c5931eb8620809b70a59c5e7603c"
	  "bcc207e0db4c51f096b02756ed578a39cb4719a6245200d0653140994885974c"
	  "7d9e26cff6c354c5fc2792d4007dbb8747a201c954487af66a3f2011d8d189a6"
	  "73045df73de1d108a202696e952de0f26b4e4514c9b4a061ca23e13cbacdf598"
	  "c8c56b2501659a15bfbee8404783369961b6d5d74a33e93136ea4b3ed8b92ecb"
	  "4662a6b192d288e407618cb1002f079f46c3618587303c57660401227e27c49a"
	  "c67d79f83f42706da5934466967c6cd0510bb7439ffa92113c9a6297c98dd003"
	  "012bbd0808670beb7affe8aff2ab4185e5b5abc349229a37cb590adc096d0294"
	  "89d1aab76c71820e3ccd6c740fd49a292b5c4a9cd40e1d39c47d839ea360427c"
	  "d628dd5a511d446756ab18ffa66b52f97bded9555142805971a4d48c15181093"
	  "57400b2cd86f0e3469ce8855e4b364fc784174e56af673c1fdca7da4dab4cb41"
	  "b2c6c6522e876744264dbb684e66a89baf1362f9a72eb6a03ce399586beaad0d"
	  "e290fc359d519b0e26d294a380abd8d629f9c8c17786b073745b3871b4472c1c"
	  "7c2c0063455db49485d79abe93f70fb6710f6339220ec41996a218cffb9c1fc4"
	  "8b5836b8931053092804b6567e5ccb1f5e893382a46db9865a6a883cfc31b3e4"
	  "c451b5a10835051c4b9aa220d49150f1bace19ab8daa2b4e3c92074ac99d25ac"
	  "b2a3ab72310d690840fadc923c2b0bc8c98f51271a1a3330b1d456edc57713e3"
	  "8cf15c88d4050ed3f2101b222a1c114c10bb7947d10741919e114635c5c31013"
	  "4b5a734128c685a7ba702bb075ba389c658a529e5c097e7edc1573c34e377b56"
	  "4ca67597f379302029db915296cc219af21a77e36bca854fe2875260d1090a60"
	  "67de4bc52fe08531e7449461845267116cc3456afc4d3c663afa2a77f2f0c3e5"
	  "0b009ee93c27730baa96443a81515d75b0087b4e41e1a733b32c0f9448e060cc"
	  "a876f711b47601f9d142f158fd10342b1d53d44cd40a7d5dbc44391afc06d6c8" } },
	/* NIST ACVP-Server (same commit),
	 * gen-val/json-files/ML-DSA-keyGen-FIPS204/prompt.json and
	 * expectedResults.json, tgId 2 (ML-DSA-65), tcId 26: seed, pk */
	{ GUEST_PK_ML_DSA_65, "NIST ACVP-Server ML-DSA-keyGen-FIPS204, ML-DSA-65, tcId 26", mldsa, {
	  "ac37688a229c819f1f5ba5a2ed98e3d0ad98d1b5db233ff8e8122040bcba609f",
	  "fed3ffcdec5bee2e82d7ac7f2a244035b5aa94c1e0e6a2141c4aceb45165a1a2"
	  "2e5c51360e29f01012d26e77a00a9f004a4f155c7e0ef6ea1211ef5df3553d0f"
	  "e7ef74ef13c1c4794e67f1667a9d6fd1e9254d52c5fa68768cf14af5e337f966"
	  "1935bba4a6e0b08f3dea4b687efaa73c05484b28d79866cd9ccb4aa1f7107dc5"
	  "a0cd21ec6f93798ac1b6849717d0bff431e95de178c18d13018157565662ea5e"
	  "72fec778e877357cdb248d728e43c247fb5692607449790074668757119543c0"
	  "0f94b50d500b85760b3744154912c7c769f155d475a1e5d1c6656f68356a24fc"
	  "8222e7ccc401eda319e919e0575bded0694121400ef991d64908356dc31d51c2"
	  "42b818d406998293ca9c8fe41a9833c09cdc439e1a857f6508fecd89541dfc41"
	  "d898da4986244b569d85669c76df202044867a7827b6ef19ff601c3a1e162c20"
	  "fbd4b0e22ebaf49cb0a978b2755e3ed4995ba2277f182177e6e86f54131c6d4d"
	  "cf1059b57a26810a1f0c143655502bc54cb8ab7a4612d81de9814b037a6cdcf6"
	  "caaff25cae2ced59013037eccfc5ef1965e4fc22f50c80689541c2b3bf54e27c"
	  "e2df7b7945426128f173064c9626a0f778131d46a4f6405628ae8d93fb5eaaac"
	  "8d8109b61813cd6e862ce6262ba8c1fe5ec323188827877cebc9ce15e6cf106e"
	  "6b854721e1f4ec83cec4591bebf85d1fb0e5c4fdb3dbf11754cd479b1ff60481"
	  "172b62d9442564818725206c541c422160964b8f0414f09bcc1ffece91d3b882"
	  "d731ee8f23934bb379650fd413b426cd27cdbcb144637a216a944a49782d4526"
	  "54599fd70fed0b279e1251b9e2d0a009f66fea00ec1707ac9f8ac2b05a1ce824"
	  "ea6b1d1d7c338d4d0420fe7aa1ed6ae083752b4b43460cfe26c5951491cd5a20"
	  "71467491b8ce576e389a9c556b4cff6e76ed33a9be9e15cdb20ddf3576376f49"
	  "4d39e9cb023dbfe3db98ff49d06803e5bb7b0890546b2bea2587601c08f42f7a"
	  "659d3f49ebf277b12db92ab8e0ad17b311a955c92b8fd162d0c4912bd07db57c"
	  "8c4f925bcdaa780f15146fef01ab9e35563e2fbdaebc74766dc4a46e0f7194ff"
	  "218a0748270d29e7b37413b12c4d62ca9a6564eac709c9638f984b7f791d4d2a"
	  "0aa3752ab83726676d2b531574791ff148f352c901077086d45c3cde21b7c6b9"
	  "d663967e8263ec3595e447890ee3bbd8775dfc4b692e912b082f6565514729aa"
	  "6d42b4965016c8b6d57c8a3ee6a87acd2837c381005ce99954f7db890184b974"
	  "21f21690d4355061d33043e942a354776e13e1799071a4792f0b93ba11eaa547"
	  "0227916da23d1d0dc0a748b7ba89b83eae5a4f32db82418ac7318e9a829d8fce"
	  "bbc50c8645a4b4ca9224489b8dad067f282ddc14cdfa92204048f5c549403cfc"
	  "1a90ee3d237081be018c099f28284cdd19d8e5ec5a9b3924c7439a5c5cd6bb05"
	  "2aff7a396c43879ef9c3f8d0fd7164551924bc3db704c592683591303e5f281c"
	  "1211fb2387a9b34d827e1fb01823eb99a1c04dedcd52d9dc0092af751cdcedee"
	  "65d549f30f8b86d2376814207a7f12a485208440b1e333d07e253b4d40cf0a18"
	  "6d1f0d677ec60627ba1bdc71195a59573d801ca3f4e665b54ff370f83d5ea339"
	  "66dc0f43002e48ef7ae8a6ffd9ef433d43dd08b57473ac83c4aef6181a0facd0"
	  "e1a76850d8f9634c18f76ed876dc8223e3b1084c440d12ea9f4709924d2901d8"
	  "bd7cf9038cbcfbc073bc33568151124f2b4bf4bc3308ad17bbf322f4031a9b2b"
	  "4452ebaa3a56c064a738ab8ed6989751971856130c5adfc9c02bf37da983f5aa"
	  "d3bbb55d7a3100cf9a18971a10c38f49b4595d9d5c943ada67234b9700b8e7b4"
	  "b690feb3ea4056ea583dad0e5fefb337acacc399d3fe4da118977976247da08c"
	  "4670f1ccdd68a3a0dfdfdf1a01d296ea2d8c2373453d7e7755b24cb2a97fe81d"
	  "8e5e7ff922648d894683ef7463fa6016193b81349a6a9320d8b60dcf8781711c"
	  "c72ade2cb21114e15c2b177528f07aafd75cfce3b6c4d2886e08b3e9c5b988a5"
	  "02d798a9622632bbf060601ccd012bb18896c122a66066b412fe60becc805d72"
	  "1f795a0484eccd3342abf33bce10ac494279e4dd8ca609470491eec880d4632f"
	  "5d70badb3a01ac29d3c06d252e2fb8a60604628ad2032fa129479ae9221aebf9"
	  "b50e261820c51c5b8627033f499857e33ad1d110664d40b015a6b05974bb034b"
	  "12447b5d8ec1a052592c4a7c0eeb59e700a88834bea9662c6bd970c3b0ed02be"
	  "2729bb9c19386c104cd7ec175f6ee2b00904958bf29540f37e6a46da3b579d70"
	  "7b109a7775c4d51c28f90442551507f81f61c6d51106c7aa47314b29eed498c1"
	  "024dd0f83065aee112c64e6243ee016bc0cf320547c8bef938f294778ffcf6ea"
	  "a97b52f3047fe9a55ea88f4bdc368e793a31074a314d311cab882b008ef853f0"
	  "cb90071531d231d1df12f99e2aea91bc206a51a2504a5094c32746e119769aff"
	  "4e63bd01817890a4d4706d43e1a3031195a778087d73d64e7c4df8744258b780"
	  "f47769c274705814a272fab4aa54294140d98dda6d60e2e554e026aa3c8d756a"
	  "de20b9bd6951e3cdfc619e2a119177262a62c06606abc298a823a739a0281d0a"
	  "64f320fc7b8405f01be6a30c26dca683acb7537fc0a5ba2b3682703caa4f8f1d"
	  "d9482887fbd3afc894e3ca2a9de3d5d06e20baefe7ac0a120c9e129cbd5f6358"
	  "6136da805fea7fc89339a96c8f909e2a242c89a4eb503aa2df28c0c08c721557" } },
};

size_t pk_kat_unhex(const char *hex, uint8_t *out, size_t n)
{
	return unhex(hex, out, n);
}

const struct pk_kat *pk_kat_table(size_t *count)
{
	*count = sizeof(table) / sizeof(table[0]);
	return table;
}

bool pk_kat_run(const struct guest_pk_ops *pk, const struct pk_kat *v)
{
	return v->check(pk, v);
}
