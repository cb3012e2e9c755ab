#!/bin/sh
# tests/bench/order.sh - does the order of a run matter? N runs of the same
# few points with one fixed --seed (every run in the same order) against N
# runs with fresh seeds (each in its own order), one after the other,
# alternating, on the cached Debian image. For each point (library,
# algorithm, operation, mode, size; the median of its two invocations,
# points_v) it takes the coefficient of variation of its throughput over
# the N runs of each group, and prints the median over the points of each
# group, and of their ratio fresh / fixed. If order mattered (a library or
# algorithm measured early reads faster or slower than late), fresh seeds
# would spread the runs more than a fixed seed: a ratio well above 1.
#
# Usage (as root, from a build directory, under the machine's benchmark
# lock): BENCHORCH=./benchorch sh tests/bench/order.sh [N]
# Environment: ORDER_LIBS (default openssl,libgcrypt,nettle), ORDER_ALGOS
# (default aes-128-cbc,aes-128-ctr,sha-256), ORDER_SEED (12345),
# BENCHORCH_TEST_STATE (default /var/cache/benchorch-test).
set -u
n=${1:-4}
benchorch=${BENCHORCH:-./benchorch}
state=${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}
libs=${ORDER_LIBS:-openssl,libgcrypt,nettle}
algos=${ORDER_ALGOS:-aes-128-cbc,aes-128-ctr,sha-256}
seed=${ORDER_SEED:-12345}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/order.db

i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	for g in fixed fresh; do
		s=
		[ "$g" = fixed ] && s="--seed $seed"
		# shellcheck disable=SC2086
		"$benchorch" run --distros debian:bookworm --state-dir "$state" \
			--db "$db" --libs "$libs" --algos "$algos" $s \
			>/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
	done
done
# run ids 1..2N in order: odd fixed, even fresh
sqlite3 -batch -noheader "$db" "
WITH p AS (
	SELECT CASE WHEN run_id % 2 = 1 THEN 'fixed' ELSE 'fresh' END AS g,
		library, algorithm, operation, mode, buffer_bytes, mb_per_s
	FROM points_v
), s AS (
	SELECT g, library, algorithm, operation, mode, buffer_bytes,
		avg(mb_per_s) AS m,
		sqrt(max(avg(mb_per_s * mb_per_s) - avg(mb_per_s) * avg(mb_per_s), 0)
			* count(*) / (count(*) - 1)) / avg(mb_per_s) AS cv
	FROM p GROUP BY 1, 2, 3, 4, 5, 6 HAVING count(*) > 1
), r AS (
	SELECT a.cv AS fixed_cv, b.cv AS fresh_cv,
		CASE WHEN a.cv > 0 THEN b.cv / a.cv END AS ratio
	FROM s a JOIN s b ON a.g = 'fixed' AND b.g = 'fresh'
		AND a.library = b.library AND a.algorithm = b.algorithm
		AND a.operation = b.operation AND a.mode = b.mode
		AND a.buffer_bytes = b.buffer_bytes
)
SELECT 'points ' || count(*) FROM r;
" 
for col in fixed_cv fresh_cv ratio; do
	printf '%s: median over points ' "$col"
	sqlite3 -batch -noheader "$db" "
WITH p AS (
	SELECT CASE WHEN run_id % 2 = 1 THEN 'fixed' ELSE 'fresh' END AS g,
		library, algorithm, operation, mode, buffer_bytes, mb_per_s
	FROM points_v
), s AS (
	SELECT g, library, algorithm, operation, mode, buffer_bytes,
		sqrt(max(avg(mb_per_s * mb_per_s) - avg(mb_per_s) * avg(mb_per_s), 0)
			* count(*) / (count(*) - 1)) / avg(mb_per_s) AS cv
	FROM p GROUP BY 1, 2, 3, 4, 5, 6 HAVING count(*) > 1
), r AS (
	SELECT a.cv AS fixed_cv, b.cv AS fresh_cv,
		CASE WHEN a.cv > 0 THEN b.cv / a.cv END AS ratio
	FROM s a JOIN s b ON a.g = 'fixed' AND b.g = 'fresh'
		AND a.library = b.library AND a.algorithm = b.algorithm
		AND a.operation = b.operation AND a.mode = b.mode
		AND a.buffer_bytes = b.buffer_bytes
)
SELECT $col FROM r WHERE $col IS NOT NULL ORDER BY $col
LIMIT 1 OFFSET (SELECT count($col) FROM r) / 2;"
done
