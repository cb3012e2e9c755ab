#!/bin/sh
# t2100-images-archive.sh - `benchorch images import` on hostile and broken
# archives (tests/fixtures/archives, from the project's shared cases: see
# its README.md): each refused with a one-line error, nothing created
# outside the destination, no device node or FIFO created, no image
# registered, no temporary directory left. Then good archives in every
# compression, an absolute symlink kept verbatim, and an import interrupted
# mid-way leaving nothing behind. Needs root (owners are restored).

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
FIX="$top_srcdir/tests/fixtures/archives"
TMP=$(mktemp -d /tmp/t2100-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
STATE="$TMP/state"

# Files the hostile archives try to create outside the destination.
escapes() {
	ls -d /tmp/benchorch-escape-* "$TMP"/benchorch-escape-* \
		"$STATE"/benchorch-escape-* "$STATE"/images/benchorch-escape-* \
		2>/dev/null
}
rm -f /tmp/benchorch-escape-absolute /tmp/benchorch-escape-symlink
links_before=$(stat -c %h /etc/shadow)

for f in dotdot.tar absolute.tar symlink-escape.tar hardlink-escape.tar \
	 device-nodes.tar truncated.tar.gz not-an-archive.tar.xz empty.tar; do
	name=bad-$(echo "$f" | tr -c 'a-z\n' '-')
	"$BENCHORCH" images import --quiet --state-dir "$STATE" "$name" \
		"$FIX/$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	ok $([ $rc -eq 1 ]; echo $?) "$f: refused with exit status 1 (got $rc)"
	ok $([ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	     grep -q "^benchorch: cannot import image '$name': " "$TMP/err";
	     echo $?) "$f: one-line error: $(cat "$TMP/err")"
	ok $([ -z "$(escapes)" ]; echo $?) "$f: nothing created outside the destination"
	ok $([ ! -e "$STATE/images/$name" ] &&
	     ! ls -a "$STATE/images" | grep -q '^\.build-'; echo $?) \
		"$f: no image registered, no temporary directory left"
done
ok $([ "$(stat -c %h /etc/shadow)" = "$links_before" ]; echo $?) \
	"no hard link was made to /etc/shadow"
grep -q "entry 'dev/evil-mem' is a character device" "$TMP/err" 2>/dev/null ||
	"$BENCHORCH" images import --state-dir "$STATE" dn "$FIX/device-nodes.tar" 2>"$TMP/err"
check "device node named in the error" -- \
	grep -q "'dev/evil-mem' is a character device" "$TMP/err"
"$BENCHORCH" images import --state-dir "$STATE" sy "$FIX/symlink-escape.tar" 2>"$TMP/err"
check "symlink escape: refused as a write through a symlink" -- \
	grep -qi "symlink" "$TMP/err"
"$BENCHORCH" images import --state-dir "$STATE" em "$FIX/empty.tar" 2>"$TMP/err"
check "empty archive: not a root filesystem" -- \
	grep -q "no entries, so it is not a root filesystem" "$TMP/err"
out=$("$BENCHORCH" images list --state-dir "$STATE")
check "images list shows no image after the refusals" -- \
	test "$(printf '%s\n' "$out" | wc -l)" -le 1

# A small well-formed root filesystem: absolute symlink, setuid bit,
# numeric owner that exists on no host (4242), an apk database.
R="$TMP/tree"
mkdir -p "$R/etc" "$R/bin" "$R/lib/apk/db" "$R/usr/bin" "$R/home/u"
echo "3.20.3" > "$R/etc/alpine-release"
printf '#!/bin/true\n' > "$R/bin/busybox"
chmod 4755 "$R/bin/busybox"
ln -s /bin/busybox "$R/bin/sh"
ln -s ../../etc/alpine-release "$R/usr/bin/rel"
chown 4242:4343 "$R/home/u"
printf 'C:Q1x=\nP:musl\nV:1.2.5-r0\n\nP:libcrypto3\nV:3.3.2-r0\nA:x86_64\n\n' \
	> "$R/lib/apk/db/installed"
tar -C "$R" --numeric-owner -cf "$TMP/r.tar" .
gzip -c "$TMP/r.tar" > "$TMP/r.tar.gz"
xz -c "$TMP/r.tar" > "$TMP/r.tar.xz"
have_zstd=0
command -v zstd >/dev/null 2>&1 && zstd -q -c "$TMP/r.tar" > "$TMP/r.tar.zst" &&
	have_zstd=1
for ext in tar tar.gz tar.xz tar.zst; do
	if [ "$ext" = tar.zst ] && [ $have_zstd = 0 ]; then
		echo "ok $((tap_n += 1)) # SKIP zstd not installed"
		continue
	fi
	name=fmt-$(echo "$ext" | tr . -)
	"$BENCHORCH" images import --state-dir "$STATE" "$name" "$TMP/r.$ext" \
		>"$TMP/out" 2>"$TMP/err"
	ok $? "import $ext: $(tail -1 "$TMP/err")"
done
RF="$STATE/images/fmt-tar-xz/rootfs"
check "absolute symlink target kept verbatim (bin/sh -> /bin/busybox)" -- \
	test "$(readlink "$RF/bin/sh")" = /bin/busybox
check "relative symlink kept" -- \
	test "$(readlink "$RF/usr/bin/rel")" = ../../etc/alpine-release
check "setuid bit kept" -- test -u "$RF/bin/busybox"
check "numeric owner kept (4242:4343, no name lookup)" -- \
	test "$(stat -c %u:%g "$RF/home/u")" = 4242:4343
d1=$(sed -n 's/.*"digest": "\(.*\)".*/\1/p' "$STATE/images/fmt-tar/image.json")
d2=$(sed -n 's/.*"digest": "\(.*\)".*/\1/p' "$STATE/images/fmt-tar-zst/image.json" 2>/dev/null ||
     sed -n 's/.*"digest": "\(.*\)".*/\1/p' "$STATE/images/fmt-tar-gz/image.json")
check "same tree, same content digest whatever the compression" -- \
	test -n "$d1" -a "$d1" = "$d2"
"$BENCHORCH" images show --state-dir "$STATE" fmt-tar >"$TMP/show" 2>&1
check "show: apk database read, libcrypto3 3.3.2-r0 for openssl" -- \
	grep -q "^openssl  *libcrypto3  *3.3.2-r0" "$TMP/show"
check "show: verification says imported" -- \
	grep -q "^verification: *none (imported local file)" "$TMP/show"
"$BENCHORCH" images import --state-dir "$STATE" fmt-tar "$TMP/r.tar" 2>"$TMP/err"
ok $([ $? -eq 1 ] && grep -q "exists (--refresh replaces it)" "$TMP/err"; echo $?) \
	"importing over an existing image needs --refresh"
"$BENCHORCH" images import --state-dir "$STATE" --refresh fmt-tar "$TMP/r.tar" >/dev/null 2>"$TMP/err"
ok $? "--refresh replaces it"
"$BENCHORCH" images import --state-dir "$STATE" debian "$TMP/r.tar" 2>"$TMP/err"
ok $([ $? -eq 2 ] && grep -q "is a distro with a recipe" "$TMP/err"; echo $?) \
	"an import may not take a distro's name (usage error)"
"$BENCHORCH" images import --state-dir "$STATE" 'Bad/Name' "$TMP/r.tar" 2>"$TMP/err"
ok $([ $? -eq 2 ] && grep -q "invalid image name 'Bad/Name'" "$TMP/err" &&
     [ ! -e "$STATE/images/Bad" ]; echo $?) \
	"an invalid image name is a usage error"
mkdir "$TMP/notroot" && echo x > "$TMP/notroot/file"
tar -C "$TMP/notroot" -cf "$TMP/notroot.tar" .
"$BENCHORCH" images import --state-dir "$STATE" nr "$TMP/notroot.tar" 2>"$TMP/err"
ok $([ $? -eq 1 ] && grep -q "is not a root filesystem" "$TMP/err" &&
     [ ! -e "$STATE/images/nr" ]; echo $?) \
	"an archive without etc/ and usr/ or bin/ is not an image"

# Interrupted import: an archive of 4 GiB of zeros (a few hundred KiB
# compressed, seconds to unpack), so the import is certainly in progress
# when SIGTERM arrives. (An archive must be a regular file: a FIFO whose
# writer stops half-way is refused, t2105.)
if [ $have_zstd = 1 ]; then
	mkdir -p "$TMP/slow/etc" "$TMP/slow/bin"
	truncate -s 4G "$TMP/slow/zeros"
	tar -C "$TMP/slow" -cf - . | zstd -q -1 -c > "$TMP/slow.tar.zst"
	rm -rf "$TMP/slow"
	"$BENCHORCH" images import --state-dir "$STATE" intr \
		"$TMP/slow.tar.zst" >/dev/null 2>"$TMP/err" &
	pid=$!
	i=0
	while [ $i -lt 50 ] && ! ls -a "$STATE/images" | grep -q '^\.build-intr'; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.3
	check "the import was in progress (a .build- directory exists)" -- \
		sh -c "ls -a '$STATE/images' | grep -q '^\.build-intr'"
	kill -TERM $pid
	wait $pid
	rc=$?
	ok $([ $rc -eq 143 ]; echo $?) "interrupted import exits 143 (got $rc)"
	ok $([ ! -e "$STATE/images/intr" ] &&
	     ! ls -a "$STATE/images" | grep -q '^\.build-'; echo $?) \
		"interrupted import leaves nothing registered and nothing behind"
	rm -f "$TMP/slow.tar.zst"
else
	for t in 1 2 3; do
		echo "ok $((tap_n += 1)) # SKIP zstd not installed"
	done
fi
"$BENCHORCH" images remove --state-dir "$STATE" fmt-tar >/dev/null
ok $([ $? -eq 0 ] && [ ! -e "$STATE/images/fmt-tar" ]; echo $?) "images remove"
"$BENCHORCH" images show --state-dir "$STATE" fmt-tar 2>"$TMP/err"
ok $([ $? -eq 2 ] && grep -q "no image 'fmt-tar'" "$TMP/err"; echo $?) \
	"show of a removed image: exit 2, 'no image'"
done_testing
