#!/bin/sh
# t7130-compare-verdicts - compare's per-curve verdicts on stored runs of
# known noise (tests/fixtures/verdict-runs.py): identical runs give no
# verdict; a 10 % slowdown of one library is found on every one of its
# curves, confirmed and named with its package; a change at one size only
# is no curve verdict; a curve whose canary moved is flagged, not judged;
# --fail-on-regression exits 4 only on a confirmed regression; two images
# of one run compare; one invocation and no history give a conservative
# verdict; --store keeps the verdict. With a confirmation run of the new
# run, "confirmed" is what it found again: the previous and the new image
# in alternating rounds, or the current image measured once more; a change
# it did not find is not confirmed and a caveat says so; curves it did not
# measure keep the rule without.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/v.db"
last=0
for f in "$top_srcdir"/db/migrations/[0-9]*.sql; do
	cat "$f"
	last=$(basename "$f" | sed 's/^0*\([0-9][0-9]*\)-.*/\1/')
done >"$tmp/schema.sql"
sqlite3 "$db" <"$tmp/schema.sql" && sqlite3 "$db" "pragma user_version = $last" &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$db" aa aa aa aa aa aa \
		aa gcrypt-10 one-size canary single pair-gcrypt-10 drift-gcrypt-10
ok $? "runs 1-7 alike, 8 libgcrypt -10 %, 9 one size, 10 a canary, 11 one invocation, 12 two images, 13 libgcrypt -10 % with no package updated"

# summary of compare BASE NEW on stdout: "curves changed confirmed flagged"
counts() {
	"$BENCHORCH" compare --db "$db" --format json "$@" >"$tmp/json" 2>"$tmp/err" || return 1
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["curves_compared"], d["changed"], d["confirmed"], d["flagged"])' "$tmp/json"
}

c=$(counts 6 7)
[ "$c" = "21 0 0 0" ]
ok $? "A/A: 21 curves, none changed ($c)"
"$BENCHORCH" compare --db "$db" --fail-on-regression 6 7 >"$tmp/out" 2>"$tmp/err"
ok $? "A/A: --fail-on-regression exits 0"
grep -q '^run 6 (base) against run 7 (new): 21 curves compared, 0 changed' "$tmp/out" &&
	! grep -q '^Changed and flagged curves' "$tmp/out" &&
	[ "$(wc -l <"$tmp/out")" -le 6 ]
ok $? "A/A: a short summary, no curve listed"
grep -Eq '^Smallest change detectable here .*: libgcrypt [0-9.]+ %, nettle [0-9.]+ %, openssl [0-9.]+ %\.$' "$tmp/out"
ok $? "the summary gives each library's smallest detectable change"

c=$(counts 6 8)
[ "$c" = "21 7 7 0" ]
ok $? "A/B: the 7 curves of libgcrypt changed and confirmed, nothing else ($c)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ch = [c for c in d["curves"] if c["state"] != "unchanged"]
assert {c["library"] for c in ch} == {"libgcrypt"}, ch
assert all(-0.13 < c["effect"] < -0.07 and c["ci_low"] < c["effect"] < c["ci_high"] < 0 for c in ch)
assert all(c["q"] <= 0.05 and c["noise_source"] == "history" and c["history_runs"] >= 3 for c in ch)
assert all(c["package"] == "libgcrypt20" and c["new_version"] == "1.10.1-3+b1" for c in ch)
assert d["package_changes"] == [{"distro": "debian:bookworm", "package": "libgcrypt20", "old_version": "1.10.1-3", "new_version": "1.10.1-3+b1"}]
' "$tmp/json"
ok $? "A/B: each effect about -10 % inside its interval, judged against history, package named"
python3 -c '
import json, sys
c = [x for x in json.load(open(sys.argv[1]))["curves"] if x["state"] != "flagged"]
# Benjamini-Hochberg 1995: q(i) = min over j >= i of m p(j) / j
p = sorted(x["p"] for x in c)
m = len(p)
q = [min(1.0, min(m * p[j] / (j + 1) for j in range(i, m))) for i in range(m)]
want = {pv: qv for pv, qv in zip(p, q)}
assert all(abs(x["q"] - want[x["p"]]) <= 1e-12 * max(1, want[x["p"]]) for x in c), [(x["p"], x["q"]) for x in c]
assert any(x["q"] > x["p"] for x in c)
' "$tmp/json"
ok $? "each q is the Benjamini-Hochberg adjustment of the p-values over the curves"
"$BENCHORCH" compare --db "$db" --fail-on-regression 6 8 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 4 ]
ok $? "A/B: --fail-on-regression exits 4 on the confirmed regression"
"$BENCHORCH" compare --db "$db" --fail-on-regression --format json 6 13 \
	>"$tmp/drift.json" 2>"$tmp/drift.err"
