#!/bin/sh
# t7020-points - a run measures every point in two guest invocations;
# results, summary, fastest and report show one figure per point, the
# median of the invocations' medians (points_v), not one row per
# invocation.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs"
q() { sqlite3 "$db" "$1"; }

"$BENCHORCH" results --db "$db" --format csv >"$tmp/once.csv" 2>/dev/null
ok $? "results of run 3 as measured once"
"$BENCHORCH" results --db "$db" --summary >"$tmp/once.sum" 2>/dev/null
ok $? "its summary"
"$BENCHORCH" compare --db "$db" --format csv 2 3 >"$tmp/once.cmp" 2>/dev/null
[ -s "$tmp/once.cmp" ]
ok $? "compare run 2 with run 3"

# Run 3 measured a second time: every invocation copied (its results
# three times slower per call), as the second round of a run would add.
q "CREATE TEMP TABLE ti AS SELECT * FROM invocations WHERE run_id = 3;
   UPDATE ti SET id = id + 1000;
   INSERT INTO invocations SELECT * FROM ti;
   CREATE TEMP TABLE tr AS SELECT r.* FROM results r
     JOIN invocations i ON i.id = r.invocation_id WHERE i.run_id = 3;
   UPDATE tr SET id = id + 100000, invocation_id = invocation_id + 1000,
     median_ns = median_ns * 3, min_ns = min_ns * 3, p25_ns = p25_ns * 3,
     p75_ns = p75_ns * 3, mb_per_s = mb_per_s / 3;
   INSERT INTO results SELECT * FROM tr;"
ok $? "a second invocation of every point of run 3, 3 times slower"
n3=$(q "SELECT count(*) FROM results_v WHERE run_id = 3")
p3=$(q "SELECT count(*) FROM points_v WHERE run_id = 3")
[ "$p3" -gt 0 ] && [ "$n3" -eq $((2 * p3)) ]
ok $? "results_v has both invocations ($n3 rows), points_v one row per point ($p3)"
[ "$(q "SELECT count(*) FROM points_v WHERE run_id = 3 AND invocations = 2
        AND abs(invocation_spread - 1.0) < 1e-9")" -eq "$p3" ]
ok $? "each point: 2 invocations, spread (3x - x) / 2x = 1"
[ "$(q "SELECT count(*) FROM points_v p JOIN results r ON r.id = p.result_id
        WHERE p.run_id = 3 AND r.id < 100000
        AND abs(p.mb_per_s * 2 - r.mb_per_s) <= 1e-4 * r.mb_per_s
        AND p.median_ns = r.median_ns * 2")" -eq "$p3" ]
ok $? "median of the two: twice the faster one's time per call, half its MB/s"
# the quartiles span both invocations: the faster one's first quartile,
# the slower one's third, so that the median lies between them
[ "$(q "SELECT count(*) FROM points_v p JOIN results r ON r.id = p.result_id
        WHERE p.run_id = 3 AND r.id < 100000 AND p.p25_ns = r.p25_ns
        AND p.p75_ns = r.p75_ns * 3
        AND p.median_ns BETWEEN p.p25_ns AND p.p75_ns")" -eq "$p3" ]
ok $? "quartiles of the two: the faster's p25, the slower's p75, the median between"
[ "$(q "SELECT count(*) FROM points_v WHERE run_id IN (1, 2) AND invocations = 1
        AND invocation_spread = 0")" -eq \
  "$(q "SELECT count(*) FROM results_v WHERE run_id IN (1, 2)")" ]
ok $? "runs measured once: one row per result, spread 0"

