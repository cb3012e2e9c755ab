#!/bin/sh
# t3155-run-pubkey - public-key results end to end on the cached Debian
# image: `run --algos` with x25519, ed25519, ecdh-p256 and ecdsa-p256
# stores them (pubkey_v, verified, plausible operations per second, one
# invocation each: --quick is one pass; libsodium has no P-256), the
# end of the run says so, `results --pubkey` prints them as a table, csv
# and json, and a run without public-key names in --algos stores none;
# with --interleave they are measured after the interleaved points.
# `run --algos rsa-2048,rsa-3072,rsa-pss-2048` alone measures the RSA
# signatures (verified, each confirmed by the other library) and ends
# with their table on stdout. A run of public-key and key derivation
# functions alone prints them with --format json (one object) and csv;
# libsodium's argon2id, the only one (OpenSSL 3.0 has none), is not
# verified and the run says why. A run with a cipher prints the summary
# as before. `run --algos x448` measures X448 in OpenSSL and wolfSSL.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"

"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--algos aes-128-ctr,x25519,ed25519,ecdh-p256,ecdsa-p256 \
	--libs openssl,libsodium,nettle \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out" 2>"$tmp/err"
ok $? "run with aes-128-ctr and the four public-key algorithms succeeds"
q() { sqlite3 -batch -noheader "$db" "$1"; }

n=$(q "select count(*) from pubkey_v where run_id = 1")
[ "$n" = 25 ]
ok $? "pubkey_v: 3 libraries x 5 operations (25519) and 2 x 5 (P-256), one invocation (--quick: one pass; $n rows)"
[ "$(q "select group_concat(distinct library) from (select library from pubkey_v order by library)")" = "libsodium,nettle,openssl" ]
ok $? "pubkey_v names the three libraries"
[ "$(q "select count(*) from pubkey_v where verified = 1 and kat_ok = 1 and rejected_by = '' and confirmed_by <> ''")" = "$n" ]
ok $? "every public-key result is verified, its known answers passed, confirmed and rejected by none"
[ "$(q "select count(*) from pubkey_v where ops_per_s between 1e3 and 1e7")" = "$n" ]
ok $? "ops_per_s plausible: $(q "select min(round(ops_per_s)) || ' .. ' || max(round(ops_per_s)) from pubkey_v")"
[ "$(q "select count(*) from pubkey_v v join pubkey_results r on r.id = v.pubkey_result_id
	where abs(v.ops_per_s * v.median_ns / v.calls_per_batch - 1e9) > 1e7
	or json_array_length(r.samples_ns) < r.repetitions")" = 0 ]
ok $? "ops_per_s follows from median_ns and calls_per_batch, samples kept"
[ "$(q "select group_concat(x, ' ') from (select distinct algorithm || ':' || operation as x from pubkey_v order by x)")" = \
	"ecdh-p256:derive ecdh-p256:import ecdsa-p256:import ecdsa-p256:sign ecdsa-p256:verify ed25519:import ed25519:sign ed25519:verify x25519:derive x25519:import" ]
ok $? "the operations of each algorithm"
[ "$(q "select count(distinct distro || release || package_version || library_version || variant) from pubkey_v")" = 3 ] &&
[ "$(q "select count(*) from pubkey_v where distro = 'debian' and release = 'bookworm' and variant = 'hw' and package_version <> '' and cpu_model is not null")" = "$n" ]
ok $? "keyed by distribution, release, CPU, library and package version"
[ "$(q "select count(*) from invocations where run_id = 1 and algorithms = 'aes-128-ctr'")" = 1 ] &&
[ "$(q "select group_concat(round) from (select distinct round from pubkey_v where run_id = 1 order by round)")" = "1" ]
ok $? "the run's one round (--quick: one pass, one algorithm) measured them (invocations.algorithms is the guest's --algos)"
grep -q "run 1: public key: 25 results (x25519, ed25519, ecdsa-p256, ecdh-p256) of 3 libraries, 25 verified" "$tmp/err"
ok $? "the end of the run says so: $(grep 'public key' "$tmp/err")"
[ "$(q "select count(*) from results_v where run_id = 1 and algorithm = 'aes-128-ctr'")" -gt 0 ]
ok $? "the symmetric results are stored beside them"

