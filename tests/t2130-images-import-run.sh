#!/bin/sh
# t2130-images-import-run.sh - the real Debian rootfs exported to tar.xz,
# imported back with `benchorch images import` and run by name with
# `benchorch run --distros NAME` (its release read from the rootfs's
# os-release); `images build` of a cached image does not
# rebuild. Needs root, debootstrap and the cached (or buildable) Debian
# image in $BENCHORCH_TEST_STATE (default /var/cache/benchorch-test).

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

require_root_tools
command -v xz >/dev/null 2>&1 || skip_all "needs xz"
IMG="$TEST_STATE/images/debian-bookworm"
if [ ! -f "$IMG/image.json" ]; then
	getent hosts deb.debian.org >/dev/null 2>&1 ||
		skip_all "no cached debian image and no network"
fi
TMP=$(mktemp -d /tmp/t2130-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
S="$TMP/state"
field() { sed -n "s/.*\"$2\": \"\(.*\)\".*/\1/p" "$1/image.json"; }

"$BENCHORCH" images build --state-dir "$TEST_STATE" debian:bookworm \
	>"$TMP/out" 2>"$TMP/err"
ok $? "images build debian:bookworm (cached or built): $(tail -1 "$TMP/err")"
created=$(field "$IMG" created_at)
t0=$(date +%s%N)
"$BENCHORCH" images build --state-dir "$TEST_STATE" debian:bookworm \
	>"$TMP/out2" 2>"$TMP/err"
rc=$?
t1=$(date +%s%N)
ok $([ $rc -eq 0 ] && [ "$(field "$IMG" created_at)" = "$created" ] &&
     cmp -s "$TMP/out" "$TMP/out2"; echo $?) \
	"a second images build exits 0 (got $rc) and does not rebuild ($(( (t1 - t0) / 1000000 )) ms)"
"$BENCHORCH" images list --state-dir "$TEST_STATE" --format csv > "$TMP/list"
check "images list --format csv names debian-bookworm" -- \
	grep -q '^debian-bookworm,debian,bookworm,' "$TMP/list"
"$BENCHORCH" images list --state-dir "$TEST_STATE" > "$TMP/table"
check "the table cuts the digest to 12 hex digits, csv gives it whole" -- \
	sh -c "grep -q '^debian-bookworm .* $(field "$IMG" digest | cut -c1-19)  ' '$TMP/table' &&
		! grep -q '$(field "$IMG" digest)' '$TMP/table' &&
		grep -q '$(field "$IMG" digest)' '$TMP/list'"

# Export (cached per image digest: xz over ~150 MB takes a while). /dev is
# left out: device nodes refuse an archive (see images/archive.c).
digest=$(field "$IMG" digest)
EXP="$TEST_STATE/export-debian-bookworm-$(echo "$digest" | cut -c8-23).tar.xz"
if [ ! -s "$EXP" ]; then
	rm -f "$TEST_STATE"/export-debian-bookworm-*.tar.xz
	tar -C "$IMG/rootfs" --numeric-owner --xattrs --exclude='./dev/*' -cf - . |
		xz -T0 -0 > "$EXP.tmp" && mv "$EXP.tmp" "$EXP"
fi
check "exported the Debian rootfs to tar.xz" -- test -s "$EXP"
t0=$(date +%s%N)
"$BENCHORCH" images import --state-dir "$S" debexport "$EXP" >"$TMP/out" 2>"$TMP/err"
rc=$?
t1=$(date +%s%N)
ok $rc "images import debexport ($(( (t1 - t0) / 1000000 )) ms): $(tail -1 "$TMP/err")"
"$BENCHORCH" images show --state-dir "$S" debexport > "$TMP/show"
ver=$(sed -n 's/.*"libssl3": "\(.*\)".*/\1/p' "$IMG/image.json")
check "show: openssl is libssl3 $ver, as in the original image" -- \
	grep -q "^openssl  *libssl3  *$ver\$" "$TMP/show"
check "show: the release is the one the rootfs's os-release names" -- \
	grep -q '^release: *bookworm$' "$TMP/show"
check "show: method import, dpkg database, size and digest" -- sh -c \
	"grep -q '^method: *import' '$TMP/show' && grep -q '^packages: .*(dpkg)' '$TMP/show' &&
	 grep -q '^size: *[0-9]* bytes' '$TMP/show' && grep -q '^digest: *sha256:' '$TMP/show'"
"$BENCHORCH" run --distros debexport --quick --state-dir "$S" --db "$TMP/r.db" \
	>"$TMP/run" 2>"$TMP/err"
ok $? "run --distros debexport: $(tail -1 "$TMP/err")"
n=$(sqlite3 "$TMP/r.db" "select count(*) from results r join invocations i on i.id = r.invocation_id join images m on m.id = i.image_id where m.distro = 'debexport'")
ok $([ "${n:-0}" -gt 0 ]; echo $?) "results stored for the imported image ($n)"
"$BENCHORCH" run --distros nosuchimage --quick --state-dir "$S" --db "$TMP/r.db" \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 2 ] && grep -q "unknown distro 'nosuchimage'" "$TMP/err"; echo $?) \
	"run: an unknown name is still a usage error"
done_testing
