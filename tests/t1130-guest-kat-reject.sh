#!/bin/sh
# t1130-guest-kat-reject - the guest's known-answer tests reject a wrong
# library, end to end: a stand-in libsodium.so.23 (tests/fixtures/
# standin-libsodium.c) that passes every call through to the real one but
# (1) gets ChaCha20's ciphertext wrong, or (2) lets the AEADs' decryption
# accept a forged tag, is put in place of the soname link of a copy of the
# cached Debian image, imported as an image of its own; a run on it
# stores the failed known-answer tests, and nothing of those algorithms
# as verified, while the algorithms the stand-in leaves alone stay
# verified (so it is the fault that is caught, not the stand-in).
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
require_test_image
libdir=usr/lib/x86_64-linux-gnu
real=$(readlink "$TEST_IMAGE/rootfs/$libdir/libsodium.so.23") ||
	skip_all "no libsodium.so.23 link in $TEST_IMAGE/rootfs/$libdir"
tmp=$(mktemp -d /tmp/t1130-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

# The cached rootfs without its libsodium.so.23 link (the stand-in takes
# its place, and loads the real file the link named).
tar -C "$TEST_IMAGE/rootfs" --numeric-owner --exclude="./$libdir/libsodium.so.23" \
	--exclude='./dev/*' -cf "$tmp/base.tar" .
ok $? "a copy of the cached rootfs without libsodium.so.23 ($real kept)"

# try FAULT BAD-ALGOS GOOD-ALGOS: build the stand-in with FAULT, import
# the image kat-FAULT, run libsodium on BAD and GOOD algorithms, check.
try() {
	fault=$1 bad=$2 good=$3
	name=kat-$(echo "$fault" | tr 'A-Z_' 'a-z-')
	mkdir -p "$tmp/$name/$libdir"
	gcc -shared -fPIC -std=c11 -Wall -Wextra -Werror -DSTANDIN_$fault \
		-DREAL_LIB="\"/$libdir/$real\"" -Wl,-soname,libsodium.so.23 \
		-o "$tmp/$name/$libdir/libsodium.so.23" \
		"$top_srcdir/tests/fixtures/standin-libsodium.c" -ldl 2>"$tmp/cc.err"
	ok $? "$name: builds the stand-in libsodium.so.23 $(head -1 "$tmp/cc.err")"
	cp "$tmp/base.tar" "$tmp/$name.tar" &&
		tar -C "$tmp/$name" --numeric-owner --owner=0 --group=0 \
			-rf "$tmp/$name.tar" "./$libdir/libsodium.so.23" &&
		"$BENCHORCH" images import --state-dir "$tmp/state" "$name" \
			"$tmp/$name.tar" >/dev/null 2>"$tmp/err"
	ok $? "$name: imported as an image: $(tail -1 "$tmp/err")"
	rm -f "$tmp/$name.tar"
	"$BENCHORCH" run --distros "$name" --quick --libs libsodium \
		--algos "$bad,$good" --state-dir "$tmp/state" --db "$db" \
		>/dev/null 2>"$tmp/run.err"
	rc=$?
	run=$(q "select max(id) from runs")
	[ $rc -eq 0 ] && grep -q "results of run $run are NOT verified" "$tmp/run.err"
	ok $? "$name: the run ends (exit $rc) warning that results are not verified"
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/run.err" | tail -5
	[ "$(q "select count(*) from library_loads l join invocations i on i.id = l.invocation_id
		where i.run_id = $run and l.name = 'libsodium' and l.status = 'loaded'")" -gt 0 ] &&
		[ "$(q "select distinct library_version from results_v where run_id = $run")" = 1.0.18-standin ]
	ok $? "$name: the guest loaded the stand-in (version 1.0.18-standin)"
	for a in $(echo "$bad" | tr , ' '); do
		w="i.run_id = $run and k.library = 'libsodium' and k.algorithm = '$a'"
		nk=$(q "select count(*) from kats k join invocations i on i.id = k.invocation_id where $w")
		nf=$(q "select count(*) from kats k join invocations i on i.id = k.invocation_id where $w and k.ok = 0")
		[ "$nk" -gt 0 ] && [ "$nf" -gt 0 ]
		ok $? "$name: $a fails its known-answer test ($nf of $nk vectors)"
		w="run_id = $run and library = 'libsodium' and algorithm = '$a'"
		nr=$(q "select count(*) from results_v where $w")
		nv=$(q "select count(*) from results_v where $w and verified = 1")
		ns=$(q "select count(*) from keysetups_v where $w and verified = 1")
		[ "$nr" -gt 0 ] && [ "$nv" -eq 0 ] && [ "$ns" -eq 0 ]
		ok $? "$name: $a is stored, none of it verified ($nr results, $nv verified; $ns verified key setups)"
	done
	for a in $(echo "$good" | tr , ' '); do
		w="run_id = $run and library = 'libsodium' and algorithm = '$a'"
		nr=$(q "select count(*) from results_v where $w")
		nv=$(q "select count(*) from results_v where $w and verified = 1")
		[ "$nr" -gt 0 ] && [ "$nv" -eq "$nr" ]
		ok $? "$name: $a, which the stand-in leaves alone, is verified ($nv of $nr results)"
	done
}

try WRONG_CIPHER chacha20 salsa20,chacha20-poly1305,sha-256
# AES-256-GCM only where libsodium offers it (AES-NI and PCLMUL).
gcm=
grep -qw aes /proc/cpuinfo && grep -qw pclmulqdq /proc/cpuinfo && gcm=,aes-256-gcm
try FORGED_TAG "chacha20-poly1305$gcm" chacha20,sha-256
[ -z "$(mounts_under "$tmp")" ]
ok $? "nothing left mounted"

done_testing
