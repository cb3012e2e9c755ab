#!/bin/sh
# samework.sh - before/after table for the (library, algorithm) pairs whose
# timed work the "same work for every library" rules changed
# (guest/PROTOCOL.md, "Timing modes"): two guests, OLD and NEW, run
# alternately in the cached Debian bookworm rootfs under systemd-nspawn,
# pinned to one CPU, ROUNDS rounds each; the table gives ns per call (the
# median over the rounds of each round's median batch / calls) at 16 B,
# 1 KiB and 1 MiB, bulk and one-shot, and NEW / OLD.
#
# Usage: tests/bench/samework.sh OLD_GUEST NEW_GUEST [ROUNDS] [CPU]
# Needs root, systemd-nspawn, python3 and the rootfs t3100 builds
# ($BENCHORCH_TEST_STATE/images/debian-bookworm/rootfs). Hold the machine's
# integration lock while it runs.
set -eu
old=$1
new=$2
rounds=${3:-3}
cpu=${4:-1}
state=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
rootfs="$state/images/debian-bookworm/rootfs"
libs=${SAMEWORK_LIBS:-openssl,libgcrypt,nettle,libsodium,gnutls,wolfssl,botan,mbedtls,libtomcrypt}
algos=${SAMEWORK_ALGOS:-chacha20,salsa20,aes-128-gcm,chacha20-poly1305,aes-128-cbc,sha-256,md5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_guest() { # GUEST OUT
	systemd-nspawn -q --register=no --keep-unit --private-network \
		--read-only --console=pipe --as-pid2 -D "$rootfs" \
		--bind-ro="$1:/run/benchorch/guest" -- /run/benchorch/guest \
		--quick --min-batch-ns 1000000 --repetitions 5 --max-reruns 2 \
		--cpu "$cpu" --libs "$libs" --algos "$algos" >"$2" 2>/dev/null
}

r=1
while [ "$r" -le "$rounds" ]; do
	run_guest "$old" "$tmp/old.$r"
	run_guest "$new" "$tmp/new.$r"
	r=$((r + 1))
done

python3 - "$tmp" "$rounds" <<'PY'
import json, sys, statistics, collections
tmp, rounds = sys.argv[1], int(sys.argv[2])
def load(which):
    pts = collections.defaultdict(list)
    clocks = []
    for r in range(1, rounds + 1):
        for l in open("%s/%s.%d" % (tmp, which, r)):
            o = json.loads(l)
            if o["type"] == "hello":
                clocks.append((o["clock_hz"], o.get("clock_source", "-")))
            if o["type"] != "result" or o["buffer_bytes"] not in (16, 1024, 1048576):
                continue
            k = (o["library"], o["algorithm"], o["operation"], o["mode"],
                 o["buffer_bytes"])
            pts[k].append(o["median_ns"] / o["calls_per_batch"])
    return {k: statistics.median(v) for k, v in pts.items()}, clocks
old, oc = load("old")
new, nc = load("new")
print("# clock_hz old:", " ".join("%d(%s)" % c for c in oc))
print("# clock_hz new:", " ".join("%d(%s)" % c for c in nc))
print("%-11s %-17s %-7s %-7s %7s %12s %12s %6s" % (
    "library", "algorithm", "op", "mode", "bytes", "old_ns", "new_ns", "ratio"))
for k in sorted(set(old) | set(new)):
    o, n = old.get(k), new.get(k)
    print("%-11s %-17s %-7s %-7s %7d %12s %12s %6s" % (
        k[0], k[1], k[2], k[3], k[4],
        "%.1f" % o if o else "-", "%.1f" % n if n else "-",
        "%.2f" % (n / o) if o and n else "-"))
PY
