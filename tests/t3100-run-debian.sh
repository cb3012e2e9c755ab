#!/bin/sh
# t3100-run-debian - the whole path on a real Debian rootfs: debootstrap
# (cached between test runs), the guest under systemd-nspawn and under
# chroot, the database checked against the rootfs's own dpkg; the run in
# rounds, its order repeated from its seed, the CPU state recorded (the
# machine's own, then a fixture sysfs tree with a powersave governor).
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
rootfs="$TEST_STATE/images/debian-bookworm/rootfs"

"$BENCHORCH" run --distros debian --quick --runner nspawn --seed 12345 \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "run --distros debian --runner nspawn --seed 12345 exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

sed -n '/^debian:bookworm: /,/^  algorithm /p' "$tmp/out" | grep -Eq '[ :]openssl 3\.[0-9]+\.[0-9]+(,|$)'
ok $? "the summary names the distribution and OpenSSL's short version"
nalg=$(sqlite3 -batch -noheader "$db" "select count(distinct algorithm) from results_v where mode = 'bulk' and operation in ('encrypt', 'hash') and buffer_bytes in (16, 16384)")
grep -Eq '^  algorithm +fastest@16K +MB/s +cyc/B@16K +runner-up +slowest +fastest@16B +MB/s$' "$tmp/out" &&
	[ "$(grep -E '^  [a-z0-9-]+ ' "$tmp/out" | grep -vc '^  algorithm ')" -eq "$nalg" ] &&
	[ "$(grep -v '^Every point: ' "$tmp/out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 120 ] &&
	grep -q "^Every point: benchorch results --run 1; charts: benchorch report --run 1 -o report.html (both with --db '$db')$" "$tmp/out"
ok $? "and a row per algorithm ($nalg), at most 120 columns wide (the closing line aside: it names the database), with the fastest library at 16 KiB and at 16 B"

q() { sqlite3 -batch -noheader "$db" "$1"; }

[ "$(q "select status from runs")" = done ]
ok $? "the run is stored as done"
n=$(q "select count(*) from points_v where library = 'openssl'")
[ "$n" -eq 334 ] &&
	[ "$(q "select count(*) from results_v where library = 'openssl'")" -eq 334 ] &&
	[ "$(q "select count(*) from points_v where invocations <> 1")" -eq 0 ]
ok $? "334 OpenSSL points ((21 ciphers x 2 ops + 6 hashes) x (4 bulk sizes + 3 one-shot sizes), but no bulk ChaCha20 below its 64-byte block: 2 fewer), each measured by one invocation (--quick: one pass): $n"
# by default the libraries of a point take turns: a pair against the
# fastest for every other library of a point, no canary
[ "$(q "select count(*) from canaries")" -eq 0 ] &&
	[ "$(q "select count(*) from (select invocation_id i, algorithm a, operation o, mode m, buffer_bytes b, count(*) n from results group by 1, 2, 3, 4, 5 having n >= 2) x where (select count(*) from pairs p where p.invocation_id = x.i and p.algorithm = x.a and p.operation = x.o and p.mode = x.m and p.buffer_bytes = x.b) <> x.n - 1")" -eq 0 ] &&
	[ "$(q "select count(*) from pairs_v")" -gt 0 ]
