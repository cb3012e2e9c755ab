/* algorithms.c - the algorithm names the guest protocol knows (the table
 * is lib/algorithm-table.c, shared with the guest), and which operations
 * each has. */
#include "config.h"

#include <string.h>

#include "lib/algorithms.h"

/* Library names of the guest's backends (guest/backends.c), in its default
 * order. Keep in step with the guest: it refuses an unknown --libs name. */
static const char *const libraries[] = {
	"openssl", "libgcrypt", "nettle", "libsodium", "mbedtls",
	"gnutls", "wolfssl", "botan", "libtomcrypt", "libmcrypt",
};

const char *algorithm_name(size_t i)
{
	return i < ALGORITHM_COUNT ? algorithm_table[i].name : NULL;
}

int library_known(const char *name)
{
	return library_index(name) >= 0;
}

const char *library_name(size_t i)
{
	return i < sizeof(libraries) / sizeof(libraries[0]) ? libraries[i]
							     : NULL;
}

int library_index(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(libraries) / sizeof(libraries[0]); i++)
		if (strcmp(libraries[i], name) == 0)
			return (int)i;
	return -1;
}

const struct algorithm *algorithm_find(const char *name)
{
	size_t i;

	for (i = 0; i < ALGORITHM_COUNT; i++)
		if (strcmp(algorithm_table[i].name, name) == 0)
			return &algorithm_table[i];
	return NULL;
}

int algorithm_has_operation(const struct algorithm *a, const char *op)
{
	if (a->kind == ALGO_HASH)
		return strcmp(op, "hash") == 0;
	return strcmp(op, "encrypt") == 0 || strcmp(op, "decrypt") == 0;
}
