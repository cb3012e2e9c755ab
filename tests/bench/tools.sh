#!/bin/sh
# tools.sh - the tool mode's budget and findings: `benchorch run --tools`
# (64 MiB, 10 repetitions: the defaults) on each distribution given, one
# run each. Prints per distribution the wall time of the whole command
# (target: <= 60 s for one distribution; the default cases are four -
# openssl aes-256-cbc and chacha20, gpg AES256, age - of which the budget
# counts two tools: openssl aes-256-cbc and gpg, whose share is printed
# as well, summed from the stored samples), then per tool and cipher the
# trimmed MB/s encrypting and decrypting, hw and nohw, decrypt/encrypt
# and hw/nohw ratios - the figures behind the three findings of the
# study (is OpenSSL's tool fastest; does gpg decrypt slower than it
# encrypts while openssl decrypts faster; does AES-NI matter to both).
#
# Usage: tests/bench/tools.sh [DISTRO...]   (default: debian)
# Needs root and a built benchorch ($BENCHORCH, default ./benchorch);
# images under $BENCHORCH_STATE_DIR (default /var/lib/benchorch) must
# have gnupg and age (built with the current recipes) to measure them.
# TOOLS_ARGS adds run options (e.g. "--tool-reps 20").
set -eu
bo=${BENCHORCH:-./benchorch}
[ $# -gt 0 ] || set -- debian
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }
status=0

printf '%-16s %8s %14s %s\n' distro wall_s budget_2tools_s result
for d in "$@"; do
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	"$bo" run --tools --distros "$d" ${TOOLS_ARGS:-} --db "$db" \
		>"$tmp/out" 2>"$tmp/err" || { echo "# $d failed:"; sed 's/^/# /' "$tmp/err"; status=1; }
	t1=$(date +%s%N)
	two=$(q "select coalesce(sum(s.wall_ns), 0) / 1e9 from tool_samples s join invocations i on i.id = s.invocation_id where i.run_id = (select max(id) from runs) and (s.tool = 'gpg' or s.cipher = 'aes-256-cbc')")
	w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	ok=$(awk -v w="$w" 'BEGIN { print (w <= 60 ? "within 60 s" : "OVER 60 s") }')
	printf '%-16s %8s %14.1f %s\n' "$d" "$w" "$two" "$ok"
	[ "$ok" = "within 60 s" ] || status=1
done
echo
sqlite3 -batch -header -column "$db" "
SELECT e.spec AS distro, e.tool, e.cipher, e.variant,
       e.package_version AS version,
       round(e.mb_per_s, 1) AS enc_mb_s, round(d.mb_per_s, 1) AS dec_mb_s,
       round(d.mb_per_s / e.mb_per_s, 2) AS dec_over_enc,
       round(e.cpu_ns / 1e6, 1) AS enc_cpu_ms, round(d.cpu_ns / 1e6, 1) AS dec_cpu_ms,
       round(e.max_rss_kib / 1024.0, 1) AS enc_rss_mib,
       round(d.max_rss_kib / 1024.0, 1) AS dec_rss_mib,
       e.kept || '/' || e.repetitions AS kept
FROM tool_results_v e JOIN tool_results_v d
  ON d.invocation_id = e.invocation_id AND d.tool = e.tool
 AND d.cipher = e.cipher AND d.variant = e.variant AND d.direction = 'decrypt'
WHERE e.direction = 'encrypt' AND e.status = 'measured' AND d.status = 'measured'
ORDER BY e.spec, e.tool, e.cipher, e.variant;"
echo
sqlite3 -batch -header -column "$db" "
SELECT h.spec AS distro, h.tool, h.cipher, h.direction,
       round(h.mb_per_s / n.mb_per_s, 2) AS hw_over_nohw,
       round(1.0 * n.cpu_ns / h.cpu_ns, 2) AS nohw_cpu_over_hw
FROM tool_results_v h JOIN tool_results_v n
  ON n.invocation_id = h.invocation_id AND n.tool = h.tool
 AND n.cipher = h.cipher AND n.direction = h.direction AND n.variant = 'nohw'
WHERE h.variant = 'hw' AND h.status = 'measured' AND n.status = 'measured'
ORDER BY h.spec, h.tool, h.cipher, h.direction DESC;"
sqlite3 -batch -noheader "$db" "select spec || ': ' || tool || ' ' || cipher || ' absent' from tool_results_v where status = 'absent' and direction = 'encrypt' and variant = 'hw'"
exit $status
