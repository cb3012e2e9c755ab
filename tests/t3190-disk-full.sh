#!/bin/sh
# t3190-disk-full - writing into a full filesystem (a small tmpfs): export,
# export --run, merge and report -o fail with one line naming the file and
# the reason and exit 3, leave no partial file (no -journal, -wal or -shm)
# and leave a database written into as it was; a run whose database fills
# stops at the first invocation it cannot store, keeps the rounds stored
# before it, is stored as failed with the reason, exits 3 and leaves no
# mount or guest behind.
. "${top_srcdir:-.}/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (mounts a tmpfs)"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
full="$tmp/full"
mkdir "$full"
cleanup() {
	umount "$full" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mount -t tmpfs -o size=200k tmpfs "$full" ||
	skip_all "cannot mount a tmpfs"

src="$tmp/src.db"
"$top_builddir/tests/fixtures/results-mkdb" "$src"
ok $? "fixture database with three runs"

# left: the files in the full filesystem, one line
left() { ls -A "$full" | tr '\n' ' '; }
# one_line FILE PATTERN: FILE is one line matching PATTERN
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q "$2" "$1"; }
# fill: make the full filesystem full (what is in it stays)
fill() { dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null; }

"$BENCHORCH" export --db "$src" -o "$full/x.db" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && one_line "$tmp/err" "^benchorch: cannot export to '$full/x.db': database or disk is full$" &&
	[ -z "$(left)" ]
ok $? "export into a full filesystem: exit 3 (got $rc), one line naming the file and the reason, nothing left: $(cat "$tmp/err") [$(left)]"

"$BENCHORCH" export --db "$src" --run 1 --run 2 -o "$full/y.db" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && one_line "$tmp/err" "'$full/y.db'.*: database or disk is full" &&
	[ -z "$(left)" ]
ok $? "export --run: exit 3 (got $rc), one line, nothing left: $(cat "$tmp/err") [$(left)]"

"$BENCHORCH" merge --db "$full/m.db" "$src" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && one_line "$tmp/err" "'$full/m.db'.*: database or disk is full" &&
	[ ! -s "$tmp/out" ] && [ -z "$(left)" ]
ok $? "merge into a new database: exit 3 (got $rc), one line, nothing left: $(cat "$tmp/err") [$(left)]"

fill
"$BENCHORCH" report --db "$src" -o "$full/r.html" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && one_line "$tmp/err" "^benchorch: cannot write '$full/r.html': No space left on device$" &&
	[ "$(left)" = "filler " ]
ok $? "report -o: exit 3 (got $rc), one line, no partial report: $(cat "$tmp/err") [$(left)]"
rm -f "$full/filler"

# a database in the filesystem, merged into once it is full: it stays as
# it was
umount "$full" && mount -t tmpfs -o size=1m tmpfs "$full" &&
	"$BENCHORCH" export --db "$src" --run 1 -o "$full/d.db" 2>"$tmp/err"
ok $? "run 1 exported into a filesystem with room for it: $(cat "$tmp/err")"
sum=$(sqlite3 "$full/d.db" "select count(*) from runs; select count(*) from results")
fill
"$BENCHORCH" merge --db "$full/d.db" "$src" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && one_line "$tmp/err" "'$full/d.db'.*: database or disk is full" &&
	[ "$(sqlite3 "$full/d.db" "select count(*) from runs; select count(*) from results")" = "$sum" ] &&
	[ "$(sqlite3 "$full/d.db" "pragma integrity_check")" = ok ]
ok $? "merge into a database on a full disk: exit 3 (got $rc), one line, the database as it was and consistent: $(cat "$tmp/err")"
umount "$full"

# --- a run: needs the cached image and systemd-nspawn -------------------
if [ -n "${BENCHORCH_DISTCHECK-}" ] || ! command -v systemd-nspawn >/dev/null 2>&1 ||
   ! test_image_ready; then
	why=${test_image_why:-needs systemd-nspawn and the cached test image}
	for d in "exit 3, one line naming the database and the reason" \
		 "measuring stopped at the first invocation not stored" \
		 "the rounds before are kept with their results, the run failed" \
		 "the database consistent, no mount or guest left"; do
		skip_point "$why" "run: $d"
	done
	done_testing
	exit
fi

# Four algorithms: 4 rounds (--quick: one pass) of one openssl
# invocation each, each stored
# in a transaction of its own; the database's write-ahead log outgrows
# 832 KiB after a few of them (at 896 KiB 3 of 4 fitted with schema 24,
# the public-key and key derivation tables in it; the schema's own pages
# take more room with each migration: at 640 KiB none fitted once
# schemas 19 and 20 came, at 768 KiB 2 of 8 did).
mount -t tmpfs -o size=832k tmpfs "$full" || skip_all "cannot mount a tmpfs"
db="$full/q.db"
"$BENCHORCH" run --distros debian --quick --no-confirm --libs openssl \
	--algos sha-256,sha-512,sha-1,md5 --runner nspawn \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
q() { sqlite3 -batch -noheader "$db" "$1"; }
grep "cannot store" "$tmp/err" >"$tmp/store"
[ $rc -eq 3 ] &&
	one_line "$tmp/store" "^benchorch: run 1: cannot store round [0-9] of 4 of debian in '$db': database or disk is full; measuring stopped, the [0-9]* invocations\{0,1\} stored before kept$"
ok $? "run: exit 3 (got $rc), one line naming the database and the reason: $(cat "$tmp/store")"
kept=$(q "select count(*) from invocations")
rounds=$(grep -c "^benchorch: round [0-9]/4 debian: " "$tmp/err")
[ "$kept" -ge 1 ] && [ "$kept" -lt 4 ] && [ "$rounds" -eq $((kept + 1)) ] &&
	grep -q "the $kept invocations\{0,1\} stored before kept" "$tmp/store"
ok $? "run: measuring stopped at the first invocation not stored ($rounds measured, $kept stored)"
# The run is marked failed with the reason - unless the disk is so full
# that even that one-row UPDATE fails: then it stays 'running', stderr
# says so, and the next run on this host marks it aborted.
st=$(q "select status from runs")
{ { [ "$st" = failed ] && q "select error from runs" | grep -q "database or disk is full"; } ||
  { [ "$st" = running ] &&
    grep -q "^benchorch: cannot mark run 1 failed in '$db': database or disk is full (the next run marks it aborted)$" "$tmp/err"; }; } &&
	[ "$(q "select count(*) from invocations where status = 'ok' and round between 1 and $kept")" -eq "$kept" ] &&
	[ "$(q "select count(distinct invocation_id) from results")" -eq "$kept" ] &&
	[ "$(q "select count(distinct n) || ' ' || min(n) from (select count(*) as n from results group by invocation_id)")" != "1 0" ] &&
	[ "$(q "select count(distinct n) from (select count(*) as n from results group by invocation_id)")" -eq 1 ]
ok $? "run: the rounds before are kept, each with all its results (as many in each: every round measures one hash at the same sizes), the run failed (or, the disk too full for that, said so): $(q "select status, error from runs")"
[ "$(q "pragma integrity_check")" = ok ] &&
	[ -z "$(q "pragma foreign_key_check")" ] &&
	[ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(running_guests)" ]
ok $? "run: the database consistent, no mount or guest left"
done_testing
