#!/bin/sh
# t3130-run-env - the guest's environment is benchorch's fixed allowlist
# under every runner: variables that steer a crypto library, the dynamic
# loader or malloc, exported by the caller, never reach it. First a guest
# that prints its environment, then the real guest measuring OpenSSL's
# AES-128-CTR: OPENSSL_ia32cap='~0x200000200000000' in the guest would
# turn AES-NI off and cut 16 KiB throughput by an order of magnitude, so
# the numbers with the variables set must stay those without them.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
[ -d "$TEST_STATE/images/debian-bookworm/rootfs/usr/lib" ] ||
	skip_all "no cached debian image (t3100 builds it)"
grep -qw aes /proc/cpuinfo || skip_all "the CPU has no AES-NI to mask"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
q() { sqlite3 -batch -noheader "$1" "$2"; }

# The variables a caller might have exported, each of which would change
# what the guest measures or how it loads its libraries.
poison() {
	env OPENSSL_ia32cap='~0x200000200000000' \
		OPENSSL_armcap=0 OPENSSL_CONF=/nonexistent \
		NETTLE_FAT_OVERRIDE=none GNUTLS_CPUID_OVERRIDE=0x1 \
		BOTAN_CLEAR_CPUID=aes_ni LIBGCRYPT_FORCE_FIPS_MODE=1 \
		GCRYPT_BARRETT=1 LD_LIBRARY_PATH=/nonexistent \
		LD_BIND_NOW=1 LD_DEBUG=statistics \
		GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2 MALLOC_PERTURB_=165 \
		MALLOC_CHECK_=3 BENCHORCH_T3130_MARKER=leaked "$@"
}

for runner in chroot nspawn; do
	BENCHORCH_GUEST="$top_srcdir/tests/fixtures/guest-env.sh" poison \
		"$BENCHORCH" run --distros debian --quick --runner $runner \
		--state-dir "$TEST_STATE" --db "$tmp/env-$runner.db" \
		>/dev/null 2>"$tmp/err-$runner"
	log=$(sed -n "s/.*(guest log: \(.*\.log\)).*/\1/p" "$tmp/err-$runner" | head -1)
	sed -n '/^guest environment begin$/,/^guest environment end$/p' \
		"$log" 2>/dev/null | sed '1d;$d' >"$tmp/env-$runner"
	[ -s "$tmp/env-$runner" ]
	ok $? "$runner: the environment guest ran ($log)"
	leaked=$(grep -E '^(OPENSSL|NETTLE|GNUTLS|BOTAN|LIBGCRYPT|GCRYPT|LD_|GLIBC|MALLOC|BENCHORCH)' "$tmp/env-$runner")
	[ -z "$leaked" ]
	ok $? "$runner: none of the caller's variables reach the guest${leaked:+: $(echo $leaked)}"
	# every name the guest saw is in the documented allowlist (nspawn
	# adds its own fixed container variables, lib/spawn.h; the
	# shell its PWD)
	other=$(cut -d= -f1 "$tmp/env-$runner" | grep -vxE 'PATH|LC_ALL|PWD|SHLVL|_|container|container_uuid|container_host_id|container_host_version_id|HOME|USER|LOGNAME|TERM|LANG|NOTIFY_SOCKET')
	[ -z "$other" ]
	ok $? "$runner: the guest sees only the allowlist${other:+: $(echo $other)}"
	grep -qx 'PATH=/usr/sbin:/usr/bin:/sbin:/bin' "$tmp/env-$runner" &&
		grep -qx 'LC_ALL=C' "$tmp/env-$runner"
	ok $? "$runner: PATH and LC_ALL are the fixed ones"
	if [ $runner = nspawn ]; then
		grep -qx 'guest hostname benchorch-debian-bookworm' "$log"
		ok $? "nspawn: the container is named after its image: $(grep '^guest hostname' "$log")"
	fi
	rm -f "$log"
done

# measure RUNNER NAME [poison]: OpenSSL AES-128-CTR at 16 KiB, stored in
# $tmp/NAME.db; prints the bulk encryption MB/s and the variant.
measure() {
	r=$1 name=$2
	shift 2
	${1:+poison} "$BENCHORCH" run --distros debian --quick --runner "$r" \
		--libs openssl --algos aes-128-ctr --state-dir "$TEST_STATE" \
		--db "$tmp/$name.db" >/dev/null 2>"$tmp/$name.err"
	echo "rc=$?"
	q "$tmp/$name.db" "select round(mb_per_s), variant from points_v
		where buffer_bytes = 16384 and operation = 'encrypt'
		and mode = 'bulk'"
}

