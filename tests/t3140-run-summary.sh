#!/bin/sh
# t3140-run-summary - the answer `benchorch run` ends with, printed again by
# `results --summary` from the fixture database: at most 120 columns, one
# row per (distribution, algorithm), the fastest library at 16 KiB and 16 B
# really the fastest in the database, runner-up and slowest as fractions,
# cycles per byte at the measured clock, noisy and unverified values
# marked, short version strings, the spread of each library between the
# distributions, and a closing line naming the commands that show
# everything. Every expected value is read from the database with sqlite3.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database with three runs of two distributions"

# check.py DB RUN SUMMARY: compare the summary with the database; prints
# what differs and exits 1, or exits 0.
cat >"$tmp/check.py" <<'PY'
import re, sqlite3, statistics, sys

db, run, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(path).read().splitlines()
con = sqlite3.connect(db)
bad = []

def fmt_mbps(v):
    return "%.2f" % v if v < 10 else "%.1f" % v if v < 100 else "%.0f" % v

def marks(noisy, verified):
    return ("~" if noisy == 1 else "") + ("!" if verified == 0 else "")

# (distro, algorithm) -> size -> library -> (MB/s, marks, cycles/byte)
want = {}
for d, a, lib, size, mbps, noisy, ver, hz in con.execute(
        "select v.distro || ':' || v.release, v.algorithm, v.library,"
        " v.buffer_bytes, v.mb_per_s, r.noisy, v.verified,"
        " (i.clock_start_hz + i.clock_end_hz) / 2.0"
        " from results_v v join results r on r.id = v.result_id"
        " join invocations i on i.id = r.invocation_id"
        " where v.run_id = ? and v.mode = 'bulk'"
        " and v.operation in ('encrypt', 'hash')"
        " and v.buffer_bytes in (16, 16384)", (run,)):
    want.setdefault((d, a), {}).setdefault(size, {})[lib] = (
        mbps, marks(noisy, ver), hz / (mbps * 1e6))

# the rows, by the distribution heading above them
got, distro, in_table = {}, None, False
for line in text:
    m = re.match(r"^(\S+:\S+): ", line)
    if m:
        distro, in_table = m.group(1), False
    elif line.startswith("  algorithm "):
        in_table = True
    elif not line.strip():
        in_table = False
    elif in_table:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != 8:
            bad.append("not 8 cells: %r" % line)
            continue
        if (distro, cells[0]) in got:
            bad.append("two rows for %s %s" % (distro, cells[0]))
        got[(distro, cells[0])] = cells

if set(got) != set(want):
    bad.append("rows %s, database %s" % (sorted(got), sorted(want)))
for key, sizes in want.items():
    cells = got.get(key)
    if not cells:
        continue
    large = sorted(sizes[16384].items(), key=lambda kv: -kv[1][0])
    top, (v, mk, cpb) = large[0]
    exp = [key[1], top, fmt_mbps(v) + mk, "%.2f" % cpb]
    ratio = lambda kv: "%s x%.2f%s" % (kv[0], kv[1][0] / v, kv[1][1])
    exp.append(ratio(large[1]) if len(large) > 1 else "-")
    exp.append(ratio(large[-1]) if len(large) > 2 else "-")
    stop, (sv, smk, _) = max(sizes[16].items(), key=lambda kv: kv[1][0])
    exp += [stop, fmt_mbps(sv) + smk]
    if cells != exp:
        bad.append("%s: printed %s, database says %s" % (key, cells, exp))

# the spread of each library between the distributions at 16 KiB
spread = {}
for (d, a), sizes in want.items():
    for lib, (v, _, _) in sizes[16384].items():
        spread.setdefault(lib, {}).setdefault(a, []).append((v, d))
lines = [l for l in text if re.match(r"^  \S+ +median ", l)]
for lib, algos in sorted(spread.items()):
    pct = {a: (max(vs)[0] / min(vs)[0] - 1) * 100
           for a, vs in algos.items() if len(vs) > 1}
    big = max(pct, key=lambda a: pct[a])
    exp = ("  %-11s median %5.1f %% over %d algorithm%s, largest %5.1f %%"
           " (%s: %s over %s)" % (lib, statistics.median(pct.values()),
           len(pct), "" if len(pct) == 1 else "s", pct[big], big,
           max(algos[big])[1], min(algos[big])[1]))
    if exp not in lines:
        bad.append("spread of %s: want %r in %r" % (lib, exp, lines))