"$BENCHORCH" results --db "$db" --pubkey >"$tmp/table"
ok $? "results --pubkey (table)"
head -1 "$tmp/table" | grep -q 'library.*algorithm.*operation.*ops/s.*verified' &&
[ "$(grep -c ' yes ' "$tmp/table")" = 25 ] &&
grep -q ' ecdsa-p256 ' "$tmp/table"
ok $? "the table: a header and 25 verified rows, P-256 among them"
"$BENCHORCH" results --db "$db" --pubkey --format csv >"$tmp/csv"
ok $? "results --pubkey --format csv"
head -1 "$tmp/csv" | grep -q '^run_id,distro,release,variant,library,library_version,package,package_version,algorithm,operation,ops_per_s,ns_per_op,verified,invocations' &&
[ "$(tail -n +2 "$tmp/csv" | grep -c ',1,1,')" = 25 ]
ok $? "csv: the columns, 25 rows verified from one invocation"
"$BENCHORCH" results --db "$db" --algo x25519 --lib nettle --format json >"$tmp/json"
ok $? "results --algo x25519 --lib nettle --format json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==2 and all(r["library"]=="nettle" and r["algorithm"]=="x25519" and r["verified"]==1 and 1e3<=r["ops_per_s"]<=1e7 for r in d), d' "$tmp/json"
ok $? "json: nettle's two X25519 operations"
"$BENCHORCH" results --db "$db" --algo ecdsa-p256 --format json >"$tmp/json2"
ok $? "results --algo ecdsa-p256 --format json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==6 and sorted({r["library"] for r in d})==["nettle","openssl"] and all(r["verified"]==1 for r in d), d' "$tmp/json2"
ok $? "json: OpenSSL's and Nettle's three ECDSA operations, verified"
"$BENCHORCH" results --db "$db" --pubkey --op encrypt >/dev/null 2>"$tmp/uerr"
[ $? -eq 2 ] && grep -q -- '--pubkey takes no' "$tmp/uerr"
ok $? "results --pubkey --op is a usage error"

"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--algos aes-128-ctr --libs openssl --state-dir "$TEST_STATE" \
	--db "$db" >/dev/null 2>"$tmp/err2"
ok $? "a run without public-key names in --algos"
[ "$(q "select count(*) from pubkey_v where run_id = 2")" = 0 ] &&
! grep -q 'public key' "$tmp/err2"
ok $? "stores no public-key result and says nothing about them"
[ "$(q "select count(*) from invocations where run_id = 2 and algorithms = 'aes-128-ctr'")" = 1 ]
ok $? "its invocations measured aes-128-ctr alone"

# --interleave: the pairs of the symmetric points, and the public-key
# algorithms and key derivation functions after them, library after
# library, in the first round (key derivation) and the last (public key:
# --quick is one pass, here of one round)
"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--interleave --algos aes-128-ctr,x25519,pbkdf2-sha256 \
	--libs openssl,nettle --state-dir "$TEST_STATE" --db "$db" \
	>"$tmp/out3" 2>"$tmp/err3"
ok $? "run --interleave with a cipher, x25519 and pbkdf2-sha256"
grep -q '^Every point: benchorch results --run 3' "$tmp/out3" &&
	! grep -q 'Public key\|Key derivation\|^Again' "$tmp/out3" &&
	grep -q 'run 3: public key: 4 results' "$tmp/err3" &&
	grep -q 'run 3: key derivation: 2 results' "$tmp/err3"
ok $? "with a cipher, the end of the run is the summary, the public-key and key derivation lines on stderr"
[ "$(q "select count(*) from pairs_v where run_id = 3 and algorithm = 'aes-128-ctr'")" -gt 0 ] &&
	[ "$(q "select count(*) from pubkey_v where run_id = 3 and verified = 1")" = 4 ] &&
	[ "$(q "select count(*) from kdf_v where run_id = 3 and verified = 1")" = 2 ] &&
	! grep -q 'not measured' "$tmp/err3"
ok $? "pairs of aes-128-ctr, x25519 (2 libraries x 2 operations, one invocation) and pbkdf2-sha256 (2 x 1) stored and verified: $(q "select count(*) from pubkey_v where run_id = 3") $(q "select count(*) from kdf_v where run_id = 3")"

"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--algos rsa-2048,rsa-3072,rsa-pss-2048 --libs openssl,nettle \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out4" 2>"$tmp/err4"
ok $? "run --algos rsa-2048,rsa-3072,rsa-pss-2048 succeeds"
sed 's/^/# /' "$tmp/out4"
head -1 "$tmp/out4" | grep -q '^Public key: operations per second$' &&
	sed -n 2p "$tmp/out4" | grep -q '^run .*library.*algorithm.*operation.*ops/s.*verified' &&
	[ "$(grep -c '^  4  debian:bookworm .* yes  *1$' "$tmp/out4")" = 20 ] &&
	! grep -q 'Key derivation' "$tmp/out4" &&
	tail -1 "$tmp/out4" | grep -q "^Again: benchorch results --pubkey --run 4; heat maps: benchorch report --run 4 -o report.html (each with --db '$db')$"
