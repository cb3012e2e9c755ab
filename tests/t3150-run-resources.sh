#!/bin/sh
# t3150-run-resources - a real run stores what each library's process cost
# besides time (guest/PROTOCOL.md, "Resources"): CPU time, peak resident
# set and the footprint after loading, per library and invocation, and the
# peak per algorithm; `results --resources` shows them. The bounds come
# from what the run itself measured, never from a fixed timing.
. "${top_srcdir:-.}/tests/lib.sh"
skip_in_distcheck
require_root_tools
require_test_image
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

"$BENCHORCH" run --distros debian --quick --runner nspawn \
	--libs openssl,libgcrypt,nettle,libsodium,botan \
	--algos aes-128-gcm,aes-256-cbc,blowfish-128-cbc,sha-256,chacha20 \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "a quick run of five libraries exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

nloaded=$(q "select count(*) from library_loads where status = 'loaded'")
[ "$nloaded" -gt 0 ] &&
[ "$(q "select count(*) from library_loads ll join library_resources lr
	on lr.invocation_id = ll.invocation_id and lr.library = ll.name
	where ll.status = 'loaded' and lr.user_us is not null
	and lr.sys_us is not null and lr.maxrss_kib is not null
	and lr.footprint_kib is not null and lr.rss_before_load_kib is not null")" -eq "$nloaded" ]
ok $? "every loaded library of every invocation ($nloaded) has CPU times, a peak and a footprint"

# (A library with nothing to measure in a round - no algorithm of the
# round's group that it supports - may end before the kernel has counted
# a microsecond of it.)
measured="select distinct r.invocation_id, l.name from results r
	join libraries l on l.id = r.library_id"
nmeasured=$(q "select count(*) from ($measured)")
[ "$(q "select count(*) from library_resources lr where (lr.invocation_id, lr.library)
	in ($measured) and lr.user_us + lr.sys_us > 0")" -eq "$nmeasured" ]
ok $? "the CPU time of each library's process that measured something ($nmeasured) is above 0"

# The libraries' processes ran one after another within the invocation:
# their CPU time together fits in the time the host measured for it.
ninv=$(q "select count(*) from invocations")
[ "$ninv" -gt 0 ] &&
[ "$(q "select count(*) from invocations i where (select sum(user_us + sys_us)
	from library_resources lr where lr.invocation_id = i.id) * 1000 <= i.wall_ns")" -eq "$ninv" ]
ok $? "the libraries' CPU time together stays within the invocation's wall time"

# Each child inherits the guest's four buffers of 1 MiB + 64 bytes,
# written before it forks (guest/PROTOCOL.md, "Buffers"): 4096 KiB are
# resident before any library is loaded.
[ "$(q "select count(*) from library_resources
	where rss_before_load_kib >= 4096 and footprint_kib > rss_before_load_kib")" -eq "$nloaded" ]
ok $? "the resident set before loading holds the guest's 4 MiB of buffers, and loading adds to it"

# The peak comes from the kernel's high-water mark, kept from per-CPU
# counters that may lag an exact reading by up to one batch per CPU
# (lib/percpu_counter.c: batch = max(32, 2 x CPUs) pages): the footprint,
# read exactly from /proc/self/statm, may exceed the peak by that much.
ncpu=$(getconf _NPROCESSORS_ONLN)
page_kib=$(( $(getconf PAGESIZE) / 1024 ))
batch=$(( 2 * ncpu > 32 ? 2 * ncpu : 32 ))
slack=$(( batch * ncpu * page_kib ))
[ "$(q "select count(*) from library_resources
	where maxrss_kib >= footprint_kib - $slack")" -eq "$nloaded" ]
ok $? "peak >= footprint (within the kernel counters' $slack KiB)"

[ "$(q "select count(*) from algorithm_resources ar join library_resources lr
	on lr.invocation_id = ar.invocation_id and lr.library = ar.library
	where ar.peak_kib < 4096 or ar.peak_kib > lr.maxrss_kib + $slack
	or ar.raise_kib is null or ar.raise_kib > ar.peak_kib - lr.rss_before_load_kib")" -eq 0 ] &&
