#!/bin/sh
# t1120-run-library-faults - a library that fails inside an image costs only
# its own results, and the run says so: in a copy of the cached Debian
# image, libmcrypt.so.4 is replaced by a stand-in that crashes (SIGSEGV) in
# its first mcrypt_generic, or spins forever there when /etc/t1120-hang
# exists in the image, or crashes in its version call, before the library
# has reported itself, when /etc/t1120-version does; libsodium.so.23 by one that needs a library the
# image does not have; and wolfSSL's files are removed. Expected: exit
# status 1, one line on stderr per failed library (distribution, library,
# what happened), the loader's message stored with the load that failed,
# wolfSSL 'absent' with no message, Nettle's results stored in the same
# invocation (marked partial), and `results` naming the failures. A hang
# under a short --timeout is killed by the guest after half of it, alone;
# a crash before the library reported itself costs it alone too.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
src="$TEST_STATE/images/debian-bookworm"
[ -d "$src/rootfs/usr/lib" ] || skip_all "no cached debian image (t3100 builds it)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
state="$tmp/state"
mkdir -p "$state/images"
# (without systemd-nspawn's lock files: a guest that runs in the cached
# image meanwhile creates and removes one beside its rootfs)
tar -C "$src/.." --exclude='.#*' -cf - debian-bookworm |
	tar -C "$state/images" -xf -
ok $? "a copy of the cached Debian image"
lib="$state/images/debian-bookworm/rootfs/usr/lib/x86_64-linux-gnu"
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

cat >"$tmp/mcrypt.c" <<'C'
/* Stand-in libmcrypt.so.4: the generic API the guest's backend resolves,
 * then SIGSEGV (or an endless loop, when /etc/t1120-hang exists) in the
 * first mcrypt_generic; SIGSEGV in mcrypt_check_version when
 * /etc/t1120-version exists. */
#include <stdlib.h>
#include <unistd.h>
void *mcrypt_module_open(char *a, char *ad, char *m, char *md)
{ (void)a; (void)ad; (void)m; (void)md; return calloc(1, 64); }
int mcrypt_module_close(void *td) { free(td); return 0; }
int mcrypt_generic_init(void *td, void *k, int n, void *iv)
{ (void)td; (void)k; (void)n; (void)iv; return 0; }
int mcrypt_generic_deinit(void *td) { (void)td; return 0; }
int mcrypt_generic(void *td, void *b, int n)
{
	(void)td; (void)b; (void)n;
	if (access("/etc/t1120-hang", F_OK) == 0)
		for (;;)
			;
	return *(volatile int *)0;
}
int mdecrypt_generic(void *td, void *b, int n) { return mcrypt_generic(td, b, n); }
int mcrypt_enc_get_block_size(void *td) { (void)td; return 16; }
int mcrypt_enc_get_iv_size(void *td) { (void)td; return 16; }
int mcrypt_enc_get_key_size(void *td) { (void)td; return 32; }
int *mcrypt_enc_get_supported_key_sizes(void *td, int *n) { (void)td; *n = 0; return NULL; }
void mcrypt_free(void *p) { free(p); }
const char *mcrypt_check_version(const char *r)
{
	(void)r;
	if (access("/etc/t1120-version", F_OK) == 0)
		return (const char *)(long)*(volatile int *)0;
	return "0.0-t1120";
}
C
echo 'int t1120_missing(void) { return 1; }' >"$tmp/missing.c"
cat >"$tmp/sodium.c" <<'C'
/* Stand-in libsodium.so.23 that needs libt1120-missing.so.1, which the
 * image does not have: the file is there, the loader cannot load it. */
int t1120_missing(void);
int sodium_init(void) { return t1120_missing(); }
C
gcc -shared -fPIC -o "$tmp/libmcrypt.so.4" "$tmp/mcrypt.c" &&
	gcc -shared -fPIC -Wl,-soname,libt1120-missing.so.1 \
		-o "$tmp/libt1120-missing.so.1" "$tmp/missing.c" &&
	gcc -shared -fPIC -o "$tmp/libsodium.so.23" "$tmp/sodium.c" \
		-L"$tmp" -l:libt1120-missing.so.1
ok $? "builds the stand-in libraries"
# replace the files the sonames point at (the copy, not the cache)
rm -f "$lib/libmcrypt.so.4.4.8" "$lib/libsodium.so.23.3.0" \
	"$lib"/libwolfssl.so.35*
