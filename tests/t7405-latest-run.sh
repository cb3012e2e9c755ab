#!/bin/sh
# t7405-latest-run - "the latest run" has one meaning: the latest finished
# run of the kind asked for (the view latest_runs_v). On the fixture
# database (finished runs 1 to 3) followed by an aborted run (4), a
# confirmation run (5) and a tool run (6): every db/README example returns
# rows, results, results --summary, report and compare --latest 2 take
# run 3 and say on stderr which newer runs they skipped (stdout has the
# results only), results --tools takes run 6; on a database older than
# the view, opened read-only, they take the same run and write nothing.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
readme="$top_srcdir/db/README"

# cols TABLE EXCEPT...: TABLE's columns but EXCEPT, comma-separated
cols() {
	t=$1
	shift
	not=$(printf "'%s'," id "$@")
	sqlite3 "$db" "select group_concat(name, ', ') from pragma_table_info('$t')
		where name not in (${not%,})"
}

"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three finished runs"
rc=$(cols runs uuid started_at finished_at status)
ic=$(cols invocations run_id algorithms)
xc=$(cols results invocation_id)
# copy_run ID STARTED STATUS SPEC ALGORITHMS: a new run like run 3,
# with run 3's invocations of SPEC ('%' all) and their results of
# ALGORITHMS (a LIKE pattern); ALGORITHMS 'tools' copies no result
copy_run() {
	sqlite3 "$db" "pragma foreign_keys = on;
	insert into runs (id, uuid, started_at, finished_at, status, $rc)
		select $1, 't7405-$1', '$2', '$2', '$3', $rc from runs where id = 3;
	create temp table src as select id from invocations
		where run_id = 3 and spec like '$4' order by id;
	insert into invocations (run_id, algorithms, $ic)
		select $1, '$5', $ic from invocations where id in (select id from src) order by id;
	create temp table map as select s.id as old, n.id as new
		from (select id, row_number() over (order by id) k from src) s
		join (select id, row_number() over (order by id) k from invocations
		      where run_id = $1) n on n.k = s.k;
	insert into results (invocation_id, $xc)
		select m.new, $xc from results r join map m on m.old = r.invocation_id
		where '$5' <> 'tools' and r.algorithm like '$5'"
}
copy_run 4 2026-01-04T00:00:00Z aborted % % &&
copy_run 5 2026-01-05T00:00:00Z done debian sha-256 &&
sqlite3 "$db" "insert into confirmations (run_id, confirmed_run_id, distro, release)
	values (5, 3, 'debian', 'bookworm')" &&
copy_run 6 2026-01-06T00:00:00Z done debian tools &&
sqlite3 "$db" "insert into tool_results (invocation_id, tool, cipher, direction,
	variant, status, bytes) select id, 'age', 'chacha20', 'encrypt', 'hw',
	'absent', 1048576 from invocations where run_id = 6"
ok $? "then an aborted run 4, a confirmation run 5 of run 3, a tool run 6"
[ "$(sqlite3 "$db" "select group_concat(kind || ':' || nth || ':' || run_id, ' ')
	from (select * from latest_runs_v order by kind, nth)")" = \
	"confirmation:1:5 library:1:3 library:2:2 library:3:1 tools:1:6" ]
ok $? "latest_runs_v: finished runs by kind, the latest first"

# every db/README example returns rows
awk -v dir="$tmp" '
	/^-- example: / { n++; f = dir "/q." n; print substr($0, 13) >f; inq = 1; next }
	/^-- end$/ { inq = 0; close(f); next }
	inq { print >>f }
' "$readme"
for f in "$tmp"/q.*; do
	title=$(head -1 "$f")
	tail -n +2 "$f" | sqlite3 -batch -bail -header "$db" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rows=$(($(wc -l <"$tmp/out") - 1))
	[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$rows" -ge 1 ]
	ok $? "db/README: $title ($rows rows)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
done
[ "$(sqlite3 "$db" "select run_id from latest_runs_v where kind = 'library' and nth = 1")" = 3 ]
ok $? "the latest library run is run 3"

skipped="run 6 is a tool run, run 5 is a confirmation run, run 4 was aborted; showing run 3, the latest finished library run"
# said ERRFILE: stderr names the skipped runs and the run taken, and says
# nothing of the aborted run's partial results
said() {
	grep -qxF "benchorch: $skipped" "$1" && ! grep -q 'partial' "$1"
}
"$BENCHORCH" results --db "$db" --format csv >"$tmp/out" 2>"$tmp/err"
ok $? "results exits 0"
[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = 3 ]
ok $? "results shows run 3: $(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u | tr '\n' ' ')"
said "$tmp/err"
ok $? "and says which runs it skipped: $(head -1 "$tmp/err")"
! grep -q 'showing\|skipped' "$tmp/out"
ok $? "nothing but results on stdout"
"$BENCHORCH" results --db "$db" --summary >"$tmp/out" 2>"$tmp/err" &&
	grep -q 'results --run 3' "$tmp/out" && ! grep -q 'run [456]' "$tmp/out"
ok $? "results --summary shows run 3"
said "$tmp/err"
ok $? "and says which runs it skipped: $(head -1 "$tmp/err")"
"$BENCHORCH" results --db "$db" --resources --format csv >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 3 ] && said "$tmp/err" && ! grep -q '^[456],' "$tmp/out"
ok $? "results --resources takes run 3 too (exit $rc)"
"$BENCHORCH" report --db "$db" -o "$tmp/report.html" 2>"$tmp/err"
ok $? "report exits 0"
said "$tmp/err"
ok $? "report says which runs it skipped: $(head -1 "$tmp/err")"
"$BENCHORCH" report --db "$db" --run 3 -o "$tmp/report3.html" 2>/dev/null &&
	sed 's/[0-9]*-[0-9-]*T[0-9:]*Z//g' "$tmp/report.html" >"$tmp/a" &&
	sed 's/[0-9]*-[0-9-]*T[0-9:]*Z//g' "$tmp/report3.html" >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b"
ok $? "the report is run 3's (as report --run 3)"
"$BENCHORCH" compare --db "$db" --latest 2 --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -le 1 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["base_run"], d["new_run"]) == (2, 3), (d["base_run"], d["new_run"])' "$tmp/out"
ok $? "compare --latest 2 compares runs 2 and 3 (exit $rc)"
said "$tmp/err"
ok $? "and says which runs it skipped: $(head -1 "$tmp/err")"
"$BENCHORCH" results --db "$db" --tools --format csv >"$tmp/out" 2>"$tmp/err" &&
	[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = 6 ] && [ ! -s "$tmp/err" ]
ok $? "results --tools shows tool run 6, silently (the newest run)"

# a database older than the view (schema 14), read as it is: the same
# run, and nothing written
cp "$db" "$tmp/old.db"
sqlite3 "$tmp/old.db" "drop view latest_runs_v; pragma user_version = 14"
"$BENCHORCH" results --db "$tmp/old.db" --format csv >"$tmp/out" 2>"$tmp/err" &&
	[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = 3 ] && said "$tmp/err"
ok $? "schema 14: results shows run 3 and says so: $(head -1 "$tmp/err")"
[ "$(sqlite3 "$tmp/old.db" "pragma user_version")" = 14 ] &&
	[ -z "$(sqlite3 "$tmp/old.db" "select name from sqlite_master where name = 'latest_runs_v'")" ]
ok $? "and the database is left at schema 14, without the view"

done_testing
