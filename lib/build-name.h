/* lib/build-name.h - the names of rebuilt libraries: a build NAME of the
 * shipped LIBRARY is measured and stored as "LIBRARY@NAME"
 * (guest/PROTOCOL.md, "Builds"). libc only: the guest uses it too. */
#ifndef LIB_BUILD_NAME_H
#define LIB_BUILD_NAME_H

#include <stdbool.h>

/* Is LIBRARY a build of SHIPPED, that is SHIPPED followed by '@' and a
 * non-empty build name ("nettle@gcc-o0" of "nettle")? Both are
 * NUL-terminated; NULL is neither. */
bool build_is_of(const char *library, const char *shipped);

#endif /* LIB_BUILD_NAME_H */
