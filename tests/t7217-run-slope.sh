#!/bin/sh
# t7217-run-slope - slope cyc/B is the run's curve's: every invocation of
# a run fits its own curve (table curves), and results (table, csv,
# json) and the report show one figure for the run, the mean of its
# invocations' fits, the same on every row of the curve. On the
# results-mkdb database, run 3's openssl aes-256-gcm encrypt curve on
# debian:bookworm (fitted at 0.75 cycles per byte) gets a second
# invocation whose fit says 0.85: every row shows 0.80, not one
# invocation's 0.75 or 0.85.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "results-mkdb builds the database"
q() { sqlite3 -batch -noheader "$db" "$1"; }

inv=$(q "select i.id from invocations i join images m on m.id = i.image_id
	where i.run_id = 3 and m.distro = 'debian'")
lib=$(q "select id from libraries where name = 'openssl' and id in
	(select library_id from results where invocation_id = $inv)")
ok $([ -n "$inv" ] && [ -n "$lib" ]; echo $?) "run 3's debian invocation $inv, openssl $lib"
# the second invocation: the same points, slightly slower, and its own fit
q "create temp table inv2 as select * from invocations where id = $inv;
update inv2 set id = (select max(id) + 1 from invocations);
insert into invocations select * from inv2;
create temp table r2 as select * from results where invocation_id = $inv
	and library_id = $lib and algorithm = 'aes-256-gcm'
	and operation = 'encrypt' and mode = 'bulk';
update r2 set id = id + 1000000, invocation_id = (select id from inv2),
	median_ns = median_ns + 1, mb_per_s = mb_per_s * 0.999;
insert into results select * from r2;
create temp table c2 as select * from curves where invocation_id = $inv
	and library_id = $lib and algorithm = 'aes-256-gcm'
	and operation = 'encrypt' and mode = 'bulk';
update c2 set invocation_id = (select id from inv2),
	ns_per_byte = ns_per_byte * 0.85 / cycles_per_byte,
	cycles_per_byte = 0.85;
insert into curves select * from c2;"
ok $? "a second invocation of the curve, fitted at 0.85 cycles per byte"
n=$(q "select count(distinct cycles_per_byte) || ' ' || group_concat(cycles_per_byte)
	from curves c join invocations i on i.id = c.invocation_id
	where i.run_id = 3 and c.library_id = $lib and c.algorithm = 'aes-256-gcm'
	and c.operation = 'encrypt' and c.mode = 'bulk'")
ok $([ "${n%% *}" = 2 ]; echo $?) "the two invocations' fits differ: $n"

sel="--run 3 --distro debian --lib openssl --algo aes-256-gcm --op encrypt --db $db"
"$BENCHORCH" results $sel >"$tmp/tbl" 2>"$tmp/err"
ok $? "results (table) exits 0"
v=$(sed '1,/^$/d' "$tmp/tbl" | awk '$1 == 3 && $(NF - 3) == "bulk" { print $(NF - 1) }' | sort -u)
ok $([ "$v" = 0.80 ]; echo $?) "table: slope cyc/B 0.80 on every bulk row (got: $(echo $v))"
"$BENCHORCH" results $sel --format csv >"$tmp/csv" 2>"$tmp/err"
ok $? "results --format csv exits 0"
v=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "cycles_per_byte") c = i; if ($i == "mode") m = i } next }
	$m == "bulk" { print $c }' "$tmp/csv" | sort -u)
ok $([ "$v" = 0.8 ]; echo $?) "csv: cycles_per_byte 0.8 on every bulk row (got: $(echo $v))"
"$BENCHORCH" results $sel --format json >"$tmp/json" 2>"$tmp/err"
v=$(tr -d ' \n' <"$tmp/json" | tr '}' '\n' | grep '"mode":"bulk"' |
	sed 's/.*"cycles_per_byte":\([^,]*\),.*/\1/' | sort -u)
ok $([ "$v" = 0.8 ]; echo $?) "json: cycles_per_byte 0.8 on every bulk row (got: $(echo $v))"

"$BENCHORCH" report --run 3 --db "$db" -o "$tmp/r.html" 2>"$tmp/err"
ok $? "report exits 0"
sed -n '/<h2>aes-256-gcm encrypt<\/h2>/,/<h2>/p' "$tmp/r.html" |
	grep '<tr><td>openssl, debian:bookworm</td>' >"$tmp/fit"
grep -q '^<tr><td>[^<]*</td>\(<td[^>]*>[^<]*</td>\)\{2\}<td[^>]*>0\.80</td>' "$tmp/fit"
ok $? "report: the fit's slope cyc/B is 0.80 as well: $(cat "$tmp/fit")"

done_testing
