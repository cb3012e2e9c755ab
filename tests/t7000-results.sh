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
head -1 "$tmp/out" | grep -qx 'run 3: Intel(R) Xeon(R) CPU @ 2.20GHz; cpu 1: governor powersave, boost on, scaling frequency 2200 -> 1800 MHz, hypervisor KVMKVMKVM; seed 1003, 1 round; numbers may have drifted'
ok $? "the run's CPU, CPU state, seed and rounds come first: $(head -1 "$tmp/out")"
sed -n 2,3p "$tmp/out" | grep -c "^  warning: the scaling" | grep -qx 2 && [ -z "$(sed -n 4p "$tmp/out")" ]
ok $? "then its two warnings (governor, frequency) and an empty line"
table "$tmp/out" >"$tmp/tbl"
head -1 "$tmp/tbl" | grep -Eq '^run +distro +library +version +package +algorithm +op +size +MB/s +ns/call +verified +mode +variant$'
ok $? "table header names the units (size, MB/s, ns/call)"
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
head -1 "$tmp/csv" | tr -d '\r' | grep -qx 'run_id,distro,release,library,library_version,package_version,algorithm,operation,buffer_bytes,mb_per_s,median_ns,verified,mode,variant'
ok $? "csv columns unchanged, mode and variant appended"
"$BENCHORCH" results --db "$db" --all --lib openssl --format json >"$tmp/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 3*2*(3*9+2) and all(r["library"] == "openssl" and isinstance(r["buffer_bytes"], int) for r in d)' "$tmp/json"
ok $? "json: --all with --lib keeps machine types"

"$BENCHORCH" results --db "$db" --lib openssl --algo aes-256-gcm --op encrypt \
	--size 16 --distro debian >"$tmp/out"
[ "$(table "$tmp/out" | wc -l)" -eq 3 ] && grep -Eq ' bulk +hw$' "$tmp/out" && grep -Eq ' oneshot +hw$' "$tmp/out"
ok $? "bulk and one-shot rows are told apart by the mode column"
"$BENCHORCH" results --db "$db" --lib nosuchlib >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "no matching results in '$db'" "$tmp/err"
ok $? "no match exits 1 and says so"
"$BENCHORCH" results --db "$db" --size 1parsec >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "invalid size '1parsec'" "$tmp/err"
ok $? "a bad size is a usage error"
"$BENCHORCH" results --db "$db" --all --run 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "--all with --run is a usage error"

done_testing
