#!/bin/sh
# tests/bench/full-run.sh - time a default full run and a --quick run of
# `benchorch run` on one Debian release (the cached test image), and count
# what they measured. Targets: a full run (every library x algorithm x
# 17 sizes x both directions, bulk and one-shot, key setup) in <= 300 s
# on a 2-core machine (issue "Side by side": 240 s, plus 60 s for the
# public-key and key derivation operations of issue "Public-key"; the
# time of the first and last rounds, which measure those, against the
# middle rounds' shows their share); --quick in <= 30 s. The target is
# checked against the guest's own run time (invocations.wall_ns, from
# starting the container to reaping it): the total also counts waiting
# for another benchorch run on the machine (the run lock) and checking
# the cached image.
#
# Usage (as root, from a build directory):
#   BENCHORCH=./benchorch sh tests/bench/full-run.sh [DISTRO]
# Environment: BENCHORCH (default ./benchorch), FULLRUN_OPTS (more
# options for both runs, e.g. --sequential), BENCHORCH_TEST_STATE
# (default /var/cache/benchorch-test: the image is reused, not rebuilt),
# FULLRUN_KEEP (a directory: the runs' databases quick.db and full.db are
# copied there).
# Prints one line per run and exits 1 if a target is missed.
set -u
distro=${1:-debian:bookworm}
benchorch=${BENCHORCH:-./benchorch}
state=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# one NAME LIMIT [OPTIONS...]: time a run, print its figures.
one() {
	name=$1 limit=$2
	shift 2
	start=$(date +%s.%N)
	"$benchorch" run --distros "$distro" --state-dir "$state" \
		--db "$tmp/$name.db" --format csv ${FULLRUN_OPTS:-} "$@" \
		>"$tmp/$name.out" \
		2>"$tmp/$name.err"
	rc=$?
	end=$(date +%s.%N)
	secs=$(echo "$end - $start" | bc)
	q() { sqlite3 -batch -noheader "$tmp/$name.db" "$1"; }
	guest=$(q "select coalesce(sum(wall_ns), 0) / 1e9 from invocations")
	noisy=$(q "select coalesce(sum(noisy), 0) || ' noisy, ' || coalesce(sum(reruns), 0) || ' sets after the first' from results" 2>/dev/null)
	moved=$(q "select count(*) || ' curves, ' || coalesce(sum(remeasured), 0) || ' measured again, ' || coalesce(sum(moved), 0) || ' moved twice' from canaries" 2>/dev/null)
	points=$(q "select count(*) from points_v" 2>/dev/null)
	pairs=$(q "select count(*) from (select distinct library, algorithm from results_v)")
	verified=$(q "select count(*) from (select library, algorithm from results_v group by 1, 2 having min(verified) = 1)")
	results=$(q "select count(*) from results_v")
	keys=$(q "select count(*) from keysetups")
	unsup=$(q "select count(*) from unsupported")
	libs=$(q "select count(*) from library_loads where status = 'loaded'")
	printf '%s: exit %d, guest %.1f s (target <= %d s), %.1f s in all; %d libraries loaded; %d (library, algorithm) pairs measured, %d verified; %d unsupported; %d results (%s) of %s points, %d key setups; canaries: %s\n' \
		"$name" "$rc" "$guest" "$limit" "$secs" "$libs" "$pairs" \
		"$verified" "$unsup" "$results" "${noisy:-no statistics}" \
		"${points:-?}" "$keys" "${moved:-none}"
	[ "$rc" -eq 0 ] || { sed 's/^/  /' "$tmp/$name.err" | tail -5; status=1; }
	[ "$(echo "$guest > 0 && $guest <= $limit" | bc)" -eq 1 ] || status=1
}

one quick 30 --quick
one full 300
if [ -n "${FULLRUN_KEEP:-}" ]; then
	mkdir -p "$FULLRUN_KEEP" && cp "$tmp"/quick.db "$tmp"/full.db "$FULLRUN_KEEP"/
fi
exit $status
