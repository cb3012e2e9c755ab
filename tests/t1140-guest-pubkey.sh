#!/bin/sh
# t1140-guest-pubkey - the public-key algorithms (--pubkey) in the real
# Debian bookworm rootfs, under systemd-nspawn: every library whose
# backend has X25519 (OpenSSL, libsodium, Nettle, libgcrypt, Botan, Mbed
# TLS, wolfSSL), X448 (OpenSSL, Nettle, libgcrypt, Mbed TLS, wolfSSL) or
# Ed25519 (OpenSSL, libsodium, Nettle, libgcrypt, Botan, wolfSSL, GnuTLS)
# passes RFC 7748's or RFC 8032's known-answer tests, is confirmed by
# every other and rejected by no one in the cross-check (its timed shared
# secret or signature checked by them), and has every operation timed,
# verified, at a plausible rate; a library without them (Mbed TLS's
# Ed25519, GnuTLS's X25519, X448 in libsodium, Botan 2 and GnuTLS: GnuTLS
# 3.7 has no raw key agreement, t1148 measures 3.8's) says unsupported;
# ECDH and ECDSA on P-256 likewise: every library with ECDH (OpenSSL,
# Nettle, libgcrypt, Mbed TLS, Botan, wolfSSL) passes the NIST CAVP ECC
# CDH vector, every one with ECDSA (the same and GnuTLS) RFC 6979's P-256
# signature (deterministic signers - Mbed TLS, Botan - reproduce it),
# each confirmed by all the others; libsodium has neither and GnuTLS no
# ECDH: unsupported;
# the RSA signatures (rsa-2048, rsa-3072: PKCS #1 v1.5; rsa-pss-2048) in
# every library but libsodium (unsupported): OpenSSL, Nettle, libgcrypt,
# Mbed TLS, Botan, wolfSSL and GnuTLS pass the fixed key's known answers
# (the PKCS #1 v1.5 signature byte for byte) and are confirmed by all the
# others;
# ML-KEM-768 and ML-DSA-65 are unsupported in every bookworm library
# (OpenSSL 3.0 has neither; t1148 measures them in trixie);
# the output is valid for the orchestrator. A run without --pubkey prints no public-key line.
# Prints TAP.
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
# run OUT ARGS...: the guest in the rootfs, stdout into $tmp/OUT
run() {
	out=$1
	shift
	systemd-nspawn -q --register=no --keep-unit --private-network \
		--read-only --console=pipe --as-pid2 -D "$rootfs" \
		--bind-ro="$guest:/run/benchorch/guest" -- /run/benchorch/guest \
		"$@" >"$tmp/$out" 2>"$tmp/$out.err"
}
run pk --quick --min-batch-ns 200000 --repetitions 3 \
	--libs openssl,libsodium,nettle,libgcrypt,mbedtls,botan,wolfssl,gnutls \
	--algos none --pubkey all
ok $? "the guest measures x25519, x448, ed25519, ecdh-p256, ecdsa-p256, rsa-2048, rsa-3072 and rsa-pss-2048 (ml-kem-768 and ml-dsa-65 unsupported) and exits 0"
sed 's/^/# /' "$tmp/pk.err" | head -5
"$check" "$tmp/pk" >"$tmp/pk.check" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/pk.check")"

tap_py <<'PY'
objs = load("pk")
ops = {"x25519": ["import", "derive"], "x448": ["import", "derive"],
       "ed25519": ["import", "sign", "verify"],
       "ecdh-p256": ["import", "derive"], "ecdsa-p256": ["import", "sign", "verify"],
       "rsa-2048": ["import", "sign", "verify", "keygen"],
       "rsa-3072": ["import", "sign", "verify"],
       "rsa-pss-2048": ["import", "sign", "verify"]}
want_kats = {"x25519": 3, "x448": 3, "ed25519": 3, "ecdh-p256": 1, "ecdsa-p256": 1,
             "rsa-2048": 1, "rsa-3072": 1, "rsa-pss-2048": 1}
sources = {"x25519": "RFC 7748", "x448": "RFC 7748", "ed25519": "RFC 8032 7.1",
           "ecdh-p256": "NIST CAVP, ecccdhtestvectors, KAS ECC CDH primitive, P-256, COUNT = 0",
           "ecdsa-p256": "RFC 6979 A.2.5, P-256, SHA-256",
           "rsa-2048": "fixed 2048-bit test key, PKCS#1 v1.5",
           "rsa-3072": "fixed 3072-bit test key, PKCS#1 v1.5",
           "rsa-pss-2048": "fixed 2048-bit test key, PSS"}
