#!/bin/sh
# t1110-guest-crash-isolation - a library that crashes, or hangs, costs only
# its own results: the guest runs each library in a child process and
# reports an abnormal end as an `error` line, then goes on. The crashing
# "libcrypto.so.3" is built here: it exports the OpenSSL symbols the
# backend needs, offers AES-128-CBC, and dies of SIGSEGV (or spins forever,
# FAKE_MODE=hang) in its first EVP_EncryptUpdate; so does a crashing
# "libmcrypt.so.4" in its first mcrypt_generic. Both are put first on the
# guest's library path inside the real Debian rootfs (a read-only bind
# mount plus LD_LIBRARY_PATH); the real Nettle, libsodium and LibTomCrypt
# of the rootfs run after them. (Not Botan: Debian's links libtspi, which
# needs the real libcrypto.so.3 the fake one shadows.) Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
[ -x "$guest" ] || skip_all "$guest not built"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lib"
cat >"$tmp/fake.c" <<'C'
/* A fake libcrypto.so.3: just enough of OpenSSL's EVP ABI for the guest's
 * backend to load it and find AES-128-CBC, then a crash (or a hang). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
static int dummy;
const char *OpenSSL_version(int t) { (void)t; return "FakeSSL 0.0 (crashes)"; }
void *EVP_CIPHER_CTX_new(void) { return calloc(1, 64); }
void EVP_CIPHER_CTX_free(void *c) { free(c); }
const void *EVP_aes_128_cbc(void) { return &dummy; }
int EVP_CipherInit_ex(void *c, const void *ci, void *e, const void *k,
		      const void *iv, int enc)
{ (void)c; (void)ci; (void)e; (void)k; (void)iv; (void)enc; return 1; }
int EVP_EncryptUpdate(void *c, void *o, int *ol, const void *i, int il)
{
	(void)c; (void)o; (void)ol; (void)i; (void)il;
	if (getenv("FAKE_MODE") && strcmp(getenv("FAKE_MODE"), "hang") == 0)
		for (;;)
			;
	return *(volatile int *)0;	/* SIGSEGV */
}
int EVP_DecryptUpdate(void *c, void *o, int *ol, const void *i, int il)
{ return EVP_EncryptUpdate(c, o, ol, i, il); }
int EVP_EncryptFinal_ex(void *c, void *o, int *ol) { (void)c; (void)o; *ol = 0; return 1; }
int EVP_DecryptFinal_ex(void *c, void *o, int *ol) { (void)c; (void)o; *ol = 0; return 1; }
int EVP_CIPHER_CTX_ctrl(void *c, int t, int a, void *p) { (void)c; (void)t; (void)a; (void)p; return 1; }
int EVP_CIPHER_CTX_set_padding(void *c, int p) { (void)c; (void)p; return 1; }
int EVP_Digest(const void *d, size_t n, void *md, unsigned *s, const void *t, void *e)
{ (void)d; (void)n; (void)md; (void)s; (void)t; (void)e; return 0; }
void *EVP_MD_CTX_new(void) { return calloc(1, 64); }
void EVP_MD_CTX_free(void *c) { free(c); }
int EVP_DigestInit_ex(void *c, const void *t, void *e) { (void)c; (void)t; (void)e; return 0; }
int EVP_DigestUpdate(void *c, const void *d, size_t n) { (void)c; (void)d; (void)n; return 0; }
int EVP_DigestFinal_ex(void *c, void *md, unsigned *s) { (void)c; (void)md; (void)s; return 0; }
C
gcc -shared -fPIC -o "$tmp/lib/libcrypto.so.3" "$tmp/fake.c" 2>"$tmp/cc.err"
ok $? "builds the crashing libcrypto.so.3"
cat >"$tmp/fakemc.c" <<'C'
/* A fake libmcrypt.so.4: the generic API the guest's backend resolves,
 * every algorithm with 16-byte blocks and IVs and any key up to 32 bytes,
 * then a crash (or a hang) in the first mcrypt_generic. */
#include <stdlib.h>
#include <string.h>
void *mcrypt_module_open(char *a, char *ad, char *m, char *md)
{ (void)a; (void)ad; (void)m; (void)md; return calloc(1, 64); }
int mcrypt_module_close(void *td) { free(td); return 0; }
int mcrypt_generic_init(void *td, void *k, int n, void *iv)
{ (void)td; (void)k; (void)n; (void)iv; return 0; }
int mcrypt_generic_deinit(void *td) { (void)td; return 0; }
int mcrypt_generic(void *td, void *b, int n)
{
	(void)td; (void)b; (void)n;
	if (getenv("FAKE_MODE") && strcmp(getenv("FAKE_MODE"), "hang") == 0)
		for (;;)
			;
	return *(volatile int *)0;	/* SIGSEGV */
}
int mdecrypt_generic(void *td, void *b, int n) { return mcrypt_generic(td, b, n); }
int mcrypt_enc_get_block_size(void *td) { (void)td; return 16; }
int mcrypt_enc_get_iv_size(void *td) { (void)td; return 16; }
int mcrypt_enc_get_key_size(void *td) { (void)td; return 32; }
int *mcrypt_enc_get_supported_key_sizes(void *td, int *n) { (void)td; *n = 0; return NULL; }
void mcrypt_free(void *p) { free(p); }
const char *mcrypt_check_version(const char *r) { (void)r; return "0.0-fake"; }
C
gcc -shared -fPIC -o "$tmp/lib/libmcrypt.so.4" "$tmp/fakemc.c" 2>>"$tmp/cc.err"
ok $? "builds the crashing libmcrypt.so.4"

