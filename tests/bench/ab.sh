#!/bin/sh
# tests/bench/ab.sh - A/B: is a real, known change in one library found,
# and do the other curves stay quiet?
#
# usage: tests/bench/ab.sh [DB]
#
# The change: --nohw masks hardware acceleration in the libraries that
# have a runtime switch (guest/hwmask.h: OpenSSL's AES-NI and PCLMULQDQ
# bits and its extended capability words - AVX2, SHA extensions -,
# Nettle, GnuTLS, Botan 3, libgcrypt). AB_ARGS (default "--distros
# debian:bookworm --quick --libs
# openssl,libsodium,mbedtls,wolfssl,libtomcrypt,libmcrypt") measures
# OpenSSL beside libraries that have no such switch, so the only code
# that changes is OpenSSL's: its AES, GHASH and SIMD paths move, and
# every other library's curves must not.
#
# Runs AB_PAIRS (default 4) pairs of runs: a normal run, then a --nohw
# run. The last pair is judged (its normal run against its --nohw run),
# as a nightly run is: with the history of the runs before it, which
# gives each curve its own noise; AB_JUDGE=first judges pair 1 instead,
# with no history (the first runs in a database: each curve is judged
# against the spread of the other libraries' curves, a wider noise). The
# other pairs, measured apart from the judged one, give the truth. Every curve of a library other
# than AB_CHANGED (default openssl) is quiet by design: its code did not
# change (the guest sets variables of the same sizes in both variants, so
# not even its heap layout did; guest/hwmask.h). A curve of AB_CHANGED
# truly moved when its effect in every other pair has the same sign and
# their median is at least AB_MOVED_PCT (default 10) % in size; it is
# truly quiet when its effect stays below 3 % in every other pair. A
# curve of AB_CHANGED that is neither (its effect changed sign between
# pairs, or was large in one only) moved with the machine, not with the
# mask: on a host whose speed moves by tens of per cent in spans of
# seconds one other pair cannot tell the two apart, so such curves are
# listed as unsettled and not scored. Prints the share of truly moved
# curves reported changed (goal >= 95 %) and how many truly quiet curves
# were reported (goal: at most 1 %), with each miss and false alarm.
# With DB, only reports on the runs in it (odd: normal, even: --nohw, in
# order). AB_STATE sets --state-dir. Run it as root, alone on the
# machine. Exit status: 0 both goals met, 1 not or a run failed, 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
pairs=${AB_PAIRS:-4}
args=${AB_ARGS:---distros debian:bookworm --quick --libs openssl,libsodium,mbedtls,wolfssl,libtomcrypt,libmcrypt}
moved=${AB_MOVED_PCT:-10}
changed_lib=${AB_CHANGED:-openssl}
case $pairs in ''|*[!0-9]*|0|1|2) echo "$0: AB_PAIRS must be >= 3" >&2; exit 2 ;; esac
[ $# -le 1 ] || { echo "usage: $0 [DB]" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }

if [ $# -eq 1 ]; then
	db=$1
else
	db=$(mktemp -d)/ab.db
	i=0
	while [ $i -lt "$pairs" ]; do
		i=$((i + 1))
		for v in "" --nohw; do
			# shellcheck disable=SC2086
			"$BENCHORCH" run $args $v ${AB_STATE:+--state-dir "$AB_STATE"} \
				--db "$db" >/dev/null 2>"$db.run$i$v.err" || {
				echo "$0: run $i $v failed:" >&2
				tail -3 "$db.run$i$v.err" >&2
				exit 1
			}
			echo "pair $i ${v:-normal} done" >&2
		done
	done
fi
echo "database: $db"
# the runs measured, not the confirmation runs `run` adds after them
ids=$(sqlite3 "$db" "select id from runs where status = 'done' and id not in (select run_id from confirmations) order by started_at, id")
set -- $ids
[ $# -ge 6 ] || { echo "$0: fewer than three pairs of runs in '$db'" >&2; exit 1; }
while [ $# -ge 2 ]; do
	"$BENCHORCH" compare --db "$db" --format json "$1" "$2" >"$db.$1-$2.json" || exit 1
	files="${files:-} $db.$1-$2.json"
	shift 2
done
case ${AB_JUDGE:-last} in
first) ;;
last)	# the last pair's file first
	last=${files##* }
	files="$last ${files% *}" ;;
*)	echo "$0: AB_JUDGE must be first or last" >&2; exit 2 ;;
esac
python3 - "$moved" "$changed_lib" $files <<'PY'
import json, statistics, sys
moved_pct, changed_lib, files = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
def key(c):
    return (c["distro"], c["library"], c["algorithm"], c["operation"], c["mode"])
judged = json.load(open(files[0]))
truth = {}
for f in files[1:]:
    for c in json.load(open(f))["curves"]:
        truth.setdefault(key(c), []).append(c["effect"])
mv = found = quiet = alarms = 0
misses, false, unsettled = [], [], []
for c in judged["curves"]:
    if key(c) not in truth:
        continue
    ts = truth[key(c)]
    t = statistics.median(ts)
    rep = c["state"] in ("changed", "confirmed")
    name = "%s %s %s %s (truth %s, judged %+.1f %%, q %.2g)" % (
        c["library"], c["algorithm"], c["operation"], c["mode"],
        " ".join("%+.1f %%" % (100 * e) for e in ts),
        100 * c["effect"], c["q"])
    same_sign = all(e > 0 for e in ts) or all(e < 0 for e in ts)
    if c["library"] != changed_lib:
        quiet += 1
        alarms += rep
        if rep:
            false.append(name)
    elif same_sign and abs(t) >= moved_pct / 100:
        mv += 1
        found += rep
        if not rep:
            misses.append(name)
    elif all(abs(e) < 0.03 for e in ts):
        quiet += 1
        alarms += rep
        if rep:
            false.append(name)
    else:
        unsettled.append(name + (" reported" if rep else ""))
print("curves judged: %d; truly moved (%s, the same sign in %d other pairs, median >= %g %%): %d; truly quiet (other libraries, or below 3 %% in every other pair): %d; unsettled: %d"
      % (len(judged["curves"]), changed_lib, len(files) - 1, moved_pct, mv, quiet, len(unsettled)))
print("moved curves reported: %d of %d (%.1f %%)" % (found, mv, 100.0 * found / mv if mv else 100))
print("quiet curves reported: %d of %d" % (alarms, quiet))
print("unsettled curves reported: %d of %d" % (sum(u.endswith(" reported") for u in unsettled), len(unsettled)))
for m in misses:
    print("  missed:", m)
for m in false:
    print("  false alarm:", m)
for m in unsettled:
    print("  unsettled:", m)
print("caveats:", "; ".join(judged["caveats"]) or "none")
ok = (found >= 0.95 * mv) and alarms <= 0.01 * quiet
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
