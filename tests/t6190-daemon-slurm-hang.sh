#!/bin/sh
# t6190-daemon-slurm-hang - a schedule sent to Slurm whose sbatch never
# answers: the daemon goes on answering status while the submission
# hangs, and SIGTERM stops it (and the hanging sbatch) within seconds,
# without SIGKILL. A stand-in sbatch in PATH sleeps; no cluster, no image.
. "${top_srcdir:-.}/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (the daemon)"
command -v timeout >/dev/null 2>&1 || skip_all "needs timeout"

tmp=$(mktemp -d)
dpid=
cleanup() {
	[ -n "$dpid" ] && kill -KILL "$dpid" 2>/dev/null
	[ -s "$tmp/sbatch.pid" ] && kill -KILL "$(cat "$tmp/sbatch.pid")" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/bin" "$tmp/state"
cat >"$tmp/bin/sbatch" <<'EOS'
#!/bin/sh
echo $$ >"$STUB_DIR/sbatch.pid"
exec sleep 1000
EOS
chmod +x "$tmp/bin/sbatch"
STUB_DIR=$tmp
export STUB_DIR
sock="$tmp/control.sock"
{
	echo "state-dir $tmp/state"
	echo "database $tmp/results.db"
	echo "socket $sock"
	echo "schedule hang every 1h distros debian slurm spool=$tmp/spool"
} >"$tmp/benchorch.conf"
# a last run long ago: the schedule was missed and runs at once
echo "hang 1000000000" >"$tmp/state/schedules"

PATH=$tmp/bin:$PATH TZ=UTC "$BENCHORCH" daemon --foreground \
	--config "$tmp/benchorch.conf" >"$tmp/daemon.out" 2>"$tmp/daemon.log" &
dpid=$!
wait_for 20 '[ -s "$tmp/sbatch.pid" ]'
ok $? "the schedule is submitted: the stand-in sbatch runs (and hangs)"
sleep 1
timeout 5 "$BENCHORCH" status --socket "$sock" >"$tmp/status" 2>&1
ok $? "status answers while sbatch hangs ($(head -1 "$tmp/status"))"
kill -TERM "$dpid"
wait_for 15 '! kill -0 "$dpid" 2>/dev/null'
stopped=$?
[ $stopped -eq 0 ]
ok $? "SIGTERM stops the daemon within 15 s"
if [ $stopped -eq 0 ]; then
	wait "$dpid"
	rc=$?
	dpid=
	[ $rc -eq 0 ]
	ok $? "and it exits 0 (got $rc)"
else
	ok 1 "and it exits 0 (it did not stop)"
fi
wait_for 5 '! kill -0 "$(cat "$tmp/sbatch.pid")" 2>/dev/null'
ok $? "the hanging sbatch is stopped with it"
grep -q "schedule 'hang': cannot submit to slurm: 'benchorch slurm submit' did not finish" "$tmp/daemon.log"
ok $? "the log says the submission did not finish"
[ -n "$(sed 's/^/# /' "$tmp/daemon.log" | tail -5)" ] && sed 's/^/# /' "$tmp/daemon.log" | tail -5

done_testing
