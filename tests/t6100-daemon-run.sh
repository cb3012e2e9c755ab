#!/bin/sh
# t6100-daemon-run - a real daemon on the cached Debian image: a schedule
# due seconds ahead (by its persisted last run) runs and `status` reports it; a second daemon
# refuses to start; malformed control messages get an error and the daemon
# keeps serving; `submit` queues a run while the CLI reads the database
# without "database is locked" and records the package version that changed
# since the previous run, which status shows; a schedule missed while the
# daemon was down runs once at start-up.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
daemon_setup

# An hourly schedule whose persisted last run was 1 h - 20 s ago is due
# 20 s from now, whatever the time of day: the daemon plans it from that
# last run (an interval, not a time of day; 20 s leaves the daemon 10 s
# to start and answer). Should it start later still, the schedule is
# missed and runs at once: the run happens either way.
due=$(($(date +%s) + 20))
at=$(TZ=UTC date -d "@$due" +%Y-%m-%dT%H:%M:%S)
sed -i '/^t6100-soon /d' "$TEST_STATE/schedules" 2>/dev/null
echo "t6100-soon $((due - 3600))" >>"$TEST_STATE/schedules"
daemon_write_conf "schedule t6100-soon every 1h distros debian quick no-refresh"
"$BENCHORCH" daemon --check --config "$tmp/benchorch.conf" >"$tmp/check"
ok $? "daemon --check accepts the configuration"
grep -q "^schedule t6100-soon every 3600s distros debian libs all quick no-refresh$" "$tmp/check"
ok $? "and prints it normalised"

daemon_start
ok $? "the daemon starts and answers status"
TZ=UTC daemon_status >"$tmp/st0"
grep -q "^daemon: .*, idle," "$tmp/st0" &&
	grep -q "schedule:  t6100-soon next $(TZ=UTC date -d "@$due" '+%Y-%m-%d %H:%M:%S') +0000" "$tmp/st0"
ok $? "status shows the schedule's next run at $at (local time, here UTC), an hour after its last"

# A second daemon on the same state directory refuses, clearly.
TZ=UTC "$BENCHORCH" daemon --foreground --config "$tmp/benchorch.conf" \
	>/dev/null 2>"$tmp/second"
rc=$?
[ $rc -eq 3 ] && grep -q "another daemon holds '$TEST_STATE/daemon.lock'" "$tmp/second"
ok $? "a second daemon refuses to start (exit $rc: $(cat "$tmp/second"))"
daemon_status >/dev/null
ok $? "and the first still answers"

wait_for 120 '[ "$(daemon_sql "select count(*) from runs where status <> '"'running'"'" 2>/dev/null)" = 1 ]'
ok $? "the scheduled run happens and finishes"
[ "$(daemon_sql "select status from runs")" = done ]
ok $? "and is stored as done"
daemon_sql "select command_line from runs" | grep -q "daemon --schedule t6100-soon --distros debian --quick"
ok $? "with the schedule in its command line"
wait_for 10 'daemon_status --json | grep -q "\"state\": \"idle\""'
daemon_status >"$tmp/st1"
grep -q "^last: .*schedule t6100-soon, distros debian" "$tmp/st1" &&
	grep -q "done (exit 0), run 1" "$tmp/st1"
ok $? "status reports the last run: done, run 1"
daemon_clean_after_job
ok $? "nothing stays mounted, no job or guest process left"

# Malformed control messages: each gets an error reply, none a crash.
python3 - "$sock" >"$tmp/py" 2>&1 <<'EOF'
import json, socket, sys

def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(10)
    s.connect(sys.argv[1])
    return s

def ask(s, data):
    s.send(data)
    return json.loads(s.recv(65536))

bad = [
    b"garbage",
    b"\xff\xfe\x00\x01" * 64,
    b"[]",
    b'{"type":"status"}',
    b'{"version":2,"type":"status"}',
    b'{"version":"1","type":"status"}',
    b'{"version":1,"type":3}',
    b'{"version":1,"type":"shutdown"}',
    b'{"version":1,"type":"submit","distros":7}',
    b'{"version":1,"type":"submit","distros":"nosuchdistro"}',
    b'{"version":1,"type":"submit","distros":"debian","quick":"yes"}',
    b'{"version":1,"type":"status","x":1}',
    b'{"version":1,"type":"status"' + b" " * 20000 + b"}",
]
s = conn()
for m in bad:
    r = ask(s, m)
    assert r.get("ok") is False and r.get("version") == 1 \
        and isinstance(r.get("error"), str), (m[:40], r)
    print("refused:", r["error"][:80])
r = ask(s, b'{"version":1,"type":"status"}')
assert r["ok"] is True and r["state"] == "idle", r
s.close()
# A client that connects and leaves, or sends nothing, does no harm.
conn().close()
s = conn()
r = ask(s, b'{"version":1,"type":"status"}')
assert r["ok"] is True
print("still serving")
EOF
ok $? "malformed control messages are refused and the daemon keeps serving"
sed 's/^/# /' "$tmp/py"
kill -0 "$dpid"
ok $? "the daemon is still running"
grep -q "refused a message" "$tmp/daemon.log"
ok $? "and logged the refusals"

# Package changes: make run 1's image look like an older build (another
# digest, an older libssl3), as if the image had been rebuilt with an
# update since; the next run records the update and status shows it.
ssl=$(daemon_sql "select version from image_packages where package = 'libssl3'")
[ -n "$ssl" ] && daemon_sql "update images set digest = 'sha256:t6100-older';
	update image_packages set version = '0.9-t6100' where package = 'libssl3'"
