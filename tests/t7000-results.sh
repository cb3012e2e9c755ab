#!/bin/sh
# t7000-results - `benchorch results`: filters, human units in the table,
# each run's CPU state above it, stable csv/json columns, on a database
# built through the real run API.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs"

# table FILE: the table of a table-format output, without the lines on
# the runs above it (which end with an empty line).
table() { sed '1,/^$/d' "$1"; }

"$BENCHORCH" results --db "$db" >"$tmp/out" 2>"$tmp/err"
ok $? "results exits 0"
grep -q "2 of these 166 points are noisy (MB/s marked ~)" "$tmp/err"
ok $? "says on stderr how many points are noisy"
head -1 "$tmp/out" | grep -qx 'run 3: Intel(R) Xeon(R) CPU @ 2.20GHz; cpu 1: governor powersave, boost on, scaling frequency 2200 -> 1800 MHz, hypervisor KVMKVMKVM; seed 1003, 1 round; numbers may have drifted'
ok $? "the run's CPU, CPU state, seed and rounds come first: $(head -1 "$tmp/out")"
sed -n 2,3p "$tmp/out" | grep -c "^  warning: the scaling" | grep -qx 2 && [ -z "$(sed -n 4p "$tmp/out")" ]
ok $? "then its two warnings (governor, frequency) and an empty line"
table "$tmp/out" >"$tmp/tbl"
head -1 "$tmp/tbl" | grep -Eq '^run +distro +library +version +package +algorithm +op +size +MB/s +ns/call +verified +mode +variant +slope cyc/B +CV%$'
ok $? "table header names the units (size, MB/s, ns/call, slope cycles per byte, CV in %)"
grep -Eq '^ *3 +debian:bookworm +openssl .* aes-256-gcm +encrypt +1 KiB +[0-9]+ +[0-9]+ +yes +bulk +hw +0\.75 +1\.6$' "$tmp/tbl"
ok $? "cycles per byte from the curve's fit at the measured clock (0.75), the CV of the samples (1.6 %)"
# the table gives a library's short version, csv its whole version string
cp "$db" "$tmp/ver.db" &&
	sqlite3 "$tmp/ver.db" "update libraries set version = 'OpenSSL 3.0.11 19 Sep 2023' where name = 'openssl'" &&
	"$BENCHORCH" results --db "$tmp/ver.db" --lib openssl >"$tmp/out" 2>/dev/null &&
	grep -Eq '^ *3 +debian:bookworm +openssl +3\.0\.11 ' "$tmp/out" && ! grep -q 'Sep 2023' "$tmp/out" &&
	"$BENCHORCH" results --db "$tmp/ver.db" --lib openssl --format csv 2>/dev/null | grep -q ',OpenSSL 3.0.11 19 Sep 2023,'
ok $? "the table shows the short version (3.0.11), csv the whole string"
[ "$(grep -c '~ ' "$tmp/tbl")" -eq 2 ] &&
	grep -Eq '^ *3 +debian:bookworm +nettle .* sha-256 +hash +1 MiB +[0-9.]+~ ' "$tmp/tbl"
ok $? "noisy points' throughput is marked ~"
[ "$(awk 'NR > 1 { print $1 }' "$tmp/tbl" | sort -u)" = 3 ]
ok $? "the latest run (3) by default"
grep -Eq '^ *3 +debian:bookworm +openssl .* aes-256-gcm +encrypt +16 B +[0-9.]+ ' "$tmp/out"
ok $? "sizes in human units (16 B)"
grep -Eq ' 1 KiB ' "$tmp/out" && grep -Eq ' 1 MiB ' "$tmp/out"
ok $? "1 KiB and 1 MiB"
! grep -Eq '1048576|[0-9]\.[0-9]{3}' "$tmp/tbl"
ok $? "no raw byte counts, no more than two decimals"

"$BENCHORCH" results --db "$db" --run 1 --distro debian --lib nettle \
	--algo aes-256-gcm --op decrypt --size 16KiB >"$tmp/out" 2>"$tmp/err"
ok $? "every filter together exits 0"
[ "$(table "$tmp/out" | wc -l)" -eq 2 ] && grep -Eq '^ *1 +debian:bookworm +nettle .*decrypt +16 KiB' "$tmp/out"
ok $? "and selects exactly one row"
head -1 "$tmp/out" | grep -q '^run 1: .*governor performance, .*; seed 1001, 1 round$' &&
	[ "$(grep -c '^run [0-9]' "$tmp/out")" -eq 1 ]
ok $? "one line on run 1 alone, without warnings"
"$BENCHORCH" results --db "$db" --run 1 --run 2 --distro ubuntu:noble --size 1M \
	--format csv >"$tmp/csv"
