# guest/: the benchmark binary that runs inside each rootfs. It depends on
# libc alone (see DESIGN: libc symbol versions pinned, crypto libraries
# dlopen()ed), so it is built with its own flags and none of liborch's.
#
# glibc flavour (x86_64): guest/compat.h pins every libc symbol to its oldest
# version when GUEST_GLIBC_COMPAT=1; guest/start.c is the entry point
# (-nostartfiles: crt1.o of a 2.34+ toolchain would need
# __libc_start_main@GLIBC_2.34); libdl.so.2 is a forced DT_NEEDED so that
# dlopen@GLIBC_2.2.5 resolves on pre-2.34 glibc, where it lives there.
# tests/t1010-guest-symver.sh checks the result.
GUEST_SOURCES = \
	guest/compat.h guest/start.c guest/main.c \
	guest/options.c guest/options.h \
	guest/measure.c guest/measure.h \
	guest/point.c guest/point.h \
	guest/pairs.c guest/pairs.h \
	guest/worker.c guest/worker.h \
	guest/interleave.c guest/interleave.h \
	guest/turns.c guest/turns.h \
	guest/place.c guest/place.h \
	guest/isolate.c guest/isolate.h \
	guest/algo.c guest/algo.h \
	lib/algorithm-table.c lib/algorithm-table.h \
	guest/backend.h guest/backends.c guest/backend-openssl.c \
	guest/backend-libgcrypt.c guest/backend-nettle.c \
	guest/backend-libsodium.c guest/backend-mbedtls.c \
	guest/backend-gnutls.c guest/backend-wolfssl.c \
	guest/backend-botan.c guest/backend-libtomcrypt.c \
	guest/backend-libmcrypt.c \
	guest/backend-pk.h guest/backend-openssl-pk.c \
	guest/backend-libsodium-pk.c guest/backend-nettle-pk.c \
	guest/backend-libgcrypt-pk.c guest/backend-wolfssl-pk.c \
	guest/backend-botan-pk.c guest/backend-gnutls-pk.c \
	guest/backend-mbedtls-pk.c \
	guest/ecdsa-der.c guest/ecdsa-der.h \
	guest/backend-openssl-ec.c guest/backend-nettle-ec.c \
	guest/backend-libgcrypt-ec.c guest/backend-mbedtls-ec.c \
	guest/backend-wolfssl-ec.c guest/backend-botan-ec.c \
	guest/backend-gnutls-ec.c guest/backend-gnutls-kx.c \
	guest/rsa-keys.c guest/rsa-keys.h \
	guest/backend-openssl-rsa.c guest/backend-libgcrypt-rsa.c \
	guest/backend-nettle-rsa.c guest/backend-gnutls-rsa.c \
	guest/backend-mbedtls-rsa.c \
	guest/backend-wolfssl-rsa.c \
	guest/backend-botan-rsa.c \
	guest/backend-openssl-pq.c \
	guest/pubkey.c guest/pubkey.h guest/pubkey-kat.c guest/pubkey-kat.h \
	guest/pubkey-kat-pq.c \
	lib/pubkey-table.c lib/pubkey-table.h \
	guest/backend-kdf.h guest/backend-openssl-kdf.c \
	guest/backend-libgcrypt-kdf.c guest/backend-nettle-kdf.c \
	guest/backend-gnutls-kdf.c guest/backend-libsodium-kdf.c \
	guest/backend-mbedtls-kdf.c guest/backend-wolfssl-kdf.c \
	guest/backend-botan-kdf.c \
	guest/kdf.c guest/kdf.h guest/kdf-kat.c guest/kdf-kat.h \
	lib/kdf-table.c lib/kdf-table.h \
	guest/bench.c guest/bench.h \
	guest/canary.c guest/canary.h \
	guest/cpuclock.c guest/cpuclock.h \
	guest/tsc.c guest/tsc.h \
	guest/hwmask.c guest/hwmask.h \
	guest/samples.c guest/samples.h \
	guest/emit.c guest/emit.h \
	guest/json.c guest/json.h \
	guest/kat.c guest/kat.h \
	guest/rusage.c guest/rusage.h \
	lib/shuffle.c lib/shuffle.h \
	lib/build-name.c lib/build-name.h \
	guest/fdio.c guest/fdio.h \
	guest/tools.c guest/tools.h \
	guest/tools-work.c guest/tools-work.h
