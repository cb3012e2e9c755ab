#!/bin/sh
# t1145-guest-pubkey-wrong - the cross-check of the public-key algorithms
# catches a library whose timed path signs wrong while its known answers
# pass: a stand-in libsodium.so.23 (tests/fixtures/standin-libsodium.c,
# STANDIN_WRONG_SIGNATURE) passes every call through to the real one but
# flips a bit of every signature of a 64-byte message - the timed path's
# message length, not RFC 8032's. The guest runs in the cached Debian
# bookworm rootfs (read-only, the stand-in first on the library path)
# with OpenSSL and libsodium: libsodium's Ed25519 known answers pass, its
# signature is rejected by OpenSSL and every Ed25519 pkresult of it is
# not verified, while its X25519 and OpenSSL's Ed25519 (confirmed by the
# stand-in's own, untouched, verification) stay verified. Then the same
# for ECDSA P-256 with a stand-in libhogweed.so.6
# (tests/fixtures/standin-hogweed.c), whose ecdsa_sign signs a digest
# with a bit flipped but for RFC 6979's "sample": Nettle's ECDSA known
# answer passes, OpenSSL rejects its timed signature, its ECDSA results
# are not verified, and its ECDH and OpenSSL's ECDSA stay verified.
# Then RSA (PKCS #1 v1.5 and PSS) with the same stand-in, whose RSA
# signing is right the first time (the known-answer test's) and wrong
# after: Nettle's known answers pass, OpenSSL rejects its timed
# signatures, its RSA results are not verified, OpenSSL's stay verified.
# Prints TAP.
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
gcc -shared -fPIC -std=c11 -Wall -Wextra -Werror -DSTANDIN_WRONG_SIGNATURE \
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
	--libs openssl,libsodium --algos none --pubkey all \
	>"$tmp/out" 2>"$tmp/err"
ok $? "the guest runs OpenSSL and the stand-in and exits 0"
sed 's/^/# /' "$tmp/err" | head -5
"$check" "$tmp/out" >"$tmp/check" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/check")"

tap_py <<'PY'
objs = load("out")
def of(t, lib, alg):
    return [o for o in objs if o["type"] == t and o.get("library") == lib
            and o.get("algorithm") == alg]
lib = [o for o in objs if o["type"] == "library" and o["library"] == "libsodium"]
ok(lib and lib[0].get("version") == "1.0.18-standin",
   "the guest loaded the stand-in (%s)" % (lib[0].get("version") if lib else None))
k = of("kat", "libsodium", "ed25519")
ok(len(k) == 3 and all(o["ok"] for o in k),
   "its Ed25519 known-answer tests pass (%d)" % len(k))
c = of("pkcheck", "libsodium", "ed25519")
ok(len(c) == 1 and c[0]["rejected_by"] == ["openssl"] and c[0]["confirmed_by"] == [],
   "OpenSSL rejects its timed signature (%s)" % c)
r = of("pkresult", "libsodium", "ed25519")
ok(len(r) == 3 and not any(o["verified"] for o in r),
   "none of its Ed25519 results is verified (%s)"
   % [(o["operation"], o["verified"]) for o in r])
for l, a in (("libsodium", "x25519"), ("openssl", "ed25519"), ("openssl", "x25519")):
    c = of("pkcheck", l, a)
    r = of("pkresult", l, a)
    ok(len(c) == 1 and c[0]["rejected_by"] == [] and len(c[0]["confirmed_by"]) == 1
       and r and all(o["verified"] for o in r),
       "%s %s stays verified (%d results, %s)" % (l, a, len(r), c))
PY

hog=$(readlink "$rootfs/$libdir/libhogweed.so.6")
ok $? "the rootfs has a libhogweed.so.6 link ($hog)"
mkdir "$tmp/hog"
gcc -shared -fPIC -std=c11 -Wall -Wextra -Werror \
	-DREAL_LIB="\"/$libdir/$hog\"" -Wl,-soname,libhogweed.so.6 \
	-o "$tmp/hog/libhogweed.so.6" \
	"$top_srcdir/tests/fixtures/standin-hogweed.c" -ldl 2>"$tmp/cc2.err"
