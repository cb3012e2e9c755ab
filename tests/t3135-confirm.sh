#!/bin/sh
# t3135-confirm - a confirmation as a real run on the cached Debian image:
# a copy of it stands for the previous image a rebuild kept (another
# digest, another libssl3 version); 'benchorch confirm' measures the
# previous and the new image in alternating rounds within one run, stores
# both, then the two side by side in a duet stored with it, records what
# it confirmed and removes the previous image. A
# confirmation killed in the middle leaves no mount or process and keeps
# the previous image for a later one, which then ends it.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
state="$tmp/state"
q() { sqlite3 -batch -noheader "$db" "$1"; }

# A state directory of our own with a copy of the cached image, so that
# the previous kept beside it never touches the shared cache. The
# helpers below look for guests and mounts under it.
mkdir -p "$state/images"
cp -a "$TEST_IMAGE" "$state/images/debian-bookworm"
ok $? "a copy of the cached image"
TEST_STATE=$state

# make_previous: a copy of the image as debian-bookworm.previous, as a
# rebuild that changed libssl3 leaves it.
make_previous() {
	rm -rf "$state/images/debian-bookworm.previous"
	cp -a "$state/images/debian-bookworm" "$state/images/debian-bookworm.previous" &&
	sed -i -E -e 's/("digest": "sha256:)[0-9a-f]{64}/\1'"$(printf '%064d' 7)"'/' \
		-e 's/("libssl3": ")[^"]*/\13.0.0-previous/' \
		"$state/images/debian-bookworm.previous/image.json"
}

libs=openssl,nettle
algos=aes-128-cbc,sha-256
"$BENCHORCH" run --distros debian --quick --libs $libs --algos $algos \
	--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
ok $? "a first run of the image"
[ "$(q "select status from runs where id = 1")" = done ]
ok $? "stored as run 1"

make_previous
ok $? "a previous image beside it"
"$BENCHORCH" images list --state-dir "$state" >"$tmp/list" 2>&1 &&
	grep -q '^debian-bookworm\.previous  *debian  *bookworm ' "$tmp/list" &&
	grep -q '^debian-bookworm  *debian  *bookworm ' "$tmp/list"
ok $? "images list shows the image and the previous kept beside it"

# 1. The confirmation: 3 rounds, each measuring both images.
"$BENCHORCH" confirm --run 1 --curves openssl/aes-128-cbc/encrypt,nettle/sha-256 \
	--quick --rounds 3 --seed 11 --state-dir "$state" --db "$db" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "confirm --run 1 --curves ... --rounds 3 exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
[ "$(q "select status from runs where id = 2")" = done ] &&
	[ "$(q "select command_line like 'benchorch confirm --run 1 %' from runs where id = 2")" = 1 ]
ok $? "the confirmation is run 2, done, with its command line"
new=$(q "select id from images where digest = '$(sed -n 's/.*"digest": "\(sha256:[0-9a-f]*\)".*/\1/p' "$state/images/debian-bookworm/image.json")'")
old=$(q "select id from images where digest = 'sha256:$(printf '%064d' 7)'")
[ -n "$new" ] && [ -n "$old" ] && [ "$new" != "$old" ]
ok $? "both images are stored, apart (new $new, previous $old)"
# Two curves of two libraries: a group per library, each measured in
# both images in every round.
[ "$(q "select round from invocations where run_id = 2 order by id" | tr '\n' ' ')" = "1 1 1 1 2 2 2 2 3 3 3 3 " ] &&
	grep -q "^benchorch: run 2: seed 11 ('--seed 11' repeats its order), 3 rounds x 4 invocations," "$tmp/err"
ok $? "twelve invocations in three rounds of four (two libraries, two images), and stderr says so"
q "select round || ' ' || algorithms || ' ' || image_id from invocations where run_id = 2 order by id" >"$tmp/inv"
awk -v new=$new -v old=$old '
	NR % 2 == 1 { r = $1; a = $2; i = $3; next }
	$1 != r || $2 != a || $3 == i || ($3 != new && $3 != old) ||
	    (i != new && i != old) { bad = 1 }
	END { exit bad || NR != 12 }' "$tmp/inv"
ok $? "each round measures each library in the previous and the new image, one right after the other"
q "select image_id from invocations where run_id = 2 order by id" | tr '\n' ' ' >"$tmp/order"
diag "order of images: $(cat "$tmp/order")"
[ "$(q "select group_concat(algorithms, ' ') from (select distinct algorithms from invocations where run_id = 2 order by 1)")" = "aes-128-cbc sha-256" ]
ok $? "each library's guest is asked only for its curves' algorithm"
for i in $new $old; do
	n=$(q "select count(*) from results r join invocations inv on inv.id = r.invocation_id where inv.run_id = 2 and inv.image_id = $i")
	[ "$n" -gt 0 ] || break
