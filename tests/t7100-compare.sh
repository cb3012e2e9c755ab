#!/bin/sh
# t7100-compare - `benchorch compare --points`, the point-by-point table:
# a library slowed down in a second run (medians doubled through the db
# API) is a regression annotated with its package update; identical runs
# give none. (The curve verdicts are t7120's.)
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture: run 2 = run 1 with libgcrypt twice as slow; run 3 = run 2"

"$BENCHORCH" compare --db "$db" --points 1 2 >"$tmp/out" 2>"$tmp/err"
ok $? "compare 1 2 exits 0 without --fail-on-regression"
grep -q '^54 regressions above 3.0 %:' "$tmp/out"
ok $? "54 regressions: libgcrypt's 27 points in each of 2 distros"
! grep -E '^  .* (openssl|nettle) .*MB/s \(' "$tmp/out"
ok $? "no other library regresses"
grep -Eq '^  debian:bookworm libgcrypt aes-256-gcm encrypt 16 KiB: [0-9.]+ -> [0-9.]+ MB/s \(-50\.0 %\); libgcrypt20 1\.10\.1-3 -> 1\.10\.1-3\+b1$' "$tmp/out"
ok $? "a Debian regression carries the libgcrypt20 update"
grep -Eq '^  ubuntu:noble libgcrypt .*no package change for this library$' "$tmp/out"
ok $? "an Ubuntu regression says no package changed"
grep -q '^0 improvements' "$tmp/out"
ok $? "no improvements"
sed -n '/^Packages changed/,$p' "$tmp/out" | grep -q 'libgcrypt20 1.10.1-3 -> 1.10.1-3+b1'
ok $? "changed packages listed per distro"
grep -q 'at least 5 raw samples (166 points), a Mann-Whitney rank test on them gives p < 0.05; elsewhere (0 points) the \[median, best\] throughput ranges' "$tmp/out"
ok $? "the output states the significance method: the rank test on the stored samples"

"$BENCHORCH" compare --db "$db" --points --fail-on-regression 1 2 >/dev/null 2>&1
[ $? -eq 0 ]
ok $? "--fail-on-regression exits 0: one invocation a side cannot confirm a regression"
"$BENCHORCH" compare --db "$db" --points --fail-on-regression 2 3 >"$tmp/out" 2>&1
ok $? "identical runs: exit 0 with --fail-on-regression"
grep -q '^0 regressions' "$tmp/out" && grep -q '^0 improvements' "$tmp/out" &&
	! grep -q '^Packages changed' "$tmp/out"
ok $? "identical runs: no regression, no improvement, no package change"
"$BENCHORCH" compare --db "$db" --points --latest 2 --all >"$tmp/out2" 2>&1
ok $? "--latest 2 exits 0"
grep -q '^Run 2 (base, variant hw) against run 3 (new, variant hw): 166 points' "$tmp/out2"
ok $? "--latest 2 picks runs 2 and 3, 166 points in common"
# an aborted run's results are partial: --latest passes over it, and
# naming it gets a warning
cp "$db" "$tmp/ab.db" && sqlite3 "$tmp/ab.db" "update runs set status = 'aborted' where id = 3" &&
	"$BENCHORCH" compare --db "$tmp/ab.db" --points --latest 2 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^Run 1 (base, variant hw) against run 2 (new, variant hw)' "$tmp/out"
ok $? "--latest 2 passes over an aborted run: $(head -1 "$tmp/err")"
# like with like: a --nohw run newest is compared with the latest --nohw
# run before it, a plain one with the latest plain one (a --nohw run in
# between is no regression of a package); none made alike: exit 1
cp "$db" "$tmp/var.db" && sqlite3 "$tmp/var.db" "update invocations set variant = 'nohw' where run_id = 2" &&
	"$BENCHORCH" compare --db "$tmp/var.db" --points --latest 2 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^Run 1 (base, variant hw) against run 3 (new, variant hw)' "$tmp/out" &&
	sqlite3 "$tmp/var.db" "update invocations set variant = 'nohw' where run_id = 3" &&
	"$BENCHORCH" compare --db "$tmp/var.db" --points --latest 2 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^Run 2 (base, variant nohw) against run 3 (new, variant nohw)' "$tmp/out" &&
	sqlite3 "$tmp/var.db" "update invocations set variant = 'hw' where run_id = 2; update runs set quick = 0 where id < 3" &&
	{ "$BENCHORCH" compare --db "$tmp/var.db" --latest 2 >"$tmp/out" 2>"$tmp/err"; [ $? -eq 1 ]; } &&
	grep -q "no finished run before run 3 was made like it (--quick, --nohw, libraries one after the other)" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "--latest 2 compares runs made alike (--quick, --nohw), exit 1 when there are none: $(cat "$tmp/err")"