ok $? "the libraries took turns: at every point of two libraries or more, a pair for each but the fastest ($(q "select count(*) from pairs_v") pairs), no canary"
[ "$(q "select count(distinct library) from results_v")" -eq 10 ]
ok $? "results from the ten libraries of the guest's backends"
[ "$(q "select count(*) from results_v where mode = 'oneshot' and buffer_bytes > 16384")" -eq 0 ] &&
[ "$(q "select count(*) from results_v where mode = 'bulk' and buffer_bytes = 262144")" -gt 0 ] &&
[ "$(q "select count(*) from results_v where buffer_bytes = 1048576")" -eq 0 ]
ok $? "bulk at every size (--quick: up to 256 KiB), one-shot up to 16 KiB"
[ "$(q "select count(*) from keysetups_v where ns_per_key > 0 and verified = 1")" -gt 0 ]
ok $? "key setup is stored, in ns per key, verified"
[ "$(q "select count(*) from crosschecks where agrees = 0")" -eq 0 ] &&
[ "$(q "select count(distinct algorithm) from crosschecks where agrees = 1")" -eq 32 ]
ok $? "the cross-library check agrees for all 32 algorithms"
[ "$(q "select count(distinct name) from library_loads where length(build_id) = 40")" -eq 10 ] &&
[ "$(q "select count(*) from library_loads where status = 'loaded'")" -eq $((10 * 4)) ]
ok $? "every loaded library's build-id is stored, all ten loaded in each of the 4 invocations"
[ "$(q "select distinct variant from results_v")" = hw ]
ok $? "the run is stored as variant hw"
[ "$(q "select count(*) from results_v where verified = 0")" -eq 0 ]
ok $? "every result is verified"
[ "$(q "select count(*) from results r where repetitions <> 6 or repetitions <> (select count(*) from samples s where s.result_id = r.id)")" -eq 0 ] &&
[ "$(q "select count(*) from keysetups k where repetitions <> (select count(*) from keysetup_samples s where s.keysetup_id = k.id)")" -eq 0 ] &&
[ "$(q "select count(*) from samples")" -eq "$((6 * $(q "select count(*) from results")))" ]
ok $? "every result and key setup has its raw samples, as many as its repetitions (6 rounds of blocks with --quick)"
[ "$(q "select count(*) from results where not (min_ns <= p25_ns and p25_ns <= median_ns and median_ns <= p75_ns and cv >= 0 and reruns = 0)")" -eq 0 ]
ok $? "quartiles in order, no re-runs with --quick"
# noisy: a point whose relative interquartile range is above 3 times its
# invocation's median one, both ways (not the guest's fixed 2 % CV)
wrong=$(q "with r as (select 'r' kind, invocation_id inv, noisy,
		(p75_ns - p25_ns) * 1.0 / median_ns w from results
		union all select 'k', invocation_id, noisy,
		(p75_ns - p25_ns) * 1.0 / median_ns from keysetups),
	k as (select kind, inv, w, row_number() over
		(partition by kind, inv order by w) rn,
		count(*) over (partition by kind, inv) cnt from r),
	m as (select kind, inv, avg(w) med from k
		where rn in ((cnt + 1) / 2, (cnt + 2) / 2) group by kind, inv)
	select count(*) from r join m using (kind, inv)
	where (r.noisy = 1 and r.w <= 3 * m.med * 0.999)
	   or (r.noisy = 0 and r.w > 3 * m.med * 1.001)")
noisy=$(q "select sum(noisy) from results")
all=$(q "select count(*) from results")
ok $([ "$wrong" = 0 ] && [ "$noisy" -lt $((all / 4)) ]; echo $?) \
	"noisy: $noisy of $all results, exactly those (and key setups) above 3 x their invocation's median spread ($wrong not)"
