#!/bin/sh
# tests/bench/aa.sh - A/A: how often does compare call a curve changed
# between runs of the same bytes?
#
# usage: tests/bench/aa.sh [DB]
#
# Runs `benchorch run` AA_RUNS times (default 5) back to back into one
# database with AA_ARGS (default "--distros debian:bookworm --quick"),
# with AA_SEED (a number: every run draws its order from that seed; empty,
# the default: every run draws a fresh seed). No package changes between
# the runs, so every curve compare calls changed is a false alarm. Then
# compares each run with the next one (run i against run i+1) and prints,
# per pair, the curves compared, changed, confirmed and flagged, and how
# many were judged against an assumed noise (no history yet, one
# invocation); at the end the share of curves called changed over every
# pair, and PASS when it is at most AA_MAX_PCT (default 1) %. The first
# pairs have little or no history: the later pairs show the steady state,
# which the last line gives apart ("from pair 3 on").
# With DB, only reports on the runs already in it (every run, in order).
# AA_STATE sets --state-dir. Run it as root, alone on the machine (it
# measures). Exit status: 0 PASS, 1 FAIL or a run failed, 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
runs=${AA_RUNS:-5}
args=${AA_ARGS:---distros debian:bookworm --quick}
seed=${AA_SEED:-}
max_pct=${AA_MAX_PCT:-1}
case $runs in ''|*[!0-9]*|0|1) echo "$0: AA_RUNS must be >= 2" >&2; exit 2 ;; esac
[ $# -le 1 ] || { echo "usage: $0 [DB]" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }

if [ $# -eq 1 ]; then
	db=$1
else
	db=$(mktemp -d)/aa.db
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		"$BENCHORCH" run $args ${seed:+--seed "$seed"} \
			${AA_STATE:+--state-dir "$AA_STATE"} --db "$db" \
			>/dev/null 2>"$db.run$i.err" || {
			echo "$0: run $i failed:" >&2
			tail -3 "$db.run$i.err" >&2
			exit 1
		}
		echo "run $i done" >&2
	done
fi
echo "database: $db"
# the runs measured, not the confirmation runs `run` adds after them
ids=$(sqlite3 "$db" "select id from runs where status = 'done' and id not in (select run_id from confirmations) order by started_at, id")
set -- $ids
[ $# -ge 2 ] || { echo "$0: fewer than two runs in '$db'" >&2; exit 1; }
prev=$1
shift
for id in "$@"; do
	"$BENCHORCH" compare --db "$db" --format json "$prev" "$id" \
		>"$db.$prev-$id.json" || exit 1
	prev=$id
done
python3 - "$db" "$max_pct" $ids <<'PY'
import json, sys
db, max_pct, ids = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
tot = chg = tot3 = chg3 = 0
print("pair     curves changed confirmed flagged assumed-noise  changed curves")
for k in range(len(ids) - 1):
    d = json.load(open("%s.%s-%s.json" % (db, ids[k], ids[k + 1])))
    c = d["curves"]
    bad = [x for x in c if x["state"] in ("changed", "confirmed")]
    assumed = sum(1 for x in c if x["noise_source"] == "assumed")
    print("%3s-%-4s %6d %7d %9d %7d %13d  %s" % (ids[k], ids[k + 1], len(c),
          len(bad), d["confirmed"], d["flagged"], assumed,
          ", ".join("%s %s %s %s %+.1f%%" % (x["library"], x["algorithm"],
                    x["operation"], x["mode"], 100 * x["effect"]) for x in bad[:4])))
    tot += len(c)
    chg += len(bad)
    if k >= 2:
        tot3 += len(c)
        chg3 += len(bad)
pct = 100.0 * chg / tot if tot else 0
print("changed: %d of %d curve comparisons (%.2f %%)" % (chg, tot, pct))
if tot3:
    print("from pair 3 on: %d of %d (%.2f %%)" % (chg3, tot3, 100.0 * chg3 / tot3))
print("PASS" if pct <= max_pct else "FAIL", "(goal: at most %g %%)" % max_pct)
sys.exit(0 if pct <= max_pct else 1)
PY
