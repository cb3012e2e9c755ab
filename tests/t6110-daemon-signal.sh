#!/bin/sh
# t6110-daemon-signal - `cancel` and SIGTERM in the middle of a daemon's
# run stop the guest, leave no mount or process and store the run as
# 'aborted' (SIGTERM then exits 0); SIGHUP reloads the configuration and a
# bad one is refused without stopping the daemon.
. "${top_srcdir:-.}/tests/lib.sh"
daemon_setup

# A daily interval first seen now is not due during the test, whatever
# the time of day (a last run left by an interrupted earlier test is
# dropped first).
sed -i '/^t6110-/d' "$TEST_STATE/schedules" 2>/dev/null
daemon_write_conf "schedule t6110-later every 1d distros debian quick no-refresh"
daemon_start
ok $? "the daemon starts"

# cancel: the run stops, is stored aborted, the daemon goes on.
"$BENCHORCH" submit --socket "$sock" --distros debian >/dev/null
daemon_wait_guest
ok $? "cancel: the submitted run's guest started"
sleep 0.5
"$BENCHORCH" cancel --socket "$sock" >"$tmp/cancel"
ok $? "cancel: $(cat "$tmp/cancel")"
wait_for 60 'daemon_status --json | grep -q "\"state\": \"idle\""'
ok $? "cancel: the daemon is idle again"
[ "$(daemon_sql "select status from runs order by id desc limit 1")" = aborted ]
ok $? "cancel: the run is stored as aborted"
daemon_status | grep -q "^ *cancelled, run [0-9]*, finished "
ok $? "cancel: status says the last run was cancelled"
daemon_clean_after_job
ok $? "cancel: no mount, job or guest process left"
kill -0 "$dpid"
ok $? "cancel: the daemon keeps running"

# SIGHUP: a new schedule appears; a broken file is refused.
daemon_write_conf "schedule t6110-later every 1d distros debian quick no-refresh" \
	"schedule t6110-added every 12h distros debian quick no-refresh"
kill -HUP "$dpid"
wait_for 10 'daemon_status | grep -q "^schedule:  t6110-added next"'
ok $? "SIGHUP: the reloaded configuration's new schedule is listed"
echo "schedule broken every never" >>"$tmp/benchorch.conf"
kill -HUP "$dpid"
wait_for 10 'grep -q "reload failed, keeping the old configuration" "$tmp/daemon.log"'
ok $? "SIGHUP: a broken configuration is refused, and says why"
daemon_status | grep -q "^schedule:  t6110-added next"
ok $? "SIGHUP: the daemon keeps the old configuration and keeps serving"
daemon_write_conf "schedule t6110-later every 1d distros debian quick no-refresh"

# SIGTERM during a run: the guest stops, the run is aborted, exit 0.
"$BENCHORCH" submit --socket "$sock" --distros debian >/dev/null
daemon_wait_guest
ok $? "TERM: the submitted run's guest started"
sleep 0.5
kids=$(descendants "$dpid")
pid=$dpid
kill -TERM "$dpid"
wait "$dpid"
rc=$?
dpid=
[ $rc -eq 0 ]
ok $? "TERM: the daemon exits 0 (got $rc)"
[ "$(daemon_sql "select status from runs order by id desc limit 1")" = aborted ]
ok $? "TERM: the run is stored as aborted"
left=
for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
[ -n "$kids" ] && [ -z "$left" ] && [ -z "$(mounts_under "$TEST_STATE/images/debian-bookworm")" ] &&
	! pgrep -f "$tmp/benchorch.conf" >/dev/null
ok $? "TERM: no mount, job or guest process left (of$(echo $kids | sed 's/^/ /;s/ / /g'))${left:+ (left:$left)}"
[ ! -e "$sock" ]
ok $? "TERM: the socket is removed"
grep -q "signal 15: shutting down" "$tmp/daemon.log" &&
	grep -q "stopped" "$tmp/daemon.log"
ok $? "TERM: the log says so"
[ "$(daemon_sql "pragma integrity_check")" = ok ]
ok $? "database consistent"
sed -i '/^t6110-/d' "$TEST_STATE/schedules"
sed 's/^/# /' "$tmp/daemon.log"

done_testing