ok $? "--run twice, --distro NAME:RELEASE, --format csv"
[ "$(wc -l <"$tmp/csv")" -eq 19 ]
ok $? "2 runs x 3 libraries x 3 (algorithm, op) rows at 1 MiB: $(($(wc -l <"$tmp/csv") - 1))"
head -1 "$tmp/csv" | tr -d '\r' | grep -qx 'run_id,distro,release,library,library_version,package_version,algorithm,operation,buffer_bytes,mb_per_s,median_ns,verified,mode,variant,p25_ns,p75_ns,cv,noisy,cycles_per_byte,calls_per_batch,ns_per_call,build'
ok $? "csv columns unchanged; mode, variant, the statistics, calls_per_batch, ns_per_call and build appended"
tr -d '\r' <"$tmp/csv" >"$tmp/csv2"
grep -q '^2,ubuntu,noble,nettle,3.8.1,3.9.1-2.2build1,sha-256,hash,1048576,[0-9.]*,[0-9]*,1,bulk,hw,8621809,10019940,0.1185[0-9]*,1,6.667,[0-9]*,[0-9.]*,shipped$' "$tmp/csv2" &&
	grep -q '^1,ubuntu,noble,nettle,3.8.1,3.9.1-2.2build1,sha-256,hash,1048576,[0-9.]*,[0-9]*,1,bulk,hw,8621809,10019940,0.1185[0-9]*,1,,[0-9]*,[0-9.]*,shipped$' "$tmp/csv2" &&
	[ "$(grep -c ',0,[0-9.]*,[0-9]*,[0-9.]*,shipped$' "$tmp/csv2")" -eq 16 ]
ok $? "csv: quartiles, cv, the noisy flag and cycles per byte per point"
"$BENCHORCH" results --db "$db" --run 1 --format json --lib openssl --size 16 >"$tmp/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d and all(r["cycles_per_byte"] is None and r["p25_ns"] <= r["median_ns"] <= r["p75_ns"] and 0 < r["cv"] < 0.02 and r["noisy"] == 0 for r in d)' "$tmp/json"
ok $? "json: a run without a measured clock has no cycles per byte, its statistics all the same"
# the time of one call: median_ns is per batch of calls_per_batch calls
python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows
for r in rows:
    n, med, ns, b, mbps = (float(r[k]) for k in ("calls_per_batch", "median_ns", "ns_per_call", "buffer_bytes", "mb_per_s"))
    assert n >= 1 and abs(ns - med / n) < 0.001, r
    assert abs(b * 1000 / ns - mbps) <= 0.01 * mbps, r' "$tmp/csv2"
ok $? "csv: ns_per_call = median_ns / calls_per_batch, and buffer_bytes / ns_per_call is mb_per_s"
"$BENCHORCH" results --db "$db" --all --format json >"$tmp/json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d and all(r["calls_per_batch"] >= 1 and abs(r["ns_per_call"] - r["median_ns"] / r["calls_per_batch"]) < 0.001 for r in d)' "$tmp/json"
ok $? "json: calls_per_batch and ns_per_call on every row"
"$BENCHORCH" results --db "$db" --all --lib openssl --format json >"$tmp/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 3*2*(3*9+2) and all(r["library"] == "openssl" and isinstance(r["buffer_bytes"], int) for r in d)' "$tmp/json"
ok $? "json: --all with --lib keeps machine types"

"$BENCHORCH" results --db "$db" --lib openssl --algo aes-256-gcm --op encrypt \
	--size 16 --distro debian >"$tmp/out"
[ "$(table "$tmp/out" | wc -l)" -eq 3 ] && grep -Eq ' bulk +hw +[0-9.]+ +[0-9.]+$' "$tmp/out" && grep -Eq ' oneshot +hw +[0-9.]+ +[0-9.]+$' "$tmp/out"
ok $? "bulk and one-shot rows are told apart by the mode column"
"$BENCHORCH" results --db "$db" --lib botan >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "no matching results in '$db'" "$tmp/err"
ok $? "no match exits 1 and says so"
"$BENCHORCH" results --db "$db" --size 1parsec >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "invalid size '1parsec'" "$tmp/err"
ok $? "a bad size is a usage error"

# Contradictory selections are usage errors, never a silent winner.
# usage_error DESCRIPTION MESSAGE ARGS...: exit 2, nothing on stdout, and
# one error line naming MESSAGE (then the --help hint).
usage_error() {
	desc=$1
	msg=$2
	shift 2
	"$BENCHORCH" results --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(grep -c "^benchorch results: .*$msg" "$tmp/err")" -eq 1 ] &&
		[ "$(grep -vc "^Try 'benchorch results --help'.$" "$tmp/err")" -eq 1 ]
	ok $? "$desc (exit $rc: $(head -1 "$tmp/err"))"
}
usage_error "--all with --run is a usage error" "exclude each other" --all --run 1
usage_error "--run with --all, in that order, too" "exclude each other" --run 1 --all
usage_error "--latest with --run" "exclude each other" --latest --run 2
usage_error "--latest with --all" "exclude each other" --all --latest
usage_error "two different --lib filters" "--lib 'openssl' and --lib 'nettle' exclude each other" \
	--lib openssl --lib nettle
