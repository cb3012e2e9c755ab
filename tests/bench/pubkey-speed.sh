#!/bin/sh
# tests/bench/pubkey-speed.sh - the guest's public-key figures beside
# `openssl speed`'s
#
# usage: tests/bench/pubkey-speed.sh ROOTFS [GUEST]
#
# Inside ROOTFS (which needs the `openssl` package) under systemd-nspawn
# (read-only, private network), run the guest
#   benchorch-guest --algos none --pubkey all --cpu N
# and `openssl speed -mr -seconds S` on the comparable operations -
# rsa2048 rsa3072 ecdsap256 ecdhp256 ecdhx25519 ecdhx448 ed25519, and
# where the rootfs's OpenSSL has them (3.5 and later: `openssl list
# -kem-algorithms` / `-signature-algorithms` name them) ML-KEM-768 and
# ML-DSA-65 - both pinned to the same CPU (taskset for openssl, --cpu for
# the guest). Prints one table: algorithm, operation, the ops/s of every
# library the guest measured (openssl libgcrypt nettle gnutls libsodium
# mbedtls wolfssl botan, then any other, those present; "-" where a
# library lacks the operation; a trailing "?" where its result is not
# verified), `openssl speed`'s ops/s, the ratio guest openssl / openssl
# speed, how many trials were stable, and a note on what differs.
#
# Exit status: 0 when everything was measured, 1 when a run failed
# (systemd-nspawn, the guest or openssl speed), 2 usage.
#
# Noise control, as tests/bench/fidelity.sh: a trial is a sandwich in one
# container - openssl speed on every algorithm, the guest, openssl speed
# again. A trial is stable for a row when the two openssl speed figures
# around the guest agree within PUBKEY_STABLE; the row shows medians over
# its stable trials (over all trials, marked "noisy", when none was). Both
# sides run under SCHED_FIFO by default. PUBKEY_LOCK names a file that
# each trial holds with flock(1) while it measures, so that other
# measurements on the machine can take turns between trials.
#
# Work per operation. What each side times is not the same call:
#  - RSA sign (rsa-2048, rsa-3072): the guest's EVP_DigestSign hashes the
#    64-byte message with SHA-256, builds the DigestInfo and signs (on a
#    copy of a context set up at import); openssl speed's is
#    EVP_PKEY_sign of 36 pre-hashed bytes (PKCS #1 v1.5 padding, no
#    DigestInfo, no hash). The private-key operation (CRT, blinding)
#    dominates, so the ratio is near 1. Verify likewise (the public
#    exponent is small, so the guest's hashing and context copy weigh a
#    few per cent more).
#  - rsa-pss-2048: openssl speed has no PSS; its row compares with
#    rsa2048 PKCS #1 v1.5 (PSS adds MGF1 and a salt from the DRBG).
#  - RSA keygen: OpenSSL 3.5's speed times EVP_PKEY_keygen of a new key
#    (its signature-algorithm run of rsa2048 / rsa3072), as the guest's
#    keygen does; the time of a key varies widely with the search for
#    primes and speed's -seconds 1 sees a few dozen keys, so the row is
#    noisy. OpenSSL 3.0's speed has no RSA keygen.
#  - ECDSA P-256 sign / verify: the guest hashes the 64-byte message with
#    SHA-256 inside EVP_DigestSign / EVP_DigestVerify on a copied context
#    and converts the DER signature to r || s and back; openssl speed's is
#    EVP_PKEY_sign / EVP_PKEY_verify of a 20-byte "digest" on one context,
#    DER out and in. Both draw a random nonce.
#  - ECDH (ecdh-p256, x25519, x448) derive: the guest takes the peer's
#    raw public key every call (a new EVP_PKEY of it - for P-256 the point
#    decoded and checked to be on the curve - a new derivation context,
#    derive_init, set_peer, which checks the peer, derive, both freed), as
#    an application does per key exchange; openssl speed's is
#    EVP_PKEY_derive alone on one context set up with its peer before
#    timing. The fixed cost shows most where the scalar multiplication is
#    cheap (X25519). For P-256 set_peer's check is EVP_PKEY_public_check,
#    the full SP 800-56A validation, whose last step computes order x Q:
#    a second variable-base scalar multiplication, which halves the
#    guest's derive against speed's.
#  - Ed25519 sign / verify: both hash inside (EdDSA's SHA-512); the guest
#    signs 64 bytes on a copied context, openssl speed re-initialises one
#    context (EVP_DigestSignInit with no key) and signs 20 bytes.
#  - ML-KEM-768 (OpenSSL 3.5): keygen - the guest expands a given seed
#    (EVP_PKEY_fromdata), openssl speed draws one from the DRBG
#    (EVP_PKEY_keygen); encaps / decaps - the guest makes and frees an
#    EVP_PKEY_CTX per call, openssl speed reuses one.
#  - ML-DSA-65 (OpenSSL 3.5): keygen as ML-KEM's; sign / verify - the
#    guest makes a context and EVP_PKEY_sign_message_init per call and
#    signs 64 bytes, openssl speed reuses one context (EVP_PKEY_sign_init)
#    and signs 32 zero bytes; signing is hedged (random) in both, and its
#    rejection loop makes the time of one signature vary.
#  - import: openssl speed times none (it loads or generates its keys
#    before timing), so import rows have no speed figure.
#  - Timing: openssl speed divides by user CPU time (seconds shown to
#    1/100 s), the guest its batches by the thread's CPU time or
#    CLOCK_MONOTONIC (the hello line's `timer`).
# Key derivation functions (--kdf) are not compared: openssl speed has
# no KDF benchmark.
#
# Environment: PUBKEY_SECONDS (S, default 1), PUBKEY_TRIALS (default 3),
# PUBKEY_STABLE (default 0.03: the two openssl speed figures of a trial
# within 3 %), PUBKEY_CPU (default: the highest-numbered online CPU),
# PUBKEY_ALGOS (the guest's --pubkey list, default all),
# PUBKEY_MIN_BATCH_NS (the guest's batches, default 10000000: 10 ms),
# PUBKEY_REPETITIONS and PUBKEY_SETS (the guest's --repetitions and
# --max-reruns + 1; default the guest's own), PUBKEY_SCHED (fifo: chrt -f
# 50, the default; nice: nice -n -20; none), PUBKEY_LOCK (a lock file
# held per trial; default none), PUBKEY_VERBOSE=1 (every trial's figures
# on stderr). Needs root (systemd-nspawn, chrt).