"$BENCHORCH" results --db "$db" --format csv >"$tmp/twice.csv" 2>/dev/null
ok $? "results of run 3 measured twice"
[ "$(wc -l <"$tmp/twice.csv")" -eq "$(wc -l <"$tmp/once.csv")" ]
ok $? "as many rows as before: no point listed twice ($(wc -l <"$tmp/twice.csv"))"
mb_col=$(head -1 "$tmp/once.csv" | tr ',' '\n' | grep -nx mb_per_s | cut -d: -f1)
ok=0
paste -d'|' "$tmp/once.csv" "$tmp/twice.csv" | sed 1d | {
	while IFS='|' read -r a b; do
		x=$(echo "$a" | cut -d, -f"$mb_col")
		y=$(echo "$b" | cut -d, -f"$mb_col")
		awk -v x="$x" -v y="$y" 'BEGIN { exit !(x > 0 && y > 0.49 * x && y < 0.51 * x) }' || exit 1
	done
	exit 0
}
ok $? "every row's MB/s is the median of the two invocations' (half)"

# the statistics results prints are the point's, over both invocations,
# as points_v has them: the median lies between the quartiles on every
# row, and a point noisy in one invocation only is noisy
col() { head -1 "$2" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
awk -F, -v m="$(col median_ns "$tmp/twice.csv")" \
	-v a="$(col p25_ns "$tmp/twice.csv")" -v b="$(col p75_ns "$tmp/twice.csv")" '
	NR > 1 { n++; if ($a + 0 <= $m + 0 && $m + 0 <= $b + 0) k++ }
	END { exit !(n > 0 && k == n) }' "$tmp/twice.csv"
ok $? "results: every row's median_ns lies between its p25_ns and p75_ns"
q "UPDATE results SET noisy = 1 WHERE id > 100000 AND id IN (SELECT r.id
     FROM results r JOIN libraries l ON l.id = r.library_id
     WHERE l.name = 'openssl' AND r.algorithm = 'sha-256'
     AND r.buffer_bytes = 16)"
"$BENCHORCH" results --db "$db" --format csv --lib openssl --algo sha-256 \
	--size 16 >"$tmp/noisy.csv" 2>/dev/null
[ "$(sed 1d "$tmp/noisy.csv" | cut -d, -f"$(col noisy "$tmp/noisy.csv")" |
     sort -u | tr -d '\r')" = 1 ] &&
	[ "$(sed 1d "$tmp/noisy.csv" | cut -d, -f"$(col p75_ns "$tmp/noisy.csv")" |
	     tr -d '\r' | sort -u)" = "$(q "SELECT max(r.p75_ns) FROM results r
	     JOIN libraries l ON l.id = r.library_id
	     JOIN invocations i ON i.id = r.invocation_id
	     WHERE i.run_id = 3 AND l.name = 'openssl' AND r.algorithm = 'sha-256'
	     AND r.buffer_bytes = 16 GROUP BY i.image_id" | sort -u)" ]
ok $? "a point noisy in its second invocation only is noisy; its p75 is the slower invocation's"

"$BENCHORCH" results --db "$db" --summary >"$tmp/twice.sum" 2>/dev/null
ok $? "summary of run 3 measured twice"
[ "$(wc -l <"$tmp/twice.sum")" -eq "$(wc -l <"$tmp/once.sum")" ]
ok $? "the summary has as many lines as before"
x=$(awk '$1 == "aes-256-gcm" && $2 == "openssl" { print $3; exit }' "$tmp/once.sum")
y=$(awk '$1 == "aes-256-gcm" && $2 == "openssl" { print $3; exit }' "$tmp/twice.sum")
awk -v x="$x" -v y="$y" 'BEGIN { exit !(x > 0 && y > 0.49 * x && y < 0.51 * x) }'
ok $? "the summary's fastest figure is the median of the invocations' ($x -> $y MB/s), not the faster one"
"$BENCHORCH" compare --db "$db" --format csv 2 3 >"$tmp/twice.cmp" 2>/dev/null
[ "$(wc -l <"$tmp/twice.cmp")" -eq "$(wc -l <"$tmp/once.cmp")" ]
ok $? "compare lists each point once, not once per pair of invocations ($(wc -l <"$tmp/twice.cmp") lines)"
"$BENCHORCH" report --db "$db" --run 3 -o "$tmp/r.html" >/dev/null 2>&1
ok $? "report of run 3 measured twice"