usage_error "two different --size filters" "--size '16' and --size '1KiB' exclude each other" \
	--size 16 --size 1KiB
usage_error "two different --distro filters" "exclude each other" \
	--distro debian --distro ubuntu
"$BENCHORCH" results --db "$db" --lib openssl --lib openssl --size 16 --size 16B >"$tmp/out" 2>"$tmp/err"
ok $? "the same filter value twice is no contradiction"

# Names that no library, algorithm or operation has are usage errors.
usage_error "--lib nosuchlib" "--lib: unknown library 'nosuchlib'" --lib nosuchlib
usage_error "--algo aes-999" "--algo: unknown algorithm 'aes-999'" --algo aes-999
usage_error "--op frob" "--op: 'frob' is not encrypt, decrypt or hash" --op frob


# Numbers out of range are refused, not clamped.
usage_error "--run 99999999999999999999 is out of range" \
	"'99999999999999999999' is out of range (1 to 9223372036854775807)" \
	--run 99999999999999999999
usage_error "--run -1" "'-1' is out of range" --run -1
usage_error "--run 0" "'0' is out of range" --run 0
usage_error "--run 1x" "'1x' is not a whole number" --run 1x
usage_error "--run ' 1' (a leading space)" "' 1' is not a whole number" --run ' 1'
usage_error "--run +1" "'+1' is not a whole number" --run +1
usage_error "--run ''" "'' is not a whole number" --run ''
usage_error "a second --run out of range" "out of range" --run 1 --run 99999999999999999999
usage_error "--size 99999999999999999999" "invalid size '99999999999999999999'" \
	--size 99999999999999999999
usage_error "--size 9000000000000MiB overflows" "invalid size '9000000000000MiB': too large" \
	--size 9000000000000MiB
"$BENCHORCH" results --db "$db" --run 9223372036854775807 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no run 9223372036854775807 in '$db'" "$tmp/err"
ok $? "the largest run id is valid: no such run, an unknown name (exit 2), saying so"
cp "$db" "$tmp/aborted.db"
sqlite3 "$tmp/aborted.db" "insert into runs (id, uuid, host, pid, started_at, status, command_line, error) values (50, 'u50', 'h', 1, '2026-01-01T00:00:00Z', 'aborted', 'benchorch run', 'interrupted by signal 15')"
"$BENCHORCH" results --db "$tmp/aborted.db" --run 50 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "no matching results in '$tmp/aborted.db': run 50 is stored as aborted (interrupted by signal 15)" "$tmp/err"
ok $? "results of an aborted run without results says why: $(cat "$tmp/err")"
sqlite3 "$tmp/aborted.db" "update runs set status = 'aborted', error = 'interrupted by signal 2' where id = 2"
"$BENCHORCH" results --db "$tmp/aborted.db" --run 2 --format csv >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 1 ] &&
	grep -q "^benchorch: warning: run 2 is stored as aborted (interrupted by signal 2): its results are partial$" "$tmp/err"
ok $? "results of an aborted run that has rows prints them and warns that they are partial"
# a command that shows a run by default takes the latest finished one and
# says which newer ones it skipped; a run named by --run is shown, with a
# warning when it did not finish
sqlite3 "$tmp/aborted.db" "update runs set status = 'aborted', error = 'interrupted by signal 2' where id = 3"
w3="^benchorch: warning: run 3 is stored as aborted (interrupted by signal 2): its results are partial$"
n1="^benchorch: run 3 was aborted, run 2 was aborted, run 50 was aborted; showing run 1, the latest finished library run$"
"$BENCHORCH" results --db "$tmp/aborted.db" --summary >"$tmp/out" 2>"$tmp/err" &&
	grep -q 'results --run 1;' "$tmp/out" && grep -q "$n1" "$tmp/err" &&
	! grep -q "partial" "$tmp/err" &&
	"$BENCHORCH" report --db "$tmp/aborted.db" -o "$tmp/ab.html" 2>"$tmp/err" &&
	grep -q "$n1" "$tmp/err" && ! grep -q "partial" "$tmp/err" &&
	"$BENCHORCH" compare --machines --db "$tmp/aborted.db" >"$tmp/out" 2>"$tmp/err" &&
	! grep -q "partial" "$tmp/err"
