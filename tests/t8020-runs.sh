#!/bin/sh
# t8020-runs - `benchorch runs`: every stored run, newest first, with its
# times, status, distributions (in the order the run first invoked them)
# host and kind (libraries, tools, confirmation with the run it confirms),
# as table, csv and json; the run ids the shell completion offers.
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
# A sixth, a confirmation of run 3, and a seventh, a tool run (run --tools).
sqlite3 "$db" "INSERT INTO runs (id, uuid, host, pid, started_at, finished_at, status, command_line)
	VALUES (6, 'u-6', 'host-b', 1, '2026-01-06T00:00:00Z', '2026-01-06T00:01:00Z', 'done', 'benchorch confirm --run 3'),
	(7, 'u-7', 'host-b', 1, '2026-01-07T00:00:00Z', '2026-01-07T00:01:00Z', 'done', 'benchorch run --tools');
	INSERT INTO confirmations (run_id, confirmed_run_id, distro, release) VALUES (6, 3, 'debian', 'bookworm');
	INSERT INTO invocations (id, run_id, spec, started_at, status) VALUES
	(700, 6, 'debian', '2026-01-06T00:00:01Z', 'ok'),
	(701, 7, 'debian', '2026-01-07T00:00:01Z', 'ok');
	INSERT INTO tool_results (invocation_id, tool, cipher, direction, variant, status, bytes)
	VALUES (701, 'age', 'chacha20-poly1305', 'encrypt', 'hw', 'absent', 1048576);"
ok $? "fixture: run 6 confirms run 3, run 7 timed the tools"
# An eighth, a confirmation of run 3 as `run` makes one: the images
# invoked by their names, the new one and the previous one beside it.
sqlite3 "$db" "INSERT INTO runs (id, uuid, host, pid, started_at, finished_at, status, command_line)
	VALUES (8, 'u-8', 'host-b', 1, '2026-01-08T00:00:00Z', '2026-01-08T00:01:00Z', 'done', 'benchorch run');
	INSERT INTO confirmations (run_id, confirmed_run_id, distro, release) VALUES (8, 3, 'debian', 'bookworm');
	INSERT INTO invocations (run_id, image_id, spec, started_at, status) VALUES
	(8, 3, 'debian-bookworm', '2026-01-08T00:00:01Z', 'ok'),
	(8, 1, 'debian-bookworm.previous', '2026-01-08T00:00:02Z', 'ok');"
ok $? "fixture: run 8 confirms run 3 on its image and the previous one"
"$BENCHORCH" runs --db "$db" --format csv | tr -d '\r' >"$tmp/csv8" &&
	grep -qx '8,2026-01-08T00:00:00Z,2026-01-08T00:01:00Z,done,0,debian,host-b,confirmation,3' "$tmp/csv8"
ok $? "a confirmation's distributions are spelled as the run it confirms gave them: $(grep '^8,' "$tmp/csv8")"
sqlite3 "$db" "DELETE FROM invocations WHERE run_id = 8; DELETE FROM confirmations WHERE run_id = 8;
	DELETE FROM runs WHERE id = 8"
ok $? "run 8 removed again"

"$BENCHORCH" results --db "$db" --run 7 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "run 7 is a tool run (run --tools); 'benchorch results --tools --run 7' shows it" "$tmp/err"
ok $? "results --run of a tool run points to --tools: $(cat "$tmp/err")"

"$BENCHORCH" runs --db "$db" --format csv >"$tmp/csv" 2>"$tmp/err"
ok $? "runs --format csv exits 0"
[ ! -s "$tmp/err" ]
ok $? "nothing on stderr"
grep -c "$(printf '\r')\$" "$tmp/csv" | grep -qx 8
ok $? "csv lines end in CRLF (RFC 4180)"
tr -d '\r' <"$tmp/csv" >"$tmp/lines"
head -1 "$tmp/lines" | grep -qx 'id,started_at,finished_at,status,quick,distros,host,kind,confirms'
ok $? "csv header: $(head -1 "$tmp/lines")"
[ "$(sed -n '2,$p' "$tmp/lines" | cut -d, -f1 | tr '\n' ' ')" = "7 6 5 4 3 2 1 " ]
ok $? "newest first: $(sed -n '2,$p' "$tmp/lines" | cut -d, -f1 | tr '\n' ' ')"
sed -n 2p "$tmp/lines" | grep -qx '7,2026-01-07T00:00:00Z,2026-01-07T00:01:00Z,done,0,debian,host-b,tools,'
ok $? "run 7: a tool run: $(sed -n 2p "$tmp/lines")"
sed -n 3p "$tmp/lines" | grep -qx '6,2026-01-06T00:00:00Z,2026-01-06T00:01:00Z,done,0,debian,host-b,confirmation,3'
ok $? "run 6: a confirmation of run 3: $(sed -n 3p "$tmp/lines")"
sed -n 4p "$tmp/lines" | grep -qx '5,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,failed,0,"ubuntu:noble,debian",host-b,libraries,'
ok $? "run 5: each distribution once, in the order first run: $(sed -n 4p "$tmp/lines")"
sed -n 5p "$tmp/lines" | grep -qx '4,2026-01-04T00:00:00Z,,aborted,0,,host-b,libraries,'
ok $? "run 4: no end time, no distribution: $(sed -n 5p "$tmp/lines")"
sed -n 8p "$tmp/lines" | grep -q '^1,2026-01-01T00:00:00Z,.*,done,1,"debian,ubuntu:noble",host-a,libraries,$'
ok $? "run 1 of the fixture (quick, debian and ubuntu:noble): $(sed -n 8p "$tmp/lines")"

"$BENCHORCH" runs --db "$db" >"$tmp/tbl"
ok $? "runs (table) exits 0"
head -1 "$tmp/tbl" | grep -Eq '^id +started_at +finished_at +status +quick +distros +host +kind +confirms$' &&
	[ "$(wc -l <"$tmp/tbl")" -eq 8 ]
ok $? "table: a header and seven rows"
"$BENCHORCH" runs --db "$db" --format json >"$tmp/json"
ok $? "runs --format json exits 0"
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["id"] for r in rows] == [7, 6, 5, 4, 3, 2, 1], rows
assert rows[3]["finished_at"] is None and rows[3]["distros"] is None, rows[3]
assert rows[2]["distros"] == "ubuntu:noble,debian" and rows[2]["quick"] == 0
assert [(r["kind"], r["confirms"]) for r in rows[:3]] == \
    [("tools", None), ("confirmation", 3), ("libraries", None)], rows[:3]
' "$tmp/json"
ok $? "json: ids as numbers, an unfinished run's end and distros null, kind and confirms"

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

# a database older than tool runs and confirmations: every run a run of
# the libraries
sqlite3 "$db" "DROP TABLE confirmation_curves; DROP TABLE confirmations" 2>/dev/null
"$BENCHORCH" runs --db "$db" --format csv | tr -d '\r' | sed -n 3p |
	grep -q ',libraries,$'
ok $? "a database without confirmations: the run reads as libraries"

done_testing