rc=$?
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["confirmed_regressions"])' "$tmp/drift.json" 2>/dev/null)
[ "$rc" -eq 0 ] && [ "${n:-0}" -ge 1 ] &&
	grep -q "without a package, variant or image that differs: the host's drift" "$tmp/drift.err"
ok $? "drift screen: the same regression with no package updated is reported ($n confirmed) but --fail-on-regression exits 0, saying why ($rc: $(head -1 "$tmp/drift.err"))"
grep -Eq '^debian:bookworm +libgcrypt +aes-128-cbc +encrypt +bulk +-[0-9.]+ % \[-[0-9.]+, -[0-9.]+\] .* confirmed regression +libgcrypt20 1\.10\.1-3 -> 1\.10\.1-3\+b1$' "$tmp/out" &&
	[ "$(grep -c 'confirmed regression' "$tmp/out")" -eq 7 ]
ok $? "A/B: the table lists the 7 curves with effect, interval and package change"
"$BENCHORCH" compare --db "$db" 8 6 >"$tmp/out" 2>"$tmp/err" &&
	[ "$(grep -c 'confirmed improvement' "$tmp/out")" -eq 7 ]
ok $? "the other way round: 7 improvements"

c=$(counts 6 9)
[ "$c" = "21 0 0 0" ]
ok $? "a 30 % change at one size only is not a curve verdict ($c)"
"$BENCHORCH" compare --db "$db" --points --format json 6 9 >"$tmp/json" 2>"$tmp/err" &&
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["changed"] == 0
r = [p for p in d["points"] if p["kind"] == "regression"]
assert any(p["library"] == "openssl" and p["buffer_bytes"] == 1024 for p in r), r
' "$tmp/json"
ok $? "--points still shows that point, beside the curves"

c=$(counts 6 10)
[ "$c" = "21 0 0 1" ]
ok $? "a 20 % change whose canary moved is flagged, not a verdict ($c)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [c for c in d["curves"] if c["state"] == "flagged"]
assert len(f) == 1 and f[0]["library"] == "nettle" and f[0]["algorithm"] == "sha-256" and f[0]["canary_moved"]
' "$tmp/json"
ok $? "the flagged curve is nettle sha-256, its canary marked"
"$BENCHORCH" compare --db "$db" --fail-on-regression 6 10 >"$tmp/out" 2>"$tmp/err"
ok $? "a flagged curve does not fail --fail-on-regression"

# fl.db: 1-7 alike, 8 nettle sha-256 -20 % with its canary moved in both
# invocations, 9 the same 20 % with a quiet canary, 10 alike, 11 one of
# its two invocations measured nettle sha-256 30 % slower while its canary
# moved. flagged DB BASE NEW: changed, confirmed, flagged and nettle
# sha-256's state and confirmation.
sqlite3 "$tmp/fl.db" <"$tmp/schema.sql" && sqlite3 "$tmp/fl.db" "pragma user_version = $last" &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$tmp/fl.db" aa aa aa aa aa aa aa \
		canary nettle-20 aa canary-one
