# lib.sh - helpers for the TAP shell tests. Source it, call the checks,
# finish with `done_testing`.
#
# Environment (set by `make check`): top_srcdir, top_builddir.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
BENCHORCH="$top_builddir/benchorch"
tap_n=0
tap_failed=0

# ok COND-EXIT-STATUS DESCRIPTION: report a test point from $?.
ok() {
	status=$1
	shift
	tap_n=$((tap_n + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $tap_n - $*"
	else
		echo "not ok $tap_n - $*"
		tap_failed=$((tap_failed + 1))
	fi
}

# check DESCRIPTION -- COMMAND...: run COMMAND, report whether it succeeded.
check() {
	desc=$1
	shift
	[ "$1" = "--" ] && shift
	"$@"
	ok $? "$desc"
}

diag() {
	echo "$*" | sed 's/^/# /'
}

# skip_all REASON: the whole script cannot run here.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# require_root_tools: skip unless root with debootstrap and network access
# to a Debian mirror (the integration tests build a real rootfs).
require_root_tools() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root"
	command -v debootstrap >/dev/null 2>&1 || skip_all "needs debootstrap"
	command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
}

# Where integration tests keep images between runs, so the Debian rootfs is
# built once per machine.
TEST_STATE="${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}"

# mounts_under DIR: print the mount points at or below DIR.
mounts_under() {
	awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' \
		/proc/self/mountinfo
}

# stray_guests: print the pids of guest processes still running.
stray_guests() {
	pgrep -f '/run/benchorch/guest' || true
}
