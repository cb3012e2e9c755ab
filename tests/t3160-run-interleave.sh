#!/bin/sh
# t3160-run-interleave - `benchorch run --interleave` on the cached Debian
# image: the guests measure the libraries taking turns and the run stores
# what they print: every result one set of --quick's 6 blocks, and per
# invocation and point one pairs_v row per library but the fastest,
# against the library with the lowest median ns per byte there, its
# ratio inside its interval and tie exactly where the interval holds 1;
# no canary; noisy marks a point whose rounds spread far more than its
# invocation's typical point. The public-key operations and KDFs of the
# run are points too: each pkresult and kdfresult of 6 blocks, one
# pairs_v row (mode pubkey or kdf) per library but the fastest there,
# sane; rsa-2048's keygen still timed in each library alone (3 keys),
# with no pair. --interleave with --tools is a usage error.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

"$BENCHORCH" run --distros debian --quick --interleave --no-confirm \
	--seed 4242 --libs openssl,libgcrypt,nettle,libsodium \
	--algos aes-128-gcm,chacha20,sha-256,x25519,rsa-2048,pbkdf2-sha256 \
	--state-dir "$TEST_STATE" \
	--db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "run --interleave exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err" | tail -5

n=$(q "select count(*) from results_v where run_id = 1")
ok $([ "${n:-0}" -gt 50 ] && [ "$(q "select count(*) from results_v
	where run_id = 1 and repetitions != 6")" = 0 ]; echo $?) \
	"$n results, each of 6 blocks (--quick's rounds)"
np=$(q "select count(*) from pairs_v where run_id = 1")
ok $([ "${np:-0}" -gt 30 ]; echo $?) "$np pairs stored"
# per invocation and point: results with two or more libraries have one
# pair row per library but one
bad=$(q "with pts as (select r.invocation_id inv, r.algorithm, r.operation,
		r.mode, r.buffer_bytes, count(*) n
	from results r group by 1, 2, 3, 4, 5),
	prs as (select invocation_id inv, algorithm, operation, mode,
		buffer_bytes, count(*) n, count(distinct versus_id) v
	from pairs group by 1, 2, 3, 4, 5)
	select count(*) from pts left join prs using (inv, algorithm,
		operation, mode, buffer_bytes)
	where (pts.n > 1 and (prs.n is null or prs.n != pts.n - 1 or prs.v != 1))
	   or (pts.n = 1 and prs.n is not null)")
