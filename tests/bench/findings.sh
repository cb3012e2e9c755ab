#!/bin/sh
# tests/bench/findings.sh - do the findings of the original library
# comparison still hold on current distribution releases?
#
# usage: tests/bench/findings.sh [DB]
#
# With DB: only report, from that benchorch database. Without: first
# measure into a new database (needs root and the images, built on first
# use): one `benchorch run --quick` over FINDINGS_DISTROS (default
# debian:bullseye,debian:bookworm,debian:trixie,ubuntu:jammy,ubuntu:noble)
# on the ciphers of the original comparison plus AES-GCM and SHA-256, and
# one `--nohw` run of the AES modes on FINDINGS_NOHW_DISTRO (default
# debian:bookworm). FINDINGS_STATE sets --state-dir, FINDINGS_DB the new
# database's path (default: a temporary file, kept and named at the end),
# FINDINGS_RUN_ARGS the runs' measuring options (default --quick; empty for
# the default run's 1 ms x 5 batches with re-runs of noisy points).
#
# Three tables; 1 and 3 from the run with the most distributions (the
# newest of those), 2 from the newest hw and nohw figures per point:
#  1. Start-up cost of one-shot use, per library: for every cipher and
#     direction at 16 B, the ns per call of one-shot mode (new context, key
#     setup, one buffer, free) minus that of bulk mode (keyed context
#     reused), i.e. what a fresh context costs; the median over the
#     library's (cipher, direction) points ("points"), in microseconds, on
#     each distribution. The
#     original comparison found libmcrypt's by far the largest.
#  2. AES with and without hardware acceleration (variant hw vs nohw, the
#     same run's distribution), bulk encryption at 16 KiB, MB/s and the
#     ratio.
#  3. Spread between distribution releases for the same library: bulk
#     encryption (hashes: hash) at 16 KiB, the slowest and fastest release
#     in MB/s and (fastest / slowest - 1) in per cent, with the package
#     versions at both ends.
# Exit status: 0, 1 when a run or a query failed, 2 usage.

set -u
here=$(cd "$(dirname "$0")" && pwd)
BENCHORCH=${BENCHORCH:-${top_builddir:-$here/../..}/benchorch}
distros=${FINDINGS_DISTROS:-debian:bullseye,debian:bookworm,debian:trixie,ubuntu:jammy,ubuntu:noble}
nohw_distro=${FINDINGS_NOHW_DISTRO:-debian:bookworm}
algos=aes-128-cbc,aes-256-cbc,aes-128-ctr,aes-256-gcm,serpent-256-cbc,twofish-256-cbc,blowfish-128-cbc,cast5-128-cbc,3des-cbc,sha-256
nohw_algos=aes-128-cbc,aes-128-ctr,aes-256-gcm
run_args=${FINDINGS_RUN_ARGS---quick}

