#!/bin/sh
# tests/bench/duet-ab.sh - duet A/B with a known truth: does a duet find
# a slowdown of known size in one library, and only there?
#
# usage: tests/bench/duet-ab.sh
#
# Makes copies of the Debian bookworm image (tests/duet-images.sh;
# DUET_IMAGE sets the image copied, default the test suite's cached one)
# with the stand-in libcrypto.so.3 of tests/fixtures/duet-shim.c: the
# base with K = 0 (the wrapper, repeating nothing), and one per K of
# DUET_KS (default "20 10") that repeats every K-th timed call of
# OpenSSL once more. Each stand-in marks openssl's package changed, so
# openssl is the library under test and the others are controls. Then
# DUET_RUNS (default 1) duets of the base against each, `benchorch duet
# BASE NEW --format json --fail-on-regression` with DUET_ARGS (default
# "--quick --libs openssl,libgcrypt,nettle --algos
# aes-128-ctr,aes-128-gcm,sha-256,chacha20"; DUET_SEED, a number, gives
# the duets seeds DUET_SEED + 1, + 2, ...).
#
# The truth (tests/fixtures/duet-shim.c): OpenSSL's bulk curves run at
# K/(K+1) of the base's throughput, an effect of K/(K+1) - 1 = -4.76 % at
# K = 20 and -9.09 % at K = 10, at every size; its oneshot curves and
# every control curve are unchanged (0). Per K it prints, with the
# targets of issue "Side by side" (benchmark "Duet A/B with a known
# truth"):
#  - OpenSSL's bulk curves judged slower (target >= 80 % at K = 20,
#    >= 95 % at K = 10), and their 95 % intervals holding the truth
#    (target >= 90 %);
#  - OpenSSL's oneshot curves judged slower or faster (truth 0: none),
#    and their intervals holding 0;
#  - control curves judged slower or faster (target: none);
#  - curves whose `tested` is not as expected (openssl true, others
#    false): the duet did not take the changed package's library;
#  - the exit status of --fail-on-regression (4: a tested curve slower);
#  - the median minimum detectable effect (mde_median; target <= 4 %);
#  - the time per duet.
# DUET_STATE sets the state directory (default a new one under /tmp,
# removed at the end). Needs gcc (the
# stand-in is built here). Run it as root, alone on the machine (it
# measures). Exit status: 0 every target met, 1 not (or a duet failed),
# 2 usage or no duet command ("benchorch duet: unknown command").

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
ks=${DUET_KS:-20 10}
runs=${DUET_RUNS:-1}
args=${DUET_ARGS:---quick --libs openssl,libgcrypt,nettle --algos aes-128-ctr,aes-128-gcm,sha-256,chacha20}
seed=${DUET_SEED:-}
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
case $runs in ''|*[!0-9]*|0) echo "$0: DUET_RUNS must be >= 1" >&2; exit 2 ;; esac
case $seed in *[!0-9]*) echo "$0: DUET_SEED must be a number" >&2; exit 2 ;; esac
for k in $ks; do
	case $k in ''|*[!0-9]*|0|1) echo "$0: DUET_KS: each K must be >= 2, got '$k'" >&2; exit 2 ;; esac
done
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }
command -v gcc >/dev/null 2>&1 || { echo "$0: needs gcc" >&2; exit 2; }
. "$top_srcdir/tests/duet-images.sh"
duet_have_command "$BENCHORCH" || exit 2
src=$(duet_source_image) || exit 2

if [ -n "${DUET_STATE:-}" ]; then
	state=$DUET_STATE
else
	state=$(mktemp -d /tmp/duet-ab.XXXXXX)
	trap 'rm -rf "$state"' EXIT
	trap 'exit 1' INT TERM
fi
out=$state/duet-ab
mkdir -p "$out"
: >"$out/duets"
for k in 0 $ks; do
	duet_image_copy "$state" "$src" "duet-ab-k$k" &&
		duet_image_shim "$state" "duet-ab-k$k" "$k" || exit 1
done
echo "image: $src, base duet-ab-k0, new $(for k in $ks; do printf 'duet-ab-k%s ' "$k"; done)"
echo "arguments: $args"

i=0
for k in $ks; do
	r=0
	while [ $r -lt "$runs" ]; do
		r=$((r + 1))
		i=$((i + 1))
		start=$(date +%s.%N)
		# shellcheck disable=SC2086
		"$BENCHORCH" duet duet-ab-k0 "duet-ab-k$k" $args \
			${seed:+--seed $((seed + i))} --format json \
			--fail-on-regression --state-dir "$state" \
			>"$out/duet$i.json" \
			2>"$out/duet$i.err"
		rc=$?
		end=$(date +%s.%N)
		echo "$i $k $rc $start $end" >>"$out/duets"
		echo "duet $i (K = $k): exit $rc in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s" >&2
		case $rc in
		0 | 4) ;;
		*) tail -3 "$out/duet$i.err" >&2 ;;
		esac
	done