[ "$(q "select count(*) from curves where points >= 3 and cycles_per_byte > 0")" -eq "$(q "select count(*) from (select distinct invocation_id, library_id, algorithm, operation, mode from results)")" ]
ok $? "every curve is fitted and has cycles per byte: $(q "select count(*) from curves")"
q "select clock_start_hz, clock_end_hz, guest_elapsed_ns, host_elapsed_ns from invocations" | {
	IFS='|' read -r cs ce ge he
	[ "$cs" -ge 100000000 ] && [ "$cs" -le 100000000000 ] && [ "$ce" -ge 100000000 ] &&
	[ "$ge" -gt 0 ] && [ "$he" -gt 0 ] &&
	[ $(( (he > ge ? he - ge : ge - he) * 20 )) -le $((he + 400000000)) ]
}
ok $? "the measured clocks and both elapsed times are stored, and agree: $(q "select clock_start_hz || ' ' || clock_end_hz || ' ' || coalesce(tsc_hz, '-') || ' ' || guest_elapsed_ns || ' ' || host_elapsed_ns from invocations")"
pk="'x25519', 'x448', 'ed25519', 'ecdh-p256', 'ecdsa-p256', 'rsa-2048', 'rsa-3072', 'rsa-pss-2048'"
kdf="'pbkdf2-sha256', 'hkdf-sha256', 'scrypt', 'argon2id'"
[ "$(q "select count(distinct algorithm) from kats where ok = 1 and algorithm not in ($pk, $kdf)")" -eq 32 ] &&
[ "$(q "select count(distinct algorithm) from kats where ok = 1 and algorithm in ($pk)")" -eq 8 ] &&
[ "$(q "select count(distinct algorithm) from kats where ok = 1 and algorithm in ($kdf)")" -eq 4 ] &&
[ "$(q "select count(*) from kats where ok = 0")" -eq 0 ]
ok $? "all 32 algorithms, the 8 public-key ones and the 4 key derivation functions passed their known-answer tests in every library (failed: $(q "select group_concat(distinct library || ' ' || algorithm) from kats where ok = 0"))"
# key derivation in bookworm: PBKDF2 in 7 libraries, HKDF in 6, scrypt in
# 5, Argon2id in 3 (OpenSSL 3.0 has none), every one verified
[ "$(q "select algorithm || ' ' || count(distinct library) from kdf_v group by algorithm order by algorithm" | tr '\n' ' ')" = "argon2id 3 hkdf-sha256 6 pbkdf2-sha256 7 scrypt 5 " ] &&
	[ "$(q "select count(*) from kdf_v where verified = 0 or ops_per_s <= 0")" -eq 0 ] &&
	"$BENCHORCH" results --db "$db" --kdf --format csv | grep -q '^[0-9]*,debian,bookworm,.*,argon2id,'
ok $? "the run stores its key derivations in kdf_v, all verified, and results --kdf shows them: $(q "select algorithm || ' ' || count(distinct library) || '/' || sum(verified) from kdf_v group by algorithm" | tr '\n' ' ')"
[ "$(q "select group_concat(round) from (select distinct round from pubkey_v order by round)")" = "4" ] &&
[ "$(q "select count(*) from pubkey_v where verified = 0")" -eq 0 ] &&
[ "$(q "select count(distinct library) from pubkey_v where algorithm = 'x25519' and verified = 1")" -eq 7 ]
ok $? "a --quick run without --algos measures the public-key algorithms in its last round, every one verified, X25519 in 7 libraries, wolfSSL's among them: $(q "select group_concat(distinct library) from pubkey_v where algorithm = 'x25519' and verified = 1")"
want=$(chroot "$rootfs" dpkg-query -W -f '${Version}' libssl3)
got=$(q "select distinct package_version from results_v where library = 'openssl'")
[ -n "$want" ] && [ "$want" = "$got" ]
ok $? "stored OpenSSL package version is dpkg's inside the rootfs ($got)"
q "select library_path, library_version from results_v where library = 'openssl' limit 1" | grep -q '^/usr/lib/x86_64-linux-gnu/libcrypto.so.3|OpenSSL 3'
ok $? "the resolved soname path and the library's own version are stored"
[ "$(q "select count(*) from (select * from results_v limit 5)")" -eq 5 ]
ok $? "sqlite3 'select * from results_v limit 5' gives rows"
[ "$(q "select cpu_model from results_v limit 1")" = "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" ]
ok $? "results are keyed by the CPU model"
q "select digest from images" | grep -Eq '^sha256:[0-9a-f]{64}$'
ok $? "the image digest is stored"
[ "$(q "select distinct runner from invocations")" = nspawn ]
ok $? "the invocations ran under nspawn"

