#!/bin/sh
# tests/bench/builds.sh - compilers and flags: one library of Debian
# bookworm rebuilt from its source package with each of
# {gcc, clang} x {-O2, -O3, -O3 -march=native}, and every build measured
# beside the shipped one, side by side (`benchorch run --builds`).
#
# usage: tests/bench/builds.sh
#
# In a copy of the cached image (tests/duet-images.sh; BUILDS_IMAGE sets
# the image copied, default the test suite's), `benchorch rebuild` makes
# the six builds of BUILDS_LIB (default nettle), named gcc-o2, gcc-o3,
# gcc-o3-native, clang-o2, clang-o3, clang-o3-native, and prints each
# build's time. Then one `benchorch run --libs LIB --builds
# shipped,...` (BUILDS_RUN_ARGS adds options, e.g. --quick or --algos)
# measures them taking turns block by block with the shipped library,
# and `benchorch results --builds --format csv` gives, per algorithm
# (bulk encryption and hashing at 16 KiB), each build's throughput as a
# fraction of the shipped library's with its interval.
#
# It prints:
#  - the build times (s) and the run's time;
#  - the table: algorithm by build, "ratio (low..high)", "=" where the
#    interval holds 1 (results --builds);
#  - per build: the median ratio over the algorithms, and how many
#    algorithms it is faster on by 5 % or more with an interval above 1
#    ("matters"), slower likewise, and the same;
#  - an A/A check: gcc -O2 is how Debian builds the library, so gcc-o2
#    should be the same as shipped almost everywhere: the share of its
#    algorithms that are a tie or within 5 % (target >= 90 %).
#
# BUILDS_STATE keeps the state directory (default a new one under /tmp,
# removed at the end). Needs the Debian mirror (apt-get source). Run it
# as root, alone on the machine (it measures). Exit status: 0 the A/A
# check met, 1 not (or a build or the run failed), 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
lib=${BUILDS_LIB:-nettle}
image=${BUILDS_IMAGE:-${TEST_STATE:-/var/cache/benchorch-test}/images/debian-bookworm}
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: run it as root" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }
[ -f "$image/image.json" ] || { echo "$0: no image at $image" >&2; exit 2; }
. "$top_srcdir/tests/duet-images.sh"

if [ -n "${BUILDS_STATE:-}" ]; then
	state=$BUILDS_STATE
	mkdir -p "$state" || exit 2
else
	state=$(mktemp -d /tmp/bench-builds.XXXXXX) || exit 2
	trap 'rm -rf "$state"' EXIT
fi
[ -d "$state/images/bench" ] || duet_image_copy "$state" "$image" bench || exit 1

names=
for cc in gcc clang; do
	for f in "-O2:o2" "-O3:o3" "-O3 -march=native:o3-native"; do
		flags=${f%%:*}
		name=$cc-${f##*:}
		names="$names,$name"
		if [ -d "$state/builds/bench/$name" ]; then
			echo "build $name: kept from before"
			continue
		fi
		t0=$(date +%s)
		"$BENCHORCH" rebuild --state-dir "$state" bench "$lib" \
			--name "$name" --cc "$cc" --cflags "$flags" \
			>/dev/null 2>"$state/rebuild-$name.err" || {
			echo "$0: rebuild $name failed:" >&2
			tail -5 "$state/rebuild-$name.err" >&2
			exit 1
		}
		echo "build $name ($cc $flags): $(( $(date +%s) - t0 )) s"
	done
done

t0=$(date +%s)
# shellcheck disable=SC2086 # BUILDS_RUN_ARGS is a list of options
"$BENCHORCH" run --distros bench --libs "$lib" --builds "shipped$names" \
	--state-dir "$state" --db "$state/results.db" --no-confirm \
	${BUILDS_RUN_ARGS:-} >/dev/null 2>"$state/run.err" || {
	echo "$0: the run failed:" >&2
	tail -5 "$state/run.err" >&2
	exit 1
}
echo "run: $(( $(date +%s) - t0 )) s"
echo
"$BENCHORCH" results --db "$state/results.db" --builds || exit 1
echo
"$BENCHORCH" results --db "$state/results.db" --builds --format csv \
	--size 16K >"$state/builds.csv" || exit 1
python3 - "$state/builds.csv" <<'EOF'
import csv, statistics, sys

rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["mode"] == "bulk" and r["operation"] != "decrypt"]
builds = sorted({r["build"] for r in rows})
print("%-16s %7s %8s %8s %6s" % ("build", "median", "faster", "slower", "same"))
aa = None
for b in builds:
    rs = [r for r in rows if r["build"] == b]
    ratio = [float(r["ratio"]) for r in rs]
    faster = sum(1 for r in rs if float(r["low"]) > 1 and float(r["ratio"]) >= 1.05)
    slower = sum(1 for r in rs if float(r["high"]) < 1 and float(r["ratio"]) <= 0.95)
    same = sum(1 for r in rs if r["tie"] == "1")
    print("%-16s %7.3f %8d %8d %6d   (of %d algorithms; faster/slower: by 5 %% or more, interval clear of 1)"
          % (b, statistics.median(ratio), faster, slower, same, len(rs)))
    if b == "gcc-o2":
        near = sum(1 for r in rs if r["tie"] == "1" or abs(float(r["ratio"]) - 1) < 0.05)
        aa = near / len(rs) if rs else 0
if aa is None:
    print("A/A: no gcc-o2 build measured")
    sys.exit(1)
print("A/A: gcc-o2 (Debian's own flags) the same as shipped or within 5 %%: %.0f %% of algorithms (target >= 90 %%)" % (100 * aa))
sys.exit(0 if aa >= 0.9 else 1)
EOF