set -u

usage() {
	echo "usage: $0 ROOTFS [GUEST]" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
rootfs=$1
here=$(cd "$(dirname "$0")" && pwd)
# this script is tests/bench/pubkey-speed.sh: the build is two levels up
guest=${2:-${top_builddir:-$here/../..}/guest/benchorch-guest}
secs=${PUBKEY_SECONDS:-1}
trials=${PUBKEY_TRIALS:-3}
stable=${PUBKEY_STABLE:-0.03}
cpu=${PUBKEY_CPU:-$(($(nproc) - 1))}
pk=${PUBKEY_ALGOS:-all}
min_batch=${PUBKEY_MIN_BATCH_NS:-10000000}
reps=${PUBKEY_REPETITIONS:-}
sets=${PUBKEY_SETS:-}
sched=${PUBKEY_SCHED:-fifo}
lock=${PUBKEY_LOCK:-}

case $secs in ''|*[!0-9]*|0) usage ;; esac
case $trials in ''|*[!0-9]*|0) usage ;; esac
case $cpu in ''|*[!0-9]*) usage ;; esac
case $min_batch in ''|*[!0-9]*|0) usage ;; esac
case $reps in *[!0-9]*) usage ;; esac
case $sets in *[!0-9]*|0) usage ;; esac
case $pk in ''|*[!a-z0-9,-]*) usage ;; esac
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
gopts="--algos none --pubkey $pk --cpu $cpu --min-batch-ns $min_batch"
[ -n "$reps" ] && gopts="$gopts --repetitions $reps"
[ -n "$sets" ] && gopts="$gopts --max-reruns $((sets - 1))"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pubkey-speed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# --console=pipe: without it nspawn puts a pty between the container and
# our pipe. The scheduling policy is inherited by everything in the
# container.
nspawn() {
	# shellcheck disable=SC2086
	$sched_cmd systemd-nspawn -q --register=no --keep-unit --read-only \
		--private-network --console=pipe -D "$rootfs" \
		--bind-ro="$guest":/run/benchorch/guest "$@" </dev/null
}

