/* lib/pubkey-table.c - the public-key algorithms of the guest protocol
 * (see pubkey-table.h). Built into liborch and into the guest: no
 * config.h, no libc calls. */
#include "lib/pubkey-table.h"

const struct pubkey_algorithm pubkey_table[PUBKEY_COUNT] = {
	/* X25519 (RFC 7748 5): import the private scalar, derive the
	 * shared secret with a peer's public key. */
	{ "x25519", { "import", "derive", 0 } },
	/* X448 (RFC 7748 5), as X25519 with 56-byte scalars, public keys
	 * and shared secrets. */
	{ "x448", { "import", "derive", 0 } },
	/* Ed25519 (RFC 8032 5.1): import the private key (seed), sign and
	 * verify a 64-byte message. */
	{ "ed25519", { "import", "sign", "verify" } },
	/* ECDH on NIST P-256 (SEC 1 3.3.1), as X25519: import the private
	 * scalar, derive the shared secret with a peer's public point. */
	{ "ecdh-p256", { "import", "derive", 0 } },
	/* ECDSA on P-256 with SHA-256 (FIPS 186-4 6), as Ed25519: import
	 * the private scalar, sign and verify a 64-byte message. */
	{ "ecdsa-p256", { "import", "sign", "verify" } },
	/* RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 8.2), a fixed 2048-bit
	 * test key: import the key (its components), sign and verify a
	 * 64-byte message; and generate a new 2048-bit key pair. */
	{ "rsa-2048", { "import", "sign", "verify", "keygen" } },
	/* The same with a fixed 3072-bit test key. */
	{ "rsa-3072", { "import", "sign", "verify" } },
	/* RSASSA-PSS (RFC 8017 8.1) with SHA-256, MGF1-SHA-256 and a 32-byte
	 * salt, the key of rsa-2048. */
	{ "rsa-pss-2048", { "import", "sign", "verify" } },
	/* ML-KEM-768 (FIPS 203): the key pair from its 64-byte seed d || z,
	 * encapsulate to the encapsulation key, decapsulate that
	 * ciphertext. */
	{ "ml-kem-768", { "keygen", "encaps", "decaps" } },
	/* ML-DSA-65 (FIPS 204, pure, empty context): the key pair from its
	 * 32-byte seed, sign and verify a 64-byte message. */
	{ "ml-dsa-65", { "keygen", "sign", "verify" } },
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

const struct pubkey_algorithm *pubkey_find(const char *name)
{
	for (int i = 0; i < PUBKEY_COUNT; i++)
		if (same(pubkey_table[i].name, name))
			return &pubkey_table[i];
	return 0;
}

int pubkey_has_op(const struct pubkey_algorithm *a, const char *op)
{
	for (int i = 0; i < PUBKEY_MAX_OPS; i++)
		if (a->ops[i] && same(a->ops[i], op))
			return 1;
	return 0;
}
