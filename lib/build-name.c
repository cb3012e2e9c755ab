/* lib/build-name.c - the names of rebuilt libraries (build-name.h). */
#include <string.h>

#include "lib/build-name.h"

bool build_is_of(const char *library, const char *shipped)
{
	size_t n;

	if (!library || !shipped)
		return false;
	n = strlen(shipped);
	return n > 0 && strncmp(library, shipped, n) == 0 &&
	       library[n] == '@' && library[n + 1] != '\0';
}
