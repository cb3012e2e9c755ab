#!/bin/sh
# t1115-guest-lib-faults - a library that fails at any moment, in any way,
# costs only itself: a stand-in libmcrypt.so.4 misbehaves at the moment and
# in the way $T1115_MODE (MOMENT:WAY) names. Moments: in its constructor at
# dlopen (ctor), in its version call (version), at its first key set-up
# (keysetup, the guest's trial of each algorithm while loading), in the
# sweep of sizes (sweep: its first 1024-byte call) and in its destructor
# at exit (exit). Ways: SIGSEGV (crash), abort(), an endless loop (hang),
# _exit(0) (exit0), exit(1) (exit1), and garbage written to stdout with
# write(2) and stdio (stdout; the library then goes on). The guest runs in
# the cached Debian rootfs (read-only, the stand-in first on the library
# path) once per moment and way, with Nettle before libmcrypt and
# LibTomCrypt after it; each output goes through the orchestrator's
# validator and judge (tests/fixtures/guest-check). Expected every time:
# exit status 0, the output valid, libmcrypt's fault named with what
# happened and where (its library line `failed` when it ended before it
# reported itself), and Nettle's and LibTomCrypt's results verified.
# Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
check=$top_builddir/tests/fixtures/guest-check
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
[ -x "$guest" ] || skip_all "$guest not built"
[ -x "$check" ] || skip_all "$check not built"
require_test_image

moments="ctor version keysetup sweep exit"
ways="crash abort hang exit0 exit1 stdout"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lib" "$tmp/out"
cat >"$tmp/mcrypt.c" <<'C'
/* Stand-in libmcrypt.so.4: the generic API the guest's backend resolves,
 * 16-byte blocks and IVs, any key; misbehaves once, at the moment and in
 * the way $T1115_MODE says (MOMENT:WAY). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void misbehave(const char *moment)
{
	static int done;
	const char *m = getenv("T1115_MODE"), *way;
	size_t n = strlen(moment);

	if (done || !m || strncmp(m, moment, n) != 0 || m[n] != ':')
		return;
	done = 1;
	way = m + n + 1;
	if (strcmp(way, "crash") == 0)
		*(volatile int *)0 = 1;
	else if (strcmp(way, "abort") == 0)
		abort();
	else if (strcmp(way, "hang") == 0)
		for (;;)
			pause();
	else if (strcmp(way, "exit0") == 0)
		_exit(0);
	else if (strcmp(way, "exit1") == 0)
		exit(1);
	else if (strcmp(way, "stdout") == 0) {
		static const char g[] = "t1115 garbage\n{\"type\":\"done\"}\n";

		if (write(1, g, sizeof(g) - 1) < 0)
			return;
		printf("t1115 buffered");	/* out at exit(3), if at all */
	}
}

__attribute__((constructor)) static void ctor(void) { misbehave("ctor"); }
__attribute__((destructor)) static void dtor(void) { misbehave("exit"); }
const char *mcrypt_check_version(const char *r)
{ (void)r; misbehave("version"); return "0.0-t1115"; }
void *mcrypt_module_open(char *a, char *ad, char *m, char *md)
{ (void)a; (void)ad; (void)m; (void)md; return calloc(1, 64); }
int mcrypt_module_close(void *td) { free(td); return 0; }
int mcrypt_generic_init(void *td, void *k, int n, void *iv)
{ (void)td; (void)k; (void)n; (void)iv; misbehave("keysetup"); return 0; }
int mcrypt_generic_deinit(void *td) { (void)td; return 0; }
int mcrypt_generic(void *td, void *b, int n)
{ (void)td; (void)b; if (n == 1024) misbehave("sweep"); return 0; }
int mdecrypt_generic(void *td, void *b, int n) { return mcrypt_generic(td, b, n); }
int mcrypt_enc_get_block_size(void *td) { (void)td; return 16; }
int mcrypt_enc_get_iv_size(void *td) { (void)td; return 16; }
int mcrypt_enc_get_key_size(void *td) { (void)td; return 32; }
int *mcrypt_enc_get_supported_key_sizes(void *td, int *n) { (void)td; *n = 0; return NULL; }
void mcrypt_free(void *p) { free(p); }
C
gcc -shared -fPIC -o "$tmp/lib/libmcrypt.so.4" "$tmp/mcrypt.c" 2>"$tmp/cc.err"
ok $? "builds the stand-in libmcrypt.so.4"

