#!/bin/sh
# tests/bench/ranking.sh - ranking A/A: do two identical runs name the
# same fastest library, and order the libraries the same way?
#
# usage: tests/bench/ranking.sh [DB]
#
# Runs `benchorch run` twice back to back into one database with
# RANK_ARGS (default "--distros debian:bookworm --quick --no-confirm";
# the libraries take turns; add --sequential to measure them one after
# the other), each with a
# fresh seed. No package changes between them: every disagreement is the
# measurement's. Then, at 16 KiB, over every cell (distribution,
# algorithm, operation, mode) measured by two libraries or more in both
# runs (points_v, the run's median of its invocations):
#  - agree: the fastest library of each run is within 3 % of the other
#    run's fastest in that other run (both ways), in per cent of cells;
#  - flips: of the library pairs one run orders apart by 5 % or more, the
#    share the other run orders the other way (both ways pooled);
#  - taking turns (not --sequential), ties: of the pairs whose paired interval holds 1
#    in a run, how many the other run orders apart by 5 % or more.
# The targets (issue "Side by side"): agree >= 97 %, flips <= 0.5 %.
# With DB, reports on the first two finished runs already in it. Run it
# as root, alone on the machine (it measures). RANK_STATE sets
# --state-dir. Exit status: 0 both targets met, 1 not (or a run failed),
# 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
args=${RANK_ARGS:---distros debian:bookworm --quick --no-confirm}
[ $# -le 1 ] || { echo "usage: $0 [DB]" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }

if [ $# -eq 1 ]; then
	db=$1
else
	db=$(mktemp -d)/ranking.db
	for i in 1 2; do
		start=$(date +%s)
		# shellcheck disable=SC2086
		"$BENCHORCH" run $args ${RANK_STATE:+--state-dir "$RANK_STATE"} \
			--db "$db" >/dev/null 2>"$db.run$i.err" || {
			echo "$0: run $i failed:" >&2
			tail -3 "$db.run$i.err" >&2
			exit 1
		}
		echo "run $i done in $(( $(date +%s) - start )) s" >&2
	done
fi
echo "database: $db"
echo "arguments: $args"
python3 - "$db" <<'PY'
import sqlite3, sys, itertools
db = sqlite3.connect(sys.argv[1])
runs = [r[0] for r in db.execute(
    "select id from runs where status = 'done' order by started_at, id")][:2]
if len(runs) < 2:
    print("fewer than two finished runs"); sys.exit(1)
def cells(run):
    c = {}
    for d, a, o, m, lib, mbps in db.execute(
            "select distro || ':' || coalesce(release, ''), algorithm,"
            " operation, mode, library, mb_per_s from points_v"
            " where run_id = ? and buffer_bytes = 16384", (run,)):
        c.setdefault((d, a, o, m), {})[lib] = mbps
    return c
A, B = cells(runs[0]), cells(runs[1])
keys = [k for k in A if k in B and len(A[k]) > 1 and len(B[k]) > 1]
agree = 0
sep = flips = 0
for k in keys:
    a, b = A[k], B[k]
    fa, fb = max(a, key=a.get), max(b, key=b.get)
    ok = (b.get(fa, 0) >= 0.97 * b[fb]) and (a.get(fb, 0) >= 0.97 * a[fa])
    agree += ok
    for x, y in ((a, b), (b, a)):
        for l1, l2 in itertools.combinations(sorted(set(x) & set(y)), 2):
            hi, lo = (l1, l2) if x[l1] >= x[l2] else (l2, l1)
            if x[hi] >= 1.05 * x[lo]:
                sep += 1
                flips += y[hi] < y[lo]
n = len(keys)
print("runs %d and %d: %d cells at 16 KiB" % (runs[0], runs[1], n))
print("agree: the fastest within 3 %% both ways in %d of %d cells: %.1f %% "
      "(target >= 97 %%)" % (agree, n, 100.0 * agree / max(n, 1)))
print("flips: %d of %d pairs ordered apart by >= 5 %%: %.2f %% "
      "(target <= 0.5 %%)" % (flips, sep, 100.0 * flips / max(sep, 1)))
try:
    ties = list(db.execute(
        "select inv.run_id, im.distro || ':' || coalesce(im.release, ''),"
        " p.algorithm, p.operation, p.mode, l.name, v.name, p.tie"
        " from pairs p join invocations inv on inv.id = p.invocation_id"
        " left join images im on im.id = inv.image_id"
        " join libraries l on l.id = p.library_id"
        " join libraries v on v.id = p.versus_id"
        " where p.buffer_bytes = 16384"))
except sqlite3.Error:
    ties = []
if ties:
    t = [x for x in ties if x[7]]
    apart = 0
    for run, d, a, o, m, lib, versus, _ in t:
        other = B if run == runs[0] else A
        c = other.get((d, a, o, m), {})
        if lib in c and versus in c and max(c[lib], c[versus]) >= 1.05 * min(c[lib], c[versus]):
            apart += 1
    print("pairs: %d at 16 KiB, %d ties; the other run orders %d of the ties "
          "apart by >= 5 %%" % (len(ties), len(t), apart))
sys.exit(0 if agree >= 0.97 * n and flips <= 0.005 * sep else 1)
PY
