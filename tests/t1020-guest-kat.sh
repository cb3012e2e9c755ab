#!/bin/sh
# tests/t1020-guest-kat.sh - run the guest on this host (against the host's
# libcrypto) with --quick and check its output (protocol 3): every line is
# a JSON object of at most 4096 bytes in protocol order, every known-answer
# test passed, every result is verified and complete, bulk and one-shot,
# key setup and the cross-check line are there, every measurement carries
# its raw samples and statistics that follow from them, the clocks are
# reported. Prints TAP. (Every backend
# in a real Debian rootfs: tests/t1100-guest-libraries.sh.)

guest=${top_builddir:-.}/guest/benchorch-guest
algos=aes-128-cbc,aes-128-ctr,aes-256-gcm,chacha20-poly1305,sha-256

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 not installed"
	exit 0
fi
if [ ! -x "$guest" ]; then
	echo "1..0 # SKIP $guest not built"
	exit 0
fi

tmp=${TMPDIR:-/tmp}/t1020.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
# Short batches: this checks correctness and the protocol, not speed.
"$guest" --quick --min-batch-ns 200000 --repetitions 3 --max-reruns 2 --libs openssl \
	--algos "$algos" >"$tmp.out" 2>"$tmp.err"
status=$?
if grep -q '"status":"absent"' "$tmp.out"; then
	echo "1..0 # SKIP no libcrypto.so.3 or libcrypto.so.1.1 on this host"
	exit 0
fi

python3 - "$tmp.out" "$status" "$algos" <<'PY'
import json, sys

path, status, algos = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
raw = open(path, "rb").read()
tests = []

def check(cond, what):
    tests.append((bool(cond), what))

check(status == 0, "exit status 0 (got %d)" % status)
lines = raw.split(b"\n")
check(lines and lines[-1] == b"", "output ends with a newline")
lines = lines[:-1]
check(all(len(l) + 1 <= 4096 for l in lines), "every line <= 4096 bytes")
objs = []
bad = None
for l in lines:
    try:
        o = json.loads(l.decode("utf-8"))
        if not isinstance(o, dict) or not isinstance(o.get("type"), str):
            raise ValueError("not an object with a type")
        objs.append(o)
    except Exception as e:
        bad = "%r: %s" % (l[:80], e)
        break
check(bad is None, "every line is a JSON object with a type" +
      ("" if bad is None else " (" + bad + ")"))
types = [o["type"] for o in objs]
check(types[:1] == ["hello"] and objs[0].get("protocol") == 3
      and objs[0].get("variant") == "hw"
      and 10**6 <= objs[0].get("clock_hz", 0) <= 10**11,
      "first line is hello, protocol 3, variant hw, a measured clock")
check(types[-1:] == ["done"] and types.count("hello") == 1
      and types.count("done") == 1, "exactly one done, last")
libs = [o for o in objs if o["type"] == "library"]
check(len(libs) == 1 and libs[0]["status"] == "loaded"
      and libs[0].get("soname", "").startswith("libcrypto.so.")
      and libs[0].get("path", "").startswith("/")
      and libs[0].get("version", "").startswith("OpenSSL")
      and len(libs[0].get("build_id", "")) == 40,
      "openssl loaded, with soname, path, version and a 20-byte build-id")
kats = [o for o in objs if o["type"] == "kat"]
check(kats and all(k["ok"] is True for k in kats),
      "all %d kat lines ok" % len(kats))
check({k["algorithm"] for k in kats} == set(algos),
      "a kat for every algorithm")
check(all(k.get("source") for k in kats), "every kat cites its source")
errors = [o for o in objs if o["type"] in ("error", "unsupported")]
check(not errors, "no error or unsupported lines %s" % errors[:2])
results = [o for o in objs if o["type"] == "result"]
check(results and all(r["verified"] is True for r in results),
      "all %d results verified" % len(results))
want = set()
for a in algos:
    for op in (["hash"] if a == "sha-256" else ["encrypt", "decrypt"]):
        for n in (16, 1024, 16384, 262144):
            want.add((a, op, "bulk", n))
            if n <= 16384:
                want.add((a, op, "oneshot", n))
