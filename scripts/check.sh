#!/bin/sh
# check.sh - as root: install the dependencies, build from scratch and run
# the whole test suite (make check). Ends with "N passed, N failed,
# N skipped", counted from the test logs.
set -u
cd "$(dirname "$0")/.."
scripts/deps.sh || { echo "cannot install dependencies"; exit 1; }
scripts/build.sh || { echo "build failed"; exit 1; }
# Serially: the integration tests share one cached image and check for
# stray guest processes, which a parallel neighbour would look like.
make check
rc=$?
# Count test points from the .trs files automake wrote (one
# ":test-result:" line per TAP point).
set -- $(find tests -name '*.trs' -exec cat {} + 2>/dev/null | awk '
	$1 == ":test-result:" { n[$2]++ }
	END { printf "%d %d %d\n", n["PASS"] + n["XFAIL"],
	      n["FAIL"] + n["XPASS"] + n["ERROR"], n["SKIP"] }')
if [ "$rc" -ne 0 ] && [ -f test-suite.log ]; then
	cat test-suite.log
fi
echo "$1 passed, $2 failed, $3 skipped"
[ "$rc" -eq 0 ] && [ "$2" -eq 0 ] && [ "$(($1 + $2))" -gt 0 ]