ok $? "flagged curves: runs 1-7 alike, 8 a canary, 9 and 10 measured again, 11 one disturbed invocation"
flagged() {
	"$BENCHORCH" compare --db "$tmp/fl.db" --format json "$1" "$2" >"$tmp/json" 2>"$tmp/err" || return 1
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
n = [c for c in d["curves"] if c["library"] == "nettle" and c["algorithm"] == "sha-256"][0]
print(d["changed"], d["confirmed"], d["flagged"], n["state"], n["confirmation"])' "$tmp/json"
}
c=$(flagged 6 11)
[ "$c" = "0 0 0 unchanged None" ]
ok $? "one invocation disturbed (its canary moved), the other not: judged by the undisturbed one, unchanged, not flagged ($c)"
c=$(flagged 6 8)
[ "$c" = "0 0 1 flagged None" ]
ok $? "every invocation disturbed: flagged ($c)"
# run 9 (or 10) as the confirmation of run 8 that measured nettle sha-256
# once more, no previous image
flag_confirm() {
	sqlite3 "$tmp/fl.db" "delete from confirmation_curves; delete from confirmations;
insert into confirmations (run_id, confirmed_run_id, distro, release, image_id, previous_image_id)
values ($1, 8, 'debian', 'bookworm', 1, NULL);
insert into confirmation_curves (run_id, distro, release, library, algorithm)
values ($1, 'debian', 'bookworm', 'nettle', 'sha-256')"
}
flag_confirm 9 && c=$(flagged 6 8) && [ "$c" = "1 1 0 confirmed True" ] &&
	"$BENCHORCH" compare --db "$tmp/fl.db" 6 8 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '^Caveat: confirmation run 9 measured 1 flagged curve again (its canary had moved): 1 changed, 0 unchanged, 0 flagged again\.$' "$tmp/out"
ok $? "a flagged curve measured again undisturbed and slower: the re-measurement's verdict, confirmed ($c)"
flag_confirm 10 && c=$(flagged 6 8) && [ "$c" = "0 0 0 unchanged False" ]
ok $? "a flagged curve measured again undisturbed and alike: unchanged ($c)"
# fl.db again, 9 now nettle sha-256 20 % faster with a quiet canary
rm -f "$tmp/fl.db" && sqlite3 "$tmp/fl.db" <"$tmp/schema.sql" &&
	sqlite3 "$tmp/fl.db" "pragma user_version = $last" &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$tmp/fl.db" aa aa aa aa aa aa aa \
		canary nettle+20 &&
	flag_confirm 9 && c=$(flagged 6 8) && [ "$c" = "1 0 0 changed None" ]
ok $? "a flagged curve measured again undisturbed and faster, where the disturbed one was slower: changed, its confirmation unknown ($c)"

c=$(counts 6 11)
[ "$c" = "21 0 0 0" ]
ok $? "one invocation on a side, alike: no verdict ($c)"

c=$(counts --base-image 1 --new-image 2 12 12)
[ "$c" = "21 7 7 0" ]
ok $? "two images of one run, alternating: libgcrypt's 7 curves confirmed ($c)"
"$BENCHORCH" compare --db "$db" 12 12 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'BASE and NEW are the same run (12)' "$tmp/err" &&
	"$BENCHORCH" compare --db "$db" --new-image 2 12 12 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'one run against itself needs --base-image and --new-image' "$tmp/err"
ok $? "a run against itself without two images is a usage error"
"$BENCHORCH" compare --db "$db" --base-image 9 --new-image 2 12 12 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no image '9' in run '12'" "$tmp/err"
ok $? "an image the run did not measure is an unknown name: exit 2"

# One invocation a side and no history (the runs of results-mkdb): a
# 50 % slowdown is still found, against the assumed noise, and said so;
# it cannot be confirmed.
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/one.db" &&
	"$BENCHORCH" compare --db "$tmp/one.db" --fail-on-regression 1 2 >"$tmp/out" 2>"$tmp/err"
ok $? "no history, one invocation: --fail-on-regression exits 0"
grep -q '^run 1 (base) against run 2 (new): 20 curves compared, 6 changed (6 slower, 0 faster; 0 confirmed)' "$tmp/out" &&
	grep -q '^Caveat: 12 curves had neither two invocations on a side nor history: judged against an assumed noise of 5 %\.$' "$tmp/out" &&
	grep -q "^Caveat: 8 curves had no history: judged against the spread of the effects of the other libraries' curves" "$tmp/out" &&
	[ "$(grep -c ' libgcrypt .* regression ' "$tmp/out")" -eq 6 ]