# What openssl speed here can time: the classic names always (OpenSSL
# 1.1.1 and 3.x), ML-KEM-768 and ML-DSA-65 when this OpenSSL lists them.
ossl_version=$(nspawn openssl version 2>/dev/null | head -n 1)
salgs="rsa2048 rsa3072 ecdsap256 ecdhp256 ecdhx25519 ecdhx448 ed25519"
nspawn /bin/sh -c 'openssl list -kem-algorithms 2>/dev/null' 2>/dev/null |
	grep -q 'ML-KEM-768' && salgs="$salgs ML-KEM-768"
nspawn /bin/sh -c 'openssl list -signature-algorithms 2>/dev/null' \
	2>/dev/null | grep -q 'ML-DSA-65' && salgs="$salgs ML-DSA-65"
if [ -z "$ossl_version" ]; then
	echo "$0: cannot run openssl in $rootfs" >&2
	exit 1
fi

echo "# rootfs $rootfs: $ossl_version"
echo "# cpu $cpu; scheduling $sched; openssl speed -mr -seconds $secs $salgs"
echo "# guest $gopts; $trials trials (openssl speed before and after" \
	"the guest within $stable: stable)"

# One trial inside the rootfs: openssl speed, the guest, openssl speed.
# Prints "speed-begin N", speed's lines, "speed-exit STATUS", then
# "guest-begin", the guest's JSON lines, "guest-exit STATUS", then the
# second speed run.
inner='
cpu=$1 secs=$2 salgs=$3
shift 3
ossl() {
	echo "speed-begin $1"
	taskset -c "$cpu" openssl speed -mr -seconds "$secs" $salgs 2>&1
	echo "speed-exit $?"
}
ossl 1
echo guest-begin
/run/benchorch/guest "$@"
echo "guest-exit $?"
ossl 2
'

