# images/: recipes (data) and the code that builds, caches and reads images.
liborch_a_SOURCES += \
	images/image.h \
	images/spec.c \
	images/recipe.c images/recipe.h \
	images/build.c images/build.h \
	images/bootstrap.c \
	images/store.c images/store.h \
	images/storedir.c \
	images/dpkg.c \
	images/digest.c images/digest.h \
	images/rootfs.c \
	images/archive.c images/archive.h \
	images/pkgdb.c \
	images/osrelease.c images/osrelease.h \
	images/tarball.c images/tarball.h \
	images/manage.c \
	images/builds.c images/builds.h \
	images/previous.c images/previous.h

dist_images_DATA += images/debian.json images/ubuntu.json \
	images/gentoo.json images/alpine.json

# Tests of images/ (TAP). The C ones print TAP themselves.
IMAGES_TEST_CFLAGS = $(AM_CFLAGS) $(ORCH_CFLAGS)
IMAGES_TEST_LDADD = $(ORCH_LIBS)
check_PROGRAMS += \
	tests/t2000-images-dpkg \
	tests/t2010-images-spec \
	tests/t2020-images-rootfs \
	tests/t2030-images-digest \
	tests/t2035-images-fakebuild \
	tests/t2036-images-previous \
	tests/t2037-images-store \
	tests/t2040-images-build-cli \
	tests/t2120-images-pkgdb \
	tests/t2125-images-osrelease
tests_t2125_images_osrelease_SOURCES = tests/t2125-images-osrelease.c tests/tap.h
tests_t2125_images_osrelease_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2125_images_osrelease_LDADD = $(IMAGES_TEST_LDADD)
tests_t2120_images_pkgdb_SOURCES = tests/t2120-images-pkgdb.c tests/tap.h
tests_t2120_images_pkgdb_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2120_images_pkgdb_LDADD = $(IMAGES_TEST_LDADD)
tests_t2000_images_dpkg_SOURCES = tests/t2000-images-dpkg.c \
	tests/tap.h
tests_t2000_images_dpkg_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2000_images_dpkg_LDADD = $(IMAGES_TEST_LDADD)
tests_t2010_images_spec_SOURCES = tests/t2010-images-spec.c \
	tests/tap.h
tests_t2010_images_spec_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2010_images_spec_LDADD = $(IMAGES_TEST_LDADD)
tests_t2020_images_rootfs_SOURCES = tests/t2020-images-rootfs.c \
	tests/tap.h
tests_t2020_images_rootfs_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2020_images_rootfs_LDADD = $(IMAGES_TEST_LDADD)
tests_t2030_images_digest_SOURCES = tests/t2030-images-digest.c \
	tests/tap.h
tests_t2030_images_digest_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2030_images_digest_LDADD = $(IMAGES_TEST_LDADD)
tests_t2035_images_fakebuild_SOURCES = tests/t2035-images-fakebuild.c \
	tests/tap.h
tests_t2035_images_fakebuild_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2035_images_fakebuild_LDADD = $(IMAGES_TEST_LDADD)
tests_t2036_images_previous_SOURCES = tests/t2036-images-previous.c \
	tests/tap.h
tests_t2036_images_previous_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2036_images_previous_LDADD = $(IMAGES_TEST_LDADD)
tests_t2037_images_store_SOURCES = tests/t2037-images-store.c \
	tests/tap.h
tests_t2037_images_store_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2037_images_store_LDADD = $(IMAGES_TEST_LDADD)
# Driver for t2040-images-build.sh (not a test by itself).
tests_t2040_images_build_cli_SOURCES = tests/t2040-images-build-cli.c
tests_t2040_images_build_cli_CFLAGS = $(IMAGES_TEST_CFLAGS)
tests_t2040_images_build_cli_LDADD = $(IMAGES_TEST_LDADD)

TESTS += \
	tests/t2000-images-dpkg \
	tests/t2010-images-spec \
	tests/t2020-images-rootfs \
	tests/t2030-images-digest \
	tests/t2035-images-fakebuild \
	tests/t2036-images-previous \
	tests/t2037-images-store \
	tests/t2040-images-build.sh \
	tests/t2100-images-archive.sh \
	tests/t2105-images-untrusted.sh \
	tests/t2110-images-tarball.sh \
	tests/t2120-images-pkgdb \
	tests/t2125-images-osrelease \
	tests/t2130-images-import-run.sh \
	tests/t2140-images-ubuntu.sh \
	tests/t2160-images-rebuild.sh

EXTRA_DIST += \
	tests/t2160-images-rebuild.sh \
	tests/t2040-images-build.sh \
	tests/t2140-images-ubuntu.sh \
	tests/t2100-images-archive.sh \
	tests/t2105-images-untrusted.sh \
	tests/t2110-images-tarball.sh \
	tests/t2130-images-import-run.sh \
	tests/bench/image-build.sh \
	tests/fixtures/images-apk-installed \
	tests/fixtures/archives/README.md \
	tests/fixtures/archives/absolute.tar \
	tests/fixtures/archives/device-nodes.tar \
	tests/fixtures/archives/dotdot.tar \
	tests/fixtures/archives/empty.tar \
	tests/fixtures/archives/hardlink-escape.tar \
	tests/fixtures/archives/not-an-archive.tar.xz \
	tests/fixtures/archives/symlink-escape.tar \
	tests/fixtures/archives/truncated.tar.gz \
	tests/fixtures/images-dpkg-normal.status \
	tests/fixtures/images-dpkg-deinstalled.status \
	tests/fixtures/images-dpkg-nonl.status \
	tests/fixtures/images-dpkg-empty.status \
	tests/fixtures/images-image-good.json \
	tests/fixtures/images-image-bad.json \
	tests/fixtures/images-fakebin/debootstrap \
	tests/fixtures/images-fakebin-mm/mmdebstrap \
	tests/fixtures/images-recipes/images/good.json \
	tests/fixtures/images-recipes/images/syntax.json \
	tests/fixtures/images-recipes/images/nomethod.json \
	tests/fixtures/images-recipes/images/badpackages.json \
	tests/fixtures/images-recipes/images/badlib.json \
	tests/fixtures/images-recipes/images/baddefault.json \
	tests/fixtures/images-recipes/images/mismatch.json \
	tests/fixtures/images-recipes/images/badrelease.json \
	tests/fixtures/images-recipes/images/dupkey.json \
	tests/fixtures/images-recipes/images/notobject.json \
	tests/fixtures/images-recipes/images/badpkgname.json \
	tests/fixtures/images-recipes/images/notbool.json
