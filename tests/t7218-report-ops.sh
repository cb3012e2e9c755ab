#!/bin/sh
# t7218-report-ops - the report's public-key and key derivation sections:
# per run and distribution a heat map of algorithm and operation (key
# derivation: algorithm and cost parameters) by library, each cell the
# operations per second with three significant digits, coloured by its
# fraction of the row's fastest library as the overview's heat maps, an
# unverified result marked, a library without the algorithm "-", and a
# last column naming the row's fastest (no pairs here: no tie). The
# rows come from tests/fixtures/ops-rows.sql (its header lists the
# rates). A database without such results gets neither section.
# results --kdf and the report say why a key derivation is not verified
# (read from kat_ok, confirmed_by, rejected_by and the other libraries of
# its invocation). A database whose runs have public-key and key
# derivation results alone gets a report of those sections (without
# --run: its latest such run), and no symmetric ones.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database"
"$BENCHORCH" report --db "$db" --run 1 -o "$tmp/none.html" 2>"$tmp/err"
ok $? "report of a run without public-key or key derivation results"
! grep -q 'id="pubkey"\|id="kdf"\|class="heatmap ops"' "$tmp/none.html"
ok $? "... has neither section"

sqlite3 "$db" <"$top_srcdir/tests/fixtures/ops-rows.sql"
ok $? "public-key and key derivation rows inserted"
"$BENCHORCH" report --db "$db" --run 1 -o "$tmp/one.html" 2>"$tmp/err"
ok $? "report --run 1 exits 0"
"$BENCHORCH" report --db "$db" --run 1 --run 2 -o "$tmp/two.html" 2>"$tmp/err"
ok $? "report --run 1 --run 2 exits 0"

# cells.py HTML: one line per cell of the ops tables, "KIND RUN DISTRO
# ALGORITHM OPERATION LIBRARY CLASS TEXT HUE" (HUE "-" uncoloured), and
# one "caption KIND RUN DISTRO: CAPTION" per table.
cat >"$tmp/cells.py" <<'PY'
import re, sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.table = None; self.row = None; self.cell = None; self.cols = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "ops" in a.get("class", "").split():
            self.table = a; self.cols = []
        elif self.table is None:
            return
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th", "caption"):
            self.cell = [tag, "", a]
    def handle_endtag(self, tag):
        if self.table is None:
            return
        if tag == "table":
            self.table = None
        elif self.cell and tag == self.cell[0]:
            t = self.table
            if tag == "caption":
                print("caption %s %s %s: %s" % (t["data-kind"], t["data-run"],
                      t["data-distro"], self.cell[1]))
            else:
                self.row.append(self.cell)
            self.cell = None
        elif tag == "tr":
            if all(c[0] == "th" for c in self.row):
                self.cols = [c[1] for c in self.row]
            else:
                t = self.table
                for name, c in zip(self.cols[2:], self.row[2:]):
                    m = re.search(r"hsl\((\d+),", c[2].get("style", ""))
                    print(" ".join([t["data-kind"], t["data-run"],
                          t["data-distro"], self.row[0][1], self.row[1][1],
                          name, c[2].get("class", ""), c[1],
                          m.group(1) if m else "-"]))
    def handle_data(self, d):
        if self.cell:
            self.cell[1] += d

P().feed(open(sys.argv[1]).read())
PY
python3 "$tmp/cells.py" "$tmp/one.html" >"$tmp/one.cells"
cat >"$tmp/want" <<'EOF2'
caption pubkey 1 debian:bookworm: debian:bookworm: operations per second
pubkey 1 debian:bookworm ed25519 sign libgcrypt none - -
pubkey 1 debian:bookworm ed25519 sign nettle num 22.2k 80
pubkey 1 debian:bookworm ed25519 sign openssl num 33.3k 120
pubkey 1 debian:bookworm ed25519 sign fastest fastest openssl -
pubkey 1 debian:bookworm x25519 derive libgcrypt num 25.0k 60
pubkey 1 debian:bookworm x25519 derive nettle num unverified 12.5k! 30
pubkey 1 debian:bookworm x25519 derive openssl num 50.0k 120
pubkey 1 debian:bookworm x25519 derive fastest fastest openssl -
caption pubkey 1 ubuntu:noble: ubuntu:noble: operations per second
pubkey 1 ubuntu:noble x25519 derive openssl num 40.0k 120
pubkey 1 ubuntu:noble x25519 derive fastest fastest openssl -
caption kdf 1 debian:bookworm: debian:bookworm: derivations per second
kdf 1 debian:bookworm argon2id t=3,m=65536,p=1,dklen=32 libgcrypt num 5.00 96
kdf 1 debian:bookworm argon2id t=3,m=65536,p=1,dklen=32 nettle none - -
kdf 1 debian:bookworm argon2id t=3,m=65536,p=1,dklen=32 openssl num 6.25 120
kdf 1 debian:bookworm argon2id t=3,m=65536,p=1,dklen=32 fastest fastest openssl -
kdf 1 debian:bookworm pbkdf2-sha256 c=600000,dklen=32 libgcrypt none - -
kdf 1 debian:bookworm pbkdf2-sha256 c=600000,dklen=32 nettle num 2.50 75
kdf 1 debian:bookworm pbkdf2-sha256 c=600000,dklen=32 openssl num 4.00 120
kdf 1 debian:bookworm pbkdf2-sha256 c=600000,dklen=32 fastest fastest openssl -
EOF2
diff "$tmp/want" "$tmp/one.cells" >"$tmp/diff"
ok $? "run 1: every cell's rate, mark and colour (hue 120 x fraction of the row's fastest)"
sed 's/^/# /' "$tmp/diff"

