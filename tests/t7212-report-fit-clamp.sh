#!/bin/sh
# t7212-report-fit-clamp - the report never shows a start-up overhead below
# zero: a fit stored as negative (before fits were clamped) is refitted
# from the curve's points, and the caption says that negative overheads
# are clamped to 0. The fixture's openssl curve is 100 ns + 0.25 ns/B at a
# measured 3.0 GHz (tests/fixtures/results-mkdb.c).
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database"
sqlite3 "$db" "update curves set overhead_ns = -1, ns_per_byte = 0.26,
	cycles_per_byte = 0.78 where mode = 'bulk' and operation = 'encrypt'
	and algorithm = 'aes-256-gcm' and library_id in (select id from
	libraries where name = 'openssl') and invocation_id in (select id
	from invocations where run_id = 3)"
[ "$(sqlite3 "$db" "select count(*) from curves where overhead_ns < 0")" -ge 1 ]
ok $? "a stored fit with overhead -1 ns"
"$BENCHORCH" report --db "$db" --run 3 -o "$tmp/report.html" 2>"$tmp/err"
ok $? "report exits 0"
grep -q 'an overhead that fits below zero is clamped to 0' "$tmp/report.html"
ok $? "the fit table says negative overheads are clamped"
! grep -q '<td class="num">-1</td>' "$tmp/report.html" &&
	grep -q '<td>openssl, debian:bookworm</td><td class="num">100</td><td class="num">0.250</td><td class="num">0.75</td>' "$tmp/report.html"
ok $? "the stored -1 ns is not shown: refitted from the points (100 ns, 0.250 ns/B, 0.75 cycles/B at the stored clock)"
done_testing
