#!/bin/sh
# t8120-slurm-cluster - benchorch on a real Slurm cluster of one node,
# started here (munged, slurmctld, slurmd; tests/slurm-lib.sh): a 2-task
# array of narrow --quick runs on the cached Debian image, merged by the
# merge job into one database with a report; then the same with one task
# given a distribution that does not exist and one cancelled before it
# started: they fail alone, the merge still merges the other and names
# them. Then the daemon sends a schedule with the word slurm to the
# cluster. The Slurm daemons are stopped by pid at the end.
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/slurm-lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
slurm_have || skip_all "needs Slurm: $slurm_why (scripts/deps.sh installs them)"

tmp=$(mktemp -d)
dpid=
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid"
	[ -n "${SLURM_CONF:-}" ] && scancel --user=root >/dev/null 2>&1
	slurm_stop
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! slurm_start "$tmp/cluster"; then
	echo "not ok 1 - a one-node Slurm cluster starts: $slurm_why"
	for f in "$tmp"/cluster/log/*; do
		[ -f "$f" ] && tail -5 "$f" | sed "s|^|# $(basename "$f"): |"
	done
	echo "1..1"
	exit 1
fi
ok 0 "a one-node Slurm cluster starts (munged, slurmctld, slurmd: pids $slurm_pids)"
q() { sqlite3 -batch -noheader -cmd '.timeout 10000' "$1" "$2"; }

# wait_gone JOB...: wait until squeue shows none of the jobs (10 minutes
# at most). Returns non-zero on a time-out.
wait_gone() {
	i=0
	while [ "$i" -lt 600 ]; do
		[ -z "$(squeue -h -j "$(echo "$*" | tr ' ' ',')" 2>/dev/null)" ] && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}

run_opts="--distros debian --quick --libs openssl --algos aes-128-ctr --state-dir $TEST_STATE"
sp="$tmp/spool"
# shellcheck disable=SC2086
"$BENCHORCH" slurm submit --nodes 2 --spool "$sp" --db "$tmp/central.db" \
	$run_opts >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "slurm submit --nodes 2 exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
job=$(sed -n 's/^job //p' "$tmp/out")
merge=$(sed -n 's/^merge //p' "$tmp/out")
[ -n "$job" ] && [ -n "$merge" ] && grep -qx "tasks ${job}_0 ${job}_1" "$tmp/out"
ok $? "prints the array job, its two tasks and the merge job: $(tr '\n' ' ' <"$tmp/out")"
"$BENCHORCH" slurm status --spool "$sp" "$job" >"$tmp/status0" 2>&1
ok $? "slurm status while it runs exits 0"
grep -Eq "^${job}_[01] .*(pending|running|done)" "$tmp/status0"
ok $? "status shows the tasks queued, running or done"
wait_gone "$job" "$merge"
ok $? "the tasks and the merge job finish"
h=$(hostname -s)
for t in 0 1; do
	[ "$(sed -n 1p "$sp/${job}_$t.exit" 2>/dev/null)" = 0 ] && [ -f "$sp/$h-${job}_$t.db" ] &&
		[ "$(sed -n 2p "$sp/${job}_$t.exit")" = "sha256:$(sha256sum <"$sp/$h-${job}_$t.db" | cut -d' ' -f1)" ]
	ok $? "task $t ran benchorch run on node $h, exit 0, its database $h-${job}_$t.db and its digest"
	[ $? -eq 0 ] || sed 's/^/# /' "$sp/${job}_$t.log"
done
grep -qx "2 of 2 tasks merged into '$tmp/central.db'" "$sp/$job.merge.log"
ok $? "the merge job merged both tasks"
[ $? -eq 0 ] || sed 's/^/# /' "$sp/$job.merge.log"
[ "$(q "$tmp/central.db" "select count(*) from runs where status = 'done'")" -eq 2 ] &&
	[ "$(q "$tmp/central.db" "select count(distinct uuid) from runs")" -eq 2 ]
ok $? "the central database holds both runs, with distinct uuids"
[ "$(q "$tmp/central.db" "select count(*) from results_v where library = 'openssl' and algorithm = 'aes-128-ctr'")" -gt 0 ] &&
	[ "$(q "$tmp/central.db" "select count(distinct run_id) from results_v")" -eq 2 ]
ok $? "with both runs' results"
grep -q "<svg" "$sp/$job.report.html" && grep -qx "report '$sp/$job.report.html'" "$sp/$job.merge.log"
ok $? "the merge job wrote the report"
"$BENCHORCH" slurm status --spool "$sp" "$job" >"$tmp/status" 2>&1
[ "$(grep -c "^${job}_[01] .* $h .*done .*$sp/$h-${job}_[01].db$" "$tmp/status")" -eq 2 ] &&
	grep -qx "merge job $merge: finished, report '$sp/$job.report.html'" "$tmp/status"
ok $? "status: both tasks done on $h, the merge finished"

# the same array from a --dry-run script adapted as a site would: task 1
# gets a distribution that does not exist, and task 2 is cancelled
# before it starts
sp2="$tmp/spool2"
# shellcheck disable=SC2086
"$BENCHORCH" slurm submit --dry-run --nodes 3 --spool "$sp2" --db "$tmp/central2.db" \
	$run_opts >"$tmp/script.sh"
ok $? "slurm submit --dry-run --nodes 3 exits 0"
sed "s/'--distros' 'debian'/'--distros' \"\$([ \"\$SLURM_ARRAY_TASK_ID\" = 1 ] \&\& echo nosuchdistro || echo debian)\"/" \
	"$tmp/script.sh" >"$tmp/adapted.sh"
grep -q nosuchdistro "$tmp/adapted.sh"
ok $? "the script adapted: task 1 asks for 'nosuchdistro'"
sh "$tmp/adapted.sh" >"$tmp/out" 2>"$tmp/err"
ok $? "the adapted script submits"
job=$(sed -n 's/^job //p' "$tmp/out")
merge=$(sed -n 's/^merge //p' "$tmp/out")
scancel "${job}_2"
ok $? "task 2 cancelled"
wait_gone "$job" "$merge"
ok $? "the tasks and the merge job finish"
[ "$(sed -n 1p "$sp2/${job}_0.exit")" = 0 ] && [ "$(sed -n 1p "$sp2/${job}_1.exit")" = 2 ] &&
	[ -z "$(sed -n 2p "$sp2/${job}_1.exit")" ] &&
	[ ! -e "$sp2/$h-${job}_1.db" ]
ok $? "task 0 succeeded, task 1 failed alone (exit 2, no database)"
[ "$(q "$tmp/central2.db" "select count(*) from runs")" -eq 1 ] &&
	[ "$(q "$tmp/central2.db" "select uuid from runs")" = "$(q "$sp2/$h-${job}_0.db" "select uuid from runs")" ]
ok $? "the merge still merged task 0's run"
grep -qx "task ${job}_1 on node $h: missing: 'benchorch run' exited with status 2; log '$sp2/${job}_1.log':" "$sp2/$job.merge.log" &&
	grep -q "^  | benchorch run: unknown distro 'nosuchdistro'" "$sp2/$job.merge.log"
ok $? "the merge names the failed task, its node, why and its log"
grep -qx "task ${job}_2 on node (none): missing: never started (no node recorded); log '$sp2/${job}_2.log':" "$sp2/$job.merge.log" &&
	grep -qx "1 of 3 tasks merged into '$tmp/central2.db'; 2 missing" "$sp2/$job.merge.log"
ok $? "and the cancelled task, which never started"
[ $? -eq 0 ] || sed 's/^/# /' "$sp2/$job.merge.log"
grep -q "<svg" "$sp2/$job.report.html"
ok $? "the report of what was merged is written"
"$BENCHORCH" slurm status --spool "$sp2" "$job" >"$tmp/status" 2>&1
grep -q "^${job}_0 .* $h .*done" "$tmp/status" &&
	grep -q "^${job}_1 .* $h .*failed (exit status 2)" "$tmp/status" &&
	grep -q "^${job}_2 .*never started" "$tmp/status"
ok $? "status: done, failed, never started"

# the daemon sends a schedule with the word slurm to the cluster
exec 9>"$TEST_STATE/t6-daemon.lock"
flock 9
at=$(TZ=UTC date -d '+4 sec' +%H:%M:%S)
sp4="$tmp/spool4"
{
	echo "state-dir $TEST_STATE"
	echo "database $tmp/daemon.db"
	echo "socket $tmp/daemon.sock"
	echo "runner nspawn"
	echo "schedule t8120-slurm every day at $at distros debian libs openssl quick no-refresh slurm nodes=1 spool=$sp4"
} >"$tmp/daemon.conf"
TZ=UTC "$BENCHORCH" daemon --foreground --config "$tmp/daemon.conf" >"$tmp/daemon.out" 2>"$tmp/daemon.log" &
dpid=$!
i=0
while ! grep -q "schedule 't8120-slurm' submitted to slurm" "$tmp/daemon.log" && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
line=$(grep "schedule 't8120-slurm' submitted to slurm" "$tmp/daemon.log")
job=$(echo "$line" | sed -n 's/.*submitted to slurm: job \([0-9]*\),tasks .*/\1/p')
merge=$(echo "$line" | sed -n 's/.*,merge \([0-9]*\)$/\1/p')
[ -n "$job" ] && [ -n "$merge" ] && echo "$line" | grep -q ",tasks ${job}_0,"
ok $? "the daemon submits the slurm schedule when it comes due and logs the job ids: ${line#*: }"
[ $? -eq 0 ] || sed 's/^/# /' "$tmp/daemon.log"
"$BENCHORCH" status --socket "$tmp/daemon.sock" >"$tmp/dstatus" 2>&1 &&
	grep -q "idle" "$tmp/dstatus"
