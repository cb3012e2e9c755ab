#!/bin/sh
# t1170-guest-kdf - the key derivation functions (--kdf) in the real
# Debian bookworm rootfs, under systemd-nspawn: every library whose
# backend has PBKDF2-HMAC-SHA256 (OpenSSL, libgcrypt, Nettle, Mbed TLS,
# GnuTLS, wolfSSL, Botan), HKDF-SHA256 (OpenSSL, Nettle, Mbed TLS,
# GnuTLS, wolfSSL, Botan), scrypt (OpenSSL, libgcrypt, libsodium,
# wolfSSL, Botan) or Argon2id (libgcrypt, libsodium, Botan; OpenSSL 3.0
# has none) passes the RFC known-answer tests its API can take, derives
# the same key as every other and is verified at a plausible rate, with
# the fixed cost in its kdfresult line; the others say unsupported; the
# output is valid for the orchestrator. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
check=$top_builddir/tests/fixtures/guest-check
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
[ -x "$guest" ] || skip_all "$guest not built"
[ -x "$check" ] || skip_all "$check not built"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" -- /run/benchorch/guest \
	--quick --min-batch-ns 200000 --repetitions 2 \
	--libs openssl,libgcrypt,nettle,libsodium,mbedtls,gnutls,wolfssl,botan \
	--algos none --kdf all >"$tmp/out" 2>"$tmp/err"
ok $? "the guest measures the four key derivation functions and exits 0"
sed 's/^/# /' "$tmp/err" | head -5
"$check" "$tmp/out" >"$tmp/check" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/check")"

tap_py <<'PY'
objs = load("out")
# in the order of --libs, which is that of confirmed_by
libs = {"pbkdf2-sha256": ["openssl", "libgcrypt", "nettle", "mbedtls",
                          "gnutls", "wolfssl", "botan"],
        "hkdf-sha256": ["openssl", "nettle", "mbedtls", "gnutls", "wolfssl",
                        "botan"],
        "scrypt": ["openssl", "libgcrypt", "libsodium", "wolfssl", "botan"],
        "argon2id": ["libgcrypt", "libsodium", "botan"]}
# known-answer tests each library's API can take
kats = {"pbkdf2-sha256": {l: 2 for l in libs["pbkdf2-sha256"]},
        "hkdf-sha256": {l: 1 for l in libs["hkdf-sha256"]},
        "scrypt": {"openssl": 2, "libgcrypt": 1, "libsodium": 2,
                   "wolfssl": 2, "botan": 2},
        "argon2id": {"libgcrypt": 1, "libsodium": 0, "botan": 0}}
cost = {"pbkdf2-sha256": ("c=10000,dklen=32", 10000, 0, 1),
        "hkdf-sha256": ("extract+expand,L=32", 1, 0, 1),
        "scrypt": ("N=16384,r=8,p=1,dklen=32", 16384, 16384, 1),
        "argon2id": ("t=3,m=65536,p=1,T=32", 3, 65536, 1)}
# derivations per second: no slower than these (a 2-core VM does about
# 100 PBKDF2s, 10 scrypts and 2 Argon2ids a second in the slowest
# library), no faster than these (a do-nothing path would be)
rates = {"pbkdf2-sha256": (10, 1e5), "hkdf-sha256": (1e4, 1e8),
         "scrypt": (0.5, 1e3), "argon2id": (0.2, 1e3)}
for alg in libs:
    judges = [l for l in libs[alg] if kats[alg][l] > 0]
    for lib in libs[alg]:
        k = [o for o in objs if o["type"] == "kat" and o["library"] == lib
             and o["algorithm"] == alg]
        ok(len(k) == kats[alg][lib] and all(o["ok"] for o in k)
           and all(o["source"].startswith("RFC ") for o in k),
           "%s %s: %d known-answer tests pass (%s)"
           % (lib, alg, len(k), [o["source"] for o in k]))
        c = [o for o in objs if o["type"] == "kdfcheck" and o["library"] == lib
             and o["algorithm"] == alg]
        want = [l for l in judges if l != lib]
        ok(len(c) == 1 and c[0]["confirmed_by"] == want
           and c[0]["rejected_by"] == [],
           "%s %s: the same key as %s (%s)" % (lib, alg, want, c))
        r = [o for o in objs if o["type"] == "kdfresult" and o["library"] == lib
             and o["algorithm"] == alg]
        rate = r[0]["ops_per_s"] if len(r) == 1 else 0
        lo, hi = rates[alg]
        ok(len(r) == 1 and r[0]["verified"] and lo <= rate <= hi
           and (r[0]["params"], r[0]["iterations"], r[0]["memory_kib"],
                r[0]["parallelism"]) == cost[alg]
           and r[0]["output_bytes"] == 32
           and abs(rate * r[0]["ns_per_call"] - 1e9) < 1e7,
           "%s %s: verified, %.1f per second" % (lib, alg, rate))
u = sorted((o["library"], o["algorithm"]) for o in objs
           if o["type"] == "unsupported")
want_u = sorted((l, a) for a in libs for l in
                ["openssl", "libgcrypt", "nettle", "libsodium", "mbedtls",
                 "gnutls", "wolfssl", "botan"] if l not in libs[a])
ok(u == want_u, "the others say unsupported (%s)" % u)
e = [o for o in objs if o["type"] == "error"]
ok(not e, "no error line (%s)" % e)
PY
done_testing
