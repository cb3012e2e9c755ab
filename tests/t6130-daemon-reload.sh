#!/bin/sh
# t6130-daemon-reload - a real daemon: a schedule gets exactly one run per
# due time when the configuration is reloaded (SIGHUP) while its run is
# queued or running, and when its interval is shorter than its run; the
# daemon uses next to no CPU meanwhile (no busy wait) and does not call a
# running or queued schedule "missed". `submit` on an idle daemon starts
# the job at once and says so.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
daemon_setup

# st PYTHON-EXPR: status 0 when EXPR holds for r, the daemon's status
# --json reply.
st() {
	daemon_status --json >"$tmp/st.json" 2>/dev/null &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/st.json" "$1"
}

# CPU time (user + system, in clock ticks) the process PID has used.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}
hz=$(getconf CLK_TCK)
# runs_of NAME: how many runs the schedule NAME has in the database.
runs_of() {
	daemon_sql "select count(*) from runs where command_line like '%--schedule $1 %'"
}
# dues_of NAME: the due times (--due) of NAME's runs, one per line.
dues_of() {
	daemon_sql "select command_line from runs where command_line like '%--schedule $1 %' order by id" |
		sed -n 's/.* --due \([^ ]*\).*/\1/p'
}

conf_hour="schedule t6130-hour every 1h distros debian quick no-refresh libs openssl"
daemon_write_conf "$conf_hour"
# The schedule last ran due an hour ago less 8 s: it is due in 8 s.
sed -i '/^t6130-/d' "$TEST_STATE/schedules" 2>/dev/null
echo "t6130-hour $(($(date +%s) + 8 - 3600))" >>"$TEST_STATE/schedules"
daemon_start
ok $? "the daemon starts"

# A submitted run keeps the daemon busy while the schedule comes due.
"$BENCHORCH" submit --socket "$sock" --distros debian --quick >"$tmp/sub"
[ "$(cat "$tmp/sub")" = "job 1 started" ]
ok $? "submit on an idle daemon: $(cat "$tmp/sub")"
t0=$(date +%s)
c0=$(cpu_ticks "$dpid")
wait_for 30 "st 'r[\"state\"] == \"running\" and r[\"job\"][\"origin\"] == \"submit\" and [q[\"schedule\"] for q in r[\"queue\"]] == [\"t6130-hour\"]'"
ok $? "the schedule came due while the submitted run runs: it is queued"

# Reload while it is queued.
kill -HUP "$dpid"
wait_for 10 '[ "$(grep -c "configuration reloaded" "$tmp/daemon.log")" -ge 1 ]'
ok $? "SIGHUP while queued: reloaded"
sleep 2
st '[q["schedule"] for q in r["queue"]] == ["t6130-hour"] and r["job"]["origin"] == "submit"'
ok $? "still queued once, behind the submitted run"

# Reload while it runs.
wait_for 300 "st 'r[\"state\"] == \"running\" and r[\"job\"][\"schedule\"] == \"t6130-hour\" and r[\"queue\"] == []'"
ok $? "the scheduled run starts after the submitted one"
kill -HUP "$dpid"
wait_for 10 '[ "$(grep -c "configuration reloaded" "$tmp/daemon.log")" -ge 2 ]'
ok $? "SIGHUP while it runs: reloaded"
wait_for 300 "st 'r[\"state\"] == \"idle\"'"
ok $? "the daemon is idle again"
c1=$(cpu_ticks "$dpid")
t1=$(date +%s)
sleep 3
[ "$(runs_of t6130-hour)" -eq 1 ]
ok $? "the schedule ran once for its due time ($(runs_of t6130-hour) runs)"
! grep -q "'t6130-hour' was missed" "$tmp/daemon.log"
ok $? "and was never called missed"
due=$(dues_of t6130-hour)
want=$(date -u -d "$due 1 hour" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
st "[s['next'] for s in r['schedules']] == ['$want']"
ok $? "its next due time is an hour after the one it ran for ($due -> $want)"
# A daemon that waits in a loop with a zero timeout burns a whole core;
# one that sleeps until something happens uses a few ticks.
used=$((c1 - c0))
wall=$((t1 - t0))
[ $((used * 100)) -lt $((wall * hz * 5)) ]
ok $? "the daemon used $used ticks of CPU in $wall s of runs and reloads (under 5 %)"

# An interval shorter than the run: every 2 s, a run of several seconds.
daemon_write_conf "$conf_hour" \
	"schedule t6130-often every 2s distros debian quick no-refresh libs openssl"
kill -HUP "$dpid"
t0=$(date +%s)
c0=$(cpu_ticks "$dpid")
wait_for 300 '[ "$(daemon_sql "select count(*) from runs where command_line like '"'%--schedule t6130-often %'"' and status <> '"'running'"'")" -ge 2 ]'
ok $? "the 2 s schedule ran twice"
daemon_write_conf "$conf_hour"
kill -HUP "$dpid"
wait_for 300 "st 'r[\"state\"] == \"idle\"'"
ok $? "with it removed the daemon goes idle"
c1=$(cpu_ticks "$dpid")
t1=$(date +%s)
n=$(runs_of t6130-often)
[ "$(dues_of t6130-often | sort -u | wc -l)" -eq "$n" ]
ok $? "its $n runs ran for $n different due times: $(dues_of t6130-often | tr '\n' ' ')"
[ "$n" -le 3 ]
ok $? "due times that came while it ran were skipped, not queued ($n runs)"
grep -q "schedule 't6130-often' due .* skipped: its run due .* is still running" "$tmp/daemon.log"
ok $? "the log says which due times were skipped"
used=$((c1 - c0))
wall=$((t1 - t0))
[ $((used * 100)) -lt $((wall * hz * 5)) ]
ok $? "the daemon used $used ticks of CPU in $wall s (under 5 %)"
[ "$(daemon_sql "select count(*) from runs where status <> 'done'")" -eq 0 ]
ok $? "every run is stored as done"
daemon_stop
ok $? "the daemon stops with status 0"
sed -i '/^t6130-/d' "$TEST_STATE/schedules"
sed 's/^/# /' "$tmp/daemon.log"

done_testing
