#!/bin/sh
# test-image.sh - build the integration tests' cached Debian image when it
# is missing and can be built (tests/lib.sh test_image_ready); otherwise
# say why on stderr. Always exits 0: the tests that need the image skip
# with the reason themselves. make runs it before the C tests that read
# the image (tests/local.mk).
. "${top_srcdir:-.}/tests/lib.sh"
test_image_ready || echo "# $test_image_why" >&2
exit 0
