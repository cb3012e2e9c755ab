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

static const struct kat_vector vectors[] = {
	{ .algo = GUEST_AES_128_CBC, .op = GUEST_OP_ENCRYPT,
	  .source = "NIST SP 800-38A F.2.1",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CBC_IV, .aad = "",
	  .in = SP800_38A_PLAIN, .out = SP800_38A_CBC_CIPHER, .tag = "" },
	{ .algo = GUEST_AES_128_CBC, .op = GUEST_OP_DECRYPT,
	  .source = "NIST SP 800-38A F.2.2",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CBC_IV, .aad = "",
	  .in = SP800_38A_CBC_CIPHER, .out = SP800_38A_PLAIN, .tag = "" },
	{ .algo = GUEST_AES_128_CTR, .op = GUEST_OP_ENCRYPT,
	  .source = "NIST SP 800-38A F.5.1",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CTR_COUNTER, .aad = "",
	  .in = SP800_38A_PLAIN, .out = SP800_38A_CTR_CIPHER, .tag = "" },
	{ .algo = GUEST_AES_128_CTR, .op = GUEST_OP_DECRYPT,
	  .source = "NIST SP 800-38A F.5.2",
	  .key = SP800_38A_KEY128, .iv = SP800_38A_CTR_COUNTER, .aad = "",
	  .in = SP800_38A_CTR_CIPHER, .out = SP800_38A_PLAIN, .tag = "" },
	{ .algo = GUEST_AES_256_GCM, .op = GUEST_OP_ENCRYPT,
	  .source = "McGrew & Viega GCM spec Test Case 16 (encrypt)",
	  .key = GCM_TC16_KEY, .iv = GCM_TC16_IV, .aad = GCM_TC16_AAD,
	  .in = GCM_TC16_PLAIN, .out = GCM_TC16_CIPHER, .tag = GCM_TC16_TAG },
	{ .algo = GUEST_AES_256_GCM, .op = GUEST_OP_DECRYPT,
	  .source = "McGrew & Viega GCM spec Test Case 16 (decrypt)",
	  .key = GCM_TC16_KEY, .iv = GCM_TC16_IV, .aad = GCM_TC16_AAD,
	  .in = GCM_TC16_CIPHER, .out = GCM_TC16_PLAIN, .tag = GCM_TC16_TAG },
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
	{ .algo = GUEST_SHA_256, .op = GUEST_OP_HASH,
	  .source = "FIPS 180-4 SHA-256, NIST CSRC example \"abc\"",
	  .key = "", .iv = "", .aad = "", .in_ascii = "abc",
	  .out = FIPS180_ABC_DIGEST, .tag = "" },
	{ .algo = GUEST_SHA_256, .op = GUEST_OP_HASH,
	  .source = "FIPS 180-4 SHA-256, NIST CSRC example 448-bit message",
	  .key = "", .iv = "", .aad = "", .in_ascii = FIPS180_448_MSG,
	  .out = FIPS180_448_DIGEST, .tag = "" },
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
	if (b->oneshot(v->algo, v->op, &io) != 0 ||
	    memcmp(got, want, (size_t)nwant) != 0)
		return false;
	if (ai->kind != GUEST_KIND_AEAD)
		return true;
	if (v->op == GUEST_OP_ENCRYPT)
		return memcmp(gottag, tag, (size_t)ntag) == 0;
	/* A forged tag must be rejected. */
	gottag[0] ^= 0x01;
	return b->oneshot(v->algo, v->op, &io) == 1;
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
		if (b->oneshot(algo, GUEST_OP_HASH, &io) != 0)
			return false;
		if (!(ctx = b->bulk_new(algo, GUEST_OP_HASH, NULL, NULL)))
			return false;
		memcpy(scratch, pt, len);
		memset(aux, 0, sizeof(aux));
		rc = b->bulk_run(ctx, scratch, scratch, len, 1, aux);
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
	if (b->oneshot(algo, GUEST_OP_ENCRYPT, &io) != 0 ||
	    (len >= 16 && memcmp(ct, pt, len) == 0))
		return false;
	io.in = ct;
	io.out = scratch;
	if (b->oneshot(algo, GUEST_OP_DECRYPT, &io) != 0 ||
	    memcmp(scratch, pt, len) != 0)
		return false;

	/* the timed path, encrypt: same ciphertext (and tag) */
	if (!(ctx = b->bulk_new(algo, GUEST_OP_ENCRYPT, key, iv)))
		return false;
	memcpy(scratch, pt, len);
	memset(aux, 0, sizeof(aux));
	rc = b->bulk_run(ctx, scratch, scratch, len, 1, aux);
	b->bulk_free(ctx);
	if (rc != 0 || memcmp(scratch, ct, len) != 0 ||
	    (ai->kind == GUEST_KIND_AEAD &&
	     memcmp(aux, tag, ai->tag_bytes) != 0))
		return false;

	/* the timed path, decrypt: back to the plaintext */
	if (!(ctx = b->bulk_new(algo, GUEST_OP_DECRYPT, key, iv)))
		return false;
	memcpy(scratch, ct, len);
	memcpy(aux, tag, ai->tag_bytes);
	rc = b->bulk_run(ctx, scratch, scratch, len, 1, aux);
	b->bulk_free(ctx);
	return rc == 0 && memcmp(scratch, pt, len) == 0;
}
