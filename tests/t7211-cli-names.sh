#!/bin/sh
# t7211-cli-names - what a new user mistypes gets an answer that fits: a
# distribution or buffer size the database has no results for is a usage
# error naming what it has (results --distro, results --size, report
# --size; of the runs shown, not of the whole database, and named so), an
# algorithm the guest does not know too (report --algo);
# compare's csv and json give the mode its own column; a missing merge
# source is named with how such a file is made, and creates nothing.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database"

"$BENCHORCH" results --db "$db" --distro fedora >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
     grep -q "^benchorch results: --distro: no results for distribution 'fedora' in run 3 of '$db' (it has: debian:bookworm, ubuntu:noble)$" "$tmp/err"; echo $?) \
	"results --distro with a name the database has no results for: exit 2, naming those it has"
"$BENCHORCH" results --db "$db" --distro debian:trixie >/dev/null 2>"$tmp/err"
ok $([ $? -eq 2 ]; echo $?) "the same for a release it has none for (debian:trixie)"
"$BENCHORCH" results --db "$db" --distro ubuntu --size 16KiB --lib nettle >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 0 ] && [ "$(grep -c ' ubuntu:noble ' "$tmp/out")" -eq 3 ]; echo $?) \
	"a name alone (ubuntu) or with its release still selects"
"$BENCHORCH" results --db "$db" --size 17 >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
     grep -q "^benchorch results: --size: no results at '17' in run 3 of '$db' (it has: 16 B, 64 B, 256 B, 1 KiB, 4 KiB, 16 KiB, 64 KiB, 256 KiB, 1 MiB)$" "$tmp/err"; echo $?) \
	"results --size 17: exit 2, naming the sizes measured"
"$BENCHORCH" report --db "$db" --size 17 -o "$tmp/r.html" 2>"$tmp/err"
ok $([ $? -eq 2 ] && [ ! -e "$tmp/r.html" ] &&
     grep -q "^benchorch report: --size: no results at '17' in run 3 of '$db' (it has: 16 B, " "$tmp/err"; echo $?) \
	"report --size 17: exit 2, nothing written"
"$BENCHORCH" report --db "$db" --size 1KiB -o "$tmp/r.html" 2>"$tmp/err"
ok $([ $? -eq 0 ] && grep -q '<caption>MB/s at 1 KiB</caption>' "$tmp/r.html"; echo $?) \
	"report --size 1KiB still works"
"$BENCHORCH" report --db "$db" --algo aes-999 -o "$tmp/r2.html" 2>"$tmp/err"
ok $([ $? -eq 2 ] && [ ! -e "$tmp/r2.html" ] && grep -q "unknown algorithm 'aes-999'" "$tmp/err"; echo $?) \
	"report --algo with a name the guest does not know: exit 2"

# A size (or distribution) the database has but the run shown did not
# measure: the sizes named are the run's, not the database's.
cp "$db" "$tmp/cut.db"
sqlite3 "$tmp/cut.db" "delete from results where buffer_bytes = 4096 and invocation_id in (select id from invocations where run_id = 3)"
run3="16 B, 64 B, 256 B, 1 KiB, 16 KiB, 64 KiB, 256 KiB, 1 MiB"
for c in "results" "results --run 3" "report -o $tmp/cut.html" \
	"compare --machines 3"; do
	# shellcheck disable=SC2086
	"$BENCHORCH" $c --db "$tmp/cut.db" --size 4KiB >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cmd=${c%% *}
	ok $([ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/cut.html" ] &&
	     [ "$(head -1 "$tmp/err")" = "benchorch $cmd: --size: no results at '4KiB' in run 3 of '$tmp/cut.db' (it has: $run3)" ]; echo $?) \
		"$c --size 4KiB, which run 3 did not measure: exit 2 (got $rc), naming run 3's sizes: $(head -1 "$tmp/err")"
done
"$BENCHORCH" results --db "$tmp/cut.db" --run 3 --run 2 --size 4KiB >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 0 ] && grep -q ' 4 KiB\| 4096 ' "$tmp/out"; echo $?) \
	"results --run 3 --run 2 --size 4KiB: run 2 measured it, its rows shown"
"$BENCHORCH" results --db "$tmp/cut.db" --all --size 3KiB >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q "^benchorch results: --size: no results at '3KiB' in '$tmp/cut.db' (it has: 16 B, 64 B, 256 B, 1 KiB, 4 KiB, " "$tmp/err"; echo $?) \
	"results --all --size 3KiB: the sizes of the whole database"
sqlite3 "$tmp/cut.db" "delete from results where invocation_id in (select i.id from invocations i join images m on m.id = i.image_id where i.run_id = 3 and m.distro = 'ubuntu')" 2>"$tmp/err.sql"
"$BENCHORCH" results --db "$tmp/cut.db" --distro ubuntu >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q "^benchorch results: --distro: no results for distribution 'ubuntu' in run 3 of '$tmp/cut.db' (it has: debian:bookworm)$" "$tmp/err"; echo $?) \
	"results --distro ubuntu, which run 3 did not measure: exit 2, naming run 3's distributions: $(head -1 "$tmp/err") $(cat "$tmp/err.sql")"

"$BENCHORCH" compare --db "$db" --points --format csv 1 2 >"$tmp/csv" 2>"$tmp/err"
ok $? "compare --format csv exits 0"
head -1 "$tmp/csv" | tr -d '\r' | grep -qx 'distro,library,algorithm,operation,mode,buffer_bytes,base_mb_per_s,new_mb_per_s,change_percent,significant,kind'
ok $? "the csv has a mode column after the operation"
n=$(sqlite3 "$db" "select count(*) from results_v b join results_v n on n.run_id = 2 and n.distro = b.distro and n.release = b.release and n.library = b.library and n.algorithm = b.algorithm and n.operation = b.operation and n.mode = b.mode and n.buffer_bytes = b.buffer_bytes where b.run_id = 1 and b.mode = 'oneshot'")
[ "$(tr -d '\r' <"$tmp/csv" | awk -F, '$5 == "oneshot"' | wc -l)" -eq "$n" ] && [ "$n" -gt 0 ] &&
	[ "$(tr -d '\r' <"$tmp/csv" | awk -F, 'NR > 1 && ($4 !~ /^(encrypt|decrypt|hash)$/ || $5 !~ /^(bulk|oneshot)$/)' | wc -l)" -eq 0 ]
ok $? "every operation is a bare operation, the $n one-shot points say so in the mode column"
"$BENCHORCH" compare --db "$db" --points --format json 1 2 >"$tmp/json" 2>"$tmp/err"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["points"]; assert {x["mode"] for x in p} == {"bulk", "oneshot"} and {x["operation"] for x in p} == {"encrypt", "decrypt", "hash"}' "$tmp/json"
ok $? "json: operation and mode apart"

"$BENCHORCH" merge --db "$tmp/new.db" "$tmp/host-b.db" >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && [ ! -e "$tmp/new.db" ] &&
     grep -q "^benchorch merge: cannot read '$tmp/host-b.db': No such file or directory (a database to merge is made on its host with 'benchorch export -o FILE')$" "$tmp/err" &&
     ! grep -q "'benchorch run' creates it" "$tmp/err"; echo $?) \
	"merge of a missing source: exit 2 (a usage error), says how such a file is made, creates no database"

done_testing
