/* guest/backends.c - the table of compiled-in backends, and helpers. */
#include "compat.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* Default order of the run. A new backend adds one line here. */
static const struct guest_backend *const table[] = {
	&guest_backend_openssl,
};

const struct guest_backend *const *guest_backends(size_t *count)
{
	*count = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct guest_backend *guest_backend_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(table[i]->name, name) == 0)
			return table[i];
	return NULL;
}

void backend_copy(char *out, size_t out_bytes, const char *src)
{
	size_t n;

	if (out_bytes == 0)
		return;
	if (src == NULL)
		src = "";
	n = strlen(src);
	if (n >= out_bytes)
		n = out_bytes - 1;
	memcpy(out, src, n);
	out[n] = '\0';
}

void backend_lib_path(const void *addr, char *out, size_t out_bytes)
{
	Dl_info dli;
	char resolved[PATH_MAX];

	backend_copy(out, out_bytes, "");
	memset(&dli, 0, sizeof(dli));
	/* dladdr takes void *; converting a function pointer's address
	 * through const void * is what POSIX dlsym implies is fine. */
	if (dladdr((void *)(uintptr_t)addr, &dli) == 0 || !dli.dli_fname)
		return;
	if (realpath(dli.dli_fname, resolved) != NULL)
		backend_copy(out, out_bytes, resolved);
	else
		backend_copy(out, out_bytes, dli.dli_fname);
}