ok $? "public key alone: the end of the run is their table (2 libraries x 10 operations, verified) and how to see them again"
[ "$(q "select count(*) from pubkey_v where run_id = 4")" = 20 ] &&
[ "$(q "select count(*) from pubkey_v where run_id = 4 and verified = 1 and kat_ok = 1 and rejected_by = '' and confirmed_by <> '' and ops_per_s between (case operation when 'keygen' then 1 else 50 end) and 1e7")" = 20 ]
ok $? "pubkey_v: 2 libraries x 10 operations (rsa-2048 with keygen), one invocation, verified, confirmed: $(q "select algorithm || ' ' || operation || ' ' || round(min(ops_per_s)) from pubkey_v where run_id = 4 group by algorithm, operation" | tr '\n' ' ')"
[ "$(q "select group_concat(x, ' ') from (select distinct algorithm || ':' || operation as x from pubkey_v where run_id = 4 order by x)")" = \
	"rsa-2048:import rsa-2048:keygen rsa-2048:sign rsa-2048:verify rsa-3072:import rsa-3072:sign rsa-3072:verify rsa-pss-2048:import rsa-pss-2048:sign rsa-pss-2048:verify" ]
ok $? "the RSA operations are import, sign and verify, and rsa-2048's keygen"
[ "$(q "select group_concat(distinct r.repetitions) from pubkey_results r join invocations i on i.id = r.invocation_id where i.run_id = 4 and r.operation = 'keygen'")" = 3 ]
ok $? "--quick: rsa-2048's keygen is timed in 3 keys per library and invocation"
"$BENCHORCH" results --db "$db" --run 4 --algo rsa-3072 --format json >"$tmp/json4"
ok $? "results --run 4 --algo rsa-3072 --format json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==6 and all(r["algorithm"]=="rsa-3072" and r["verified"]==1 for r in d), d' "$tmp/json4"
ok $? "gives the rsa-3072 rows of both libraries, verified"

"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--algos x25519,pbkdf2-sha256,argon2id --libs openssl,libsodium \
	--format json --state-dir "$TEST_STATE" --db "$db" >"$tmp/out5" \
	2>"$tmp/err5"
ok $? "run --algos x25519,pbkdf2-sha256,argon2id --format json succeeds"
python3 - "$tmp/out5" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(d) == ["kdf", "pubkey"], d
assert len(d["pubkey"]) == 4 and all(r["run_id"] == 5 and r["algorithm"] == "x25519" and r["verified"] == 1 for r in d["pubkey"]), d
k = {(r["library"], r["algorithm"]): r for r in d["kdf"]}
assert sorted(k) == [("libsodium", "argon2id"), ("openssl", "pbkdf2-sha256")], d
assert k["openssl", "pbkdf2-sha256"]["verified"] == 1 and k["openssl", "pbkdf2-sha256"]["unverified_reason"] is None, d
assert k["libsodium", "argon2id"]["verified"] == 0, d
assert k["libsodium", "argon2id"]["unverified_reason"] == "no known answer and no other library to compare", d
PY
ok $? "json: one object, its pubkey rows and its kdf rows, libsodium's argon2id not verified and why"
grep -q '^benchorch: run 5: key derivation: libsodium argon2id on debian:bookworm (hw) not verified: no known answer and no other library to compare$' "$tmp/err5"
ok $? "the end of the run says why on stderr"
"$BENCHORCH" results --db "$db" --kdf --run 5 >"$tmp/kdf5"
grep -q ' libsodium .* argon2id .*  NO: no known answer and no other library to compare$' "$tmp/kdf5"
ok $? "results --kdf says why too"

"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--algos pbkdf2-sha256 --libs openssl,nettle --format csv \
	--state-dir "$TEST_STATE" --db "$db" >"$tmp/out6" 2>"$tmp/err6"
ok $? "run --algos pbkdf2-sha256 --format csv succeeds"
head -1 "$tmp/out6" | grep -q '^run_id,distro,release,variant,library,.*,params,.*,unverified_reason.$' &&
	[ "$(wc -l <"$tmp/out6")" = 3 ] &&
	[ "$(grep -c '^6,debian,bookworm,hw,.*,pbkdf2-sha256,"c=10000,dklen=32",.*,1,1,[a-z]*,,.$' "$tmp/out6")" = 2 ]
ok $? "csv: the header and the two libraries' pbkdf2-sha256, verified"

# X448 (RFC 7748): stored like X25519, each library's shared secret
# confirmed by the other
"$BENCHORCH" run --no-confirm --distros debian --quick --runner nspawn \
	--algos x448 --libs openssl,wolfssl \
	--state-dir "$TEST_STATE" --db "$db" >/dev/null 2>"$tmp/err7"
ok $? "run --algos x448 succeeds"
[ "$(q "select group_concat(x, ' ') from (select distinct library || ':' || algorithm || ':' || operation as x from pubkey_v where run_id = 7 order by x)")" = \
	"openssl:x448:derive openssl:x448:import wolfssl:x448:derive wolfssl:x448:import" ] &&
[ "$(q "select count(*) from pubkey_v where run_id = 7 and verified = 1 and kat_ok = 1 and rejected_by = '' and confirmed_by <> ''")" = 4 ]
ok $? "pubkey_v: x448 import and derive of 2 libraries, one invocation (--quick), verified, confirmed: $(q "select library || ' ' || operation || ' ' || round(min(ops_per_s)) from pubkey_v where run_id = 7 group by library, operation" | tr '\n' ' ')"

done_testing