done
ok $? "results stored for both images"
[ "$(q "select count(*) from results_v where run_id = 2 and not ((library = 'openssl' and algorithm = 'aes-128-cbc') or (library = 'nettle' and algorithm = 'sha-256'))")" -eq 0 ] &&
[ "$(q "select count(distinct library || algorithm) from results_v where run_id = 2")" -eq 2 ]
ok $? "only the curves' libraries with their algorithms were measured"
[ "$(q "select confirmed_run_id || ' ' || distro || ':' || release || ' ' || image_id || ' ' || previous_image_id || ' ' || previous_removed from confirmations where run_id = 2")" = "1 debian:bookworm $new $old 1" ]
ok $? "the confirmation is recorded: run 1, both images, the previous removed"
[ "$(q "select group_concat(library || '/' || algorithm || '/' || operation || '/' || mode, ' ') from (select * from confirmation_curves where run_id = 2 order by library)")" = "nettle/sha-256// openssl/aes-128-cbc/encrypt/" ]
ok $? "with the curves asked for"
[ "$(q "select count(*) from duets where confirmation_run_id = 2 and distro = 'debian' and release = 'bookworm' and status = 'done' and base_image = 'debian-bookworm.previous' and new_image = 'debian-bookworm'")" -eq 1 ] &&
	[ "$(q "select group_concat(library || ':' || tested, ' ') from (select distinct library, tested from duet_curves c join duets d on d.id = c.duet_id where d.confirmation_run_id = 2 order by library)")" = "nettle:0 openssl:1" ] &&
	[ "$(q "select count(*) from duet_curves c join duets d on d.id = c.duet_id where d.confirmation_run_id = 2 and ((c.library = 'openssl' and c.algorithm = 'aes-128-cbc' and c.operation = 'encrypt') or (c.library = 'nettle' and c.algorithm = 'sha-256'))")" -eq 4 ] &&
	grep -q "the previous image 'debian-bookworm.previous' against 'debian-bookworm' side by side (a duet)" "$tmp/err"
ok $? "and a duet of the previous image against the new one, stored with the confirmation: openssl (libssl3 changed) under test, nettle a control"
[ "$(q "select count(*) from package_changes_v where run_id = 2")" -eq 0 ]
ok $? "a confirmation run records no package changes"
[ ! -e "$state/images/debian-bookworm.previous" ] && [ -d "$state/images/debian-bookworm/rootfs" ]
ok $? "the previous image is removed, the image kept"
grep -Eq '^debian:bookworm +openssl +aes-128-cbc +encrypt +bulk +16 +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ +3 +3$' "$tmp/out" &&
	grep -Eq '^debian:bookworm +nettle +sha-256 +hash +' "$tmp/out" &&
	! grep -q 'decrypt' "$tmp/out"
ok $? "stdout: per point the previous and the new median, the change, three invocations each"
grep -q "removed the previous image 'debian-bookworm.previous'" "$tmp/err"
ok $? "stderr says the previous image is removed"

# 2. The next run compares with run 1, not with the confirmation. (Its
# --sequential, batch length and repetitions serve section 5's last
# test.)
"$BENCHORCH" run --no-confirm --distros debian --quick --libs openssl --algos sha-256 \
	--sequential --min-batch-ms 0.25 --repetitions 2 \
	--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
[ "$(q "select count(*) from package_changes_v where run_id = 3")" -eq 0 ]
ok $? "the next run of the image finds no package change (the previous image measured in run 2 is not its predecessor)"

# 3. Killed in the middle: nothing left running or mounted, the previous
# kept (and listed) until a later confirmation ends. (Long batches: a
# confirmation of the --quick run 1 measures as quickly as it did, a
# tenth of a second a guest, too short to be seen and killed.)
make_previous
"$BENCHORCH" confirm --run 1 --curves openssl/aes-128-cbc --rounds 4 \
	--min-batch-ms 100 --state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for 120 '[ -n "$(running_guests)" ]'
ok $? "killed confirmation: a guest started"
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
ok $([ $rc -eq 143 ]; echo $?) "killed confirmation: exit status 143 (got $rc)"
wait_for 5 '[ -z "$(mounts_under "$state")" ] && [ -z "$(stray_guests)" ]' &&
	! grep -q '/run/benchorch' /proc/self/mountinfo
ok $? "killed confirmation: no mount or guest process left"
[ "$(q "select status from runs where id = 4")" = aborted ] &&
[ "$(q "select previous_removed from confirmations where run_id = 4")" = 0 ]
ok $? "killed confirmation: stored aborted, the previous not removed"
[ -f "$state/images/debian-bookworm.previous/image.json" ] &&
	"$BENCHORCH" images list --state-dir "$state" 2>&1 | grep -q '^debian-bookworm\.previous '
