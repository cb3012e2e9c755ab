#!/bin/sh
# t3142-run-ops-ties - public-key operations and key derivation functions
# measured taking turns: where a run's pairs do not tell two libraries
# apart, results --pubkey and --kdf, the summary a run of them alone ends
# with (results --summary prints it again) and the report's heat maps say
# so ("openssl = libgcrypt", cells ending in =), and where the pairs tell
# them apart none does. On the results-mkdb database, run 4 measures
# debian:bookworm alone, in two invocations: x25519 derive, openssl 50000
# ops/s, libgcrypt 49020 (a tie in the first invocation, not in the
# second) and nettle 20000 (clearly slower); ed25519 sign, openssl 33333
# and nettle 11111 (clearly slower); pbkdf2-sha256, nettle 4.1/s, openssl
# 4.0 (a tie) and libgcrypt 2.0 (clearly slower). The same database with
# those ties made clear gets none; with openssl the slower of a pair with
# libgcrypt in one invocation, the two are a tie again (the guests
# disagree on which is faster). No guest, no root.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "results-mkdb builds the database"
q() { sqlite3 -batch -noheader "$1" "$2"; }
lid() { q "$db" "select min(id) from libraries where name = '$1'"; }
ossl=$(lid openssl) gcry=$(lid libgcrypt) nettle=$(lid nettle)
img=$(q "$db" "select min(id) from images where distro = 'debian'
	and release = 'bookworm'")

q "$db" "
insert into runs (id, uuid, host, pid, started_at, finished_at, status,
	command_line, cpu_id, kernel)
	select 4, '02912951-0000-4000-8000-000000000004', host, pid,
	'2026-01-04T00:00:00Z', '2026-01-04T00:10:00Z', 'done',
	'benchorch run --distros debian --algos x25519,ed25519,pbkdf2-sha256',
	cpu_id, kernel from runs where id = 3;
insert into invocations (id, run_id, image_id, spec, runner, started_at,
	status, variant, round) values
	(101, 4, $img, 'debian', 'nspawn', '2026-01-04T00:00:00Z', 'ok', 'hw', 1),
	(102, 4, $img, 'debian', 'nspawn', '2026-01-04T00:05:00Z', 'ok', 'hw', 2);
insert into pubkey_results (invocation_id, library_id, algorithm, operation,
	calls_per_batch, repetitions, median_ns, min_ns, ns_per_op, ops_per_s,
	verified) values
	(101, $ossl, 'x25519', 'derive', 100, 5, 2000000, 1900000, 20000, 50000, 1),
	(101, $gcry, 'x25519', 'derive', 100, 5, 2040000, 1900000, 20400, 49019.6, 1),
	(101, $nettle, 'x25519', 'derive', 100, 5, 5000000, 4900000, 50000, 20000, 1),
	(101, $ossl, 'ed25519', 'sign', 100, 5, 3000000, 2900000, 30000, 33333.3, 1),
	(101, $nettle, 'ed25519', 'sign', 100, 5, 9000000, 8900000, 90000, 11111.1, 1),
	(102, $ossl, 'x25519', 'derive', 100, 5, 2000000, 1900000, 20000, 50000, 1),
	(102, $gcry, 'x25519', 'derive', 100, 5, 2040000, 1900000, 20400, 49019.6, 1),
	(102, $nettle, 'x25519', 'derive', 100, 5, 5000000, 4900000, 50000, 20000, 1);
insert into kdf_results (invocation_id, library_id, algorithm, params,
	iterations, memory_kib, parallelism, output_bytes, calls_per_batch,
	repetitions, median_ns, min_ns, ns_per_op, ops_per_s, verified,
	kat_ok) values
	(101, $nettle, 'pbkdf2-sha256', 'c=600000,dklen=32', 600000, 0, 1, 32,
	 1, 5, 244000000, 240000000, 244000000, 4.1, 1, 1),
	(101, $ossl, 'pbkdf2-sha256', 'c=600000,dklen=32', 600000, 0, 1, 32,
	 1, 5, 250000000, 240000000, 250000000, 4, 1, 1),
	(101, $gcry, 'pbkdf2-sha256', 'c=600000,dklen=32', 600000, 0, 1, 32,
	 1, 5, 500000000, 490000000, 500000000, 2, 1, 1);
insert into pairs (invocation_id, library_id, versus_id, algorithm,
	operation, mode, buffer_bytes, ratio, low, high, coverage, rounds, tie,
	span_ns) values
	(101, $gcry, $ossl, 'x25519', 'derive', 'pubkey', 1, 0.98, 0.95, 1.01, 0.96, 12, 1, 1000),
	(101, $nettle, $ossl, 'x25519', 'derive', 'pubkey', 1, 0.40, 0.38, 0.42, 0.96, 12, 0, 1000),
	(102, $gcry, $ossl, 'x25519', 'derive', 'pubkey', 1, 0.97, 0.94, 0.99, 0.96, 12, 0, 1000),
	(102, $nettle, $ossl, 'x25519', 'derive', 'pubkey', 1, 0.40, 0.38, 0.42, 0.96, 12, 0, 1000),
	(101, $nettle, $ossl, 'ed25519', 'sign', 'pubkey', 1, 0.33, 0.31, 0.35, 0.96, 12, 0, 1000),
	(101, $ossl, $nettle, 'pbkdf2-sha256', 'derive', 'kdf', 1, 0.98, 0.96, 1.02, 0.96, 12, 1, 1000),
	(101, $gcry, $nettle, 'pbkdf2-sha256', 'derive', 'kdf', 1, 0.49, 0.47, 0.51, 0.96, 12, 0, 1000);"
ok $? "run 4: public-key and key derivation results and their pairs inserted"
cp "$db" "$tmp/clear.db"
q "$tmp/clear.db" "update pairs set ratio = 0.90, low = 0.88, high = 0.92,
	tie = 0 where tie = 1"

# results --pubkey and --kdf: the tie column, both ways, not the slower
"$BENCHORCH" results --db "$db" --pubkey --run 4 >"$tmp/pk" 2>"$tmp/err"
ok $? "results --pubkey --run 4 exits 0"
grep -q ' openssl .* x25519  *derive  *[0-9]*  *= libgcrypt ' "$tmp/pk" &&
	grep -q ' libgcrypt .* x25519  *derive  *[0-9]*  *= openssl ' "$tmp/pk" &&
	! grep ' nettle ' "$tmp/pk" | grep -q '= ' &&
	! grep ' ed25519 ' "$tmp/pk" | grep -q '= '
ok $? "results --pubkey: openssl = libgcrypt at x25519 derive, nettle and ed25519 untied"
"$BENCHORCH" results --db "$db" --kdf --run 4 >"$tmp/kd" 2>"$tmp/err"
grep -q ' nettle .* pbkdf2-sha256 .* = openssl ' "$tmp/kd" &&
	grep -q ' openssl .* pbkdf2-sha256 .* = nettle ' "$tmp/kd" &&
	! grep ' libgcrypt ' "$tmp/kd" | grep -q '= '
ok $? "results --kdf: nettle = openssl at pbkdf2-sha256, libgcrypt untied"

# the summary: what a run of them alone ends with
"$BENCHORCH" results --db "$db" --summary --run 4 >"$tmp/sum" 2>"$tmp/err"
ok $? "results --summary --run 4 (no cipher or hash) exits 0"
grep -q '^Public key: operations per second' "$tmp/sum" &&
	grep -q '^Key derivation: derivations per second' "$tmp/sum"
ok $? "it prints what the run ended with: both tables under their headings"
sed -n '/^Fastest per operation:/,/^$/p' "$tmp/sum" >"$tmp/fpk"
grep -q '^  debian:bookworm  x25519  *derive  openssl = libgcrypt  50.0k/s$' "$tmp/fpk"
ok $? "fastest of x25519 derive: openssl = libgcrypt"
sed 's/^/# /' "$tmp/fpk"
grep -q '^  debian:bookworm  ed25519  *sign  *openssl  *33.3k/s$' "$tmp/fpk"
ok $? "fastest of ed25519 sign: openssl alone"
! grep -q '= nettle\|nettle =' "$tmp/fpk"
ok $? "nettle, clearly slower, is named in no tie"
grep -q '^  debian:bookworm  pbkdf2-sha256  c=600000,dklen=32  nettle = openssl  4.10/s$' "$tmp/sum"
ok $? "fastest of pbkdf2-sha256: nettle = openssl, not libgcrypt"
grep -q '^a = b: a tie with the fastest, measured taking turns' "$tmp/sum"
ok $? "a legend says what a = b means"

# the report's heat maps
"$BENCHORCH" report --db "$db" --run 4 -o "$tmp/r.html" 2>"$tmp/err"
ok $? "report --run 4 exits 0"
grep -q '<tr><th>x25519</th><th>derive</th>.*<td class="fastest tie">openssl = libgcrypt</td></tr>' "$tmp/r.html"
ok $? "report: the fastest of x25519 derive reads openssl = libgcrypt"
grep -q '<td class="num tie" data-library="libgcrypt" [^>]*>49.0k=</td>' "$tmp/r.html" &&
	grep -q '<td class="num" data-library="nettle" [^>]*>20.0k</td>' "$tmp/r.html"
ok $? "report: libgcrypt's x25519 cell ends in =, nettle's does not"
grep -q '<tr><th>ed25519</th><th>sign</th>.*<td class="fastest">openssl</td></tr>' "$tmp/r.html"
ok $? "report: the fastest of ed25519 sign is openssl alone"
grep -q '<td class="fastest tie">nettle = openssl</td>' "$tmp/r.html" &&
	grep -q '<td class="num tie" data-library="openssl" [^>]*>4.00=</td>' "$tmp/r.html"
ok $? "report: the fastest of pbkdf2-sha256 reads nettle = openssl"

# the same results with every pair told apart: no tie anywhere
"$BENCHORCH" results --db "$tmp/clear.db" --pubkey --run 4 >"$tmp/pk2" 2>&1 &&
	"$BENCHORCH" results --db "$tmp/clear.db" --kdf --run 4 >>"$tmp/pk2" 2>&1
ok $([ $? -eq 0 ] && ! grep -q '= ' "$tmp/pk2"; echo $?) \
	"pairs told apart: results --pubkey and --kdf show no tie"
"$BENCHORCH" results --db "$tmp/clear.db" --summary --run 4 >"$tmp/sum2" 2>&1
ok $([ $? -eq 0 ] && grep -q '^  debian:bookworm  x25519  *derive  openssl  *50.0k/s$' "$tmp/sum2" &&
	! grep -q ' = \|^a = b' "$tmp/sum2"; echo $?) \
	"pairs told apart: the summary names one fastest each, no legend"
"$BENCHORCH" report --db "$tmp/clear.db" --run 4 -o "$tmp/r2.html" 2>"$tmp/err"
ok $([ $? -eq 0 ] && grep -q '<td class="fastest">openssl</td></tr>' "$tmp/r2.html" &&
	! grep -q 'class="fastest tie"\|class="num tie"\|[0-9]=</td>' "$tmp/r2.html"; echo $?) \
	"pairs told apart: the report marks no tie"

# openssl, the fastest, the slower of a pair with libgcrypt in one
# invocation: the guests disagree, a tie again
q "$tmp/clear.db" "insert into pairs values (102, $ossl, $gcry, 'x25519',
	'derive', 'pubkey', 1, 0.99, 0.98, 0.995, 0.96, 12, 0, 1000)"
"$BENCHORCH" results --db "$tmp/clear.db" --summary --run 4 >"$tmp/sum3" 2>&1
grep -q '^  debian:bookworm  x25519  *derive  openssl = libgcrypt  50.0k/s$' "$tmp/sum3"
ok $? "the guests disagree on which is faster: openssl = libgcrypt"
"$BENCHORCH" report --db "$tmp/clear.db" --run 4 -o "$tmp/r3.html" 2>"$tmp/err"
grep -q '<td class="fastest tie">openssl = libgcrypt</td>' "$tmp/r3.html"
ok $? "... in the report too"
done_testing
