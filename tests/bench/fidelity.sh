#!/bin/sh
# tests/bench/fidelity.sh - does the guest measure what `openssl speed` measures?
#
# usage: tests/bench/fidelity.sh ROOTFS [GUEST]
#
# Inside ROOTFS (which needs the `openssl` package) under systemd-nspawn, run
#   openssl speed -mr -evp ALG -bytes N -seconds S
# for ALG in aes-128-cbc aes-128-ctr aes-256-gcm sha256 and N in 16 1024
# 16384 (aes-256-gcm with -aead: per buffer a new IV, 13 bytes of AAD, the
# buffer and the tag - the sequence the guest's bulk AEAD mode times), and the
# guest (benchorch-guest --quick) on the same algorithms, both pinned to the
# same CPU (taskset for openssl, --cpu for the guest) and using the rootfs's
# libcrypto. Prints one row per algorithm and size: openssl MB/s, guest MB/s
# (encrypt / hash), guest/openssl ratio, and PASS when the ratio is within
# 1 +- FIDELITY_RANGE (0.98 .. 1.02 by default). Exit status: 0 every row
# PASS (or SKIP, see below) and at least one measured, 1 some FAIL, a run
# failed or nothing measured, 2 usage.
#
# Noise control. The speed of a shared (virtual) machine drifts by 10 % and
# more over seconds, so a trial is a sandwich run in one container: openssl
# for every size, the guest, openssl again. A trial is *stable* for a size
# when the two openssl runs around the guest agree within FIDELITY_STABLE
# (2 %); its ratio compares the guest with their mean. Each algorithm is
# re-run until every size has FIDELITY_TRIALS stable trials, at most
# FIDELITY_MAX_TRIALS times; the table shows the medians over the stable
# trials (over all trials, marked "noisy", when none was stable). Both sides
# run under SCHED_FIFO (FIDELITY_SCHED) so that other processes cannot
# preempt them: openssl speed counts user CPU time, the guest wall-clock
# time, and the two only agree when nothing else gets the CPU.
#
# Digests and `openssl speed`. Its digest loop is EVP_Digest per buffer: a
# new context, an implicit fetch of the digest, init, update, final. The
# guest's bulk hash reuses one context and a digest fetched once (what an
# application hashing many messages does), which at 16 B is about 1.6
# times as fast here; its one-shot hash builds a context per buffer like
# EVP_Digest, so the digest rows compare the guest's one-shot row.
#
# AEAD and `openssl speed`. The guest's bulk AEAD keys its context once
# and sends every message with a new nonce. The `openssl speed` of older
# releases does the same (OpenSSL 1.1.1, 3.0.2, 3.0.13); newer ones set
# the IV length, the key and the IV again for every message, so they time
# key setup + message (their binary carries the loop's message "Failed to
# set iv length"). Against such a speed an AEAD row is not comparable: it
# is printed as SKIP with the reason, and does not count as a failure -
# run aes-256-gcm on a rootfs whose speed keys once (ubuntu:noble).
#
# Besides the median over stable trials the table gives the median ratio
# over all trials and its interquartile range, which show how far the
# machine's own drift spreads single trials.
#
# The noise floor (a second table): over all trials, the cross-run
# coefficient of variation of openssl speed (its run before the guest in
# each trial) and of the guest, their ratio, and the median ratio guest /
# openssl. With FIDELITY_NOISE=1 exactly FIDELITY_TRIALS interleaved
# trials run per algorithm (K of each tool, none singled out as stable)
# and the exit status is that of the noise floor: every row needs guest
# CV / openssl CV <= FIDELITY_NOISE_MAX (0.5) and a median ratio within
# 1 +- FIDELITY_RANGE. For the guest as benchorch runs it, give
# FIDELITY_MIN_BATCH_NS=1000000 FIDELITY_REPETITIONS=2 FIDELITY_SETS=3.
#
# Environment: FIDELITY_SECONDS (S, default 1), FIDELITY_TRIALS (default 5),
# FIDELITY_STABLE (default 0.02), FIDELITY_MAX_TRIALS (default 4 x TRIALS),
# FIDELITY_RANGE (default 0.02), FIDELITY_ALGOS (a subset of the four),
# FIDELITY_CPU (default: the highest-numbered online CPU),
# FIDELITY_MIN_BATCH_NS (guest batches, default 10000000: 10 ms, ten
# times the guest's own default of 1 ms), FIDELITY_REPETITIONS (guest
# batches per set, default 51: the guest's median then covers about half
# a second, like openssl's -seconds; the guest's own default is 2),
# FIDELITY_SETS (the guest's sets, default 1; its own default is 3),
# FIDELITY_SCHED (fifo: chrt -f 50, the default - the kernel's RT throttling
# still leaves 5 % of the CPU to others; nice: nice -n -20; none),
# FIDELITY_VERBOSE=1 (every trial's figures on stderr). Needs root
# (systemd-nspawn, chrt).

