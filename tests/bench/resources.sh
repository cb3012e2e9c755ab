#!/bin/sh
# tests/bench/resources.sh - the memory budgets of a run (issue #14):
#  - the guest: each library's process peaks at <= 16 MiB + 2 x the
#    largest buffer (1 MiB), i.e. 18 MiB, as its wait4() reports it
#    (library_resources.maxrss_kib);
#  - the orchestrator: its own peak resident set during a run of three
#    distributions is <= 64 MiB and does not grow with the number of
#    results: measured for one distribution and for three.
# The orchestrator's peak is its VmHWM (/proc/PID/status: the kernel's
# high-water mark of that process alone; wait4's ru_maxrss would also
# count its children: systemd-nspawn, the guest), read every 20 ms while
# it runs; the last reading is kept, so a peak in the last 20 ms before
# it exits would be missed (the run has then stored everything and
# printed its summary).
#
# Usage (as root, from a build directory, under the machine's benchmark
# lock if it has one):
#   BENCHORCH=./benchorch sh tests/bench/resources.sh [--quick] [--one] [DISTROS3]
# DISTROS3: the three distributions (default
# debian:bookworm,ubuntu:noble,debian:trixie); the first alone is the
# one-distribution run. --quick runs both with --quick; --one runs the
# one-distribution run only (when the machine has no time for both).
# Environment: BENCHORCH (default ./benchorch), BENCHORCH_TEST_STATE
# (default /var/cache/benchorch-test: images are reused, not rebuilt).
# Prints one line per run and per library, and exits 1 if a budget is
# missed.
set -u
quick= only_one=
while :; do
	case ${1:-} in
	--quick) quick=--quick ;;
	--one) only_one=1 ;;
	*) break ;;
	esac
	shift
done
three=${1:-debian:bookworm,ubuntu:noble,debian:trixie}
one=${three%%,*}
benchorch=${BENCHORCH:-./benchorch}
state=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
guest_budget_kib=$((16 * 1024 + 2 * 1024))
orch_budget_kib=$((64 * 1024))

# hwm PID: print the VmHWM of PID in KiB every 20 ms while it lives; the
# last line is its peak.
hwm() {
	while v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$1/status" 2>/dev/null) &&
	      [ -n "$v" ]; do
		echo "$v"
		sleep 0.02
	done
}

# run NAME DISTROS: one run; prints its figures, checks the budgets.
run() {
	name=$1 distros=$2
	db="$tmp/$name.db"
	start=$(date +%s.%N)
	"$benchorch" run --distros "$distros" $quick --state-dir "$state" \
		--db "$db" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	hwm "$pid" >"$tmp/$name.hwm"
	wait "$pid"
	rc=$?
	end=$(date +%s.%N)
	q() { sqlite3 -batch -noheader "$db" "$1"; }
	peak=$(tail -1 "$tmp/$name.hwm")
	results=$(q "select count(*) from results")
	samples=$(q "select count(*) from samples")
	guest=$(q "select coalesce(sum(wall_ns), 0) / 1e9 from invocations")
	printf '%s: %s%s: exit %d, %.1f s (guest %.1f s), %d results, %d samples; orchestrator peak %d KiB (%.1f MiB, budget %d MiB)\n' \
		"$name" "$distros" "${quick:+ --quick}" "$rc" \
		"$(echo "$end - $start" | bc)" "$guest" "$results" "$samples" \
		"${peak:-0}" "$(echo "${peak:-0} / 1024" | bc -l)" \
		$((orch_budget_kib / 1024))
	[ "$rc" -eq 0 ] || { sed 's/^/  /' "$tmp/$name.err" | tail -5; status=1; }
	[ "${peak:-0}" -gt 0 ] && [ "$peak" -le "$orch_budget_kib" ] || status=1
	# the guest: each library's largest peak over the run's invocations
	q "select library, max(maxrss_kib), max(footprint_kib),
		max(rss_before_load_kib), sum(user_us + sys_us) / 1e6
		from library_resources where footprint_kib is not null
		group by library order by 2 desc" |
	while IFS='|' read -r lib kib fp base cpu; do
		verdict=ok
		[ "$kib" -le "$guest_budget_kib" ] || verdict=OVER
		printf '  guest %-11s peak %6d KiB (%.1f MiB, budget %d MiB: %s), footprint %6d KiB (before loading %d), CPU %.2f s\n' \
			"$lib" "$kib" "$(echo "$kib / 1024" | bc -l)" \
			$((guest_budget_kib / 1024)) "$verdict" "$fp" "$base" "$cpu"
	done
	over=$(q "select count(*) from library_resources where maxrss_kib > $guest_budget_kib")
	[ "$over" -eq 0 ] || status=1
	eval "peak_$name=${peak:-0} results_$name=$results"
}

run one "$one"
[ -n "$only_one" ] && exit $status
run three "$three"
# not growing with the number of results: the same bound, and at most a
# fixed allowance per distribution (its image and invocations' records),
# however many results the run holds
printf 'orchestrator: %d KiB for %d results (1 distribution), %d KiB for %d results (3): %+d KiB for %+d results\n' \
	"$peak_one" "$results_one" "$peak_three" "$results_three" \
	$((peak_three - peak_one)) $((results_three - results_one))
exit $status
