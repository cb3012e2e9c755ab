#!/bin/sh
# t3141-run-progress - a real run on the cached Debian image shows where it
# stands: not on a terminal, one plain line per finished guest invocation
# on stderr (round, distribution, seconds, points, noisy points), each as
# stored; on a terminal (script(1) gives it one) a live line with the
# library being measured and, when a finished run with the same command
# line exists, the time left; --quiet shows none. Its summary names the
# fastest library per algorithm as the database has it, in 120 columns.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
[ -f "$TEST_STATE/images/debian-bookworm/image.json" ] ||
	skip_all "needs the cached Debian image (run t3100 first)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BENCHORCH_DB="$tmp/r.db"
export BENCHORCH_DB
q() { sqlite3 -batch -noheader "$BENCHORCH_DB" "$1"; }
# --no-confirm: the progress of the runs alone, no confirmation after them
args="--no-confirm --distros debian --quick --libs openssl,nettle,libgcrypt,libsodium --algos aes-128-gcm,sha-256,chacha20-poly1305 --state-dir $TEST_STATE"

# shellcheck disable=SC2086
"$BENCHORCH" run $args --seed 7 >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "a quick run of four libraries and three algorithms exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

# The progress lines against the invocations stored.
grep -E '^benchorch: round ' "$tmp/err" | sed 's/^/# /'
grep -E '^benchorch: round ' "$tmp/err" |
	sed -n 's|^benchorch: round \([0-9]*\)/\([0-9]*\) debian: \([0-9.]*\) s, \([0-9]*\) points\{0,1\}, \([0-9]*\) noisy$|\1 \2 \3 \4 \5|p' |
	sort >"$tmp/lines"
q "select i.round, (select max(round) from invocations where run_id = 1),
	printf('%.1f', i.wall_ns / 1e9),
	(select count(*) from results r where r.invocation_id = i.id),
	(select count(*) from results r where r.invocation_id = i.id and r.noisy = 1)
	from invocations i where i.run_id = 1" | tr '|' ' ' | sort >"$tmp/stored"
[ -s "$tmp/stored" ] && [ "$(grep -c '^benchorch: round ' "$tmp/err")" -eq "$(wc -l <"$tmp/stored")" ] &&
	cmp -s "$tmp/lines" "$tmp/stored"
ok $? "one line per guest invocation ($(wc -l <"$tmp/stored")), with its round, seconds, points and noisy points as stored"
! grep -q "$(printf '\r')" "$tmp/err"
ok $? "not on a terminal: no live line (no carriage return)"

# The summary of a real run: the fastest library is the database's.
w=$(grep -v '^Every point: ' "$tmp/out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 120 ]
ok $? "the summary fits 120 columns, its closing line aside ($w)"
python3 - "$BENCHORCH_DB" "$tmp/out" >"$tmp/found" <<'PY'
import re, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
rows = {}
table = False
for line in open(sys.argv[2]):
    if line.startswith("  algorithm "):
        table = True
    elif not line.strip():
        table = False
    elif table:
        c = re.split(r"\s{2,}", line.strip())
        rows[c[0]] = c
bad = []
# the summary shows each point once, the median of its invocations
algos = [a for (a,) in con.execute("select distinct algorithm from points_v"
                                   " where mode = 'bulk' and buffer_bytes = 16384")]
if sorted(rows) != sorted(algos):
    bad.append("rows %s, algorithms %s" % (sorted(rows), sorted(algos)))
for a, c in rows.items():
    for size, col in ((16384, 1), (16, 6)):
        lib, = con.execute("select library from points_v where algorithm = ?"
                           " and mode = 'bulk' and operation in ('encrypt', 'hash')"
                           " and buffer_bytes = ? order by mb_per_s desc limit 1",
                           (a, size)).fetchone()
        # a tie names the fastest first: "a = b", "a = b +2"
        if c[col].split(" = ")[0].split(" +")[0] != lib:
            bad.append("%s at %d: printed %s, fastest in the database %s" % (a, size, c[col], lib))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
rc=$?
sed 's/^/# /' "$tmp/found"
ok $rc "a row per algorithm; the fastest at 16 KiB and at 16 B is the database's"
[ "$(tail -1 "$tmp/out")" = "Every point: benchorch results --run 1; charts: benchorch report --run 1 -o report.html (both with --db '$BENCHORCH_DB')" ]
ok $? "the summary ends with the commands that show everything, naming the database BENCHORCH_DB chose"

# On a terminal: the live line, with the time left from run 1 (same
# command line but for the seed).
script -qec "\"$BENCHORCH\" run $args --seed 8" "$tmp/tty" >/dev/null 2>&1
rc=$?
ok $rc "the same run on a terminal exits 0"
tr '\r' '\n' <"$tmp/tty" | grep -a 'benchorch: round ' | sed 's/\x1b\[K//g' | sort -u >"$tmp/live"
sed 's/^/# /' "$tmp/live" | head -8
grep -q "$(printf '\r\033\\[K')benchorch: round [0-9]*/[0-9]* debian" "$tmp/tty" &&
	grep -Eq '^benchorch: round [0-9]+/[0-9]+ debian (openssl|nettle|libgcrypt|libsodium) ?\([0-9]+ of [0-9]+\)' "$tmp/live" &&
	grep -Eq '\([0-9]+ of [0-9]+\), (about [0-9]+ (s|min [0-9]+ s) left|longer than the previous run)$' "$tmp/live"
ok $? "a live line redrawn in place: round, distribution, library, invocations done and the time left"
script -qec "\"$BENCHORCH\" run $args --algos sha-256 --seed 9" "$tmp/tty2" >/dev/null 2>&1
tr '\r' '\n' <"$tmp/tty2" | grep -a 'benchorch: round ' | sed 's/\x1b\[K//g' >"$tmp/live2"
grep -q 'benchorch: round 1/1 debian' "$tmp/live2" && ! grep -q 'left\|previous run' "$tmp/live2"
ok $? "no time left shown without a finished run of the same command line"

# shellcheck disable=SC2086
"$BENCHORCH" run $args --seed 10 --quiet >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 0 ] && ! grep -q '^benchorch: round ' "$tmp/err" && [ -s "$tmp/out" ]; echo $?) \
	"--quiet: no progress lines, the summary still printed ($rc)"

done_testing