cp "$tmp/libmcrypt.so.4" "$lib/libmcrypt.so.4.4.8" &&
	cp "$tmp/libsodium.so.23" "$lib/libsodium.so.23.3.0"
ok $? "puts them in the copy, wolfSSL removed"
[ -f "$src/rootfs/usr/lib/x86_64-linux-gnu/libwolfssl.so.35" ] &&
	! cmp -s "$src/rootfs/usr/lib/x86_64-linux-gnu/libmcrypt.so.4" "$lib/libmcrypt.so.4.4.8"
ok $? "the cached image itself is untouched"

# run NAME [OPTIONS...]: a short run (0.05 ms batches) of the four libraries on AES-128-CBC
# (--no-confirm: the second run would otherwise measure again what looks
# changed against the first, and the faults here are not changes)
run() {
	name=$1
	shift
	"$BENCHORCH" run --distros debian --min-batch-ms 0.05 \
		--libs libmcrypt,libsodium,wolfssl,nettle --algos aes-128-cbc \
		--no-confirm --state-dir "$state" --db "$db" "$@" >"$tmp/out.$name" \
		2>"$tmp/err.$name"
}

# 1. crash, broken dependency, absent
run crash
rc=$?
sed 's/^/# /' "$tmp/err.crash" | grep -v 'running the guest' | head -12
[ $rc -eq 1 ]
ok $? "crash: exit status 1 (got $rc)"
# every point is measured in three invocations (rounds; a run without
# --quick, which is one pass): each says so
[ "$(grep -c "^benchorch: debian: round [123] of 3: library 'libmcrypt' failed: library crashed: killed by signal 11 (Segmentation fault) during aes-128-cbc" "$tmp/err.crash")" -eq 3 ]
ok $? "crash: stderr names the distribution, libmcrypt and the crash, in every round"
[ "$(grep -c "^benchorch: debian: round [123] of 3: library 'libsodium' failed: cannot load libsodium.so.23: libt1120-missing.so.1: cannot open shared object file" "$tmp/err.crash")" -eq 3 ]
ok $? "crash: stderr names libsodium and the loader's message, in every round"
! grep -q "wolfssl\|nettle" "$tmp/err.crash"
ok $? "crash: nothing on stderr about the absent wolfSSL or the working Nettle"
run=$(q "select max(id) from runs where id not in (select run_id from confirmations)")
[ "$(q "select status from runs where id = $run")" = done ] &&
	[ "$(q "select count(*) || ' ' || group_concat(distinct status || ' ' || partial) from invocations where run_id = $run")" = "3 ok 1" ]
ok $? "crash: run done, its three invocations stored and marked partial"
[ "$(q "select distinct l.status || '|' || coalesce(l.message, '') from library_loads l join invocations i on i.id = l.invocation_id where i.run_id = $run and l.name = 'libsodium'")" = \
  "failed|cannot load libsodium.so.23: libt1120-missing.so.1: cannot open shared object file: No such file or directory" ]
ok $? "crash: libsodium stored as failed with the loader's message"
[ "$(q "select distinct l.status || '|' || coalesce(l.message, 'none') from library_loads l join invocations i on i.id = l.invocation_id where i.run_id = $run and l.name = 'wolfssl'")" = "absent|none" ]
ok $? "crash: wolfSSL stored as absent, with no message"
[ "$(q "select count(*) from guest_errors e join invocations i on i.id = e.invocation_id where run_id = $run and library = 'libmcrypt' and message like 'library crashed: killed by signal 11%'")" -eq 3 ]
ok $? "crash: the crash stored with each invocation"
[ "$(q "select count(*) from results_v where run_id = $run and library = 'nettle'")" -gt 0 ] &&
	[ "$(q "select count(*) from results_v where run_id = $run and library <> 'nettle'")" -eq 0 ]
ok $? "crash: Nettle's results stored, none of the failed libraries'"
"$BENCHORCH" results --db "$db" >/dev/null 2>"$tmp/res.err"
rc=$?
grep -q "^benchorch: warning: run $run: library 'libmcrypt' failed in debian (round 1): library crashed: killed by signal 11" "$tmp/res.err" &&
	grep -q "^benchorch: warning: run $run: library 'libsodium' failed in debian (round 1): cannot load libsodium.so.23: libt1120-missing.so.1" "$tmp/res.err"
g=$?
ok $([ $rc -eq 0 ] && [ $g -eq 0 ]; echo $?) "results: exit 0 and names both failed libraries: $(head -2 "$tmp/res.err" | tr '\n' ' ')"

