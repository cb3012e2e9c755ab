#!/bin/sh
# image-build.sh - benchmarks for images/ (issue #4), as root:
#
# 1. Image build time against plain debootstrap with the same package set,
#    in the same session, same mirror: `benchorch images build
#    debian:bookworm --refresh` with the recipe restricted to debootstrap
#    (same tool: the ratio is benchorch's own overhead: lock, digest,
#    package list, rename), and with the default recipe (mmdebstrap first).
#    Target: ratio <= 1.05 for the debootstrap pair.
# 2. Guest start on a cached image: time from `benchorch run` being exec'ed
#    to the guest's first write on stdout, from strace -f -ttt timestamps
#    (execve of benchorch, first write(1, ...) by the process that exec'ed
#    the guest). Target <= 0.2 s. Also the run's stored wall_ns - measure_ns.
#
# Usage: tests/bench/image-build.sh [BUILDDIR]   (BENCHORCH_GUEST may name
# the guest binary; BENCHORCH_BENCH_MIRROR a mirror).
set -e
BUILD=${1:-.}
BENCHORCH=${BENCHORCH:-$BUILD/benchorch}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
MIRROR=${BENCHORCH_BENCH_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 1; }
TMP=$(mktemp -d /var/tmp/image-bench-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
now() { date +%s.%N; }
secs() { echo "$2 $1" | awk '{ printf "%.2f", $1 - $2 }'; }

PKGS=$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1]))["releases"]["bookworm"]["packages"]))' \
	"$SRC/images/debian.json")
mkdir -p "$TMP/data/images"
sed 's/"method": \[[^]]*\]/"method": ["debootstrap"]/' "$SRC/images/debian.json" \
	> "$TMP/data/images/debian.json"

t=$(now)
debootstrap --variant=minbase --components=main --include="$PKGS" bookworm \
	"$TMP/plain" "$MIRROR" > "$TMP/plain.log" 2>&1
plain=$(secs "$t" "$(now)")
rm -rf "$TMP/plain"

t=$(now)
BENCHORCH_DATA_DIR="$TMP/data" "$BENCHORCH" images build --state-dir "$TMP/s1" \
	--mirror "$MIRROR" debian:bookworm > /dev/null
bo_deb=$(secs "$t" "$(now)")

t=$(now)
"$BENCHORCH" images build --state-dir "$TMP/s2" --mirror "$MIRROR" \
	debian:bookworm > /dev/null
bo_def=$(secs "$t" "$(now)")
method=$(sed -n 's/.*"method": "\(.*\)".*/\1/p' "$TMP/s2/images/debian-bookworm/image.json")

t=$(now)
"$BENCHORCH" images build --state-dir "$TMP/s2" debian:bookworm > /dev/null
cached=$(secs "$t" "$(now)")

echo "plain debootstrap (same packages):      $plain s"
echo "benchorch images build (debootstrap):   $bo_deb s  ratio $(echo "$bo_deb $plain" | awk '{ printf "%.3f", $1 / $2 }')"
echo "benchorch images build (default: $method): $bo_def s  ratio $(echo "$bo_def $plain" | awk '{ printf "%.3f", $1 / $2 }')"
echo "benchorch images build, cached:         $cached s"

# Guest start on the cached image (first run warms the page cache).
"$BENCHORCH" run --distros debian --quick --state-dir "$TMP/s2" --db "$TMP/r.db" \
	> /dev/null 2>&1 || true
strace -f -ttt -e trace=execve,write -o "$TMP/strace" \
	"$BENCHORCH" run --distros debian --quick --state-dir "$TMP/s2" \
	--db "$TMP/r.db" > /dev/null 2>&1 || true
awk '
	/execve\(/ && t0 == "" { t0 = $2 }
	/execve\(".*guest/ && / = 0$/ { gpid[$1] = 1 }
	/write\(1, / && ($1 in gpid) && t1 == "" { t1 = $2 }
	END { if (t0 != "" && t1 != "") printf "guest first output after %.3f s (strace -f; strace slows every syscall)\n", t1 - t0;
	      else print "guest first output: not found in strace log" }
' "$TMP/strace"
t=$(now)
"$BENCHORCH" run --distros debian --quick --state-dir "$TMP/s2" --db "$TMP/r.db" \
	> /dev/null 2>&1 || true
echo "whole second run (quick, no strace):    $(secs "$t" "$(now)") s"
sqlite3 "$TMP/r.db" "select printf('last invocation: wall %.3f s, guest measuring %.3f s, outside the guest''s timed part %.3f s', wall_ns/1e9, measure_ns/1e9, (wall_ns-measure_ns)/1e9) from invocations order by id desc limit 1"
