/* guest/backend-pk.h - the public-key operations of the backends that
 * have them (struct guest_pk_ops, guest/backend.h), each in a file of its
 * own beside its backend (guest/backend-NAME-pk.c). A backend's load()
 * hands its dlopen() handle to its *_pk_load(), which resolves the
 * entry points; a missing one leaves the algorithms that need it
 * unsupported, never the library broken. */
#ifndef GUEST_BACKEND_PK_H
#define GUEST_BACKEND_PK_H

#include "backend.h"

/* OpenSSL's libcrypto (1.1.1 and 3.x) through EVP_PKEY: X25519, X448,
 * Ed25519. */
extern const struct guest_pk_ops guest_pk_openssl;
void guest_pk_openssl_load(void *handle);

/* libsodium's crypto_scalarmult and crypto_sign_*. */
extern const struct guest_pk_ops guest_pk_libsodium;
void guest_pk_libsodium_load(void *handle);

/* Nettle's libhogweed (X25519, X448 from 3.6, Ed25519); WHICH is the index of the libnettle soname
 * loaded (backend-nettle.c), whose libhogweed is opened on first use. */
extern const struct guest_pk_ops guest_pk_nettle;
void guest_pk_nettle_load(size_t which);
/* The dlopen() handle of that libhogweed, opened on the first call (and
 * kept); NULL when there is none. */
void *guest_pk_nettle_hogweed(void);

/* libgcrypt's gcry_ecc_mul_point (X25519, X448) and gcry_pk_sign /
 * gcry_pk_verify on S-expressions (Ed25519). */
extern const struct guest_pk_ops guest_pk_libgcrypt;
void guest_pk_libgcrypt_load(void *handle);

/* GnuTLS's gnutls_privkey_sign_data2 / gnutls_pubkey_verify_data2
 * (Ed25519) and, from GnuTLS 3.8.2, gnutls_privkey_derive_secret (X25519,
 * X448). */
extern const struct guest_pk_ops guest_pk_gnutls;
void guest_pk_gnutls_load(void *handle);
/* GnuTLS's raw key agreement (guest/backend-gnutls-kx.c), shared by
 * guest_pk_gnutls and guest_ec_gnutls: resolve it in libgnutls's HANDLE
 * (true: GnuTLS 3.8.2 or later), and derive the secret of a private key
 * (an X.509-backed gnutls_privkey_t) with a peer's raw key of
 * gnutls_ecc_curve_t CURVE (X, and Y or NULL, COORD_BYTES each) into
 * OUT (SECRET_BYTES): 0, or -1. */
struct gnutls_privkey_st;
bool guest_kx_gnutls_load(void *handle);
int guest_kx_gnutls_derive(struct gnutls_privkey_st *priv, int curve,
			   const uint8_t *x, const uint8_t *y,
			   size_t coord_bytes, uint8_t *out,
			   size_t secret_bytes);

/* Mbed TLS's mbedtls_ecp_mul / mbedtls_ecdh_compute_shared (X25519 and
 * X448 only). */
extern const struct guest_pk_ops guest_pk_mbedtls;
void guest_pk_mbedtls_load(void *handle);

/* wolfCrypt's wc_curve25519_*, wc_curve448_* and wc_ed25519_*. */
extern const struct guest_pk_ops guest_pk_wolfssl;
void guest_pk_wolfssl_load(void *handle);

/* Botan 2's FFI (botan_privkey_load_x25519 / _ed25519, botan_pk_op_*). */
extern const struct guest_pk_ops guest_pk_botan;
void guest_pk_botan_load(void *handle);

/* ECDH and ECDSA on P-256 (guest_backend's ec), each backend's in
 * guest/backend-NAME-ec.c, loaded as its *_pk_load() above is. */
extern const struct guest_pk_ops guest_ec_openssl;
void guest_ec_openssl_load(void *handle);
extern const struct guest_pk_ops guest_ec_libgcrypt;
void guest_ec_libgcrypt_load(void *handle);
extern const struct guest_pk_ops guest_ec_mbedtls;
void guest_ec_mbedtls_load(void *handle);
extern const struct guest_pk_ops guest_ec_wolfssl;
void guest_ec_wolfssl_load(void *handle);
extern const struct guest_pk_ops guest_ec_botan;
void guest_ec_botan_load(void *handle);
extern const struct guest_pk_ops guest_ec_gnutls;	/* ECDH from 3.8.2 */
void guest_ec_gnutls_load(void *handle);
extern const struct guest_pk_ops guest_ec_nettle;	/* through libhogweed,
				 * guest_pk_nettle_hogweed(): no load */

/* The RSA signatures (guest_backend's rsa: GUEST_PK_RSA_2048,
 * GUEST_PK_RSA_3072, GUEST_PK_RSA_PSS_2048, the fixed keys of
 * guest/rsa-keys.h), each backend's in guest/backend-NAME-rsa.c, loaded
 * as its *_pk_load() above is. */
extern const struct guest_pk_ops guest_rsa_openssl;
void guest_rsa_openssl_load(void *handle);
extern const struct guest_pk_ops guest_rsa_libgcrypt;
void guest_rsa_libgcrypt_load(void *handle);
extern const struct guest_pk_ops guest_rsa_nettle;	/* through libhogweed,
				 * guest_pk_nettle_hogweed(): no load */
extern const struct guest_pk_ops guest_rsa_gnutls;
void guest_rsa_gnutls_load(void *handle);
extern const struct guest_pk_ops guest_rsa_mbedtls;
void guest_rsa_mbedtls_load(void *handle);
extern const struct guest_pk_ops guest_rsa_wolfssl;
void guest_rsa_wolfssl_load(void *handle);
extern const struct guest_pk_ops guest_rsa_botan;
void guest_rsa_botan_load(void *handle);
/* ML-KEM-768 and ML-DSA-65 (guest_backend's pq), each backend's in
 * guest/backend-NAME-pq.c, loaded as its *_pk_load() above is. */
extern const struct guest_pk_ops guest_pq_openssl;
void guest_pq_openssl_load(void *handle);

#endif /* GUEST_BACKEND_PK_H */
