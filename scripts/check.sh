#!/bin/sh
# check.sh - as root: install the dependencies, build from scratch and run
# the whole test suite (make check). Names the skipped test files with
# their reasons, then ends with "N passed, N failed, N skipped", counted
# from the logs of the tests in TESTS.
set -u
cd "$(dirname "$0")/.."
scripts/deps.sh || { echo "cannot install dependencies"; exit 1; }
scripts/build.sh || { echo "build failed"; exit 1; }
# Serially: the integration tests share one cached image and check for
# stray guest processes, which a parallel neighbour would look like.
make check
rc=$?
# Count test points from the .trs files automake wrote (one
# ":test-result:" line per TAP point) for the tests in TESTS now: a stale
# .trs left by a renamed or removed test does not count.
trs=$(make -s check-trs-list 2>/dev/null)
[ -n "$trs" ] || { echo "cannot list the tests (make check-trs-list)"; exit 1; }
set -- $(for f in $trs; do [ -f "$f" ] && cat "$f"; done | awk '
	$1 == ":test-result:" { n[$2]++ }
	END { printf "%d %d %d\n", n["PASS"] + n["XFAIL"],
	      n["FAIL"] + n["XPASS"] + n["ERROR"], n["SKIP"] }')
if [ "$rc" -ne 0 ] && [ -f test-suite.log ]; then
	cat test-suite.log
fi
# Skipped files by name, with their reasons: a whole file skipped
# ("1..0 # SKIP why") hides all its points behind one skip; a file with
# some points skipped names each reason once.
for f in $trs; do
	log=${f%.trs}.log
	[ -f "$f" ] && grep -q '^:test-result: SKIP' "$f" || continue
	why=$(sed -n 's/^1\.\.0 *# *SKIP *//p' "$log" 2>/dev/null | head -1)
	if [ -n "$why" ]; then
		echo "skipped file ${f%.trs}: $why"
	else
		sed -n 's/^ok [0-9]*.*# *SKIP *//p' "$log" 2>/dev/null |
			sort | uniq -c | while read -r n r; do
				echo "skipped $n point(s) of ${f%.trs}: $r"
			done
	fi
done
echo "$1 passed, $2 failed, $3 skipped"
[ "$rc" -eq 0 ] && [ "$2" -eq 0 ] && [ "$(($1 + $2))" -gt 0 ]
