#!/bin/sh
# tests/bench/merge-scale.sh - how `benchorch merge` scales with the number
# of hosts, as the merge job of `benchorch slurm submit` faces it: clone one
# real full-run database N times (each clone's runs get a new uuid and a
# host of their own, as N nodes would give), merge them into a new central
# database and report the time and the central database's size.
# Target (issue: many machines): 100 full-run databases merged in <= 60 s
# on a 2-core machine. Also reports the figures at 10 and 1000 runs: the
# merge time per run and the central database's size per run, to show
# how they grow.
#
# Usage (as root, from a build directory, under the machine's benchmark
# lock):
#   BENCHORCH=./benchorch sh tests/bench/merge-scale.sh [FULL-RUN.db] [COUNTS]
# FULL-RUN.db: a database holding one full run (`benchorch run --distros
# debian`, every library and algorithm); without it one is made first on
# the cached test image (about 4 minutes). COUNTS: the numbers of runs to
# merge (default "10 100 1000"). Each count merges into a new central
# database; clones are made and merged 100 at a time (one `benchorch
# merge` of up to 100 files, timed alone; making the clones is not timed)
# and removed after, so the disk holds at most 100 clones and the central
# database. Prints one line per count and exits 1 if 100 runs take more
# than 60 s.
set -u
benchorch=${BENCHORCH:-./benchorch}
state=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
src=${1:-}
counts=${2:-10 100 1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
q() { sqlite3 -batch -noheader "$1" "$2"; }

if [ -z "$src" ]; then
	src="$tmp/full.db"
	echo "making one full run on the cached image (debian) ..." >&2
	"$benchorch" run --distros debian --state-dir "$state" --db "$src" \
		--format csv >/dev/null 2>"$tmp/full.err" ||
		{ echo "the full run failed:" >&2; tail -5 "$tmp/full.err" >&2; exit 1; }
fi
runs=$(q "$src" "select count(*) from runs where status <> 'running'")
results=$(q "$src" "select count(*) from results")
samples=$(q "$src" "select count(*) from samples")
[ "$runs" -eq 1 ] || { echo "'$src' must hold one finished run, not $runs" >&2; exit 1; }
src_bytes=$(stat -c %s "$src")
echo "source: 1 run, $results results, $samples samples, $((src_bytes / 1024)) KiB"

# clone I: a copy of the source whose run has a new uuid and host node-I
clone() {
	cp "$src" "$tmp/c/node-$1.db"
	q "$tmp/c/node-$1.db" "update runs set host = 'node-$1', uuid =
		lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
		substr(lower(hex(randomblob(2))), 2) || '-a' ||
		substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))"
}

for n in $counts; do
	central="$tmp/central-$n.db"
	rm -f "$central"
	total=0
	done_n=0
	while [ "$done_n" -lt "$n" ]; do
		batch=$((n - done_n > 100 ? 100 : n - done_n))
		rm -rf "$tmp/c"
		mkdir "$tmp/c"
		i=1
		while [ "$i" -le "$batch" ]; do
			clone $((done_n + i))
			i=$((i + 1))
		done
		start=$(date +%s.%N)
		"$benchorch" merge --db "$central" "$tmp"/c/node-*.db >"$tmp/merge.out" 2>&1 ||
			{ echo "merge failed:" >&2; tail -3 "$tmp/merge.out" >&2; exit 1; }
		end=$(date +%s.%N)
		total=$(echo "$total + $end - $start" | bc)
		done_n=$((done_n + batch))
	done
	rm -rf "$tmp/c"
	merged=$(q "$central" "select count(distinct uuid) from runs")
	mres=$(q "$central" "select count(*) from results")
	bytes=$(stat -c %s "$central")
	printf '%5d runs: merged %d runs, %d results in %.1f s (%.3f s per run); central database %.1f MiB (%.2f MiB per run)\n' \
		"$n" "$merged" "$mres" "$total" "$(echo "$total / $n" | bc -l)" \
		"$(echo "$bytes / 1048576" | bc -l)" "$(echo "$bytes / 1048576 / $n" | bc -l)"
	[ "$merged" -eq "$n" ] || { echo "  expected $n distinct runs" >&2; status=1; }
	if [ "$n" -eq 100 ] && [ "$(echo "$total > 60" | bc)" -eq 1 ]; then
		echo "  over the 60 s target" >&2
		status=1
	fi
	rm -f "$central" "$central-wal" "$central-shm"
done
exit $status