# The run in rounds, in an order drawn from its seed.
[ "$(q "select seed from runs")" = 12345 ]
ok $? "the seed given is stored with the run"
# --quick: one pass (orchestrator/run/plan.h), each algorithm in one of
# 4 rounds
[ "$(q "select group_concat(round, ' ') from (select round from invocations order by id)")" = "1 2 3 4" ] &&
[ "$(q "select count(*) from invocations where status = 'ok' and seed is not null and algorithms like '%,%,%,%,%,%,%,%' and algorithms not like '%,%,%,%,%,%,%,%,%'")" -eq 4 ] &&
[ "$(q "select count(distinct seed) from invocations")" -eq 4 ]
ok $? "4 rounds, one invocation each, 8 algorithms each, each with its own guest seed"
q "select algorithms from invocations" | tr ',' '\n' | sort >"$tmp/algos"
[ "$(wc -l <"$tmp/algos")" -eq 32 ] && [ "$(sort -u "$tmp/algos" | wc -l)" -eq 32 ] &&
[ "$(q "select count(distinct algorithm) from results_v")" -eq 32 ]
ok $? "the rounds cover the 32 algorithms, each once"
[ "$(q "select count(*) from invocations i where (select count(distinct algorithm) from results r where r.invocation_id = i.id) <> length(i.algorithms) - length(replace(i.algorithms, ',', '')) + 1")" -eq 0 ]
ok $? "each invocation measured exactly its round's algorithms"
grep -q "^benchorch: run 1: seed 12345 ('--seed 12345' repeats its order), 4 rounds x 1 distribution, guests pinned to cpu [0-9]" "$tmp/err"
ok $? "stderr names the seed and the rounds: $(grep '^benchorch: run 1:' "$tmp/err")"

# The CPU state: the machine's own, as its sysfs shows it (or unknown).
# The CPU chosen (lib/cpuchoice.h): a performance core of a
# hybrid part, then the highest cpuinfo_max_freq, then the highest number.
cpu=$(python3 - <<'PY'
import os
def rd(p):
    try:
        return open(p).read().strip()
    except OSError:
        return None
def cpus(l):
    s = set()
    for part in l.split(","):
        a, _, b = part.partition("-")
        s.update(range(int(a), int(b or a) + 1))
    return s
c = {i for i in os.sched_getaffinity(0)
     if rd("/sys/devices/system/cpu/cpu%d/online" % i) != "0"}
p = rd("/sys/devices/cpu_core/cpus")
if p and c & cpus(p):
    c &= cpus(p)
f = {i: int(rd("/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq" % i) or 0) for i in c}
c = {i for i in c if f[i] == max(f.values())}
print(max(c))
PY
)
[ "$(q "select pinned_cpu from runs")" = "$cpu" ] &&
[ "$(q "select distinct cpu from invocations")" = "$cpu" ] &&
q "select cpu_choice from runs" | grep -q "^cpu $cpu: .*highest-numbered of those; SMT siblings "
ok $? "every guest is pinned to cpu $cpu, stored with the run and the reason ($(q "select cpu_choice from runs"))"
gov=/sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor
if [ -r "$gov" ]; then want=$(cat "$gov"); else want=NULL; fi
[ "$(q "select coalesce(governor, 'NULL') from runs")" = "$want" ]
ok $? "the governor is sysfs's ($want: NULL when the kernel shows no cpufreq)"
if grep -qw hypervisor /proc/cpuinfo; then want=1; else want=0; fi
[ "$(q "select virtualized from runs")" = "$want" ]
ok $? "virtualized says what the CPU flags say ($want; hypervisor $(q "select coalesce(hypervisor, 'unknown') from runs"))"
grep -q "^benchorch: cpu $cpu: governor .*, boost .*, scaling frequency .*, hypervisor " "$tmp/err"
ok $? "stderr shows the CPU state: $(grep "^benchorch: cpu" "$tmp/err")"
[ "$(q "pragma integrity_check")" = ok ]
ok $? "integrity_check is ok"

