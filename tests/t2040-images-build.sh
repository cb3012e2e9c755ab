#!/bin/sh
# t2040-images-build.sh - build debian:bookworm for real with image_ensure()
# (through tests/t2040-images-build-cli), check the cache, an interrupted
# build and a failing one. Needs root and the network (or a mirror); skips
# otherwise.
#
# BENCHORCH_TEST_STATE  state dir shared by the integration tests, so the
#                       rootfs is built once and cached across runs
#                       (default /var/cache/benchorch-test)
# BENCHORCH_TEST_MIRROR mirror to build from (default: the tool's own)

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
CLI="$top_builddir/tests/t2040-images-build-cli"
STATE="${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}"
MIRROR="${BENCHORCH_TEST_MIRROR:-}"

skip() { echo "1..0 # SKIP $*"; exit 0; }

[ -z "${BENCHORCH_DISTCHECK-}" ] ||
	skip "inside make distcheck: needs root, a network and the cached test image"
[ "$(id -u)" = 0 ] || skip "needs root"
PATH="$PATH:/usr/sbin:/sbin"
command -v debootstrap >/dev/null 2>&1 ||
	command -v mmdebstrap >/dev/null 2>&1 ||
	skip "debootstrap not installed"
[ -x "$CLI" ] || { echo "1..1"; echo "not ok 1 - $CLI not built"; exit 0; }
if [ ! -f "$STATE/images/debian-bookworm/image.json" ]; then
	host=deb.debian.org
	[ -n "$MIRROR" ] && host=$(echo "$MIRROR" | sed 's|^[a-z]*://||; s|[:/].*||')
	getent hosts "$host" >/dev/null 2>&1 || skip "no network (cannot resolve $host)"
fi

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
diag() { echo "# $*"; }
now() { date +%s.%N; }
elapsed() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }
no_build_dirs() { ! ls -a "$1/images" 2>/dev/null | grep -q '^\.build-'; }
not_mounted() { ! grep -q -F "$1" /proc/self/mountinfo; }
# No process at all (in any mount namespace) sees a mount below $1 or runs
# with $1 on its command line.
nothing_left() {
	for f in /proc/[0-9]*/mountinfo; do
		grep -q -F "$1" "$f" 2>/dev/null && return 1
	done
	for f in /proc/[0-9]*/cmdline; do
		[ "$f" = "/proc/$$/cmdline" ] && continue
		{ tr '\0' ' ' < "$f"; } 2>/dev/null | grep -q -F "$1" && return 1
	done
	return 0
}

