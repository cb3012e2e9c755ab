#!/bin/sh
# tests/bench/slurm-overhead.sh - what Slurm adds to a run: the same
# `benchorch run` alone and as a one-node array of `benchorch slurm
# submit`, on a one-node cluster started here (tests/slurm-lib.sh: munged,
# slurmctld, slurmd, stopped by pid at the end), in alternating rounds so
# that a drift of the machine does not pass for overhead.
# Target (issue: many machines): the array run costs at most 5 s more than
# the run alone, from submit until the task has finished (its exit status
# written); the time until the merge job has merged it and written the
# report is printed too.
#
# Usage (as root, from a build directory, under the machine's benchmark
# lock):
#   BENCHORCH=./benchorch sh tests/bench/slurm-overhead.sh [ROUNDS] [RUN-OPTIONS...]
# ROUNDS: default 3. RUN-OPTIONS default to a narrow quick run on the
# cached test image: --distros debian --quick --libs openssl --algos
# aes-128-ctr --state-dir $BENCHORCH_TEST_STATE. Prints each round and the
# medians, and exits 1 if the median overhead exceeds 5 s.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/slurm-lib.sh"
benchorch=$(cd "$(dirname "${BENCHORCH:-./benchorch}")" && pwd)/$(basename "${BENCHORCH:-./benchorch}")
state=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
rounds=${1:-3}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
	set -- --distros debian --quick --libs openssl --algos aes-128-ctr --state-dir "$state"
fi
tmp=$(mktemp -d)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
slurm_start "$tmp/cluster" || { echo "no cluster: $slurm_why" >&2; exit 1; }

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

r=1
while [ "$r" -le "$rounds" ]; do
	start=$(now)
	"$benchorch" run "$@" --db "$tmp/alone-$r.db" >/dev/null 2>"$tmp/alone.err" ||
		{ echo "run failed:" >&2; tail -3 "$tmp/alone.err" >&2; exit 1; }
	alone=$(echo "$(now) - $start" | bc)

	sp="$tmp/spool-$r"
	start=$(now)
	"$benchorch" slurm submit --nodes 1 --spool "$sp" --db "$tmp/central-$r.db" "$@" \
		>"$tmp/submit.out" 2>"$tmp/submit.err" ||
		{ echo "submit failed:" >&2; tail -3 "$tmp/submit.err" >&2; exit 1; }
	job=$(sed -n 's/^job //p' "$tmp/submit.out")
	while [ ! -s "$sp/${job}_0.exit" ]; do sleep 0.05; done
	task=$(echo "$(now) - $start" | bc)
	while [ ! -e "$sp/$job.report.html" ] && squeue -h -j "$(sed -n 's/^merge //p' "$tmp/submit.out")" | grep -q .; do
		sleep 0.05
	done
	merged=$(echo "$(now) - $start" | bc)
	[ "$(cat "$sp/${job}_0.exit")" = 0 ] || { echo "the task failed" >&2; exit 1; }
	printf 'round %d: run alone %.2f s; array task %.2f s (+%.2f s); with the merge and report %.2f s\n' \
		"$r" "$alone" "$task" "$(echo "$task - $alone" | bc)" "$merged"
	echo "$alone" >>"$tmp/alone"
	echo "$task" >>"$tmp/task"
	echo "$(echo "$task - $alone" | bc)" >>"$tmp/over"
	echo "$merged" >>"$tmp/merged"
	r=$((r + 1))
done
over=$(median <"$tmp/over")
printf 'median: run alone %.2f s; array task %.2f s; overhead %.2f s (target <= 5 s); with the merge and report %.2f s\n' \
	"$(median <"$tmp/alone")" "$(median <"$tmp/task")" "$over" "$(median <"$tmp/merged")"
[ "$(echo "$over <= 5" | bc)" -eq 1 ]
