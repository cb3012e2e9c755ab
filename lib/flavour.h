/* flavour.h - which build of the guest a rootfs needs: the glibc one
 * (symbol versions pinned, see guest/compat.h) or the musl one (musl-gcc,
 * for Alpine and other musl distributions). See DESIGN.md, "the guest is a
 * portable binary". */
#ifndef BENCHORCH_FLAVOUR_H
#define BENCHORCH_FLAVOUR_H

#include "lib/util.h"

enum guest_flavour { GUEST_FLAVOUR_GLIBC, GUEST_FLAVOUR_MUSL };

/* "glibc" or "musl" (static string). */
const char *guest_flavour_name(enum guest_flavour f);

/* Look at the dynamic loaders installed in the root filesystem ROOTFS (a
 * host path) and store in *ret the guest flavour that runs there:
 *   - musl when ROOTFS/lib/ld-musl-*.so.1 exists,
 *   - glibc when ROOTFS/lib64/ld-linux-x86-64.so.2 or
 *     ROOTFS/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 exists.
 * Every path is resolved inside ROOTFS, never on the host: symbolic links
 * are read with lstat/readlink and an absolute target (Alpine's, Debian's
 * merged /lib -> usr/lib) is taken relative to ROOTFS; ".." stops at it.
 * A link that leads nowhere inside ROOTFS does not count.
 * When both kinds are present, glibc wins (a glibc distribution with its
 * musl package installed) unless the glibc loader is Alpine's gcompat shim
 * (a link to libgcompat.so*).
 * Returns 0, or -1 with err set when ROOTFS has neither loader (the message
 * names ROOTFS) or cannot be read. */
int guest_flavour_detect(const char *rootfs, enum guest_flavour *ret,
			 bo_err *err);

#endif
