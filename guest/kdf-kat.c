/* guest/kdf-kat.c - known answers of the key derivation functions (see
 * kdf-kat.h). Every value is copied from the cited section of the RFC
 * (the PBKDF2, HKDF and scrypt ones were checked against a second
 * implementation when they were typed in). */
#include "compat.h"

#include <string.h>

#include "kdf-kat.h"

/* Longest value of a vector, bytes. */
#define KAT_MAX 64

/* Decode the lowercase hex digits of HEX (at most 2 x KAT_MAX) into OUT;
 * returns the byte count, or (size_t)-1 on a bad digit or too long. */
static size_t unhex(const char *hex, uint8_t *out)
{
	size_t n = strlen(hex) / 2;

	if (n > KAT_MAX || strlen(hex) % 2)
		return (size_t)-1;
	for (size_t i = 0; i < n; i++) {
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
	return n;
}

/* ASCII "passwd", "salt", "Password", "NaCl", "password" in hex. */
#define PASSWD "706173737764"
#define SALT "73616c74"
#define PASSWORD_CAP "50617373776f7264"
#define NACL "4e61436c"
#define PASSWORD "70617373776f7264"

static const struct kdf_kat table[] = {
	{ GUEST_KDF_PBKDF2_SHA256,
	  "RFC 7914 11, PBKDF2-HMAC-SHA256 P=\"passwd\" S=\"salt\" c=1 dkLen=64",
	  PASSWD, SALT, "", "", "", 1, 0, 0, 0,
	  "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
	  "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783" },
	{ GUEST_KDF_PBKDF2_SHA256,
	  "RFC 7914 11, PBKDF2-HMAC-SHA256 P=\"Password\" S=\"NaCl\" c=80000 dkLen=64",
	  PASSWORD_CAP, NACL, "", "", "", 80000, 0, 0, 0,
	  "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
	  "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d" },
	{ GUEST_KDF_HKDF_SHA256,
	  "RFC 5869 A.1, test case 1 (SHA-256, L=42)",
	  "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
	  "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", "", "",
	  1, 0, 0, 0,
	  "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
	  "34007208d5b887185865" },
	{ GUEST_KDF_SCRYPT,
	  "RFC 7914 12, scrypt P=\"\" S=\"\" N=16 r=1 p=1 dkLen=64",
	  "", "", "", "", "", 16, 1, 0, 1,
	  "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
	  "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906" },
	{ GUEST_KDF_SCRYPT,
	  "RFC 7914 12, scrypt P=\"password\" S=\"NaCl\" N=1024 r=8 p=16 dkLen=64",
	  PASSWORD, NACL, "", "", "", 1024, 8, 0, 16,
	  "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
	  "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640" },
	{ GUEST_KDF_ARGON2ID,
	  "RFC 9106 5.3, Argon2id t=3 m=32 p=4 with secret and associated data",
	  "0101010101010101010101010101010101010101010101010101010101010101",
	  "02020202020202020202020202020202", "", "0303030303030303",
	  "040404040404040404040404", 3, 0, 32, 4,
	  "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659" },
};

const struct kdf_kat *kdf_kat_table(size_t *count)
{
	*count = sizeof(table) / sizeof(table[0]);
	return table;
}

enum kdf_kat_rc kdf_kat_run(const struct guest_kdf_ops *kdf,
			    const struct kdf_kat *v)
{
	uint8_t pass[KAT_MAX], salt[KAT_MAX], info[KAT_MAX], secret[KAT_MAX];
	uint8_t ad[KAT_MAX], want[KAT_MAX], got[KAT_MAX];
	struct guest_kdf_input in;
	size_t n[6];
	int rc;

	memset(&in, 0, sizeof(in));
	n[0] = unhex(v->pass, pass);
	n[1] = unhex(v->salt, salt);
	n[2] = unhex(v->info, info);
	n[3] = unhex(v->secret, secret);
	n[4] = unhex(v->ad, ad);
	n[5] = unhex(v->out, want);
	for (int i = 0; i < 6; i++)
		if (n[i] == (size_t)-1)
			return KDF_KAT_FAIL;
	in.pass = pass;
	in.pass_bytes = n[0];
	in.salt = salt;
	in.salt_bytes = n[1];
	in.info = info;
	in.info_bytes = n[2];
	in.secret = secret;
	in.secret_bytes = n[3];
	in.ad = ad;
	in.ad_bytes = n[4];
	in.cost = v->cost;
	in.block = v->block;
	in.memory_kib = v->memory_kib;
	in.lanes = v->lanes;
	in.out_bytes = n[5];
	memset(got, 0, sizeof(got));
	rc = kdf->derive(v->algo, &in, got);
	if (rc == 1)
		return KDF_KAT_SKIP;
	return rc == 0 && memcmp(got, want, n[5]) == 0 ? KDF_KAT_PASS
						       : KDF_KAT_FAIL;
}
