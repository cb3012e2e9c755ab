#!/bin/sh
# t1100-guest-libraries - the guest in the real Debian bookworm rootfs (every
# library installed), under systemd-nspawn: every backend loads, with path,
# version and build-id; every known-answer test passes; every pair is
# measured or reported unsupported, never failed; the cross-library check
# agrees for every algorithm two or more backends support; and the counts
# of supported pairs are what the backends document. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
[ -x "$guest" ] || skip_all "$guest not built"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Correctness, not speed: tiny batches, one repetition, two sizes.
systemd-nspawn -q --register=no --keep-unit --private-network --read-only \
	--console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" -- /run/benchorch/guest \
	--quick --min-batch-ns 20000 --repetitions 1 --oneshot-max 1024 \
	>"$tmp/out" 2>"$tmp/err"
ok $? "the guest runs every library in the rootfs and exits 0"
[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err" | head -5

python3 - "$tmp/out" "$tap_n" <<'PY'
import json, sys, collections
objs = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2])
def ok(cond, what):
    global n
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
# What each backend documents (guest/backend-*.c) for Debian bookworm's
# versions: OpenSSL 3.0 lacks Serpent, Twofish, Salsa20; Nettle 3.8 has
# no BLAKE2b; libsodium has 7 of the 32; Mbed TLS 2.28 lacks Serpent,
# Twofish, CAST5, Salsa20, SHA3-256, BLAKE2b; GnuTLS 3.7 has no ECB, CTR,
# Serpent, Twofish, Blowfish, CAST5, BLAKE2b, and its Salsa20 ignores the
# nonce; wolfSSL 5.5 lacks Serpent, Twofish, Blowfish, CAST5, Salsa20 and
# 3DES-ECB decryption; Botan 2.19 has all 32; LibTomCrypt 1.18.2 lacks
# Serpent and Salsa20; libmcrypt 2.5.8 has the ECB and CBC block ciphers,
# AES-CTR and RC4 (19), no Camellia, GCM, ChaCha20, Salsa20 or hash.
want = {"openssl": 27, "libgcrypt": 32, "nettle": 31, "libsodium": 7,
        "mbedtls": 23, "gnutls": 16, "wolfssl": 22, "botan": 32,
        "libtomcrypt": 29, "libmcrypt": 19}
libs = {o["library"]: o for o in objs if o["type"] == "library"}
for name in want:
    l = libs.get(name, {})
    ok(l.get("status") == "loaded" and l.get("path", "").startswith("/usr/lib/")
       and l.get("version") and len(l.get("build_id", "")) == 40,
       "%s loaded with path, version and build-id (%s %s)"
       % (name, l.get("path"), l.get("version")))
kats = [o for o in objs if o["type"] == "kat"]
bad = [(k["library"], k["algorithm"], k["source"]) for k in kats if not k["ok"]]
ok(kats and not bad, "all %d known-answer tests pass %s" % (len(kats), bad[:3]))
# every algorithm a backend supports has its known-answer tests run, and
# passed, in that backend (checked per library, so that a new backend
# cannot pass by skipping them)
katted = collections.defaultdict(set)
for k in kats:
    if k["ok"]:
        katted[k["library"]].add(k["algorithm"])
for name in want:
    cc_algos = {o["algorithm"] for o in objs
                if o["type"] == "crosscheck" and o["library"] == name}
    ok(cc_algos and cc_algos == katted[name],
       "%s passed the known-answer tests of all %d algorithms it supports"
       % (name, len(cc_algos)))
errors = [o for o in objs if o["type"] == "error"]
ok(not errors, "no error lines %s" % errors[:2])
supported = collections.defaultdict(set)
for o in objs:
    if o["type"] == "crosscheck":
        supported[o["library"]].add(o["algorithm"])
unsup = collections.Counter(o["library"] for o in objs
                            if o["type"] == "unsupported")
for name, count in want.items():
    ok(len(supported[name]) == count and len(supported[name]) + unsup[name] == 32,
       "%s supports %d of 32 algorithms, the rest reported unsupported (%d + %d)"
       % (name, count, len(supported[name]), unsup[name]))
cc = collections.defaultdict(dict)
for o in objs:
    if o["type"] == "crosscheck":
        cc[o["algorithm"]][o["library"]] = (o["digest"], o["roundtrip"])
multi = {a: d for a, d in cc.items() if len(d) >= 2}
disagree = {a: d for a, d in multi.items()
            if len({v[0] for v in d.values()}) != 1
            or not all(v[1] for v in d.values())}
ok(len(multi) == 32 and not disagree,
   "the cross-check agrees for all %d algorithms two or more libraries support %s"
   % (len(multi), list(disagree)[:3]))
results = [o for o in objs if o["type"] == "result"]
ok(results and all(r["verified"] for r in results),
   "all %d results verified" % len(results))
ok({r["mode"] for r in results} == {"bulk", "oneshot"},
   "bulk and one-shot results")
done = objs[-1]
ok(done["type"] == "done" and done["results"] == len(results),
   "done counts the results")
print("1..%d" % n)
PY
