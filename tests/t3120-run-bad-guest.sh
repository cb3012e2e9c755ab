#!/bin/sh
# t3120-run-bad-guest - a guest that prints garbage, crashes, hangs, lies
# late in its output or whose clock disagrees with the host's: one clear
# line, a non-zero exit, nothing of that invocation stored, the database
# consistent, nothing left behind. A guest whose clock agrees is believed.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

# try NAME EXPECTED-MESSAGE [OPTIONS...]
try() {
	name=$1
	msg=$2
	shift 2
	BENCHORCH_GUEST="$top_srcdir/tests/fixtures/guest-$name.sh" \
		"$BENCHORCH" run --no-confirm --distros debian --quick --state-dir "$TEST_STATE" \
		--db "$db" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok $([ $rc -eq 1 ]; echo $?) "$name guest: exit status 1 (got $rc)"
	grep -q "$msg" "$tmp/err"
	ok $? "$name guest: says '$msg': $(grep -v '^benchorch: [a-z]*:.*running' "$tmp/err" | head -1)"
	[ ! -s "$tmp/out" ]
	ok $? "$name guest: prints no summary"
	run=$(q "select max(id) from runs")
	[ "$(q "select status from runs where id = $run")" = failed ] &&
	[ "$(q "select status from invocations where run_id = $run")" = failed ] &&
	[ "$(q "select count(*) from results r join invocations i on i.id = r.invocation_id where i.run_id = $run")" -eq 0 ]
	ok $? "$name guest: run and invocation failed, no results stored"
	[ "$(q "pragma integrity_check")" = ok ]
	ok $? "$name guest: database consistent"
	[ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(stray_guests)" ]
	ok $? "$name guest: no mount or process left"
}

try garbage "guest output line 1: not JSON"
# A guest that rejects its arguments (status 2, before any output) is not
# a failure of systemd-nspawn: its own complaint is the error, under each
# runner, and the auto runner does not retry it under chroot.
for runner in auto nspawn chroot; do
	try usage "^benchorch: debian: .*guest exited with status 2 (a usage error): benchorch-guest: unknown option '--no-such-option' (guest log: [^)]*); its remaining rounds are skipped$" --runner $runner
	! grep -q "chroot instead\|systemd-nspawn failed\|Try 'benchorch-guest" "$tmp/err" &&
		[ "$(grep -c "guest exited" "$tmp/err")" -eq 1 ]
	ok $? "usage guest, --runner $runner: one line, its own error, nothing blamed on nspawn: $(grep -v '^benchorch: [a-z]*:.*running' "$tmp/err" | tr '\n' '|')"
	want=$runner
	[ $runner = auto ] && want=nspawn
	[ "$(q "select group_concat(distinct runner) from invocations where run_id = $run")" = $want ]
	ok $? "usage guest, --runner $runner: stored as run under $want, once: $(q "select count(*) || ' ' || group_concat(runner) from invocations where run_id = $run")"
done
# the tool mode's runner path says the same
BENCHORCH_GUEST="$top_srcdir/tests/fixtures/guest-usage.sh" \
	"$BENCHORCH" run --tools --tool-size 4 --tool-reps 2 --distros debian \
	--state-dir "$TEST_STATE" --db "$tmp/tools.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] &&
	grep -q "^benchorch: debian: tool mode failed: guest exited with status 2 (a usage error): benchorch-guest: tool: unknown option or missing value '--cpu' (guest log: [^)]*)$" "$tmp/err" &&
	! grep -q "chroot instead\|systemd-nspawn failed" "$tmp/err"
ok $? "usage guest in the tool mode: exit 1 (got $rc), its own error, nothing blamed on nspawn: $(tr '\n' '|' <"$tmp/err")"
# A guest's stderr goes to its log through the runner, bounded, and the
# guest cannot rewrite the log: of a flood of 3 MiB the log keeps the
# first MiB and the last 4 KiB (its complaint, which the error names),
# says how much it left out, and begins as the guest began.
for runner in nspawn chroot; do
	try stderr-flood "guest exited with status 2 (a usage error): benchorch-guest: unknown option '--no-such-option'" --runner $runner
	log=$(ls -t "$TEST_STATE"/logs/*.log | head -1)
	size=$(stat -c %s "$log")
	[ "$size" -gt 1052672 ] && [ "$size" -lt 1060000 ] &&
		grep -q "^\[2093[0-9]* more bytes of this output left out: the log keeps the first 1048576 and the last 4096\]$" "$log"
	ok $? "$runner: the flood is cut to its first MiB and last 4 KiB, and the log says how much it left out ($size bytes)"
	[ "$(head -c 9 "$log")" = xxxxxxxxx ] && ! grep -q REWRITTEN "$log"
	ok $? "$runner: the guest could not truncate or overwrite its log ($(head -c 12 "$log"))"
done
# Under chroot the guest's own death is seen; under nspawn the container's
# stub init reports only a failure, so the line count names the point.
try crash "guest killed by signal 11 (Segmentation fault) after 2 lines" --runner chroot
try crash "guest exited with status 255 after 2 lines of output" --runner nspawn
try hang "guest timed out after 3 s" --timeout 3
try bad-late "guest output line 5: 'mb_per_s' must be a positive number"
# It waits 1 s between hello and done but says 1 us passed.
try clock-lie "^benchorch: debian: .*guest clock disagrees with the host: the guest timed 0.000 s from 'hello' to 'done', the host 1\.[0-9]* s (allowed: 5 % + 20 ms)"

# The same second, truthfully reported: the invocation is valid.
BENCHORCH_GUEST="$top_srcdir/tests/fixtures/guest-clock-true.sh" \
	"$BENCHORCH" run --no-confirm --distros debian --quick --state-dir "$TEST_STATE" \
	--db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
# It measures nothing, so the run exits 1 for that - and for nothing else.
[ $rc -eq 1 ] && grep -q "^benchorch: run [0-9]* measured nothing: " "$tmp/err" &&
	! grep -q "disagrees" "$tmp/err"
ok $? "a guest whose clock agrees is believed: the run fails only for measuring nothing (got $rc)"
[ $rc -eq 1 ] || sed 's/^/# /' "$tmp/err"
run=$(q "select max(id) from runs")
# One invocation per round, each a second long.
[ "$(q "select count(*) from invocations where run_id = $run and status <> 'ok'")" = 0 ] &&
[ "$(q "select count(*) > 0 and min(guest_elapsed_ns > 900000000 and host_elapsed_ns >= 1000000000 and abs(host_elapsed_ns - guest_elapsed_ns) <= 0.05 * host_elapsed_ns + 20000000) from invocations where run_id = $run")" = 1 ]
ok $? "both elapsed times are stored, a second apart from hello to done in every round: $(q "select group_concat(guest_elapsed_ns || '/' || host_elapsed_ns, ' ') from invocations where run_id = $run")"

done_testing