if len(lines) != len(spread):
    bad.append("%d spread lines for %d libraries" % (len(lines), len(spread)))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

BENCHORCH_DB="$db" "$BENCHORCH" results --summary >"$tmp/sum" 2>"$tmp/err"
ok $? "results --summary (the latest run) exits 0"
sed 's/^/# /' "$tmp/sum"
w=$(grep -v '^Every point: ' "$tmp/sum" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 120 ]
ok $? "every line fits 120 columns (the closing line aside: it names the database) ($w)"
python3 "$tmp/check.py" "$db" 3 "$tmp/sum" | sed 's/^/# /'
python3 "$tmp/check.py" "$db" 3 "$tmp/sum" >/dev/null
ok $? "one row per (distribution, algorithm); the fastest at 16 KiB and 16 B, runner-up, slowest, MB/s and cycles per byte as in the database; one spread line per library"
grep -q '^debian:bookworm: libgcrypt 1.10.1, nettle 3.8.1, openssl 3.0.11$' "$tmp/sum"
ok $? "the distribution's heading gives its libraries by name with short versions ('OpenSSL 3.0.11' -> 3.0.11)"
[ "$(tail -1 "$tmp/sum")" = "Every point: benchorch results --run 3; charts: benchorch report --run 3 -o report.html (both with --db '$db')" ]
ok $? "ends with one line naming the commands that show everything, with the database BENCHORCH_DB chose (a new shell without it reads the default)"
mkdir "$tmp/state"
cp "$db" "$tmp/state/results.db"
(cd "$tmp" && BENCHORCH_STATE_DIR=state "$BENCHORCH" results --summary --run 1) >"$tmp/sum-state" 2>"$tmp/err"
[ "$(tail -1 "$tmp/sum-state")" = "Every point: benchorch results --run 1; charts: benchorch report --run 1 -o report.html (both with --db '$(cd "$tmp" && pwd -P)/state/results.db')" ]
ok $? "a database chosen by a relative BENCHORCH_STATE_DIR is named by its full path"
mkdir "$tmp/it's"
cp "$db" "$tmp/it's/r.db"
"$BENCHORCH" results --db "$tmp/it's/r.db" --summary --run 1 >"$tmp/sum-q" 2>"$tmp/err"
dbq=$(tail -1 "$tmp/sum-q" | sed -n "s/.*(both with --db \(.*\))\$/\1/p")
[ "$(eval "printf %s $dbq")" = "$(cd "$tmp" && pwd -P)/it's/r.db" ]
ok $? "a path with a quote is quoted as the shell reads it"
[ -s "$tmp/sum" ] && ! grep -q '[~!]' "$tmp/sum"
ok $? "nothing noisy or unverified at 16 B or 16 KiB in the fixture: no mark, no legend"

# Run 1: libgcrypt is not slowed down there, the guest measured no clock
# (cycles per byte at the nominal 2.2 GHz, marked *), another order.
"$BENCHORCH" results --db "$db" --run 1 --summary >"$tmp/sum1" 2>"$tmp/err"
ok $? "results --summary --run 1 exits 0"
sed 's/\([0-9]\)\*/\1/' "$tmp/sum1" >"$tmp/sum1-plain"
cp "$db" "$tmp/r1.db"
sqlite3 "$tmp/r1.db" "update invocations set clock_start_hz = 2200000000, clock_end_hz = 2200000000 where run_id = 1"
python3 "$tmp/check.py" "$tmp/r1.db" 1 "$tmp/sum1-plain" | sed 's/^/# /'
python3 "$tmp/check.py" "$tmp/r1.db" 1 "$tmp/sum1-plain" >/dev/null &&
	grep -Eq '^  aes-256-gcm +openssl +[0-9]+ +[0-9.]+\* ' "$tmp/sum1" &&
	grep -q '^\* at the CPU.s nominal clock$' "$tmp/sum1"
ok $? "a run without a measured clock: cycles per byte at the nominal clock, marked * and explained"
grep -q "^Every point: benchorch results --run 1; charts: benchorch report --run 1 -o report.html (both with --db '$db')$" "$tmp/sum1"
ok $? "with another database than the default the closing line names it"