ok $? "no history, one invocation: libgcrypt's 6 curves changed, the assumed noise said"
"$BENCHORCH" compare --db "$tmp/one.db" 2 3 >"$tmp/out" 2>"$tmp/err" &&
	grep -q "^Caveat: run 3 was measured with a CPU warning: the scaling governor of cpu 1 is 'powersave'" "$tmp/out"
ok $? "a CPU warning of either run is a caveat"

# Two runs of a machine whose whole curves move by 15 % from run to run,
# one invocation each and no history: the spread across the curves is the
# noise, not the assumed 5 %.
sqlite3 "$tmp/noisy.db" <"$tmp/schema.sql" && sqlite3 "$tmp/noisy.db" "pragma user_version = $last" &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$tmp/noisy.db" noisy noisy &&
	"$BENCHORCH" compare --db "$tmp/noisy.db" --format json 1 2 >"$tmp/json" 2>"$tmp/err" &&
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["changed"] == 0, d["changed"]
assert all(c["noise_source"] == "curves" and c["noise"] > 0.1 for c in d["curves"])
assert any("judged against the spread of the effects of the other libraries" in c for c in d["caveats"])
' "$tmp/json"
ok $? "no history, one invocation, whole curves 15 % apart: judged against the spread across curves, nothing changed"

# caveats: --quick on one side only, other repetitions, other batch length
sqlite3 "$db" "update runs set quick = 1, command_line = command_line || ' --min-batch-ms 2' where id = 7;
update results set repetitions = 3 where invocation_id in (select id from invocations where run_id = 7)" &&
	"$BENCHORCH" compare --db "$db" 6 7 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^Caveat: the runs differ in --quick (base full, new quick)\.$' "$tmp/out" &&
	grep -q '^Caveat: the runs differ in repetitions per point (base 5, new 3)\.$' "$tmp/out" &&
	grep -q '^Caveat: the runs differ in batch length (--min-batch-ms) (base default, new 2)\.$' "$tmp/out"
ok $? "caveats: --quick, repetitions and batch length differ"
sqlite3 "$db" "update runs set quick = 0, command_line = 'benchorch run --distros debian' where id = 7;
update results set repetitions = 5 where invocation_id in (select id from invocations where run_id = 7);
update invocations set clock_start_hz = 3150000000, clock_end_hz = 3150000000 where run_id = 7" &&
	"$BENCHORCH" compare --db "$db" 6 7 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^Caveat: the core clock the guests measured differs by +5.0 %' "$tmp/out" &&
	! grep -q 'differ in' "$tmp/out"
ok $? "a clock 5 % faster is a caveat; alike runs have no other"

"$BENCHORCH" compare --db "$db" --format csv 6 8 >"$tmp/csv" 2>"$tmp/err" &&
	head -1 "$tmp/csv" | tr -d '\r' | grep -q '^distro,library,algorithm,operation,mode,variant,sizes,base_invocations,new_invocations,effect_percent,ci_low_percent,ci_high_percent,shape,p,q,noise_percent,noise_source,' &&
	[ "$(tr -d '\r' <"$tmp/csv" | awk -F, 'NR > 1' | wc -l)" -eq 21 ] &&
	[ "$(tr -d '\r' <"$tmp/csv" | grep -c ',confirmed,libgcrypt20,')" -eq 7 ]
ok $? "--format csv: every curve, one row each"

"$BENCHORCH" compare --db "$db" --store 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$db" "select base_run, new_run, source, curves, changed, confirmed_regressions from verdicts")" = "6|8|compare|21|7|7" ] &&
	[ "$(sqlite3 "$db" "select count(*) from verdict_curves where state = 'confirmed' and library = 'libgcrypt' and noise_source = 'history'")" -eq 7 ]
ok $? "--store keeps the verdict and each curve's state and noise"
"$BENCHORCH" compare --db "$db" --format json 6 8 >"$tmp/store.json" 2>"$tmp/err" &&
	sqlite3 -json "$db" "select library, algorithm, operation, mode, noise_df, regime_slope, confirmation from verdict_curves" >"$tmp/stored.json" &&
	python3 - "$tmp/store.json" "$tmp/stored.json" <<'EOF2'
import json, sys
curves = {(c["library"], c["algorithm"], c["operation"], c["mode"]): c
          for c in json.load(open(sys.argv[1]))["curves"]}
