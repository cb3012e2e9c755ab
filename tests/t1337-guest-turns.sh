#!/bin/sh
# t1337-guest-turns - the guest's turns in a duet (--duet, guest/turns.h,
# guest/PROTOCOL.md "Duet") in the real Debian bookworm rootfs under
# systemd-nspawn: it does no work before its first byte of token on
# stdin; it prints one `turn` line per byte and waits at each; end of file
# on stdin lets it run to its end alone; two guests with other libraries
# (one of them lacking an algorithm) end the same number of turns, so that
# the k-th turns of two images pair up. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
guest=$top_builddir/guest/benchorch-guest
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
[ -x "$guest" ] || skip_all "$guest not built"
require_test_image

tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# guest ARGS...: the guest in the rootfs, stdin from ours.
guest() {
	systemd-nspawn -q --register=no --keep-unit --private-network \
		--read-only --console=pipe --as-pid2 -D "$rootfs" \
		--bind-ro="$guest:/run/benchorch/guest" \
		-- /run/benchorch/guest "$@"
}
args="--quick --rounds 3 --min-batch-ns 100000 --seed 5"

# turns FILE: the turn lines in FILE.
turns() {
	grep -c '"type":"turn"' "$1"
}

# The token by hand: a FIFO held open by us.
mkfifo "$tmp/tok"
guest --duet $args --libs nettle --algos sha-256 <"$tmp/tok" \
	>"$tmp/out.hand" 2>"$tmp/err.hand" &
pid=$!
exec 7>"$tmp/tok"
sleep 1
hellos=$(grep -c '"type":"hello"' "$tmp/out.hand")
libs=$(grep -c '"type":"library"' "$tmp/out.hand")
[ "$hellos" -eq 1 ] && [ "$libs" -eq 0 ]
ok $? "before its first byte the guest said hello and nothing more (hello $hellos, library lines $libs)"
printf 'ttt' >&7
wait_for 30 '[ "$(turns "$tmp/out.hand")" -ge 3 ]'
sleep 1
n=$(turns "$tmp/out.hand")
[ "$n" -eq 3 ] && ! grep -q '"type":"done"' "$tmp/out.hand"
ok $? "three bytes, three turns, then it waits ($n turn lines, no done)"
exec 7>&-
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 0 ] && grep -q '"type":"done"' "$tmp/out.hand" &&
	[ "$(turns "$tmp/out.hand")" -eq 3 ]
ok $? "at the end of its stdin it runs to its end alone, no more turns (status $rc, $(turns "$tmp/out.hand") turns)"

# As many turns whatever the libraries: libsodium has no aes-128-cbc.
algos=sha-256,aes-128-cbc
yes t | guest --duet $args --libs nettle,openssl --algos $algos \
	>"$tmp/out.a" 2>"$tmp/err.a"
ok $? "a guest with nettle and openssl, a byte for every turn: exit 0"
yes t | guest --duet $args --libs libsodium --algos $algos \
	>"$tmp/out.b" 2>"$tmp/err.b"
ok $? "a guest with libsodium alone: exit 0"
na=$(turns "$tmp/out.a")
nb=$(turns "$tmp/out.b")
# 1 at the start; per algorithm 1, and per point 1 + 3 rounds
[ "$na" -eq "$nb" ] && [ "$na" -gt 8 ]
ok $? "both end as many turns ($na and $nb)"
seq 1 "$na" >"$tmp/want"
sed -n 's/.*"type":"turn","n":\([0-9]*\).*/\1/p' "$tmp/out.a" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
ok $? "turns numbered 1 to $na in order"
! grep -q '"type":"turn"' "$tmp/out.seq" 2>/dev/null &&
	guest $args --interleave --libs nettle --algos sha-256 </dev/null \
		>"$tmp/out.seq" 2>&1 && [ "$(turns "$tmp/out.seq")" -eq 0 ]
ok $? "without --duet no turn lines"
[ -z "$(stray_guests)" ]
ok $? "no guest left behind"
done_testing
