#!/usr/bin/env python3
"""tests/bench/spread.py - how stable can one point's figure be on this host?

usage: tests/bench/spread.py TRACE [SEED]

TRACE is the output of tests/bench/regimes.c run with "all" (every block
of every kernel, and the trace's length in seconds), e.g.

    cc -O2 -o regimes tests/bench/regimes.c -lcrypto -lm
    taskset -c 1 ./regimes 40000 all > trace      (about 4 minutes)
    tests/bench/spread.py trace

A block is the median time of 16 timings of a kernel (about 0.1 s). From
the trace this script draws 2000 start times at random (SEED, default 1)
and, for each kernel, computes the coefficient of variation (standard
deviation / mean) of the throughput estimated by:

  1s-mean    the throughput of one second of blocks (total work / total
             time): what `openssl speed -seconds 1` reports;
  snap       one block: a point measured within a fraction of a second,
             as the guest measures its sets back to back;
  medMxGs    the median of M blocks G seconds apart: a point measured in
             M sets spread over (M - 1) x G seconds;
  meanMxGs   the mean of the same.

and, for the three crypto kernels, the same after the canary's share is
taken out of each block (log throughput minus slope x the canary's log
throughput, the slope fitted on the whole trace by least squares: the best
a correction by the contention canary could do, since a real one must
estimate its slope from fewer points).

A trace that also has the reference kernels aes-lat, aes-thr and
add-chain gets the same correction with each of them in the canary's
place.

Each figure is printed with its ratio to the 1s-mean's coefficient of
variation: the issue's noise-floor goal asks the tool for <= 0.5.
"""
import math
import random
import re
import statistics as st
import sys

KERNELS = ["canary", "ctr", "cbc", "sha256-16"]
# Reference kernels of later traces (libc and compiler intrinsics only):
# each is tried as the covariate in place of the canary.
REFERENCES = ["canary", "aes-lat", "aes-thr", "add-chain"]
DRAWS = 2000


def load(path):
    """The trace's blocks per kernel (relative times) and the length of a
    block in seconds."""
    with open(path) as f:
        lines = f.read().splitlines()
    m = re.match(r"(\d+) blocks of (\d+) rounds in ([\d.]+) s", lines[0])
    if not m:
        sys.exit("%s: not a trace of regimes (first line: %r)" % (path, lines[0]))
    nblocks, seconds = int(m.group(1)), float(m.group(3))
    series = {}
    for line in lines[1:]:
        words = line.split()
        if words and words[0] in KERNELS + REFERENCES and len(words) == nblocks + 1:
            series[words[0]] = [float(w) for w in words[1:]]
    missing = [k for k in KERNELS if k not in series]
    # a trace from before the extra reference kernels has only the canary
    if missing:
        sys.exit("%s: no block line for %s (run regimes with \"all\")"
                 % (path, ", ".join(missing)))
    return series, seconds / nblocks


def cv(values):
    return st.pstdev(values) / st.mean(values)


def estimators(rate, times, block_s, rng):
    """(name, coefficient of variation) for each estimator over DRAWS start
    blocks; RATE is throughput per block, TIMES the blocks' times (for the
    one-second mean)."""
    n = len(rate)
    per_s = max(1, int(round(1 / block_s)))

    def starts(span):
        return [rng.randrange(0, n - span) for _ in range(DRAWS)]

    out = [("1s-mean", cv([1 / st.mean(times[i:i + per_s])
                           for i in starts(per_s)])),
           ("snap", cv([rate[i] for i in starts(1)]))]
    for m, gap in [(2, 30), (3, 15), (3, 30), (5, 5), (5, 15)]:
        g = max(1, int(gap / block_s))
        if m * g >= n:
            continue
        out.append(("med%dx%ds" % (m, gap),
                    cv([st.median(rate[i + j * g] for j in range(m))
                        for i in starts(m * g)])))
    for m, gap in [(3, 15), (5, 15)]:
        g = max(1, int(gap / block_s))
        if m * g >= n:
            continue
        out.append(("mean%dx%ds" % (m, gap),
                    cv([st.mean(rate[i + j * g] for j in range(m))
                        for i in starts(m * g)])))
    return out


def show(name, rows, base):
    print("%-17s " % name + "  ".join("%s %.1f%% (%.2f)" % (e, v * 100, v / base)
                                     for e, v in rows))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    series, block_s = load(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    print("%d blocks of %.3f s; coefficient of variation over %d draws"
          " (ratio to the 1s-mean's)" % (len(series["ctr"]), block_s, DRAWS))
    for k in KERNELS + [r for r in REFERENCES[1:] if r in series]:
        times = series[k]
        rows = estimators([1 / t for t in times], times, block_s,
                          random.Random(seed))
        show(k, rows, rows[0][1])
    for ref in [r for r in REFERENCES if r in series]:
        can = [-math.log(t) for t in series[ref]]
        can_mean = st.mean(can)
        print("the %s's share taken out (slope fitted on the whole trace):"
              % ref)
        for k in KERNELS[1:]:
            times = series[k]
            y = [-math.log(t) for t in times]
            y_mean = st.mean(y)
            slope = (sum((a - can_mean) * (b - y_mean)
                         for a, b in zip(can, y)) /
                     sum((a - can_mean) ** 2 for a in can))
            adjusted = [math.exp(b - slope * (a - can_mean))
                        for a, b in zip(can, y)]
            base = estimators([1 / t for t in times], times, block_s,
                              random.Random(seed))[0][1]
            rows = estimators(adjusted, times, block_s,
                              random.Random(seed))[1:]
            show("%s slope %.2f" % (k, slope), rows, base)


if __name__ == "__main__":
    main()
