#!/bin/sh
# t8110-slurm-collect - the merge job's command (`benchorch slurm collect`)
# and `slurm status` on a spool directory laid out as a submission's tasks
# leave it, without a cluster: one task done, one failed, one killed, one
# never started. The merge takes what there is and names the rest, with
# why and the end of each one's log.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sp="$tmp/spool"
mkdir -p "$sp" "$tmp/bin"
mk="$top_builddir/tests/fixtures/results-mkdb"
q() { sqlite3 -batch -noheader -cmd '.timeout 10000' "$1" "$2"; }

# job 500: task 0 done on node-a, task 1 done on node-b, task 2 failed
# on node-c (exit 2, no database), task 3 killed on node-d (no exit
# status), task 4 never started (nothing but its place in the list)
printf '500_0\n500_1\n500_2\n500_3\n500_4\n' >"$sp/500.tasks"
for t in 0:node-a 1:node-b 2:node-c 3:node-d; do
	echo "${t#*:}" >"$sp/500_${t%%:*}.node"
done
"$mk" "$sp/node-a-500_0.db" node-a && "$mk" "$sp/node-b-500_1.db" node-b
ok $? "two task databases, three runs each"
# a task's exit status, then the digest of the database it wrote
sum() { echo "sha256:$(sha256sum <"$1" | cut -d' ' -f1)"; }
printf '0\n%s\n' "$(sum "$sp/node-a-500_0.db")" >"$sp/500_0.exit"
printf '0\n%s\n' "$(sum "$sp/node-b-500_1.db")" >"$sp/500_1.exit"
echo 2 >"$sp/500_2.exit"
printf 'benchorch: task 500_2 on node node-c\nbenchorch run: unknown distro '"'"'nosuch'"'"'\nTry '"'"'benchorch run --help'"'"'.\n' >"$sp/500_2.log"
seq 1 30 | sed 's/^/line /' >"$sp/500_3.log"
echo "slurmstepd: error: *** JOB 500 ON node-d CANCELLED DUE TO TIME LIMIT ***" >>"$sp/500_3.log"

"$BENCHORCH" slurm collect --spool "$sp" --db "$tmp/central.db" 500 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ]
ok $? "collect with tasks missing exits 1 (got $rc)"
[ "$(q "$tmp/central.db" "select count(*) from runs")" -eq 6 ] &&
	[ "$(q "$tmp/central.db" "select count(distinct uuid) from runs")" -eq 6 ] &&
	[ "$(q "$tmp/central.db" "select group_concat(host, ' ') from (select distinct host from runs order by host)")" = "node-a node-b" ]
ok $? "the two databases there are merged: six runs, two hosts"
grep -qx "task 500_0 on node node-a: merged 3 runs (498 results) from '$sp/node-a-500_0.db'" "$tmp/out"
ok $? "says what each task brought"
grep -qx "task 500_2 on node node-c: missing: 'benchorch run' exited with status 2; log '$sp/500_2.log':" "$tmp/out" &&
	grep -qx "  | benchorch run: unknown distro 'nosuch'" "$tmp/out"
ok $? "the failed task: its node, its exit status and its log"
grep -qx "task 500_3 on node node-d: missing: stopped before it finished (killed, cancelled or timed out); log '$sp/500_3.log':" "$tmp/out" &&
	grep -qx "  | slurmstepd: error: \*\*\* JOB 500 ON node-d CANCELLED DUE TO TIME LIMIT \*\*\*" "$tmp/out" &&
	[ "$(grep -c "^  | " "$tmp/out")" -eq $((3 + 10 + 1)) ] && grep -qx "  | line 22" "$tmp/out" &&
	! grep -qx "  | line 21" "$tmp/out"
ok $? "the killed task: why, and the last 10 lines of its log"
grep -qx "task 500_4 on node (none): missing: never started (no node recorded); log '$sp/500_4.log':" "$tmp/out" &&
	grep -q "^  | (no log '$sp/500_4.log': No such file or directory)$" "$tmp/out"
ok $? "the task that never started, and that it has no log"
grep -qx "2 of 5 tasks merged into '$tmp/central.db'; 3 missing" "$tmp/out"
ok $? "sums up"
grep -qx "report '$sp/500.report.html'" "$tmp/out" && grep -q "<svg" "$sp/500.report.html" &&
	grep -q "node-a" "$sp/500.report.html" && grep -q "node-b" "$sp/500.report.html"
ok $? "writes a report of the merged runs of both hosts"

"$BENCHORCH" slurm collect --spool "$sp" --db "$tmp/central.db" \
	--report "$tmp/again.html" 500 >"$tmp/out2" 2>&1
[ $? -eq 1 ] && [ "$(q "$tmp/central.db" "select count(*) from runs")" -eq 6 ] &&
	grep -qx "task 500_0 on node node-a: merged 0 runs (0 results) from '$sp/node-a-500_0.db'" "$tmp/out2" &&
	grep -q "<svg" "$tmp/again.html"
