#!/bin/sh
# t4036-db-corrupt - a database SQLite finds malformed is said to be one,
# never taken for an empty one: every command that reads it exits 3 with
# one line naming the database and SQLite's message, prints nothing on
# stdout, and export leaves no output file. Two damages of a fixture
# database, each made by overwriting fixed pages with a fixed pattern:
# pages of the schema (every query fails to compile), and the root page of
# the results table (the runs stay readable, the results do not). The
# sound database exits 0 for the same commands.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/r.db"
ok $? "fixture database with three runs"
# one file in rollback journal mode, as export writes it: no write-ahead
# log holds pages the damage would miss
"$BENCHORCH" export --db "$tmp/r.db" -o "$tmp/ok.db" &&
	[ ! -e "$tmp/ok.db-wal" ] && [ "$(wc -c <"$tmp/ok.db")" -ge $((4096 * 40)) ]
ok $? "exported as one file of 40 pages or more"

# damage NAME PAGE COUNT: $tmp/NAME.db, a copy of ok.db with COUNT pages
# from page PAGE (1-based, 4096 bytes) overwritten with 0x55 bytes
damage() {
	cp "$tmp/ok.db" "$tmp/$1.db" &&
		head -c $((4096 * $3)) /dev/zero | tr '\000' '\125' |
		dd of="$tmp/$1.db" bs=4096 seek=$(($2 - 1)) conv=notrunc 2>/dev/null
}
# pages 20 and 21 of the fixture hold the schema, 26 the root of the
# results table (checked with sqlite3 where it is installed)
if command -v sqlite3 >/dev/null 2>&1; then
	[ "$(sqlite3 "$tmp/ok.db" "SELECT rootpage FROM sqlite_master WHERE name = 'results'")" = 26 ]
	ok $? "the results table's root is page 26"
else
	skip_point "needs sqlite3" "the results table's root is page 26"
fi
damage schema 20 10 && damage results 26 1
ok $? "two damaged copies"


for name in schema results; do
	expect_db_error $name "results" -- results
	expect_db_error $name "results --summary" -- results --summary
	expect_db_error $name "results --all" -- results --all
	expect_db_error $name "results --format csv" -- results --format csv
	expect_db_error $name "report" -- report -o "$tmp/$name.html"
	[ ! -e "$tmp/$name.html" ]
	ok $? "$name: report writes no file"
	expect_db_error $name "report -o .svg" -- report -o "$tmp/$name.svg"
	expect_db_error $name "compare --latest 2" -- compare --latest 2
	expect_db_error $name "compare 1 3" -- compare 1 3
	expect_db_error $name "compare --points" -- compare --points 1 3
	expect_db_error $name "compare --machines" -- compare --machines
	expect_db_error $name "export" -- export -o "$tmp/$name-out.db"
	[ ! -e "$tmp/$name-out.db" ] && [ ! -e "$tmp/$name-out.db-wal" ] &&
		[ ! -e "$tmp/$name-out.db-journal" ]
	ok $? "$name: export leaves no output file"
	expect_db_error $name "export --run 3" -- export --run 3 -o "$tmp/$name-run.db"
	[ ! -e "$tmp/$name-run.db" ]
	ok $? "$name: export --run leaves no output file"
done
# the schema's damage leaves no query standing: the runs and the tools too
expect_db_error schema "runs" -- runs
expect_db_error schema "results --tools" -- results --tools
expect_db_error schema "results --resources" -- results --resources
# merge reads every run of the database merged in
"$BENCHORCH" merge --db "$tmp/into.db" "$tmp/results.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "malformed" "$tmp/err" && grep -q "'$tmp/results.db'" "$tmp/err"
ok $? "merge of the damaged database exits 3 naming it (exit $rc: $(head -1 "$tmp/err"))"

expect_db_sound "results" -- results
expect_db_sound "results --summary" -- results --summary
# the fixture has no resource figures: "none" is the answer (exit 1), for
# the results' damage too, which leaves them readable
for name in ok results; do
	"$BENCHORCH" results --resources --db "$tmp/$name.db" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "^benchorch: no resource figures in '$tmp/$name.db'" "$tmp/err"
	ok $? "$name: results --resources finds none, exit 1 (exit $rc: $(head -1 "$tmp/err"))"
done
expect_db_sound "runs" -- runs
expect_db_sound "compare --latest 2" -- compare --latest 2
expect_db_sound "compare --points" -- compare --points 1 3
expect_db_sound "compare --machines" -- compare --machines
expect_db_sound "report to stdout" -- report -o -
"$BENCHORCH" export --db "$tmp/ok.db" -o "$tmp/ok-out.db" &&
	[ -s "$tmp/ok-out.db" ] &&
	"$BENCHORCH" export --db "$tmp/ok.db" --run 3 -o "$tmp/ok-run.db" &&
	[ -s "$tmp/ok-run.db" ]
ok $? "sound: export and export --run exit 0 and write the file"
"$BENCHORCH" merge --db "$tmp/into.db" "$tmp/ok.db" >/dev/null 2>&1
ok $? "sound: merge exits 0"
done_testing
