/* guest/kat.c - known-answer tests and round-trip checks (see kat.h). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "kat.h"

/* NIST SP 800-38A (2001), "Recommendation for Block Cipher Modes of
 * Operation", Appendix F: the four-block plaintext shared by F.2 and F.5,
 * and the AES-128 key of F.2.1/F.2.2/F.5.1/F.5.2. */
#define SP800_38A_KEY128 "2b7e151628aed2a6abf7158809cf4f3c"
#define SP800_38A_PLAIN \
	"6bc1bee22e409f96e93d7e117393172a" \
	"ae2d8a571e03ac9c9eb76fac45af8e51" \
	"30c81c46a35ce411e5fbc1191a0a52ef" \
	"f69f2445df4f9b17ad2b417be66c3710"
/* F.2.1 CBC-AES128.Encrypt / F.2.2 CBC-AES128.Decrypt */
#define SP800_38A_CBC_IV "000102030405060708090a0b0c0d0e0f"
#define SP800_38A_CBC_CIPHER \
	"7649abac8119b246cee98e9b12e9197d" \
	"5086cb9b507219ee95db113a917678b2" \
	"73bed6b8e3c1743b7116e69e22229516" \
	"3ff1caa1681fac09120eca307586e1a7"
/* F.5.1 CTR-AES128.Encrypt / F.5.2 CTR-AES128.Decrypt */
#define SP800_38A_CTR_COUNTER "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
#define SP800_38A_CTR_CIPHER \
	"874d6191b620e3261bef6864990db6ce" \
	"9806f66b7970fdff8617187bb9fffdff" \
	"5ae4df3edbd5d35e5b4f09020db03eab" \
	"1e031dda2fbe03d1792170a0f3009cee"

/* D. McGrew and J. Viega, "The Galois/Counter Mode of Operation (GCM)",
 * revised 2005 submission to NIST, Appendix B, Test Case 16: AES-256,
 * 96-bit IV, 60-byte plaintext, 20 bytes of additional data. */
#define GCM_TC16_KEY \
	"feffe9928665731c6d6a8f9467308308" \
	"feffe9928665731c6d6a8f9467308308"
#define GCM_TC16_IV "cafebabefacedbaddecaf888"
#define GCM_TC16_AAD "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define GCM_TC16_PLAIN \
	"d9313225f88406e5a55909c5aff5269a" \
	"86a7a9531534f7da2e4c303d8a318a72" \
	"1c3c0c95956809532fcf0e2449a6b525" \
	"b16aedf5aa0de657ba637b39"
#define GCM_TC16_CIPHER \
	"522dc1f099567d07f47f37a32a84427d" \
	"643a8cdcbfe5c0c97598a2bd2555d1aa" \
	"8cb08e48590dbb3da7b08b1056828838" \
	"c5f61e6393ba7a0abcc9f662"
#define GCM_TC16_TAG "76fc6ece0f4e1768cddf8853bb2d551b"

/* RFC 8439, "ChaCha20 and Poly1305 for IETF Protocols", section 2.8.2,
 * "Example and Test Vector for AEAD_CHACHA20_POLY1305". The nonce is the
 * 32-bit constant 07 00 00 00 followed by the IV 40 41 .. 47. */
#define RFC8439_KEY \
	"808182838485868788898a8b8c8d8e8f" \
	"909192939495969798999a9b9c9d9e9f"
#define RFC8439_NONCE "070000004041424344454647"
#define RFC8439_AAD "50515253c0c1c2c3c4c5c6c7"
#define RFC8439_PLAIN \
	"Ladies and Gentlemen of the class of '99: If I could offer you " \
	"only one tip for the future, sunscreen would be it."
#define RFC8439_CIPHER \
	"d31a8d34648e60db7b86afbc53ef7ec2" \
	"a4aded51296e08fea9e2b5a736ee62d6" \
	"3dbea45e8ca9671282fafb69da92728b" \
	"1a71de0a9e060b2905d6a5b67ecd3b36" \
	"92ddbd7f2d778b8c9803aee328091b58" \
	"fab324e4fad675945585808b4831d7bc" \
	"3ff4def08e4b7a9de576d26586cec64b" \
	"6116"
#define RFC8439_TAG "1ae10b594f09e26a7e902ecbd0600691"

/* FIPS 180-4 (2015), "Secure Hash Standard", SHA-256, checked with the
 * worked examples NIST publishes for it on csrc.nist.gov ("Examples with
 * Intermediate Values", SHA256.pdf: the one-block message "abc" and the
 * two-block 448-bit message; the same examples as FIPS 180-2 Appendix B.1
 * and B.2). */