"$BENCHORCH" compare --db "$tmp/ab.db" 2 3 >/dev/null 2>"$tmp/err" &&
	grep -q "^benchorch: warning: run 3 is stored as aborted: its results are partial$" "$tmp/err"
ok $? "comparing with an aborted run says its results are partial"
# so does confirming it (no image here: nothing is measured, exit 3;
# confirm takes the machine's run lock, which needs root)
if [ "$(id -u)" -eq 0 ]; then
	"$BENCHORCH" confirm --db "$tmp/ab.db" --run 3 --state-dir "$tmp/nostate" \
		>/dev/null 2>"$tmp/err"
	[ $? -eq 3 ] &&
		grep -q "^benchorch: warning: run 3 is stored as aborted: its results are partial$" "$tmp/err"
	ok $? "confirming an aborted run says its results are partial"
else
	skip_point "needs root (the run lock)" "confirming an aborted run says its results are partial"
fi
# nothing compared is no all-clear
sqlite3 "$tmp/ab.db" "delete from results where invocation_id in (select id from invocations where run_id = 3)"
"$BENCHORCH" compare --db "$tmp/ab.db" --fail-on-regression 2 3 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "^benchorch: runs 2 and 3 have no curve in common: nothing compared$" "$tmp/err"
ok $? "two runs without a curve in common: exit 1, said on stderr: $(tail -1 "$tmp/err")"
"$BENCHORCH" compare --db "$db" --points 2 1 >"$tmp/out" 2>&1
grep -q '^54 improvements above' "$tmp/out"
ok $? "the other way round they are improvements"
"$BENCHORCH" compare --db "$db" --points --threshold 60 1 2 >"$tmp/out" 2>&1
grep -q '^0 regressions above 60.0 %' "$tmp/out"
ok $? "--threshold 60 hides a 50 % slowdown"
"$BENCHORCH" compare --db "$db" --points --format json 1 2 >"$tmp/json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["points"]) == 166 and len(d["point_regressions"]) == 54
assert all(r["library"] == "libgcrypt" and r["change"] < -0.49 for r in d["point_regressions"])
# the curve counts keep their type with --points
assert isinstance(d["regressions"], int) and isinstance(d["improvements"], int)
assert d["point_improvements"] == []
assert {"distro": "debian:bookworm", "package": "libgcrypt20", "old_version": "1.10.1-3", "new_version": "1.10.1-3+b1"} in d["package_changes"]
assert all(p["method"] == "mann-whitney" and 0 < p["p"] <= 1 for p in d["points"])
assert all(r["p"] < 0.05 for r in d["point_regressions"])
' "$tmp/json"
ok $? "--format json: points, regressions, package_changes; each judged on its raw samples, with its p-value"
"$BENCHORCH" compare --db "$db" 1 99 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch compare: no run 99 in '$db'$" "$tmp/err"
ok $? "an unknown run id is an unknown name: exit 2"
"$BENCHORCH" compare --db "$db" 1 2 --base-image 99 --new-image 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no image '99' in run '1'" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "so is an image the run did not measure"
"$BENCHORCH" compare --db "$db" 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ]
ok $? "one run id is a usage error"
if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" compare --db "$db" --points --format json 1 2 >/dev/null 2>"$tmp/vg"
	ok $? "compare under valgrind: no memory error"
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" results --db "$db" --run 1 --lib openssl >/dev/null 2>"$tmp/vg"
	ok $? "results with filters under valgrind: no memory error"
else
	skip_point "needs valgrind" "compare under valgrind: no memory error"
	skip_point "needs valgrind" "results with filters under valgrind: no memory error"
fi

done_testing
