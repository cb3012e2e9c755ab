#!/bin/sh
# t1148-guest-pq - ML-KEM-768 and ML-DSA-65 (--pubkey) in a Debian trixie
# rootfs, under systemd-nspawn, when one is cached under
# $TEST_STATE/images/debian-trixie (the suite builds only bookworm, whose
# libraries have neither: t1140): OpenSSL 3.5 passes the NIST ACVP
# key-generation known answers with their encapsulation and signature
# round trips, and the decapsulation (ML-KEM-768, an implicit rejection
# among them) and signature verification (ML-DSA-65, with a context)
# known answers, has keygen, encaps, decaps / keygen, sign, verify timed
# and verified at a plausible rate; every other library says
# unsupported; the output is valid for the orchestrator; every other
# public-key algorithm and key derivation function is timed and verified
# there too (OpenSSL 3.5's Ed25519 and wolfSSL 5.7's, libwolfssl.so.42,
# among them), GnuTLS 3.8's key agreement with them
# (gnutls_privkey_derive_secret, 3.8.2): ecdh-p256, x25519 and x448
# pass their NIST CAVP / RFC 7748 known answers and have import and
# derive timed and verified, confirmed by the other libraries and
# rejected by none. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
check=$top_builddir/tests/fixtures/guest-check
rootfs="$TEST_STATE/images/debian-trixie/rootfs"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
[ -x "$guest" ] || skip_all "$guest not built"
[ -x "$check" ] || skip_all "$check not built"
[ -d "$rootfs/usr/lib" ] ||
	skip_all "no trixie image at $TEST_STATE/images/debian-trixie (build one with: benchorch images build --state-dir $TEST_STATE debian:trixie)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" -- /run/benchorch/guest \
	--quick --min-batch-ns 200000 --repetitions 3 \
	--libs openssl,libsodium,nettle,libgcrypt,mbedtls,botan,gnutls \
	--algos none --pubkey ml-kem-768,ml-dsa-65 >"$tmp/pq" 2>"$tmp/pq.err"
ok $? "the guest measures ml-kem-768 and ml-dsa-65 in trixie and exits 0"
sed 's/^/# /' "$tmp/pq.err" | head -5
"$check" "$tmp/pq" >"$tmp/pq.check" 2>&1
ok $? "the orchestrator's validator accepts the output: $(head -1 "$tmp/pq.check")"

tap_py <<'PY'
objs = load("pq")
ops = {"ml-kem-768": ["keygen", "encaps", "decaps"],
       "ml-dsa-65": ["keygen", "sign", "verify"]}
sources = {"ml-kem-768": [
               "NIST ACVP-Server ML-KEM-keyGen-FIPS203, ML-KEM-768, tcId 26",
               "NIST ACVP-Server ML-KEM-encapDecap-FIPS203, ML-KEM-768 decapsulation, tgId 5, tcId 86",
               "NIST ACVP-Server ML-KEM-encapDecap-FIPS203, ML-KEM-768 decapsulation, tgId 5, tcId 88 (implicit rejection)"],
           "ml-dsa-65": [
               "NIST ACVP-Server ML-DSA-keyGen-FIPS204, ML-DSA-65, tcId 26",
               "NIST ACVP-Server ML-DSA-sigVer-FIPS204, ML-DSA-65 external pure, tgId 3, tcId 33"]}
lib = [o for o in objs if o["type"] == "library" and o["library"] == "openssl"]
ok(len(lib) == 1 and lib[0].get("version", "").startswith("OpenSSL 3."),
   "openssl loaded (%s)" % [o.get("version") for o in lib])
for alg in ("ml-kem-768", "ml-dsa-65"):
    k = [o for o in objs if o["type"] == "kat" and o["library"] == "openssl"
         and o["algorithm"] == alg]
    # key generation, then decapsulation / verification, in that order
    ok([o["source"] for o in k] == sources[alg] and all(o["ok"] for o in k),
       "openssl %s: every known-answer test passes (%s)"
       % (alg, [(o["source"], o["ok"]) for o in k]))
    c = [o for o in objs if o["type"] == "pkcheck" and o["library"] == "openssl"
         and o["algorithm"] == alg]
    ok(len(c) == 1 and c[0]["rejected_by"] == [],
       "openssl %s: one pkcheck, rejected by no one (%s)" % (alg, c))
    # rates: a 2-core VM does some 1000 ML-DSA-65 signatures and tens of
    # thousands of encapsulations per second; at most 10^7 (a
    # do-nothing path would be faster)
    for op in ops[alg]:
        r = [o for o in objs if o["type"] == "pkresult" and o["library"] == "openssl"
             and o["algorithm"] == alg and o["operation"] == op]
        rate = r[0]["ops_per_s"] if len(r) == 1 else 0
        ok(len(r) == 1 and r[0]["verified"] and 100 <= rate <= 1e7,
           "openssl %s %s: verified, %.0f per second" % (alg, op, rate))
u = sorted((o["library"], o["algorithm"]) for o in objs
           if o["type"] == "unsupported")
