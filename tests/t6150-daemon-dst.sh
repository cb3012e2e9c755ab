#!/bin/sh
# t6150-daemon-dst - a real daemon on a clock that falls back: a daily
# schedule at 02:30 runs once on 2026-10-25, the day Central European
# summer time ends and 02:00-02:59 comes twice, and not again at the
# second 02:30, also after a restart inside the repeated hour. `status`
# shows local times with their offset, --json UTC. The daemon's clock is
# set with libfaketime; the zone is a fixed POSIX TZ rule (summer time
# from the last Sunday of March 02:00 to the last Sunday of October 03:00
# local: the switch back is at 2026-10-25T01:00:00Z).
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
ft=
for f in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
	[ -f "$f" ] && ft=$f && break
done
[ -n "$ft" ] || skip_all "needs libfaketime (Debian package faketime)"
daemon_setup

CET='CET-1CEST,M3.5.0,M10.5.0/3'
# fake_start SECONDS: start the daemon with its clock at SECONDS since the
# epoch (then running at the normal rate) in the zone $CET.
fake_start() {
	TZ=$CET LD_PRELOAD=$ft FAKETIME_FMT=%s FAKETIME="@$1" \
		FAKETIME_DONT_FAKE_MONOTONIC=1 \
		"$BENCHORCH" daemon --foreground --config "$tmp/benchorch.conf" \
		>>"$tmp/daemon.out" 2>>"$tmp/daemon.log" &
	dpid=$!
	wait_for 10 'daemon_status >/dev/null 2>&1'
}
# st PYTHON-EXPR: status 0 when EXPR holds for r, the status --json reply.
st() {
	daemon_status --json >"$tmp/st.json" 2>/dev/null &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/st.json" "$1"
}
runs() {
	daemon_sql "select count(*) from runs where command_line like '%--schedule t6150-dst %'"
}
utc() {
	date -u -d "$1" +%s
}

daemon_write_conf "schedule t6150-dst every day at 02:30 distros debian quick no-refresh libs openssl"
sed -i '/^t6150-/d' "$TEST_STATE/schedules" 2>/dev/null

# 02:29:55 summer time: the first 02:30 is 5 s ahead.
fake_start "$(utc '2026-10-25 00:29:55')"
ok $? "the daemon starts at 02:29:55 CEST on 2026-10-25"
st 'r["schedules"][0]["next"] == "2026-10-25T00:30:00Z" and r["schedules"][0]["last"] == ""'
ok $? "--json: next at the first 02:30 (00:30 UTC), no last run: $(grep -o '"next": "[^"]*"' "$tmp/st.json")"
TZ=$CET daemon_status >"$tmp/h"
grep -q "^schedule:  t6150-dst next 2026-10-25 02:30:00 +0200$" "$tmp/h"
ok $? "status: next in local time with its offset, no last run: $(grep schedule: "$tmp/h")"

wait_for 300 '[ "$(daemon_sql "select count(*) from runs where status = '"'done'"'" 2>/dev/null)" = 1 ]'
ok $? "the schedule runs and finishes"
daemon_sql "select command_line from runs" | grep -q -- "--schedule t6150-dst .*--due 2026-10-25T00:30:00Z"
ok $? "for the due time 2026-10-25T00:30:00Z"
wait_for 10 "st 'r[\"state\"] == \"idle\"'"
st 'r["schedules"][0]["next"] == "2026-10-26T01:30:00Z" and r["schedules"][0]["last"] == "2026-10-25T00:30:00Z"'
ok $? "--json: next on the 26th at 02:30 CET (01:30 UTC), not at the second 02:30 of the 25th: $(grep -o '"next": "[^"]*"' "$tmp/st.json")"
TZ=$CET daemon_status >"$tmp/h"
grep -q "^schedule:  t6150-dst next 2026-10-26 02:30:00 +0100, last 2026-10-25 02:30:00 +0200$" "$tmp/h"
ok $? "status: $(grep schedule: "$tmp/h")"
daemon_stop
ok $? "the daemon stops"

# A restart inside the repeated hour, 5 s before the second 02:30.
fake_start "$(utc '2026-10-25 01:29:55')"
ok $? "the daemon starts again at 02:29:55 CET, in the repeated hour"
st 'r["schedules"][0]["next"] == "2026-10-26T01:30:00Z"'
ok $? "next is still the 26th: $(grep -o '"next": "[^"]*"' "$tmp/st.json")"
sleep 7
[ "$(runs)" -eq 1 ] && st 'r["state"] == "idle" and r["schedules"][0]["next"] == "2026-10-26T01:30:00Z"'
ok $? "the second 02:30 passes without a run ($(runs) in all)"
# A reload that moves the time to 02:45, still ahead on the local clock:
# the schedule ran this local day, so it waits for the next.
daemon_write_conf "schedule t6150-dst every day at 02:45 distros debian quick no-refresh libs openssl"
kill -HUP "$dpid"
wait_for 10 'grep -q "configuration reloaded" "$tmp/daemon.log"'
ok $? "a reload inside the repeated hour moves the time to 02:45"
st 'r["schedules"][0]["next"] == "2026-10-26T01:45:00Z"'
ok $? "next is 02:45 on the 26th, not today: $(grep -o '"next": "[^"]*"' "$tmp/st.json")"
sleep 3
[ "$(runs)" -eq 1 ] && st 'r["state"] == "idle"'
ok $? "and nothing runs ($(runs) in all)"
! grep -q "was missed" "$tmp/daemon.log"
ok $? "and nothing was called missed"
daemon_stop
ok $? "the daemon stops with status 0"
sed -i '/^t6150-/d' "$TEST_STATE/schedules"
sed 's/^/# /' "$tmp/daemon.log"

done_testing