rsa_libs = ["openssl", "nettle", "libgcrypt", "mbedtls", "botan", "wolfssl",
            "gnutls"]
# in the order of --libs, which is that of confirmed_by
libs = {"x25519": ["openssl", "libsodium", "nettle", "libgcrypt", "mbedtls",
                   "botan", "wolfssl"],
        "x448": ["openssl", "nettle", "libgcrypt", "mbedtls", "wolfssl"],
        "ed25519": ["openssl", "libsodium", "nettle", "libgcrypt", "botan",
                    "wolfssl", "gnutls"],
        "ecdh-p256": ["openssl", "nettle", "libgcrypt", "mbedtls", "botan",
                      "wolfssl"],
        "ecdsa-p256": ["openssl", "nettle", "libgcrypt", "mbedtls", "botan",
                       "wolfssl", "gnutls"],
        "rsa-2048": rsa_libs, "rsa-3072": rsa_libs, "rsa-pss-2048": rsa_libs}
# Each operation's rate: at least 200 per second (a 2-core VM does tens
# of thousands in most libraries, about 2000 in Mbed TLS's X25519 and
# 900 in its X448 on generic bignums and libgcrypt's Ed25519 verify; about 700 in Mbed TLS's
# P-256 verify, 1200 in libgcrypt's P-256 sign), at most 10^7 (no key
# exchange or signature is that cheap: a wrong, do-nothing path would
# be). RSA: at least 20 (libgcrypt's and Mbed TLS's RSA-3072 sign about
# 100 to 200 per second, Botan's import - its signer's set-up - 100 to
# 200); RSA-2048 key generation at least 1 (5 to 60 keys per second, each
# key's time spread widely: one sample per key, 3 keys with --quick).
for alg in ("x25519", "x448", "ed25519", "ecdh-p256", "ecdsa-p256",
            "rsa-2048", "rsa-3072", "rsa-pss-2048"):
    low = 20 if alg.startswith("rsa") else 200
    for lib in libs[alg]:
        others = [l for l in libs[alg] if l != lib]
        k = [o for o in objs if o["type"] == "kat" and o["library"] == lib
             and o["algorithm"] == alg]
        src = [o["source"] for o in k]
        ok(len(k) == want_kats[alg] and all(o["ok"] for o in k)
           and all(s.startswith(sources[alg]) for s in src),
           "%s %s: %d known-answer tests pass (%s)" % (lib, alg, len(k), src))
        c = [o for o in objs if o["type"] == "pkcheck" and o["library"] == lib
             and o["algorithm"] == alg]
        ok(len(c) == 1 and c[0]["confirmed_by"] == others
           and c[0]["rejected_by"] == [],
           "%s %s: the timed output is confirmed by %s (%s)" % (lib, alg, others, c))
        for op in ops[alg]:
            r = [o for o in objs if o["type"] == "pkresult" and o["library"] == lib
                 and o["algorithm"] == alg and o["operation"] == op]
            rate = r[0]["ops_per_s"] if len(r) == 1 else 0
            keygen = op == "keygen"
            ok(len(r) == 1 and r[0]["verified"]
               and (1 if keygen else low) <= rate <= 1e7
               and abs(rate * r[0]["ns_per_call"] - 1e9) < 1e7
               and len(r[0]["samples_ns"]) == 3,
               "%s %s %s: verified, %.0f per second" % (lib, alg, op, rate))
u = sorted((o["library"], o["algorithm"]) for o in objs
           if o["type"] == "unsupported")
# bookworm's libraries have no post-quantum algorithm (OpenSSL 3.0)
pq = [(l, a) for l in ("botan", "gnutls", "libgcrypt", "libsodium",
                       "mbedtls", "nettle", "openssl", "wolfssl")
      for a in ("ml-dsa-65", "ml-kem-768")]
ok(u == sorted([("gnutls", "ecdh-p256"), ("gnutls", "x25519"),
                ("gnutls", "x448"), ("libsodium", "x448"), ("botan", "x448"),
                ("libsodium", "ecdh-p256"), ("libsodium", "ecdsa-p256"),
                ("libsodium", "rsa-2048"), ("libsodium", "rsa-3072"),
                ("libsodium", "rsa-pss-2048"), ("mbedtls", "ed25519")] + pq),
   "unsupported: gnutls 3.7's x25519 and ecdh-p256, x448 in gnutls, libsodium and botan, libsodium P-256 and RSA, mbedtls ed25519, ml-kem-768 and ml-dsa-65 everywhere (%s)" % u)
