#!/bin/sh
# tests/t1200-guest-musl.sh - the musl flavour of the guest (musl-gcc build
# of the same sources, for Alpine and other musl distributions): dynamic,
# interpreter /lib/ld-musl-x86_64.so.1, needs libc.so only; and it runs
# chroot'ed in a minimal musl rootfs (the loader and nothing else), where
# every library is absent. Prints TAP.

. "${top_srcdir:-.}/tests/lib.sh"

guest=$top_builddir/guest/benchorch-guest-musl
loader=/lib/ld-musl-x86_64.so.1

[ "$(uname -m)" = x86_64 ] || skip_all "the musl guest is checked on x86_64 only"
command -v musl-gcc >/dev/null 2>&1 || skip_all "musl-gcc not installed (Debian musl-tools)"
command -v readelf >/dev/null 2>&1 || skip_all "readelf not installed"
[ -x "$guest" ] || skip_all "$guest not built (configure found no musl-gcc)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t1200.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

readelf -l "$guest" >"$tmp/l" 2>&1
readelf -d "$guest" >"$tmp/d" 2>&1

interp=$(sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p' "$tmp/l")
diag "interpreter: $interp"
[ "$interp" = "$loader" ]
ok $? "ELF interpreter is $loader"

needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' "$tmp/d" | sort | tr '\n' ' ')
diag "NEEDED: $needed"
[ "$needed" = "libc.so " ]
ok $? "DT_NEEDED is libc.so only"

! grep -q 'GLIBC_' "$tmp/d" && ! grep -qi -E 'ssl|crypto|gcrypt|nettle|sodium|mbed' "$tmp/d"
ok $? "no glibc version needs, no crypto library among the dependencies"

# A minimal musl rootfs: the loader (which is musl's libc.so too), etc/
# and usr/; no shell.
if [ "$(id -u)" -ne 0 ] || ! command -v chroot >/dev/null 2>&1; then
	n=$((tap_n + 1))
	echo "ok $n # SKIP running it chroot'ed needs root and chroot"
	tap_n=$n
	done_testing
	exit $?
fi
if [ ! -e "$loader" ]; then
	n=$((tap_n + 1))
	echo "ok $n # SKIP $loader not installed (Debian musl package)"
	tap_n=$n
	done_testing
	exit $?
fi
root=$tmp/root
mkdir -p "$root/lib" "$root/etc" "$root/usr/lib" "$root/run" &&
	cp -L "$loader" "$root$loader" &&
	cp "$guest" "$root/run/guest"
ok $? "minimal musl rootfs in $root"

chroot "$root" /run/guest --quick >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ]
ok $? "the guest exits 0 under chroot (status $rc)"
[ $rc -eq 0 ] || diag "$(cat "$tmp/err")"

head -n 1 "$tmp/out" | grep -q '^{"type":"hello".*"libc":"musl"'
ok $? "hello first, libc musl"

libs=$(grep -c '"type":"library"' "$tmp/out")
absent=$(grep -c '"type":"library".*"status":"absent"' "$tmp/out")
diag "libraries: $libs, absent: $absent"
[ "$libs" -gt 0 ] && [ "$libs" -eq "$absent" ]
ok $? "every library reported absent"

tail -n 1 "$tmp/out" | grep -q '^{"type":"done"'
ok $? "done line last"

done_testing
