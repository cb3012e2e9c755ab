#!/bin/sh
# t3172-duet-pubkey - a duet's public-key operations and key derivation
# (guest/PROTOCOL.md, "Duet"; benchorch(1), duet): an A/A duet of a copy
# of the cached Debian image against itself, --algos
# x25519,ed25519,hkdf-sha256 --libs openssl,nettle --quick: every
# operation of both libraries a curve of mode pubkey (or kdf), none
# slower or faster, --fail-on-regression exits 0, stored in duet_curves
# and duet_points. Short: 12 curves of one point each, 6 rounds. Prints
# TAP.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/duet-images.sh"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
state=$tmp/state
duet_image_copy "$state" "$TEST_IMAGE" pk
ok $? "a copy of the cached image"
TEST_STATE=$state

# thresholds far above the noise keep the A/A from failing by chance
"$BENCHORCH" duet --state-dir "$state" --quick --rounds 6 --max-rounds 6 \
	--libs openssl,nettle --algos x25519,ed25519,hkdf-sha256 --seed 5 --threshold 25 \
	--fail-on-regression --format json pk pk >"$tmp/aa.json" 2>"$tmp/aa.err"
rc=$?
[ "$rc" -eq 0 ]
ok $? "A/A of public-key operations: exit 0 with --fail-on-regression (status $rc: $(tail -1 "$tmp/aa.err"))"

python3 - "$tmp" "$tap_n" <<'PY' >"$tmp/py.out"
import json, sys
tmp, n = sys.argv[1], int(sys.argv[2])
def ok(cond, what):
    global n
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
try:
    aa = json.load(open("%s/aa.json" % tmp))
except Exception as e:
    aa = {"curves": []}
want = {(l, a, o) for l in ("openssl", "nettle")
        for a, ops in (("x25519", ("import", "derive")),
                       ("ed25519", ("import", "sign", "verify")))
        for o in ops}
got = {(c["library"], c["algorithm"], c["operation"])
       for c in aa["curves"] if c.get("mode") == "pubkey"}
kdf = {c["library"] for c in aa["curves"] if c.get("mode") == "kdf"
       and c["algorithm"] == "hkdf-sha256" and c["operation"] == "derive"}
ok(got == want and kdf == {"openssl", "nettle"} and len(aa["curves"]) == 12,
   "every public-key curve (mode pubkey) and HKDF's (mode kdf), and "
   "nothing else (%d; missing %s)" % (len(aa["curves"]), sorted(want - got)))
ok(all(c["verdict"] in ("same", "undecided") and c["rounds"] == 6
       and c["low"] <= c["effect"] <= c["high"] for c in aa["curves"]),
   "A/A: each same or undecided, over 6 rounds (%s)"
   % ["%s %s %s %s %+.3f" % (c["library"], c["algorithm"], c["operation"],
                             c["verdict"], c["effect"])
      for c in aa["curves"]])
print("# %d" % n)
PY
cat "$tmp/py.out" | grep -v '^# [0-9]*$'
tap_failed=$((tap_failed + $(grep -c '^not ok' "$tmp/py.out")))
tap_n=$(sed -n 's/^# \([0-9][0-9]*\)$/\1/p' "$tmp/py.out")

db=$state/results.db
[ "$(sqlite3 "$db" "select count(*) from duet_curves_v where mode = 'pubkey'")" -eq 10 ] &&
	[ "$(sqlite3 "$db" "select count(*) from duet_curves_v where mode = 'kdf'")" -eq 2 ] &&
	[ "$(sqlite3 "$db" "select count(*) from duet_points where mode in ('pubkey', 'kdf') and buffer_bytes = 1 and json_array_length(block_ns) = 6")" -eq 24 ]
ok $? "stored: 12 curves in duet_curves, 24 points (two sides) in duet_points, 6 blocks each"
[ -z "$(stray_guests)" ] && [ -z "$(mounts_under "$state")" ]
ok $? "no guest and no mount left behind"
done_testing