[ $# -le 1 ] || { echo "usage: $0 [DB]" >&2; exit 2; }
command -v sqlite3 >/dev/null 2>&1 || { echo "$0: needs sqlite3" >&2; exit 2; }

if [ $# -eq 1 ]; then
	db=$1
	[ -r "$db" ] || { echo "$0: cannot read '$db'" >&2; exit 2; }
else
	db=${FINDINGS_DB:-$(mktemp "${TMPDIR:-/tmp}/findings.XXXXXX.db")}
	rm -f "$db"
	state=
	[ -n "${FINDINGS_STATE:-}" ] && state="--state-dir $FINDINGS_STATE"
	echo "measuring $distros ($algos) into $db ..." >&2
	# shellcheck disable=SC2086
	"$BENCHORCH" run $run_args $state --db "$db" --distros "$distros" \
		--algos "$algos" >/dev/null || exit 1
	echo "measuring $nohw_distro with --nohw ($nohw_algos) ..." >&2
	# shellcheck disable=SC2086
	"$BENCHORCH" run $run_args $state --db "$db" --distros "$nohw_distro" \
		--algos "$nohw_algos" >/dev/null || exit 1
	# shellcheck disable=SC2086
	"$BENCHORCH" run $run_args --nohw $state --db "$db" \
		--distros "$nohw_distro" --algos "$nohw_algos" >/dev/null || exit 1
fi

q() { sqlite3 -header -column "$db" "$1" || exit 1; }

echo "== 1. one-shot start-up cost at 16 B (us per call: one-shot - bulk), median over ciphers =="
q "WITH per AS (
	SELECT distro || ':' || release AS dist, library, algorithm, operation,
	       mode, median_ns * 1.0 / calls_per_batch AS ns
	FROM results_v
	WHERE buffer_bytes = 16 AND operation IN ('encrypt', 'decrypt')
	  AND variant = 'hw' AND verified = 1
	  AND run_id = (SELECT run_id FROM results_v WHERE variant = 'hw'
			GROUP BY run_id
			ORDER BY count(DISTINCT distro || ':' || release) DESC,
			run_id DESC LIMIT 1)),
 cost AS (
	SELECT o.dist, o.library, o.ns - b.ns AS extra
	FROM per o JOIN per b ON b.dist = o.dist AND b.library = o.library
	  AND b.algorithm = o.algorithm AND b.operation = o.operation
	  AND b.mode = 'bulk'
	WHERE o.mode = 'oneshot'),
 ranked AS (
	SELECT dist, library, extra,
	       row_number() OVER (PARTITION BY dist, library ORDER BY extra) AS k,
	       count(*) OVER (PARTITION BY dist, library) AS n
	FROM cost)
SELECT library, dist AS distro, n AS points,
       printf('%.2f', avg(extra) / 1000.0) AS startup_us
FROM ranked WHERE k IN ((n + 1) / 2, (n + 2) / 2)
GROUP BY dist, library
ORDER BY avg(extra) DESC, library, dist;"

echo
echo "== 2. AES with and without hardware acceleration (bulk encrypt, 16 KiB, MB/s) =="
q "WITH pts AS (
	SELECT distro || ':' || release AS dist, library, algorithm, variant,
	       mb_per_s,
	       row_number() OVER (PARTITION BY distro, release, library,
				  algorithm, variant ORDER BY run_id DESC) AS k
	FROM results_v
	WHERE algorithm LIKE 'aes-%' AND buffer_bytes = 16384
	  AND operation = 'encrypt' AND mode = 'bulk' AND verified = 1)
SELECT h.library, h.dist AS distro, h.algorithm,
       printf('%.1f', h.mb_per_s) AS hw, printf('%.1f', n.mb_per_s) AS nohw,
       printf('%.2f', h.mb_per_s / n.mb_per_s) AS ratio
FROM pts h JOIN pts n ON n.dist = h.dist AND n.library = h.library
  AND n.algorithm = h.algorithm AND n.variant = 'nohw' AND n.k = 1
WHERE h.variant = 'hw' AND h.k = 1
ORDER BY h.algorithm, h.mb_per_s / n.mb_per_s DESC, h.library;"

echo
echo "== 3. spread between releases, same library (bulk, 16 KiB, MB/s) =="
q "WITH pts AS (
	SELECT distro || ':' || release AS dist, library, algorithm,
	       package_version AS pv, mb_per_s
	FROM results_v
	WHERE buffer_bytes = 16384 AND operation IN ('encrypt', 'hash')
	  AND mode = 'bulk' AND variant = 'hw' AND verified = 1
	  AND run_id = (SELECT run_id FROM results_v WHERE variant = 'hw'
			GROUP BY run_id
			ORDER BY count(DISTINCT distro || ':' || release) DESC,
			run_id DESC LIMIT 1)),
 ext AS (
	SELECT library, algorithm, count(*) AS releases,
	       min(mb_per_s) AS lo, max(mb_per_s) AS hi
	FROM pts GROUP BY library, algorithm HAVING count(*) >= 2)
SELECT e.library, e.algorithm, e.releases,
       printf('%.1f', e.lo) AS slowest,
       (SELECT dist || ' ' || pv FROM pts p WHERE p.library = e.library
	  AND p.algorithm = e.algorithm AND p.mb_per_s = e.lo) AS slowest_at,
       printf('%.1f', e.hi) AS fastest,
       (SELECT dist || ' ' || pv FROM pts p WHERE p.library = e.library
	  AND p.algorithm = e.algorithm AND p.mb_per_s = e.hi) AS fastest_at,
       printf('%.0f%%', (e.hi / e.lo - 1) * 100) AS spread
FROM ext e
ORDER BY e.hi / e.lo DESC, e.library, e.algorithm;"

[ $# -eq 1 ] || echo "database kept: $db" >&2
