#!/bin/sh
# t6110-daemon-signal - `cancel` and SIGTERM in the middle of a daemon's
# run stop the guest, leave no mount or process and store the run as
# 'aborted' (SIGTERM then exits 0); SIGHUP reloads the configuration and a
# bad one is refused without stopping the daemon.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
[ -d "$TEST_STATE/images/debian-bookworm/rootfs" ] ||
	skip_all "needs the cached image $TEST_STATE/images/debian-bookworm (run t3100 first)"

tmp=$(mktemp -d)
dpid=
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid"
	rm -rf "$tmp"
}
trap cleanup EXIT
# One daemon per state directory: daemon tests take turns.
exec 9>"$TEST_STATE/t6-daemon.lock"
flock 9

db="$tmp/results.db"
sock="$tmp/control.sock"
q() { sqlite3 -batch -noheader "$db" "$1"; }
st() { "$BENCHORCH" status --socket "$sock" "$@"; }

# write_conf [EXTRA LINES...]: a configuration on the test state directory.
write_conf() {
	{
		echo "state-dir $TEST_STATE"
		echo "database $db"
		echo "socket $sock"
		echo "runner nspawn"
		for l in "$@"; do echo "$l"; done
	} >"$tmp/benchorch.conf"
}

# descendants PID: the pids of PID's children, grandchildren, ... (the
# daemon's jobs and their guests; other users of the test state directory
# are not counted).
descendants() {
	for c in $(cat /proc/[0-9]*/stat 2>/dev/null |
		   awk -v p="$1" '$4 == p { print $1 }'); do
		echo "$c"
		descendants "$c"
	done
}

# clean_after_job: no job or guest process left under the daemon, and
# nothing mounted on the image (allowing a few seconds to tear down).
clean_after_job() {
	wait_for 10 '[ -z "$(descendants "$dpid")" ] && [ -z "$(mounts_under "$TEST_STATE/images/debian-bookworm")" ]' && return 0
	diag "left behind: pids $(descendants "$dpid"); mounts $(mounts_under "$TEST_STATE/images/debian-bookworm")"
	return 1
}

# start_daemon: start it in the foreground and wait for its socket.
start_daemon() {
	TZ=UTC "$BENCHORCH" daemon --foreground --config "$tmp/benchorch.conf" \
		>>"$tmp/daemon.out" 2>>"$tmp/daemon.log" &
	dpid=$!
	i=0
	while [ $i -lt 100 ]; do
		st >/dev/null 2>&1 && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_for SECONDS SHELL-CONDITION
wait_for() {
	i=0
	while [ $i -lt $(($1 * 10)) ]; do
		eval "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait_guest: wait up to 60 s for the daemon's job to run its guest.
wait_guest() {
	wait_for 60 'descendants "$dpid" | while read p; do
		tr "\0" " " </proc/$p/cmdline 2>/dev/null; echo; done |
		grep -q "^systemd-nspawn "'
}

write_conf "schedule t6110-later every day at 00:00 distros debian quick no-refresh"
start_daemon
ok $? "the daemon starts"

# cancel: the run stops, is stored aborted, the daemon goes on.
"$BENCHORCH" submit --socket "$sock" --distros debian >/dev/null
wait_guest
ok $? "cancel: the submitted run's guest started"
sleep 0.5
"$BENCHORCH" cancel --socket "$sock" >"$tmp/cancel"
ok $? "cancel: $(cat "$tmp/cancel")"
wait_for 60 'st --json | grep -q "\"state\": \"idle\""'
ok $? "cancel: the daemon is idle again"
[ "$(q "select status from runs order by id desc limit 1")" = aborted ]
ok $? "cancel: the run is stored as aborted"
st | grep -q "cancelled (exit -1)"
ok $? "cancel: status says the last run was cancelled"
clean_after_job
ok $? "cancel: no mount, job or guest process left"
kill -0 "$dpid"
ok $? "cancel: the daemon keeps running"

# SIGHUP: a new schedule appears; a broken file is refused.
write_conf "schedule t6110-later every day at 00:00 distros debian quick no-refresh" \
	"schedule t6110-added every 12h distros debian quick no-refresh"
kill -HUP "$dpid"
wait_for 10 'st | grep -q "^schedule:  t6110-added next"'
ok $? "SIGHUP: the reloaded configuration's new schedule is listed"
echo "schedule broken every never" >>"$tmp/benchorch.conf"
kill -HUP "$dpid"
wait_for 10 'grep -q "reload failed, keeping the old configuration" "$tmp/daemon.log"'
ok $? "SIGHUP: a broken configuration is refused, and says why"
st | grep -q "^schedule:  t6110-added next"
ok $? "SIGHUP: the daemon keeps the old configuration and keeps serving"
write_conf "schedule t6110-later every day at 00:00 distros debian quick no-refresh"

# SIGTERM during a run: the guest stops, the run is aborted, exit 0.
"$BENCHORCH" submit --socket "$sock" --distros debian >/dev/null
wait_guest
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
[ "$(q "select status from runs order by id desc limit 1")" = aborted ]
ok $? "TERM: the run is stored as aborted"
left=
for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
[ -z "$left" ] && [ -z "$(mounts_under "$TEST_STATE/images/debian-bookworm")" ] &&
	! pgrep -f "$tmp/benchorch.conf" >/dev/null
ok $? "TERM: no mount, job or guest process left${left:+ (left:$left)}"
[ ! -e "$sock" ]
ok $? "TERM: the socket is removed"
grep -q "signal 15: shutting down" "$tmp/daemon.log" &&
	grep -q "stopped" "$tmp/daemon.log"
ok $? "TERM: the log says so"
[ "$(q "pragma integrity_check")" = ok ]
ok $? "database consistent"
sed -i '/^t6110-/d' "$TEST_STATE/schedules"
sed 's/^/# /' "$tmp/daemon.log"

done_testing