ok $? "builds the stand-in libhogweed.so.6 $(head -1 "$tmp/cc2.err")"

systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" \
	--bind-ro="$tmp/hog:/run/fakelib" \
	--setenv=LD_LIBRARY_PATH=/run/fakelib -- /run/benchorch/guest \
	--quick --min-batch-ns 200000 --repetitions 1 \
	--libs openssl,nettle --algos none --pubkey ecdh-p256,ecdsa-p256 \
	>"$tmp/out2" 2>"$tmp/err2"
ok $? "the guest runs OpenSSL and Nettle with the stand-in and exits 0"
grep -q '^standin-hogweed loaded$' "$tmp/err2"
ok $? "the guest loaded the stand-in libhogweed"
"$check" "$tmp/out2" >"$tmp/check2" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/check2")"

tap_py <<'PY'
objs = load("out2")
def of(t, lib, alg):
    return [o for o in objs if o["type"] == t and o.get("library") == lib
            and o.get("algorithm") == alg]
k = of("kat", "nettle", "ecdsa-p256")
ok(len(k) == 1 and k[0]["ok"], "Nettle's ECDSA known-answer test passes (%s)" % k)
c = of("pkcheck", "nettle", "ecdsa-p256")
ok(len(c) == 1 and c[0]["rejected_by"] == ["openssl"] and c[0]["confirmed_by"] == [],
   "OpenSSL rejects its timed ECDSA signature (%s)" % c)
r = of("pkresult", "nettle", "ecdsa-p256")
ok(len(r) == 3 and not any(o["verified"] for o in r),
   "none of its ECDSA results is verified (%s)"
   % [(o["operation"], o["verified"]) for o in r])
for l, a in (("nettle", "ecdh-p256"), ("openssl", "ecdsa-p256"), ("openssl", "ecdh-p256")):
    c = of("pkcheck", l, a)
    r = of("pkresult", l, a)
    ok(len(c) == 1 and c[0]["rejected_by"] == [] and len(c[0]["confirmed_by"]) == 1
       and r and all(o["verified"] for o in r),
       "%s %s stays verified (%d results, %s)" % (l, a, len(r), c))
PY

systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" \
	--bind-ro="$tmp/hog:/run/fakelib" \
	--setenv=LD_LIBRARY_PATH=/run/fakelib -- /run/benchorch/guest \
	--quick --min-batch-ns 200000 --repetitions 1 \
	--libs openssl,nettle --algos none --pubkey rsa-2048,rsa-pss-2048 \
	>"$tmp/out3" 2>"$tmp/err3"
ok $? "the guest runs OpenSSL and Nettle's RSA with the stand-in and exits 0"
grep -q '^standin-hogweed loaded$' "$tmp/err3"
ok $? "the guest loaded the stand-in libhogweed"
"$check" "$tmp/out3" >"$tmp/check3" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/check3")"

tap_py <<'PY'
objs = load("out3")
def of(t, lib, alg):
    return [o for o in objs if o["type"] == t and o.get("library") == lib
            and o.get("algorithm") == alg]
for a in ("rsa-2048", "rsa-pss-2048"):
    nops = 4 if a == "rsa-2048" else 3	# rsa-2048 has keygen too
    k = of("kat", "nettle", a)
    ok(len(k) == 1 and k[0]["ok"], "Nettle's %s known-answer test passes (%s)" % (a, k))
    c = of("pkcheck", "nettle", a)
    ok(len(c) == 1 and c[0]["rejected_by"] == ["openssl"] and c[0]["confirmed_by"] == [],
       "OpenSSL rejects its timed %s signature (%s)" % (a, c))
    r = of("pkresult", "nettle", a)
    ok(len(r) == nops and not any(o["verified"] for o in r),
       "none of its %s results is verified (%s)"
       % (a, [(o["operation"], o["verified"]) for o in r]))
    c = of("pkcheck", "openssl", a)
    r = of("pkresult", "openssl", a)
    ok(len(c) == 1 and c[0]["rejected_by"] == [] and c[0]["confirmed_by"] == ["nettle"]
       and len(r) == nops and all(o["verified"] for o in r),
       "openssl %s stays verified (%d results, %s)" % (a, len(r), c))
PY
done_testing
