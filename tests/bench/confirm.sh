#!/bin/sh
# confirm.sh - what a confirmation costs, as root on the cached Debian
# image.
#
# A copy of the cached debian-bookworm image stands for the new image and
# a second copy (another digest, another libssl3 version) for the previous
# one a rebuild kept. For each set of curves, `benchorch confirm` measures
# both images in alternating rounds (the default 2 rounds: 4 guest
# invocations per library), full and --quick, and the script prints per
# set: the curves asked for; the curves the guests measured (each
# library's guest measures its curves' algorithms in both operations and
# modes, so up to four per curve asked); the invocations; the guest time
# (sum of the invocations' own timed totals, measure_ns); the guest wall
# time (sum of wall_ns: spawn to reap, container start included); the
# wall time of the whole command; and the guest wall time per curve asked.
#
# Usage: tests/bench/confirm.sh [BUILDDIR]    (BENCHORCH_TEST_STATE names
# the cache of the integration tests, default /var/cache/benchorch-test).
# It starts containers: run it alone on the machine, as the integration
# tests run.
set -e
BUILD=${1:-.}
BENCHORCH=${BENCHORCH:-$BUILD/benchorch}
CACHE=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 1; }
[ -f "$CACHE/images/debian-bookworm/image.json" ] ||
	{ echo "no cached image in $CACHE (run an integration test first)" >&2; exit 1; }
TMP=$(mktemp -d /var/tmp/confirm-bench-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
state=$TMP/state
db=$TMP/results.db
q() { sqlite3 -batch -noheader "$db" "$1"; }
now() { date +%s.%N; }

mkdir -p "$state/images"
cp -a "$CACHE/images/debian-bookworm" "$state/images/debian-bookworm"
make_previous() {
	rm -rf "$state/images/debian-bookworm.previous"
	cp -a "$state/images/debian-bookworm" "$state/images/debian-bookworm.previous"
	sed -i -E -e 's/("digest": "sha256:)[0-9a-f]{64}/\1'"$(printf '%064d' 7)"'/' \
		-e 's/("libssl3": ")[^"]*/\13.0.0-previous/' \
		"$state/images/debian-bookworm.previous/image.json"
}

# The run to confirm (its content does not matter with --curves).
"$BENCHORCH" run --distros debian --quick --libs openssl --algos sha-256 \
	--state-dir "$state" --db "$db" >/dev/null 2>"$TMP/err"

one=openssl/aes-128-cbc/encrypt/bulk
typical=openssl/aes-128-gcm/encrypt/bulk,libgcrypt/aes-128-cbc/decrypt/bulk,nettle/sha-256/hash/bulk,gnutls/aes-128-ctr/encrypt/bulk,botan/chacha20/encrypt/bulk
printf '%-8s %-6s %6s %8s %5s %9s %9s %9s %10s\n' set mode asked measured invs guest_s wall_s cmd_s wall_s/curve
for set in one typical; do
	eval curves=\$$set
	asked=$(echo "$curves" | tr ',' '\n' | grep -c .)
	for mode in full quick; do
		make_previous
		flag=
		[ $mode = quick ] && flag=--quick
		t=$(now)
		"$BENCHORCH" confirm --run 1 --curves "$curves" $flag --seed 1 \
			--state-dir "$state" --db "$db" >"$TMP/out" 2>"$TMP/err" ||
			{ cat "$TMP/err" >&2; exit 1; }
		cmd=$(echo "$t $(now)" | awk '{ printf "%.1f", $2 - $1 }')
		r=$(q "select max(id) from runs")
		measured=$(q "select count(*) from (select distinct library, algorithm, operation, mode from results_v where run_id = $r)")
		invs=$(q "select count(*) from invocations where run_id = $r")
		guest=$(q "select printf('%.1f', sum(measure_ns) / 1e9) from invocations where run_id = $r")
		wall=$(q "select printf('%.1f', sum(wall_ns) / 1e9) from invocations where run_id = $r")
		per=$(echo "$wall $asked" | awk '{ printf "%.1f", $1 / $2 }')
		printf '%-8s %-6s %6s %8s %5s %9s %9s %9s %10s\n' $set $mode \
			"$asked" "$measured" "$invs" "$guest" "$wall" "$cmd" "$per"
		[ ! -e "$state/images/debian-bookworm.previous" ] ||
			{ echo "the previous image was not removed" >&2; exit 1; }
	done
done
