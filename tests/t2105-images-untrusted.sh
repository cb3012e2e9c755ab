#!/bin/sh
# t2105-images-untrusted - what `benchorch images import` takes from an
# archive it does not trust: only the tar family (a zip, a cpio and a bare
# gzip stream are "not a tar archive"), only a regular file named directly
# (a symlink or a FIFO is refused), no more bytes or entries than the
# limits (a small bomb refused, nothing left behind), and of the metadata
# only file capabilities (no trusted.*, user.* or security.selinux xattr,
# no immutable or append-only flag). Needs root.

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
TMP=$(mktemp -d /tmp/t2105-XXXXXX)
# A file left immutable (by a build that applied file flags) could not be
# removed: clear the flags first.
trap 'chattr -R -i -a "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
STATE="$TMP/state"

# nothing_left NAME: no image NAME and no temporary build directory.
nothing_left() {
	[ ! -e "$STATE/images/$1" ] &&
		! ls -a "$STATE/images" 2>/dev/null | grep -q '^\.build-'
}

# refused NAME FILE PATTERN WHAT: the import of FILE as NAME fails with
# exit status 1 and one line matching PATTERN, leaving nothing behind.
refused() {
	"$BENCHORCH" images import --quiet --state-dir "$STATE" "$1" "$2" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	ok $([ $rc -eq 1 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	     grep -q "$3" "$TMP/err" && nothing_left "$1"; echo $?) \
		"$4: refused, nothing left (rc $rc): $(cat "$TMP/err")"
}

# A small root filesystem, as a tar and in other formats.
R="$TMP/tree"
mkdir -p "$R/etc" "$R/bin" "$R/usr/bin"
echo "3.20.3" > "$R/etc/alpine-release"
printf '#!/bin/true\n' > "$R/bin/busybox"
tar -C "$R" -cf "$TMP/r.tar" .
(cd "$R" && zip -qr "$TMP/r.zip" .)
(cd "$R" && find . | python3 -c '
import sys, os, stat
# A cpio in the "newc" format, written by hand (no cpio tool needed).
out = open(sys.argv[1], "wb")
def rec(name, st, data):
    n = name.encode() + b"\0"
    h = b"070701" + b"".join(b"%08X" % v for v in (
        st.st_ino & 0xffffffff, st.st_mode, 0, 0, 1, 0, len(data),
        0, 0, 0, 0, len(n), 0))
    out.write(h + n + b"\0" * ((4 - (110 + len(n)) % 4) % 4))
    out.write(data + b"\0" * ((4 - len(data) % 4) % 4))
for line in sys.stdin:
    p = line.rstrip("\n")
    st = os.lstat(p)
    data = open(p, "rb").read() if stat.S_ISREG(st.st_mode) else b""
    rec(p[2:] or ".", st, data)
rec("TRAILER!!!", os.lstat("."), b"")
' "$TMP/r.cpio")
printf 'just text\n' | gzip -c > "$TMP/text.gz"

"$BENCHORCH" images import --quiet --state-dir "$STATE" good "$TMP/r.tar" \
	>/dev/null 2>"$TMP/err"
ok $? "the same tree as a tar is imported: $(cat "$TMP/err")"
refused zip "$TMP/r.zip" "not a tar archive" "zip"
refused cpio "$TMP/r.cpio" "not a tar archive" "cpio (newc)"
refused gz "$TMP/text.gz" "not a tar archive" "gzip of text"

# A regular file named directly: not through a symlink, not a FIFO.
ln -s r.tar "$TMP/link.tar"
# refused before anything is done, as every input file that cannot be
# read: a usage error (exit 2), its line and the --help hint
"$BENCHORCH" images import --quiet --state-dir "$STATE" link "$TMP/link.tar" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 2 ] && grep -q "^benchorch images: cannot read '$TMP/link.tar': it is a symbolic link (name the file itself)$" "$TMP/err" &&
     nothing_left link; echo $?) \
	"a symlink to a good tar: refused up front, nothing left (rc $rc): $(head -1 "$TMP/err")"
mkfifo "$TMP/fifo"
# A writer that lets a reader which opened the FIFO go on after 3 s (a
# build that waits on it instead of refusing it then fails, not hangs).
timeout 10 sh -c "sleep 3; : > '$TMP/fifo'" 2>/dev/null &
writer=$!
refused fifo "$TMP/fifo" "not a regular file" "a FIFO"
kill $writer 2>/dev/null
wait $writer 2>/dev/null

# Bombs: 64 MiB of zeros in one entry (compressed to about 64 KiB) against
# a limit of 32 MiB, as a plain entry and as a sparse one; 300 entries
# against a limit of 200. The default limits take all three.
B="$TMP/bomb"
mkdir -p "$B/etc" "$B/bin"
head -c 67108864 /dev/zero > "$B/zeros"
tar -C "$B" -cf - . | gzip -c > "$TMP/bomb.tar.gz"
rm "$B/zeros"
truncate -s 64M "$B/sparse"
tar -C "$B" --sparse -cf "$TMP/sparse.tar" .
rm "$B/sparse"
i=0
while [ $i -lt 300 ]; do : > "$B/etc/f$i"; i=$((i + 1)); done
tar -C "$B" -cf "$TMP/many.tar" .
ok $([ "$(stat -c %s "$TMP/bomb.tar.gz")" -lt 1048576 ]; echo $?) \
	"the bomb is small ($(stat -c %s "$TMP/bomb.tar.gz") bytes)"