# Marks: a noisy fastest point, an unverified runner-up, a long version.
cp "$db" "$tmp/m.db"
sqlite3 "$tmp/m.db" "
update results set noisy = 1 where id = (select result_id from results_v where
  run_id = 3 and distro = 'debian' and library = 'openssl' and
  algorithm = 'aes-256-gcm' and operation = 'encrypt' and mode = 'bulk' and
  buffer_bytes = 16384);
update results set verified = 0 where id = (select result_id from results_v where
  run_id = 3 and distro = 'ubuntu' and library = 'nettle' and
  algorithm = 'sha-256' and buffer_bytes = 16384);
update results set verified = 0 where id = (select result_id from results_v where
  run_id = 3 and distro = 'ubuntu' and library = 'nettle' and
  algorithm = 'sha-256' and buffer_bytes = 16);
update libraries set version = 'Nettle 3.8.1 (unreleased, revision unknown, distribution Debian)'
  where name = 'nettle';"
BENCHORCH_DB="$tmp/m.db" "$BENCHORCH" results --summary >"$tmp/sumM" 2>"$tmp/err"
ok $? "results --summary on the marked copy exits 0"
python3 "$tmp/check.py" "$tmp/m.db" 3 "$tmp/sumM" | sed 's/^/# /'
python3 "$tmp/check.py" "$tmp/m.db" 3 "$tmp/sumM" >/dev/null &&
	grep -Eq '^  aes-256-gcm +openssl +[0-9]+~ ' "$tmp/sumM" &&
	grep -Eq '^  sha-256 +openssl +[0-9]+ +[0-9.]+ +nettle x0\.[0-9]+! ' "$tmp/sumM" &&
	grep -Eq '^  sha-256 .* nettle +[0-9]+!$' "$tmp/sumM" &&
	grep -q "^~ noisy (spread above 3 x its invocation's typical); ! NOT verified$" "$tmp/sumM"
ok $? "a noisy value is marked ~, an unverified one ! (also at 16 B), with a legend"
grep -q 'nettle 3\.8\.1' "$tmp/sumM" && ! grep -q unreleased "$tmp/sumM" &&
	[ "$(sqlite3 "$tmp/m.db" "select count(*) from libraries where version like 'Nettle 3.8.1 (unreleased%'")" -gt 0 ]
ok $? "a long version string is shown short (3.8.1); the database keeps the full one"
w=$(grep -v '^Every point: ' "$tmp/sumM" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 120 ]
ok $? "still at most 120 columns ($w)"

# One distribution: no spread section.
cp "$db" "$tmp/one.db"
sqlite3 "$tmp/one.db" "pragma foreign_keys = on; delete from invocations where spec = 'ubuntu:noble'"
BENCHORCH_DB="$tmp/one.db" "$BENCHORCH" results --summary >"$tmp/sum2" 2>"$tmp/err"
ok $([ $? -eq 0 ] && ! grep -q 'Between distributions' "$tmp/sum2" &&
     [ "$(grep -c '^  [a-z0-9-]* ' "$tmp/sum2")" -eq 3 ]; echo $?) \
	"one distribution: its two rows (and header), no spread between distributions"

# Usage and missing runs.
"$BENCHORCH" results --db "$db" --summary --lib openssl >/dev/null 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q -- '--summary takes --run or --latest' "$tmp/err"; echo $?) \
	"--summary with another filter is a usage error"
"$BENCHORCH" results --db "$db" --summary --format csv >/dev/null 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q -- '--summary takes' "$tmp/err"; echo $?) "--summary with --format csv is a usage error"
"$BENCHORCH" results --db "$db" --summary --run 9 >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "no run 9 in '$db'" "$tmp/err"; echo $?) \
	"--summary of a missing run is an unknown name: exit 2, saying so"

# The point table tells bulk from one-shot and names the variant: no two
# rows look the same.
"$BENCHORCH" results --db "$db" >"$tmp/table" 2>/dev/null
[ -s "$tmp/table" ] && [ -z "$(sed '1,/^$/d' "$tmp/table" | sort | uniq -d)" ] &&
	head -5 "$tmp/table" | grep -Eq ' mode +variant '
ok $? "results' table: mode and variant columns, no two rows alike"

if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" results --db "$tmp/m.db" --summary --run 1 --run 3 >/dev/null 2>"$tmp/vg"
	ok $? "results --summary under valgrind: no memory error"
fi

done_testing
