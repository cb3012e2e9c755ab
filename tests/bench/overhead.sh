#!/bin/sh
# overhead.sh - orchestration overhead of `benchorch run` on a cached image:
# wall time of the whole command minus the time the guests spent measuring
# (their own measure_ns), per distro; spawn_s is the host's wall clock
# around the guests, summed over the run's invocations (one per round).
# Target: <= 0.2 s per invocation.
#
# Usage: tests/bench/overhead.sh [RUNS] [DISTRO] [STATE_DIR]
# Needs root and a built benchorch: $BENCHORCH, default ./benchorch.
# OVERHEAD_ARGS adds run options, e.g. "--libs openssl --algos sha-256" to
# leave out the guest's known-answer tests and cross-check of every
# library, which are guest work, not orchestration.
set -eu
bo=${BENCHORCH:-./benchorch}
runs=${1:-5}
distro=${2:-debian}
state=${3:-${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"

# Warm: build the image if needed, and the page cache.
"$bo" run --distros "$distro" --quick --state-dir "$state" --db "$db" >/dev/null

printf '%-8s %-8s %6s %10s %10s %10s %10s\n' run runner invs wall_s measure_s spawn_s overhead_s
for runner in nspawn chroot; do
	i=1
	while [ "$i" -le "$runs" ]; do
		t0=$(date +%s%N)
		# shellcheck disable=SC2086
		"$bo" run --distros "$distro" --quick --runner "$runner" ${OVERHEAD_ARGS:-} \
			--state-dir "$state" --db "$db" >/dev/null
		t1=$(date +%s%N)
		sqlite3 -batch -noheader "$db" "select count(*), sum(wall_ns), sum(measure_ns) from invocations where run_id = (select max(id) from runs)" |
		awk -F'|' -v w="$((t1 - t0))" -v i="$i" -v r="$runner" '{
			printf "%-8s %-8s %6d %10.3f %10.3f %10.3f %10.3f\n", i, r, $1, w / 1e9, $3 / 1e9, $2 / 1e9, (w - $3) / 1e9 }'
		i=$((i + 1))
	done
done
