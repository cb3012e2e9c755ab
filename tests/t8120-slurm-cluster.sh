#!/bin/sh
# t8120-slurm-cluster - benchorch on a real Slurm cluster of one node,
# started here (munged, slurmctld, slurmd; tests/slurm-lib.sh): --nodes 2
# and --nodes 2000 are refused by sbatch (one node: no node is measured
# twice); a job of one node runs a narrow --quick run on the cached
# Debian image, merged by the merge job into one database with a report;
# then the same with the task given a distribution that does not exist:
# the merge names it. Then the daemon sends a schedule with the word
# slurm to the cluster. The Slurm daemons are stopped by pid at the end.
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
h=$(hostname -s)

# --nodes N is one job of N nodes, one task on each: never two tasks on
# one node. This cluster has one node: --nodes 2 is refused by sbatch
# --test-only, in its own words, before anything is queued (this
# cluster, as Slurm by default, does not enforce partition limits at
# submission: the job would wait for ever); so is --nodes 2000
for n in 2 2000; do
	sp="$tmp/spool-n$n"
	# shellcheck disable=SC2086
	"$BENCHORCH" slurm submit --nodes $n --spool "$sp" --db "$tmp/central-n$n.db" \
		$run_opts >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && [ ! -s "$tmp/out" ] && [ -z "$(squeue -h)" ] &&
		grep -q "Requested node configuration is not available" "$tmp/err" &&
		grep -qx "benchorch: sbatch refused the job of $n nodes, one task on each (no node is measured twice: the partition needs $n nodes up; sinfo lists them) (its message is above)" "$tmp/err" &&
		[ -z "$(find "$sp" -name '*.node' -o -name '*.db' -o -name '*.tasks')" ]
	ok $? "--nodes $n on a cluster of one node: sbatch's reason and which job it refused, exit 3, nothing queued or measured"
	sed 's/^/# /' "$tmp/err"
done

sp="$tmp/spool"
# shellcheck disable=SC2086
"$BENCHORCH" slurm submit --nodes 1 --spool "$sp" --db "$tmp/central.db" \
	$run_opts >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "slurm submit --nodes 1 exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
job=$(sed -n 's/^job //p' "$tmp/out")
merge=$(sed -n 's/^merge //p' "$tmp/out")
[ -n "$job" ] && [ -n "$merge" ] && grep -qx "tasks ${job}_0" "$tmp/out"
ok $? "prints the job, its task and the merge job: $(tr '\n' ' ' <"$tmp/out")"
"$BENCHORCH" slurm status --spool "$sp" "$job" >"$tmp/status0" 2>&1
ok $? "slurm status while it runs exits 0"
grep -Eq "^${job}_0 .*(pending|running|done)" "$tmp/status0"
ok $? "status shows the task queued, running or done"
wait_gone "$job" "$merge"
ok $? "the job and the merge job finish"
[ "$(sed -n 1p "$sp/${job}_0.exit" 2>/dev/null)" = 0 ] && [ -f "$sp/$h-${job}_0.db" ] &&
	[ "$(sed -n 2p "$sp/${job}_0.exit")" = "sha256:$(sha256sum <"$sp/$h-${job}_0.db" | cut -d' ' -f1)" ] &&
	grep -qx "benchorch: task ${job}_0 on node $h" "$sp/${job}_0.log"
ok $? "the task ran benchorch run on node $h, exit 0, its database $h-${job}_0.db, its digest and its log"
[ $? -eq 0 ] || sed 's/^/# /' "$sp/${job}_0.log" "$sp/$job.log"
grep -qx "1 of 1 task merged into '$tmp/central.db'" "$sp/$job.merge.log"
ok $? "the merge job merged the task"
[ $? -eq 0 ] || sed 's/^/# /' "$sp/$job.merge.log"
[ "$(q "$tmp/central.db" "select count(*) from runs where status = 'done'")" -eq 1 ] &&
	[ "$(q "$tmp/central.db" "select count(*) from results_v where library = 'openssl' and algorithm = 'aes-128-ctr'")" -gt 0 ]
ok $? "the central database holds the run and its results"
grep -q "<svg" "$sp/$job.report.html" && grep -qx "report '$sp/$job.report.html'" "$sp/$job.merge.log"
ok $? "the merge job wrote the report"
"$BENCHORCH" slurm status --spool "$sp" "$job" >"$tmp/status" 2>&1
grep -q "^${job}_0 .* $h .*done .*$sp/$h-${job}_0.db$" "$tmp/status" &&
	grep -qx "merge job $merge: finished, report '$sp/$job.report.html'" "$tmp/status"
ok $? "status: the task done on $h, the merge finished"

# a --dry-run script adapted as a site would: the task gets a
# distribution that does not exist; it fails, and the merge names it
sp2="$tmp/spool2"
# shellcheck disable=SC2086
"$BENCHORCH" slurm submit --dry-run --nodes 1 --spool "$sp2" --db "$tmp/central2.db" \
	$run_opts >"$tmp/script.sh"
ok $? "slurm submit --dry-run --nodes 1 exits 0"
sed "s/'--distros' 'debian'/'--distros' nosuchdistro/" "$tmp/script.sh" >"$tmp/adapted.sh"
grep -q nosuchdistro "$tmp/adapted.sh"
ok $? "the script adapted: the task asks for 'nosuchdistro'"
sh "$tmp/adapted.sh" >"$tmp/out" 2>"$tmp/err"
ok $? "the adapted script submits"
job=$(sed -n 's/^job //p' "$tmp/out")
merge=$(sed -n 's/^merge //p' "$tmp/out")
wait_gone "$job" "$merge"
ok $? "the job and the merge job finish"
[ "$(sed -n 1p "$sp2/${job}_0.exit")" = 2 ] && [ -z "$(sed -n 2p "$sp2/${job}_0.exit")" ] &&
	[ ! -e "$sp2/$h-${job}_0.db" ]
ok $? "the task failed (exit 2, no database)"
grep -qx "task ${job}_0 on node $h: missing: 'benchorch run' exited with status 2; log '$sp2/${job}_0.log':" "$sp2/$job.merge.log" &&
	grep -q "^  | benchorch run: unknown distro 'nosuchdistro'" "$sp2/$job.merge.log" &&
	grep -qx "0 of 1 task merged into '$tmp/central2.db'; 1 missing" "$sp2/$job.merge.log"
ok $? "the merge names the failed task, its node, why and its log"
[ $? -eq 0 ] || sed 's/^/# /' "$sp2/$job.merge.log"
"$BENCHORCH" slurm status --spool "$sp2" "$job" >"$tmp/status" 2>&1
grep -q "^${job}_0 .* $h .*failed (exit status 2)" "$tmp/status"
ok $? "status: failed"

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