# run MODE TIMEOUT: the guest in the rootfs with the fake library first.
run() {
	systemd-nspawn -q --register=no --keep-unit --private-network \
		--read-only --console=pipe --as-pid2 -D "$rootfs" \
		--bind-ro="$guest:/run/benchorch/guest" \
		--bind-ro="$tmp/lib:/run/fakelib" \
		--setenv=LD_LIBRARY_PATH=/run/fakelib --setenv=FAKE_MODE="$1" \
		-- /run/benchorch/guest --quick --min-batch-ns 20000 \
		--repetitions 1 \
		--libs openssl,libmcrypt,nettle,libsodium,libtomcrypt \
		--algos aes-128-cbc,chacha20,sha-256 --lib-timeout "$2" \
		>"$tmp/out.$1" 2>"$tmp/err.$1"
}

check_output() {
	python3 - "$tmp/out.$1" "$tap_n" "$1" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
n, mode = int(sys.argv[2]), sys.argv[3]
def ok(cond, what):
    global n
    n += 1
    print("%sok %d - %s: %s" % ("" if cond else "not ", n, mode, what))
libs = {o["library"]: o for o in objs if o["type"] == "library"}
ok(libs.get("openssl", {}).get("version", "").startswith("FakeSSL"),
   "the guest loaded the fake libcrypto")
ok(libs.get("libmcrypt", {}).get("version", "").endswith("0.0-fake"),
   "the guest loaded the fake libmcrypt")
want = ("library crashed: killed by signal 11" if mode == "crash"
        else "library hung: killed after 3 s")
res = [o for o in objs if o["type"] == "result"]
for lib in ("openssl", "libmcrypt"):
    errs = [o for o in objs if o["type"] == "error" and o["library"] == lib]
    ok(len(errs) == 1 and errs[0]["message"].startswith(want)
       and errs[0]["algorithm"] == "aes-128-cbc",
       "one error line for %s: %s" % (lib, [e["message"] for e in errs]))
    ok(not [r for r in res if r["library"] == lib],
       "no result from the crashed %s" % lib)
for lib in ("nettle", "libsodium", "libtomcrypt"):
    mine = [r for r in res if r["library"] == lib]
    ok(mine and all(r["verified"] for r in mine),
       "%s, after it, still measured (%d verified results)" % (lib, len(mine)))
ok(objs[-1]["type"] == "done" and objs[-1]["results"] == len(res),
   "the guest ends with done, counting %d results" % len(res))
print("#", n)
PY
}

run crash 60
ok $? "a crashing library: the guest still exits 0"
out=$(check_output crash)
echo "$out" | grep -v '^#'
tap_n=$(echo "$out" | sed -n 's/^# //p')
tap_failed=$((tap_failed + $(echo "$out" | grep -c '^not ok')))

run hang 3
ok $? "a hanging library: the guest still exits 0"
# The guest's own elapsed time (its done line, in ns): the hanging run
# does the same work as the crashing one plus two waits of --lib-timeout
# (3 s each), so it takes at least 6 s, and at most 6 s + 2 s of noise
# longer than the crashing run.
elapsed() {
	sed -n 's/^{"type":"done",.*"elapsed_ns":\([0-9]*\),.*/\1/p' "$tmp/out.$1"
}
e_crash=$(elapsed crash)
e_hang=$(elapsed hang)
[ -n "$e_crash" ] && [ -n "$e_hang" ] && [ "$e_hang" -ge 6000000000 ] &&
	[ $((e_hang - e_crash)) -le 8000000000 ]
ok $? "and each hang costs --lib-timeout, not more: two hangs took $(( (${e_hang:-0} - ${e_crash:-0}) / 1000000 )) ms more than two crashes (6000 to 8000 ms; ${e_hang:-?} ns in all)"
out=$(check_output hang)
echo "$out" | grep -v '^#'
tap_n=$(echo "$out" | sed -n 's/^# //p')
tap_failed=$((tap_failed + $(echo "$out" | grep -c '^not ok')))

# A libgcrypt.so.20 that exports only gcry_check_version: the backend finds
# the library but not the rest of its API - reported as an error naming
# the first missing symbol, and the guest goes on.
cat >"$tmp/fakegc.c" <<'C'
const char *gcry_check_version(const char *req) { (void)req; return "0.0-fake"; }
C
mkdir -p "$tmp/gclib"
gcc -shared -fPIC -o "$tmp/gclib/libgcrypt.so.20" "$tmp/fakegc.c" 2>>"$tmp/cc.err"
ok $? "builds a libgcrypt.so.20 without most of its API"
systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" \
	--bind-ro="$tmp/gclib:/run/fakelib" \
	--setenv=LD_LIBRARY_PATH=/run/fakelib \
	-- /run/benchorch/guest --quick --min-batch-ns 20000 --repetitions 1 \
	--libs libgcrypt,nettle --algos sha-256 >"$tmp/out.gc" 2>"$tmp/err.gc"
rc=$?
python3 - "$tmp/out.gc" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
errs = [o for o in objs if o["type"] == "error" and o["library"] == "libgcrypt"]
assert len(errs) == 1 and errs[0]["message"] == "missing symbol gcry_control", errs
assert not [o for o in objs if o["type"] == "result" and o["library"] == "libgcrypt"]
assert [o for o in objs if o["type"] == "result" and o["library"] == "nettle"]
assert objs[-1]["type"] == "done"
PY
py=$?
ok $([ $rc -eq 0 ] && [ $py -eq 0 ]; echo $?) "a library missing a symbol: one error naming it, no result, the next library measured"

done_testing
