#!/bin/sh
# t6160-daemon-hup-socket - a real daemon: a hang-up sent to all its
# processes reloads the daemon and leaves its run alone; a second daemon on
# the same socket refuses while the first answers; `submit` is checked as
# `run` is and stored whole; a reload with an empty or cut-short file
# keeps the old configuration; status shows the newest run in the
# database, a manual one included, a 'cancelling' state, and tells a user
# without permission so; a reload that changes state-dir keeps the state
# directory's database.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
daemon_setup

st() {
	daemon_status --json >"$tmp/st.json" 2>/dev/null &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/st.json" "$1"
}

daemon_write_conf "schedule t6160-never every 30d distros debian quick no-refresh"
sed -i '/^t6160-/d' "$TEST_STATE/schedules" 2>/dev/null
daemon_start
ok $? "the daemon starts"
daemon_status | grep -q "^schedule:  t6160-never next [^,]*$"
ok $? "a schedule that never ran shows no last run: $(daemon_status | grep schedule:)"

# A second daemon, another state directory, the same socket.
mkdir "$tmp/s2"
printf 'state-dir %s\ndatabase %s\nsocket %s\n' "$tmp/s2" "$tmp/s2/r.db" "$sock" >"$tmp/s2.conf"
"$BENCHORCH" daemon --foreground --config "$tmp/s2.conf" >/dev/null 2>"$tmp/second"
rc=$?
[ $rc -eq 3 ] && grep -q "another daemon answers on '$sock'" "$tmp/second"
ok $? "a second daemon on the same socket refuses (exit $rc: $(cat "$tmp/second"))"
st 'r["pid"] == '"$dpid"
ok $? "and the first still answers on it"

# submit: run's checks, run's messages, usage errors (exit 2).
"$BENCHORCH" submit --socket "$sock" --distros debian --libs openssl,nosuchlib 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "^benchorch submit: --libs: unknown name 'nosuchlib' (known: openssl, " "$tmp/err"
ok $? "submit --libs nosuchlib is refused (exit $rc: $(cat "$tmp/err"))"
"$BENCHORCH" run --distros debian --libs openssl,nosuchlib 2>"$tmp/err2"
[ "$(sed -n 's/^benchorch run: //p' "$tmp/err2")" = "$(sed -n 's/^benchorch submit: //p' "$tmp/err")" ]
ok $? "with the message of run --libs"
"$BENCHORCH" submit --socket "$sock" --distros debian,debian 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "'debian' is named twice in --distros" "$tmp/err"
ok $? "submit of a distribution named twice is refused: $(cat "$tmp/err")"
st 'r["state"] == "idle" and r["queue"] == []'
ok $? "nothing was queued"

# A hang-up to every process of the service during a run (what
# `systemctl kill -s HUP` or a closed terminal does).
"$BENCHORCH" submit --socket "$sock" --distros debian --quick --libs openssl >"$tmp/sub"
ok $? "submit: $(cat "$tmp/sub")"
daemon_wait_guest
ok $? "the run's guest started"
daemon_status >"$tmp/cur"
grep -Eq "job [0-9]+: submit, distros debian, libs openssl, quick$" "$tmp/cur"
ok $? "status names the running job's libraries: $(grep ' job ' "$tmp/cur" | head -1)"
sleep 0.5
procs=$(descendants "$dpid")
for p in $dpid $procs; do kill -HUP "$p" 2>/dev/null; done
wait_for 10 'grep -q "configuration reloaded" "$tmp/daemon.log"'
ok $? "HUP to all $(echo $procs | wc -w) processes: the daemon reloads"
wait_for 300 "st 'r[\"state\"] == \"idle\"'"
ok $? "the run ends"
[ "$(daemon_sql "select status from runs order by id desc limit 1")" = done ]
ok $? "and is stored as done, not aborted"
st 'r["last"]["status"] == "done" and r["last"]["exit"] == 0'
ok $? "status: the last job is done, exit 0"
daemon_sql "select command_line from runs order by id desc limit 1" |
	grep -q -- "^benchorch daemon --submitted --distros debian --libs openssl --quick$"
ok $? "its stored command line is the whole request: $(daemon_sql "select command_line from runs order by id desc limit 1")"
daemon_clean_after_job
ok $? "no job or guest process left"

