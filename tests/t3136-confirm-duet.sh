#!/bin/sh
# t3136-confirm-duet - after a rebuild that changed a library's package
# (the previous image kept), 'benchorch confirm' runs the duet of the
# previous against the new image for that library even when no curve
# looks changed to compare, and the duet's paired verdicts stand for the
# library's curves in compare:
#  - the new image's libcrypto.so.3 a stand-in that repeats every 2nd
#    timed call (tests/duet-images.sh, K = 2: OpenSSL's bulk curves -33 %),
#    measured by both runs (so nothing looks changed between them): the
#    confirmation is a duet alone, stored with its own run record, and
#    compare --fail-on-regression exits 4;
#  - the same image with only its package version label changed (A/A):
#    the duet runs and compare --fail-on-regression exits 0.
# Short: --quick, one library, one algorithm. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/duet-images.sh"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
command -v objdump >/dev/null 2>&1 || skip_all "needs objdump"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sel="--quick --libs openssl --algos sha-256"

# scenario NAME: STATE $tmp/NAME with debian-bookworm (the new image,
# made by the caller after this) and debian-bookworm.previous (the
# cached image's bytes); runs 1 and 2 of the new image, then confirm
# --run 2. Sets state, db, q().
scenario_state() {
	state=$tmp/$1
	db=$state/results.db
	duet_image_copy "$state" "$TEST_IMAGE" debian-bookworm &&
		duet_image_copy "$state" "$TEST_IMAGE" debian-bookworm.previous
}
q() { sqlite3 -batch -noheader "$db" "$1"; }
runs_and_confirm() {
	for i in 1 2; do
		"$BENCHORCH" run --no-confirm --distros debian $sel --seed $i \
			--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err" || return 1
	done
	"$BENCHORCH" confirm --run 2 --seed 5 --state-dir "$state" --db "$db" \
		>"$tmp/out" 2>"$tmp/err"
}

# 1. A slower stand-in.
scenario_state slow && duet_image_shim "$state" debian-bookworm 2
ok $? "a new image with a stand-in libcrypto.so.3 (K = 2), the cached image's bytes as its previous"
TEST_STATE=$state
runs_and_confirm
rc=$?
ok $rc "runs 1 and 2 of the new image, confirm --run 2 exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
diag "$(grep -E 'look changed|package of' "$tmp/err")"
grep -q "^benchorch: debian:bookworm: no curve looks changed, but the package of openssl changed: a duet of the previous and the new image decides$" "$tmp/err" ||
	grep -q "curves of run 2 that look changed against run 1: [1-9]" "$tmp/err"
ok $? "stderr says the package change brings a duet (nothing looked changed, or a curve did)"
conf=$(q "select run_id from confirmations where confirmed_run_id = 2")
[ -n "$conf" ] && [ "$(q "select status from runs where id = $conf")" = done ] &&
	[ "$(q "select count(*) from duets where confirmation_run_id = $conf and status = 'done' and base_image = 'debian-bookworm.previous' and new_image = 'debian-bookworm' and libs = 'openssl' and algos = 'sha-256' and quick = 1")" -eq 1 ] &&
	[ "$(q "select previous_image_id is not null and previous_removed from confirmations where run_id = $conf")" = 1 ]
ok $? "a confirmation run (${conf:-none}), done, with a duet of openssl sha-256 (--quick) stored with it, both images named, the previous removed"
[ "$(q "select count(*) from duet_curves c join duets d on d.id = c.duet_id where d.confirmation_run_id = ${conf:-0} and c.library = 'openssl' and c.mode = 'bulk' and c.tested = 1 and c.verdict = 'slower'")" -eq 1 ]
ok $? "the duet found openssl's bulk sha-256 slower, openssl under test"
[ ! -e "$state/images/debian-bookworm.previous" ]
ok $? "the previous image is removed after the duet"
# two runs of one image: compare rarely flags a curve, but can by chance;
# then the confirmation also has rounds, and is no duet alone
if grep -q "curves of run 2 that look changed against run 1: [1-9]" "$tmp/err"; then
	alone=
