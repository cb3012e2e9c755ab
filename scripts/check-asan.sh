#!/bin/sh
# check-asan.sh - build benchorch with AddressSanitizer and UBSan
# (./configure --enable-asan) in a build directory of its own, build/asan
# (a VPATH build), and run the C unit tests there: every tests/tNNNN-*.c
# but t2040-images-build-cli, t2040-images-build.sh's driver. Ends with
# "asan: N passed, N failed, N skipped". Needs the dependencies
# (scripts/deps.sh) and a source tree not configured in place (a clean
# clone, as in CI; else `make distclean` first). Exit 0 when all passed.
set -u
cd "$(dirname "$0")/.."
src=$(pwd)
if [ -f config.status ]; then
	echo "check-asan: the source tree is configured in place; run 'make distclean' first" >&2
	exit 1
fi
mkdir -p m4
[ -x configure ] || autoreconf -fi >/dev/null || exit 1
mkdir -p build/asan && cd build/asan || exit 1
"$src/configure" -q --enable-asan || { echo "check-asan: configure failed" >&2; exit 1; }
make -j"$(nproc)" >/dev/null || { echo "check-asan: build failed" >&2; exit 1; }
units=
for f in "$src"/tests/t[0-9][0-9][0-9][0-9]-*.c; do
	t=$(basename "$f" .c)
	[ "$t" = t2040-images-build-cli ] && continue
	units="$units tests/$t"
done
# shellcheck disable=SC2086
make check TESTS="$(echo $units)" >/dev/null 2>&1
rc=$?
set -- $(for t in $units; do cat "$t.trs" 2>/dev/null; done | awk '
	$1 == ":test-result:" { n[$2]++ }
	END { printf "%d %d %d\n", n["PASS"] + n["XFAIL"],
	      n["FAIL"] + n["XPASS"] + n["ERROR"], n["SKIP"] }')
if [ "$rc" -ne 0 ] && [ -f test-suite.log ]; then
	cat test-suite.log
fi
echo "asan: $1 passed, $2 failed, $3 skipped"
[ "$rc" -eq 0 ] && [ "$2" -eq 0 ] && [ "$1" -gt 0 ]