# A builder's CPPFLAGS and CFLAGS come after these (e.g. dpkg-buildflags'
# hardening): -D_FORTIFY_SOURCE=2 is undone again by guest/compat.h (its
# __*_chk functions could need newer GLIBC_ versions), and
# -fstack-protector-strong wins over -fno-stack-protector, which adds
# __stack_chk_fail@GLIBC_2.4, within the GLIBC_2.17 ceiling; -z relro and
# -z now change only how symbols are bound. debian/rules checks the
# installed guest with tests/t1010-guest-symver.sh.
GUEST_CPPFLAGS = -I$(top_srcdir) -U_FORTIFY_SOURCE \
	-DGUEST_VERSION='"$(PACKAGE_VERSION)"'
GUEST_CFLAGS = -std=c11 $(WARN_CFLAGS) -fno-stack-protector

pkglibexec_PROGRAMS += guest/benchorch-guest
guest_benchorch_guest_SOURCES = $(GUEST_SOURCES)
guest_benchorch_guest_CPPFLAGS = $(GUEST_CPPFLAGS) -DGUEST_GLIBC_COMPAT=1
guest_benchorch_guest_CFLAGS = $(GUEST_CFLAGS)
guest_benchorch_guest_LDFLAGS = -nostartfiles -static-libgcc
# libdl.so.2 by file name: glibc 2.34+ installs no libdl.so link. Its
# --no-as-needed sits in the link command after the builder's LDFLAGS so
# that an --as-needed there cannot drop it (automake refuses -Wl in LDADD).
guest_benchorch_guest_LDADD = -l:libdl.so.2
guest_benchorch_guest_LINK = $(CCLD) $(guest_benchorch_guest_CFLAGS) \
	$(CFLAGS) $(guest_benchorch_guest_LDFLAGS) $(LDFLAGS) \
	-Wl,--no-as-needed -o $@

# The confiner (guest/confine.c): the runner starts it in the rootfs in
# place of the guest; it drops every privilege, then executes the guest.
# Static, so that none of the image's code (its loader, its libc) runs
# while it still has them; it calls no NSS function, which static glibc
# could not load. Without AM_CFLAGS: AddressSanitizer cannot link static.
pkglibexec_PROGRAMS += guest/benchorch-confine
guest_benchorch_confine_SOURCES = guest/confine.c
guest_benchorch_confine_CPPFLAGS =
guest_benchorch_confine_CFLAGS = -std=c11 $(WARN_CFLAGS)
guest_benchorch_confine_LDFLAGS = -static

# Tests of the guest (TAP; see tests/local.mk).
check_PROGRAMS += tests/t1000-guest-json
tests_t1000_guest_json_SOURCES = tests/t1000-guest-json.c \
	guest/json.c guest/json.h guest/compat.h
TESTS += \
	tests/t1000-guest-json \
	tests/t1010-guest-symver.sh \
	tests/t1020-guest-kat.sh \
	tests/t1030-guest-usage.sh \
	tests/t1100-guest-libraries.sh \
	tests/t1110-guest-crash-isolation.sh
EXTRA_DIST += \
	tests/t1010-guest-symver.sh \
	tests/t1020-guest-kat.sh \
	tests/t1030-guest-usage.sh \
	tests/t1100-guest-libraries.sh \
	tests/t1110-guest-crash-isolation.sh \
	tests/bench/full-run.sh \
	tests/bench/fidelity.sh \
	tests/bench/samework.sh \
	tests/bench/tools.sh

# musl flavour (Alpine and other musl distributions): the same sources built
# with musl-gcc, dynamic (interpreter /lib/ld-musl-x86_64.so.1, DT_NEEDED
# libc.so only), without GUEST_GLIBC_COMPAT: no version pins, the
# toolchain's own start files (guest/start.c is then empty). Automake has
# no per-target compiler, so a plain rule compiles and links in one step;
# installed next to the glibc guest. The orchestrator picks the flavour per
# rootfs (lib/flavour.c). tests/t1200-guest-musl.sh checks it.
if HAVE_MUSL_GCC
pkglibexec_SCRIPTS = guest/benchorch-guest-musl
CLEANFILES += guest/benchorch-guest-musl
guest/benchorch-guest-musl: $(GUEST_SOURCES)
	@$(MKDIR_P) guest
	$(AM_V_CCLD)$(MUSL_GCC) $(GUEST_CPPFLAGS) $(GUEST_CFLAGS) \
		$(MUSL_CFLAGS) -o $@ `for f in $(GUEST_SOURCES); do \
		case $$f in *.c) echo "$(srcdir)/$$f";; esac; done`
endif