else
	alone=1
fi
if [ -n "$alone" ]; then
	grep -q '^openssl  *tested ' "$tmp/out"
	ok $? "a confirmation that is a duet alone prints the duet's verdicts"
else
	skip_point "a curve looked changed by chance: the confirmation has rounds too" \
		"a confirmation that is a duet alone prints the duet's verdicts"
fi
"$BENCHORCH" runs --db "$db" >"$tmp/runs" 2>&1 &&
	grep -Eq "^ *$conf .* done .* confirmation +2\$" "$tmp/runs"
ok $? "runs lists run $conf as a confirmation of run 2"
"$BENCHORCH" results --run "$conf" --db "$db" >"$tmp/res" 2>&1
rc=$?
if [ -n "$alone" ]; then
	[ $rc -eq 1 ] && grep -q "run $conf confirms run 2 by a duet of the previous and the new image alone (duet [0-9]*: its verdicts in duet_curves_v)" "$tmp/res"
	ok $? "results --run $conf says it has no points and where its verdicts are ($rc: $(tail -1 "$tmp/res"))"
else
	skip_point "a curve looked changed by chance: the confirmation has rounds too" \
		"results --run $conf says it has no points and where its verdicts are"
fi
"$BENCHORCH" compare --db "$db" --latest 2 --format json >"$tmp/json" 2>"$tmp/cerr" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["base_run"] == 1 and d["new_run"] == 2, (d["base_run"], d["new_run"])
assert d["confirmation_run"] == int(sys.argv[2]), d["confirmation_run"]
b = [c for c in d["curves"] if c["library"] == "openssl" and c["mode"] == "bulk"]
assert b and all(c["state"] == "confirmed" and c["effect"] < -0.2 for c in b), b
' "$tmp/json" "$conf"
ok $? "compare takes runs 1 and 2 (not the confirmation), and the duet's verdict: openssl bulk confirmed slower"
"$BENCHORCH" compare --db "$db" --fail-on-regression 1 2 >"$tmp/cout" 2>"$tmp/cerr"
rc=$?
[ $rc -eq 4 ] && grep -q "duet [0-9]* decides the [0-9]* curves\? of debian:bookworm's library whose package or build changed (openssl)" "$tmp/cout"
ok $? "compare --fail-on-regression exits 4 on the duet's slower curve ($rc), a caveat says the duet decides"
[ $rc -eq 4 ] || sed 's/^/# /' "$tmp/cout"

# 2. A/A: the same bytes, another package version label.
scenario_state aa &&
	duet_json_edit "$state/images/debian-bookworm/image.json" \
		-e 's/^\(    "libssl3": "[^"]*\)"/\1+relabel"/' &&
	grep -q '"libssl3": "[^"]*+relabel"' "$state/images/debian-bookworm/image.json"
ok $? "an A/A pair: the new image differs only in libssl3's version label"
TEST_STATE=$state
runs_and_confirm
rc=$?
ok $rc "runs 1 and 2, confirm --run 2 exits 0"
conf=$(q "select run_id from confirmations where confirmed_run_id = 2")
[ "$(q "select count(*) from duets where confirmation_run_id = ${conf:-0} and status = 'done' and libs like '%openssl%'")" -eq 1 ]
ok $? "the duet ran ($(q "select group_concat(mode || ':' || verdict, ' ') from duet_curves"))"
"$BENCHORCH" compare --db "$db" --fail-on-regression 1 2 >"$tmp/cout" 2>"$tmp/cerr"
rc=$?
[ $rc -eq 0 ]
ok $? "compare --fail-on-regression exits 0 ($rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/cout"
[ -z "$(stray_guests)" ] && [ -z "$(mounts_under "$state")" ]
ok $? "no guest and no mount left behind"
done_testing
