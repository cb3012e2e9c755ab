#!/bin/sh
# t2140-images-ubuntu.sh - a real Ubuntu rootfs: `images build ubuntu:noble`
# with the Ubuntu archive keyring (scripts/ubuntu-keyring.sh), its crypto
# packages read from dpkg (t64 names), and a run of the guest against
# Ubuntu's own libraries stored under distro 'ubuntu'. `--keyring` with an
# unreadable file fails closed. Needs root, mmdebstrap or debootstrap, the
# Ubuntu keyring and the Ubuntu archive (or a cached image in
# $BENCHORCH_TEST_STATE).

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

require_root_tools
RING=/usr/share/keyrings/ubuntu-archive-keyring.gpg
IMG="$TEST_STATE/images/ubuntu-noble"
if [ ! -f "$IMG/image.json" ]; then
	[ -s "$RING" ] || skip_all "no Ubuntu archive keyring ($RING; scripts/ubuntu-keyring.sh installs it)"
	command -v curl >/dev/null 2>&1 || skip_all "needs curl"
	curl -fsS --max-time 20 -o /dev/null \
		http://archive.ubuntu.com/ubuntu/dists/noble/Release 2>/dev/null ||
		skip_all "no cached ubuntu image and the Ubuntu archive is unreachable"
fi
TMP=$(mktemp -d /tmp/t2140-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# A keyring that cannot be read is an error before anything is downloaded,
# never a build without signature checks.
"$BENCHORCH" images build --quiet --state-dir "$TMP/s" --keyring "$TMP/nonexistent.gpg" \
	ubuntu:noble >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 2 ] && grep -q "^benchorch images: cannot read '$TMP/nonexistent.gpg'" "$TMP/err" &&
     [ "$(grep -vc '^Try ' < "$TMP/err")" -eq 1 ]; echo $?) \
	"unreadable --keyring: one-line usage error, exit $rc"
ok $([ ! -e "$TMP/s/images/ubuntu-noble" ]; echo $?) \
	"unreadable --keyring: no image registered"

t0=$(date +%s)
"$BENCHORCH" images build --state-dir "$TEST_STATE" ubuntu:noble \
	>"$TMP/out" 2>"$TMP/err"
ok $? "images build ubuntu:noble ($(( $(date +%s) - t0 )) s): $(tail -1 "$TMP/err")"
"$BENCHORCH" images show --state-dir "$TEST_STATE" ubuntu-noble >"$TMP/show" 2>&1
check "show: Ubuntu's own t64 OpenSSL package with an ubuntu version" -- \
	grep -q '^openssl  *libssl3t64  *[0-9][^ ]*ubuntu' "$TMP/show"
check "show: distro ubuntu, release noble, dpkg database" -- sh -c \
	"grep -q '^distro: *ubuntu' '$TMP/show' && grep -q '^release: *noble' '$TMP/show' &&
	 grep -q '^packages: .*(dpkg)' '$TMP/show'"

"$BENCHORCH" run --distros ubuntu:noble --quick --libs openssl,libgcrypt,nettle \
	--algos aes-128-cbc,sha-256 --state-dir "$TEST_STATE" --db "$TMP/r.db" \
	--format csv >"$TMP/run" 2>"$TMP/err"
ok $? "run --distros ubuntu:noble: $(tail -1 "$TMP/err")"
n=$(sqlite3 "$TMP/r.db" "SELECT count(*) FROM results_v
	WHERE distro = 'ubuntu' AND release = 'noble' AND verified = 1")
ok $([ "${n:-0}" -gt 0 ]; echo $?) "$n verified results stored for ubuntu:noble"
libs=$(sqlite3 "$TMP/r.db" "SELECT group_concat(library, ',') FROM
	(SELECT DISTINCT library FROM results_v ORDER BY library)")
ok $([ "$libs" = "libgcrypt,nettle,openssl" ]; echo $?) \
	"the three libraries measured in the Ubuntu rootfs: $libs"
pv=$(sqlite3 "$TMP/r.db" "SELECT DISTINCT package_version FROM results_v
	WHERE library = 'openssl'")
case $pv in *ubuntu*) r=0 ;; *) r=1 ;; esac
ok $r "results carry Ubuntu's package version of OpenSSL: $pv"
ok $([ -z "$(mounts_under "$TEST_STATE")" ] && [ -z "$(stray_guests)" ]; echo $?) \
	"no mount and no process left behind"
done_testing
