#!/bin/sh
# t7216-cpb-labels - a cycles-per-byte figure says which it is, wherever
# it is labelled: cyc/B@16K for the 16 KiB point (run summary, the
# report's table of the fastest and heat map), slope cyc/B for the
# curve's fitted cost per byte (results table, the report's fits); the
# help texts, benchorch(1), README and db/README use the same two names
# and no bare "cyc/B" or "cycles/byte" label. On the results-mkdb
# database, whose openssl aes-256-gcm curve is fitted at 0.75 cycles per
# byte: the two figures differ, and each sits under its own name.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs"

# bare FILE: the lines of FILE with a "cyc/B" that is neither
# "slope cyc/B" nor "cyc/B@16K", or with "cycles/byte"
bare() {
	sed -e 's/slope cyc\/B//g' -e 's/cyc\/B@16K//g' "$1" |
		grep -n -e 'cyc/B' -e 'cycles/byte'
}

"$BENCHORCH" results --summary --run 3 --db "$db" >"$tmp/sum" 2>"$tmp/err"
ok $? "results --summary exits 0"
grep -Eq '^  algorithm +fastest@16K +MB/s +cyc/B@16K +runner-up +slowest +fastest@16B +MB/s$' "$tmp/sum" &&
	grep -q 'cyc/B@16K = core cycles per byte of the 16 KiB' "$tmp/sum"
ok $? "summary: the column is cyc/B@16K, and the legend says it is the 16 KiB point"
! bare "$tmp/sum"
ok $? "summary: no other cycles-per-byte label"

"$BENCHORCH" results --run 3 --db "$db" >"$tmp/tbl" 2>"$tmp/err"
ok $? "results (table) exits 0"
grep -Eq '^run +distro .* +variant +slope cyc/B +CV%$' "$tmp/tbl" && ! bare "$tmp/tbl"
ok $? "results table: the column is slope cyc/B, no other label"
slope=$(sed '1,/^$/d' "$tmp/tbl" | awk '$2 == "debian:bookworm" && $3 == "openssl" &&
	$6 == "aes-256-gcm" && $7 == "encrypt" && $8 == "16" && $9 == "KiB" { print $(NF - 1) }')
point=$(awk '/^debian:bookworm/ { d = 1 } d && $1 == "aes-256-gcm" { print $4; exit }' "$tmp/sum")
[ "$slope" = 0.75 ] && [ -n "$point" ] && [ "$point" != "$slope" ]
ok $? "openssl aes-256-gcm encrypt: slope cyc/B $slope, cyc/B@16K $point: two figures, two names"

"$BENCHORCH" report --run 3 --db "$db" -o "$tmp/r.html" 2>"$tmp/err"
ok $? "report exits 0"
grep -q '<th>ns/byte</th><th>slope cyc/B</th>' "$tmp/r.html" &&
	grep -q '<th>MB/s</th><th>cyc/B@16K</th><th>runner-up</th>' "$tmp/r.html" &&
	grep -q ' cyc/B@16K">' "$tmp/r.html"
ok $? "report: fits under slope cyc/B, the fastest's point and the heat map's hover under cyc/B@16K"
! bare "$tmp/r.html"
ok $? "report: no other cycles-per-byte label"

for c in run results report; do
	"$BENCHORCH" $c --help >"$tmp/help-$c" 2>&1
done
grep -q 'cyc/B@16K' "$tmp/help-run" && grep -q 'slope cyc/B' "$tmp/help-results" &&
	grep -q 'cyc/B@16K' "$tmp/help-results" && grep -q 'slope cyc/B' "$tmp/help-report" &&
	grep -q 'cyc/B@16K' "$tmp/help-report" &&
	! bare "$tmp/help-run" && ! bare "$tmp/help-results" && ! bare "$tmp/help-report"
ok $? "run, results and report --help name the figures as their output does"

# the man page joins words across lines: one line per paragraph
tr '\n' ' ' <"$top_srcdir/orchestrator/benchorch.1" | sed 's/\.B results /results /g' >"$tmp/man"
grep -q 'column cyc/B@16K' "$tmp/man" && grep -q 'column slope cyc/B' "$tmp/man" && ! bare "$tmp/man"
ok $? "benchorch(1): cyc/B@16K in run's summary, slope cyc/B in results' table"
tr '\n' ' ' <"$top_srcdir/README" >"$tmp/readme"
tr '\n' ' ' <"$top_srcdir/db/README" | sed 's/  */ /g' >"$tmp/dbreadme"
grep -q 'cyc/B@16K' "$tmp/readme" && grep -q 'slope cyc/B' "$tmp/readme" && ! bare "$tmp/readme" &&
	grep -q '"slope cyc/B"' "$tmp/dbreadme" && grep -q 'cyc/B@16K is another figure' "$tmp/dbreadme" &&
	! bare "$tmp/dbreadme"
ok $? "README and db/README: the same two names; cycles_per_byte is the slope"

done_testing