rows = json.load(open(sys.argv[2]))
assert len(rows) == len(curves) == 21, (len(rows), len(curves))
for r in rows:
    c = curves[(r["library"], r["algorithm"], r["operation"], r["mode"])]
    assert r["noise_df"] is not None and r["noise_df"] >= 1, r
    assert abs(r["noise_df"] - c["noise_df"]) < 1e-6 * r["noise_df"], (r, c["noise_df"])
    assert abs(r["regime_slope"] - c["regime_slope"]) < 1e-6, (r, c["regime_slope"])
    want = None if c["confirmation"] is None else int(c["confirmation"])
    assert r["confirmation"] == want, (r, c["confirmation"])
assert all(r["confirmation"] is None for r in rows)  # no confirmation run
EOF2
ok $? "and what the verdict was derived with: the noise's degrees of freedom, the host-speed slope and each curve's confirmation (none here), as compare prints them"
"$BENCHORCH" compare --db "$db" 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$db" "select count(*) from verdicts")" -eq 1 ]
ok $? "without --store nothing is written"
sqlite3 "$db" "update verdicts set created_at = '2000-01-01T00:00:00Z'" &&
"$BENCHORCH" compare --db "$db" --store 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$db" "select count(*) || ' ' || (created_at > '2000-01-01T00:00:00Z') from verdicts")" = "1 1" ] &&
	[ "$(sqlite3 "$db" "select count(*) from verdict_curves")" -eq 21 ] &&
	"$BENCHORCH" compare --db "$db" --store --threshold 5 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$db" "select count(*) from verdicts")" -eq 2 ]
ok $? "--store again replaces the verdict of the same comparison (one row, its 21 curves); another threshold is another verdict"
sqlite3 "$db" "delete from verdicts where threshold > 0.04"

"$BENCHORCH" merge --db "$tmp/merged.db" "$db" >"$tmp/out" 2>"$tmp/err" &&
	[ "$(sqlite3 "$tmp/merged.db" "select count(*) from runs")" -eq 13 ] &&
	[ "$(sqlite3 "$tmp/merged.db" "select count(*) from verdicts")" -eq 0 ] &&
	"$BENCHORCH" compare --db "$tmp/merged.db" --store 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$tmp/merged.db" "select changed, confirmed_regressions from verdicts")" = "7|7" ]
ok $? "merge does not carry verdicts; compare --store re-derives the same in the merged database"

# Confirmation runs. conf.db: 1-7 alike, 8 libgcrypt -10 %, 9 the images
# of 7 and 8 in alternating rounds with libgcrypt slower in the new one,
# 10 the same with both alike. re.db: 1-8 the same, 9 the image of 8
# measured once more with libgcrypt still slower, 10 with it not.
for d in conf re; do
	sqlite3 "$tmp/$d.db" <"$tmp/schema.sql" && sqlite3 "$tmp/$d.db" "pragma user_version = $last" || break
done &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$tmp/conf.db" aa aa aa aa aa aa aa \
		gcrypt-10 pair-gcrypt-10 pair-gcrypt-0 &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$tmp/re.db" aa aa aa aa aa aa aa \
		gcrypt-10 gcrypt-10 gcrypt-0
ok $? "confirmation runs: two with a previous image, two without"
# confirm DB RUN PREVIOUS: run RUN is the (only) confirmation of run 8 in
# DB, new image 2 (libgcrypt20 1.10.1-3+b1), previous image PREVIOUS
# (1 or NULL)
confirm() {
	sqlite3 "$tmp/$1.db" "delete from confirmation_curves; delete from confirmations;
insert into confirmations (run_id, confirmed_run_id, distro, release, image_id, previous_image_id)
values ($2, 8, 'debian', 'bookworm', 2, $3);
insert into confirmation_curves (run_id, distro, release, library, algorithm)
values ($2, 'debian', 'bookworm', 'libgcrypt', 'aes-128-cbc')"
}
# held DB: "changed confirmed confirmation_run" and each changed curve's
# confirmation (1 held, 0 not, - not measured) of compare 6 8
held() {
	"$BENCHORCH" compare --db "$tmp/$1.db" --format json 6 8 >"$tmp/json" 2>"$tmp/err" || return 1
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["changed"], d["confirmed"], d["confirmation_run"],
      "".join("-" if c["confirmation"] is None else str(int(c["confirmation"]))
              for c in d["curves"] if c["state"] != "unchanged"))' "$tmp/json"
}
fail() {
	"$BENCHORCH" compare --db "$tmp/$1.db" --fail-on-regression 6 8 >"$tmp/out" 2>"$tmp/err"
}
c=$(held conf)
[ "$c" = "7 7 None -------" ]
ok $? "no confirmation run: confirmed by halves and history, as before ($c)"
confirm conf 9 1 && c=$(held conf) && [ "$c" = "7 7 9 1111111" ] && { fail conf; [ $? -eq 4 ]; } &&
	grep -q '^Caveat: confirmation run 9 measured 7 changed curves again: 7 held (confirmed), 0 did not hold (not confirmed)\.$' "$tmp/out"
