#!/bin/sh
# tests/bench/duet-aa.sh - duet A/A: does a duet of two identical images
# call any curve slower or faster?
#
# usage: tests/bench/duet-aa.sh
#
# Makes two copies of the Debian bookworm image (tests/duet-images.sh:
# the same bytes, other names and digests; DUET_IMAGE sets the image
# copied, default the test suite's cached one) in a state directory of
# its own, and runs DUET_RUNS (default 10) duets of them, `benchorch
# duet A B --format json --fail-on-regression` with DUET_ARGS (default
# "--quick --libs openssl,libgcrypt,nettle --algos
# aes-128-ctr,aes-128-gcm,sha-256,chacha20"; DUET_SEED, a number, gives
# duet i the seed DUET_SEED + i), A and B swapped every other duet. No
# byte differs between them: every curve judged slower or faster is a
# false alarm, and so is an exit status 4. Prints per duet the curves,
# their verdicts, the median minimum detectable effect (mde_median), the
# exit status and the seconds it took; then over all duets:
#  - curves judged slower or faster (target: none),
#  - duets whose --fail-on-regression exited other than 0 (target: none),
#  - the median of the duets' mde_median,
#  - the median and the longest time per duet.
# The targets are issue "Side by side"'s (benchmark "Duet A/A").
# DUET_STATE sets the state directory (default a new one under /tmp,
# removed at the end). Run it as root,
# alone on the machine (it measures). Exit status: 0 both targets met,
# 1 not (or a duet failed), 2 usage or no duet command
# ("benchorch duet: unknown command").

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
runs=${DUET_RUNS:-10}
args=${DUET_ARGS:---quick --libs openssl,libgcrypt,nettle --algos aes-128-ctr,aes-128-gcm,sha-256,chacha20}
seed=${DUET_SEED:-}
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
case $runs in ''|*[!0-9]*|0) echo "$0: DUET_RUNS must be >= 1" >&2; exit 2 ;; esac
case $seed in *[!0-9]*) echo "$0: DUET_SEED must be a number" >&2; exit 2 ;; esac
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }
. "$top_srcdir/tests/duet-images.sh"
duet_have_command "$BENCHORCH" || exit 2
src=$(duet_source_image) || exit 2

if [ -n "${DUET_STATE:-}" ]; then
	state=$DUET_STATE
else
	state=$(mktemp -d /tmp/duet-aa.XXXXXX)
	trap 'rm -rf "$state"' EXIT
	trap 'exit 1' INT TERM
fi
out=$state/duet-aa
mkdir -p "$out"
duet_image_copy "$state" "$src" duet-aa-a &&
	duet_image_copy "$state" "$src" duet-aa-b || exit 1
echo "image: $src, copies duet-aa-a and duet-aa-b"
echo "arguments: $args"

i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	if [ $((i % 2)) -eq 1 ]; then
		base=duet-aa-a new=duet-aa-b
	else
		base=duet-aa-b new=duet-aa-a
	fi
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$BENCHORCH" duet "$base" "$new" $args ${seed:+--seed $((seed + i))} \
		--format json --fail-on-regression --state-dir "$state" \
		>"$out/duet$i.json" 2>"$out/duet$i.err"
	rc=$?
	end=$(date +%s.%N)
	echo "$i $base $new $rc $start $end" >>"$out/duets"
	echo "duet $i ($base, $new): exit $rc in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s" >&2
	case $rc in
	0 | 4) ;;
	*) tail -3 "$out/duet$i.err" >&2 ;;
	esac
done

python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
rows = [l.split() for l in open(out + "/duets")]
alarms = failed = bad_exit = 0
curves_total = 0
mdes, times = [], []
print("%4s %-11s %-11s %6s %6s %6s %6s %6s %8s %4s %7s" % (
    "duet", "base", "new", "curves", "slower", "faster", "same", "undec",
    "mde_med", "exit", "seconds"))
for i, base, new, rc, start, end in rows:
    rc, secs = int(rc), float(end) - float(start)
    times.append(secs)
    try:
        d = json.load(open("%s/duet%s.json" % (out, i)))
        cs = d["curves"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("%4s %-11s %-11s  no JSON (exit %d): %s" % (i, base, new, rc, e))
        failed += 1
        continue
    n = {v: sum(c["verdict"] == v for c in cs)
         for v in ("slower", "faster", "same", "undecided")}
    alarms += n["slower"] + n["faster"]
    bad_exit += rc != 0
    curves_total += len(cs)
    if d.get("mde_median") is not None:
        mdes.append(d["mde_median"])
    print("%4s %-11s %-11s %6d %6d %6d %6d %6d %7.2f%% %4d %7.1f" % (
        i, base, new, len(cs), n["slower"], n["faster"], n["same"],
        n["undecided"], 100 * (d.get("mde_median") or float("nan")), rc,
        secs))
    for c in cs:
        if c["verdict"] in ("slower", "faster"):
            print("     false alarm: %s %s %s %s %s %+.2f%% [%+.2f%%, %+.2f%%] "
                  "(%d rounds)" % (c["library"], c["algorithm"],
                  c["operation"], c["mode"], c["verdict"], 100 * c["effect"],
                  100 * c["low"], 100 * c["high"], c["rounds"]))
ok = not failed and alarms == 0 and bad_exit == 0
print("curves judged slower or faster: %d of %d over %d duets (target: none)"
      % (alarms, curves_total, len(rows) - failed))
print("--fail-on-regression exited other than 0 in %d of %d duets "
      "(target: none)" % (bad_exit, len(rows) - failed))
if failed:
    print("duets without a JSON answer: %d" % failed)
if mdes:
    print("median minimum detectable effect: %.2f %% (median of the duets' "
          "mde_median; %.2f .. %.2f %%)" % (100 * statistics.median(mdes),
          100 * min(mdes), 100 * max(mdes)))
print("time per duet: median %.1f s, longest %.1f s" % (
    statistics.median(times), max(times)))
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
