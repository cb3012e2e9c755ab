/* guest/hwmask.c - the --nohw environment and its stand-in (see
 * hwmask.h). */
#include "compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwmask.h"

static const struct hwmask_var vars[] = {
	{ "OPENSSL_ia32cap", "~0x200000200000000" },
	{ "NETTLE_FAT_OVERRIDE", "none" },
	{ "GNUTLS_CPUID_OVERRIDE", "0x1" },
	{ "BOTAN_CLEAR_CPUID",
	  "aes_ni,avx2_aes,avx512_aes,clmul,avx2_clmul,avx512_clmul,"
	  "sse2,ssse3,avx2,avx512,gfni,intel_sha,intel_sha512,bmi2" },
};

/* long enough for every name above; its prefixes of distinct lengths are
 * distinct names */
static const char pad_name[] = "BENCHORCH_HWPAD_XXXXXXXXXXXXXXXXXXXXXXXX";

const struct hwmask_var *hwmask_vars(size_t *n)
{
	*n = sizeof(vars) / sizeof(vars[0]);
	return vars;
}

int hwmask_pad(size_t i, char *name, size_t name_cap, char *value,
	       size_t value_cap)
{
	size_t nl, vl;

	if (i >= sizeof(vars) / sizeof(vars[0]))
		return -1;
	nl = strlen(vars[i].name);
	vl = strlen(vars[i].value);
	if (nl >= sizeof(pad_name) || nl >= name_cap || vl >= value_cap)
		return -1;
	memcpy(name, pad_name, nl);
	name[nl] = '\0';
	memset(value, 'x', vl);
	value[vl] = '\0';
	return 0;
}

int hwmask_apply(bool nohw)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		char name[64], value[256];

		if (nohw) {
			if (setenv(vars[i].name, vars[i].value, 1) != 0)
				return -1;
			continue;
		}
		if (hwmask_pad(i, name, sizeof(name), value,
			       sizeof(value)) < 0) {
			errno = EINVAL;
			return -1;
		}
		if (setenv(name, value, 1) != 0)
			return -1;
	}
	return 0;
}
