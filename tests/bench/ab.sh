#!/bin/sh
# tests/bench/ab.sh - A/B: is a real, known change in one library found,
# and do the other curves stay quiet?
#
# usage: tests/bench/ab.sh [DB]
#
# The change: --nohw masks hardware acceleration in the libraries that
# have a runtime switch (guest/main.c, mask_hw: OpenSSL's AES-NI and
# PCLMULQDQ bits, Nettle, GnuTLS, Botan 3, libgcrypt). AB_ARGS (default
# "--distros debian:bookworm --quick --libs
# openssl,libsodium,mbedtls,wolfssl,libtomcrypt,libmcrypt") measures
# OpenSSL beside libraries that have no such switch, so the only code
# that changes is OpenSSL's AES and GHASH paths: its AES curves move,
# its SHA and ChaCha20 curves and every other library's must not.
#
# Runs AB_PAIRS (default 2) pairs of runs: a normal run, then a --nohw
# run. Pair 1 is judged (compare run 1 against run 2). The truth: every
# curve of a library other than AB_CHANGED (default openssl) is quiet by
# design (its code did not change); a curve of AB_CHANGED "truly moved"
# when its effect in the other pairs (median), measured apart from the
# pair judged, is at least AB_MOVED_PCT (default 10) % in size, and is
# quiet when below 3 %. Prints the
# share of truly moved curves reported changed (goal >= 95 %) and how many
# truly quiet curves were reported (goal: none), with each miss and false
# alarm. With DB, only reports on the runs in it (odd: normal, even:
# --nohw, in order). AB_STATE sets --state-dir. Run it as root, alone on
# the machine. Exit status: 0 both goals met, 1 not or a run failed, 2
# usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
pairs=${AB_PAIRS:-2}
args=${AB_ARGS:---distros debian:bookworm --quick --libs openssl,libsodium,mbedtls,wolfssl,libtomcrypt,libmcrypt}
moved=${AB_MOVED_PCT:-10}
changed_lib=${AB_CHANGED:-openssl}
case $pairs in ''|*[!0-9]*|0|1) echo "$0: AB_PAIRS must be >= 2" >&2; exit 2 ;; esac
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
[ $# -ge 4 ] || { echo "$0: fewer than two pairs of runs in '$db'" >&2; exit 1; }
while [ $# -ge 2 ]; do
	"$BENCHORCH" compare --db "$db" --format json "$1" "$2" >"$db.$1-$2.json" || exit 1
	files="${files:-} $db.$1-$2.json"
	shift 2
done
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
misses, false = [], []
for c in judged["curves"]:
    if key(c) not in truth:
        continue
    t = statistics.median(truth[key(c)])
    rep = c["state"] in ("changed", "confirmed")
    name = "%s %s %s %s (truth %+.1f %%, judged %+.1f %%, q %.2g)" % (
        c["library"], c["algorithm"], c["operation"], c["mode"], 100 * t,
        100 * c["effect"], c["q"])
    if c["library"] != changed_lib:
        quiet += 1
        alarms += rep
        if rep:
            false.append(name)
    elif abs(t) >= moved_pct / 100:
        mv += 1
        found += rep
        if not rep:
            misses.append(name)
    elif abs(t) < 0.03:
        quiet += 1
        alarms += rep
        if rep:
            false.append(name)
print("curves judged: %d; truly moved (%s, >= %g %%): %d; truly quiet (other libraries, or below 3 %%): %d"
      % (len(judged["curves"]), changed_lib, moved_pct, mv, quiet))
print("moved curves reported: %d of %d (%.1f %%)" % (found, mv, 100.0 * found / mv if mv else 100))
print("quiet curves reported: %d of %d" % (alarms, quiet))
for m in misses:
    print("  missed:", m)
for m in false:
    print("  false alarm:", m)
print("caveats:", "; ".join(judged["caveats"]) or "none")
ok = (found >= 0.95 * mv) and alarms <= 0.01 * quiet
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