# The second run: chroot, the same seed, and the CPU state read from a
# fixture sysfs tree (an intel_pstate machine, powersave governor) with
# the pinned CPU linked to its cpufreq policy.
cp -R "$top_srcdir/tests/fixtures/sysfs-intel" "$tmp/sysfs"
chmod -R u+w "$tmp/sysfs"
if [ "$cpu" != 1 ]; then
	mkdir -p "$tmp/sysfs/devices/system/cpu/cpu$cpu"
	ln -s ../cpufreq/policy1 "$tmp/sysfs/devices/system/cpu/cpu$cpu/cpufreq"
fi
created=$(sed -n 's/.*"created_at": *"\([^"]*\)".*/\1/p' "$TEST_STATE/images/debian-bookworm/image.json" | head -1)
start=$(date +%s)
BENCHORCH_SYSFS="$tmp/sysfs" "$BENCHORCH" run --no-confirm --distros debian:bookworm --quick --runner chroot --seed 12345 \
	--state-dir "$TEST_STATE" --db "$db" --format json >"$tmp/out2" 2>"$tmp/err2"
rc=$?
ok $rc "a second run, under chroot, exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err2"
created2=$(sed -n 's/.*"created_at": *"\([^"]*\)".*/\1/p' "$TEST_STATE/images/debian-bookworm/image.json" | head -1)
[ -n "$created" ] && [ "$created" = "$created2" ] && [ "$(q "select count(*) from images")" -eq 1 ]
ok $? "the cached image is reused, not rebuilt"
[ "$(q "select distinct runner from invocations where run_id = 2")" = chroot ]
ok $? "the second run's invocations ran under chroot"
# order RUN: every invocation's round, algorithms, guest seed and
# libraries in the order they ran, and the algorithms in the order their
# first result came, one line each.
order() {
	q "select i.round || ' ' || i.algorithms || ' ' || i.seed || ' ' ||
		(select group_concat(name, ',') from (select name from library_loads l
		 where l.invocation_id = i.id order by position)) || ' ' ||
		(select group_concat(algorithm, ',') from (select algorithm, min(r.id) as f
		 from results r where r.invocation_id = i.id group by algorithm order by f))
	   from invocations i where i.run_id = $1 order by i.id"
}
order 1 >"$tmp/order1"
order 2 >"$tmp/order2"
[ -s "$tmp/order1" ] && cmp -s "$tmp/order1" "$tmp/order2"
ok $? "the same seed repeats the order: rounds, algorithms, guest seeds, libraries"
[ "$(cut -d' ' -f4 "$tmp/order1" | sort -u | wc -l)" -gt 1 ]
ok $? "the libraries run in another order from one invocation to the next"
[ "$(q "select governor || ' ' || boost || ' ' || freq_before_khz || ' ' || freq_after_khz from runs where id = 2")" = "powersave 1 2800000 2800000" ]
ok $? "the fixture's CPU state is stored: powersave, turbo on, 2800000 kHz before and after"
grep -q "^benchorch: warning: the scaling governor of cpu $cpu is 'powersave', not 'performance'" "$tmp/err2" &&
	q "select cpu_warnings from runs where id = 2" | grep -q "'powersave', not 'performance'" &&
	[ "$(q "select count(*) from runs where cpu_warnings like '%governor%'")" -eq 1 ]
ok $? "a warning on stderr and on the run for a governor other than performance"
# The guests' measured clocks: a spread above 10 % is a warning (this
# machine's own clock decides whether there is one); none for clocks
# within it.
q "select id, min(a), max(a) from (select run_id as id, clock_start_hz as a
	from invocations union all select run_id, clock_end_hz from invocations)
	group by id" | {
	bad=0
	while IFS='|' read -r id lo hi; do
		w=$(q "select count(*) from runs where id = $id and cpu_warnings like '%core clock measured on cpu%'")
		if [ $(( (hi - lo) * 100 > lo * 10 )) -eq 1 ]; then
			[ "$w" -eq 1 ] || bad=1
		else
			[ "$w" -eq 0 ] || bad=1
		fi
	done
	exit $bad
}
ok $? "a measured clock spread above 10 % is a warning on the run, and only then"
n1=$(q "select count(*) from results_v where run_id = 1")
[ "$(q "select count(*) from results_v where run_id = 2 and verified = 1")" -eq "$n1" ]
ok $? "chroot gives the same $n1 verified results"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
keys = ["distro", "release", "library", "library_version", "package_version",
        "algorithm", "operation", "variant", "mb_per_s_16", "mb_per_s_1024",
        "mb_per_s_16384", "mb_per_s_262144", "mb_per_s_1048576", "verified"]
