#!/bin/sh
# t7500-cli - the command line of compare, report, export and merge: help,
# usage errors, missing databases (exit statuses of benchorch(1)).
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$BENCHORCH" --help >"$tmp/out"
for cmd in compare confirm duet report export merge rebuild; do
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
[ $? -eq 2 ] && grep -q "'$tmp/none.db'" "$tmp/err"
ok $? "merging a missing database exits 2 (an input named on the command line), naming it"
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

# Numbers: malformed or out of range is a usage error (exit 2, one error
# line naming the value), never clamped.
# numeric CMD DESCRIPTION MESSAGE ARGS...
numeric() {
	cmd=$1
	desc=$2
	msg=$3
	shift 3
	"$BENCHORCH" "$cmd" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(grep -c "^benchorch $cmd: .*$msg" "$tmp/err")" -eq 1 ] &&
		[ "$(grep -vc "^Try 'benchorch $cmd --help'.$" "$tmp/err")" -eq 1 ]
	ok $? "$cmd $desc (exit $rc: $(head -1 "$tmp/err"))"
}
big=99999999999999999999
numeric duet "--rounds 2" "--rounds: '2' is out of range (3 to 150)" a b --rounds 2
numeric duet "--threshold 0" "--threshold: want more than 0 %" a b --threshold 0
numeric duet "--threshold x" "--threshold: 'x' is not a percentage" a b --threshold x
numeric compare "with a run id out of range" "'$big' is out of range (1 to 9223372036854775807)" 1 $big
numeric compare "with a run id 0" "'0' is out of range" 0 1
numeric compare "with a run id 1.5" "'1.5' is not a whole number" 1.5 2
for t in 1e999 inf nan 0x10 -1 10001 5%% '' ' 5'; do
	numeric compare "--threshold '$t'" "--threshold: '$t' is not a percentage from 0 to 10000" \
		--threshold "$t" 1 2
done
numeric report "--run out of range" "'$big' is out of range" --run $big -o "$tmp/r.html"
numeric report "--run -3" "'-3' is out of range" --run -3 -o "$tmp/r.html"
numeric report "--size out of range" "invalid size '$big'" --size $big -o "$tmp/r.html"
numeric export "--run out of range" "'$big' is out of range" --run $big -o "$tmp/x.db"
numeric export "--run 2x" "'2x' is not a whole number" --run 2x -o "$tmp/x.db"
[ ! -e "$tmp/r.html" ] && [ ! -e "$tmp/x.db" ]
ok $? "and nothing is written"

"$top_builddir/tests/fixtures/results-mkdb" "$tmp/one.db" &&
	sqlite3 "$tmp/one.db" "pragma foreign_keys = on; delete from runs where id > 1" 2>/dev/null
"$BENCHORCH" compare --db "$tmp/one.db" --latest 2 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "needs two finished runs with results, the database has 1" "$tmp/err"
ok $? "compare --latest 2 with one run says so"
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/two.db"
"$BENCHORCH" compare --db "$tmp/two.db" --threshold 5% --all 1 2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "above 5.0 %" "$tmp/out"
ok $? "compare --threshold 5% (with its percent sign) still works"
"$BENCHORCH" compare --db "$tmp/two.db" 2 2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "BASE and NEW are the same run (2)" "$tmp/err"
ok $? "compare of a run with itself is a usage error, not silence"
"$BENCHORCH" export --db "$tmp/one.db" --run 4294967297 -o "$tmp/x.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no run 4294967297 in '$tmp/one.db'" "$tmp/err" &&
	[ ! -e "$tmp/x.db" ]
ok $? "export --run of a large missing run id names it, writes nothing"

done_testing
