#!/bin/sh
# t8115-slurm-spool - the spool directory is shared with every node, so
# nothing in it is trusted: collect, status and submit refuse a spool
# that another user may write to (or a symlink, or one another user
# owns), with one line; no file of it is read or written through a
# symlink; a task database is merged only when it is the one its task
# wrote (the digest in TASK.exit); control characters of node names and
# logs are escaped; submit's script has a name no one can guess; a
# hanging sbatch is stopped with submit.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
command -v sha256sum >/dev/null 2>&1 || skip_all "needs sha256sum"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sp="$tmp/spool"
mkdir -p "$sp" "$tmp/bin"
chmod 755 "$sp"
mk="$top_builddir/tests/fixtures/results-mkdb"
q() { sqlite3 -batch -noheader -cmd '.timeout 10000' "$1" "$2"; }
sum() { echo "sha256:$(sha256sum <"$1" | cut -d' ' -f1)"; }
collect() { "$BENCHORCH" slurm collect --spool "$sp" --db "$tmp/central.db" "$@"; }

# job 600: task 0 genuine; task 1 its database swapped for another after
# it recorded the digest; task 2 a database and no digest; task 3 a node
# name and a log with control characters; task 4 a node file, exit file
# and log that are symlinks to files outside; task 5 genuine, its node
# name (and so its database's) with an escape character
printf '600_0\n600_1\n600_2\n600_3\n600_4\n600_5\n' >"$sp/600.tasks"
echo node-a >"$sp/600_0.node"
echo node-b >"$sp/600_1.node"
echo node-c >"$sp/600_2.node"
printf 'evil\033[2J\n' >"$sp/600_3.node"
"$mk" "$sp/node-a-600_0.db" node-a && "$mk" "$sp/node-b-600_1.db" node-b &&
	"$mk" "$sp/node-c-600_2.db" node-c && "$mk" "$tmp/forged.db" forged
e5=$(printf 'node-e\033[1m')
printf '%s\n' "$e5" >"$sp/600_5.node"
"$mk" "$sp/$e5-600_5.db" node-e && printf '0\n%s\n' "$(sum "$sp/$e5-600_5.db")" >"$sp/600_5.exit"
ok $? "five databases"
printf '0\n%s\n' "$(sum "$sp/node-a-600_0.db")" >"$sp/600_0.exit"
printf '0\n%s\n' "$(sum "$sp/node-b-600_1.db")" >"$sp/600_1.exit"
cp "$tmp/forged.db" "$sp/node-b-600_1.db"
echo 0 >"$sp/600_2.exit"
echo 2 >"$sp/600_3.exit"
printf 'fine\nbad \033]0;title\007 line\n' >"$sp/600_3.log"
echo "secret-node" >"$tmp/outside.node"
echo 0 >"$tmp/outside.exit"
echo "secret log line" >"$tmp/outside.log"
ln -s "$tmp/outside.node" "$sp/600_4.node"
ln -s "$tmp/outside.exit" "$sp/600_4.exit"
ln -s "$tmp/outside.log" "$sp/600_4.log"

collect 600 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ]
ok $? "collect with refused tasks exits 1 (got $rc)"
[ "$(q "$tmp/central.db" "select group_concat(host, ' ') from (select distinct host from runs order by host)")" = "node-a node-e" ]
ok $? "only the genuine database is merged: no forged, no undigested one"
grep -qx "task 600_0 on node node-a: merged 3 runs (498 results) from '$sp/node-a-600_0.db'" "$tmp/out"
ok $? "the genuine task is merged"
grep -qx "task 600_1 on node node-b: missing: its database is not merged: it is not the one the task wrote (its SHA-256 differs from the one recorded); log '$sp/600_1.log':" "$tmp/out"
ok $? "a database swapped after its task wrote it is refused, saying why"
grep -qx "task 600_2 on node node-c: missing: its database is not merged: the task recorded no digest of it; log '$sp/600_2.log':" "$tmp/out"
ok $? "a database whose task recorded no digest is refused"
! grep -q "$(printf '\033')" "$tmp/out" && ! grep -q "$(printf '\007')" "$tmp/out" &&
	grep -qF 'task 600_3 on node evil\x1b[2J: missing:' "$tmp/out" &&
	grep -qxF '  | bad \x1b]0;title\x07 line' "$tmp/out"