got = {(r["algorithm"], r["operation"], r["mode"], r["buffer_bytes"])
       for r in results}
check(got == want and len(results) == len(want),
      "one result per algorithm, operation, --quick size, bulk and one-shot"
      " up to 16 KiB")
ccs = [o for o in objs if o["type"] == "crosscheck"]
check(sorted(c["algorithm"] for c in ccs) == sorted(algos)
      and all(c["roundtrip"] is True and c["input_bytes"] == 131072
              and len(c["digest"]) == 16 for c in ccs),
      "one crosscheck line per algorithm, round trip ok")
ks = [o for o in objs if o["type"] == "keysetup"]
check({(k["algorithm"], k["operation"]) for k in ks}
      == {(a, op) for a in algos if a != "sha-256"
          for op in ("encrypt", "decrypt")}
      and all(k["ns_per_call"] > 0 and k["verified"] for k in ks),
      "key setup timed for every cipher, both directions")
def sane(r):
    return (r["calls_per_batch"] >= 1
            and r["bytes_per_batch"] == r["buffer_bytes"] * r["calls_per_batch"]
            and r["repetitions"] == 3
            and 1 <= r["min_ns"] <= r["p25_ns"] <= r["median_ns"] <= r["p75_ns"]
            and isinstance(r["mb_per_s"], float)
            and abs(r["mb_per_s"] - r["bytes_per_batch"] / r["median_ns"] * 1000)
                <= 1e-6 * r["mb_per_s"])
check(all(sane(r) for r in results),
      "result members consistent (bytes, ns, MB/s, quartiles in order)")
def quartile(v, k):
    v = sorted(v)
    pos = k * (len(v) - 1)
    lo, rem = pos // 4, pos % 4
    if rem == 0:
        return v[lo]
    d = v[lo + 1] - v[lo]
    return v[lo] + (d // 4) * rem + ((d % 4) * rem + 2) // 4
def stats_follow(m):
    # --repetitions 3 --max-reruns 2: three sets of three, always; the
    # median is that of the sets' medians, the rest of all nine samples
    s = m.get("samples_ns")
    if not (isinstance(s, list) and m.get("sets") == 3
            and len(s) == m["repetitions"] * m["sets"]
            and all(isinstance(x, int) and x >= 1 for x in s)):
        return False
    mean = sum(s) / len(s)
    sd = (sum((x - mean) ** 2 for x in s) / (len(s) - 1)) ** 0.5
    med = quartile([quartile(s[k * 3:k * 3 + 3], 2) for k in range(3)], 2)
    return ([m["min_ns"], m["p25_ns"], m["median_ns"], m["p75_ns"]]
            == [quartile(s, 0), quartile(s, 1), med, quartile(s, 3)]
            and abs(m["cv"] - sd / mean) <= 1e-6 * sd / mean + 1e-9
            and m["noisy"] == (m["cv"] > 0.02)
            and m["reruns"] == 2)
check(all(stats_follow(m) for m in results + ks),
      "every result and key setup has its three sets of samples; the"
      " median of their medians, quartiles, cv and noisy follow from them")
done = objs[-1] if objs else {}
check(done.get("results") == len(results) and done.get("measure_ns", 0) > 0,
      "done counts the results and the time spent")
check(0 < done.get("measure_ns", 0) <= done.get("elapsed_ns", 0)
      and 10**6 <= done.get("clock_hz", 0) <= 10**11,
      "done has the elapsed time (>= the time measured) and the end clock")
tsc = done.get("tsc_hz", 0)
check((tsc == 0 and all(m["tsc_cycles"] == 0 for m in results + ks))
      or (tsc > 0 and all(0.5 < m["tsc_cycles"] * 1e9 / tsc / m["median_ns"] < 2
                          for m in results + ks)),
      "TSC ticks per batch agree with the ns per batch at the TSC rate"
      " (or no TSC: none reported)")

print("1..%d" % len(tests))
for i, (ok, what) in enumerate(tests, 1):
    print("%sok %d - %s" % ("" if ok else "not ", i, what))
sys.exit(0 if all(ok for ok, _ in tests) else 1)
PY
# (not exec'd: the EXIT trap must still remove the temporary files)
exit $?
