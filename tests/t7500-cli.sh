#!/bin/sh
# t7500-cli - the command line of compare, report, export and merge: help,
# usage errors, missing databases (exit statuses of benchorch(1)).
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$BENCHORCH" --help >"$tmp/out"
for cmd in compare report export merge; do
	grep -Eq "^  $cmd " "$tmp/out"
	ok $? "benchorch --help lists $cmd"
	"$BENCHORCH" "$cmd" --help >"$tmp/h" 2>&1 && head -1 "$tmp/h" | grep -q "^Usage: benchorch $cmd"
	ok $? "$cmd --help starts with its usage line"
	grep -q "^\.B $cmd\$" "$top_srcdir/orchestrator/benchorch.1"
	ok $? "benchorch(1) documents $cmd"
	"$BENCHORCH" "$cmd" --frobnicate >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "unknown option '--frobnicate'" "$tmp/err"
	ok $? "$cmd: an unknown option exits 2"
done

"$BENCHORCH" compare --db "$tmp/none.db" 1 2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/none.db'" "$tmp/err" && [ ! -e "$tmp/none.db" ]
ok $? "compare on a missing database exits 3 and creates nothing"
"$BENCHORCH" report --db "$tmp/none.db" -o "$tmp/r.html" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -e "$tmp/none.db" ] && [ ! -e "$tmp/r.html" ]
ok $? "report on a missing database exits 3 and writes nothing"
"$BENCHORCH" export --db "$tmp/none.db" -o "$tmp/x.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -e "$tmp/x.db" ]
ok $? "export of a missing database exits 3 and writes nothing"
"$BENCHORCH" merge --db "$tmp/m.db" "$tmp/none.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/none.db'" "$tmp/err"
ok $? "merging a missing database exits 3, naming it"
"$BENCHORCH" compare --latest 3 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "latest takes 2, not '3'" "$tmp/err"
ok $? "compare --latest 3 is a usage error"
"$BENCHORCH" compare --threshold lots 1 2 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "compare --threshold lots is a usage error"
"$BENCHORCH" compare --latest 2 1 2 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "compare with both --latest 2 and run ids is a usage error"
"$BENCHORCH" merge >/dev/null 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "merge without a database to merge is a usage error"
"$BENCHORCH" export >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "needs -o OUT.db" "$tmp/err"
ok $? "export without -o is a usage error"

"$top_builddir/tests/fixtures/results-mkdb" "$tmp/one.db" &&
	sqlite3 "$tmp/one.db" "pragma foreign_keys = on; delete from runs where id > 1" 2>/dev/null
"$BENCHORCH" compare --db "$tmp/one.db" --latest 2 >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "needs two runs with results, the database has 1" "$tmp/err"
ok $? "compare --latest 2 with one run says so"

done_testing