ok $? "control characters of a node name and a log are escaped"
grep -qxF "task 600_5 on node node-e\x1b[1m: merged 3 runs (498 results) from '$sp/node-e\x1b[1m-600_5.db'" "$tmp/out"
ok $? "and those of a merged task's node and database path"
! grep -q "secret" "$tmp/out" &&
	grep -qx "task 600_4 on node (none): missing: never started (no node recorded); log '$sp/600_4.log':" "$tmp/out" &&
	grep -qx "  | (no log '$sp/600_4.log': '$sp/600_4.log' is a symbolic link: not followed)" "$tmp/out"
ok $? "node, exit and log files that are symlinks are not followed"

# status: the same files, the same escaping
cat >"$tmp/bin/squeue" <<'EOS'
#!/bin/sh
exit 0
EOS
chmod +x "$tmp/bin/squeue"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm status --spool "$sp" 600 >"$tmp/out" 2>"$tmp/err"
ok $? "status exits 0"
! grep -q "$(printf '\033')" "$tmp/out" && grep -qF '600_3            evil\x1b[2J' "$tmp/out" &&
	grep -qF "$sp/node-e\x1b[1m-600_5.db" "$tmp/out" &&
	grep -q "^600_4 .* - .*never started" "$tmp/out" && ! grep -q secret "$tmp/out"
ok $? "status: node names escaped, symlinks not followed"

# a database that is a symlink is no database
mkdir "$tmp/sp2" && printf '700_0\n' >"$tmp/sp2/700.tasks" && echo node-a >"$tmp/sp2/700_0.node"
ln -s "$sp/node-a-600_0.db" "$tmp/sp2/node-a-700_0.db"
printf '0\n%s\n' "$(sum "$sp/node-a-600_0.db")" >"$tmp/sp2/700_0.exit"
"$BENCHORCH" slurm collect --spool "$tmp/sp2" --db "$tmp/c2.db" 700 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "task 700_0 on node node-a: missing: exited with status 0 but wrote no database" "$tmp/out"
ok $? "a task database that is a symlink is not merged"

# the spool itself: group- or world-writable, a symlink, another's
for how in "chmod 775" "chmod 777" "chmod 1777"; do
	$how "$sp"
	collect 600 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "^benchorch: refusing spool '$sp': it is writable by" "$tmp/err" && [ ! -s "$tmp/out" ]
	ok $? "$how spool: collect refuses it with one line (exit $rc: $(cat "$tmp/err"))"
	"$BENCHORCH" slurm status --spool "$sp" 600 >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "refusing spool '$sp'" "$tmp/err"
	ok $? "$how spool: status refuses it"
done
chmod 755 "$sp"
ln -s "$sp" "$tmp/link"
"$BENCHORCH" slurm collect --spool "$tmp/link" --db "$tmp/central.db" 600 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -qx "benchorch: refusing spool '$tmp/link': it is a symbolic link" "$tmp/err"
ok $? "a spool that is a symlink is refused"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	chown nobody "$sp"
	collect 600 >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 3 ] && grep -q "refusing spool '$sp': it is owned by uid $(id -u nobody)" "$tmp/err"
	ok $? "a spool another user owns is refused"
	chown 0 "$sp"
else
	skip_point "needs root and the user nobody" "a spool another user owns"
fi

