#!/bin/sh
# t7400-db-readme - every example query of db/README returns rows, run with
# sqlite3 against a database written by benchorch: the fixture database
# (through the real migrations and run API) always, and two real quick runs
# on the cached Debian image when root with the image at hand (the second
# on an image with libssl3 updated, which it lists on stderr).
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
readme="$top_srcdir/db/README"

# Split the examples into $tmp/q.N (title on the first line).
awk -v dir="$tmp" '
	/^-- example: / { n++; f = dir "/q." n; print substr($0, 13) >f; inq = 1; next }
	/^-- end$/ { inq = 0; close(f); next }
	inq { print >>f }
' "$readme"
n=$(ls "$tmp"/q.* 2>/dev/null | wc -l)
[ "$n" -eq 13 ]
ok $? "db/README has thirteen example queries ($n)"

# run_examples DB LABEL [NOISE]: each query gives at least one row, no
# error. With NOISE (a real run), the example that keeps only points
# that were not noisy may give none: on a busy host every point of the
# latest quick run can be noisy (the fixture checks its rows below).
run_examples() {
	for f in "$tmp"/q.*; do
		title=$(head -1 "$f")
		tail -n +2 "$f" | sqlite3 -batch -bail -header "$1" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		rows=$(($(wc -l <"$tmp/out") - 1))
		least=1
		if [ -n "${3:-}" ] && grep -q '^clean points only' "$f"; then
			least=0
			[ "$rows" -lt 0 ] && rows=0
		fi
		[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$rows" -ge $least ]
		ok $? "$2: $title ($rows rows)"
		[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
	done
}

"$top_builddir/tests/fixtures/results-mkdb" "$tmp/fixture.db"
ok $? "fixture database"
run_examples "$tmp/fixture.db" fixture
cp "$tmp/fixture.db" "$tmp/f12.db"
sqlite3 "$tmp/f12.db" "pragma foreign_keys = on; delete from runs where id = 3"
tail -n +2 "$tmp/q.2" | sqlite3 -batch -noheader "$tmp/f12.db" | head -1 | grep -qx 'debian|bookworm|libgcrypt|libgcrypt20|1.10.1-3|1.10.1-3+b1|1'
ok $? "fixture without run 3: the libgcrypt20 update comes first in the package example"
tail -n +2 "$tmp/q.3" | sqlite3 -batch -noheader "$tmp/fixture.db" | head -1 | grep -q '|0.0$'
ok $? "fixture: the last two runs are identical, the change example shows 0.0 %"
tail -n +2 "$tmp/q.11" | sqlite3 -batch -noheader "$tmp/fixture.db" >"$tmp/out"
[ "$(cat "$tmp/out")" = "2|2026-01-02T00:00:00Z|debian|bookworm|libgcrypt20|1.10.1-3|1.10.1-3+b1|1" ]
ok $? "fixture: the package example names run 2's libgcrypt20 update since run 1: $(cat "$tmp/out")"

# results_v carries each point's statistics and its curve (schema 6)
cols=$(sqlite3 "$tmp/fixture.db" "select group_concat(name, ' ') from pragma_table_info('results_v') where name in ('p25_ns', 'p75_ns', 'cv', 'reruns', 'noisy', 'tsc_cycles', 'overhead_ns', 'ns_per_byte', 'cycles_per_byte')")
[ "$cols" = "p25_ns p75_ns cv reruns noisy tsc_cycles overhead_ns ns_per_byte cycles_per_byte" ]
ok $? "results_v has the statistics and the curve's columns: $cols"
[ "$(sqlite3 "$tmp/fixture.db" "select count(*) from results_v v join results r on r.id = v.result_id
	left join curves c on c.invocation_id = r.invocation_id and c.library_id = r.library_id
	and c.algorithm = r.algorithm and c.operation = r.operation and c.mode = r.mode
	where v.cv is not r.cv or v.noisy is not r.noisy or v.reruns is not r.reruns
	or v.p25_ns is not r.p25_ns or v.p75_ns is not r.p75_ns
	or v.cycles_per_byte is not c.cycles_per_byte")" -eq 0 ] &&
[ "$(sqlite3 "$tmp/fixture.db" "select count(*) from results_v")" = "$(sqlite3 "$tmp/fixture.db" "select count(*) from results")" ]
ok $? "results_v: one row per result, its columns those of results and curves"
# the clean-points example leaves out noisy and unverified points: openssl's
# bulk encryption (noisy) and decryption (unverified) in both distributions
clean=$(grep -l '^clean points only' "$tmp"/q.*)
cp "$tmp/fixture.db" "$tmp/clean.db"
sqlite3 "$tmp/clean.db" "update results set noisy = 1 where id in (select result_id from results_v
	where run_id = (select max(run_id) from results_v) and algorithm = 'aes-256-gcm'
	and buffer_bytes = 16384 and library = 'openssl' and operation = 'encrypt' and mode = 'bulk');
	update results set verified = 0 where id in (select result_id from results_v
	where run_id = (select max(run_id) from results_v) and algorithm = 'aes-256-gcm'
	and buffer_bytes = 16384 and library = 'openssl' and operation = 'decrypt' and mode = 'bulk')"
before=$(tail -n +2 "$clean" | sqlite3 -batch -noheader "$tmp/fixture.db" | grep -c '|openssl|\(en\|de\)crypt|bulk|')
after=$(tail -n +2 "$clean" | sqlite3 -batch -noheader "$tmp/clean.db" | grep -c '|openssl|\(en\|de\)crypt|bulk|')
[ "$before" -eq 4 ] && [ "$after" -eq 0 ]
ok $? "the clean-points example drops a noisy and an unverified point (openssl bulk rows: $before, then $after)"

why="needs root and systemd-nspawn"
if [ "$(id -u)" -eq 0 ] && command -v systemd-nspawn >/dev/null 2>&1 &&
   { test_image_ready || { why=$test_image_why; false; }; }; then
	timeout 900 "$BENCHORCH" run --distros debian --quick \
		--state-dir "$TEST_STATE" --db "$tmp/real.db" >/dev/null 2>"$tmp/run.err"
	ok $? "a real quick run on the cached Debian image"
	[ -s "$tmp/run.err" ] && sed 's/^/# /' "$tmp/run.err" | head -5
	# the same run with the same numbers, as another host would send it
	cp "$tmp/real.db" "$tmp/other.db"
	sqlite3 "$tmp/other.db" "update runs set uuid = 'ffffffff-' || substr(uuid, 10),
		host = 'other-host', started_at = '2999-01-01T00:00:00Z'"
	# a second real run, after making the first one's image look like an
	# older build (another digest, an older libssl3): the run records
	# the update and says so on stderr
	ssl=$(sqlite3 "$tmp/real.db" "select version from image_packages where package = 'libssl3'")
	sqlite3 "$tmp/real.db" "update images set digest = 'sha256:t7400-older';
		update image_packages set version = '0.9-t7400' where package = 'libssl3'"
	timeout 900 "$BENCHORCH" run --no-confirm --distros debian --quick --libs openssl \
		--algos sha-256,aes-256-gcm --state-dir "$TEST_STATE" \
		--db "$tmp/real.db" >/dev/null 2>"$tmp/run2.err"
	ok $? "a second real quick run (openssl alone)"
	grep -q "^benchorch: 1 package version changed since the previous run" "$tmp/run2.err" &&
		grep -q "^  debian:bookworm libssl3 0.9-t7400 -> $ssl (since run 1)$" "$tmp/run2.err"
	ok $? "it lists on stderr the libssl3 update since run 1 ($ssl)"
	[ "$(sqlite3 "$tmp/real.db" "select count(*) from package_changes_v where run_id = 2")" -eq 1 ]
	ok $? "and records just that one change"
	"$BENCHORCH" merge --db "$tmp/real.db" "$tmp/other.db" >/dev/null
	ok $? "and the first run merged in again as another host's (three runs)"
	run_examples "$tmp/real.db" "real run" noise
else
	skip_point "$why" "real quick runs on the cached Debian image"
fi

done_testing
