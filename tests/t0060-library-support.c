/* t0060-library-support - the static table of what each guest library
 * can measure (lib/library-support.h): every library's count of
 * algorithms is the one its backend's header comment gives, every
 * algorithm has a library, unknown names have none. */
#include "config.h"

#include "lib/algorithms.h"
#include "lib/library-support.h"
#include "tests/tap.h"

int main(void)
{
	/* from the header comments of guest/backend-NAME.c (GnuTLS: 16 and
	 * Salsa20 where its nonce works; Mbed TLS: 23 and SHA3-256 from
	 * 3.5) */
	static const struct {
		const char *lib;
		int count;
	} want[] = {
		{ "openssl", 27 }, { "libgcrypt", 32 }, { "nettle", 32 },
		{ "libsodium", 7 }, { "mbedtls", 24 }, { "gnutls", 17 },
		{ "wolfssl", 22 }, { "botan", 32 }, { "libtomcrypt", 29 },
		{ "libmcrypt", 19 },
	};
	const char *a, *l;
	size_t i, j;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int n = 0;

		for (j = 0; (a = algorithm_name(j)); j++)
			n += library_supports(want[i].lib, a);
		tap_ok(n == want[i].count, "%s: %d algorithms (got %d)",
		       want[i].lib, want[i].count, n);
	}
	for (j = 0; (l = library_name(j)); j++)
		;
	tap_ok(j == sizeof(want) / sizeof(want[0]),
	       "every library of the guest is in the table");
	for (j = 0; (a = algorithm_name(j)); j++) {
		int n = 0;

		for (i = 0; (l = library_name(i)); i++)
			n += library_supports(l, a);
		if (n == 0)
			break;
	}
	tap_ok(a == NULL, "every algorithm has a library (%s)", a ? a : "-");
	tap_ok(!library_supports("openssl", "salsa20") &&
	       library_supports("nettle", "salsa20") &&
	       !library_supports("libsodium", "aes-128-cbc") &&
	       library_supports("libsodium", "aes-256-gcm"),
	       "openssl lacks salsa20, libsodium has aes-256-gcm only of AES");
	tap_ok(!library_supports("nosuch", "sha-256") &&
	       !library_supports("nettle", "nosuch"),
	       "unknown names are supported by nothing");
	return tap_done();
}