for runner in chroot nspawn; do
	clean=$(measure $runner clean-$runner)
	dirty=$(measure $runner dirty-$runner poison)
	diag "$runner without: $(echo $clean); with: $(echo $dirty)"
	echo "$clean" | grep -q '^rc=0$' && echo "$dirty" | grep -q '^rc=0$'
	ok $? "$runner: both runs succeed"
	c=$(echo "$clean" | sed -n 's/^\([0-9.]*\)|.*/\1/p')
	d=$(echo "$dirty" | sed -n 's/^\([0-9.]*\)|.*/\1/p')
	[ "$(echo "$dirty" | sed -n 's/.*|//p')" = hw ]
	ok $? "$runner: stored as variant hw with the variables set"
	# AES-NI off costs a factor of ten or more at 16 KiB; two runs of the
	# same code differ by far less than a factor of two, even under load
	[ -n "$c" ] && [ -n "$d" ] &&
		awk -v c="$c" -v d="$d" 'BEGIN { exit !(d > c / 2 && d < c * 2) }'
	ok $? "$runner: the same throughput with the variables set ($d against $c MB/s)"
done
# the noisy count says what noisy means
grep -q "^benchorch: run 1: [0-9]* of [0-9]* measurements noisy (their interquartile range, relative to the median, above 3 times the median of their invocation's results or key setups)$" "$tmp/clean-chroot.err"
ok $? "a run's noisy count says what noisy means: $(grep 'measurements noisy' "$tmp/clean-chroot.err")"
# the masking itself still works, by --nohw only
nohw=$("$BENCHORCH" run --distros debian --quick --runner chroot --nohw \
	--libs openssl --algos aes-128-ctr --state-dir "$TEST_STATE" \
	--db "$tmp/nohw.db" >/dev/null 2>&1; q "$tmp/nohw.db" "select round(mb_per_s) from points_v where buffer_bytes = 16384 and operation = 'encrypt' and mode = 'bulk'")
c=$(q "$tmp/clean-chroot.db" "select round(mb_per_s) from points_v where buffer_bytes = 16384 and operation = 'encrypt' and mode = 'bulk'")
diag "chroot --nohw: $nohw MB/s"
[ -n "$nohw" ] && [ -n "$c" ] && awk -v c="$c" -v n="$nohw" 'BEGIN { exit !(n < c / 3) }'
ok $? "--nohw still masks AES-NI ($nohw against $c MB/s)"
# auto falls back to chroot when nspawn cannot start a container on this
# host, and says why, once: a stand-in systemd-nspawn that fails the way it
# does without a system bus
mkdir "$tmp/bin"
cat >"$tmp/bin/systemd-nspawn" <<'SH'
#!/bin/sh
echo "Failed to open system bus: No such file or directory (stand-in)" >&2
exit 1
SH
chmod +x "$tmp/bin/systemd-nspawn"
PATH="$tmp/bin:$PATH" "$BENCHORCH" run --distros debian --quick \
	--libs openssl --algos aes-128-ctr --state-dir "$TEST_STATE" \
	--db "$tmp/fallback.db" >/dev/null 2>"$tmp/fallback.err"
rc=$?
[ "$(grep -c "^benchorch: warning: debian: systemd-nspawn cannot start a container on this host (systemd-nspawn exited with status 1: Failed to open system bus: No such file or directory (stand-in)): running the guests under chroot instead$" "$tmp/fallback.err")" -eq 1 ]
g=$?
ok $([ $rc -eq 0 ] && [ $g -eq 0 ]; echo $?) "auto: the fallback to chroot is said on stderr with nspawn's reason (exit $rc): $(grep 'systemd-nspawn' "$tmp/fallback.err")"
[ "$(q "$tmp/fallback.db" "select group_concat(distinct runner) from invocations")" = chroot ]
ok $? "and the invocation is stored as run under chroot"
[ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(stray_guests)" ]
ok $? "no mount or process left"
done_testing
