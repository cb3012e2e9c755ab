/* guest/hwmask.h - the environment that masks the libraries' hardware
 * acceleration (--nohw), and a stand-in of the same size for runs without
 * it.
 *
 * Setting variables allocates on the heap before any library is loaded.
 * A run with --nohw and one without would otherwise start their libraries
 * at different heap offsets, and the small allocations of a library
 * (contexts, key schedules) would sit at other addresses relative to the
 * buffers, which alone can move a curve by tens of per cent (4 KiB
 * aliasing, cache-set conflicts; Mytkowicz et al., "Producing Wrong Data
 * Without Doing Anything Obviously Wrong!", ASPLOS 2009, measured the
 * same with the size of the environment). So both variants set the same
 * number of variables with names and values of the same lengths, and
 * differ only in what the mask means to the libraries. */
#ifndef GUEST_HWMASK_H
#define GUEST_HWMASK_H

#include <stdbool.h>
#include <stddef.h>

/* One environment variable of the mask. */
struct hwmask_var {
	const char *name;
	const char *value;
};

/* The variables --nohw sets, in the order set, *N of them (static
 * storage; the caller does not free):
 *  - OpenSSL: OPENSSL_ia32cap (openssl-env(7), OPENSSL_ia32cap(3)):
 *    ~0x200000200000000 clears the AES-NI (bit 57) and PCLMULQDQ (bit 33)
 *    capability bits; without a second (":") word OpenSSL also clears
 *    the extended words (AVX2, SHA extensions, VAES, AVX-512);
 *  - Nettle: NETTLE_FAT_OVERRIDE=none (fat builds: the generic C code);
 *  - GnuTLS: GNUTLS_CPUID_OVERRIDE=0x1 ("disable all run-time detected
 *    optimizations", GnuTLS manual, "Environment variables");
 *  - Botan 3: BOTAN_CLEAR_CPUID, a comma-separated list of CPU features
 *    to treat as absent, read once when the library starts (names from
 *    Botan 3's src/lib/utils/cpuid, checked against 3.13; unknown names
 *    are ignored). Botan 2 reads no such variable. */
const struct hwmask_var *hwmask_vars(size_t *n);

/* The stand-in for variable I (0 .. n - 1 of hwmask_vars) in a run
 * without --nohw: a name no library reads (a prefix of
 * "BENCHORCH_HWPAD_...") and a value of 'x's, each exactly as long as the
 * mask's, written NUL-terminated into NAME (NAME_CAP bytes) and VALUE
 * (VALUE_CAP bytes). Returns 0, or -1 when I is out of range or a buffer
 * is too small. */
int hwmask_pad(size_t i, char *name, size_t name_cap, char *value,
	       size_t value_cap);

/* Set the mask (NOHW true) or its stand-ins (NOHW false) in this
 * process's environment, overwriting. Call before any library is loaded:
 * each reads its variable once, when it starts. Returns 0, or -1 with
 * errno set by setenv(3) (ENOMEM) or EINVAL. */
int hwmask_apply(bool nohw);

#endif /* GUEST_HWMASK_H */