want = sorted((l, a) for l in ("botan", "gnutls", "libgcrypt", "libsodium",
                               "mbedtls", "nettle")
              for a in ("ml-dsa-65", "ml-kem-768"))
ok(u == want, "unsupported in every library but openssl (%s)" % u)
e = [o for o in objs if o["type"] == "error"]
ok(not e, "no error line (%s)" % e)
PY

# OpenSSL 3.5 refuses a second one-shot EVP_DigestSign or EVP_DigestVerify
# on a context that was not initialised again: every public-key and key
# derivation algorithm of every library is timed and verified in trixie,
# with no error line
systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" -- /run/benchorch/guest \
	--quick --min-batch-ns 200000 --repetitions 3 \
	--algos none --pubkey x25519,x448,ed25519,ecdh-p256,ecdsa-p256,rsa-2048,rsa-pss-2048 \
	--kdf all >"$tmp/all" 2>"$tmp/all.err"
ok $? "the guest measures the other public-key algorithms and the key derivation functions in trixie and exits 0"
python3 - "$tmp/all" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
e = [o for o in objs if o["type"] == "error"]
bad = [(o["library"], o["algorithm"], o.get("operation")) for o in objs
       if o["type"] in ("pkresult", "kdfresult") and not o["verified"]]
ed = [o["operation"] for o in objs if o["type"] == "pkresult"
      and o["library"] == "openssl" and o["algorithm"] == "ed25519"
      and o["verified"]]
wolf = [o for o in objs if o["type"] == "library" and o["library"] == "wolfssl"
        and o["status"] == "loaded" and o["soname"] == "libwolfssl.so.42"]
wpk = {o["algorithm"] for o in objs if o["type"] == "pkresult"
       and o["library"] == "wolfssl" and o["verified"]}
sys.exit(0 if not e and not bad and sorted(ed) == ["import", "sign", "verify"]
         and wolf and {"x25519", "ed25519", "ecdsa-p256", "rsa-2048"} <= wpk
         else 1)
PY
ok $? "every result verified, OpenSSL 3.5's Ed25519 sign and verify among them, and wolfSSL 5.7's (libwolfssl.so.42); no error line: $(grep '"error"' "$tmp/all" | head -3)"

# GnuTLS 3.8's raw key agreement (gnutls_privkey_derive_secret, 3.8.2):
# ECDH P-256, X25519 and X448 supported, their known answers passed, both
# operations timed and verified, confirmed by the other libraries that
# have them and rejected by none
tap_py <<'PY'
objs = load("all")
lib = [o for o in objs if o["type"] == "library" and o["library"] == "gnutls"]
ok(len(lib) == 1 and lib[0]["status"] == "loaded"
   and lib[0].get("version", "").startswith("GnuTLS 3.8"),
   "gnutls 3.8 loaded (%s)" % [o.get("version") for o in lib])
kats = {"ecdh-p256": 1, "x25519": 3, "x448": 3}
sources = {"ecdh-p256": "NIST CAVP, ecccdhtestvectors, KAS ECC CDH primitive, P-256, COUNT = 0",
           "x25519": "RFC 7748", "x448": "RFC 7748"}
for alg in ("ecdh-p256", "x25519", "x448"):
    u = [o for o in objs if o["type"] == "unsupported"
         and o["library"] == "gnutls" and o["algorithm"] == alg]
    k = [o for o in objs if o["type"] == "kat" and o["library"] == "gnutls"
         and o["algorithm"] == alg]
    ok(not u and len(k) == kats[alg] and all(o["ok"] for o in k)
       and all(o["source"].startswith(sources[alg]) for o in k),
       "gnutls %s: supported, its %d known answers pass (%s)"
       % (alg, kats[alg], [(o["source"], o["ok"]) for o in k]))
    c = [o for o in objs if o["type"] == "pkcheck" and o["library"] == "gnutls"
         and o["algorithm"] == alg]
    ok(len(c) == 1 and c[0]["rejected_by"] == [] and "openssl" in c[0]["confirmed_by"]
       and len(c[0]["confirmed_by"]) >= 3,
       "gnutls %s: confirmed by openssl and at least 2 others, rejected by none (%s)"
       % (alg, c))
    judged = [o for o in objs if o["type"] == "pkcheck" and o["library"] != "gnutls"
              and o["algorithm"] == alg]
    ok(judged and all("gnutls" in o["confirmed_by"] for o in judged),
       "gnutls %s: confirms every other library's timed secret (%s)"
       % (alg, [(o["library"], o["confirmed_by"]) for o in judged]))
    # rates: tens of thousands of X25519 derives per second on a 2-core
    # VM, thousands of P-256 and X448 ones; at most 10^7
    for op in ("import", "derive"):
        r = [o for o in objs if o["type"] == "pkresult" and o["library"] == "gnutls"
             and o["algorithm"] == alg and o["operation"] == op]
        rate = r[0]["ops_per_s"] if len(r) == 1 else 0
        ok(len(r) == 1 and r[0]["verified"] and 100 <= rate <= 1e7,
           "gnutls %s %s: verified, %.0f per second" % (alg, op, rate))
PY
done_testing
