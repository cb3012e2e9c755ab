#!/bin/sh
# t8020-runs - `benchorch runs`: every stored run, newest first, with its
# times, status, distributions (in the order the run first invoked them)
# and host, as table, csv and json; the run ids the shell completion offers.
. "${top_srcdir:-.}/tests/lib.sh"

command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs"
# A fourth run, aborted before its first guest (no invocation), and a
# fifth that ran ubuntu:noble before debian.
sqlite3 "$db" "INSERT INTO runs (id, uuid, host, pid, started_at, status, command_line)
	VALUES (4, 'u-4', 'host-b', 1, '2026-01-04T00:00:00Z', 'aborted', 'benchorch run');
	INSERT INTO runs (id, uuid, host, pid, started_at, finished_at, status, command_line)
	VALUES (5, 'u-5', 'host-b', 1, '2026-01-05T00:00:00Z', '2026-01-05T01:00:00Z', 'failed', 'benchorch run');
	INSERT INTO invocations (run_id, spec, started_at, status) VALUES
	(5, 'ubuntu:noble', '2026-01-05T00:00:01Z', 'ok'),
	(5, 'debian', '2026-01-05T00:10:00Z', 'failed'),
	(5, 'ubuntu:noble', '2026-01-05T00:20:00Z', 'ok');"
ok $? "fixture: runs 4 (aborted, no guest) and 5 (ubuntu:noble, debian, ubuntu:noble)"

"$BENCHORCH" runs --db "$db" --format csv >"$tmp/csv" 2>"$tmp/err"
ok $? "runs --format csv exits 0"
[ ! -s "$tmp/err" ]
ok $? "nothing on stderr"
grep -c "$(printf '\r')\$" "$tmp/csv" | grep -qx 6
ok $? "csv lines end in CRLF (RFC 4180)"
tr -d '\r' <"$tmp/csv" >"$tmp/lines"
head -1 "$tmp/lines" | grep -qx 'id,started_at,finished_at,status,quick,distros,host'
ok $? "csv header: $(head -1 "$tmp/lines")"
[ "$(sed -n '2,$p' "$tmp/lines" | cut -d, -f1 | tr '\n' ' ')" = "5 4 3 2 1 " ]
ok $? "newest first: $(sed -n '2,$p' "$tmp/lines" | cut -d, -f1 | tr '\n' ' ')"
sed -n 2p "$tmp/lines" | grep -qx '5,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,failed,0,"ubuntu:noble,debian",host-b'
ok $? "run 5: each distribution once, in the order first run: $(sed -n 2p "$tmp/lines")"
sed -n 3p "$tmp/lines" | grep -qx '4,2026-01-04T00:00:00Z,,aborted,0,,host-b'
ok $? "run 4: no end time, no distribution: $(sed -n 3p "$tmp/lines")"
sed -n 6p "$tmp/lines" | grep -q '^1,2026-01-01T00:00:00Z,.*,done,1,"debian,ubuntu:noble",host-a$'
ok $? "run 1 of the fixture (quick, debian and ubuntu:noble): $(sed -n 6p "$tmp/lines")"

"$BENCHORCH" runs --db "$db" >"$tmp/tbl"
ok $? "runs (table) exits 0"
head -1 "$tmp/tbl" | grep -Eq '^id +started_at +finished_at +status +quick +distros +host$' &&
	[ "$(wc -l <"$tmp/tbl")" -eq 6 ]
ok $? "table: a header and five rows"
"$BENCHORCH" runs --db "$db" --format json >"$tmp/json"
ok $? "runs --format json exits 0"
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["id"] for r in rows] == [5, 4, 3, 2, 1], rows
assert rows[1]["finished_at"] is None and rows[1]["distros"] is None, rows[1]
assert rows[0]["distros"] == "ubuntu:noble,debian" and rows[0]["quick"] == 0
' "$tmp/json"
ok $? "json: ids as numbers, an unfinished run's end and distros null"

BENCHORCH_DB="$db" "$BENCHORCH" runs --format csv | cmp -s - "$tmp/csv"
ok $? "BENCHORCH_DB chooses the database"
mkdir "$tmp/state" && cp "$db" "$tmp/state/results.db" &&
	"$BENCHORCH" runs --state-dir "$tmp/state" --format csv | cmp -s - "$tmp/csv"
ok $? "--state-dir DIR reads DIR/results.db"

"$BENCHORCH" runs --db "$tmp/missing.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "missing.db" "$tmp/err"
ok $? "a missing database: exit 3, named on stderr: $(cat "$tmp/err")"
"$BENCHORCH" runs --db "$db" --format xml >/dev/null 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "an unknown format is a usage error: $(cat "$tmp/err")"
"$BENCHORCH" runs --db "$db" 3 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unexpected argument '3'" "$tmp/err"
ok $? "an operand is a usage error: $(cat "$tmp/err")"
"$BENCHORCH" runs --help | grep -q '^Usage: benchorch runs'
ok $? "--help"
"$BENCHORCH" --help | grep -Eq '^  runs +list the stored runs'
ok $? "listed in benchorch --help"

done_testing