set -u

usage() {
	echo "usage: $0 ROOTFS [GUEST]" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
rootfs=$1
here=$(cd "$(dirname "$0")" && pwd)
# this script is tests/bench/fidelity.sh: the build is two levels up
guest=${2:-${top_builddir:-$here/../..}/guest/benchorch-guest}
secs=${FIDELITY_SECONDS:-1}
trials=${FIDELITY_TRIALS:-5}
cpu=${FIDELITY_CPU:-$(($(nproc) - 1))}
min_batch=${FIDELITY_MIN_BATCH_NS:-10000000}
reps=${FIDELITY_REPETITIONS:-51}
sets=${FIDELITY_SETS:-1}
sched=${FIDELITY_SCHED:-fifo}
stable=${FIDELITY_STABLE:-0.02}
max_trials=${FIDELITY_MAX_TRIALS:-$((trials * 4))}
range=${FIDELITY_RANGE:-0.02}
noise=${FIDELITY_NOISE:-0}
noise_max=${FIDELITY_NOISE_MAX:-0.5}
if [ "$noise" = 1 ]; then
	# exactly TRIALS interleaved trials, none singled out as stable
	max_trials=$trials
	stable=-1
fi
sizes="16 1024 16384"
# guest name : openssl name (+aead: openssl speed -aead)
all_algos="aes-128-cbc:aes-128-cbc aes-128-ctr:aes-128-ctr aes-256-gcm:aes-256-gcm+aead sha-256:sha256"
algos=
for pair in $all_algos; do
	case ",${FIDELITY_ALGOS:-all}," in
	*",${pair%%:*},"*|",all,") algos="$algos $pair" ;;
	esac
done
[ -n "$algos" ] || usage

case $trials in ''|*[!0-9]*|0) usage ;; esac
case $sets in ''|*[!0-9]*|0) usage ;; esac
case $max_trials in ''|*[!0-9]*|0) usage ;; esac
case $sched in
fifo) sched_cmd="chrt -f 50" ;;
nice) sched_cmd="nice -n -20" ;;
none) sched_cmd="" ;;
*) usage ;;
esac
[ -d "$rootfs" ] || { echo "$0: $rootfs: not a directory" >&2; exit 2; }
[ -x "$guest" ] || { echo "$0: $guest: no guest binary" >&2; exit 2; }
if [ ! -x "$rootfs/usr/bin/openssl" ]; then
	echo "$0: $rootfs has no /usr/bin/openssl (install the openssl package)" >&2
	exit 2
fi
guest=$(cd "$(dirname "$guest")" && pwd)/$(basename "$guest")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fidelity.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# What runs inside the rootfs for one algorithm: openssl speed for each
# size, the guest, openssl speed again. Prints "openssl ALG N BYTES_PER_S"
# lines, the guest's JSON lines and "guest-exit STATUS".
inner='
cpu=$1 secs=$2 min_batch=$3 reps=$4 sets=$5 alg=$6 oalg=$7
shift 7
aead=
case $oalg in *+aead) oalg=${oalg%+aead} aead=-aead ;; esac
ossl() {
	for n in "$@"; do
		v=$(taskset -c "$cpu" openssl speed -mr $aead -evp "$oalg" -bytes "$n" \
			-seconds "$secs" 2>/dev/null |
			sed -n "s/^+F:[0-9]*:[^:]*://p")
		echo "openssl $alg $n ${v:-0}"
	done
}
ossl "$@"
/run/benchorch/guest --quick --cpu "$cpu" --min-batch-ns "$min_batch" \
	--repetitions "$reps" --max-reruns $((sets - 1)) --algos "$alg" \
	--libs openssl
echo "guest-exit $?"
ossl "$@"
'

# --console=pipe: without it nspawn puts a pty between the container and
# our pipe, which turns every "\n" into "\r\n". The scheduling policy is
# inherited by everything in the container.
nspawn() {
	# shellcheck disable=SC2086
	$sched_cmd systemd-nspawn -q --register=no --keep-unit \
		--private-network --console=pipe -D "$rootfs" \
		--bind-ro="$guest":/run/benchorch/guest "$@" </dev/null
}

# Does this openssl's speed set the key again for every AEAD message?
# (Read inside the container, where /usr/bin/openssl resolves as there.)
rekeys=0
nspawn /bin/sh -c "grep -q 'Failed to set iv length' /usr/bin/openssl" \
	2>/dev/null && rekeys=1
