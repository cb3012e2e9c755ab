#!/bin/sh
# t7115-compare-ops - compare's public-key and key derivation ratios: the
# results both runs have (tests/fixtures/ops-rows.sql), their rates and
# the ratio new/base in the table, csv (--ops) and json (arrays pubkey
# and kdf), labelled a description only; never a regression or an
# improvement, nor counted by --fail-on-regression, however large.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database"

"$BENCHORCH" compare --db "$db" --format json 1 2 >"$tmp/before.json" 2>/dev/null
"$BENCHORCH" compare --db "$db" 2 3 --fail-on-regression >"$tmp/before23" 2>/dev/null
rc23=$?
"$BENCHORCH" compare --db "$db" 1 2 >"$tmp/before.txt" 2>/dev/null
! grep -q "in both runs" "$tmp/before.txt"
ok $? "runs without public-key or key derivation results: no such section"

sqlite3 "$db" <"$top_srcdir/tests/fixtures/ops-rows.sql" &&
# run 3 debian (invocation 5): openssl's x25519 ten times slower than in
# run 2, and unverified
sqlite3 "$db" "INSERT INTO pubkey_results (invocation_id, library_id,
	algorithm, operation, calls_per_batch, repetitions, median_ns, min_ns,
	ns_per_op, ops_per_s, verified) VALUES (5, 1, 'x25519', 'derive', 100,
	5, 25000000, 24000000, 250000, 4000, 0)"
ok $? "public-key and key derivation rows inserted"

"$BENCHORCH" compare --db "$db" 1 2 >"$tmp/out" 2>"$tmp/err"
ok $? "compare 1 2 exits 0"
sed -n '/in both runs/,$p' "$tmp/out" >"$tmp/section"
cat >"$tmp/want" <<'EOF2'
Public-key results in both runs, 2 (measured minutes apart: not a verdict; use a duet):
distro           library    algorithm  op      base ops/s  new ops/s  new/base  verified
debian:bookworm  libgcrypt  x25519     derive       25.0k      25.0k     x1.00  yes
debian:bookworm  openssl    x25519     derive       50.0k      40.0k     x0.80  yes

Key derivation results in both runs, 1 (measured minutes apart: not a verdict; use a duet):
distro           library  algorithm      parameters         base deriv/s  new deriv/s  new/base  verified
debian:bookworm  openssl  pbkdf2-sha256  c=600000,dklen=32          4.00         5.00     x1.25  yes
EOF2
diff "$tmp/want" "$tmp/section" >"$tmp/diff"
ok $? "table: the pairs in both runs with their rates and ratio new/base (run-1-only and run-2-only results left out)"
sed 's/^/# /' "$tmp/diff"

"$BENCHORCH" compare --db "$db" --format json 1 2 >"$tmp/after.json"
ok $? "compare --format json exits 0"
python3 - "$tmp/before.json" "$tmp/after.json" <<'PY'
import json, sys
b, a = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
ops = {"pubkey", "kdf", "ops_note"}
for k in b:
    if k not in ops and a.get(k) != b[k]:
        bad.append("key %s changed" % k)
if set(a) != set(b) or not ops <= set(a):
    bad.append("keys %s, before %s" % (sorted(a), sorted(b)))
if b["pubkey"] != [] or b["kdf"] != []:
    bad.append("before the rows: %s %s" % (b["pubkey"], b["kdf"]))
got = sorted((p["library"], p["algorithm"], p["operation"], p["base_ops_per_s"],
              p["new_ops_per_s"], round(p["ratio"], 9), p["verdict"])
             for p in a["pubkey"])
want = [("libgcrypt", "x25519", "derive", 25000.0, 25000.0, 1.0, None),
        ("openssl", "x25519", "derive", 50000.0, 40000.0, 0.8, None)]
if got != want:
    bad.append("pubkey %s" % got)
k = a["kdf"]
if len(k) != 1 or k[0]["operation"] != "c=600000,dklen=32" or \
   abs(k[0]["ratio"] - 1.25) > 1e-12 or k[0]["base_version"] != "3.0.11-1~deb12u2":
    bad.append("kdf %s" % k)
if a["ops_note"] != "measured minutes apart: not a verdict; use a duet":
    bad.append("note %s" % a["ops_note"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
ok $? "json: the curves' keys unchanged, arrays pubkey and kdf (empty before the rows) with ratios 0.8, 1 and 1.25 and verdict null"

"$BENCHORCH" compare --db "$db" --format csv --ops 1 2 >"$tmp/csv"
ok $? "compare --format csv --ops exits 0"
printf '%s\r\n' \
 'kind,distro,variant,build,library,algorithm,operation,base_ops_per_s,new_ops_per_s,ratio,base_verified,new_verified,base_version,new_version,note' \
 'pubkey,debian:bookworm,hw,shipped,libgcrypt,x25519,derive,25000,25000,1,1,1,1.10.1-3,1.10.1-3+b1,measured minutes apart: not a verdict; use a duet' \
 'pubkey,debian:bookworm,hw,shipped,openssl,x25519,derive,50000,40000,0.8,1,1,3.0.11-1~deb12u2,3.0.11-1~deb12u2,measured minutes apart: not a verdict; use a duet' \
 'kdf,debian:bookworm,hw,shipped,openssl,pbkdf2-sha256,"c=600000,dklen=32",4,5,1.25,1,1,3.0.11-1~deb12u2,3.0.11-1~deb12u2,measured minutes apart: not a verdict; use a duet' \
 >"$tmp/want.csv"
cmp -s "$tmp/want.csv" "$tmp/csv"
ok $? "csv --ops: one row per pair, the note on each"

"$BENCHORCH" compare --db "$db" 2 3 --fail-on-regression >"$tmp/out23" 2>"$tmp/err23"
rc=$?
[ "$rc" -eq "$rc23" ]
ok $? "a ratio of x0.10 does not change --fail-on-regression's exit status ($rc, $rc23 without it)"
grep -q "debian:bookworm  openssl  x25519     derive       40.0k      4.00k     x0.10  NO" "$tmp/out23"
ok $? "... it is listed, with NO under verified"
! grep -q "regression.*x25519\|x25519.*regression" "$tmp/out23"
ok $? "... and never called a regression"

"$BENCHORCH" compare --db "$db" --ops 1 2 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--ops goes with --format csv" "$tmp/err"
ok $? "--ops without --format csv is a usage error"

done_testing