# every moment and way in one container: the guest once for each
cat >"$tmp/loop.sh" <<SH
for m in $moments; do
	for w in $ways; do
		T1115_MODE=\$m:\$w /run/benchorch/guest --quick \
			--min-batch-ns 20000 --repetitions 1 --lib-timeout 1 \
			--libs nettle,libmcrypt,libtomcrypt --algos aes-128-cbc \
			>/run/t1115/out/\$m-\$w 2>/run/t1115/out/\$m-\$w.err
		echo \$? >/run/t1115/out/\$m-\$w.rc
	done
done
SH
start=$(date +%s)
systemd-nspawn -q --register=no --keep-unit --private-network \
	--read-only --console=pipe --as-pid2 -D "$rootfs" \
	--bind-ro="$guest:/run/benchorch/guest" \
	--bind-ro="$tmp/lib:/run/fakelib" --bind="$tmp:/run/t1115" \
	--setenv=LD_LIBRARY_PATH=/run/fakelib \
	-- /bin/sh /run/t1115/loop.sh >"$tmp/nspawn.out" 2>&1
ok $? "the guest ran for every moment and way ($(($(date +%s) - start)) s)"

for m in $moments; do
	for w in $ways; do
		case $w in
		crash)	what="library crashed: killed by signal 11 (Segmentation fault)" ;;
		abort)	what="library crashed: killed by signal 6 (Aborted)" ;;
		hang)	what="library hung: killed after 1 s" ;;
		exit0)	what="library process ended: exit status 0" ;;
		exit1)	what="library process ended: exit status 1" ;;
		stdout)	what="library wrote to stdout: " ;;
		esac
		case $m in
		ctor|version|keysetup) at=" while loading"; want=failed ;;
		sweep) at=" during aes-128-cbc"; want=loaded ;;
		exit) at=" at exit"; want=loaded ;;
		esac
		if [ "$w" = stdout ]; then
			at=""
			want=loaded
		fi
		o="$tmp/out/$m-$w"
		"$check" "$o" >"$o.check" 2>&1
		got=$(grep '^fault libmcrypt: ' "$o.check" | head -1)
		[ "$(cat "$o.rc" 2>/dev/null)" = 0 ] &&
			[ "$(head -1 "$o.check")" = valid ] &&
			case "$got" in
			"fault libmcrypt: $what"*"$at") true ;;
			*) false ;;
			esac &&
			grep -qx "library libmcrypt $want" "$o.check" &&
			grep -q '^verified nettle [1-9]' "$o.check" &&
			grep -q '^verified libtomcrypt [1-9]' "$o.check" &&
			[ "$(grep -c '^fault' "$o.check")" -eq 1 ]
		rc=$?
		ok $rc "$m, $w: libmcrypt $want, '${got#fault libmcrypt: }'; Nettle and LibTomCrypt verified"
		if [ $rc -ne 0 ]; then
			sed 's/^/# /' "$o.check" | head -8
			tail -3 "$o.err" | sed 's/^/# err: /'
		fi
	done
done
# the stand-in's garbage, write(2) (30 bytes) and stdio (14), counted and
# the first 40 quoted, control characters as ?
grep -qx 'fault libmcrypt: library wrote to stdout: 44 bytes, starting "t1115 garbage?{"type":"done"}?t1115 buff"' \
	"$tmp/out/version-stdout.check"
ok $? "what a library wrote to stdout is counted and quoted: $(grep '^fault libmcrypt' "$tmp/out/version-stdout.check")"
done_testing