ossl_version=$(nspawn openssl version 2>/dev/null | head -n 1)
echo "# rootfs $rootfs: $ossl_version"
echo "# cpu $cpu; scheduling $sched; openssl speed -seconds $secs;" \
	"guest --min-batch-ns $min_batch --repetitions $reps" \
	"--max-reruns $((sets - 1));" \
	"median of $trials stable trials (openssl before/after within $stable)"

# Does algorithm $1 still need trials? Prints "more" if some size has fewer
# than $trials stable samples in $tmp/all.
need_more() {
	awk -v alg="$1" -v sizes="$sizes" -v want="$trials" -v tol="$stable" '
	$1 == alg {
		m = ($3 + $4) / 2
		if (m > 0 && ($3 - $4) / m <= tol && ($4 - $3) / m <= tol)
			c[$2]++
	}
	END {
		n = split(sizes, s, " ")
		for (i = 1; i <= n; i++)
			if (c[s[i]] + 0 < want) { print "more"; exit }
	}' "$tmp/all"
}

failed=0
: >"$tmp/all"
skipped=
for pair in $algos; do
	alg=${pair%%:*}
	oalg=${pair#*:}
	case $oalg in *+aead)
		if [ "$rekeys" = 1 ]; then
			skipped="$skipped $alg"
			continue
		fi ;;
	esac
	t=0
	while [ -n "$(need_more "$alg")" ] && [ "$t" -lt "$max_trials" ]; do
		t=$((t + 1))
		echo "$alg: trial $t (at most $max_trials)" >&2
		# shellcheck disable=SC2086
		if ! nspawn /bin/sh -c "$inner" sh "$cpu" "$secs" "$min_batch" \
			"$reps" "$sets" "$alg" "$oalg" $sizes >"$tmp/run" \
			2>"$tmp/err"; then
			echo "$0: systemd-nspawn failed for $alg:" >&2
			cat "$tmp/err" >&2
			failed=1
			break
		fi
		if ! grep -q '^guest-exit 0$' "$tmp/run"; then
			echo "$0: the guest failed for $alg" >&2
			failed=1
			break
		fi
		# One line per size: "ALG N OPENSSL_BEFORE OPENSSL_AFTER GUEST",
		# all in MB/s.
		awk '
		function str(k,   m) {
			if (!match($0, "\"" k "\":\"[^\"]*\"")) return ""
			m = substr($0, RSTART, RLENGTH)
			sub("^\"" k "\":\"", "", m); sub("\"$", "", m)
			return m
		}
		function num(k,   m) {
			if (!match($0, "\"" k "\":[-0-9.eE+]+")) return ""
			m = substr($0, RSTART, RLENGTH)
			sub("^\"" k "\":", "", m)
			return m
		}
		$1 == "openssl" {
			k = $2 " " $3
			if (!(k in before)) {
				order[++nk] = k
				before[k] = $4 / 1e6
			} else
				after[k] = $4 / 1e6
		}
		/^\{"type":"result"/ {
			# what openssl speed times: for a cipher the keyed
			# context reused (the bulk mode of the guest); for a digest
			# EVP_Digest, a new context per buffer (its one-shot
			# mode: bulk reuses one context and a fetched digest)
			op = str("operation")
			if (((op == "encrypt" && str("mode") == "bulk") ||
			     (op == "hash" && str("mode") == "oneshot")) &&
			    str("library") == "openssl")
				g[str("algorithm") " " num("buffer_bytes")] = \
					num("mb_per_s")
		}
		END {
			for (i = 1; i <= nk; i++) {
				k = order[i]
				printf "%s %.6f %.6f %s\n", k, before[k], after[k] + 0,
					(k in g) ? g[k] : 0
			}
		}' "$tmp/run" >"$tmp/trial"
		if [ "${FIDELITY_VERBOSE:-0}" = 1 ]; then
			sed "s/^/trial $t: /" "$tmp/trial" >&2
		fi
		cat "$tmp/trial" >>"$tmp/all"
	done
done

# One row per algorithm and size: medians over the stable trials (over all
# trials, marked "noisy", if none was stable), then the median and the
# quartiles of the ratio over all trials; one SKIP row per AEAD algorithm
# that openssl speed here cannot time like the guest. Fails when a row
# fails or when no row was measured.
awk -v sizes="$sizes" -v algos="$algos" -v tol="$stable" -v range="$range" \
    -v skipped="$skipped" -v noise="$noise" -v noise_max="$noise_max" '
{
	k = $1 " " $2
	m = ($3 + $4) / 2
	st = m > 0 && ($3 - $4) / m <= tol && ($4 - $3) / m <= tol
	n = ++all[k]
	ao[k, n] = m; ag[k, n] = $5 + 0; ar[k, n] = m > 0 ? $5 / m : 0
	ob[k, n] = $3
	if (st) {
		n = ++stab[k]
		so[k, n] = m; sg[k, n] = $5 + 0; sr[k, n] = m > 0 ? $5 / m : 0
	}
}
# quantile(arr, k, n, q): the q-quantile (0 .. 1, linear between the
# order statistics) of arr[k, 1..n]; 0 when n is 0.
function quantile(arr, k, n, q,   i, j, x, a, h) {
	if (n == 0) return 0
	for (i = 1; i <= n; i++) {	# insertion sort, ascending
		x = arr[k, i]
		for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
	h = 1 + (n - 1) * q
	j = int(h)
	return j >= n ? a[n] : a[j] + (h - j) * (a[j + 1] - a[j])
}
function median(arr, k, n) {
	return quantile(arr, k, n, 0.5)
}
# cv(arr, k, n): the coefficient of variation (sample standard deviation
# over the mean) of arr[k, 1..n]; 0 for fewer than two values.
function cv(arr, k, n,   i, s, d, ss) {
	if (n < 2) return 0
	for (i = 1; i <= n; i++) s += arr[k, i]
	s /= n
	for (i = 1; i <= n; i++) { d = arr[k, i] - s; ss += d * d }
	return s > 0 ? sqrt(ss / (n - 1)) / s : 0
}
END {
	printf "%-12s %8s %12s %12s %7s %7s  %-12s  %s\n", "algorithm", "bytes",
		"openssl MB/s", "guest MB/s", "ratio", "stable",
		sprintf("%.2f-%.2f", 1 - range, 1 + range),
		"all trials: median ratio [p25, p75]"
	na = split(algos, al, " "); ns = split(sizes, sz, " ")
	bad = 0
	for (i = 1; i <= na; i++) {
		alg = al[i]; sub(":.*", "", alg)
		if (index(" " skipped " ", " " alg " ")) {
			printf "%-12s %8s %12s %12s %7s %7s  SKIP: openssl speed here" \
				" re-keys every AEAD message\n", alg, "-", "-",
				"-", "-", "-"
			continue
		}
		measured = 1
		for (j = 1; j <= ns; j++) {
			k = alg " " sz[j]
			n = stab[k] + 0
			if (n > 0) {
				o = median(so, k, n); g = median(sg, k, n)
				r = median(sr, k, n); note = ""
			} else {
				n = all[k] + 0
				o = median(ao, k, n); g = median(ag, k, n)
				r = median(ar, k, n); note = " (noisy)"
			}
			ok = (r >= 1 - range && r <= 1 + range) ? "PASS" : "FAIL"
			if (ok != "PASS") bad = 1
			na_ = all[k] + 0
			printf "%-12s %8d %12.1f %12.1f %7.3f %7s  %-12s  %.3f [%.3f, %.3f]\n",
				alg, sz[j], o, g, r, (stab[k] + 0) "/" na_,
				ok note, median(ar, k, na_),
				quantile(ar, k, na_, 0.25), quantile(ar, k, na_, 0.75)
		}
	}
	if (!measured) {
		print "nothing measured: every algorithm asked for was skipped"
		bad = 1
	}
	# the noise floor: how much each tool moves from one trial to the
	# next (openssl: its run before the guest in each trial)
	printf "\nnoise floor over all trials (openssl before the guest in each):\n"
	printf "%-12s %8s %6s %11s %9s %7s %7s  %s\n", "algorithm", "bytes",
		"trials", "openssl CV", "guest CV", "ratio", "<=" noise_max,
		"median guest/openssl"
	nbad = 0
	for (i = 1; i <= na; i++) {
		alg = al[i]; sub(":.*", "", alg)
		if (index(" " skipped " ", " " alg " ")) continue
		for (j = 1; j <= ns; j++) {
			k = alg " " sz[j]
			n = all[k] + 0
			co = cv(ob, k, n); cg = cv(ag, k, n)
			q = co > 0 ? cg / co : 0
			r = median(ar, k, n)
			ok = (co > 0 && q <= noise_max && r >= 1 - range &&
			      r <= 1 + range) ? "PASS" : "FAIL"
			if (ok != "PASS") nbad = 1
			printf "%-12s %8d %6d %10.2f%% %8.2f%% %7.2f %7s  %.3f\n",
				alg, sz[j], n, 100 * co, 100 * cg, q, ok, r
		}
	}
	exit noise == 1 ? nbad : bad
}' "$tmp/all" || failed=1

exit $failed