assert d and all(list(r) == keys for r in d)
assert all(r["distro"] == "debian" and r["release"] == "bookworm" for r in d)
assert all(r["verified"] in (0, 1) for r in d) and any(r["verified"] == 1 for r in d)
assert all(v is None or isinstance(v, float) and v > 0 for r in d for k, v in r.items() if k.startswith("mb_per_s_"))
assert any(isinstance(r["mb_per_s_16384"], float) for r in d)' "$tmp/out2"
ok $? "--format json prints a JSON array of rows with machine names and types"

[ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(stray_guests)" ]
ok $? "nothing stays mounted under the state directory, no guest left"

"$BENCHORCH" results --db "$db" --format csv >"$tmp/csv"
ok $? "results --format csv exits 0"
head -1 "$tmp/csv" | grep -q '^run_id,distro,release,library,'
ok $? "with a header line"
p2=$(q "select count(*) from points_v where run_id = 2")
[ "$(wc -l <"$tmp/csv")" -eq $((p2 + 1)) ] && [ "$p2" -eq "$n1" ]
ok $? "and the latest run's $p2 points, one row each (its $n1 results: --quick measures each in one invocation)"
"$BENCHORCH" results --db "$db" --run 1 | grep -q 'aes-256-gcm'
ok $? "results --run 1 shows the first run"

if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --trace-children=no \
		"$BENCHORCH" run --no-confirm --distros debian --quick --runner chroot \
		--state-dir "$TEST_STATE" --db "$db" >/dev/null 2>"$tmp/vg"
	ok $? "a whole run under valgrind exits 0 with no memory error"
	grep -v '^benchorch: ' "$tmp/vg" | sed 's/^/# /' | head -30
	seed=$(q "select seed from runs where id = 3")
	[ -n "$seed" ] && grep -q "^benchorch: run 3: seed $seed " "$tmp/vg"
	ok $? "without --seed, a random seed is drawn, stored and printed ($seed)"
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite \
		"$BENCHORCH" results --db "$db" --all --format json >/dev/null 2>"$tmp/vg"
	ok $? "results on real data under valgrind: no memory error"
else
	skip_point "needs valgrind" "a whole run under valgrind exits 0 with no memory error"
	skip_point "needs valgrind" "without --seed, a random seed is drawn, stored and printed"
	skip_point "needs valgrind" "results on real data under valgrind: no memory error"
fi

# The timing options reach the guest measuring --sequential: 2 ms
# batches, 7 samples, no re-run, a canary around every curve.
"$BENCHORCH" run --distros debian --quick --runner chroot --libs openssl,nettle \
	--sequential \
	--algos sha-256 --min-batch-ms 2 --repetitions 7 --max-reruns 0 \
	--max-cv 5e-1 --state-dir "$TEST_STATE" --db "$tmp/timing.db" \
	>/dev/null 2>"$tmp/err"
rc=$?
tq() { sqlite3 -batch -noheader "$tmp/timing.db" "$1"; }
ok $([ $rc -eq 0 ] && [ "$(tq "select count(*) from results")" -gt 0 ] &&
     [ "$(tq "select count(*) from results where repetitions <> 7 or reruns <> 0")" -eq 0 ] &&
     [ "$(tq "select ns from samples order by ns limit 1 offset (select count(*) / 2 from samples)")" -ge 1600000 ] &&
     [ "$(tq "select count(*) from results where median_ns >= 2000000")" -gt 0 ] &&
     [ "$(tq "select count(*) from samples")" -eq "$((7 * $(tq "select count(*) from results")))" ]
     echo $?) "--min-batch-ms 2 --repetitions 7 --max-reruns 0: 7 samples per result, batches calibrated to 2 ms (their median at least 1.6 ms), no re-run ($rc)"
[ "$(tq "select count(*) from results where noisy <> (cv > 0.5)")" = 0 ] &&
	grep -q "measurements noisy (the coefficient of variation of their samples above --max-cv 0.5)" "$tmp/err"
ok $? "--max-cv 5e-1: a fixed limit the user gave, noisy = cv > 0.5, and said so"
[ "$(tq "select count(*) from (select invocation_id, library_id, algorithm, operation, mode from results group by 1, 2, 3, 4, 5)")" -eq "$(tq "select count(*) from canaries")" ] &&
	[ "$(tq "select count(*) from canaries c where not exists (select 1 from results r where r.invocation_id = c.invocation_id and r.library_id = c.library_id and r.algorithm = c.algorithm and r.operation = c.operation and r.mode = c.mode)")" -eq 0 ] &&
	[ "$(tq "select count(*) from canaries where before_ns <= 0 or after_ns <= 0 or noise < 0.03")" -eq 0 ] &&
	[ "$(tq "select count(*) from canaries")" -gt 0 ] && [ "$(tq "select count(*) from pairs")" -eq 0 ]
ok $? "--sequential: a contention canary stored for every curve of every invocation ($(tq "select count(*) from canaries"), $(tq "select count(*) from canaries where moved = 1") moved twice), no pair"

# libmcrypt has ciphers only: asking it for SHA-256 would measure nothing,
# and is refused before anything runs (lib/library-support.h).
"$BENCHORCH" run --distros debian --quick --runner chroot --libs libmcrypt \
	--algos sha-256 --state-dir "$TEST_STATE" --db "$tmp/refused.db" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "sha-256" "$tmp/err" &&
     [ ! -e "$tmp/refused.db" ]; echo $?) \
	"a selection no library supports is refused before anything runs ($rc: $(head -1 "$tmp/err"))"
