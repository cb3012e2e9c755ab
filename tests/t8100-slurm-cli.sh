#!/bin/sh
# t8100-slurm-cli - `benchorch slurm submit` without a cluster: its options,
# RUN-OPTIONS checked with run's own errors before anything is submitted,
# the --dry-run script, and that script run against stand-in sbatch and
# scontrol commands that record what they are asked.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

# stand-ins: sbatch records its arguments and the script on stdin and
# answers a job id (and a cluster name, as --parsable does on a
# federation); scontrol expands "n[1-2],x" as Slurm would
# stub_sbatch: write $tmp/bin/sbatch, a stand-in whose --test-only is
# recorded apart and answered as a cluster that can run the job, and
# which then runs the shell text on stdin (a submission)
stub_sbatch() {
	{
		cat <<'EOF'
#!/bin/sh
for a; do
	[ "$a" = --test-only ] || continue
	printf '%s\n' "$@" >"$STUB_DIR/sbatch.test.args"
	cat >/dev/null
	echo "sbatch: Job 1 to start at 2026-01-01T00:00:00 using 2 processors on nodes n1 in partition bench" >&2
	exit 0
done
EOF
		cat
	} >"$tmp/bin/sbatch"
}
stub_sbatch <<'EOF'
n=$(($(cat "$STUB_DIR/count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$STUB_DIR/count"
printf '%s\n' "$@" >"$STUB_DIR/sbatch.$n.args"
cat >"$STUB_DIR/sbatch.$n.script"
echo "$((700 + n));cluster"
EOF
cat >"$tmp/bin/scontrol" <<'EOF'
#!/bin/sh
[ "$1 $2 $3" = "show hostnames n[1-2],x" ] && printf 'n1\nn2\nx\n' && exit 0
[ "$1 $2 $3" = "show hostnames n[1-2],n1" ] && printf 'n1\nn2\nn1\n' && exit 0
exit 1
EOF
chmod +x "$tmp/bin/sbatch" "$tmp/bin/scontrol"
STUB_DIR=$tmp
export STUB_DIR

"$BENCHORCH" slurm --help >"$tmp/out"
ok $? "slurm --help exits 0"
grep -q "^Usage: benchorch slurm submit" "$tmp/out" &&
	grep -q "benchorch slurm status" "$tmp/out"
ok $? "--help shows submit and status"
"$BENCHORCH" --help | grep -q "^  slurm "
ok $? "slurm is in the command list"

"$BENCHORCH" slurm frobnicate 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown subcommand 'frobnicate'" "$tmp/err"
ok $? "an unknown subcommand is a usage error"

# RUN-OPTIONS: the same errors, word for word, as benchorch run
for bad in "--distros nosuchdistro" "--libs openssl,foo" "--algos aes-999" \
	"--repetitions 0" "--seed x" "--runner kvm" "--frobnicate"; do
	# shellcheck disable=SC2086
	PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/spool" $bad \
		>"$tmp/out" 2>"$tmp/slurm.err"
	rc=$?
	# shellcheck disable=SC2086
	"$BENCHORCH" run $bad >/dev/null 2>"$tmp/run.err"
	# run's message, in slurm submit's name
	sed 's/^benchorch run: /benchorch slurm submit: /; s/benchorch run --help/benchorch slurm submit --help/' \
		"$tmp/run.err" >"$tmp/want.err"
	[ $rc -eq 2 ] && [ -s "$tmp/run.err" ] && cmp -s "$tmp/slurm.err" "$tmp/want.err" &&
		grep -q "^benchorch slurm submit: " "$tmp/slurm.err" &&
		[ ! -e "$tmp/count" ] && [ ! -s "$tmp/out" ]
	ok $? "submit $bad: exit 2 with run's error as slurm submit's ($(head -1 "$tmp/slurm.err")), nothing submitted"
done

"$BENCHORCH" slurm submit --nodes 2 --nodelist n1 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch slurm submit: --nodes and --nodelist exclude each other" "$tmp/err"
ok $? "--nodes and --nodelist together are a usage error"
"$BENCHORCH" slurm submit --nodes 0 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--nodes: '0' is out of range" "$tmp/err"
ok $? "--nodes 0 is a usage error"
"$BENCHORCH" slurm submit --partition 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "option '--partition' needs a value" "$tmp/err"
ok $? "an option without its value is a usage error"

# what would not work on the nodes is refused before anything is
# submitted: the node-local default spool and database, a relative
# --state-dir, a --time sbatch does not take (exit 2, one line, the hint)
refused() {
	want=$1
	shift
	PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/count" ] &&
		[ "$(head -1 "$tmp/err")" = "benchorch slurm submit: $want" ] &&
		[ "$(sed -n 2p "$tmp/err")" = "Try 'benchorch slurm submit --help'." ]
	ok $? "submit $*: refused (exit $rc): $(head -1 "$tmp/err")"
}
for dry in "" --dry-run; do
	refused "needs --spool DIR and --db PATH: a directory and a database path every node and this host share (the defaults, under the state directory, are local to each node)" \
		$dry --distros debian
	refused "needs --db PATH: a database path every node and this host share (the default, under the state directory, is local to each node)" \
		$dry --spool "$tmp/spool" --distros debian
	refused "needs --spool DIR: a directory every node and this host share (the default, under the state directory, is local to each node)" \
		$dry --db "$tmp/central.db" --distros debian
done
for st in "--state-dir rel/state" "--state-dir=rel/state"; do
	# shellcheck disable=SC2086
	refused "--state-dir must be an absolute path, not 'rel/state': the tasks run on other nodes, in another directory" \
		--spool "$tmp/spool" --db "$tmp/central.db" --distros debian $st
done
for t in garbage 1:60 1-24 1:2:3:4 5h; do
	refused "--time: '$t' is not a Slurm time limit (MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES, DAYS-HOURS:MINUTES:SECONDS or UNLIMITED)" \
		--time "$t" --spool "$tmp/spool" --db "$tmp/central.db" --distros debian
done
for t in 90 90:30 1:00:00 2-12 2-12:30 2-12:30:15 UNLIMITED; do
	"$BENCHORCH" slurm submit --dry-run --time "$t" --spool "$tmp/spool" \
		--db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err" &&
		grep -q "^limit='--time=$t'$" "$tmp/out"
	ok $? "--time $t is one of sbatch's forms: passed on"
done
[ ! -e "$tmp/spool" ]
ok $? "nothing refused made the spool"

# --dry-run: the script on stdout, nothing submitted
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --dry-run --nodes 3 \
	--partition bench --time 1:00:00 --spool "$tmp/spool" --db "$tmp/central.db" \
	--distros debian --quick --libs openssl --algos "aes-128-ctr" \
	>"$tmp/script.sh" 2>"$tmp/err"
ok $? "--dry-run exits 0"
[ ! -e "$tmp/count" ] && [ ! -e "$tmp/spool" ]
ok $? "--dry-run submits nothing and creates no spool"
sh -n "$tmp/script.sh"
ok $? "the script is valid sh"
grep -q "^'$(cd "$top_builddir" && pwd)/benchorch' run '--distros' 'debian' '--quick' '--libs' 'openssl' '--algos' 'aes-128-ctr' --db \"\$local/results.db\"$" "$tmp/script.sh"
ok $? "each task runs benchorch run with the RUN-OPTIONS and its own --db, on the node"
grep -q -- "--db '$tmp/central.db'" "$tmp/script.sh" &&
	! grep -q "'--db' '$tmp/central.db'" "$tmp/script.sh"
ok $? "the central --db goes to the merge job, not to the tasks"

# the script run against the stand-ins
(cd "$tmp" && PATH=$tmp/bin:$PATH sh "$tmp/script.sh") >"$tmp/out" 2>"$tmp/err"
ok $? "the dry-run script runs"
[ "$(cat "$tmp/out")" = "job 701
tasks 701_0 701_1 701_2
merge 702" ]
ok $? "it prints the job, its tasks and the merge job: $(tr '\n' ' ' <"$tmp/out")"
a="$tmp/sbatch.1.args"
grep -qx -- "--exclusive" "$a" && grep -qx -- "--nodes=3" "$a" &&
	grep -qx -- "--ntasks-per-node=1" "$a" && grep -qx -- "--no-kill" "$a" &&
	! grep -q -- "--array" "$a" && grep -qx -- "--partition=bench" "$a" &&
	grep -qx -- "--time=1:00:00" "$a" && grep -qx -- "--output=$tmp/spool/%j.log" "$a"
ok $? "one job of 3 nodes (3 distinct nodes, not an array), one task on each, exclusive, partition, time limit"
t="$tmp/sbatch.test.args"
grep -qx -- "--test-only" "$t" && grep -qx -- "--nodes=3" "$t" && grep -qx -- "--ntasks-per-node=1" "$t" &&
	grep -qx -- "--partition=bench" "$t" && grep -qx -- "--exclusive" "$t"
ok $? "sbatch --test-only tries the same job first"
m="$tmp/sbatch.2.args"
grep -qx -- "--dependency=afterany:701" "$m" && grep -qx -- "--partition=bench" "$m" &&
	grep -qx -- "--export=ALL,BENCHORCH_SLURM_JOB=701" "$m" &&
	grep -q "slurm collect --spool '$tmp/spool' --db '$tmp/central.db' \"\$BENCHORCH_SLURM_JOB\"" "$tmp/sbatch.2.script"
ok $? "the merge job waits for the job with afterany and runs slurm collect"
[ "$(cat "$tmp/spool/701.tasks" | tr '\n' ' ')" = "701_0 701_1 701_2 " ] &&
	[ "$(cat "$tmp/spool/701.merge")" = 702 ]
ok $? "the spool lists the tasks and the merge job"

# the job's script itself, run as Slurm would run it on the first node of
# job 701, with a stand-in srun that runs the task as task 1 of the step
# (SLURM_PROCID set by the caller) and a stand-in benchorch
cat >"$tmp/bin/srun" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$STUB_DIR/srun.args"
while [ $# -gt 0 ]; do case $1 in --*) shift ;; *) break ;; esac; done
exec "$@"
EOF
chmod +x "$tmp/bin/srun"
sed "s|^'[^']*/benchorch' run|'$tmp/bin/fake-benchorch' run|" "$tmp/sbatch.1.script" >"$tmp/task.sh"
cat >"$tmp/bin/fake-benchorch" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$STUB_DIR/fake.args"
echo "benchorch run: exits 3" >&2
exit 3
EOF
chmod +x "$tmp/bin/fake-benchorch"
SLURM_JOB_ID=701 SLURM_PROCID=1 SLURM_JOB_NUM_NODES=3 PATH=$tmp/bin:$PATH \
	sh "$tmp/task.sh" 2>"$tmp/task.err"
rc=$?
s="$tmp/srun.args"
grep -qx -- "--nodes=3" "$s" && grep -qx -- "--ntasks=3" "$s" && grep -qx -- "--ntasks-per-node=1" "$s" &&
	grep -qx -- "--kill-on-bad-exit=0" "$s" && grep -qx -- "--output=$tmp/spool/%j_%t.log" "$s"
ok $? "the job runs the task with srun once on each of its nodes, one failing stopping no other, a log per task"
h=$(hostname -s)
local=$(tail -1 "$tmp/fake.args")
[ $rc -eq 3 ] && [ "$(sed -n 1p "$tmp/spool/701_1.exit")" = 3 ] &&
	[ "$(cat "$tmp/spool/701_1.node")" = "$h" ] &&
	case $local in "${TMPDIR:-/tmp}"/benchorch-task.*/results.db) true ;; *) false ;; esac &&
	[ ! -e "$(dirname "$local")" ] && [ ! -e "$tmp/spool/$h-701_1.db" ] &&
	grep -q "task 701_1 on node $h" "$tmp/task.err"
ok $? "a task records its node and exit status; run writes into a directory of its own under \$TMPDIR, removed after ($local)"
# a task whose run wrote a database: it goes into the spool whole, by a
# copy renamed into place, with its digest; nothing else is left
cat >"$tmp/bin/fake-benchorch" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$STUB_DIR/fake.args"
for a; do db=$a; done
printf '%s\n' "$db" >"$STUB_DIR/fake.db"
# nothing of this task's is in the spool while it runs
ls -a "$STUB_DIR/spool" | grep -q -- "-701_${SLURM_PROCID}\.db" && exit 9
head -c 100000 /dev/urandom >"$db"
cp "$db" "$STUB_DIR/fake.copy"
exit 0
EOF
SLURM_JOB_ID=701 SLURM_PROCID=3 SLURM_JOB_NUM_NODES=3 PATH=$tmp/bin:$PATH \
	sh "$tmp/task.sh" 2>"$tmp/task.err"
rc=$?
sum=$(sha256sum <"$tmp/fake.copy")
[ $rc -eq 0 ] && cmp -s "$tmp/fake.copy" "$tmp/spool/$h-701_3.db" &&
	[ "$(sed -n 2p "$tmp/spool/701_3.exit")" = "sha256:${sum%% *}" ] &&
	[ -z "$(ls -A "$tmp/spool" | grep '^\.')" ] &&
	[ ! -e "$(dirname "$(cat "$tmp/fake.db")")" ]
ok $? "the database is written on the node, then copied whole into the spool with its digest; no partial file, no local directory left (exit $rc)"
# a task that is not root: one line, exit status 3, benchorch not run
grep -q "^# The tasks need root on the nodes" "$tmp/script.sh"
ok $? "the script says the tasks need root"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -m 755 "$tmp/nspool"
	chown 65534 "$tmp/nspool"
	chmod 755 "$tmp"
	sed "s|^spool=.*|spool='$tmp/nspool'|" "$tmp/task.sh" >"$tmp/task-nobody.sh"
	chmod 644 "$tmp/task-nobody.sh"
	rm -f "$tmp/fake.args"
	SLURM_JOB_ID=701 SLURM_PROCID=2 SLURM_JOB_NUM_NODES=3 PATH=$tmp/bin:$PATH \
		setpriv --reuid=65534 --regid=65534 --clear-groups sh "$tmp/task-nobody.sh" 2>"$tmp/task.err"
	rc=$?
	[ $rc -eq 3 ] && [ ! -e "$tmp/fake.args" ] &&
		[ "$(sed -n 1p "$tmp/nspool/701_2.exit")" = 3 ] &&
		[ "$(cat "$tmp/nspool/701_2.node")" = "$h" ] &&
		grep -q "^benchorch: task 701_2 on node $h runs as user [^ ]*, not root: 'benchorch run' needs root (systemd-nspawn, mounts); submit as a user Slurm runs as root$" "$tmp/task.err"
	ok $? "a task that is not root stops with one line, exit 3 recorded (exit $rc: $(tail -1 "$tmp/task.err"))"
else
	skip_point "needs root and setpriv" "a task that is not root stops with one line"
fi

# --nodelist: one job per node of the expanded list, the merge after all
rm -f "$tmp/count" "$tmp"/sbatch.*
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --nodelist 'n[1-2],x' \
	--spool "$tmp/spool2" --db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
ok $? "submit --nodelist exits 0"
[ "$(cat "$tmp/out")" = "job 701
tasks 701 702 703
merge 704" ]
ok $? "one job per node, then the merge: $(tr '\n' ' ' <"$tmp/out")"
grep -qx -- "--nodelist=n1" "$tmp/sbatch.1.args" && grep -qx -- "--nodelist=n2" "$tmp/sbatch.2.args" &&
	grep -qx -- "--nodelist=x" "$tmp/sbatch.3.args" && grep -qx -- "--output=$tmp/spool2/%j.log" "$tmp/sbatch.1.args" &&
	grep -qx -- "--dependency=afterany:701:702:703" "$tmp/sbatch.4.args"
ok $? "each job is sent to its node; the merge waits for all three"
ls "$tmp"/spool2/submit-*.sh >/dev/null 2>&1
ok $? "the submitted script is kept in the spool"
# a node named twice in the list is measured once
rm -f "$tmp/count" "$tmp"/sbatch.*
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --nodelist 'n[1-2],n1' \
	--spool "$tmp/spool2b" --db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(sed -n 2p "$tmp/out")" = "tasks 701 702" ] &&
	grep -qx -- "--nodelist=n1" "$tmp/sbatch.1.args" && grep -qx -- "--nodelist=n2" "$tmp/sbatch.2.args" &&
	grep -qx -- "--dependency=afterany:701:702" "$tmp/sbatch.3.args"
ok $? "--nodelist 'n[1-2],n1': one job on n1 and one on n2, no node twice: $(tr '\n' ' ' <"$tmp/out")"

# a spool path and a run option with a quote and spaces stay whole
rm -f "$tmp/count" "$tmp"/sbatch.*
odd="$tmp/it's a spool"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$odd" --db "$tmp/c d.db" \
	--distros debian --state-dir "$tmp/st ate'x" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(cat "$odd/701.tasks")" = "701_0" ] &&
	grep -qxF -- "--output=$odd/%j.log" "$tmp/sbatch.1.args" &&
	grep -qF "slurm collect --spool '$tmp/it'\\''s a spool' --db '$tmp/c d.db'" "$tmp/sbatch.2.script"
ok $? "paths with a quote and spaces are quoted for the shell"
sed "s|^'[^']*/benchorch' run|'$tmp/bin/fake-benchorch' run|" "$tmp/sbatch.1.script" >"$tmp/task.sh"
SLURM_JOB_ID=701 SLURM_PROCID=0 SLURM_JOB_NUM_NODES=1 PATH=$tmp/bin:$PATH sh "$tmp/task.sh" 2>/dev/null
[ "$(sed -n 4,5p "$tmp/fake.args")" = "--state-dir
$tmp/st ate'x" ] && [ -f "$odd/$h-701_0.db" ]
ok $? "the task passes them on unchanged"

# sbatch refusing: environment error
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2
exit 1
EOF
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --partition nope --spool "$tmp/spool3" \
	--db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "Invalid partition name" "$tmp/err" && grep -q "cannot submit to slurm" "$tmp/err" &&
	grep -qx "benchorch: sbatch refused the job of 1 node, one task on each (no node is measured twice: the partition needs 1 node up; sinfo lists them) (its message is above)" "$tmp/err" &&
	! grep -q "is sbatch installed" "$tmp/err"
ok $? "sbatch refusing gives exit 3, its message and which job it refused, no guess"

# more nodes than the partition has up: sbatch --test-only's own reason
# (no array, so no MaxArraySize: the limit is the nodes there are), and
# nothing submitted, where a cluster that does not enforce its
# partitions' limits would queue the job for ever
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
for a; do
	[ "$a" = --test-only ] || continue
	printf '%s\n' "$@" >"$STUB_DIR/sbatch.test.args"
	echo "allocation failure: Requested node configuration is not available" >&2
	exit 1
done
echo x >>"$STUB_DIR/submitted"
echo 901
EOF
rm -f "$tmp/submitted"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --nodes 2000 --spool "$tmp/spool3" \
	--db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -e "$tmp/submitted" ] && [ ! -s "$tmp/out" ] &&
	grep -qx -- "--nodes=2000" "$tmp/sbatch.test.args" &&
	grep -qx "allocation failure: Requested node configuration is not available" "$tmp/err" &&
	grep -qx "benchorch: sbatch refused the job of 2000 nodes, one task on each (no node is measured twice: the partition needs 2000 nodes up; sinfo lists them) (its message is above)" "$tmp/err" &&
	! grep -q "is sbatch installed" "$tmp/err"
ok $? "--nodes 2000 refused by sbatch --test-only: its reason shown, nothing submitted: $(tr '\n' '|' <"$tmp/err")"

# what sbatch --parsable printed is a job id before it is used: not, and
# nothing more is submitted
stub_sbatch <<'EOF'
n=$(($(cat "$STUB_DIR/count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$STUB_DIR/count"
cat >/dev/null
echo "Submitted batch job 77"
EOF
rm -f "$tmp/count"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/spool3" \
	--db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ "$(cat "$tmp/count")" = 1 ] && [ ! -s "$tmp/out" ] &&
	grep -qx "benchorch: sbatch --parsable printed 'Submitted batch job 77' for the job of 1 node, not a job id" "$tmp/err" &&
	[ -z "$(ls "$tmp/spool3" | grep -v '^submit-')" ]
ok $? "an answer that is no job id stops the submission before the merge job: $(head -1 "$tmp/err")"
# the merge job refused after the tasks were queued: they are cancelled
stub_sbatch <<'EOF'
n=$(($(cat "$STUB_DIR/count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$STUB_DIR/count"
cat >/dev/null
[ "$n" -eq 1 ] && echo 901 && exit 0
echo "sbatch: error: Batch job submission failed: Job dependency problem" >&2
exit 1
EOF
cat >"$tmp/bin/scancel" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$STUB_DIR/scancel.args"
EOF
chmod +x "$tmp/bin/scancel"
rm -f "$tmp/count"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/spool3" \
	--db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "Job dependency problem" "$tmp/err" &&
	grep -qx "benchorch: sbatch refused the merge job (its message is above)" "$tmp/err" &&
	[ "$(cat "$tmp/scancel.args")" = 901 ]
ok $? "the merge job refused: the tasks queued before are cancelled ($(tr '\n' '|' <"$tmp/err"))"
# no sbatch at all
mkdir "$tmp/nobin"
for c in find id mkdir cat; do ln -s "$(command -v $c)" "$tmp/nobin/$c"; done
PATH=$tmp/nobin "$BENCHORCH" slurm submit --spool "$tmp/spool3" \
	--db "$tmp/central.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -qx "benchorch: no sbatch in PATH: submit from a host with the Slurm client commands" "$tmp/err"
ok $? "no sbatch in PATH: said so: $(head -1 "$tmp/err")"

# the daemon's configuration: a schedule sent to Slurm
printf 'state-dir %s\nschedule nightly every day at 03:00 distros debian quick slurm partition=bench nodes=4 spool=/shared/spool time=2:00:00\nschedule l every 6h distros debian slurm nodelist=n[1-2] spool=/shared/l\ndatabase /shared/all.db\n' "$tmp" >"$tmp/s.conf"
"$BENCHORCH" daemon --check --config "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err"
ok $? "daemon --check accepts schedules with slurm words"
grep -qx "schedule nightly every day at 03:00:00 distros debian libs all quick refresh slurm partition=bench nodes=4 spool=/shared/spool time=2:00:00" "$tmp/out" &&
	grep -qx "schedule l every 21600s distros debian libs all refresh slurm nodelist=n\[1-2\] spool=/shared/l" "$tmp/out"
ok $? "and prints them normalised"
"$BENCHORCH" daemon --check --config "$tmp/out" >"$tmp/out2" 2>&1 && cmp -s "$tmp/out" "$tmp/out2"
ok $? "the normalised form is stable"
for bad in "slurm nodes=0:nodes: '0' is out of range (1 to 10000)" \
	"slurm nodes=2:slurm needs spool=DIR, a directory every node and this host share (the default, STATE/slurm, is local to each node)" \
	"slurm spool=/s time=garbage:time: 'garbage' is not a Slurm time limit" \
	"nodes=2:partition=, nodes=, nodelist=, spool= and time= need the word 'slurm'" \
	"slurm nodes=2 nodelist=a:nodes= and nodelist= exclude each other" \
	"slurm spool=rel/dir:spool must be an absolute path, not 'rel/dir'" \
	"slurm partition=:'partition=' needs a value" \
	"slurm nodez=3:unknown word 'nodez=3'"; do
	printf 'schedule s every 1h distros debian %s\n' "${bad%%:*}" >"$tmp/bad.conf"
	"$BENCHORCH" daemon --check --config "$tmp/bad.conf" >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && grep -qF "line 1: schedule 's': ${bad#*:}" "$tmp/err"
	ok $? "'${bad%%:*}' is refused: $(cat "$tmp/err")"
done

# no database line: the default, under the state directory, is local to
# each node, as submit refuses to go without --db
printf 'state-dir %s\nschedule plain every 6h distros debian\nschedule nightly every day at 03:00 distros debian slurm spool=/shared/spool\n' "$tmp" >"$tmp/nodb.conf"
"$BENCHORCH" daemon --check --config "$tmp/nodb.conf" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -qxF "benchorch: '$tmp/nodb.conf' line 3: schedule 'nightly': slurm needs a line 'database PATH' in this file: a database every node and this host share (the default, STATE/results.db, is local to each node)" "$tmp/err"
ok $? "a slurm schedule without a database line is refused at load, in one line naming the file and the key: $(cat "$tmp/err")"
BENCHORCH_DB=/shared/all.db "$BENCHORCH" daemon --check --config "$tmp/nodb.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "slurm needs a line 'database PATH'" "$tmp/err"
ok $? "\$BENCHORCH_DB does not stand for the file's database line"

if command -v valgrind >/dev/null 2>&1; then
	vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"; }
	vg "$BENCHORCH" slurm submit --dry-run --nodelist 'n[1-2]' --spool "$tmp/sp" --db "$tmp/c.db" \
		--distros debian --quick >/dev/null 2>"$tmp/vg" &&
	vg "$BENCHORCH" daemon --check --config "$tmp/s.conf" >/dev/null 2>>"$tmp/vg"
	rc=$?
	printf 'schedule s every 1h slurm nodes=2 nodelist=x distros debian\n' >"$tmp/bad.conf"
	vg "$BENCHORCH" daemon --check --config "$tmp/bad.conf" >/dev/null 2>>"$tmp/vg.bad"
	rc2=$?
	printf 'schedule s every 1h slurm nodes=3 spool=/s distros\n' >"$tmp/bad.conf"
	vg "$BENCHORCH" daemon --check --config "$tmp/bad.conf" >/dev/null 2>>"$tmp/vg.bad"
	rc3=$?
	[ $rc -eq 0 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ]
	ok $? "submit --dry-run and daemon --check with slurm words, good and bad, under valgrind: no memory error"
	cat "$tmp/vg" "$tmp/vg.bad" | grep -v "^benchorch" | sed 's/^/# /' | head -20
fi

done_testing
