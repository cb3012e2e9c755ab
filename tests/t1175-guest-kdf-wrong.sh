#!/bin/sh
# t1175-guest-kdf-wrong - the comparison of the timed derivations catches
# a library whose timed scrypt derives a wrong key while its known
# answers pass: a stand-in libsodium.so.23 (tests/fixtures/
# standin-libsodium.c, STANDIN_WRONG_SCRYPT) passes every call through to
# the real one but flips a bit of every 32-byte scrypt key - the timed
# path's length, not RFC 7914's. The guest runs in the cached Debian
# bookworm rootfs (read-only, the stand-in first on the library path)
# with OpenSSL, libsodium and wolfSSL: libsodium's scrypt known answers
# pass, OpenSSL and wolfSSL derive another key, and its kdfresult is not
# verified, while theirs are (two against one). Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
check=$top_builddir/tests/fixtures/guest-check
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"
libdir=usr/lib/x86_64-linux-gnu
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
[ -x "$guest" ] || skip_all "$guest not built"
[ -x "$check" ] || skip_all "$check not built"
require_test_image
real=$(readlink "$rootfs/$libdir/libsodium.so.23") ||
	skip_all "no libsodium.so.23 link in $rootfs/$libdir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lib"
gcc -shared -fPIC -std=c11 -Wall -Wextra -Werror -DSTANDIN_WRONG_SCRYPT \
	-DREAL_LIB="\"/$libdir/$real\"" -Wl,-soname,libsodium.so.23 \
	-o "$tmp/lib/libsodium.so.23" \
	"$top_srcdir/tests/fixtures/standin-libsodium.c" -ldl 2>"$tmp/cc.err"
ok $? "builds the stand-in libsodium.so.23 $(head -1 "$tmp/cc.err")"

systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" \
	--bind-ro="$tmp/lib:/run/fakelib" \
	--setenv=LD_LIBRARY_PATH=/run/fakelib -- /run/benchorch/guest \
	--quick --min-batch-ns 200000 --repetitions 1 \
	--libs openssl,libsodium,wolfssl --algos none --kdf scrypt \
	>"$tmp/out" 2>"$tmp/err"
ok $? "the guest runs OpenSSL, the stand-in and wolfSSL and exits 0"
sed 's/^/# /' "$tmp/err" | head -5
"$check" "$tmp/out" >"$tmp/check" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/check")"

tap_py <<'PY'
objs = load("out")
def of(t, lib):
    return [o for o in objs if o["type"] == t and o.get("library") == lib
            and o.get("algorithm") == "scrypt"]
lib = [o for o in objs if o["type"] == "library" and o["library"] == "libsodium"]
ok(lib and lib[0].get("version") == "1.0.18-standin",
   "the guest loaded the stand-in (%s)" % (lib[0].get("version") if lib else None))
k = of("kat", "libsodium")
ok(len(k) == 2 and all(o["ok"] for o in k),
   "its scrypt known-answer tests pass (%d)" % len(k))
c = of("kdfcheck", "libsodium")
ok(len(c) == 1 and c[0]["rejected_by"] == ["openssl", "wolfssl"]
   and c[0]["confirmed_by"] == [],
   "OpenSSL and wolfSSL derive another key (%s)" % c)
r = of("kdfresult", "libsodium")
ok(len(r) == 1 and not r[0]["verified"],
   "its scrypt result is not verified (%s)" % [o["verified"] for o in r])
for l, other in (("openssl", "wolfssl"), ("wolfssl", "openssl")):
    c = of("kdfcheck", l)
    ok(len(c) == 1 and c[0]["confirmed_by"] == [other]
       and c[0]["rejected_by"] == ["libsodium"],
       "%s: the same key as %s, another than libsodium's (%s)" % (l, other, c))
    r = of("kdfresult", l)
    ok(len(r) == 1 and r[0]["verified"],
       "%s: verified, two against one: the wrong library costs only itself" % l)
PY
done_testing