ok $? "run 1's image made to look older: libssl3 0.9-t6100 instead of $ssl"

# submit: a full run, while the CLI reads the database over and over.
"$BENCHORCH" submit --socket "$sock" --distros debian >"$tmp/sub"
ok $? "submit queues a run: $(cat "$tmp/sub")"
"$BENCHORCH" submit --socket "$sock" --distros nosuch 2>"$tmp/sub2"
rc=$?
[ $rc -eq 2 ] && grep -q "unknown distro 'nosuch'" "$tmp/sub2"
ok $? "submit of an unknown distro is refused by the daemon, a usage error (exit $rc)"
wait_for 30 'daemon_status | grep -q "^current:"'
ok $? "status shows the submitted run as current"
# A manual run meanwhile waits for the daemon's run, and says so.
wait_for 30 'daemon_status --json | grep -q "\"state\": \"running\""'
"$BENCHORCH" run --distros debian --quick --runner nspawn \
	--state-dir "$TEST_STATE" --db "$tmp/manual.db" >/dev/null 2>"$tmp/manual" &
mpid=$!
: >"$tmp/reads"
n=0
while daemon_status --json 2>/dev/null | grep -q '"state": "\(running\|waiting\)"'; do
	"$BENCHORCH" results --db "$db" --all --format csv >/dev/null 2>>"$tmp/reads"
	# sqlite3 waits for no lock unless told to: a WAL reset by the
	# writer can make an untimed reader fail at once (benchorch's own
	# readers wait up to 30 s).
	sqlite3 -batch -cmd '.timeout 10000' "$db" "select count(*) from results" >/dev/null 2>>"$tmp/reads"
	n=$((n + 1))
	[ $n -gt 3000 ] && break
done
[ "$n" -gt 0 ] && ! grep -qi "locked\|busy" "$tmp/reads"
ok $? "$n reads during the run (at least one): no 'database is locked'"
# The reads stop after 3000; a full run can outlast them.
wait_for 900 'daemon_status --json | grep -q "\"state\": \"idle\""'
[ "$(daemon_sql "select status from runs where id = 2")" = done ]
ok $? "the submitted run is stored as done"
[ "$(daemon_sql "select package || ' ' || old_version || ' ' || new_version ||
	' ' || previous_run_id from package_changes_v where run_id = 2")" = "libssl3 0.9-t6100 $ssl 1" ]
ok $? "it records the one package that changed since run 1: libssl3 0.9-t6100 -> $ssl"
wait_for 10 'daemon_status | grep -q "run 2, finished"'
daemon_status >"$tmp/st2"
grep -q "done (exit 0), run 2, finished .*, 1 package change$" "$tmp/st2" &&
	grep -q "^           debian:bookworm libssl3 0.9-t6100 -> $ssl$" "$tmp/st2"
ok $? "status shows the last run's package change"
daemon_status --json | python3 -c '
import json, sys
last = json.load(sys.stdin)["last"]
assert last["package_changes"] == 1, last
assert last["changed_packages"] == [{"spec": "debian:bookworm",
    "package": "libssl3", "old_version": "0.9-t6100",
    "new_version": sys.argv[1]}], last
' "$ssl"
ok $? "and status --json lists it"
wait $mpid
rc=$?
[ $rc -eq 0 ] && grep -q "another run holds '/run/benchorch/run.lock'; waiting" "$tmp/manual"
ok $? "a manual run waited for the daemon's run, then ran (exit $rc)"
"$BENCHORCH" cancel --socket "$sock" 2>"$tmp/cancel"
[ $? -eq 1 ] && grep -q "no run in progress" "$tmp/cancel"
ok $? "cancel with nothing running says so"

daemon_stop
ok $? "SIGTERM stops the idle daemon with status 0"
[ ! -e "$sock" ]
ok $? "and removes its socket"

# A schedule missed while the daemon was down runs once at start-up.
# (A daily interval last run three days ago: missed whatever the time of
# day, and not due again within the test.)
daemon_write_conf "schedule t6100-missed every 1d distros debian quick no-refresh"
sed -i '/^t6100-missed /d' "$TEST_STATE/schedules" 2>/dev/null
echo "t6100-missed $(($(date +%s) - 3 * 86400))" >>"$TEST_STATE/schedules"
daemon_start
ok $? "the daemon starts again"
wait_for 120 '[ "$(daemon_sql "select count(*) from runs where command_line like '"'%t6100-missed%'"' and status = '"'done'"'")" = 1 ]'
ok $? "the schedule missed three days ago runs at start-up"
sleep 2
[ "$(daemon_sql "select count(*) from runs where command_line like '%t6100-missed%'")" -eq 1 ]
ok $? "once"
grep -q "schedule 't6100-missed' was missed" "$tmp/daemon.log"
ok $? "and the log says it was missed"
[ "$(daemon_sql "select count(*) from package_changes_v where run_id = 3")" -eq 0 ]
ok $? "the same image as run 2: no package change recorded"
# (the due time it ran for: the latest 00:00:01, within the last day;
# written when the job ends, after the confirmation of what looks changed
# against run 2, which may take a while)
wait_for 180 'last=$(sed -n "s/^t6100-missed //p" "$TEST_STATE/schedules"); [ -n "$last" ] && [ "$last" -gt $(($(date +%s) - 86400)) ]'
ok $? "its last-run time is persisted"
daemon_stop
ok $? "the daemon stops with status 0"
[ "$(daemon_sql "pragma integrity_check")" = ok ]
ok $? "database consistent"
sed -i '/^t6100-/d' "$TEST_STATE/schedules"
sed 's/^/# /' "$tmp/daemon.log"

done_testing
