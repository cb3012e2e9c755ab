#!/bin/sh
# t7110-compare-nohw - compare on real runs: a run, then the same with
# the libraries' hardware acceleration masked (--nohw), is a regression
# of OpenSSL's AES curves (AES without AES-NI), and the output names both
# variants; comparing a run with itself is a usage error.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
# not --quick: a confirmed change needs two invocations of every point
# on each side (a --quick run measures each once); one library and one
# algorithm keep the runs short
"$BENCHORCH" run --distros debian --libs openssl --algos aes-256-gcm \
	--state-dir "$TEST_STATE" --db "$db" >/dev/null 2>"$tmp/err1"
ok $? "a run of OpenSSL's aes-256-gcm"
"$BENCHORCH" run --distros debian --libs openssl --algos aes-256-gcm --nohw \
	--state-dir "$TEST_STATE" --db "$db" >/dev/null 2>"$tmp/err2"
ok $? "the same with --nohw"
[ "$(sqlite3 "$db" "select group_concat(variant) from (select distinct variant from invocations order by run_id)")" = "hw,nohw" ]
ok $? "stored as variants hw and nohw"
# a --nohw run is compared with the latest earlier run made like it (the
# same variant, as compare --latest 2): the hw run 1 is not, so nothing
# is measured again for run 2
conf=$(sqlite3 "$db" "select run_id from confirmations where confirmed_run_id = 2")
[ -z "$conf" ] && ! grep -q "measuring again" "$tmp/err2"
ok $? "run --nohw after a hw run: no confirmation, no run made like it to compare with (${conf:-none})"

"$BENCHORCH" compare --db "$db" --fail-on-regression 1 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
"$BENCHORCH" compare --db "$db" --format json 1 2 >"$tmp/cj" 2>"$tmp/err"
cr=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["confirmed_regressions"])' "$tmp/cj")
[ $rc -eq 4 ] && [ "$cr" -gt 0 ]
ok $? "hw against nohw: --fail-on-regression exits 4, the regressions confirmed ($rc, $cr confirmed)"
if [ $rc -ne 4 ] || [ "$cr" -eq 0 ] || [ -n "${T7110_DEBUG:-}" ]; then
	# why not: each curve's state, effect, shape and halves, and the
	# invocations and rows each run stored
	python3 - "$tmp/cj" <<'PY' | sed 's/^/# /'
import json, sys
for c in json.load(open(sys.argv[1]))["curves"]:
    print(c["operation"], c["mode"], c.get("state"), c.get("effect"),
          c.get("shape"), "halves", c.get("halves"))
PY
	sqlite3 "$db" "select i.run_id, i.id, count(m.id) from invocations i left join results m on m.invocation_id = i.id group by i.id" |
		sed 's/^/# run|invocation|results /'
	sed 's/^/# /' "$tmp/err1" "$tmp/err2"
fi
python3 - "$tmp/cj" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["confirmation_run"] is None, d["confirmation_run"]
g = [c for c in d["curves"] if c["library"] == "openssl" and
     c["algorithm"] == "aes-256-gcm" and c["mode"] == "bulk"]
assert g and all(c["confirmation"] is None for c in g), \
    [c["confirmation"] for c in g]
PY
ok $? "compare 1 2 names no confirmation: none measured run 2's curves again"
grep -Eq '^debian:bookworm +openssl +aes-256-gcm +(encrypt|decrypt) +bulk +-[0-9.]+ % .*regression +no package change$' "$tmp/out"
ok $? "OpenSSL's AES-256-GCM curves regress without AES-NI, no package change"
grep -q '^Caveat: the runs differ in variants (base hw, new nohw)\.$' "$tmp/out"
ok $? "the summary says the runs measured other variants"
"$BENCHORCH" compare --db "$db" --points 1 2 >"$tmp/out" 2>"$tmp/err"
grep -Eq '^  debian:bookworm openssl aes-256-gcm (encrypt|decrypt) .*MB/s \(-[0-9.]+ %\); no package change for this library$' "$tmp/out"
ok $? "--points: OpenSSL's AES-256-GCM points regress, no package change"
sed 's/^/# /' "$tmp/out" | grep -E '^# [0-9]+ (regression|improvement)'
grep -q '^Run 1 (base, variant hw) against run 2 (new, variant nohw): ' "$tmp/out" &&
	grep -q '^The runs measured different variants' "$tmp/out"
ok $? "the point table names each run's variant and says they differ"
"$BENCHORCH" compare --db "$db" --format json 1 2 >"$tmp/json" 2>"$tmp/err"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["base_variant"] == "hw" and d["new_variant"] == "nohw"' "$tmp/json"
ok $? "json: base_variant hw, new_variant nohw"
"$BENCHORCH" report --db "$db" --run 2 -o "$tmp/r.html" 2>"$tmp/err" &&
	grep -q "openssl, debian:bookworm (nohw)" "$tmp/r.html"
ok $? "report of the --nohw run charts it, its curves marked (nohw)"
"$BENCHORCH" report --db "$db" --run 1 --run 2 -o "$tmp/r2.html" 2>"$tmp/err" &&
	grep -q "openssl, debian:bookworm, run 2 (nohw)" "$tmp/r2.html" &&
	grep -q "openssl, debian:bookworm, run 1<" "$tmp/r2.html"
ok $? "report of both runs charts both"
"$BENCHORCH" compare --db "$db" --fail-on-regression 1 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ]
ok $? "a run against itself is a usage error"

done_testing