grep -q '<section id="pubkey"><h2>Public key</h2>' "$tmp/one.html" &&
	grep -q '<section id="kdf"><h2>Key derivation</h2>' "$tmp/one.html"
ok $? "the two sections by their ids"
grep -q 'data-library="nettle" data-build="shipped" data-ops="12500.000" data-ratio="0.2500"' "$tmp/one.html"
ok $? "a cell's exact rate and fraction in data-ops and data-ratio"
grep -q 'title="nettle 3.8.1-2, x25519 derive: 12.5k operations/s, 25 % of the fastest, not verified"' "$tmp/one.html"
ok $? "the title names the version, the fraction and the missing verification"

python3 "$tmp/cells.py" "$tmp/two.html" | grep '^caption\|^[a-z]* 2 ' >"$tmp/two.cells"
cat >"$tmp/want2" <<'EOF2'
caption pubkey 1 debian:bookworm: debian:bookworm (run 1): operations per second
caption pubkey 1 ubuntu:noble: ubuntu:noble (run 1): operations per second
caption pubkey 2 debian:bookworm: debian:bookworm (run 2): operations per second
pubkey 2 debian:bookworm ed25519 verify libgcrypt none - -
pubkey 2 debian:bookworm ed25519 verify openssl num 10.0k 120
pubkey 2 debian:bookworm ed25519 verify fastest fastest openssl -
pubkey 2 debian:bookworm x25519 derive libgcrypt num 25.0k 75
pubkey 2 debian:bookworm x25519 derive openssl num 40.0k 120
pubkey 2 debian:bookworm x25519 derive fastest fastest openssl -
caption kdf 1 debian:bookworm: debian:bookworm (run 1): derivations per second
caption kdf 2 debian:bookworm: debian:bookworm (run 2): derivations per second
kdf 2 debian:bookworm pbkdf2-sha256 c=600000,dklen=32 openssl num 5.00 120
kdf 2 debian:bookworm pbkdf2-sha256 c=600000,dklen=32 fastest fastest openssl -
EOF2
diff "$tmp/want2" "$tmp/two.cells" >"$tmp/diff"
ok $? "two runs: a table per run and distribution, captions name the run"
sed 's/^/# /' "$tmp/diff"

# why a key derivation is not verified: run 2 (invocation 3) gets
# argon2id of libgcrypt (7) alone, no known answer; run 1 (invocation 1)
# nettle's pbkdf2-sha256 rejected by openssl, libgcrypt's argon2id with
# a failed known answer, and scrypt of openssl and nettle, neither with a
# known answer
sqlite3 "$db" "
insert into kdf_results (invocation_id, library_id, algorithm, params,
	iterations, memory_kib, parallelism, output_bytes, calls_per_batch,
	repetitions, median_ns, min_ns, ns_per_op, ops_per_s, verified) values
	(3, 7, 'argon2id', 't=3,m=65536,p=1,T=32', 3, 65536, 1, 32, 1, 3,
	 100000000, 90000000, 100000000, 10, 0),
	(1, 1, 'scrypt', 'N=16384,r=8,p=1,dklen=32', 16384, 16384, 1, 32, 1, 3,
	 50000000, 40000000, 50000000, 20, 0),
	(1, 3, 'scrypt', 'N=16384,r=8,p=1,dklen=32', 16384, 16384, 1, 32, 1, 3,
	 50000000, 40000000, 50000000, 20, 0);
update kdf_results set verified = 0, kat_ok = 1, rejected_by = 'openssl'
	where library_id = 3 and algorithm = 'pbkdf2-sha256';
update kdf_results set verified = 0, kat_ok = 0
	where library_id = 2 and algorithm = 'argon2id';"
