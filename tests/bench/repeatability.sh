#!/bin/sh
# tests/bench/repeatability.sh - do five runs agree with each other?
#
# usage: tests/bench/repeatability.sh [DB]
#
# Runs `benchorch run` REPEAT_RUNS times (default 5) into one database with
# REPEAT_ARGS (default: "--distros debian:bookworm --quick"), each run with
# its own random seed, so every run interleaves distributions, libraries
# and algorithms in a different order. Then, for every point of at least
# REPEAT_MIN_BYTES (default 1024: 1 KiB) - (distribution, library,
# algorithm, operation, mode, buffer size) measured in every run - the
# coefficient of variation (population standard deviation / mean) of the
# runs' median throughputs. Prints the distribution of the CVs, the worst
# points, and PASS when every CV is at most REPEAT_MAX_CV (default 0.01).
# With DB, only reports on the runs already in it (the newest REPEAT_RUNS).
#
# REPEAT_SCHED=fifo (the default) runs benchorch under `chrt -f 50`, as
# tests/bench/fidelity.sh does, so that other processes on the machine do
# not preempt the guest (the kernel's RT throttling still leaves 5 % of
# each second to them); none runs it as it is. REPEAT_STATE sets
# --state-dir. Exit status: 0 PASS, 1 FAIL or a run failed, 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
runs=${REPEAT_RUNS:-5}
args=${REPEAT_ARGS:---distros debian:bookworm --quick}
min_bytes=${REPEAT_MIN_BYTES:-1024}
max_cv=${REPEAT_MAX_CV:-0.01}
case ${REPEAT_SCHED:-fifo} in
fifo) sched="chrt -f 50" ;;
none) sched="" ;;
*) echo "$0: REPEAT_SCHED must be fifo or none" >&2; exit 2 ;;
esac
case $runs in ''|*[!0-9]*|0|1) echo "$0: REPEAT_RUNS must be >= 2" >&2; exit 2 ;; esac
[ $# -le 1 ] || { echo "usage: $0 [DB]" >&2; exit 2; }
command -v sqlite3 >/dev/null 2>&1 || { echo "$0: needs sqlite3" >&2; exit 2; }

if [ $# -eq 1 ]; then
	db=$1
else
	db=$(mktemp "${TMPDIR:-/tmp}/repeat.XXXXXX.db")
	rm -f "$db"
	state=
	[ -n "${REPEAT_STATE:-}" ] && state="--state-dir $REPEAT_STATE"
	i=1
	while [ "$i" -le "$runs" ]; do
		echo "run $i of $runs: benchorch run $args" >&2
		# shellcheck disable=SC2086
		$sched "$BENCHORCH" run $args $state --db "$db" >/dev/null ||
			exit 1
		i=$((i + 1))
	done
fi

# One line per point and run: the point's key and its median MB/s.
sqlite3 -separator ' ' "$db" "
	SELECT distro || ':' || release, library, algorithm, operation, mode,
	       variant, buffer_bytes, run_id, mb_per_s
	FROM results_v
	WHERE buffer_bytes >= $min_bytes AND verified = 1
	  AND run_id IN (SELECT id FROM runs ORDER BY id DESC LIMIT $runs)
	ORDER BY 1, 2, 3, 4, 5, 6, 7, 8" >"${TMPDIR:-/tmp}/repeat.$$" || exit 1
trap 'rm -f "${TMPDIR:-/tmp}/repeat.$$"' EXIT

awk -v runs="$runs" -v max="$max_cv" '
{
	k = $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7
	if (!(k in n)) order[++nk] = k
	n[k]++; s[k] += $9; ss[k] += $9 * $9
}
END {
	m = 0; bad = 0
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if (n[k] != runs) continue	# not measured in every run
		mean = s[k] / n[k]
		var = ss[k] / n[k] - mean * mean
		if (var < 0) var = 0
		cv[++m] = mean > 0 ? sqrt(var) / mean : 0
		key[m] = k
		if (cv[m] > max) bad++
	}
	if (m == 0) { print "no point was measured in all " runs " runs"; exit 1 }
	# sort indices by CV, descending (insertion sort)
	for (i = 1; i <= m; i++) idx[i] = i
	for (i = 2; i <= m; i++) {
		x = idx[i]
		for (j = i - 1; j >= 1 && cv[idx[j]] < cv[x]; j--) idx[j + 1] = idx[j]
		idx[j + 1] = x
	}
	printf "%d points >= the size limit in all %d runs\n", m, runs
	printf "CV across runs: median %.4f, p90 %.4f, max %.4f\n",
		cv[idx[int((m + 1) / 2)]], cv[idx[int(m * 0.1) + 1]], cv[idx[1]]
	printf "points with CV > %.4f: %d\n", max, bad
	print "worst points (distro library algorithm operation mode variant bytes: CV):"
	for (i = 1; i <= m && i <= 10; i++)
		printf "  %s: %.4f\n", key[idx[i]], cv[idx[i]]
	print (bad ? "FAIL" : "PASS")
	exit bad ? 1 : 0
}' "${TMPDIR:-/tmp}/repeat.$$"