# A library absent from the image (a copy without libmcrypt): a run that
# measured nothing is a failure, not an empty success.
mkdir -p "$tmp/nomc/images"
cp -al "$TEST_IMAGE" "$tmp/nomc/images/debian-bookworm" &&
	rm -f "$tmp/nomc/images/debian-bookworm/rootfs/usr/lib/x86_64-linux-gnu/libmcrypt.so"*
none() {
	"$BENCHORCH" run --distros debian --quick --runner chroot --libs libmcrypt \
		--algos aes-128-cbc --state-dir "$tmp/nomc" --db "$tmp/none.db" "$@"
}
none >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 1 ] && [ ! -s "$tmp/out" ] &&
     grep -q "^benchorch: run 1 measured nothing: " "$tmp/err"; echo $?) \
	"a run that measures nothing exits 1 and says so ($rc)"
[ "$(sqlite3 "$tmp/none.db" "select status || ' ' || error from runs where id = 1")" = \
	"failed measured nothing: the libraries asked for are absent from the images or support none of the algorithms asked for" ]
ok $? "and is stored as failed, with the reason"
"$BENCHORCH" results --db "$tmp/none.db" --run 1 >/dev/null 2>"$tmp/err"
ok $([ $? -eq 1 ] && grep -q "run 1 is stored as failed (measured nothing: " "$tmp/err"; echo $?) \
	"results of that run says why it has none"
none --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 1 ] && python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$tmp/out"; echo $?) \
	"with --format json it prints an empty array, still exit 1 ($rc)"
[ -z "$(mounts_under "$tmp/nomc")" ]
ok $? "nothing left mounted under the copy"

done_testing