ok $? "unverified key derivations inserted"
"$BENCHORCH" results --db "$db" --kdf --all >"$tmp/kdf.table"
ok $? "results --kdf --all"
head -1 "$tmp/kdf.table" | grep -q 'us/op  *invocations  *verified$' &&
grep -q ' 2  *debian:bookworm .* libgcrypt .* argon2id .* 1  NO: no known answer and no other library to compare$' "$tmp/kdf.table" &&
grep -q ' nettle .* pbkdf2-sha256 .* 1  NO: derived another key than openssl$' "$tmp/kdf.table" &&
grep -q ' libgcrypt .* argon2id .*  NO: a known-answer test failed$' "$tmp/kdf.table" &&
[ "$(grep -c ' scrypt .*  NO: no known answer, and no other library with known answers to compare$' "$tmp/kdf.table")" = 2 ] &&
[ "$(grep -c ' yes$' "$tmp/kdf.table")" = 3 ]
ok $? "the table: verified last, NO with its reason"
sed 's/^/# /' "$tmp/kdf.table"
"$BENCHORCH" results --db "$db" --kdf --run 2 --format csv >"$tmp/kdf.csv"
ok $? "results --kdf --run 2 --format csv"
head -1 "$tmp/kdf.csv" | grep -q ',confirmed_by,rejected_by,unverified_reason.$' &&
grep -q '^2,.*,argon2id,.*,no known answer and no other library to compare.$' "$tmp/kdf.csv" &&
grep -q '^2,.*,pbkdf2-sha256,.*,1,1,,,.$' "$tmp/kdf.csv"
ok $? "csv: unverified_reason last, empty when verified"
"$BENCHORCH" results --db "$db" --kdf --run 1 --format json >"$tmp/kdf.json"
ok $? "results --kdf --run 1 --format json"
python3 - "$tmp/kdf.json" <<'PY'
import json, sys
d = {(r["library"], r["algorithm"]): r for r in json.load(open(sys.argv[1]))}
assert d["nettle", "pbkdf2-sha256"]["unverified_reason"] == "derived another key than openssl", d
assert d["libgcrypt", "argon2id"]["unverified_reason"] == "a known-answer test failed", d
assert d["openssl", "argon2id"]["unverified_reason"] is None, d
PY
ok $? "json: unverified_reason, null when verified"
"$BENCHORCH" report --db "$db" --run 2 -o "$tmp/why.html" 2>"$tmp/err"
ok $? "report --run 2"
grep -q 'title="libgcrypt 1.10.1-3+b1, argon2id t=3,m=65536,p=1,T=32: 10.0 derivations/s, 100 % of the fastest, not verified: no known answer and no other library to compare"' "$tmp/why.html"
ok $? "the report's cell title says why it is not verified"

# runs with public-key and key derivation results alone
ops="$tmp/ops.db"
"$top_builddir/tests/fixtures/results-mkdb" "$ops" &&
	sqlite3 "$ops" "delete from results;" &&
	sqlite3 "$ops" <"$top_srcdir/tests/fixtures/ops-rows.sql"
ok $? "a database of public-key and key derivation results alone"
"$BENCHORCH" report --db "$ops" -o "$tmp/ops.html" 2>"$tmp/err"
ok $? "report without --run exits 0: $(cat "$tmp/err")"
python3 "$tmp/cells.py" "$tmp/ops.html" | grep '^caption' >"$tmp/ops.cells"
cat >"$tmp/want3" <<'EOF2'
caption pubkey 2 debian:bookworm: debian:bookworm: operations per second
caption kdf 2 debian:bookworm: debian:bookworm: derivations per second
EOF2
diff "$tmp/want3" "$tmp/ops.cells" >"$tmp/diff"
ok $? "it shows the latest run (2), its public-key and key derivation heat maps"
sed 's/^/# /' "$tmp/diff"
! grep -q 'id="overview"\|class="algo"\|<svg' "$tmp/ops.html"
ok $? "... and no overview, chart or throughput table"
"$BENCHORCH" report --db "$ops" --run 1 --run 2 -o "$tmp/ops2.html" 2>"$tmp/err" &&
	grep -q '<section id="pubkey">' "$tmp/ops2.html" &&
	grep -q '<section id="kdf">' "$tmp/ops2.html"
ok $? "report --run 1 --run 2 of them"
"$BENCHORCH" report --db "$ops" -o "$tmp/ops.svg" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q 'no chart' "$tmp/err"
ok $? "an .svg of them is refused (exit 1): $(cat "$tmp/err")"
"$BENCHORCH" report --db "$ops" --algo aes-128-cbc -o "$tmp/algo.html" 2>"$tmp/err"
[ $? -eq 1 ]
ok $? "report --algo of a symmetric algorithm they lack: nothing to report (exit 1)"

done_testing