ok(not any(o["type"] == "result" for o in objs), "--algos none: no cipher or hash result")
e = [o for o in objs if o["type"] == "error"]
ok(not e, "no error line (%s)" % e)
PY

run plain --quick --min-batch-ns 20000 --repetitions 1 --libs libsodium \
	--algos sha-256
ok $? "a run without --pubkey exits 0"
! grep -q -e '"pkresult"' -e '"pkcheck"' -e '"x25519"' -e '"x448"' \
	-e '"ed25519"' -e '"ecdh-p256"' -e '"ecdsa-p256"' -e '"rsa-2048"' -e '"rsa-3072"' \
	-e '"rsa-pss-2048"' -e '"ml-kem-768"' -e '"ml-dsa-65"' "$tmp/plain"
ok $? "and prints no public-key line"

# with --interleave: the interleaved points first, then the public-key
# operations and key derivation functions as points that take turns,
# their pair lines after the pkresult and kdfresult lines
run il --quick --min-batch-ns 200000 --repetitions 3 --interleave \
	--libs openssl,libsodium,nettle --algos sha-256 --pubkey x25519 \
	--kdf pbkdf2-sha256
ok $? "--interleave with --pubkey and --kdf exits 0"
"$check" "$tmp/il" >"$tmp/il.check" 2>&1
ok $? "the validator accepts it: $(head -1 "$tmp/il.check")"
python3 - "$tmp/il" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
t = [o["type"] for o in objs]
pk = sorted(o["library"] for o in objs
            if o["type"] == "pkresult" and o["operation"] == "derive" and o["verified"])
kd = sorted(o["library"] for o in objs if o["type"] == "kdfresult" and o["verified"])
pairs = [o for o in objs if o["type"] == "pair" and o["mode"] == "bulk"]
last_pair = max(i for i, o in enumerate(objs)
                if o["type"] == "pair" and o["algorithm"] == "sha-256")
first_pk = min(i for i, x in enumerate(t) if x in ("pkresult", "kat") and
               objs[i].get("algorithm") in ("x25519", "pbkdf2-sha256"))
last_res = max(i for i, x in enumerate(t) if x in ("pkresult", "kdfresult"))
xp = {(o["mode"], o["algorithm"], o["operation"]) for i, o in enumerate(objs)
      if o["type"] == "pair" and o["mode"] in ("pubkey", "kdf") and i > last_res}
sys.exit(0 if pk == ["libsodium", "nettle", "openssl"] and
         kd == ["nettle", "openssl"] and pairs and last_pair < first_pk and
         xp == {("pubkey", "x25519", "import"), ("pubkey", "x25519", "derive"),
                ("kdf", "pbkdf2-sha256", "derive")} else 1)
PY
ok $? "x25519 verified in openssl, libsodium and nettle, pbkdf2-sha256 in openssl and nettle, after the interleaved sha-256 pairs; their own pairs after their results"
# --duet (stdin at its end: no turns to take): each operation's blocks,
# one set of --rounds, RSA key generation left out
run duet --quick --duet --rounds 4 --libs openssl,nettle --algos none \
	--pubkey x25519,rsa-2048 </dev/null
[ $? -eq 0 ] && python3 - "$tmp/duet" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
pk = sorted((o["library"], o["algorithm"], o["operation"]) for o in objs
            if o["type"] == "pkresult" and o["verified"] and o["sets"] == 1
            and o["repetitions"] == 4 and len(o["samples_ns"]) == 4)
want = sorted((l, a, op) for l in ("openssl", "nettle")
              for a, ops in (("x25519", ("import", "derive")),
                             ("rsa-2048", ("import", "sign", "verify")))
              for op in ops)
sys.exit(0 if pk == want and objs[-1]["type"] == "done" else 1)
PY
ok $? "--pubkey with --duet: each operation's rounds as its pkresult (one set of 4), verified; no RSA keygen"
run duetkdf --quick --duet --rounds 4 --libs openssl,nettle --algos none \
	--kdf hkdf-sha256 </dev/null
[ $? -eq 0 ] && python3 - "$tmp/duetkdf" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
kd = sorted(o["library"] for o in objs
            if o["type"] == "kdfresult" and o["verified"] and o["sets"] == 1
            and o["repetitions"] == 4 and len(o["samples_ns"]) == 4)
sys.exit(0 if kd == ["nettle", "openssl"] else 1)
PY
ok $? "--kdf with --duet: the rounds as each kdfresult (one set of 4), verified"
done_testing
