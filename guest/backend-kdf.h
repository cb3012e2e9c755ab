/* guest/backend-kdf.h - the key derivation functions of the backends that
 * have them (struct guest_kdf_ops, guest/backend.h), each in a file of
 * its own beside its backend (guest/backend-NAME-kdf.c). A backend's
 * load() hands its dlopen() handle to its *_kdf_load(), which resolves
 * the entry points; a missing one leaves the KDFs that need it
 * unsupported, never the library broken. */
#ifndef GUEST_BACKEND_KDF_H
#define GUEST_BACKEND_KDF_H

#include "backend.h"

/* OpenSSL's libcrypto: PKCS5_PBKDF2_HMAC, EVP_PBE_scrypt, and EVP_KDF
 * "HKDF" (3.0 and later) and "ARGON2ID" (3.2 and later). */
extern const struct guest_kdf_ops guest_kdf_openssl;
void guest_kdf_openssl_load(void *handle);

/* libgcrypt's gcry_kdf_derive (PBKDF2, scrypt) and gcry_kdf_open
 * (Argon2id, 1.10 and later). */
extern const struct guest_kdf_ops guest_kdf_libgcrypt;
void guest_kdf_libgcrypt_load(void *handle);

/* Nettle's pbkdf2_hmac_sha256 and hkdf_extract / hkdf_expand. */
extern const struct guest_kdf_ops guest_kdf_nettle;
void guest_kdf_nettle_load(void *handle);

/* GnuTLS's gnutls_pbkdf2 and gnutls_hkdf_extract / _expand (3.6.13 and
 * later). */
extern const struct guest_kdf_ops guest_kdf_gnutls;
void guest_kdf_gnutls_load(void *handle);

/* libsodium's crypto_pwhash (Argon2id) and
 * crypto_pwhash_scryptsalsa208sha256_ll (scrypt). */
extern const struct guest_kdf_ops guest_kdf_libsodium;
void guest_kdf_libsodium_load(void *handle);

/* Mbed TLS's mbedtls_pkcs5_pbkdf2_hmac and mbedtls_hkdf. */
extern const struct guest_kdf_ops guest_kdf_mbedtls;
void guest_kdf_mbedtls_load(void *handle);

/* wolfCrypt's wc_PBKDF2, wc_HKDF and wc_scrypt. */
extern const struct guest_kdf_ops guest_kdf_wolfssl;
void guest_kdf_wolfssl_load(void *handle);

/* Botan's FFI: botan_pwdhash (PBKDF2, Scrypt, Argon2id) and botan_kdf
 * (HKDF). */
extern const struct guest_kdf_ops guest_kdf_botan;
void guest_kdf_botan_load(void *handle);

#endif /* GUEST_BACKEND_KDF_H */