ok $? "and stays idle: the run is the cluster's"
wait_gone "$job" "$merge"
[ "$(q "$tmp/daemon.db" "select count(*) from runs where status = 'done' and host = '$h'")" -eq 1 ] &&
	[ "$(q "$tmp/daemon.db" "select count(distinct library) from results_v")" -eq 1 ] &&
	grep -qx "1 of 1 task merged into '$tmp/daemon.db'" "$sp4/$job.merge.log"
ok $? "its run, openssl alone, is merged into the daemon's database"
kill -TERM "$dpid"
wait "$dpid"
ok $? "the daemon stops with status 0"
dpid=
sed -i '/^t8120-/d' "$TEST_STATE/schedules" 2>/dev/null
flock -u 9

# validation before anything is submitted
"$BENCHORCH" slurm submit --nodes 2 --spool "$tmp/spool3" --distros nosuchdistro \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ -z "$(squeue -h)" ] && [ ! -e "$tmp/spool3" ] &&
	grep -q "^benchorch slurm submit: unknown distro 'nosuchdistro'" "$tmp/err"
ok $? "a bad distribution given to submit is refused with run's error, nothing queued"

pids=$slurm_pids
slurm_stop
left=
for p in $pids; do
	kill -0 "$p" 2>/dev/null && left="$left $p"
done
[ -z "$left" ]
ok $? "munged, slurmctld and slurmd stopped by pid${left:+ (left:$left)}"
[ -z "$(stray_guests)" ]
ok $? "no guest or benchorch process left behind"

done_testing