ok $? "results --summary, report and compare --machines show the latest finished run (1), not an aborted one, and say which they skipped"
"$BENCHORCH" report --db "$tmp/aborted.db" --run 2 -o "$tmp/ab2.html" 2>"$tmp/err" &&
	grep -q "^benchorch: warning: run 2 is stored as aborted" "$tmp/err" &&
	"$BENCHORCH" results --db "$tmp/aborted.db" --summary --run 3 >"$tmp/out" 2>"$tmp/err" &&
	[ -s "$tmp/out" ] && grep -q "$w3" "$tmp/err" &&
	"$BENCHORCH" results --db "$tmp/aborted.db" --summary --run 1 >"$tmp/out" 2>"$tmp/err" &&
	! grep -q "partial" "$tmp/err"
ok $? "report and results --summary warn of an aborted run named by --run, not of a finished one"
"$BENCHORCH" results --db "$tmp/aborted.db" --run 1 >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && ! grep -q partial "$tmp/err"
ok $? "a finished run gets no such warning"
"$BENCHORCH" results --db "$db" --run 1 --lib botan >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(cat "$tmp/err")" = "benchorch: no matching results in '$db'" ]
ok $? "a finished run whose rows the filters exclude gets no reason appended"

# No matching row: exit 1 in every format; table prints nothing, csv its
# header line, json an empty array.
"$BENCHORCH" results --db "$db" --lib botan --format table >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "no matching results" "$tmp/err"
ok $? "no match, table: nothing on stdout, exit 1"
"$BENCHORCH" results --db "$db" --lib botan --format csv >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
	tr -d '\r' <"$tmp/out" | grep -qx "$(head -1 "$tmp/csv" | tr -d '\r')" &&
	grep -q "no matching results" "$tmp/err"
ok $? "no match, csv: the header line alone, exit 1"
"$BENCHORCH" results --db "$db" --run 1 --lib botan --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$tmp/out" &&
	grep -q "no matching results" "$tmp/err"
ok $? "no match, json: an empty array [], exit 1 ($rc)"

# A database an older benchorch left (schema 2: no samples, no
# statistics, no curves), read as it is: the new columns stay empty, and
# compare falls back to the [median, best] ranges.
old="$tmp/old.db"
cat "$top_srcdir/db/migrations/0001-initial.sql" \
	"$top_srcdir/db/migrations/0002-protocol2.sql" | sqlite3 "$old" &&
sqlite3 "$old" "pragma user_version = 2;
insert into runs (uuid, host, pid, started_at, status, command_line) values
 ('u1', 'h', 1, '2025-01-01T00:00:00Z', 'done', 'benchorch run'),
 ('u2', 'h', 1, '2025-01-02T00:00:00Z', 'done', 'benchorch run');
insert into images (distro, release, digest) values ('debian', 'bookworm', 'sha256:0');
insert into invocations (run_id, image_id, spec, started_at, status) values
 (1, 1, 'debian', 't', 'ok'), (2, 1, 'debian', 't', 'ok');
insert into libraries (name, version) values ('openssl', '3');
insert into results (invocation_id, library_id, algorithm, operation,
 buffer_bytes, calls_per_batch, bytes_per_batch, repetitions, median_ns,
 min_ns, mb_per_s, verified) values
 (1, 1, 'sha-256', 'hash', 16, 1000, 16000, 5, 16000, 15900, 1000.0, 1),
 (2, 1, 'sha-256', 'hash', 16, 1000, 16000, 5, 32000, 31800, 500.0, 1);"
ok $? "a schema-2 database"
"$BENCHORCH" results --db "$old" --all --format csv >"$tmp/old.csv" 2>"$tmp/err" &&
	tail -1 "$tmp/old.csv" | tr -d '\r' | grep -qx '2,debian,bookworm,openssl,3,,sha-256,hash,16,500,32000,1,bulk,hw,,,,,,1000,32,shipped'
ok $? "results reads it, the statistics empty, calls_per_batch and ns_per_call there, build shipped"
"$BENCHORCH" results --db "$old" --all >"$tmp/out" 2>"$tmp/err" &&
	grep -Eq '^ *2 +debian:bookworm +openssl .* hash +16 B +500 +32 +yes +bulk +hw *$' "$tmp/out"
ok $? "the table too, without cycles per byte or CV"
"$BENCHORCH" compare --db "$old" --points --format json 1 2 >"$tmp/old.json" 2>"$tmp/err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["points"]; assert len(p) == 1 and p[0]["method"] == "ranges" and p[0]["p"] is None and p[0]["kind"] == "regression"' "$tmp/old.json"
ok $? "compare judges it by the ranges: a regression"
[ "$(sqlite3 "$old" "pragma user_version")" = 2 ]
ok $? "and nothing was migrated: reading does not write"

done_testing