MOPT=
[ -n "$MIRROR" ] && MOPT="--mirror=$MIRROR"
TMP=$(mktemp -d /tmp/t2040-images-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# 1. Build (or find in the cache) debian:bookworm.
t0=$(now)
"$CLI" "$STATE" "$top_srcdir" debian:bookworm $MOPT > "$TMP/out1" 2> "$TMP/err1"
rc=$?
diag "first image_ensure: $(elapsed "$t0") s"
sed 's/^/# /' "$TMP/err1"
if [ $rc -ne 0 ]; then
	notok "image_ensure debian:bookworm: $(tail -1 "$TMP/err1")"
	echo "1..$n"
	exit 0
fi
ok "image_ensure debian:bookworm"
IDIR="$STATE/images/debian-bookworm"
ROOTFS="$IDIR/rootfs"
check "image.json and a rootfs with a shell and dpkg" \
	test -f "$IDIR/image.json" -a -x "$ROOTFS/bin/sh" -a -f "$ROOTFS/var/lib/dpkg/status"
check "digest recorded as sha256:<hex>" \
	grep -q '^digest=sha256:[0-9a-f]\{64\}$' "$TMP/out1"
check "openssl maps to libssl3 with a version" \
	grep -q '^lib.openssl=libssl3 3\.' "$TMP/out1"
check "all ten libraries are installed" \
	test "$(grep -c '^lib\.' "$TMP/out1")" -eq 10
check "libcrypto.so.3 is in the rootfs" \
	test -n "$(find "$ROOTFS/usr/lib" -name 'libcrypto.so.3' | head -1)"
grep '^method=' "$TMP/out1" | sed 's/^/# /'

# 2. Cached: nothing is rebuilt.
mtime1=$(stat -c %Y "$IDIR/image.json")
t0=$(now)
"$CLI" "$STATE" "$top_srcdir" debian:bookworm $MOPT > "$TMP/out2" 2> "$TMP/err2"
rc=$?
secs=$(elapsed "$t0")
check "second image_ensure succeeds" test $rc -eq 0
check "second call does not rebuild (created_at, mtime, no progress)" \
	sh -c "test \"\$(grep created_at '$TMP/out1')\" = \"\$(grep created_at '$TMP/out2')\" &&
	       test $mtime1 -eq \$(stat -c %Y '$IDIR/image.json') &&
	       ! grep -q building '$TMP/err2'"
check "second call is fast ($secs s)" awk "BEGIN { exit !($secs < 5) }"
check "no .build-* directory in the cache" no_build_dirs "$STATE"
check "nothing mounted below the cache" not_mounted "$STATE"

# 3. Interrupted build in a fresh state dir: leftovers of a killed build
# are removed, SIGINT stops the tool, nothing stays behind. This one uses
# plain debootstrap (a copy of the recipe naming only that method), so
# both tools are exercised when the cache above was built with mmdebstrap.
IST="$TMP/state"
DATA3="$TMP/data"
mkdir -p "$IST/images/.build-debian-bookworm-killed/rootfs/etc" "$DATA3/images"
if command -v debootstrap >/dev/null 2>&1; then
	sed 's/^\( *"method": \).*/\1"debootstrap",/' \
		"$top_srcdir/images/debian.json" > "$DATA3/images/debian.json"
else
	cp "$top_srcdir/images/debian.json" "$DATA3/images/debian.json"
fi
"$CLI" "$IST" "$DATA3" debian:bookworm $MOPT > "$TMP/out3" 2> "$TMP/err3" &
pid=$!
seen=0
i=0
while [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
	# Wait until the tool has something mounted in its namespace.
	for f in /proc/[0-9]*/mountinfo; do
		if grep -q -F "$IST/images/.build-" "$f" 2>/dev/null; then
			seen=1
			break
		fi
	done
	[ $seen = 1 ] && break
	sleep 0.2
	i=$((i + 1))
done
check "leftover .build-* of a killed build was removed" \
	test ! -e "$IST/images/.build-debian-bookworm-killed"
if [ $seen = 1 ]; then
	ok "the builder mounted file systems in its own namespace"
else
	notok "the builder never had a mount (gave up after $((i / 5)) s)"
fi
check "those mounts are not visible here" not_mounted "$IST"
kill -INT $pid
wait $pid
rc=$?
sed 's/^/# /' "$TMP/err3"
check "interrupted build exits with status 1 (got $rc)" test $rc -eq 1
check "interrupted build reports it" \
	grep -q "cannot build image 'debian:bookworm': interrupted" "$TMP/err3"
check "interrupted build leaves no .build-* directory" no_build_dirs "$IST"
check "interrupted build leaves no image" test ! -e "$IST/images/debian-bookworm"
sleep 1
check "no process and no mount left referring to the build" nothing_left "$IST"

# 4. A failing build: the tool's own reason is in the message.
FST="$TMP/fstate"
"$CLI" "$FST" "$top_srcdir" debian:bookworm --mirror=http://127.0.0.1:9/debian \
	> "$TMP/out4" 2> "$TMP/err4"
rc=$?
sed 's/^/# /' "$TMP/err4"
check "failing build exits with status 1" test $rc -eq 1
check "failing build: message names the image, the tool's status and its error" \
	grep -q "error: cannot build image 'debian:bookworm': [a-z]* exited with status [0-9]*: E: .*127.0.0.1:9" "$TMP/err4"
check "failing build leaves no .build-* directory" no_build_dirs "$FST"

echo "1..$n"
