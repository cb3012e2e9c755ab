#!/bin/sh
# tests/bench/noisefloor.sh - the noise floor of benchorch's own figure: a
# point's MB/s as a run stores and `benchorch results` prints it, against
# `openssl speed -evp` on the same machine, run after run.
#
# usage: tests/bench/noisefloor.sh [DIR]
#
# Runs NF_TRIALS (default 6) trials back to back; a trial is `openssl speed
# -mr -evp ALG -bytes N -seconds 1` for ALG in aes-128-cbc aes-128-ctr sha256
# and N in 16 1024 16384, inside the image's rootfs under systemd-nspawn,
# pinned with taskset to the CPU the guests are pinned to (the highest-
# numbered online CPU, as `run` chooses on a machine without core types;
# NF_CPU overrides), then one full `benchorch run --distros NF_DISTRO
# --no-confirm` (default debian) into a database of its own. One more
# openssl trial closes the series, so that every run sits between two.
# openssl runs under SCHED_FIFO (chrt -f 50), as tests/bench/fidelity.sh
# runs it; the run runs as a user runs it.
#
# Then, per point (OpenSSL's encrypt of the bulk mode for the ciphers, its
# one-shot hash for SHA-256: what openssl speed times), it prints the
# cross-run coefficient of variation (sample standard deviation / mean) of
# openssl speed's MB/s and of the run's figure (points_v: the median of the
# point's invocations, each the median of its sets' medians), their ratio
# (the issue's goal: <= 0.5) and the median ratio run / openssl (goal: 0.98
# to 1.02). Two more columns show what a correction for the host's speed
# would give, computed here and not by benchorch: each invocation's log
# throughput minus slope x (its contention canary's log time - the median
# over the database), the slope fitted per curve by least squares on the
# other runs' invocations (leave one run out, so that a run's own noise
# does not fit its correction), and the figure the mean over the
# invocations.
#
# With DIR (a directory this script filled before: runs.db and openssl.txt)
# it only reports. Otherwise the series goes to a new directory under
# ${TMPDIR:-/tmp}, printed first. NF_STATE sets --state-dir (the image is
# built there by the first run when missing: give it a built one). Run it
# as root, alone on the machine (it measures); a trial takes about as long
# as a full run. Exit status: 0 every point within both goals, 1 some
# point not or a run failed, 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
trials=${NF_TRIALS:-6}
distro=${NF_DISTRO:-debian}
cpu=${NF_CPU:-$(($(nproc) - 1))}
case $trials in ''|*[!0-9]*|0|1) echo "$0: NF_TRIALS must be >= 2" >&2; exit 2 ;; esac
[ $# -le 1 ] || { echo "usage: $0 [DIR]" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "$0: needs python3" >&2; exit 2; }

# openssl_trial N ROOTFS: one openssl speed line per point, "N ALG BYTES
# BYTES_PER_S", appended to $dir/openssl.txt.
openssl_trial() {
	chrt -f 50 systemd-nspawn -q --register=no --keep-unit \
		--private-network --console=pipe -D "$2" /bin/sh -c '
		for a in aes-128-cbc aes-128-ctr sha256; do
			for n in 16 1024 16384; do
				v=$(taskset -c "$1" openssl speed -mr -evp "$a" \
					-bytes "$n" -seconds 1 2>/dev/null |
					sed -n "s/^+F:[0-9]*:[^:]*://p")
				echo "$a $n ${v:-0}"
			done
		done' sh "$cpu" </dev/null 2>/dev/null |
		sed "s/^/$1 /" >>"$dir/openssl.txt"
}

if [ $# -eq 1 ]; then
	dir=$1
	[ -f "$dir/runs.db" ] && [ -f "$dir/openssl.txt" ] || {
		echo "$0: $dir has no runs.db and openssl.txt" >&2
		exit 2
	}
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/noisefloor.XXXXXX") || exit 1
	echo "series in $dir"
	state=${NF_STATE:+--state-dir "$NF_STATE"}
	: >"$dir/openssl.txt"
	t=0
	rootfs=
	while [ $t -lt "$trials" ]; do
		t=$((t + 1))
		[ -n "$rootfs" ] && openssl_trial "$t" "$rootfs"
		# shellcheck disable=SC2086
		"$BENCHORCH" run --distros "$distro" --no-confirm $state \
			--db "$dir/runs.db" --format csv >"$dir/run$t.csv" \
			2>"$dir/run$t.err" || {
			echo "$0: run $t failed:" >&2
			tail -3 "$dir/run$t.err" >&2
			exit 1
		}
		if [ -z "$rootfs" ]; then
			# the image the run used, now that it exists
			image=$(sqlite3 "$dir/runs.db" "select i.distro || '-' || i.release from images i join invocations v on v.image_id = i.id order by v.id limit 1")
			sd=${NF_STATE:-${BENCHORCH_STATE_DIR:-/var/lib/benchorch}}
			rootfs=$sd/images/$image/rootfs
			[ -x "$rootfs/usr/bin/openssl" ] || {
				echo "$0: $rootfs has no /usr/bin/openssl" >&2
				exit 1
			}
			# the first trial's openssl went after its run
			openssl_trial 1 "$rootfs"
		fi
		echo "trial $t of $trials done" >&2
	done
	openssl_trial $((trials + 1)) "$rootfs"
fi

python3 - "$dir" <<'EOF'
import collections, math, sqlite3, statistics as st, sys

d = sys.argv[1]
POINTS = [("aes-128-cbc", "aes-128-cbc", "encrypt", "bulk"),
          ("aes-128-ctr", "aes-128-ctr", "encrypt", "bulk"),
          ("sha256", "sha-256", "hash", "oneshot")]
SIZES = [16, 1024, 16384]
ossl = collections.defaultdict(list)
for line in open(d + "/openssl.txt"):
    w = line.split()
    if len(w) == 4 and float(w[3]) > 0:
        ossl[(w[1], int(w[2]))].append(float(w[3]) / 1e6)
db = sqlite3.connect(d + "/runs.db")
runs = [r[0] for r in db.execute(
    "select id from runs where status = 'done' order by id")]
# the run's figure, as `benchorch results` prints it
fig = {(r[0], r[1], r[2], r[3], r[4]): r[5] for r in db.execute(
    "select run_id, algorithm, operation, mode, buffer_bytes, mb_per_s "
    "from points_v where library = 'openssl' and variant = 'hw'")}
# every invocation of a point with its curve's canary (ns, before and after)
inv = db.execute("""
    select v.run_id, v.algorithm, v.operation, v.mode, v.buffer_bytes,
           v.mb_per_s, c.before_ns, c.after_ns
    from results_v v join results r on r.id = v.result_id
    join canaries c on c.invocation_id = r.invocation_id
        and c.library_id = r.library_id and c.algorithm = v.algorithm
        and c.operation = v.operation and c.mode = v.mode
    where v.library = 'openssl' and v.variant = 'hw'""").fetchall()
ref = st.median(0.5 * (math.log(b) + math.log(a)) for b, a in
                db.execute("select before_ns, after_ns from canaries"))


def logcan(r):
    return 0.5 * (math.log(r[6]) + math.log(r[7])) - ref


def slope(rows):
    """Least-squares slope of log MB/s on log canary time, each size
    centred on its own means."""
    by = collections.defaultdict(list)
    for r in rows:
        by[r[4]].append((logcan(r), math.log(r[5])))
    sxx = sxy = 0.0
    for pts in by.values():
        mx = st.mean(x for x, _ in pts)
        my = st.mean(y for _, y in pts)
        sxx += sum((x - mx) ** 2 for x, _ in pts)
        sxy += sum((x - mx) * (y - my) for x, y in pts)
    return sxy / sxx if sxx > 0 else 0.0


def cv(v):
    return st.stdev(v) / st.mean(v) if len(v) > 1 else float("nan")


print("%d runs, %d openssl trials per point" %
      (len(runs), min(len(v) for v in ossl.values()) if ossl else 0))
print("%-12s %6s %9s %9s %6s %9s %7s  %9s %6s %7s" % (
    "algorithm", "bytes", "openssl", "run", "ratio", "run/ossl", "goals",
    "adjusted", "ratio", "adj/ossl"))
print("%-12s %6s %9s %9s %6s %9s %7s  %9s %6s %7s" % (
    "", "", "CV", "CV", "<=0.5", "median", "", "CV", "", "median"))
bad = 0
for oalg, alg, op, mode in POINTS:
    curve = [r for r in inv if r[1] == alg and r[2] == op and r[3] == mode
             and r[0] in runs]
    for n in SIZES:
        o = ossl.get((oalg, n), [])
        raw = [fig[(run, alg, op, mode, n)] for run in runs
               if (run, alg, op, mode, n) in fig]
        adj = []
        for run in runs:
            mine = [r for r in curve if r[0] == run and r[4] == n]
            if not mine:
                continue
            b = slope([r for r in curve if r[0] != run])
            adj.append(math.exp(st.mean(math.log(r[5]) - b * logcan(r)
                                        for r in mine)))
        if len(o) < 2 or len(raw) < 2:
            print("%-12s %6d  too few trials" % (alg, n))
            bad = 1
            continue
        q = cv(raw) / cv(o)
        m = st.median(raw) / st.median(o)
        ok = q <= 0.5 and 0.98 <= m <= 1.02
        bad |= not ok
        print("%-12s %6d %8.2f%% %8.2f%% %6.2f %9.3f %7s  %8.2f%% %6.2f %7.3f" % (
            alg, n, 100 * cv(o), 100 * cv(raw), q, m,
            "PASS" if ok else "FAIL", 100 * cv(adj), cv(adj) / cv(o),
            st.median(adj) / st.median(o)))
sys.exit(bad)
EOF