#define FIPS180_ABC_DIGEST \
	"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define FIPS180_448_MSG \
	"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define FIPS180_448_DIGEST \
	"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"

/* FIPS 197 (2001), "Advanced Encryption Standard", Appendix C: example
 * vectors, one block, keys 00 01 02 .. (16, 24 or 32 bytes). */
#define FIPS197_PLAIN "00112233445566778899aabbccddeeff"
#define FIPS197_KEY128 "000102030405060708090a0b0c0d0e0f"
#define FIPS197_KEY192 FIPS197_KEY128 "1011121314151617"
#define FIPS197_KEY256 FIPS197_KEY128 "101112131415161718191a1b1c1d1e1f"
#define FIPS197_C1 "69c4e0d86a7b0430d8cdb78070b4c55a"
#define FIPS197_C2 "dda97ca4864cdfe06eaf70a0ec0d7191"
#define FIPS197_C3 "8ea2b7ca516745bfeafc49904b496089"

/* NIST SP 800-38A F.2.3 CBC-AES192 and F.2.5 CBC-AES256 (same IV and
 * plaintext as F.2.1), F.5.5 CTR-AES256 (same counter as F.5.1). */
#define SP800_38A_KEY192 "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"
#define SP800_38A_KEY256 \
	"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
#define SP800_38A_CBC192_CIPHER \
	"4f021db243bc633d7178183a9fa071e8" \
	"b4d9ada9ad7dedf4e5e738763f69145a" \
	"571b242012fb7ae07fa9baac3df102e0" \
	"08b0e27988598881d920a9e64f5615cd"
#define SP800_38A_CBC256_CIPHER \
	"f58c4c04d6e5f1ba779eabfb5f7bfbd6" \
	"9cfc4e967edb808d679f777bc6702c7d" \
	"39f23369a9d9bacfa530e26304231461" \
	"b2eb05e2c39be9fcda6c19078c6a9d1b"
#define SP800_38A_CTR256_CIPHER \
	"601ec313775789a5b7a7f504bbf3d228" \
	"f443e3ca4d62b59aca84e990cacaf5c5" \
	"2b0930daa23de94ce87017ba2d84988d" \
	"dfc9c58db67aada613c2dd08457941a6"

/* McGrew & Viega GCM specification, Appendix B, Test Case 4: AES-128,
 * 96-bit IV, 60-byte plaintext (the first 60 bytes of Test Case 16's),
 * 20 bytes of additional data. */
#define GCM_TC4_KEY "feffe9928665731c6d6a8f9467308308"
#define GCM_TC4_CIPHER \
	"42831ec2217774244b7221b784d0d49c" \
	"e3aa212f2c02a4e035c17e2329aca12e" \
	"21d514b25466931c7d8f6a5aac84aa05" \
	"1ba30b396a0aac973d58e091"
#define GCM_TC4_TAG "5bc94fbc3221a5db94fae95ae7121a47"

/* Serpent: NESSIE verified test vectors, Serpent-256-128, Set 1,
 * vector# 0 (key 80 00 .. 00, plaintext zero), as published with the
 * NESSIE portfolio (cs.technion.ac.il/~biham/Reports/Serpent/). */
#define KEY256_80 "80" "000000000000000000000000000000" \
	"00000000000000000000000000000000"
#define SERPENT_CIPHER "a223aa1288463c0e2be38ebd825616c0"

/* Twofish: B. Schneier et al., "Twofish: A 128-Bit Block Cipher" (1998),
 * test vectors, 256-bit key (file ecb_tbl.txt, KEYSIZE=256, I=1: zero key,
 * zero plaintext). */
#define TWOFISH_CIPHER "57ff739d4dc92c1bd7fc01700cc8216f"

/* Blowfish: Eric Young's test vectors distributed with Schneier's
 * reference code (schneier.com/code/vectors.txt), "set_key" test with a
 * 16-byte key: key F0E1D2C3B4A5968778695A4B3C2D1E0F, plaintext
 * FEDCBA9876543210. */
#define BLOWFISH_KEY "f0e1d2c3b4a5968778695a4b3c2d1e0f"
#define BLOWFISH_PLAIN "fedcba9876543210"
#define BLOWFISH_CIPHER "93142887ee3be15c"

/* CAST5: RFC 2144, Appendix B.1, single-plaintext-key-ciphertext set,
 * 128-bit key. */
#define CAST5_KEY "0123456712345678234567893456789a"
#define CAST5_PLAIN "0123456789abcdef"
#define CAST5_CIPHER "238b4fe5847e44b2"