[ "$(q "select count(*) from algorithm_resources")" -gt 0 ] &&
[ "$(q "select count(*) from (select distinct invocation_id, library from algorithm_resources)")" -eq "$nmeasured" ]
ok $? "each library that measured something has per-algorithm peaks, none above its process's peak, each raise within it"

"$BENCHORCH" results --resources --db "$db" >"$tmp/table" 2>"$tmp/err"
rc=$?
row=$(q "select (lr.user_us / 1000) || ' +' || (lr.sys_us / 1000) from library_resources lr
	join invocations i on i.id = lr.invocation_id where lr.library = 'openssl' and i.round = 1")
set -- $row
grep -Eq "^ *1 +debian:bookworm +hw +1 +openssl +OpenSSL [^ ]+ .*loaded +$1 +${2#+} " "$tmp/table" &&
[ "$(grep -c ' loaded ' "$tmp/table")" -eq "$nloaded" ]
ok $(( rc + $? )) "results --resources shows a row per loaded library, openssl's CPU time in ms ($1, ${2#+})"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

"$BENCHORCH" results --resources --format csv --lib nettle --db "$db" >"$tmp/csv"
[ "$(sed -n 2p "$tmp/csv" | cut -d, -f6,9,10,11,12,13 | tr -d '\r')" = \
  "$(q "select 'nettle,' || user_us || ',' || sys_us || ',' || maxrss_kib || ',' ||
	rss_before_load_kib || ',' || footprint_kib from library_resources lr
	join invocations i on i.id = lr.invocation_id
	where lr.library = 'nettle' order by i.round limit 1")" ]
ok $? "csv carries the stored figures (microseconds, KiB)"

"$BENCHORCH" results --resources --algo aes-128-gcm --format json --db "$db" >"$tmp/json"
[ "$(grep -c '"peak_kib"' "$tmp/json")" -eq "$(q "select count(*) from algorithm_resources where algorithm = 'aes-128-gcm'")" ] &&
[ "$(q "select count(*) from algorithm_resources where algorithm = 'aes-128-gcm'")" -gt 0 ]
ok $? "with --algo, json has one object per library that ran it"

"$BENCHORCH" results --resources --op encrypt --db "$db" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "takes no --summary, --op or --size" "$tmp/err"
ok $? "--resources with --op is a usage error"

"$BENCHORCH" report --db "$db" -o "$tmp/report.html" 2>"$tmp/err"
cpu=$(q "select printf('%.3f', sum(user_us + sys_us) / 1e6) from library_resources where library = 'openssl'")
peak=$(q "select printf('%.1f', max(maxrss_kib) / 1024.0) from library_resources where library = 'openssl'")
grep -q "<section id=\"resources\">" "$tmp/report.html" &&
grep -Eq "<tr><td>1</td><td>debian:bookworm</td><td>hw</td><td>openssl</td><td>OpenSSL [^<]*</td><td class=\"num\">[0-9]+</td><td class=\"num\">$cpu</td><td class=\"num\">$peak</td>" "$tmp/report.html"
ok $? "the report has a resource table: openssl's CPU time summed over the rounds ($cpu s), its largest peak ($peak MiB)"

# Under chroot (the fallback) the guest reads /proc too.
"$BENCHORCH" run --no-confirm --distros debian --quick --runner chroot --libs nettle \
	--algos sha-256 --state-dir "$TEST_STATE" --db "$db" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] &&
[ "$(q "select count(*) from library_resources lr join invocations i on i.id = lr.invocation_id
	where i.run_id = 2 and i.runner = 'chroot' and lr.footprint_kib > 0 and lr.maxrss_kib > 0")" -gt 0 ]
ok $? "under --runner chroot the footprint and peak are stored too"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"

done_testing
