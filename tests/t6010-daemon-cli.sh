#!/bin/sh
# t6010-daemon-cli - the daemon's commands without a daemon: --check on the
# shipped example configuration, usage errors, clients with no daemon to
# talk to, the systemd units as built.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$BENCHORCH" daemon --check --config "$top_srcdir/dist/benchorch.conf" >"$tmp/out" 2>"$tmp/err"
ok $? "the example configuration passes daemon --check"
grep -q "^schedule nightly every day at 03:00:00 distros debian,ubuntu:noble libs all refresh$" "$tmp/out"
ok $? "and prints its nightly schedule normalised"
"$BENCHORCH" daemon --check --config "$tmp/out" >"$tmp/out2" 2>&1 && cmp -s "$tmp/out" "$tmp/out2"
ok $? "the normalised form is stable"

printf 'state-dir /tmp/x\nschedule n every day at 03:00 distros nosuchdistro\n' >"$tmp/bad.conf"
"$BENCHORCH" daemon --check --config "$tmp/bad.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "schedule 'n': unknown distro 'nosuchdistro'" "$tmp/err"
ok $? "an unknown distro is a configuration error: $(cat "$tmp/err")"
printf 'schedule n every fortnight distros debian\n' >"$tmp/bad.conf"
"$BENCHORCH" daemon --check --config "$tmp/bad.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "line 1: schedule 'n': bad time 'fortnight'" "$tmp/err"
ok $? "a bad line is named: $(cat "$tmp/err")"
"$BENCHORCH" daemon --check --config "$tmp/missing.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "missing.conf" "$tmp/err"
ok $? "a missing file is named"
# Without --config the daemon runs on the defaults when the default file is
# missing (its --help says so); --check must judge the same way.
if [ -e /etc/benchorch/benchorch.conf ]; then
	skip_point "/etc/benchorch/benchorch.conf exists" "daemon --check without a default file checks the defaults"
else
	"$BENCHORCH" daemon --check >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && grep -q "no schedule" "$tmp/err" &&
		grep -q "^state-dir" "$tmp/out" && ! grep -q "^schedule" "$tmp/out"
	ok $? "daemon --check without a default file checks the defaults: $(cat "$tmp/err")"
fi
"$BENCHORCH" daemon --bogus >/dev/null 2>&1
ok $([ $? -eq 2 ]; echo $?) "daemon: unknown option is a usage error"
"$BENCHORCH" submit >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "\-\-distros is required" "$tmp/err"
ok $? "submit without --distros is a usage error"

"$BENCHORCH" status --socket "$tmp/none.sock" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "cannot connect to the daemon at '$tmp/none.sock': no such socket (start it with 'benchorch daemon', or name its socket with --socket)" "$tmp/err"
ok $? "status with no daemon: exit 3, says where it looked and how to start one"
# the same kind: a socket that names no daemon, said why
"$BENCHORCH" status --socket '' >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "the socket path is empty" "$tmp/err"
ok $? "status --socket '': says the path is empty"
: >"$tmp/plain"
"$BENCHORCH" status --socket "$tmp/plain" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "cannot connect to the daemon at '$tmp/plain': it is not a socket" "$tmp/err"
ok $? "status --socket on a regular file: says it is not a socket"
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.bind(sys.argv[1]); s.close()' "$tmp/dead.sock" &&
	"$BENCHORCH" status --socket "$tmp/dead.sock" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/dead.sock': nothing listens there (start it with 'benchorch daemon', or name its socket with --socket)" "$tmp/err"
ok $? "status on a socket nobody listens on: says nothing listens there"
"$BENCHORCH" cancel --state-dir "$tmp" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/control.sock'" "$tmp/err"
ok $? "cancel --state-dir looks for STATE/control.sock"
printf 'socket %s/other.sock\n' "$tmp" >"$tmp/c.conf"
"$BENCHORCH" submit --config "$tmp/c.conf" --distros debian >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/other.sock'" "$tmp/err"
ok $? "submit --config takes the socket from the configuration"
"$BENCHORCH" submit --socket "$tmp/none.sock" --distros debian --libs nosuch >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "submit: --libs: unknown name 'nosuch' (known: openssl," "$tmp/err"
ok $? "submit --libs nosuch is a usage error, said before the socket is tried"
# A daemon with no schedule refuses an unknown distribution as run does:
# exit 2 (it starts no run: nothing it is given is valid).
if [ "$(id -u)" -eq 0 ]; then
	printf 'state-dir %s/ustate\n' "$tmp" >"$tmp/u.conf"
	"$BENCHORCH" daemon --foreground --config "$tmp/u.conf" >/dev/null 2>"$tmp/ud" &
	upid=$!
	i=0
	while [ $i -lt 300 ] && ! "$BENCHORCH" status --state-dir "$tmp/ustate" >/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	"$BENCHORCH" submit --state-dir "$tmp/ustate" --distros nosuch >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "unknown distro 'nosuch'" "$tmp/err"
	ok $? "submit --distros nosuch: the daemon refuses it, exit 2 (exit $rc: $(cat "$tmp/err"))"
	"$BENCHORCH" status --state-dir "$tmp/ustate" --format json | grep -q '"state": *"idle"'
	ok $? "and the daemon stays idle"
	kill -TERM "$upid"
	wait "$upid"
