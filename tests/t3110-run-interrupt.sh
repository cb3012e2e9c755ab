#!/bin/sh
# t3110-run-interrupt - Ctrl-C (SIGINT) and SIGTERM in the middle of a run
# (in its first round or a later one) stop the guest, leave no mount or
# process, and store the run as 'aborted'; a run killed outright (SIGKILL)
# is marked aborted by the next.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader -cmd '.timeout 10000' "$db" "$1"; }

# Make sure the image exists so the signal lands while the guest runs.
"$BENCHORCH" run --distros debian --quick --state-dir "$TEST_STATE" \
	--db "$tmp/warm.db" >/dev/null 2>"$tmp/err"
ok $? "the image is ready"

# wait_guest: wait up to 60 s for the guest to be running.
wait_guest() {
	i=0
	while [ $i -lt 600 ]; do
		[ -n "$(running_guests)" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# interrupt SIGNAL RUNNER EXPECTED-EXIT
interrupt() {
	"$BENCHORCH" run --distros debian --runner "$2" --state-dir "$TEST_STATE" \
		--db "$db" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait_guest
	ok $? "$1/$2: the guest started"
	sleep 0.5
	kill -s "$1" $pid
	wait $pid
	rc=$?
	ok $([ $rc -eq "$3" ]; echo $?) "$1/$2: exit status $3 (got $rc)"
	grep -q "interrupted" "$tmp/err" && ! grep -q "failed after" "$tmp/err"
	ok $? "$1/$2: says it was interrupted, no round 'failed'"
	[ "$(q "select status from runs order by id desc limit 1")" = aborted ]
	ok $? "$1/$2: the run is stored as aborted"
	[ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(stray_guests)" ] &&
	! grep -q '/run/benchorch' /proc/self/mountinfo
	ok $? "$1/$2: no mount or guest process left"
	[ "$(q "pragma integrity_check")" = ok ]
	ok $? "$1/$2: database consistent"
}

interrupt INT nspawn 130
interrupt TERM nspawn 143
interrupt INT chroot 130

# next_guest PIDS: wait up to 60 s for guests none of whose processes
# is among PIDS (those of an earlier round: its systemd-nspawn lives as
# long as its round).
next_guest() {
	i=0
	while [ $i -lt 600 ]; do
		now=$(running_guests)
		new=${now:+1}
		for p in $now; do
			case " $1 " in *" $p "*) new= ;; esac
		done
		[ -n "$new" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# A later round: wait for the first round's guest, then for the next
# one, then interrupt. The rounds already measured are kept. (Two
# libraries: rounds of a few seconds, many left when the signal comes.)
"$BENCHORCH" run --distros debian --libs openssl,nettle --runner nspawn \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_guest
next_guest "$(running_guests | tr '\n' ' ')"
ok $? "INT/later round: a guest of round 2 or later started"
sleep 0.3
kill -s INT $pid
wait $pid
rc=$?
run=$(q "select max(id) from runs")
[ $rc -eq 130 ] && [ "$(q "select status from runs where id = $run")" = aborted ]
ok $? "INT/later round: exit status 130 (got $rc), the run stored as aborted"
[ "$(q "select count(*) from invocations where run_id = $run and status = 'ok' and round = 1")" -eq 1 ] &&
[ "$(q "select count(*) from results r join invocations i on i.id = r.invocation_id where i.run_id = $run")" -gt 0 ]
ok $? "INT/later round: the rounds finished before are stored with their results"
[ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(stray_guests)" ] &&
! grep -q '/run/benchorch' /proc/self/mountinfo
ok $? "INT/later round: no mount or guest process left"

# SIGKILL: nothing can clean up in the process, but its guest dies with it
# and the next run marks the orphaned run aborted.
"$BENCHORCH" run --no-confirm --distros debian --state-dir "$TEST_STATE" --db "$db" \
	>/dev/null 2>&1 &
pid=$!
wait_guest
kill -KILL $pid
wait $pid
i=0
while [ -n "$(stray_guests)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -z "$(stray_guests)" ]
ok $? "KILL: the guest dies with the orchestrator"
[ -z "$(mounts_under "$TEST_STATE")" ]
ok $? "KILL: nothing stays mounted"
[ "$(q "select status from runs order by id desc limit 1")" = running ]
ok $? "KILL: the killed run is left 'running'"
"$BENCHORCH" run --no-confirm --distros debian --quick --state-dir "$TEST_STATE" \
	--db "$db" >/dev/null 2>&1
[ "$(q "select status from runs order by id desc limit 1 offset 1")" = aborted ]
ok $? "KILL: the next run marks it aborted"

done_testing