ok $? "collect again adds nothing and still reports the runs (--report FILE)"
"$BENCHORCH" slurm collect --spool "$sp" --db "$tmp/central.db" \
	--report "$tmp/nodir/r.html" 500 >"$tmp/out2" 2>"$tmp/err2"
rc=$?
[ $rc -eq 3 ] && grep -q "$tmp/nodir/r.html" "$tmp/err2" &&
	! grep -q "^report " "$tmp/out2"
ok $? "a report that cannot be written exits 3, saying why (exit $rc: $(head -1 "$tmp/err2"))"

"$BENCHORCH" slurm collect --spool "$sp" --db "$tmp/central.db" 501 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "no submission '501' in '$sp'" "$tmp/err"
ok $? "an unknown job is an error naming it"
"$BENCHORCH" slurm collect --spool "$sp" '500;rm' 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'500;rm' is not a slurm job id" "$tmp/err"
ok $? "a job id is digits only"
"$BENCHORCH" slurm collect --spool "$sp" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch slurm collect: needs the job id" "$tmp/err" &&
	grep -q "^Try 'benchorch slurm collect --help'" "$tmp/err"
ok $? "collect without a job is a usage error in collect's name: $(head -1 "$tmp/err")"
"$BENCHORCH" slurm status --spool "$sp" --bogus 500 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch slurm status: unknown option '--bogus'" "$tmp/err"
ok $? "status's usage errors in status's name: $(head -1 "$tmp/err")"

# status, with a stand-in squeue that shows task 500_1... as nothing and
# the merge job as gone; then with squeue reporting task 3 running
echo 510 >"$sp/500.merge"
cat >"$tmp/bin/squeue" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$STUB_DIR/squeue.args"
cat "$STUB_DIR/squeue.out" 2>/dev/null
exit 0
EOF
chmod +x "$tmp/bin/squeue"
STUB_DIR=$tmp
export STUB_DIR
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm status --spool "$sp" 500 >"$tmp/out" 2>"$tmp/err"
ok $? "status exits 0"
grep -q "^500_0 .*node-a .*done .*$sp/node-a-500_0.db$" "$tmp/out" &&
	grep -q "^500_2 .*node-c .*failed (exit status 2) .* -$" "$tmp/out" &&
	grep -q "^500_3 .*node-d .*stopped (killed, cancelled or timed out)" "$tmp/out" &&
	grep -q "^500_4 .* - .*never started" "$tmp/out" &&
	grep -qx "merge job 510: finished, report '$sp/500.report.html'" "$tmp/out"
ok $? "status: done, failed, stopped, never started, and the merge"
grep -qx -- "500,510" "$tmp/squeue.args"
ok $? "status asks squeue about the job and the merge job"
printf '500_3 RUNNING\n500_[4] PENDING\n510 PENDING\n' >"$tmp/squeue.out"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm status --spool "$sp" 500 >"$tmp/out" 2>"$tmp/err"
grep -q "^500_3 .*node-d .*running" "$tmp/out" && grep -q "^500_4 .* - .*pending" "$tmp/out" &&
	grep -qx "merge job 510: pending" "$tmp/out"
ok $? "status: what squeue says of the tasks still queued"
# a job of N nodes (one task on each, not an array): squeue shows the
# job, and its state is that of each task not finished
printf '500 RUNNING\n510 PENDING\n' >"$tmp/squeue.out"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm status --spool "$sp" 500 >"$tmp/out" 2>"$tmp/err"
grep -q "^500_3 .*node-d .*running" "$tmp/out" && grep -q "^500_4 .* - .*running" "$tmp/out" &&
	grep -q "^500_0 .*node-a .*done" "$tmp/out" && grep -qx "merge job 510: pending" "$tmp/out"
ok $? "status: the state of a job of N nodes is its unfinished tasks'"
"$BENCHORCH" slurm status --spool "$sp" 999 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no submission '999'" "$tmp/err"
ok $? "status of an unknown job is an error"

if command -v valgrind >/dev/null 2>&1; then
	vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"; }
	rm -f "$tmp/vg.db"
	vg "$BENCHORCH" slurm collect --spool "$sp" --db "$tmp/vg.db" --report "$tmp/vg.html" 500 >/dev/null 2>"$tmp/vg"
	rc1=$?
	PATH=$tmp/bin:$PATH vg "$BENCHORCH" slurm status --spool "$sp" 500 >/dev/null 2>>"$tmp/vg"
	rc2=$?
	[ $rc1 -eq 1 ] && [ $rc2 -eq 0 ]
	ok $? "collect and status under valgrind: no memory error (exit $rc1, $rc2)"
	[ -s "$tmp/vg" ] && sed 's/^/# /' "$tmp/vg" | head -20
fi

done_testing