/* 3DES: NIST SP 800-67 Rev. 1 (2012), Appendix B, TDEA example: three
 * keys, plaintext "The qufck brown fox jump". */
#define TDEA_KEY \
	"0123456789abcdef23456789abcdef01456789abcdef0123"
#define TDEA_PLAIN "5468652071756663" "6b2062726f776e20" "666f78206a756d70"
#define TDEA_CIPHER "a826fd8ce53b855f" "cce21c8112256fe6" "68d5c05dd9b6b900"

/* Camellia: RFC 3713, Appendix A, 128- and 256-bit key examples. */
#define CAMELLIA_PLAIN "0123456789abcdeffedcba9876543210"
#define CAMELLIA_KEY128 CAMELLIA_PLAIN
#define CAMELLIA_KEY256 CAMELLIA_PLAIN "00112233445566778899aabbccddeeff"
#define CAMELLIA_C128 "67673138549669730857065648eabe43"
#define CAMELLIA_C256 "9acc237dff16d76c20ef7c919e3a7509"

/* ChaCha20: RFC 8439, A.1, Test Vector #1: zero key, zero nonce, block
 * counter 0; the keystream XOR 64 zero bytes. */
#define ZERO32 "0000000000000000000000000000000000000000000000000000000000000000"
#define ZERO64 ZERO32 ZERO32
#define CHACHA_A1_STREAM \
	"76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" \
	"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"

/* Salsa20: eSTREAM verified test vectors, Salsa20/20 256-bit key, Set 1,
 * vector# 0 (key 80 00 .. 00, IV zero), stream[0..63]. */
#define SALSA20_STREAM \
	"e3be8fdd8beca2e3ea8ef9475b29a6e7003951e1097a5c38d23b7a5fad9f6844" \
	"b22c97559e2723c7cbbd3fe4fc8d9a0744652a83e72a9c461876af4d7ef1a117"

/* RC4: RFC 6229, 128-bit key 0x0102030405060708090a0b0c0d0e0f10, the
 * keystream at offsets 0 and 16. */
#define RC4_KEY "0102030405060708090a0b0c0d0e0f10"
#define RC4_STREAM \
	"9ac7cc9a609d1ef7b2932899cde41b97" "5248c4959014126a6e8a84f11d1a9e1c"

/* Hashes. MD5: RFC 1321 A.5 test suite. SHA-1, SHA-512: FIPS 180-4, NIST
 * CSRC "Examples with Intermediate Values" (SHA1.pdf, SHA512.pdf): "abc"
 * and the two-block messages. SHA3-256: FIPS 202, NIST CSRC examples
 * (SHA3-256_Msg0.pdf: the empty message; "abc" as in the NIST example
 * values). BLAKE2b-512: RFC 7693 Appendix A ("abc"), and the empty
 * message from the BLAKE2 reference test vectors (blake2b-kat.txt, in =
 * "", unkeyed: the same as the reference code's blake2b selftest). */
#define FIPS180_896_MSG \
	"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn" \
	"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

#define CIPHER(A, OP, SRC, K, I, P, C) \
	{ .algo = (A), .op = (OP), .source = (SRC), .key = (K), .iv = (I), \
	  .aad = "", .in = (P), .out = (C), .tag = "" }
/* Encrypt and decrypt vectors of one cipher test. */
#define BOTH(A, SRC, K, I, P, C) \
	CIPHER(A, GUEST_OP_ENCRYPT, SRC " (encrypt)", K, I, P, C), \
	CIPHER(A, GUEST_OP_DECRYPT, SRC " (decrypt)", K, I, C, P)
#define HASH(A, SRC, MSG, D) \
	{ .algo = (A), .op = GUEST_OP_HASH, .source = (SRC), .key = "", \
	  .iv = "", .aad = "", .in_ascii = (MSG), .out = (D), .tag = "" }
/* One block in CBC with a zero IV is one block in ECB. */
#define IV0_16 "00000000000000000000000000000000"
#define IV0_8 "0000000000000000"
#define ONE_CBC " (one block, CBC with zero IV)"

