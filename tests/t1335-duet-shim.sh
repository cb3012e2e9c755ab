#!/bin/sh
# t1335-duet-shim - the duets' known truth (tests/duet-images.sh): two
# copies of the cached Debian image, each with a name and a digest of its
# own, with the stand-in libcrypto.so.3 of tests/fixtures/duet-shim.c,
# K = 0 (the wrapper alone) and K = 2 (every 2nd timed unit repeated:
# bulk throughput 2/3, -33 %; oneshot unchanged). The guest, run in each
# under systemd-nspawn, loads the stand-in, passes every known-answer and
# timed-path check with it (the repeats go to a context of their own),
# and measures OpenSSL's bulk curves about a third slower with K = 2 and
# its oneshot curves as fast (medians over the points; the bounds leave
# room for this host's noise between two processes). Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/duet-images.sh"
guest=$top_builddir/guest/benchorch-guest
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v python3 >/dev/null 2>&1 || skip_all "needs python3"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
command -v objdump >/dev/null 2>&1 || skip_all "needs objdump"
[ -x "$guest" ] || skip_all "$guest not built"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
state=$tmp/state

duet_image_copy "$state" "$TEST_IMAGE" duet-k0 &&
	duet_image_copy "$state" "$TEST_IMAGE" duet-k2
ok $? "two copies of the cached image"
[ "$(sed -n 's/^  "name": "\(.*\)",$/\1/p' "$state/images/duet-k2/image.json")" = duet-k2 ] &&
	! cmp -s "$state/images/duet-k0/image.json" "$state/images/duet-k2/image.json" &&
	[ "$(grep -c '"digest"' "$state/images/duet-k2/image.json")" -eq 1 ] &&
	! grep -q "$(sed -n 's/^  "digest": "\(.*\)",$/\1/p' "$TEST_IMAGE/image.json")" \
		"$state/images/duet-k2/image.json"
ok $? "each named for itself, with a digest of its own"
duet_image_shim "$state" duet-k0 0 && duet_image_shim "$state" duet-k2 2
ok $? "the stand-in installed in both (K = 0, K = 2)"
lib=$(duet_libdir "$state/images/duet-k2/rootfs")
objdump -p "$lib/libcrypto.so.3" | grep -q 'NEEDED *libcrypto-real.so.3$' &&
	cmp -s "$lib/libcrypto-real.so.3" "$(duet_libdir "$TEST_IMAGE/rootfs")/libcrypto.so.3" &&
	[ -z "$(objdump -T "$lib/libcrypto.so.3" | grep -o 'GLIBC_2\.3[7-9]\|GLIBC_2\.[4-9][0-9]')" ]
ok $? "it needs the real library by its new name, and no glibc newer than 2.36"
grep -q '"libssl3": "[^"]*+duetk2"' "$state/images/duet-k2/image.json"
ok $? "openssl's package marked changed"
[ -e "$(duet_libdir "$TEST_IMAGE/rootfs")/libcrypto.so.3" ] &&
	[ ! -e "$(duet_libdir "$TEST_IMAGE/rootfs")/libcrypto-real.so.3" ] &&
	grep -q '^  "name": "debian-bookworm",$' "$TEST_IMAGE/image.json"
ok $? "the cached image untouched"

# nspawn IMAGE NAME: the guest in the copy, stdout to $tmp/out.NAME
nspawn() {
	systemd-nspawn -q --register=no --keep-unit --private-network \
		--read-only --console=pipe --as-pid2 \
		-D "$state/images/$1/rootfs" \
		--bind-ro="$guest:/run/benchorch/guest" \
		-- /run/benchorch/guest --quick --libs openssl \
		--algos aes-128-ctr,aes-128-gcm,sha-256 \
		>"$tmp/out.$2" 2>"$tmp/err.$2"
}
rc=0
for i in 1 2 3; do
	nspawn duet-k0 k0.$i && nspawn duet-k2 k2.$i || rc=1
done
[ $rc -eq 0 ]
ok $? "the guest runs in both, three times each, exit 0"

out=$(python3 - "$tmp" <<'PY'
import glob, json, math, statistics, sys
tmp = sys.argv[1]
speed, bad, libs = {}, [], set()
for f in glob.glob(tmp + "/out.k*"):
    k, i = f.rsplit("/out.", 1)[1].split(".")
    for line in open(f):
        o = json.loads(line)
        if o["type"] == "library":
            libs.add((o["status"], o.get("path", "")))
        elif o["type"] == "error" or (o["type"] in ("kat", "crosscheck") and
                                        not o.get("ok", o.get("roundtrip", True))):
            bad.append(o)
        elif o["type"] == "result":
            if not o["verified"]:
                bad.append(o)
            key = (o["algorithm"], o["operation"], o["mode"], o["buffer_bytes"])
            speed.setdefault(key, {}).setdefault(k, []).append(o["mb_per_s"])
n = 0
def ok(cond, what):
    global n
    n += 1
    print("%d %s %s" % (n, "ok" if cond else "not-ok", what))
ok(libs == {("loaded", "/usr/lib/x86_64-linux-gnu/libcrypto-real.so.3")},
   "the guest loaded OpenSSL through the stand-in %s" % sorted(libs))
ok(not bad, "every KAT, cross-check and result verified, no error %s" % bad[:2])
eff = {"bulk": [], "oneshot": []}
for key, v in speed.items():
    if "k0" in v and "k2" in v:
        eff[key[2]].append(math.log(statistics.median(v["k2"]) /
                                    statistics.median(v["k0"])))
b = math.exp(statistics.median(eff["bulk"])) - 1 if eff["bulk"] else 0
o = math.exp(statistics.median(eff["oneshot"])) - 1 if eff["oneshot"] else -1
ok(-0.45 < b < -0.22, "bulk: %+.1f %% with K = 2 over %d points (truth -33.3 %%)"
   % (100 * b, len(eff["bulk"])))
ok(-0.10 < o < 0.10, "oneshot: %+.1f %% with K = 2 over %d points (truth 0)"
   % (100 * o, len(eff["oneshot"])))
PY
)
echo "$out" | while read -r _ st what; do
	[ "$st" = ok ]
	echo "$? $what"
done >"$tmp/points"
while read -r st what; do
	ok "$st" "$what"
done <"$tmp/points"
[ "$(wc -l <"$tmp/points")" -eq 4 ]
ok $? "the measurements were read (4 points above)"
[ -z "$(mounts_under "$state")" ] && [ -z "$(stray_guests "$state")" ]
ok $? "no mount and no process left"
done_testing