ok $? "killed confirmation: the previous image is kept and listed"
grep -q "is kept for a later confirmation" "$tmp/err"
ok $? "killed confirmation: stderr says the previous image is kept"

"$BENCHORCH" confirm --run 1 --curves openssl/aes-128-cbc/encrypt/bulk --quick \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "a later confirmation exits 0"
[ ! -e "$state/images/debian-bookworm.previous" ] &&
[ "$(q "select count(*) || ' ' || count(distinct image_id) from invocations where run_id = 5")" = "4 2" ] &&
[ "$(q "select previous_removed from confirmations where run_id = 5")" = 1 ]
ok $? "it measures both images in 2 rounds (the default) and removes the previous"

# 4. Without a previous image: the curves measured once more, in two
# rounds (one disturbed round does not decide).
"$BENCHORCH" confirm --run 1 --curves nettle/sha-256 --quick \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] &&
[ "$(q "select count(*) || ' ' || min(image_id) || ' ' || max(image_id) from invocations where run_id = 6")" = "2 $new $new" ] &&
[ "$(q "select previous_image_id is null from confirmations where run_id = 6")" = 1 ]
ok $? "without a previous image, two more invocations (rounds) of the current image"
# stdout then compares the confirmed run's own figures with the
# confirmation's: run 1's median and invocations beside the two new ones
n1=$(q "select count(*) from results_v where run_id = 1 and library = 'nettle' and algorithm = 'sha-256' and operation = 'hash' and mode = 'bulk' and buffer_bytes = 16")
head -1 "$tmp/out" | grep -Eq '^distro +library +algorithm +op +mode +bytes +run 1 MB/s +again MB/s +change% +n run 1 +n again$' &&
	grep -Eq "^debian:bookworm +nettle +sha-256 +hash +bulk +16 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[-+][0-9]+\.[0-9] +$n1 +2\$" "$tmp/out" &&
	! grep -q ' - \| 0 *$\|prev' "$tmp/out" &&
	[ "$(grep -c "^debian:bookworm " "$tmp/out")" -eq "$(q "select count(distinct operation || mode || buffer_bytes) from results_v where run_id = 6")" ]
ok $? "without a previous image, stdout puts run 1's figures ($n1 invocations) beside the confirmation's (2), per point: $(sed -n '1p;/ 16 /p' "$tmp/out" | tr '\n' '|')"

# 5. 'run' confirms by itself when the image it measured has a previous
# kept (a rebuild changed its packages), and not otherwise. Whether a
# curve looks changed between two runs of the same bytes is up to the
# noise: either a confirmation run measures both images, or nothing looks
# changed; both end with the previous removed.
make_previous
"$BENCHORCH" run --distros debian --quick --libs openssl --algos sha-256 \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
ok $? "a run with a previous image kept exits 0"
auto=$(q "select max(id) from runs where id not in (select run_id from confirmations)")
grep -q "^benchorch: run $auto: 1 image rebuilt with other packages, the previous kept; confirming what looks changed$" "$tmp/err"
ok $? "it says it confirms run $auto"
[ ! -e "$state/images/debian-bookworm.previous" ] &&
	{ grep -q "no curve looks changed; removed the previous image 'debian-bookworm.previous'" "$tmp/err" ||
	  [ "$(q "select previous_removed || ' ' || (previous_image_id is not null) from confirmations where confirmed_run_id = $auto")" = "1 1" ]; }
ok $? "the previous is removed: nothing looked changed, or a confirmation run measured both images"
diag "$(grep -E 'look changed|confirmed by|no curve' "$tmp/err")"
# Without a previous image, a run is followed by a confirmation exactly
# when a curve looks changed against the run before (up to the noise):
# then the current image is measured once more.
nruns=$(q "select count(*) from runs")
"$BENCHORCH" run --distros debian --quick --libs openssl --algos sha-256 \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && {
	{ [ "$(q "select count(*) from runs")" -eq $((nruns + 1)) ] &&
	  ! grep -q confirm "$tmp/err"; } ||
	{ [ "$(q "select count(*) from runs")" -eq $((nruns + 2)) ] &&
	  grep -Eq "measuring again the [0-9]+ curves? that looks? changed against run" "$tmp/err" &&
	  [ "$(q "select count(*) from confirmations where confirmed_run_id = $((nruns + 1)) and previous_image_id is null")" -eq 1 ]; }
}
ok $? "without a previous image: a confirmation of the current image only when a curve looks changed"
diag "$(grep -E 'look changed|confirmed by' "$tmp/err")"
nruns=$(q "select count(*) from runs")
"$BENCHORCH" run --no-confirm --distros debian --quick --libs openssl --algos sha-256 \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(q "select count(*) from runs")" -eq $((nruns + 1)) ] &&
	! grep -q confirm "$tmp/err"
