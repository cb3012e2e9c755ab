#!/bin/sh
# t6015-daemon-client - what the daemon's clients print of its answers,
# against a stand-in daemon on a socket that answers each request with a
# canned reply: status while the job waits for the run lock, or before it
# has opened its run, says so instead of "run -1, 0 of 0"; the daemon's
# refusals are said as the command's own ("benchorch submit: ...").
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"

tmp=$(mktemp -d)
fake=
trap '[ -n "$fake" ] && kill "$fake" 2>/dev/null; rm -rf "$tmp"' EXIT
sock=$tmp/control.sock

# fake_daemon REPLY: answer one request on $sock with the JSON REPLY
# (version and ok added), the request kept in $tmp/request; returns once
# the socket listens.
fake_daemon() {
	rm -f "$sock" "$tmp/listening"
	python3 - "$sock" "$1" "$tmp/request" "$tmp/listening" <<'PY' &
import json, socket, sys
path, reply, req_file, ready = sys.argv[1:5]
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(path)
s.listen(1)
open(ready, "w").close()
c, _ = s.accept()
open(req_file, "wb").write(c.recv(65536))
r = json.loads(reply)
r["version"] = 1
c.send(json.dumps(r).encode())
c.close()
PY
	fake=$!
	n=0
	while [ ! -e "$tmp/listening" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

job='"id": 3, "origin": "submitted", "schedule": "", "distros": "debian",
     "quick": true, "queued_at": "2026-01-01T00:00:00Z",
     "started_at": "2026-01-01T00:00:01Z", "uuid": "", "current": "",
     "round": 0, "rounds": 0, "done": 0, "total": 0, "run_id": -1'
status_reply() {
	echo "{\"ok\": true, \"pid\": 1, \"config\": \"(defaults)\",
	       \"state\": \"$1\", \"job\": {$job}, \"queue\": [],
	       \"schedules\": []}"
}

fake_daemon "$(status_reply waiting)"
"$BENCHORCH" status --socket "$sock" >"$tmp/out" 2>"$tmp/err"
rc=$?
wait "$fake"
[ $rc -eq 0 ] && grep -q "waiting for the run lock" "$tmp/out" &&
	! grep -q "run -1\|0 of 0" "$tmp/out"
ok $? "status of a job waiting for the run lock says so ($(sed -n 3p "$tmp/out"))"

fake_daemon "$(status_reply running)"
"$BENCHORCH" status --socket "$sock" >"$tmp/out" 2>"$tmp/err"
rc=$?
wait "$fake"
[ $rc -eq 0 ] && grep -q "no run opened yet" "$tmp/out" &&
	! grep -q "run -1\|0 of 0" "$tmp/out"
ok $? "status of a job before its run is opened says so ($(sed -n 3p "$tmp/out"))"

fake_daemon '{"ok": false, "usage": true, "error": "unknown distro '"'nosuch'"' (known: debian)"}'
"$BENCHORCH" submit --socket "$sock" --distros nosuch >"$tmp/out" 2>"$tmp/err"
rc=$?
wait "$fake"
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "benchorch submit: unknown distro 'nosuch' (known: debian)
Try 'benchorch submit --help'." ]
ok $? "a name the daemon refuses is submit's usage error (exit $rc: $(head -1 "$tmp/err"))"

fake_daemon '{"ok": false, "error": "the queue is full"}'
"$BENCHORCH" submit --socket "$sock" --distros debian >"$tmp/out" 2>"$tmp/err"
rc=$?
wait "$fake"
[ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "benchorch submit: the queue is full" ]
ok $? "another refusal: exit 1, 'benchorch submit: ...' (exit $rc: $(cat "$tmp/err"))"

fake_daemon '{"ok": false, "error": "no run in progress"}'
"$BENCHORCH" cancel --socket "$sock" >"$tmp/out" 2>"$tmp/err"
rc=$?
wait "$fake"
[ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "benchorch cancel: no run in progress" ]
ok $? "cancel's refusal: 'benchorch cancel: ...' (exit $rc: $(cat "$tmp/err"))"

done_testing
