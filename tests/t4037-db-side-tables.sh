#!/bin/sh
# t4037-db-side-tables - a table that SQLite finds malformed while the
# rest of the database reads well is a database error in every command
# that reads it, never an empty answer: the command exits 3 with one line
# naming the database and SQLite's message and prints nothing on stdout.
# Each damage overwrites the pages of one table of a fixture database
# (its root and its indexes' roots, found with sqlite3) with a fixed
# pattern; the queries that read only that table (a caveat, a warning,
# the names listed in a message, a csv that fails after its header) are
# the ones checked. The sound database exits 0 for the same commands.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/r.db" &&
	"$BENCHORCH" export --db "$tmp/r.db" -o "$tmp/ok.db"
ok $? "fixture database with three runs, as one file"

# damage TABLE: $tmp/TABLE.db, a copy of ok.db whose TABLE (and its
# indexes) has every root page overwritten with 0x55 bytes
damage() {
	cp "$tmp/ok.db" "$tmp/$1.db" || return 1
	pages=$(sqlite3 "$tmp/ok.db" "SELECT rootpage FROM sqlite_master WHERE tbl_name = '$1' AND rootpage > 0")
	[ -n "$pages" ] || return 1
	for p in $pages; do
		head -c 4096 /dev/zero | tr '\000' '\125' |
			dd of="$tmp/$1.db" bs=4096 seek=$((p - 1)) conv=notrunc 2>/dev/null ||
			return 1
	done
}
for t in invocations cpus library_loads tool_results runs; do
	damage $t
	ok $? "a copy with table $t damaged"
done

# csv: the header is not printed before a query that fails
expect_db_error invocations "runs --format csv" -- runs --format csv
expect_db_error invocations "results --format csv" -- results --format csv
expect_db_sound "runs --format csv" -- runs --format csv
expect_db_sound "results --format csv" -- results --format csv

# compare: the caveats read the runs' CPUs (cpus), read by nothing before
expect_db_error cpus "compare 1 3 (its CPU caveat)" -- compare 1 3
expect_db_error cpus "compare --latest 2" -- compare --latest 2
expect_db_error cpus "compare --format json" -- compare --format json 1 3
expect_db_error cpus "compare --machines 1 3 (the machines' CPUs)" -- compare --machines 1 3
expect_db_sound "compare 1 3" -- compare 1 3
expect_db_sound "compare --latest 2" -- compare --latest 2
expect_db_sound "compare --machines 1 3" -- compare --machines 1 3

# results: the warnings about failed libraries read library_loads, after
# the rows are read; they are printed after the rows
expect_db_error library_loads "results (its failed libraries)" -- results
expect_db_error library_loads "results --run 1" -- results --run 1
expect_db_error library_loads "results --format json" -- results --format json
expect_db_sound "results" -- results
# the distributions a --distro that matches none is told about; why a run
# has no matching results (is it a tool run?)
expect_db_error cpus "results --distro nosuch (the distributions it has)" -- results --distro nosuch
expect_db_error tool_results "results --run 1 --algo chacha20-poly1305 (why none)" -- \
	results --run 1 --algo chacha20-poly1305
"$BENCHORCH" results --distro nosuch --db "$tmp/ok.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "it has: debian:bookworm, ubuntu:noble" "$tmp/err"
ok $? "sound: results --distro nosuch is a usage error naming the distributions (exit $rc)"
"$BENCHORCH" results --run 1 --algo chacha20-poly1305 --db "$tmp/ok.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "no matching results" "$tmp/err"
ok $? "sound: results --run 1 --algo chacha20-poly1305 finds none, exit 1 (exit $rc)"

# confirm reads the run to confirm, its kind and what looks changed in it
# before anything runs. It takes the run lock in /run/benchorch: a mount
# namespace of its own with an empty /run/benchorch keeps it from waiting for
# a run of this machine. Its state directory has no image: the sound
# database has nothing it can measure again.
mkdir "$tmp/state"
confirm_alone() {
	unshare -m sh -c 'mkdir -p /run/benchorch &&
		mount -t tmpfs -o mode=0700 tmpfs /run/benchorch && exec "$0" "$@"' \
		"$BENCHORCH" confirm --state-dir "$tmp/state" "$@"
}
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mkdir -p /run/benchorch &&
		mount -t tmpfs -o mode=0700 tmpfs /run/benchorch' 2>/dev/null; then
	via=confirm_alone
	expect_db_error runs "confirm (the latest finished run)" --
	expect_db_error tool_results "confirm --run 3 (is it a tool run?)" -- --run 3
	expect_db_error cpus "confirm --run 2 (the curves that look changed)" -- --run 2
	via=
	cp "$tmp/ok.db" "$tmp/confirm.db"
	confirm_alone --run 2 --db "$tmp/confirm.db" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q "curves of run 2 that look changed against run 1: 6" "$tmp/err" &&
		grep -q "measured is gone (.*); not confirmed" "$tmp/err"
	ok $? "sound: confirm --run 2 finds 6 curves, the images it measured gone, exit 3 (exit $rc: $(head -1 "$tmp/err"))"
else
	for d in "confirm" "confirm --run 3" "confirm --run 2" "sound: confirm --run 2"; do
		skip_point "needs root and unshare" "$d"
	done
fi

done_testing