ok $? "run --no-confirm: never a confirmation"
# A confirmation measures as the run it confirms did (run 3:
# --sequential, --quick, --min-batch-ms 0.25, --repetitions 2), none of
# it given here, and its stored command line says so.
"$BENCHORCH" confirm --run 3 --curves openssl/sha-256 \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
conf=$(q "select max(run_id) from confirmations where confirmed_run_id = 3")
[ $rc -eq 0 ] && [ -n "$conf" ] &&
	[ "$(q "select quick from runs where id = $conf")" = 1 ] &&
	[ "$(q "select command_line like 'benchorch confirm --run 3 % --sequential --quick --min-batch-ms 0.25 --repetitions 2' from runs where id = $conf")" = 1 ] &&
	[ "$(q "select group_concat(distinct r.repetitions) from results r join invocations i on i.id = r.invocation_id where i.run_id = $conf")" = 2 ] &&
	[ "$(q "select count(*) from canaries c join invocations i on i.id = c.invocation_id where i.run_id = $conf")" -gt 0 ]
ok $? "a confirmation takes the run's --sequential (a canary stored), --quick, batch length and repetitions, and records them (run $conf: $(q "select command_line from runs where id = ${conf:-0}"))"
"$BENCHORCH" confirm --run 3 --curves openssl/sha-256 --repetitions 4 --min-batch-ms 0 \
	--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--min-batch-ms: " "$tmp/err"
ok $? "confirm's own batch length is checked as run's (0 is out of range)"

# 6. Usage.
"$BENCHORCH" confirm --run 999 --state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q "no run 999 in '$db'" "$tmp/err"; echo $?) "an unknown run is a usage error, named"
"$BENCHORCH" confirm --run 1 --curves openssl --state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "invalid curve 'openssl'" "$tmp/err"
ok $? "a malformed curve is a usage error naming it"
# Names the guest does not know, an operation the algorithm does not
# have: usage errors before anything runs (no run stored, no guest).
nruns=$(q "select count(*) from runs")
for curve in openssl/nosuchalgo nosuchlib/sha-256 openssl/sha-256/encrypt \
	openssl/aes-128-cbc/encrypt/fast; do
	"$BENCHORCH" confirm --run 1 --curves nettle/sha-256,$curve --state-dir "$state" \
		--db "$db" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] &&
		grep -q "^benchorch confirm: --curves: invalid curve '$curve': " "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(q "select count(*) from runs")" -eq "$nruns" ]
	ok $? "--curves $curve: exit 2 (got $rc) before anything runs: $(head -1 "$tmp/err")"
done
# A confirmation run is not confirmed again.
"$BENCHORCH" confirm --run 2 --curves nettle/sha-256 --state-dir "$state" --db "$db" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qx "benchorch confirm: run 2 is itself a confirmation (of run 1)" "$tmp/err" && grep -qx "Try 'benchorch confirm --help'." "$tmp/err" &&
	[ "$(q "select count(*) from runs")" -eq "$nruns" ]
ok $? "confirm --run 2 (a confirmation of run 1): exit 2 (got $rc), said, nothing run: $(tr '\n' '|' <"$tmp/err")"
"$BENCHORCH" confirm --run 2 --state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qx "benchorch confirm: run 2 is itself a confirmation (of run 1)" "$tmp/err" && grep -qx "Try 'benchorch confirm --help'." "$tmp/err" &&
	[ "$(q "select count(*) from runs")" -eq "$nruns" ]
ok $? "and so without --curves (got $rc)"
# A tool run (run --tools) has no curve to confirm.
"$BENCHORCH" run --tools --tool-size 1 --tool-reps 1 --distros debian \
	--state-dir "$state" --db "$db" >/dev/null 2>"$tmp/err"
ok $? "a tool run"
tool=$(q "select max(id) from runs")
nruns=$(q "select count(*) from runs")
"$BENCHORCH" confirm --run "$tool" --state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qx "benchorch confirm: run $tool is a tool run (run --tools): nothing to confirm" "$tmp/err" &&
	[ "$(q "select count(*) from runs")" -eq "$nruns" ] && [ ! -s "$tmp/out" ]
ok $? "confirm --run $tool (a tool run): exit 2 (got $rc), said: $(tr '\n' '|' <"$tmp/err")"
[ "$(q "pragma integrity_check")" = ok ]
ok $? "database consistent"

done_testing
