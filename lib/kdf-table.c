/* lib/kdf-table.c - the key derivation functions of the guest protocol
 * (see kdf-table.h). Built into liborch and into the guest: no config.h,
 * no libc calls. */
#include "lib/kdf-table.h"

const struct kdf_algorithm kdf_table[KDF_COUNT] = {
	/* PBKDF2 with HMAC-SHA-256 (RFC 8018 5.2), c = 10000 */
	{ "pbkdf2-sha256", "c=10000,dklen=32", 10000, 0, 1, 0, 32 },
	/* HKDF with SHA-256 (RFC 5869 2.2, 2.3): extract, then expand */
	{ "hkdf-sha256", "extract+expand,L=32", 1, 0, 1, 0, 32 },
	/* scrypt (RFC 7914 6), N = 2^14, r = 8, p = 1: 16 MiB */
	{ "scrypt", "N=16384,r=8,p=1,dklen=32", 16384, 16384, 1, 8, 32 },
	/* Argon2id version 0x13 (RFC 9106 3.1), t = 3, m = 64 MiB, p = 1 */
	{ "argon2id", "t=3,m=65536,p=1,T=32", 3, 65536, 1, 0, 32 },
};

/* strcmp without libc: 1 when A and B are equal. */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct kdf_algorithm *kdf_find(const char *name)
{
	for (int i = 0; i < KDF_COUNT; i++)
		if (same(kdf_table[i].name, name))
			return &kdf_table[i];
	return 0;
}
