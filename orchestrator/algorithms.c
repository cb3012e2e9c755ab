/* algorithms.c - the algorithm names the guest protocol knows, and which
 * operations each has. */
#include "config.h"

#include <string.h>

#include "orchestrator/algorithms.h"

static const struct algorithm algorithms[] = {
	/* NIST SP 800-38A modes of AES (FIPS 197). */
	{ "aes-128-cbc", ALGO_CIPHER },
	{ "aes-128-ctr", ALGO_CIPHER },
	/* NIST SP 800-38D. */
	{ "aes-256-gcm", ALGO_CIPHER },
	/* RFC 8439. */
	{ "chacha20-poly1305", ALGO_CIPHER },
	/* FIPS 180-4. */
	{ "sha-256", ALGO_HASH },
};

const struct algorithm *algorithm_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(algorithms) / sizeof(algorithms[0]); i++)
		if (strcmp(algorithms[i].name, name) == 0)
			return &algorithms[i];
	return NULL;
}

int algorithm_has_operation(const struct algorithm *a, const char *op)
{
	if (a->kind == ALGO_HASH)
		return strcmp(op, "hash") == 0;
	return strcmp(op, "encrypt") == 0 || strcmp(op, "decrypt") == 0;
}