# A manual run shows in status as the newest run in the database.
"$BENCHORCH" run --no-confirm --distros debian --quick --libs openssl --runner nspawn \
	--state-dir "$TEST_STATE" --db "$db" >/dev/null 2>"$tmp/manual"
ok $? "a manual run"
id=$(daemon_sql "select max(id) from runs")
st 'r["latest_run"]["id"] == '"$id"' and r["latest_run"]["command_line"].startswith("benchorch run ")'
ok $? "status --json: latest_run is the manual run $id"
daemon_status | grep -q "^database:  newest run $id, done, started .*: benchorch run --no-confirm --distros debian"
ok $? "status: $(daemon_status | grep database:)"

# cancelling: between the cancel and the end of the job.
"$BENCHORCH" submit --socket "$sock" --distros debian --quick --libs openssl >/dev/null
daemon_wait_guest
prev=$(daemon_status --json | python3 -c 'import json, sys; print(json.load(sys.stdin).get("last", {}).get("id", 0))')
# The job may end between the cancel and the status request: then the
# daemon is idle and its last job, the new one, was cancelled.
"$BENCHORCH" cancel --socket "$sock" >/dev/null &&
	st '(r["state"] == "cancelling" and r["job"]["id"] != '"$prev"' or
	     r["state"] == "idle" and r["last"]["id"] != '"$prev"' and
	     r["last"]["status"] == "cancelled")'
ok $? "status right after cancel: cancelling, or idle with the job cancelled ($(grep -m1 '"state"' "$tmp/st.json"))"
wait_for 60 "st 'r[\"state\"] == \"idle\" and r[\"last\"][\"status\"] == \"cancelled\"'"
ok $? "then idle, the last job cancelled"

# Who may ask.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$tmp"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BENCHORCH" status --socket "$sock" >/dev/null 2>"$tmp/err"
	rc=$?
	chmod 700 "$tmp"
	[ $rc -eq 3 ] && grep -q "not allowed to use the daemon's socket '$sock'" "$tmp/err"
	ok $? "another user is told it may not use the socket (exit $rc: $(cat "$tmp/err"))"
else
	echo "ok $((tap_n += 1)) # SKIP needs the user nobody and setpriv"
fi

# Reloads with an empty or cut-short file keep the old configuration.
cp "$tmp/benchorch.conf" "$tmp/good.conf"
: >"$tmp/benchorch.conf"
kill -HUP "$dpid"
wait_for 10 'grep -q "reload failed, keeping the old configuration: .* is empty" "$tmp/daemon.log"'
ok $? "an empty file is refused on reload"
head -c 60 "$tmp/good.conf" >"$tmp/benchorch.conf"
kill -HUP "$dpid"
wait_for 10 'grep -q "reload failed, keeping the old configuration: .* cut short" "$tmp/daemon.log"'
ok $? "a file cut short is refused on reload"
st '[s["name"] for s in r["schedules"]] == ["t6160-never"]'
ok $? "the old configuration stays"
daemon_stop
ok $? "the daemon stops"

# state-dir changed by a reload: kept until a restart, with its database.
mkdir "$tmp/s1"
cp "$db" "$tmp/s1/results.db"
id=$(sqlite3 -batch -noheader "$tmp/s1/results.db" "select max(id) from runs")
printf 'state-dir %s\nsocket %s\n' "$tmp/s1" "$sock" >"$tmp/benchorch.conf"
daemon_start
ok $? "a daemon on the state directory s1 (database s1/results.db)"
st 'r["latest_run"]["id"] == '"$id"
ok $? "status reads s1/results.db"
printf 'state-dir %s\nsocket %s\n' "$tmp/s2" "$sock" >"$tmp/benchorch.conf"
kill -HUP "$dpid"
wait_for 10 'grep -q "state-dir changes take effect at the next start" "$tmp/daemon.log"'
ok $? "a reload to s2 says the state directory is kept"
st 'r["latest_run"] is not None and r["latest_run"]["id"] == '"$id"
ok $? "and the database stays s1/results.db"
daemon_stop
ok $? "the daemon stops"
sed -i '/^t6160-/d' "$TEST_STATE/schedules"
sed 's/^/# /' "$tmp/daemon.log"

done_testing