# submit: the same checks before anything is submitted
cat >"$tmp/bin/sbatch" <<'EOS'
#!/bin/sh
n=$(($(cat "$STUB_DIR/count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$STUB_DIR/count"
cat >"$STUB_DIR/sbatch.$n.script"
echo "$((800 + n))"
EOS
chmod +x "$tmp/bin/sbatch"
STUB_DIR=$tmp
export STUB_DIR
mkdir -m 777 "$tmp/open"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/open" --db "$tmp/c.db" --distros debian >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "refusing spool '$tmp/open': it is writable by every user" "$tmp/err" &&
	[ ! -e "$tmp/count" ] && [ -z "$(ls "$tmp/open")" ]
ok $? "submit refuses a world-writable spool, writing and submitting nothing"
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/sub" --db "$tmp/c.db" --distros debian >"$tmp/out" 2>"$tmp/err"
ok $? "submit into a new spool"
s=$(ls "$tmp/sub" | grep '^submit-')
case $s in
submit-??????.sh) [ "$(stat -c %a "$tmp/sub/$s")" = 600 ] ;;
*) false ;;
esac
ok $? "the script has a name no one can guess and mode 0600 ($s)"
# the script the dry run prints refuses an open spool too
"$BENCHORCH" slurm submit --dry-run --spool "$tmp/open" --db "$tmp/c.db" --distros debian >"$tmp/s.sh"
n=$(cat "$tmp/count")
PATH=$tmp/bin:$PATH sh "$tmp/s.sh" >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] && grep -q "refusing spool '$tmp/open'" "$tmp/err" && [ "$(cat "$tmp/count")" = "$n" ]
ok $? "the dry-run script refuses an open spool"

# a task: writes no file through a symlink, and records its digest
rm -f "$tmp/count" "$tmp"/sbatch.*
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/sub" --db "$tmp/c.db" --distros debian >/dev/null 2>&1
sed "s|^'[^']*/benchorch' run|'$tmp/bin/fake-benchorch' run|" "$tmp/sbatch.1.script" >"$tmp/task.sh"
cat >"$tmp/bin/fake-benchorch" <<'EOS'
#!/bin/sh
for a; do db=$a; done
echo "a database" >"$db"
exit 0
EOS
# the job's script runs its task with srun: here as the task of rank
# SLURM_PROCID on this host
cat >"$tmp/bin/srun" <<'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in --*) shift ;; *) break ;; esac; done
exec "$@"
EOS
chmod +x "$tmp/bin/fake-benchorch" "$tmp/bin/srun"
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/sub/801_0.node"
SLURM_JOB_ID=801 SLURM_PROCID=0 SLURM_JOB_NUM_NODES=3 PATH=$tmp/bin:$PATH sh "$tmp/task.sh" 2>"$tmp/task.err"
[ "$(cat "$tmp/victim")" = precious ]
ok $? "a task writes nothing through a symlink planted at its node file"
rm -f "$tmp/sub/801_0.node"
h=$(hostname -s)
SLURM_JOB_ID=801 SLURM_PROCID=1 SLURM_JOB_NUM_NODES=3 PATH=$tmp/bin:$PATH sh "$tmp/task.sh" 2>"$tmp/task.err"
[ "$(sed -n 1p "$tmp/sub/801_1.exit")" = 0 ] &&
	[ "$(sed -n 2p "$tmp/sub/801_1.exit")" = "$(sum "$tmp/sub/$h-801_1.db")" ]
ok $? "a task records the digest of the database it wrote"
chmod 777 "$tmp/sub"
SLURM_JOB_ID=801 SLURM_PROCID=2 SLURM_JOB_NUM_NODES=3 PATH=$tmp/bin:$PATH sh "$tmp/task.sh" 2>"$tmp/task.err"
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/sub/801_2.node" ] && grep -q "refusing spool" "$tmp/task.err"
ok $? "a task refuses a spool others may write to"
chmod 755 "$tmp/sub"

# a hanging sbatch: SIGTERM stops submit, and sbatch with it
cat >"$tmp/bin/sbatch" <<'EOS'
#!/bin/sh
echo $$ >"$STUB_DIR/sbatch.pid"
exec sleep 1000
EOS
PATH=$tmp/bin:$PATH "$BENCHORCH" slurm submit --spool "$tmp/sub" --db "$tmp/c.db" --distros debian >"$tmp/out" 2>"$tmp/err" &
spid=$!
wait_for 10 '[ -s "$tmp/sbatch.pid" ]'
kill -TERM "$spid"
wait_for 10 '! kill -0 "$(cat "$tmp/sbatch.pid")" 2>/dev/null'
ok $? "SIGTERM to submit stops the hanging sbatch too"
kill -KILL "$(cat "$tmp/sbatch.pid")" 2>/dev/null
wait "$spid"
rc=$?
[ $rc -eq 143 ]
ok $? "and submit exits 128+15 (got $rc)"

done_testing