ok $([ "$bad" = 0 ]; echo $?) "one pair per library but the fastest at every point ($bad wrong)"
# the reference is the fastest: no library of the point has a lower
# median ns per byte than versus
bad=$(q "select count(*) from pairs p
	join results rv on rv.invocation_id = p.invocation_id
		and rv.library_id = p.versus_id and rv.algorithm = p.algorithm
		and rv.operation = p.operation and rv.mode = p.mode
		and rv.buffer_bytes = p.buffer_bytes
	join results rl on rl.invocation_id = p.invocation_id
		and rl.library_id = p.library_id and rl.algorithm = p.algorithm
		and rl.operation = p.operation and rl.mode = p.mode
		and rl.buffer_bytes = p.buffer_bytes
	where rl.median_ns * 1.0 / rl.calls_per_batch
	    < rv.median_ns * 1.0 / rv.calls_per_batch")
ok $([ "$bad" = 0 ]; echo $?) "versus has the lowest median at its point ($bad not)"
bad=$(q "select count(*) from pairs_v where run_id = 1 and (low > ratio
	or ratio > high or tie != (low <= 1 and high >= 1) or rounds != 6)")
ok $([ "$bad" = 0 ]; echo $?) "every ratio inside its interval, tie where it holds 1 ($bad wrong)"
ok $([ "$(q "select count(*) from canaries")" = 0 ]; echo $?) "no canary stored"
# noisy: a point's rounds spread above 3 times its invocation's median
# spread - a few per cent of the points, not most of them as the fixed
# CV limit would
noisy=$(q "select sum(noisy) from results")
bad=$(q "with r as (select invocation_id inv, noisy,
		(p75_ns - p25_ns) * 1.0 / median_ns w from results),
	k as (select inv, w, row_number() over (partition by inv order by w) rn,
		count(*) over (partition by inv) cnt from r),
	m as (select inv, avg(w) med from k
		where rn in ((cnt + 1) / 2, (cnt + 2) / 2) group by inv)
	select count(*) from r join m using (inv)
	where r.noisy = 1 and r.w <= 3 * m.med * 0.999")
ok $([ "$noisy" -lt $((n / 4)) ] && [ "$bad" = 0 ] && [ -n "$bad" ]; echo $?) \
	"noisy: $noisy of $n points, each above 3 x its invocation's median spread ($bad not)"
grep -q "measurements noisy (their interquartile range, relative to the median, above 3 times the median of their invocation's results or key setups)" "$tmp/err"
ok $? "the run says what noisy means here: $(grep 'measurements noisy' "$tmp/err")"

# public key and key derivation, interleaved
bad=$(q "select count(*) from pubkey_results where operation != 'keygen'
	and repetitions != 6")
np=$(q "select count(*) from pubkey_results where operation != 'keygen'")
nk=$(q "select count(*) from kdf_results where repetitions = 6")
ok $([ "${np:-0}" -ge 10 ] && [ "$bad" = 0 ] && [ "${nk:-0}" -ge 2 ] &&
	[ "$(q "select count(*) from kdf_results where repetitions != 6")" = 0 ]
	echo $?) "$np public-key results and $nk KDF results, each of 6 blocks ($bad not)"
nkg=$(q "select count(*) from pubkey_results where algorithm = 'rsa-2048'
	and operation = 'keygen' and repetitions = 3")
nsg=$(q "select count(*) from pubkey_results where algorithm = 'rsa-2048'
	and operation = 'sign'")
ok $([ "${nkg:-0}" -ge 2 ] && [ "$nkg" = "$nsg" ]; echo $?) \
	"rsa-2048 keygen timed alone ($nkg results of 3 keys, $nsg signing)"
# the points of both kinds: (invocation, mode, algorithm, operation, ns
# per operation) of every library
pts="with x as (select invocation_id inv, library_id lib, 'pubkey' mode,
		algorithm, operation, median_ns * 1.0 / calls_per_batch t
	from pubkey_results where operation != 'keygen'
	union all select invocation_id, library_id, 'kdf', algorithm, 'derive',
		median_ns * 1.0 / calls_per_batch from kdf_results)"
bad=$(q "$pts, n as (select inv, mode, algorithm, operation, count(*) n
		from x group by 1, 2, 3, 4),
	p as (select invocation_id inv, mode, algorithm, operation, count(*) n,
		count(distinct versus_id) v from pairs
		where mode in ('pubkey', 'kdf') group by 1, 2, 3, 4)
	select count(*) from n left join p using (inv, mode, algorithm, operation)
	where (n.n > 1 and (p.n is null or p.n != n.n - 1 or p.v != 1))
	   or (n.n = 1 and p.n is not null)")
npk=$(q "select count(*) from pairs_v where run_id = 1 and mode = 'pubkey'")
nkd=$(q "select count(*) from pairs_v where run_id = 1 and mode = 'kdf'")
ok $([ "$bad" = 0 ] && [ "${npk:-0}" -ge 6 ] && [ "${nkd:-0}" -ge 2 ]; echo $?) \
	"$npk public-key and $nkd KDF pairs, one per library but the fastest at each point ($bad wrong)"
bad=$(q "$pts select count(*) from pairs p
	join x v on v.inv = p.invocation_id and v.lib = p.versus_id
		and v.mode = p.mode and v.algorithm = p.algorithm
		and v.operation = p.operation
	join x l on l.inv = p.invocation_id and l.mode = p.mode
		and l.algorithm = p.algorithm and l.operation = p.operation
	where l.t < v.t")
bad2=$(q "select count(*) from pairs_v where mode in ('pubkey', 'kdf') and
	(buffer_bytes != 1 or low > ratio or ratio > high or low > 1 or
	 tie != (low <= 1 and high >= 1) or rounds != 6 or operation = 'keygen')")
ok $([ "$bad" = 0 ] && [ "$bad2" = 0 ]; echo $?) \
	"versus the fastest there, ratios inside their intervals, low <= 1, tie where it holds 1, no keygen ($bad, $bad2 wrong)"

# results --pubkey and --kdf say a tie as "= LIBRARY" in column tie: the
# rows (library, algorithm, operation) on either side of a tied pair, no
# other
"$BENCHORCH" results --pubkey --run 1 --db "$db" >"$tmp/pk.table" 2>&1 &&
	"$BENCHORCH" results --kdf --run 1 --db "$db" >"$tmp/kdf.table" 2>&1
rc=$?
want=$(q "select count(*) from (select library, algorithm, operation
	from pairs_v where run_id = 1 and mode in ('pubkey', 'kdf') and tie = 1
	union select versus, algorithm, operation from pairs_v
	where run_id = 1 and mode in ('pubkey', 'kdf') and tie = 1)")
got=$(cat "$tmp/pk.table" "$tmp/kdf.table" | grep -c ' = [a-z]')
ok $([ $rc -eq 0 ] && head -1 "$tmp/pk.table" | grep -q 'ops/s  *tie ' &&
	head -1 "$tmp/kdf.table" | grep -q 'ops/s  *tie ' &&
	[ "$got" = "$want" ]; echo $?) \
	"results --pubkey and --kdf mark the $want rows tied in a pair with = ($got)"

"$BENCHORCH" run --tools --interleave --db "$tmp/t.db" >/dev/null 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 2 ] && grep -q -- "--interleave" "$tmp/err"; echo $?) \
	"--tools --interleave: a usage error (exit $rc): $(head -1 "$tmp/err")"
done_testing
