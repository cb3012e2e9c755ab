#!/bin/sh
# t7215-summary-ties - the summary says "a = b" where a run's pairs (the
# libraries taking turns, run's default) do not tell a library apart from the fastest at 16 KiB:
# on the results-mkdb database, run 3 gets pairs for aes-256-gcm
# encryption on debian:bookworm at 16 KiB, in two invocations: the
# second library ties with the fastest in one of them; the third is
# clearly slower in both. The fastest cell names the fastest and the
# tied one, not the third, with the legend; sha-256 (no pairs) and run 2
# (no pairs) name one fastest and no legend. And when, in one invocation,
# the fastest was the slower of a pair, the two are a tie too; the
# report's table of the fastest says so as well, with the same marks on
# the runner-up and slowest and a legend for '='.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "results-mkdb builds the database"
q() { sqlite3 -batch -noheader "$db" "$1"; }

# the libraries of the point, fastest first, as the summary ranks them
point="run_id = 3 and distro = 'debian' and algorithm = 'aes-256-gcm'
	and operation = 'encrypt' and mode = 'bulk' and buffer_bytes = 16384"
set -- $(q "select library from points_v where $point order by mb_per_s desc")
top=$1 second=$2 third=$3
ok $([ -n "$third" ]; echo $?) "three libraries at the point: $top, $second, $third"
inv=$(q "select min(r.invocation_id) from results r join invocations i
	on i.id = r.invocation_id where i.run_id = 3")
lid() { q "select id from libraries where name = '$1' and id in
	(select library_id from results where invocation_id = $inv) limit 1"; }
# pair INV LIB VERSUS RATIO LOW HIGH TIE
pair() {
	q "insert into pairs values ($1, $(lid "$2"), $(lid "$3"),
	'aes-256-gcm', 'encrypt', 'bulk', 16384, $4, $5, $6, 0.96, 12, $7, 1000)"
}
pair "$inv" "$second" "$top" 0.97 0.95 0.99 0
pair "$inv" "$third" "$top" 0.50 0.48 0.52 0
# a second invocation of the point (the same invocation row's run)
inv2=$(q "insert into invocations (run_id, image_id, spec, started_at, status)
	select run_id, image_id, spec, started_at, 'ok' from invocations
	where id = $inv; select last_insert_rowid()")
pair "$inv2" "$second" "$top" 0.99 0.97 1.02 1
pair "$inv2" "$third" "$top" 0.51 0.49 0.53 0

"$BENCHORCH" results --summary --run 3 --db "$db" >"$tmp/out" 2>"$tmp/err"
ok $? "results --summary --run 3 exits 0"
sed -n '/^debian:bookworm/,/^$/p' "$tmp/out" | grep ' aes-256-gcm ' >"$tmp/row"
grep -q " $top = $second " "$tmp/row" && ! grep -q "= $third" "$tmp/row"
ok $? "aes-256-gcm: '$top = $second', not $third: $(cat "$tmp/row")"
sed -n '/^debian:bookworm/,/^$/p' "$tmp/out" | grep ' sha-256 ' | grep -q ' = '
ok $([ $? -ne 0 ]; echo $?) "sha-256, without pairs: one fastest"
grep -q '^a = b, x0.95=: a tie' "$tmp/out"
ok $? "the legend says what '=' means"
"$BENCHORCH" results --summary --run 2 --db "$db" >"$tmp/out2" 2>&1
ok $([ $? -eq 0 ] && ! grep -q '^  [a-z0-9-]*  *[a-z]* = \|^a = b' "$tmp/out2"; echo $?) \
	"run 2, without pairs: no tie, no legend"

# the fastest the slower of a pair in one invocation: the third ties
pair "$inv2" "$top" "$third" 0.90 0.85 0.95 0
"$BENCHORCH" results --summary --run 3 --db "$db" >"$tmp/out" 2>&1
sed -n '/^debian:bookworm/,/^$/p' "$tmp/out" | grep ' aes-256-gcm ' >"$tmp/row"
grep -q "= $third" "$tmp/row"
ok $? "the guests disagree on which is faster: a tie ($(cat "$tmp/row"))"
"$BENCHORCH" report --run 3 --db "$db" -o "$tmp/r.html" 2>"$tmp/err"
grep -q "<td>$top [^<]* = $second = $third</td>" "$tmp/r.html"
ok $? "the report's fastest table says the same: $top = $second = $third"
grep "<td>$top [^<]* = $second = $third</td>" "$tmp/r.html" |
	grep -q "<td>$second &times;[0-9.]*[~!]*=</td><td>$third &times;[0-9.]*[~!]*=</td>"
ok $? "the report's runner-up and slowest keep their tie marks, as the summary's"
grep -q 'a = b, &times;0.95=: a tie with the fastest' "$tmp/r.html"
ok $? "the report's overview says what '=' means"
"$BENCHORCH" report --run 2 --db "$db" -o "$tmp/r2.html" 2>"$tmp/err"
ok $([ $? -eq 0 ] && ! grep -q 'a = b, &times;0.95=' "$tmp/r2.html"; echo $?) \
	"run 2, without pairs: no '=' legend in the report"
# a run measured taking turns is not "made like" one measured one library
# after the other: compare --latest 2 does not pair them, and two run ids
# given anyway get a caveat
"$BENCHORCH" compare --latest 2 --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -ne 0 ] && grep -q "not --quick\|--quick" "$tmp/err" &&
	grep -q -- "libraries taking turns" "$tmp/err"; echo $?) \
	"compare --latest 2 does not pair an interleaved run with another (exit $rc): $(tail -1 "$tmp/err")"
"$BENCHORCH" compare 2 3 --db "$db" >"$tmp/out" 2>&1
grep -q "the runs differ in how the libraries were measured (base one after the other, --sequential, new taking turns)" "$tmp/out"
ok $? "compare 2 3 says how the two runs measured differently"
done_testing