ok $? "previous and new image alternating, slower again: confirmed, --fail-on-regression exits 4 ($c)"
"$BENCHORCH" compare --db "$tmp/conf.db" --store 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$tmp/conf.db" "select count(*) from verdict_curves where confirmation = 1 and state = 'confirmed' and library = 'libgcrypt'")" -eq 7 ] &&
	[ "$(sqlite3 "$tmp/conf.db" "select count(*) from verdict_curves where confirmation is not null")" -eq 7 ] &&
	confirm conf 10 1 && "$BENCHORCH" compare --db "$tmp/conf.db" --store 6 8 >/dev/null 2>"$tmp/err" &&
	[ "$(sqlite3 "$tmp/conf.db" "select count(*) from verdict_curves where confirmation = 0 and state = 'unchanged'")" -eq 7 ] &&
	[ "$(sqlite3 "$tmp/conf.db" "select count(*) from verdict_curves where confirmation is not null")" -eq 7 ]
ok $? "--store keeps each curve's confirmation: 1 for the 7 that held, 0 for the 7 that did not"
confirm conf 10 1 && c=$(held conf) && [ "$c" = "0 0 10 " ] && fail conf &&
	grep -q '^Caveat: confirmation run 10 measured 7 changed curves again: 0 held (confirmed), 7 did not hold (not confirmed): debian:bookworm libgcrypt aes-128-cbc decrypt bulk, .*, debian:bookworm libgcrypt sha-256 hash bulk\.$' "$tmp/out" &&
	[ "$(grep -c ' libgcrypt .* regression ' "$tmp/out")" -eq 0 ] &&
	grep -q '^run 6 (base) against run 8 (new): [0-9]* curves compared, 0 changed' "$tmp/out"
ok $? "previous and new image alike: the changes did not hold, not reported (unchanged), the caveat names them, exit 0 ($c)"
# the same confirmation with a duet of the previous against the new image
# stored with it (confirm runs one): its paired verdicts decide, not the
# alternating rounds
duet_sql="insert into duets (started_at, host, base_image, base_digest, new_image, new_digest, quick, rounds, seed, threshold, status, confirmation_run_id, distro, release)
values ('2026-01-11T00:00:00Z', 'h', 'debian-bookworm.previous', 'sha256:0', 'debian-bookworm', 'sha256:1', 0, 24, 1, 0.03, 'done', 10, 'debian', 'bookworm');
insert into duet_curves (duet_id, library, algorithm, operation, mode, tested, verdict, effect, low, high, p, rounds, mde, sizes)
select (select max(id) from duets), 'libgcrypt', algorithm, operation, mode, 1, 'slower', -0.1, -0.12, -0.08, 0.0001, 24, 0.02, 5
from (select distinct algorithm, operation, mode from results_v where run_id = 8 and library = 'libgcrypt')"
confirm conf 10 1 && sqlite3 "$tmp/conf.db" "$duet_sql" &&
	c=$(held conf) && [ "$c" = "7 7 10 1111111" ] && { fail conf; [ $? -eq 4 ]; } &&
	grep -q '^Caveat: confirmation run 10 measured debian:bookworm.s previous and new image side by side (duet [0-9]*): its paired verdicts decide\.$' "$tmp/out"