export BENCHORCH_UNPACK_MAX_BYTES=33554432 BENCHORCH_UNPACK_MAX_ENTRIES=200
refused bomb "$TMP/bomb.tar.gz" "unpacks to more than 33554432 bytes" \
	"64 MiB of zeros over a 32 MiB limit"
refused sparse "$TMP/sparse.tar" "unpacks to more than 33554432 bytes" \
	"a sparse 64 MiB entry over a 32 MiB limit"
refused many "$TMP/many.tar" "more than 200 entries" \
	"300 entries over a limit of 200"
BENCHORCH_UNPACK_MAX_BYTES=12x
refused badlimit "$TMP/r.tar" "invalid BENCHORCH_UNPACK_MAX_BYTES '12x'" \
	"a malformed limit"
unset BENCHORCH_UNPACK_MAX_BYTES BENCHORCH_UNPACK_MAX_ENTRIES
for f in bomb.tar.gz sparse.tar many.tar; do
	n=ok-$(echo "$f" | tr -c 'a-z\n' '-')
	"$BENCHORCH" images import --quiet --state-dir "$STATE" "$n" "$TMP/$f" \
		>/dev/null 2>"$TMP/err"
	ok $? "$f: within the default limits: $(cat "$TMP/err")"
done

# Metadata: pax headers asking for an immutable file, an append-only one,
# trusted.*, user.* and security.selinux xattrs, and a file capability.
python3 - "$TMP/meta.tar" <<'PY'
import io, sys, tarfile
t = tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT)
def add(name, data=b"", pax=None, kind=tarfile.REGTYPE):
    i = tarfile.TarInfo(name)
    i.type = kind
    i.mode = 0o755
    i.size = len(data) if kind == tarfile.REGTYPE else 0
    i.pax_headers = pax or {}
    t.addfile(i, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
add("etc", kind=tarfile.DIRTYPE)
add("bin", kind=tarfile.DIRTYPE)
add("etc/alpine-release", b"3.20.3\n")
add("etc/immutable", b"x\n", {"SCHILY.fflags": "schg"})
add("etc/append", b"x\n", {"SCHILY.fflags": "sappnd"})
add("etc/xattrs", b"x\n", {"SCHILY.xattr.trusted.evil": "1",
                           "SCHILY.xattr.user.evil": "1",
                           "SCHILY.xattr.security.selinux":
                               "system_u:object_r:shadow_t:s0"})
# cap_net_raw+ep: VFS_CAP_REVISION_2, effective, permitted bit 13.
cap = "\x01\x00\x00\x02" + "\x00\x20\x00\x00" + "\x00" * 12
add("bin/ping", b"#!/bin/true\n", {"SCHILY.xattr.security.capability": cap})
t.close()
PY
"$BENCHORCH" images import --quiet --state-dir "$STATE" meta "$TMP/meta.tar" \
	>/dev/null 2>"$TMP/err"
ok $? "the archive with flags and xattrs is imported: $(cat "$TMP/err")"
M="$STATE/images/meta/rootfs"
check "no immutable flag applied" -- \
	sh -c "lsattr -d '$M/etc/immutable' | cut -d' ' -f1 | grep -qv i"
check "no append-only flag applied" -- \
	sh -c "lsattr -d '$M/etc/append' | cut -d' ' -f1 | grep -qv a"
if python3 -c 'import os,sys; os.setxattr(sys.argv[1], "trusted.t", b"1")' \
	"$TMP/r.tar" 2>/dev/null; then
	check "no trusted.* xattr applied" -- python3 -c '
import os, sys
sys.exit(1 if "trusted.evil" in os.listxattr(sys.argv[1]) else 0)' \
		"$M/etc/xattrs"
else
	echo "ok $((tap_n += 1)) # SKIP no trusted.* xattrs on this file system"
fi
check "no user.* or security.selinux xattr applied" -- python3 -c '
import os, sys
names = os.listxattr(sys.argv[1])
sys.exit(1 if "user.evil" in names or "security.selinux" in names else 0)' \
	"$M/etc/xattrs"
check "the file capability is kept (security.capability)" -- python3 -c '
import os, sys
v = os.getxattr(sys.argv[1], "security.capability")
sys.exit(0 if v[:4] == b"\x01\x00\x00\x02" and v[4:8] == b"\x00\x20\x00\x00" else 1)' \
	"$M/bin/ping"
"$BENCHORCH" images remove --state-dir "$STATE" meta >/dev/null 2>"$TMP/err"
ok $([ $? -eq 0 ] && [ ! -e "$STATE/images/meta" ]; echo $?) \
	"the image is removed whole: $(cat "$TMP/err")"
done_testing
