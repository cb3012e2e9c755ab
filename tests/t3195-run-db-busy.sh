#!/bin/sh
# t3195-run-db-busy - another writer holds the database for longer than
# the busy timeout (30 s) while a run measures: the run says once that it
# waits, stores what it measured when the database is free, and ends with
# every round stored and status 0. Nothing measured is dropped.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

# the database exists (a first, short run), so the holder can lock it
"$BENCHORCH" run --distros debian --quick --libs nettle --algos sha-256 \
	--no-confirm --state-dir "$TEST_STATE" --db "$db" >/dev/null 2>&1
ok $? "a first run makes the database"

# a run, and once it has stored its start (its guests measure for a few
# seconds a round), a writer that takes the write lock and keeps it for
# 40 s: the first round's store meets it
first=$(q "select max(id) from runs")
start=$(date +%s)
"$BENCHORCH" run --distros debian --quick --libs nettle,openssl,libgcrypt,mbedtls \
	--algos aes-128-ctr,sha-256,chacha20 --no-confirm --state-dir "$TEST_STATE" \
	--db "$db" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for 120 '[ "$(q "select count(*) from runs where id > $first")" -gt 0 ]'
(echo 'BEGIN IMMEDIATE;'; echo 'SELECT 1;'; sleep 40; echo 'COMMIT;') |
	sqlite3 "$db" >/dev/null 2>&1 &
holder=$!
sleep 1
! sqlite3 -cmd '.timeout 100' "$db" 'BEGIN IMMEDIATE; COMMIT;' 2>/dev/null &&
	[ "$(q "select count(*) from invocations where run_id > $first")" -eq 0 ]
ok $? "another writer holds the database before the run stored anything"
wait $pid
rc=$?
took=$(($(date +%s) - start))
sed 's/^/# /' "$tmp/err" | grep -v '^# benchorch: round' | tail -4
wait $holder
holder=
[ $rc -eq 0 ]
ok $? "the run ends with status 0 (got $rc, after $took s)"
[ "$(grep -c "the database is held by another writer; waiting to store what was measured" "$tmp/err")" -eq 1 ]
ok $? "it says once that it waits: $(grep 'another writer' "$tmp/err" | head -1)"
run=$(q "select max(id) from runs")
[ "$run" -gt "$first" ] &&
	[ "$(q "select status from runs where id = $run")" = done ] &&
	rounds=$(sed -n 's/.*, \([0-9]*\) rounds x 1 distribution.*/\1/p' "$tmp/err") &&
	[ -n "$rounds" ] &&
	[ "$(q "select count(*) from invocations where run_id = $run and status = 'ok'")" -eq "$rounds" ] &&
	[ "$(q "select count(*) from results_v where run_id = $run")" -gt 0 ]
ok $? "every round is stored: $(q "select count(*) from invocations where run_id = $run") invocations of ${rounds:-?} rounds"
[ "$took" -ge 30 ]
ok $? "it waited for the writer ($took s)"
[ "$(q "pragma integrity_check")" = ok ] && [ -z "$(stray_guests)" ]
ok $? "database consistent, nothing left behind"
done_testing