ok $? "previous and new image alike in alternating rounds, but a duet of them found libgcrypt slower: the duet decides, confirmed, exit 4 ($c)"
sqlite3 "$tmp/conf.db" "update duet_curves set verdict = 'same', effect = 0.001, low = -0.01, high = 0.012, p = 0.8" &&
	c=$(held conf) && [ "$c" = "0 0 10 " ] && fail conf
ok $? "a duet that found them the same: not held, exit 0 ($c)"
# nothing changed between runs 6 and 7, but run 10, a confirmation of run
# 7, ran a duet of its previous and new image with libgcrypt (its package
# changed) under test: its paired verdicts stand for libgcrypt's curves
sqlite3 "$tmp/conf.db" "delete from confirmation_curves; delete from confirmations; delete from duet_curves; delete from duets;
insert into confirmations (run_id, confirmed_run_id, distro, release, image_id, previous_image_id)
values (10, 7, 'debian', 'bookworm', 2, 1)" && sqlite3 "$tmp/conf.db" "$duet_sql" &&
	sqlite3 "$tmp/conf.db" "insert into duet_libraries (duet_id, side, library, package, package_version, tested)
select max(id), 'base', 'libgcrypt', 'libgcrypt20', '1.10.1-3', 1 from duets;
insert into duet_libraries (duet_id, side, library, package, package_version, tested)
select max(id), 'new', 'libgcrypt', 'libgcrypt20', '1.10.1-3+b2', 1 from duets" &&
	"$BENCHORCH" compare --db "$tmp/conf.db" --format json 6 7 >"$tmp/json" 2>"$tmp/err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
g = [c for c in d["curves"] if c["library"] == "libgcrypt"]
assert d["changed"] == d["confirmed"] == d["confirmed_regressions"] == 7 == len(g), d["changed"]
assert all(c["state"] == "confirmed" and c["effect"] == -0.1 and c["new_version"] == "1.10.1-3+b2" for c in g), g
assert d["confirmation_run"] == 10
' "$tmp/json" && "$BENCHORCH" compare --db "$tmp/conf.db" --fail-on-regression 6 7 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] && grep -q "^Caveat: confirmation run 10's duet [0-9]* decides the 7 curves of debian:bookworm's library whose package or build changed (libgcrypt), whatever the runs alone show: 7 slower, 0 faster\.$" "$tmp/out"
ok $? "nothing changed between the runs, but the confirmation's duet found libgcrypt (its package changed) slower: its verdicts stand, confirmed, exit 4 ($rc)"
sqlite3 "$tmp/conf.db" "update duet_curves set verdict = 'same', effect = 0.001, low = -0.01, high = 0.012, p = 0.8" &&
	"$BENCHORCH" compare --db "$tmp/conf.db" --fail-on-regression 6 7 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^run 6 (base) against run 7 (new): 21 curves compared, 0 changed' "$tmp/out"
ok $? "the same duet finding them the same: nothing changed, exit 0"
sqlite3 "$tmp/conf.db" "delete from duet_libraries; delete from duet_curves; delete from duets"
# images swapped: the confirmation finds libgcrypt faster, not slower
confirm conf 9 1 && sqlite3 "$tmp/conf.db" "update confirmations set image_id = 1, previous_image_id = 2" &&
	c=$(held conf) && [ "$c" = "0 0 9 " ] && fail conf
ok $? "a confirmation that found the change the other way round: unchanged, exit 0 ($c)"
confirm conf 10 1 &&
	sqlite3 "$tmp/conf.db" "delete from results where invocation_id in (select id from invocations where run_id = 10)
and library_id in (select id from libraries where name = 'libgcrypt') and algorithm <> 'sha-256'" &&
	c=$(held conf) && [ "$c" = "6 6 10 ------" ] && { fail conf; [ $? -eq 4 ]; } &&
	grep -q 'did not hold (not confirmed): debian:bookworm libgcrypt sha-256 hash bulk\.$' "$tmp/out"
ok $? "a confirmation that measured one curve decides that curve only; the others keep halves and history ($c)"
confirm re 9 NULL && c=$(held re) && [ "$c" = "7 7 9 1111111" ] && { fail re; [ $? -eq 4 ]; }
ok $? "no previous image, measured once more and slower again: confirmed, exit 4 ($c)"
confirm re 10 NULL && c=$(held re) && [ "$c" = "0 0 10 " ] && fail re &&
	grep -q '^Caveat: confirmation run 10 measured 7 changed curves again: 0 held (confirmed), 7 did not hold' "$tmp/out"