"$BENCHORCH" report --db "$db" --run $run -o "$tmp/report.html" 2>/dev/null &&
	grep -q "^<li>run $run: library &#39;libmcrypt&#39; failed in debian (round 1): library crashed: killed by signal 11" "$tmp/report.html" &&
	grep -q "^<li>run $run: library &#39;libsodium&#39; failed in debian (round 1): cannot load libsodium.so.23" "$tmp/report.html"
ok $? "report lists both failed libraries"

# 2. a hang under a short --timeout: the guest kills libmcrypt after
# half of it (10 s) and Nettle is measured in the time that is left
touch "$state/images/debian-bookworm/rootfs/etc/t1120-hang"
start=$(date +%s)
run hang --timeout 20
rc=$?
took=$(($(date +%s) - start))
sed 's/^/# /' "$tmp/err.hang" | grep -v 'running the guest' | head -12
[ $rc -eq 1 ]
ok $? "hang: exit status 1 (got $rc)"
[ "$(grep -c "^benchorch: debian: round [123] of 3: library 'libmcrypt' failed: library hung: killed after 10 s during aes-128-cbc" "$tmp/err.hang")" -eq 3 ]
ok $? "hang: stderr says libmcrypt hung and was killed after 10 s, in every round"
run=$(q "select max(id) from runs where id not in (select run_id from confirmations)")
[ "$(q "select status from runs where id = $run")" = done ] &&
	[ "$(q "select count(*) || ' ' || group_concat(distinct status || ' ' || partial) from invocations where run_id = $run")" = "3 ok 1" ] &&
	[ "$(q "select count(*) from results_v where run_id = $run and library = 'nettle'")" -gt 0 ]
ok $? "hang: every invocation is stored, partial, with Nettle's results"
# each invocation ends before its own 20 s limit (the guest gives up on
# libmcrypt at half of it), so the three take less than three times the
# limit
[ "$(q "select count(*) from invocations where run_id = $run and wall_ns < 20000000000")" -eq 3 ] &&
	[ "$took" -lt 60 ]
ok $? "hang: each invocation ended before its own 20 s limit (the run took ${took} s)"

# 3. a crash in the version call, before libmcrypt reported itself: the
# guest says libmcrypt failed, and the rest of the run is stored
rm -f "$state/images/debian-bookworm/rootfs/etc/t1120-hang"
touch "$state/images/debian-bookworm/rootfs/etc/t1120-version"
run version
rc=$?
sed 's/^/# /' "$tmp/err.version" | grep -v 'running the guest' | head -12
[ $rc -eq 1 ]
ok $? "version: exit status 1 (got $rc)"
[ "$(grep -c "^benchorch: debian: round [123] of 3: library 'libmcrypt' failed: library crashed: killed by signal 11 (Segmentation fault) while loading (the other libraries' results are kept)\$" "$tmp/err.version")" -eq 3 ] &&
	! grep -q "not reported\|invalid\|skipp" "$tmp/err.version"
ok $? "version: stderr names libmcrypt's crash while loading, in every round, and nothing else went wrong"
run=$(q "select max(id) from runs where id not in (select run_id from confirmations)")
[ "$(q "select status from runs where id = $run")" = done ] &&
	[ "$(q "select count(*) || ' ' || group_concat(distinct status || ' ' || partial) from invocations where run_id = $run")" = "3 ok 1" ] &&
	[ "$(q "select count(*) from results_v where run_id = $run and library = 'nettle'")" -gt 0 ]
ok $? "version: every invocation is stored, partial, with Nettle's results"
[ "$(q "select count(*) || '|' || group_concat(distinct l.status || '|' || coalesce(l.message, '')) from library_loads l join invocations i on i.id = l.invocation_id where i.run_id = $run and l.name = 'libmcrypt'")" = \
  "3|failed|library crashed: killed by signal 11 (Segmentation fault) while loading" ]
ok $? "version: libmcrypt stored as failed with what happened, in each invocation"
"$BENCHORCH" results --db "$db" --run $run >/dev/null 2>"$tmp/res.version"
[ "$(grep -c "^benchorch: warning: run $run: library 'libmcrypt' failed in debian (round [123]): library crashed: killed by signal 11 (Segmentation fault) while loading\$" "$tmp/res.version")" -eq 3 ]
ok $? "version: results names libmcrypt's crash once per round: $(grep -c libmcrypt "$tmp/res.version") lines"
[ -z "$(mounts_under "$state")" ]
ok $? "no mount left"
done_testing
