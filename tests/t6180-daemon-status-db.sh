#!/bin/sh
# t6180-daemon-status-db - what `status` says of the daemon's database:
# nothing when there is none yet (no run, nothing wrong), the newest run
# of a sound one, and one line saying why when it exists but cannot be
# read (a damaged schema, a file that is no database), never an empty
# answer. Its JSON carries the reason as database_error. A daemon with no
# schedule on a private socket; no run is started.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
dpid=
trap '[ -n "$dpid" ] && kill -TERM "$dpid" 2>/dev/null; rm -rf "$tmp"' EXIT
sock=$tmp/control.sock
mkdir "$tmp/state"

# conf DB: the daemon's configuration with database DB
conf() {
	printf 'state-dir %s\ndatabase %s\nsocket %s\n' "$tmp/state" "$1" "$sock" \
		>"$tmp/benchorch.conf"
}
# json EXPR: EXPR (Python, r = the status reply) holds
json() {
	"$BENCHORCH" status --socket "$sock" --json >"$tmp/st.json" 2>/dev/null &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/st.json" "$1"
}

"$top_builddir/tests/fixtures/results-mkdb" "$tmp/r.db" &&
	"$BENCHORCH" export --db "$tmp/r.db" -o "$tmp/ok.db" >/dev/null
ok $? "a fixture database in one file"
newest=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select max(id) from runs").fetchone()[0])' "$tmp/ok.db")
# the schema's pages (as in t4036) overwritten: every query fails
cp "$tmp/ok.db" "$tmp/bad.db" &&
	head -c $((4096 * 10)) /dev/zero | tr '\000' '\125' |
	dd of="$tmp/bad.db" bs=4096 seek=19 conv=notrunc 2>/dev/null
ok $? "a copy with its schema damaged"
head -c 8192 /dev/urandom >"$tmp/noise.db"

conf "$tmp/none.db"
daemon_start
ok $? "a daemon on a database that does not exist yet"
"$BENCHORCH" status --socket "$sock" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ! grep -q "^database:" "$tmp/out" && [ ! -s "$tmp/err" ]
ok $? "no database yet: status exits 0 and shows no database line"
json 'r["database_error"] is None and r["latest_run"] is None'
ok $? "and its JSON has database_error and latest_run null"
[ ! -e "$tmp/none.db" ]
ok $? "status created no database"

# unreadable DESC MORE EXPR: status (exit $rc, output $tmp/out) has one
# database line, "cannot read it" naming $tmp/daemon.db followed by the
# pattern MORE; its JSON has no latest run and EXPR holds
unreadable() {
	[ $rc -eq 0 ] && [ "$(grep -c '^database:' "$tmp/out")" -eq 1 ] &&
		grep -q "^database:  cannot read it: .*'$tmp/daemon.db'$2" "$tmp/out"
	ok $? "$1: one line names the database ($(grep '^database:' "$tmp/out"))"
	json 'r["latest_run"] is None and '"$3"
	ok $? "$1: database_error in the JSON says why"
}

for case in ok bad noise; do
	cp "$tmp/$case.db" "$tmp/daemon.db" || exit 1
	n=$(grep -c "configuration reloaded" "$tmp/daemon.log")
	conf "$tmp/daemon.db"
	kill -HUP "$dpid"
	wait_for 10 '[ "$(grep -c "configuration reloaded" "$tmp/daemon.log")" -gt '"$n"' ]' ||
		diag "the daemon did not reload: $(tail -3 "$tmp/daemon.log")"
	"$BENCHORCH" status --socket "$sock" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $case in
	ok)
		[ $rc -eq 0 ] && grep -q "^database:  newest run $newest, " "$tmp/out" &&
			! grep -q "cannot read" "$tmp/out"
		ok $? "a sound database: its newest run $newest ($(grep '^database:' "$tmp/out"))"
		json 'r["database_error"] is None and r["latest_run"]["id"] == '"$newest"
		ok $? "and database_error null in the JSON"
		;;
	bad)
		unreadable "a damaged schema" ".*malformed" \
			'r["last_verdict"] is None and "malformed" in r["database_error"]'
		;;
	noise)
		unreadable "a file that is no database" "" \
			'"daemon.db" in r["database_error"]'
		;;
	esac
done
daemon_stop
ok $? "the daemon stops cleanly (exit $stop_rc)"
done_testing
