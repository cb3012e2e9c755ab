/* guest/compat.h - include FIRST in every guest source file.
 *
 * 1. Feature macros: the guest uses GNU extensions (sched_setaffinity,
 *    CPU_SET, dladdr), available from glibc and musl under _GNU_SOURCE.
 * 2. Fortification off: the *_chk variants _FORTIFY_SOURCE substitutes can
 *    carry newer GLIBC_ symbol versions than the guest may require.
 * 3. glibc symbol version pins (only when the build defines
 *    GUEST_GLIBC_COMPAT=1, i.e. the glibc flavour): every libc function the
 *    guest calls is bound to its oldest x86_64 version, so that the binary
 *    needs nothing newer than GLIBC_2.17 and runs on every glibc
 *    distribution of the last decade (see the design notes, "the guest
 *    is a portable binary"). tests/t1010-guest-symver.sh checks the result.
 *    A function missing from the list below binds to the build host's
 *    default version and that test fails: add it here.
 *
 * The musl flavour (musl-gcc) builds the same sources without
 * GUEST_GLIBC_COMPAT: no pins, the toolchain's own start files.
 */
#ifndef GUEST_COMPAT_H
#define GUEST_COMPAT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#ifdef _FORTIFY_SOURCE
#undef _FORTIFY_SOURCE
#endif

/* Defines __GLIBC__ on glibc; harmless elsewhere. */
#include <features.h>

#if defined(GUEST_GLIBC_COMPAT) && GUEST_GLIBC_COMPAT
#if !defined(__GLIBC__)
#error "GUEST_GLIBC_COMPAT is for glibc builds; build the musl flavour without it"
#endif
#if !defined(__x86_64__)
#error "glibc symbol version pins are only known for x86_64"
#endif

/* 1 when this translation unit pins glibc versions and the guest provides
 * its own _start (guest/start.c). */
#define GUEST_PIN_GLIBC 1

#define GUEST_PIN(sym, ver) __asm__(".symver " #sym "," #sym "@" ver)

/* string.h / stdlib.h */
GUEST_PIN(memcpy, "GLIBC_2.2.5");	/* the 2.14 default is newer */
GUEST_PIN(memmove, "GLIBC_2.2.5");
GUEST_PIN(memset, "GLIBC_2.2.5");
GUEST_PIN(memcmp, "GLIBC_2.2.5");
GUEST_PIN(strlen, "GLIBC_2.2.5");
GUEST_PIN(strcmp, "GLIBC_2.2.5");
GUEST_PIN(strncmp, "GLIBC_2.2.5");
GUEST_PIN(strchr, "GLIBC_2.2.5");
GUEST_PIN(strstr, "GLIBC_2.2.5");
GUEST_PIN(strrchr, "GLIBC_2.2.5");
GUEST_PIN(strncpy, "GLIBC_2.2.5");
GUEST_PIN(malloc, "GLIBC_2.2.5");
GUEST_PIN(calloc, "GLIBC_2.2.5");
GUEST_PIN(free, "GLIBC_2.2.5");
GUEST_PIN(posix_memalign, "GLIBC_2.2.5");
GUEST_PIN(exit, "GLIBC_2.2.5");
GUEST_PIN(realpath, "GLIBC_2.3");	/* 2.2.5 is the old EINVAL-on-NULL one */
/* stdio.h: formatting only; output goes through write(2). */
GUEST_PIN(snprintf, "GLIBC_2.2.5");
GUEST_PIN(vsnprintf, "GLIBC_2.2.5");
/* unistd.h / errno.h */
GUEST_PIN(write, "GLIBC_2.2.5");
GUEST_PIN(read, "GLIBC_2.2.5");
GUEST_PIN(open, "GLIBC_2.2.5");
GUEST_PIN(close, "GLIBC_2.2.5");
GUEST_PIN(lseek, "GLIBC_2.2.5");
GUEST_PIN(pipe, "GLIBC_2.2.5");
GUEST_PIN(dup, "GLIBC_2.2.5");
GUEST_PIN(dup2, "GLIBC_2.2.5");
GUEST_PIN(fork, "GLIBC_2.2.5");
GUEST_PIN(_exit, "GLIBC_2.2.5");
GUEST_PIN(waitpid, "GLIBC_2.2.5");
GUEST_PIN(wait4, "GLIBC_2.2.5");
GUEST_PIN(getrusage, "GLIBC_2.2.5");
GUEST_PIN(sysconf, "GLIBC_2.2.5");
GUEST_PIN(kill, "GLIBC_2.2.5");
GUEST_PIN(poll, "GLIBC_2.2.5");
GUEST_PIN(syscall, "GLIBC_2.2.5");
GUEST_PIN(mmap, "GLIBC_2.2.5");
GUEST_PIN(munmap, "GLIBC_2.2.5");
GUEST_PIN(setenv, "GLIBC_2.2.5");
GUEST_PIN(getenv, "GLIBC_2.2.5");
GUEST_PIN(__errno_location, "GLIBC_2.2.5");
GUEST_PIN(strerror, "GLIBC_2.2.5");
GUEST_PIN(strsignal, "GLIBC_2.2.5");
/* signal.h */
GUEST_PIN(signal, "GLIBC_2.2.5");
/* time.h: in libc.so.6 since 2.17 (librt before) */
GUEST_PIN(clock_gettime, "GLIBC_2.17");
/* sched.h: 2.3.4 is the current (cpusetsize) interface */
GUEST_PIN(sched_setaffinity, "GLIBC_2.3.4");
/* dlfcn.h: in libdl.so.2 before 2.34, libc.so.6 since (default 2.34) */
GUEST_PIN(dlopen, "GLIBC_2.2.5");
GUEST_PIN(dlsym, "GLIBC_2.2.5");
GUEST_PIN(dlerror, "GLIBC_2.2.5");
GUEST_PIN(dladdr, "GLIBC_2.2.5");
/* gnu/libc-version.h */
GUEST_PIN(gnu_get_libc_version, "GLIBC_2.2.5");

#else
#define GUEST_PIN_GLIBC 0
#endif

#endif /* GUEST_COMPAT_H */