done

python3 - "$out" <<'PY'
import collections, json, statistics, sys
out = sys.argv[1]
TESTED = "openssl"	# the library whose package the stand-in changes
# the issue's targets: share of the tested library's curves found slower
# per K (K = 20: 80 %, K = 10: 95 %; other K: 80 %), intervals holding
# the truth, the median minimum detectable effect
FOUND = {20: 0.80, 10: 0.95}
COVER, MDE = 0.90, 0.04
rows = [l.split() for l in open(out + "/duets")]
per_k = collections.OrderedDict()
failed = 0
for i, k, rc, start, end in rows:
    k, rc = int(k), int(rc)
    s = per_k.setdefault(k, {"curves": [], "rc": [], "mde": [], "secs": []})
    s["secs"].append(float(end) - float(start))
    try:
        d = json.load(open("%s/duet%s.json" % (out, i)))
        s["curves"] += d["curves"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("duet %s (K = %d): no JSON (exit %d): %s" % (i, k, rc, e))
        failed += 1
        continue
    s["rc"].append(rc)
    if d.get("mde_median") is not None:
        s["mde"].append(d["mde_median"])

def pct(a, b):
    return "%d of %d, %.0f %%" % (a, b, 100.0 * a / b) if b else "none"

ok = not failed
for k, s in per_k.items():
    truth = k / (k + 1.0) - 1
    cs = s["curves"]
    bulk = [c for c in cs if c["library"] == TESTED and c["mode"] == "bulk"]
    one = [c for c in cs if c["library"] == TESTED and c["mode"] != "bulk"]
    ctrl = [c for c in cs if c["library"] != TESTED]
    slower = sum(c["verdict"] == "slower" for c in bulk)
    cover = sum(c["low"] <= truth <= c["high"] for c in bulk)
    one_moved = [c for c in one if c["verdict"] in ("slower", "faster")]
    one_cover = sum(c["low"] <= 0 <= c["high"] for c in one)
    ctrl_moved = [c for c in ctrl if c["verdict"] in ("slower", "faster")]
    mistaken = [c for c in cs if bool(c.get("tested")) != (c["library"] == TESTED)]
    want = FOUND.get(k, 0.80)
    print("K = %d: truth %+.2f %% on %s's bulk curves, 0 elsewhere; %d duet(s)"
          % (k, 100 * truth, TESTED, len(s["secs"])))
    print("  %s bulk curves judged slower: %s (target >= %.0f %%)"
          % (TESTED, pct(slower, len(bulk)), 100 * want))
    print("  their 95 %% intervals holding the truth: %s (target >= %.0f %%)"
          % (pct(cover, len(bulk)), 100 * COVER))
    if bulk:
        print("  their effects: median %+.2f %%, %+.2f .. %+.2f %%" % (
            100 * statistics.median(c["effect"] for c in bulk),
            100 * min(c["effect"] for c in bulk),
            100 * max(c["effect"] for c in bulk)))
    print("  %s oneshot curves judged slower or faster: %s (truth 0: none); "
          "intervals holding 0: %s" % (TESTED, pct(len(one_moved), len(one)),
                                        pct(one_cover, len(one))))
    print("  control curves judged slower or faster: %s (target: none)"
          % pct(len(ctrl_moved), len(ctrl)))
    for c in ctrl_moved + one_moved:
        print("    %s %s %s %s %s %+.2f %% [%+.2f, %+.2f]" % (
            c["library"], c["algorithm"], c["operation"], c["mode"],
            c["verdict"], 100 * c["effect"], 100 * c["low"], 100 * c["high"]))
    if mistaken:
        print("  curves with 'tested' not as expected (%s true, others "
              "false): %d, e.g. %s %s" % (TESTED, len(mistaken),
              mistaken[0]["library"], mistaken[0]["tested"]))
    print("  --fail-on-regression exit statuses: %s (4: a tested curve "
          "slower)" % " ".join(map(str, s["rc"])))
    if s["mde"]:
        print("  median minimum detectable effect: %.2f %% (target <= %.0f %%)"
              % (100 * statistics.median(s["mde"]), 100 * MDE))
    print("  time per duet: median %.1f s, longest %.1f s" % (
        statistics.median(s["secs"]), max(s["secs"])))
    ok = (ok and bulk and slower >= want * len(bulk)
          and cover >= COVER * len(bulk) and not ctrl_moved
          and not one_moved and not mistaken
          and all(rc == 4 for rc in s["rc"])
          and s["mde"] and statistics.median(s["mde"]) <= MDE)
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