# parse_trial FILE: one line per operation, "ALG OP SPEED1 SPEED2 LIB=OPS
# ..." (SPEED* 0 when openssl speed has no such operation; OPS with a
# trailing "?" when not verified). openssl speed -mr prints a "+DTP:"
# line naming each test and a "+R<n>:COUNT:...:SECONDS" line with its
# result.
parse_trial() {
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
	# the guest algorithm and operation of an openssl speed test, or ""
	function key(f,   n) {
		n = split(f, d, ":")
		if (d[2] ~ /^[0-9]+$/) {
			# +DTP:BITS:WHAT:NAME:SECONDS
			if (d[4] ~ /^rsa/) {
				if (d[4] ~ /encrypt|decrypt/) return ""
				return "rsa-" d[2] " " \
					(d[3] == "private" ? "sign" : "verify")
			}
			if (d[4] == "ecdsa" && d[2] == 256) return "ecdsa-p256 " d[3]
			if (d[4] == "ecdh") {
				if (d[2] == 256) return "ecdh-p256 derive"
				if (d[2] == 253) return "x25519 derive"
				if (d[2] == 448) return "x448 derive"
			}
			if (d[4] == "Ed25519") return "ed25519 " d[3]
			return ""
		}
		# +DTP:NAME:OP:SECONDS (OpenSSL 3.5 KEM and signature runs)
		if (d[2] ~ /^rsa[0-9]+$/)
			return d[3] == "keygen" ? "rsa-" substr(d[2], 4) " keygen" : ""
		if (d[2] == "ML-KEM-768") return "ml-kem-768 " d[3]
		if (d[2] == "ML-DSA-65")
			return "ml-dsa-65 " (d[3] == "signs" ? "sign" : d[3])
		return ""
	}
	/^speed-begin / { pass = $2; cur = ""; next }
	/^\+DTP:/ { cur = key($0); next }
	/^\+R[0-9]+:/ && cur != "" {
		n = split($0, r, ":")
		cnt[pass, cur] += r[2]; sec[pass, cur] += r[n]
		if (!(cur in seen)) { seen[cur] = 1; sorder[++ns] = cur }
		cur = ""
		next
	}
	/^\{"type":"pkresult"/ {
		k = str("algorithm") " " str("operation")
		if (!(k in gseen)) { gseen[k] = 1; gorder[++ng] = k }
		v = num("ops_per_s")
		if ($0 !~ /"verified":true/) v = v "?"
		g[k] = g[k] " " str("library") "=" v
	}
	END {
		for (i = 1; i <= ng; i++) {
			k = gorder[i]
			# PSS: speed has none; its PKCS #1 v1.5 figures
			sk = k
			if (k ~ /^rsa-pss-2048 (sign|verify)$/)
				sub("^rsa-pss-2048", "rsa-2048", sk)
			s1 = sec[1, sk] > 0 ? cnt[1, sk] / sec[1, sk] : 0
			s2 = sec[2, sk] > 0 ? cnt[2, sk] / sec[2, sk] : 0
			printf "%s %.3f %.3f%s\n", k, s1, s2, g[k]
		}
	}' "$1"
}

failed=0
: >"$tmp/all"
t=0
while [ "$t" -lt "$trials" ]; do
	t=$((t + 1))
	echo "trial $t of $trials" >&2
	if [ -n "$lock" ]; then
		exec 9>>"$lock"
		flock 9
	fi
	# shellcheck disable=SC2086
	nspawn /bin/sh -c "$inner" sh "$cpu" "$secs" "$salgs" $gopts \
		>"$tmp/run" 2>"$tmp/err"
	rc=$?
	[ -n "$lock" ] && exec 9>&-
	if [ "$rc" -ne 0 ]; then
		echo "$0: systemd-nspawn failed (exit $rc):" >&2
		cat "$tmp/err" >&2
		failed=1
		break
	fi
	if ! grep -q '^guest-exit 0$' "$tmp/run"; then
		echo "$0: the guest failed:" >&2
		cat "$tmp/err" >&2
		failed=1
		break
	fi
	if [ "$(grep -c '^speed-exit 0$' "$tmp/run")" -ne 2 ]; then
		echo "$0: openssl speed failed:" >&2
		grep -v '^{' "$tmp/run" | grep -iv '^+' | head -n 20 >&2
		failed=1
		break
	fi
	parse_trial "$tmp/run" | sed "s/^/$t /" >"$tmp/trial"
	[ "${PUBKEY_VERBOSE:-0}" = 1 ] && cat "$tmp/trial" >&2
	cat "$tmp/trial" >>"$tmp/all"
done
[ -s "$tmp/all" ] || { echo "$0: nothing measured" >&2; exit 1; }

# The table: one row per operation the guest measured, in its order.
awk -v tol="$stable" -v ntr="$t" '
function median(arr, k, n,   i, j, x, a) {
	if (n == 0) return 0
	for (i = 1; i <= n; i++) {
		x = arr[k, i]
		for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function note(k) {
	if (k ~ /^rsa-pss-2048 (sign|verify)/)
		return "speed: rsa2048 PKCS#1 v1.5 (no PSS in speed)"
	if (k ~ /^rsa-[0-9]+ sign/)
		return "guest: SHA-256 + DigestInfo; speed: 36 B pre-hashed"
	if (k ~ /^rsa-[0-9]+ verify/)
		return "guest: SHA-256 + ctx copy; speed: 36 B pre-hashed"
	if (k ~ /^rsa-[0-9]+ keygen/)
		return "both: a new key; prime search varies widely"
	if (k ~ /^ecdsa-p256 (sign|verify)/)
		return "guest: SHA-256 of 64 B + DER<->r||s; speed: 20 B digest"
	if (k ~ / derive$/)
		return "guest: peer import + new ctx per call; speed: derive only"
	if (k ~ /^ed25519 (sign|verify)/)
		return "both hash inside; guest 64 B, speed 20 B"
	if (k ~ /^ml-kem-768 keygen|^ml-dsa-65 keygen/)
		return "guest: from a seed; speed: seed from the DRBG"
	if (k ~ /^ml-kem-768/)
		return "guest: new EVP_PKEY_CTX per call; speed: one ctx"
	if (k ~ /^ml-dsa-65/)
		return "guest: new ctx + message init per call; speed: one ctx"
	if (k ~ / import$/)
		return "speed times no import"
	return ""
}
{
	k = $2 " " $3
	if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
	b = $4 + 0; a = $5 + 0; m = (a + b) / 2
	st = m > 0 && (a - b) / m <= tol && (b - a) / m <= tol
	n = ++all[k]
	asp[k, n] = m
	if (st) { sn = ++stab[k]; ssp[k, sn] = m }
	for (i = 6; i <= NF; i++) {
		lib = $i; sub("=.*", "", lib)
		v = $i; sub("^[^=]*=", "", v)
		if (v ~ /\?$/) { bad[k, lib] = 1; sub("\\?$", "", v) }
		if (!(lib in libseen)) { libseen[lib] = 1; libs[++nl] = lib }
		# per trial: every figure, and the figure in stable trials
		an = ++acnt[k, lib]; av[k SUBSEP lib, an] = v + 0
		if (st) {
			sn2 = ++scnt[k, lib]; sv[k SUBSEP lib, sn2] = v + 0
			if (lib == "openssl") {
				rn = ++srn[k]; sr[k, rn] = m > 0 ? v / m : 0
			}
		}
		if (lib == "openssl") {
			rn = ++arn[k]; ar[k, rn] = m > 0 ? v / m : 0
		}
	}
}
END {
	# the columns: the usual libraries first, in this order, then others
	want = "openssl libgcrypt nettle gnutls libsodium mbedtls wolfssl botan"
	nw = split(want, w, " ")
	nc = 0
	for (i = 1; i <= nw; i++)
		if (w[i] in libseen) { col[++nc] = w[i]; used[w[i]] = 1 }
	for (i = 1; i <= nl; i++)
		if (!(libs[i] in used)) col[++nc] = libs[i]
	printf "%-13s %-7s", "algorithm", "op"
	for (c = 1; c <= nc; c++) printf " %11s", col[c]
	printf " %11s %7s %6s  %s\n", "speed", "ratio", "stable", "note"
	for (i = 1; i <= nk; i++) {
		k = order[i]
		split(k, kp, " ")
		useall = !(stab[k] > 0)
		printf "%-13s %-7s", kp[1], kp[2]
		for (c = 1; c <= nc; c++) {
			lib = col[c]
			if (useall || !scnt[k, lib])
				v = median(av, k SUBSEP lib, acnt[k, lib] + 0)
			else
				v = median(sv, k SUBSEP lib, scnt[k, lib])
			if (!acnt[k, lib]) { printf " %11s", "-"; continue }
			printf " %11s", sprintf("%.1f%s", v, bad[k, lib] ? "?" : "")
		}
		s = useall ? median(asp, k, all[k]) : median(ssp, k, stab[k])
		r = useall ? median(ar, k, arn[k] + 0) : median(sr, k, srn[k] + 0)
		if (s <= 0) {
			printf " %11s %7s %6s  %s\n", "-", "-", "-", note(k)
			continue
		}
		printf " %11.1f %7s %6s  %s%s\n", s,
			(acnt[k, "openssl"] ? sprintf("%.3f", r) : "-"),
			(stab[k] + 0) "/" all[k], note(k),
			useall ? " (noisy)" : ""
	}
	printf "ops/s: medians over the stable trials of %d; ratio = guest " \
		"openssl / openssl speed; ? = not verified\n", ntr
}' "$tmp/all" || failed=1

exit $failed
