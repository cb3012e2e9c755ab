#!/bin/sh
# t8130-machines - runs of several machines side by side: `report` draws
# one curve per (library, distro, machine) and tables at 16 KiB with one
# column per machine; `compare --machines` prints one column per machine.
# Two hosts' fixture databases (results-mkdb: run 2 of each host has
# libgcrypt twice as slow as run 1) merged into one.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk="$top_builddir/tests/fixtures/results-mkdb"
"$mk" "$tmp/a.db" host-a && "$mk" "$tmp/b.db" host-b &&
	"$BENCHORCH" merge --db "$tmp/all.db" "$tmp/a.db" "$tmp/b.db" >/dev/null
ok $? "two hosts' runs in one database (host-a runs 1-3, host-b runs 4-6)"
q() { sqlite3 -batch -noheader "$tmp/all.db" "$1"; }
cpu=$(q "select model_name from cpus")
# MB/s at 16 KiB of libgcrypt aes-256-gcm encrypt on debian in run $1,
# printed as the report and compare print it (three significant digits)
mbps() {
	v=$(q "select mb_per_s from results_v where run_id = $1 and library = 'libgcrypt' and algorithm = 'aes-256-gcm' and operation = 'encrypt' and distro = 'debian' and buffer_bytes = 16384")
	awk -v v="$v" 'BEGIN { printf "%.0f\n", v }'
}
r1=$(mbps 1) r2=$(mbps 2) r4=$(mbps 4)
[ "$r1" -gt $((r2 * 3 / 2)) ]
ok $? "the fixture: run 1's libgcrypt ($r1 MB/s) is faster than run 2's ($r2 MB/s)"

# report of one run of each host
"$BENCHORCH" report --db "$tmp/all.db" --run 1 --run 4 -o "$tmp/r.html" 2>"$tmp/err"
ok $? "report --run 1 --run 4 exits 0"
grep -q ">libgcrypt, debian:bookworm, host-a: $cpu<" "$tmp/r.html" &&
	grep -q ">libgcrypt, debian:bookworm, host-b: $cpu<" "$tmp/r.html" &&
	! grep -q ">libgcrypt, debian:bookworm, run " "$tmp/r.html"
ok $? "one curve per library, distro and machine (host: CPU), named so"
grep -q "<caption>MB/s at 16 KiB, one column per machine (its latest run)</caption>" "$tmp/r.html" &&
	grep -q "<tr><th>library</th><th>distro</th><th>host-a: $cpu</th><th>host-b: $cpu</th></tr>" "$tmp/r.html"
ok $? "the table at 16 KiB has one column per machine"
# the libgcrypt/debian row of the aes-256-gcm encrypt section
row=$(awk '/data-algorithm="aes-256-gcm" data-operation="encrypt"/ { s = 1 } s && /<tr><td>libgcrypt<\/td><td>debian:bookworm<\/td>/ { print; exit }' "$tmp/r.html")
[ "$row" = "<tr><td>libgcrypt</td><td>debian:bookworm</td><td class=\"num\">$r1</td><td class=\"num\">$r4</td></tr>" ]
ok $? "each machine's cell holds its run's MB/s: $row"

# two runs of host-a and one of host-b: host-a's curves name their run,
# its column shows its latest run
"$BENCHORCH" report --db "$tmp/all.db" --run 1 --run 2 --run 4 -o "$tmp/r2.html" 2>"$tmp/err"
grep -q ">libgcrypt, debian:bookworm, host-a: $cpu, run 1<" "$tmp/r2.html" &&
	grep -q ">libgcrypt, debian:bookworm, host-a: $cpu, run 2<" "$tmp/r2.html" &&
	grep -q ">libgcrypt, debian:bookworm, host-b: $cpu<" "$tmp/r2.html"
ok $? "a machine with two runs has a curve per run"
row=$(awk '/data-algorithm="aes-256-gcm" data-operation="encrypt"/ { s = 1 } s && /<tr><td>libgcrypt<\/td><td>debian:bookworm<\/td>/ { print; exit }' "$tmp/r2.html")
[ "$row" = "<tr><td>libgcrypt</td><td>debian:bookworm</td><td class=\"num\">$r2</td><td class=\"num\">$r4</td></tr>" ]
ok $? "and its column shows its latest run (2, not 1): $row"

# one machine: the report as before
"$BENCHORCH" report --db "$tmp/all.db" --run 1 --run 2 -o "$tmp/r3.html" 2>"$tmp/err"
grep -q ">libgcrypt, debian:bookworm, run 1<" "$tmp/r3.html" && ! grep -q "one column per machine" "$tmp/r3.html" &&
	grep -q "<tr><th>distro</th><th>libgcrypt</th>" "$tmp/r3.html"
ok $? "runs of one machine: curves by run, the distro x library table"

