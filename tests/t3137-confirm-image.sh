#!/bin/sh
# t3137-confirm-image - what a confirmation measures and compares with:
#  1. on the fixture database (tests/fixtures/results-mkdb, run 3 of
#     Debian bookworm, run 1 its baseline), with run 2 made --nohw: the
#     confirmation of run 3 compares it with run 1, as compare --latest 2
#     does, not with the --nohw run 2; the image run 3 measured
#     (debian-bookworm) is gone and only an imported copy with the same
#     distro, release and digest is there: one line says so, nothing is
#     measured, exit 3;
#  2. on real images: debian-bookworm and bookworm-b, a copy with the
#     same digest; the confirmation of a run of debian measures
#     debian-bookworm, and of a run of bookworm-b, bookworm-b.
# Short: --quick, openssl, sha-256. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/duet-images.sh"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/fixture.db
state=$tmp/state
q() { sqlite3 -batch -noheader "$db" "$1"; }

# 1. The fixture.
hex=$(printf '%064d' 2)
"$top_builddir/tests/fixtures/results-mkdb" "$db" &&
	q "UPDATE images SET digest = 'sha256:$hex' WHERE digest = 'sha256:d2';
	   UPDATE invocations SET variant = 'nohw' WHERE run_id = 2;
	   UPDATE invocations SET status = 'failed' WHERE run_id = 3
	   AND spec <> 'debian'" &&
	mkdir -p "$state/images/bookworm-b/rootfs" &&
	sed -e 's/"name": "[^"]*"/"name": "bookworm-b"/' \
		-e "s/\"digest\": \"[^\"]*\"/\"digest\": \"sha256:$hex\"/" \
		"$top_srcdir/tests/fixtures/images-image-good.json" \
		>"$state/images/bookworm-b/image.json"
ok $? "a fixture database (run 2 --nohw) and an imported image bookworm-b with the digest of run 3's debian-bookworm"
nruns=$(q "select count(*) from runs")
"$BENCHORCH" confirm --run 3 --state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -q "^benchorch: curves of run 3 that look changed against run 1: [1-9]" "$tmp/err"
ok $? "run 3 is compared with run 1, made alike, past the --nohw run 2: $(grep 'look changed' "$tmp/err")"
base=$("$BENCHORCH" compare --latest 2 --format json --db "$db" 2>/dev/null |
	sed -n 's/.*"base_run": *\([0-9]*\).*/\1/p' | head -1)
[ "$base" = 1 ]
ok $? "as compare --latest 2 takes it (base run ${base:-none})"
[ $rc -eq 3 ] &&
	[ "$(grep -c "the image 'debian-bookworm' run 3 measured is gone" "$tmp/err")" -eq 1 ] &&
	! grep -q "bookworm-b" "$tmp/out" &&
	[ "$(q "select count(*) from runs")" -eq "$nruns" ] && [ ! -s "$tmp/out" ]
ok $? "the image it measured is gone: said in one line, nothing measured, exit 3 (got $rc): $(tr '\n' '|' <"$tmp/err")"

# 2. Real images with the same digest.
if ! command -v systemd-nspawn >/dev/null 2>&1 || ! test_image_ready; then
	skip_point "needs systemd-nspawn and the cached test image" \
		"a confirmation measures the image its run measured"
	done_testing
	exit
fi
state=$tmp/real
db=$state/results.db
digest=$(sed -n 's/^  "digest": "\(sha256:[0-9a-f]*\)",$/\1/p' "$TEST_IMAGE/image.json")
duet_image_copy "$state" "$TEST_IMAGE" debian-bookworm &&
	duet_image_copy "$state" "$TEST_IMAGE" bookworm-b &&
	for i in debian-bookworm bookworm-b; do
		duet_json_edit "$state/images/$i/image.json" \
			-e "s/^  \"digest\": \"sha256:[0-9a-f]*\",\$/  \"digest\": \"$digest\",/"
	done
ok $? "debian-bookworm and bookworm-b, the same distro, release and digest"
TEST_STATE=$state
sel="--quick --libs openssl --algos sha-256"
for spec in debian bookworm-b; do
	"$BENCHORCH" run --no-confirm --distros $spec $sel \
		--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err" &&
		run=$(q "select max(id) from runs") &&
		"$BENCHORCH" confirm --run "$run" --curves openssl/sha-256 \
			--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
	rc=$?
	want=$( [ $spec = debian ] && echo debian-bookworm || echo bookworm-b)
	conf=$(q "select run_id from confirmations where confirmed_run_id = ${run:-0}")
	[ $rc -eq 0 ] && [ -n "$conf" ] &&
		[ "$(q "select group_concat(distinct spec) from invocations where run_id = $conf")" = "$want" ]
	ok $? "the confirmation (run ${conf:-none}) of a run of $spec measures $want alone (got $(q "select group_concat(distinct spec) from invocations where run_id = ${conf:-0}"), exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
done
[ -z "$(stray_guests)" ] && [ -z "$(mounts_under "$state")" ]
ok $? "no guest and no mount left behind"
done_testing