ok $? "no previous image, measured once more and not slower: unchanged, exit 0 ($c)"
confirm re 9 1 && c=$(held re) && [ "$c" = "7 7 None -------" ] && { fail re; [ $? -eq 4 ]; } &&
	grep -q "^Caveat: confirmation run 9 could not be judged for debian:bookworm (no image '1' in run '9'): its changes keep the rule without a confirmation\.$" "$tmp/out"
ok $? "a confirmation naming a previous image it did not measure: a caveat, the rule without ($c)"
confirm re 10 NULL && sqlite3 "$tmp/re.db" "update runs set status = 'running' where id = 10" && c=$(held re) && [ "$c" = "7 7 None -------" ]
ok $? "an unfinished confirmation run counts for nothing ($c)"

# The host's speed: six runs at speeds drawn per run, then a run 1.5
# times slower (every library by its own slope of the canary's time),
# then one as slow with libgcrypt 10 % slower too. The canary took the
# host's time around every curve: the verdict takes it out.
sqlite3 "$tmp/rg.db" <"$tmp/schema.sql" && sqlite3 "$tmp/rg.db" "pragma user_version = $last" &&
	python3 "$top_srcdir/tests/fixtures/verdict-runs.py" "$tmp/rg.db" regime regime \
		regime regime regime regime slow slow-gcrypt-10
ok $? "runs 1-6 at the host's varying speed, 7 a slow host, 8 slow with libgcrypt -10 %"
raw=$(sqlite3 "$tmp/rg.db" "select round(100 * (avg(case when i.run_id = 7 then ln(r.mb_per_s) end) - avg(case when i.run_id = 6 then ln(r.mb_per_s) end)))
	from results r join invocations i on i.id = r.invocation_id join libraries l on l.id = r.library_id where l.name = 'openssl'" 2>/dev/null)
"$BENCHORCH" compare --db "$tmp/rg.db" --format json 6 7 >"$tmp/rg.json" 2>"$tmp/err" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
want = {"openssl": -2.0, "libgcrypt": -1.0, "nettle": -0.5}
assert d["curves_compared"] == 21 and d["changed"] == 0, (d["changed"], d["curves_compared"])
assert all(1.3 * want[c["library"]] <= c["regime_slope"] <= 0.7 * want[c["library"]] for c in d["curves"]), [(c["library"], c["regime_slope"]) for c in d["curves"]]
assert all(abs(c["effect"]) < 0.05 for c in d["curves"]), [c["effect"] for c in d["curves"]]
' "$tmp/rg.json"
ok $? "a slow host (OpenSSL ${raw:-?} % in log throughput): no curve changed, each adjusted by about its library's slope"
"$BENCHORCH" compare --db "$tmp/rg.db" --format json 6 8 >"$tmp/rg.json" 2>"$tmp/err" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ch = [c for c in d["curves"] if c["state"] != "unchanged"]
assert {c["library"] for c in ch} == {"libgcrypt"} and len(ch) == 7, [(c["library"], c["state"]) for c in ch]
assert all(-0.14 < c["effect"] < -0.06 for c in ch), [c["effect"] for c in ch]
' "$tmp/rg.json"
ok $? "a slow host and libgcrypt -10 %: the 7 libgcrypt curves changed, about -10 %, nothing else"
"$BENCHORCH" compare --db "$tmp/rg.db" --format csv 6 8 2>/dev/null | head -1 | tr -d '\r' | grep -q ',new_version,regime_slope$'
ok $? "csv: the slope is the last column"

if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" compare --db "$db" --points --format json 6 8 >/dev/null 2>"$tmp/vg" &&
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" compare --db "$tmp/rg.db" --format json 6 8 >/dev/null 2>>"$tmp/vg"
	ok $? "compare under valgrind, with and without the host-speed adjustment: no memory error"
else
	skip_point "needs valgrind" "compare under valgrind: no memory error"
fi

done_testing