# compare --machines
"$BENCHORCH" compare --machines --db "$tmp/all.db" >"$tmp/out" 2>"$tmp/err"
ok $? "compare --machines exits 0"
sed -n 1,3p "$tmp/out" >"$tmp/head"
printf 'MB/s at 16 KiB, one column per machine:\n  host-a: %s, run 3\n  host-b: %s, run 6\n' "$cpu" "$cpu" >"$tmp/want"
cmp -s "$tmp/head" "$tmp/want"
ok $? "without runs: the latest run of each machine, named with its CPU"
grep -Eq "^algorithm +operation +library +distro +host-a +host-b$" "$tmp/out" &&
	grep -Eq "^aes-256-gcm +encrypt +libgcrypt +debian:bookworm +$r2 +$(mbps 6)$" "$tmp/out"
ok $? "a column per machine, each with its MB/s at 16 KiB"
"$BENCHORCH" compare --machines --db "$tmp/all.db" --format csv 1 6 >"$tmp/out" 2>&1
raw() { q "select mb_per_s from results_v where run_id = $1 and library = 'libgcrypt' and algorithm = 'aes-256-gcm' and operation = 'encrypt' and distro = 'debian' and buffer_bytes = 16384"; }
head -1 "$tmp/out" | grep -qx "algorithm,operation,library,distro,host-a: $cpu (run 1),host-b: $cpu (run 6)" &&
	awk -F, -v a="$(raw 1)" -v b="$(raw 6)" '$1 == "aes-256-gcm" && $2 == "encrypt" && $3 == "libgcrypt" && $4 == "debian:bookworm" { n++; if ($5 - a > 1e-9 || a - $5 > 1e-9 || $6 - b > 1e-9 || b - $6 > 1e-9) bad = 1 } END { exit !(n == 1 && !bad) }' "$tmp/out"
ok $? "csv with the runs given: one column per machine"
"$BENCHORCH" compare --machines --db "$tmp/all.db" --format json --size 1KiB 1 4 >"$tmp/out" 2>&1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["bytes"] == 1024, d["bytes"]
assert [m["host"] for m in d["machines"]] == ["host-a", "host-b"]
assert [m["run"] for m in d["machines"]] == [1, 4]
r = [r for r in d["rows"] if r["library"] == "openssl" and r["algorithm"] == "sha-256" and r["distro"] == "ubuntu:noble"]
assert len(r) == 1 and len(r[0]["mb_per_s"]) == 2 and all(v > 0 for v in r[0]["mb_per_s"])
' "$tmp/out"
ok $? "json at --size 1KiB: machines and a figure per machine"
"$BENCHORCH" compare --machines --db "$tmp/all.db" 1 2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "one machine only" "$tmp/err" && grep -q "^  host-a: .*, run 2$" "$tmp/out"
ok $? "runs of one machine: its latest, and a warning"
"$BENCHORCH" compare --machines --db "$tmp/all.db" 99 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no run 99 in '$tmp/all.db'" "$tmp/err"
ok $? "a run that does not exist is named: an unknown name, exit 2"
"$BENCHORCH" compare --machines --size 17 --db "$tmp/all.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
"$BENCHORCH" results --size 17 --run 3 --run 6 --db "$tmp/all.db" >/dev/null 2>"$tmp/err.results"
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
	[ "$(sed 's/^benchorch compare:/benchorch results:/; s/compare --help/results --help/' "$tmp/err")" = "$(cat "$tmp/err.results")" ] &&
	grep -q "^benchorch compare: --size: no results at '17' in runs 3, 6 of '$tmp/all.db' (it has: 16 B, .*1 MiB)$" "$tmp/err"
ok $? "--size the machines' latest runs have no result at: an unknown name, exit 2 (got $rc), said as results says it of those runs: $(head -1 "$tmp/err")"
cp "$tmp/all.db" "$tmp/cut.db"
sqlite3 "$tmp/cut.db" "delete from results where buffer_bytes = 1048576 and invocation_id in (select id from invocations where run_id in (4, 5, 6))"
"$BENCHORCH" compare --machines --size 1MiB --db "$tmp/cut.db" 4 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^benchorch compare: --size: no results at '1MiB' in run 4 of '$tmp/cut.db' (it has: 16 B, 64 B, 256 B, 1 KiB, 4 KiB, 16 KiB, 64 KiB, 256 KiB)$" "$tmp/err"
ok $? "--size the runs have no result at: exit 2 (got $rc): $(head -1 "$tmp/err")"
"$BENCHORCH" compare --machines --latest 2 --db "$tmp/all.db" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--machines with --latest is a usage error"
"$BENCHORCH" compare --size 1KiB 1 2 --db "$tmp/all.db" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--size without --machines is a usage error"

if command -v valgrind >/dev/null 2>&1; then
	vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"; }
	vg "$BENCHORCH" report --db "$tmp/all.db" --run 1 --run 2 --run 4 -o "$tmp/vg.html" 2>"$tmp/vg"
	rc=$?
	for f in table csv json; do
		vg "$BENCHORCH" compare --machines --db "$tmp/all.db" --format $f >/dev/null 2>>"$tmp/vg" || rc=1
	done
	ok $rc "report and compare --machines under valgrind: no memory error"
	[ -s "$tmp/vg" ] && sed 's/^/# /' "$tmp/vg" | head -20
fi

done_testing