else
	skip_point "needs root" "submit --distros nosuch: the daemon refuses it, exit 2"
	skip_point "needs root" "and the daemon stays idle"
fi
"$BENCHORCH" status --format csv --socket "$tmp/none.sock" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "status: --format takes table or json (not 'csv')" "$tmp/err"
ok $? "status --format csv is a usage error, said before the socket is tried"
for c in daemon status submit cancel; do
	"$BENCHORCH" $c --help | grep -q "^Usage: benchorch $c"
	ok $? "$c --help"
done
# As a user: this one, or as root another (nobody, as t5030 does).
if [ "$(id -u)" -ne 0 ]; then
	asuser=
elif command -v setpriv >/dev/null 2>&1; then
	asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	asuser=none
fi
if [ "$asuser" = none ]; then
	skip_point "needs setpriv to drop root" "daemon refuses to run as a user"
else
	$asuser "$BENCHORCH" daemon --config "$top_srcdir/dist/benchorch.conf" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q "must be run as root" "$tmp/err"
	ok $? "daemon refuses to run as a user (uid $($asuser id -u), exit $rc)"
fi

for u in benchorch.service benchorch-nightly.service; do
	(cd "$top_builddir" && make -s "dist/$u") >/dev/null 2>&1 &&
		grep -q "^ExecStart=/.*/benchorch " "$top_builddir/dist/$u"
	ok $? "dist/$u is built with the installed benchorch's path"
done
grep -q "^ExecStart=.* daemon --foreground$" "$top_builddir/dist/benchorch.service"
ok $? "benchorch.service runs the daemon in the foreground"
if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite \
		"$BENCHORCH" daemon --check --config "$top_srcdir/dist/benchorch.conf" >/dev/null 2>"$tmp/vg"
	ok $? "daemon --check under valgrind: no memory error"
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite \
		"$BENCHORCH" status --socket "$tmp/none.sock" >/dev/null 2>"$tmp/vg"
	ok $([ $? -ne 99 ]; echo $?) "status (no daemon) under valgrind: no memory error"
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite \
		"$top_builddir/tests/t6000-daemon-config" >/dev/null 2>"$tmp/vg"
	ok $? "t6000-daemon-config under valgrind: no memory error"
	# The daemon itself, serving requests good and bad, then SIGTERM (no
	# run: that is t6100/t6110's job, and needs an image).
	if [ "$(id -u)" -eq 0 ] && command -v python3 >/dev/null 2>&1; then
		printf 'state-dir %s/state\n' "$tmp" >"$tmp/vg.conf"
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite \
			"$BENCHORCH" daemon --foreground --config "$tmp/vg.conf" \
			>/dev/null 2>"$tmp/vgd" &
		vpid=$!
		i=0
		while [ $i -lt 300 ] && ! "$BENCHORCH" status --state-dir "$tmp/state" >/dev/null 2>&1; do
			sleep 0.1
			i=$((i + 1))
		done
		python3 - "$tmp/state/control.sock" <<'EOF2'
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.settimeout(30)
s.connect(sys.argv[1])
for m in [b"junk", b'{"version":1,"type":"submit","distros":"nosuch"}',
          b"{" * 10000, b'{"version":1,"type":"status"}',
          b'{"version":1,"type":"cancel"}']:
    s.send(m)
    json.loads(s.recv(65536))
EOF2
		ok $? "the daemon under valgrind answers good and bad requests"
		"$BENCHORCH" status --state-dir "$tmp/state" --format json >"$tmp/st1" &&
			"$BENCHORCH" status --state-dir "$tmp/state" --json >"$tmp/st2" &&
			python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(not (a["state"] == b["state"] == "idle" and a.keys() == b.keys()))' "$tmp/st1" "$tmp/st2"
		ok $? "status --format json prints the reply as --json does"
		kill -TERM $vpid
		wait $vpid
		rc=$?
		ok $([ $rc -eq 0 ]; echo $?) "the daemon under valgrind: no memory error, exit 0 on SIGTERM (got $rc)"
		[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/vgd" | head -30
	else
		why="needs root and python3"
		skip_point "$why" "the daemon under valgrind answers good and bad requests"
		skip_point "$why" "status --format json prints the reply as --json does"
		skip_point "$why" "the daemon under valgrind: no memory error, exit 0 on SIGTERM"
	fi
else
	for what in "daemon --check" "status (no daemon)" t6000-daemon-config \
	    "the daemon serving requests"; do
		skip_point "needs valgrind" "$what under valgrind: no memory error"
	done
fi

done_testing
