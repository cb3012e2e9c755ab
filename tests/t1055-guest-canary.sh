#!/bin/sh
# tests/t1055-guest-canary.sh - the contention canary in the running guest
# (on this host's libcrypto, --quick): one canary line per curve after its
# results; a sweep whose canary moved is measured once more, its first
# results dropped (each point printed once, done counting them once), and
# flagged moved only when the canary moved again. The move is made by
# --canary-disturb, which gives the canary after the first N sweeps three
# times its work, as a process taking the CPU would. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"

guest=${top_builddir:-.}/guest/benchorch-guest
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
[ -x "$guest" ] || skip_all "$guest not built"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run N: the guest on sha-256 with --canary-disturb N, no fork (the count
# of sweeps is the process's).
run() {
	"$guest" --quick --min-batch-ns 100000 --libs openssl --algos sha-256 \
		--no-fork --canary-disturb "$1" >"$tmp/out.$1" 2>"$tmp/err.$1"
}
run 0
rc=$?
grep -q '"status":"absent"' "$tmp/out.0" && skip_all "no libcrypto on this host"
ok $rc "the guest runs"
run 1
ok $? "the guest runs with the first sweep's canary disturbed"
run 2
ok $? "the guest runs with both sweeps' canaries disturbed"

# check N EXPR: EXPR (python) holds for the lines of run N: results (the
# result objects), canaries, done, order (the types in order).
check() {
	python3 - "$tmp/out.$1" "$2" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
results = [o for o in objs if o["type"] == "result"]
canaries = [o for o in objs if o["type"] == "canary"]
done = objs[-1]
order = [o["type"] for o in objs]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# --quick: 16 B, 1 KiB, 16 KiB, 256 KiB in bulk, the first three one-shot
check 0 'len(results) == 7 and done["results"] == 7'
ok $? "seven results, counted by done"
check 0 'sorted((c["operation"], c["mode"]) for c in canaries) == [("hash", "bulk"), ("hash", "oneshot")]'
ok $? "one canary line per curve (hash bulk, hash one-shot)"
check 0 'max(i for i, t in enumerate(order) if t == "result") < min(i for i, t in enumerate(order) if t == "canary")'
ok $? "the canary lines follow the curve's results"
check 0 'all(c["before_ns"] > 0 and c["after_ns"] > 0 and c["noise"] >= 0.03 and c["moved"] == (abs(c["after_ns"] / c["before_ns"] - 1) > c["noise"]) for c in canaries)'
ok $? "times, a noise of at least 3 %, moved as they say"

# A canary given three times its work moves unless the host itself
# slowed during its five timings enough to widen their spread past it (or
# slowed the timings before it): seen once in many runs. Such a run says
# nothing of the re-measuring, so it is tried again, up to three times in
# all; every try's output must still be whole.
# retry N EXPR: EXPR holds for run N, or for one of two more runs of it;
# fails at once when a try's results are not the seven points once each.
retry() {
	for try in 1 2 3; do
		[ "$try" -gt 1 ] && { run "$1" || return 1; }
		check "$1" 'len(results) == 7 and done["results"] == 7 and len({(r["operation"], r["mode"], r["buffer_bytes"]) for r in results}) == 7' || return 1
		check "$1" "$2" && return 0
		echo "# run $1, try $try: the disturbed canary did not move; again"
	done
	return 1
}
check 1 'len(results) == 7 and done["results"] == 7 and len({(r["operation"], r["mode"], r["buffer_bytes"]) for r in results}) == 7'
ok $? "a moved canary: the sweep measured again, each point printed once, done counts 7"
retry 1 'len(canaries) == 2 and all(c["remeasured"] for c in canaries)'
ok $? "its canary lines say it was measured again"
retry 2 'len(canaries) == 2 and all(c["remeasured"] and c["moved"] and c["after_ns"] > 2 * c["before_ns"] for c in canaries)'
ok $? "moved again: kept once and flagged moved (after more than twice before), each point printed once"

# the allowance: four sweeps (four hashes), every canary disturbed.
# --remeasure-max 10 measures again only the first (at most 1 + 10 % of
# the sweeps begun), 0 none, 100 every one; the sweeps not measured again
# keep their lines, marked moved
for pct in 10 0 100; do
	"$guest" --quick --min-batch-ns 100000 --libs openssl \
		--algos sha-256,sha-1,md5,sha-512 --no-fork \
		--canary-disturb 1000 --remeasure-max $pct >"$tmp/out.cap$pct" \
		2>"$tmp/err.cap$pct"
	ok $? "four disturbed sweeps with --remeasure-max $pct: the guest runs"
done
# (a disturbed canary moves unless the host itself slowed during its
# timings and widened their spread beyond the triple work: so what each
# allowance promises is checked of the sweeps whose canary moved)
check cap10 'len(canaries) == 8 and sum(c["remeasured"] for c in canaries) == (2 if any(c["moved"] or c["remeasured"] for c in canaries) else 0) and done["results"] == len(results) == 28'
ok $? "--remeasure-max 10: one sweep of four measured again (the first whose canary moved), the others kept, every point once"
check cap0 'len(canaries) == 8 and not any(c["remeasured"] for c in canaries) and sum(c["moved"] for c in canaries) >= 2 and done["results"] == len(results) == 28'
ok $? "--remeasure-max 0: none measured again, the moved kept as moved"
check cap100 'len(canaries) == 8 and all(c["remeasured"] or not c["moved"] for c in canaries) and sum(c["remeasured"] for c in canaries) >= 2 and done["results"] == len(results) == 28'
ok $? "--remeasure-max 100: every sweep whose canary moved measured again"
"$guest" --remeasure-max 101 --quick >/dev/null 2>"$tmp/err.bad"
[ $? -eq 2 ] && grep -q "remeasure-max: want 0..100" "$tmp/err.bad"
ok $? "--remeasure-max 101: usage error, exit 2"
done_testing