# Run 4, a confirmation of run 3 (made by run or the daemon on their
# own): OpenSSL's SHA-256 measured again. It is not "the latest run" of
# results, its summary, report or compare --machines: run 3 is.
q "INSERT INTO runs (id, uuid, host, pid, started_at, finished_at, status,
     command_line) SELECT 4, 'u-4', host, 1, '2026-02-01T00:00:00Z',
     '2026-02-01T00:01:00Z', 'done', 'benchorch confirm --run 3'
     FROM runs WHERE id = 3;
   INSERT INTO confirmations (run_id, confirmed_run_id, distro, release)
     VALUES (4, 3, 'debian', 'bookworm');
   CREATE TEMP TABLE ci AS SELECT * FROM invocations WHERE run_id = 3
     AND spec LIKE 'debian%' AND id < 1000 LIMIT 1;
   UPDATE ci SET id = 5000, run_id = 4;
   INSERT INTO invocations SELECT * FROM ci;
   CREATE TEMP TABLE cr AS SELECT r.* FROM results r JOIN libraries l
     ON l.id = r.library_id WHERE l.name = 'openssl'
     AND r.algorithm = 'sha-256' AND r.invocation_id =
     (SELECT id FROM invocations WHERE run_id = 3 AND spec LIKE 'debian%'
      AND id < 1000 LIMIT 1);
   UPDATE cr SET id = id + 500000, invocation_id = 5000;
   INSERT INTO results SELECT * FROM cr;"
[ "$(q "SELECT count(*) FROM results_v WHERE run_id = 4")" -gt 0 ]
ok $? "fixture: run 4 confirms run 3 with OpenSSL's SHA-256"
"$BENCHORCH" results --db "$db" --format csv >"$tmp/latest.csv" 2>/dev/null &&
	[ "$(sed 1d "$tmp/latest.csv" | cut -d, -f1 | sort -u)" = 3 ] &&
	[ "$(wc -l <"$tmp/latest.csv")" -eq "$(wc -l <"$tmp/twice.csv")" ]
ok $? "results without --run shows run 3 whole, not the confirmation run 4 ($(sed 1d "$tmp/latest.csv" | cut -d, -f1 | sort -u | tr '\n' ' '))"
"$BENCHORCH" results --db "$db" --summary 2>/dev/null | head -1 |
	grep -q '^Run 3:'
ok $? "results --summary without --run: run 3"
"$BENCHORCH" report --db "$db" -o "$tmp/latest.html" >/dev/null 2>&1 &&
	grep -q "$(q "SELECT uuid FROM runs WHERE id = 3")" "$tmp/latest.html" &&
	! grep -q "u-4" "$tmp/latest.html"
ok $? "report without --run: run 3"
"$BENCHORCH" compare --machines --db "$db" --format csv >"$tmp/m.csv" 2>/dev/null &&
	head -1 "$tmp/m.csv" | grep -q '(run 3)'
ok $? "compare --machines: the machine's latest run is run 3 ($(head -1 "$tmp/m.csv" | tr -d '\r'))"
"$BENCHORCH" results --db "$db" --run 4 --format csv 2>/dev/null |
	sed 1d | cut -d, -f1 | sort -u | grep -qx 4
ok $? "run 4 is still shown when named"
# a run still going stores each invocation as it ends: it is not "the
# latest run" either until it is over
q "UPDATE runs SET status = 'running' WHERE id = 3"
[ "$("$BENCHORCH" results --db "$db" --format csv 2>/dev/null | sed 1d |
     cut -d, -f1 | sort -u)" = 2 ] &&
	"$BENCHORCH" results --db "$db" --summary 2>/dev/null | head -1 |
	grep -q '^Run 2:' &&
	"$BENCHORCH" compare --machines --db "$db" --format csv 2>/dev/null |
	head -1 | grep -q '(run 2)'
ok $? "while run 3 is still going, results, its summary and compare --machines show run 2"
q "UPDATE runs SET status = 'done' WHERE id = 3"
done_testing