static const struct kat_vector vectors[] = {
	BOTH(GUEST_AES_128_ECB, "FIPS 197 C.1", FIPS197_KEY128, "",
	     FIPS197_PLAIN, FIPS197_C1),
	{ .algo = GUEST_AES_128_CBC, .op = GUEST_OP_ENCRYPT,
	  .source = "NIST SP 800-38A F.2.1",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CBC_IV, .aad = "",
	  .in = SP800_38A_PLAIN, .out = SP800_38A_CBC_CIPHER, .tag = "" },
	{ .algo = GUEST_AES_128_CBC, .op = GUEST_OP_DECRYPT,
	  .source = "NIST SP 800-38A F.2.2",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CBC_IV, .aad = "",
	  .in = SP800_38A_CBC_CIPHER, .out = SP800_38A_PLAIN, .tag = "" },
	BOTH(GUEST_AES_192_ECB, "FIPS 197 C.2", FIPS197_KEY192, "",
	     FIPS197_PLAIN, FIPS197_C2),
	CIPHER(GUEST_AES_192_CBC, GUEST_OP_ENCRYPT, "NIST SP 800-38A F.2.3",
	       SP800_38A_KEY192, SP800_38A_CBC_IV, SP800_38A_PLAIN,
	       SP800_38A_CBC192_CIPHER),
	CIPHER(GUEST_AES_192_CBC, GUEST_OP_DECRYPT, "NIST SP 800-38A F.2.4",
	       SP800_38A_KEY192, SP800_38A_CBC_IV, SP800_38A_CBC192_CIPHER,
	       SP800_38A_PLAIN),
	BOTH(GUEST_AES_256_ECB, "FIPS 197 C.3", FIPS197_KEY256, "",
	     FIPS197_PLAIN, FIPS197_C3),
	CIPHER(GUEST_AES_256_CBC, GUEST_OP_ENCRYPT, "NIST SP 800-38A F.2.5",
	       SP800_38A_KEY256, SP800_38A_CBC_IV, SP800_38A_PLAIN,
	       SP800_38A_CBC256_CIPHER),
	CIPHER(GUEST_AES_256_CBC, GUEST_OP_DECRYPT, "NIST SP 800-38A F.2.6",
	       SP800_38A_KEY256, SP800_38A_CBC_IV, SP800_38A_CBC256_CIPHER,
	       SP800_38A_PLAIN),
	BOTH(GUEST_SERPENT_256_ECB, "NESSIE Serpent-256-128 Set 1 vector 0",
	     KEY256_80, "", IV0_16, SERPENT_CIPHER),
	BOTH(GUEST_SERPENT_256_CBC,
	     "NESSIE Serpent-256-128 Set 1 vector 0" ONE_CBC,
	     KEY256_80, IV0_16, IV0_16, SERPENT_CIPHER),
	BOTH(GUEST_TWOFISH_256_ECB, "Twofish paper ecb_tbl 256-bit I=1",
	     ZERO32, "", IV0_16, TWOFISH_CIPHER),
	BOTH(GUEST_TWOFISH_256_CBC,
	     "Twofish paper ecb_tbl 256-bit I=1" ONE_CBC,
	     ZERO32, IV0_16, IV0_16, TWOFISH_CIPHER),
	BOTH(GUEST_BLOWFISH_128_ECB, "Schneier/Young Blowfish vectors set_key 16",
	     BLOWFISH_KEY, "", BLOWFISH_PLAIN, BLOWFISH_CIPHER),
	BOTH(GUEST_BLOWFISH_128_CBC,
	     "Schneier/Young Blowfish vectors set_key 16" ONE_CBC,
	     BLOWFISH_KEY, IV0_8, BLOWFISH_PLAIN, BLOWFISH_CIPHER),
	BOTH(GUEST_CAST5_128_ECB, "RFC 2144 B.1 128-bit key",
	     CAST5_KEY, "", CAST5_PLAIN, CAST5_CIPHER),
	BOTH(GUEST_CAST5_128_CBC, "RFC 2144 B.1 128-bit key" ONE_CBC,
	     CAST5_KEY, IV0_8, CAST5_PLAIN, CAST5_CIPHER),
	BOTH(GUEST_3DES_ECB, "NIST SP 800-67r1 Appendix B",
	     TDEA_KEY, "", TDEA_PLAIN, TDEA_CIPHER),
	BOTH(GUEST_3DES_CBC, "NIST SP 800-67r1 Appendix B" ONE_CBC,
	     TDEA_KEY, IV0_8, "5468652071756663", "a826fd8ce53b855f"),
	{ .algo = GUEST_AES_128_CTR, .op = GUEST_OP_ENCRYPT,
	  .source = "NIST SP 800-38A F.5.1",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CTR_COUNTER, .aad = "",
	  .in = SP800_38A_PLAIN, .out = SP800_38A_CTR_CIPHER, .tag = "" },
	{ .algo = GUEST_AES_128_CTR, .op = GUEST_OP_DECRYPT,
	  .source = "NIST SP 800-38A F.5.2",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CTR_COUNTER, .aad = "",
	  .in = SP800_38A_CTR_CIPHER, .out = SP800_38A_PLAIN, .tag = "" },
	CIPHER(GUEST_AES_256_CTR, GUEST_OP_ENCRYPT, "NIST SP 800-38A F.5.5",
	       SP800_38A_KEY256, SP800_38A_CTR_COUNTER, SP800_38A_PLAIN,
	       SP800_38A_CTR256_CIPHER),
	CIPHER(GUEST_AES_256_CTR, GUEST_OP_DECRYPT, "NIST SP 800-38A F.5.6",
	       SP800_38A_KEY256, SP800_38A_CTR_COUNTER,
	       SP800_38A_CTR256_CIPHER, SP800_38A_PLAIN),
	{ .algo = GUEST_AES_128_GCM, .op = GUEST_OP_ENCRYPT,
	  .source = "McGrew & Viega GCM spec Test Case 4 (encrypt)",
	  .key = GCM_TC4_KEY, .iv = GCM_TC16_IV, .aad = GCM_TC16_AAD,
	  .in = GCM_TC16_PLAIN, .out = GCM_TC4_CIPHER, .tag = GCM_TC4_TAG },
	{ .algo = GUEST_AES_128_GCM, .op = GUEST_OP_DECRYPT,
	  .source = "McGrew & Viega GCM spec Test Case 4 (decrypt)",
	  .key = GCM_TC4_KEY, .iv = GCM_TC16_IV, .aad = GCM_TC16_AAD,
	  .in = GCM_TC4_CIPHER, .out = GCM_TC16_PLAIN, .tag = GCM_TC4_TAG },
	{ .algo = GUEST_AES_256_GCM, .op = GUEST_OP_ENCRYPT,
	  .source = "McGrew & Viega GCM spec Test Case 16 (encrypt)",
	  .key = GCM_TC16_KEY, .iv = GCM_TC16_IV, .aad = GCM_TC16_AAD,
	  .in = GCM_TC16_PLAIN, .out = GCM_TC16_CIPHER, .tag = GCM_TC16_TAG },
	{ .algo = GUEST_AES_256_GCM, .op = GUEST_OP_DECRYPT,
	  .source = "McGrew & Viega GCM spec Test Case 16 (decrypt)",
	  .key = GCM_TC16_KEY, .iv = GCM_TC16_IV, .aad = GCM_TC16_AAD,
	  .in = GCM_TC16_CIPHER, .out = GCM_TC16_PLAIN, .tag = GCM_TC16_TAG },
	BOTH(GUEST_CAMELLIA_128_CBC, "RFC 3713 A 128-bit key" ONE_CBC,
	     CAMELLIA_KEY128, IV0_16, CAMELLIA_PLAIN, CAMELLIA_C128),
	BOTH(GUEST_CAMELLIA_256_CBC, "RFC 3713 A 256-bit key" ONE_CBC,
	     CAMELLIA_KEY256, IV0_16, CAMELLIA_PLAIN, CAMELLIA_C256),
	BOTH(GUEST_CHACHA20, "RFC 8439 A.1 Test Vector #1", ZERO32,
	     "000000000000000000000000", ZERO64, CHACHA_A1_STREAM),
	{ .algo = GUEST_CHACHA20_POLY1305, .op = GUEST_OP_ENCRYPT,
	  .source = "RFC 8439 2.8.2 (encrypt)",
	  .key = RFC8439_KEY, .iv = RFC8439_NONCE, .aad = RFC8439_AAD,
	  .in_ascii = RFC8439_PLAIN, .out = RFC8439_CIPHER,
	  .tag = RFC8439_TAG },
	{ .algo = GUEST_CHACHA20_POLY1305, .op = GUEST_OP_DECRYPT,
	  .source = "RFC 8439 2.8.2 (decrypt)",
	  .key = RFC8439_KEY, .iv = RFC8439_NONCE, .aad = RFC8439_AAD,
	  .in = RFC8439_CIPHER, .out_ascii = RFC8439_PLAIN,
	  .tag = RFC8439_TAG },
	BOTH(GUEST_SALSA20, "eSTREAM Salsa20 256-bit Set 1 vector 0",
	     KEY256_80, "0000000000000000", ZERO64, SALSA20_STREAM),
	BOTH(GUEST_RC4, "RFC 6229 128-bit key, offsets 0 and 16", RC4_KEY, "",
	     ZERO32, RC4_STREAM),
	HASH(GUEST_MD5, "RFC 1321 A.5 \"abc\"", "abc",
	     "900150983cd24fb0d6963f7d28e17f72"),
	HASH(GUEST_MD5, "RFC 1321 A.5 \"message digest\"", "message digest",
	     "f96b697d7cb7938d525a2f31aaf161d0"),
	HASH(GUEST_SHA_1, "FIPS 180-4 SHA-1, NIST CSRC example \"abc\"",
	     "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
	HASH(GUEST_SHA_1, "FIPS 180-4 SHA-1, NIST CSRC example 448-bit message",
	     FIPS180_448_MSG, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
	HASH(GUEST_SHA_256, "FIPS 180-4 SHA-256, NIST CSRC example \"abc\"",
	     "abc", FIPS180_ABC_DIGEST),
	HASH(GUEST_SHA_256,
	     "FIPS 180-4 SHA-256, NIST CSRC example 448-bit message",
	     FIPS180_448_MSG, FIPS180_448_DIGEST),
	HASH(GUEST_SHA_512, "FIPS 180-4 SHA-512, NIST CSRC example \"abc\"",
	     "abc",
	     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
	HASH(GUEST_SHA_512,
	     "FIPS 180-4 SHA-512, NIST CSRC example 896-bit message",
	     FIPS180_896_MSG,
	     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
	HASH(GUEST_SHA3_256, "FIPS 202 SHA3-256, NIST CSRC example (empty)",
	     "",
	     "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
	HASH(GUEST_SHA3_256, "FIPS 202 SHA3-256, NIST CSRC example \"abc\"",
	     "abc",
	     "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
	HASH(GUEST_BLAKE2B_512, "RFC 7693 Appendix A \"abc\"", "abc",
	     "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
	     "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"),
	HASH(GUEST_BLAKE2B_512, "BLAKE2 reference blake2b-kat.txt (empty)", "",
	     "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
	     "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce"),
};

const struct kat_vector *kat_table(size_t *count)
{
	*count = sizeof(vectors) / sizeof(vectors[0]);
	return vectors;
}

/* Largest byte string in the table. */
#define KAT_MAX 256

/* Decode lowercase/uppercase hex HEX into OUT (KAT_MAX bytes). Returns the
 * byte count, or -1 on bad or overlong input. */
static long unhex(const char *hex, uint8_t *out)
{
	size_t n = strlen(hex), i;

	if (n % 2 || n / 2 > KAT_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		char c = hex[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		if (i % 2 == 0)
			out[i / 2] = (uint8_t)(d << 4);
		else
			out[i / 2] |= (uint8_t)d;
	}
	return (long)(n / 2);
}

/* Bytes of a vector field given as HEX, or as TEXT when TEXT is set, into
 * OUT (KAT_MAX bytes); -1 on error. */
static long field(const char *hex, const char *text, uint8_t *out)
{
	size_t n;

	if (!text)
		return hex ? unhex(hex, out) : -1;
	n = strlen(text);
	if (n > KAT_MAX)
		return -1;
	memcpy(out, text, n);
	return (long)n;
}

bool kat_check(const struct guest_backend *b, const struct kat_vector *v)
{
	const struct guest_algo_info *ai = algo_info(v->algo);
	uint8_t key[KAT_MAX], iv[KAT_MAX], aad[KAT_MAX], in[KAT_MAX];
	uint8_t want[KAT_MAX], got[KAT_MAX], tag[KAT_MAX], gottag[KAT_MAX];
	long nkey, niv, naad, nin, nwant, ntag;
	struct guest_oneshot io;

	nkey = unhex(v->key, key);
	niv = unhex(v->iv, iv);
	naad = unhex(v->aad, aad);
	nin = field(v->in, v->in_ascii, in);
	nwant = field(v->out, v->out_ascii, want);
	ntag = unhex(v->tag, tag);
	if (nkey < 0 || niv < 0 || naad < 0 || nin < 0 || ntag < 0 ||
	    nwant < 0)
		return false;
	if (ai->kind == GUEST_KIND_HASH) {
		if ((size_t)nwant != ai->digest_bytes)
			return false;
	} else if ((size_t)nkey != ai->key_bytes ||
		   (size_t)niv != ai->iv_bytes || nwant != nin ||
		   (size_t)ntag != ai->tag_bytes)
		return false;

	memset(&io, 0, sizeof(io));
	io.key = key;
	io.iv = iv;
	io.aad = aad;
	io.aad_bytes = (size_t)naad;
	io.in = in;
	io.len = (size_t)nin;
	io.out = got;
	memset(got, 0, sizeof(got));
	if (v->op == GUEST_OP_DECRYPT) {
		memcpy(gottag, tag, sizeof(gottag));
		io.tag = gottag;
	} else {
		memset(gottag, 0, sizeof(gottag));
		io.tag = gottag;
	}
	if (backend_oneshot(b, v->algo, v->op, &io) != 0 ||
	    memcmp(got, want, (size_t)nwant) != 0)
		return false;
	if (ai->kind != GUEST_KIND_AEAD)
		return true;
	if (v->op == GUEST_OP_ENCRYPT)
		return memcmp(gottag, tag, (size_t)ntag) == 0;
	/* A forged tag must be rejected. */
	gottag[0] ^= 0x01;
	return backend_oneshot(b, v->algo, v->op, &io) == 1;
}

/* One one-shot CBC operation OP of ALGO in B: LEN bytes IN -> OUT with
 * KEY and IV. Returns true on success. */
static bool cbc_once(const struct guest_backend *b, enum guest_algo algo,
		     enum guest_op op, const uint8_t *key, const uint8_t *iv,
		     const uint8_t *in, uint8_t *out, size_t len)
{
	struct guest_oneshot io;

	memset(&io, 0, sizeof(io));
	io.key = key;
	io.iv = iv;
	io.in = in;
	io.out = out;
	io.len = len;
	return backend_oneshot(b, algo, op, &io) == 0;
}

bool kat_cbc_chain(const struct guest_backend *b, enum guest_algo algo,
		   const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);
	size_t bs = ai->block_bytes;
	uint8_t p[2 * GUEST_MAX_IV], c[2 * GUEST_MAX_IV], x[GUEST_MAX_IV],
		y[GUEST_MAX_IV], zero[GUEST_MAX_IV];

	if (ai->mode != GUEST_MODE_CBC || bs > GUEST_MAX_IV || bs != ai->iv_bytes)
		return false;
	memset(zero, 0, sizeof(zero));
	for (size_t i = 0; i < 2 * bs; i++)
		p[i] = (uint8_t)(0x3c + 7 * i);
	if (!cbc_once(b, algo, GUEST_OP_ENCRYPT, key, iv, p, c, 2 * bs))
		return false;
	/* C1 = E(P1 xor IV) */
	for (size_t i = 0; i < bs; i++)
		x[i] = p[i] ^ iv[i];
	if (!cbc_once(b, algo, GUEST_OP_ENCRYPT, key, zero, x, y, bs) ||
	    memcmp(y, c, bs) != 0)
		return false;
	/* C2 = E(P2 xor C1) */
	for (size_t i = 0; i < bs; i++)
		x[i] = p[bs + i] ^ c[i];
	if (!cbc_once(b, algo, GUEST_OP_ENCRYPT, key, zero, x, y, bs) ||
	    memcmp(y, c + bs, bs) != 0)
		return false;
	/* P2 = D(C2) xor C1 */
	if (!cbc_once(b, algo, GUEST_OP_DECRYPT, key, zero, c + bs, y, bs))
		return false;
	for (size_t i = 0; i < bs; i++)
		y[i] ^= c[i];
	return memcmp(y, p + bs, bs) == 0;
}

/* Messages kat_roundtrip() sends through one timed-path context of an
 * AEAD or hash, whose every bulk_run call is a complete message: more than
 * one, so that a context that cannot take a second message (a library that
 * wipes its key when a message ends) is caught, not timed. */
#define TIMED_MESSAGES 2

/* One pass of the timed path of cipher ALGO, direction OP, on a fresh
 * context: LEN bytes IN -> OUT (out of place, as timed). When LEN is at
 * least two keystream blocks and splits into two halves of whole blocks,
 * it is streamed as two calls of LEN / 2 - the state carried from one
 * call to the next must give the same output as one call over the whole,
 * which catches a library that restarts its counter or chain per call.
 * Returns true when every call succeeded. */
static bool timed_cipher(const struct guest_backend *b, enum guest_algo algo,
			 enum guest_op op, const uint8_t *key,
			 const uint8_t *iv, const uint8_t *in, uint8_t *out,
			 size_t len)
{
	const struct guest_algo_info *ai = algo_info(algo);
	size_t g = algo_stream_block(algo), half = len / 2;
	void *ctx;
	int rc;

	if (g < ai->block_bytes)
		g = ai->block_bytes;
	if (!(ctx = b->bulk_new(algo, op, key, iv)))
		return false;
	if (len >= 2 * g && half % g == 0)
		rc = b->bulk_run(ctx, in, out, half, 1, NULL) != 0 ||
		     b->bulk_run(ctx, in + half, out + half, half, 1, NULL) != 0
		     ? -1 : 0;
	else
		rc = b->bulk_run(ctx, in, out, len, 1, NULL);
	b->bulk_free(ctx);
	return rc == 0;
}

/* The timed path of AEAD ALGO on fresh contexts, laid out as timed
 * (guest/PROTOCOL.md, "Buffers": the tag right after the text): encrypt
 * PT into SCRATCH (tag at SCRATCH + LEN) TIMED_MESSAGES times and compare
 * with CT and TAG; decrypt CT (with TAG copied to CT + LEN) back to PT;
 * then decrypt once more with one bit of the tag flipped, which must be
 * rejected. Returns true if all of that held. */
static bool timed_aead(const struct guest_backend *b, enum guest_algo algo,
		       const uint8_t *key, const uint8_t *iv,
		       const uint8_t *pt, size_t len, uint8_t *ct,
		       const uint8_t *tag, uint8_t *scratch)
{
	size_t tl = algo_info(algo)->tag_bytes;
	void *ctx;
	bool ok;

	if (!(ctx = b->bulk_new(algo, GUEST_OP_ENCRYPT, key, iv)))
		return false;
	memset(scratch, 0, len + tl);
	ok = b->bulk_run(ctx, pt, scratch, len, TIMED_MESSAGES,
			 scratch + len) == 0 &&
	     memcmp(scratch, ct, len) == 0 &&
	     memcmp(scratch + len, tag, tl) == 0;
	b->bulk_free(ctx);
	if (!ok || !(ctx = b->bulk_new(algo, GUEST_OP_DECRYPT, key, iv)))
		return false;
	memcpy(ct + len, tag, tl);
	memset(scratch, 0, len);
	ok = b->bulk_run(ctx, ct, scratch, len, TIMED_MESSAGES,
			 ct + len) == 0 &&
	     memcmp(scratch, pt, len) == 0;
	ct[len] ^= 1;
	ok = ok && b->bulk_run(ctx, ct, scratch, len, 1, ct + len) != 0;
	ct[len] ^= 1;
	b->bulk_free(ctx);
	return ok;
}

bool kat_roundtrip(const struct guest_backend *b, enum guest_algo algo,
		   const uint8_t *key, const uint8_t *iv, const uint8_t *pt,
		   size_t len, uint8_t *ct, uint8_t *tag, uint8_t *scratch)
{
	const struct guest_algo_info *ai = algo_info(algo);
	uint8_t aux[GUEST_MAX_DIGEST];
	struct guest_oneshot io;
	void *ctx;
	int rc;

	memset(&io, 0, sizeof(io));
	io.key = key;
	io.iv = iv;
	io.in = pt;
	io.len = len;
	if (ai->kind == GUEST_KIND_HASH) {
		io.out = tag;
		if (backend_oneshot(b, algo, GUEST_OP_HASH, &io) != 0)
			return false;
		if (!(ctx = b->bulk_new(algo, GUEST_OP_HASH, NULL, NULL)))
			return false;
		memset(aux, 0, sizeof(aux));
		rc = b->bulk_run(ctx, pt, scratch, len, TIMED_MESSAGES, aux);
		b->bulk_free(ctx);
		return rc == 0 && memcmp(aux, tag, ai->digest_bytes) == 0;
	}
	if (ai->kind == GUEST_KIND_AEAD) {
		io.aad = guest_aead_aad;
		io.aad_bytes = GUEST_AEAD_AAD_BYTES;
	}
	/* one-shot encrypt, then decrypt */
	io.out = ct;
	io.tag = tag;
	if (backend_oneshot(b, algo, GUEST_OP_ENCRYPT, &io) != 0 ||
	    (len >= 16 && memcmp(ct, pt, len) == 0))
		return false;
	if (len <= KAT_ROUNDTRIP_MAX) {
		io.in = ct;
		io.out = scratch;
		if (backend_oneshot(b, algo, GUEST_OP_DECRYPT, &io) != 0 ||
		    memcmp(scratch, pt, len) != 0)
			return false;
	}

	/* the timed path, at every size it times (whole keystream blocks):
	 * the same ciphertext (and tag) as the one-shot, and back to the
	 * plaintext */
	if (len % algo_stream_block(algo) != 0)
		return true;
	if (ai->kind == GUEST_KIND_AEAD)
		return timed_aead(b, algo, key, iv, pt, len, ct, tag, scratch);
	memset(scratch, 0, len);
	if (!timed_cipher(b, algo, GUEST_OP_ENCRYPT, key, iv, pt, scratch,
			  len) || memcmp(scratch, ct, len) != 0)
		return false;
	memset(scratch, 0, len);
	return timed_cipher(b, algo, GUEST_OP_DECRYPT, key, iv, ct, scratch,
			    len) && memcmp(scratch, pt, len) == 0;
}
