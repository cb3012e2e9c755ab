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

# stray_guests: print the pids of processes this test's runs left behind:
# any whose command line names the test state directory (benchorch itself,
# systemd-nspawn -D, the image builders) or whose root directory is an
# image below it (a chroot'ed guest). A container's processes die with its
# systemd-nspawn. Other benchorch users on the machine are not counted.
stray_guests() {
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" = $$ ] && continue
		root=$(readlink "$d/root" 2>/dev/null) || continue
		case $root in "$TEST_STATE"/*) echo "$pid"; continue ;; esac
		tr '\0' ' ' 2>/dev/null <"$d/cmdline" | grep -qF -- "$TEST_STATE" &&
			echo "$pid"
	done
	return 0
}

# running_guests: print the pids of guests of this test's runs that are
# running now: a systemd-nspawn on an image below the test state
# directory, or a process chroot'ed into one.
running_guests() {
	for d in /proc/[0-9]*; do
		root=$(readlink "$d/root" 2>/dev/null) || continue
		case $root in "$TEST_STATE"/*) echo "${d#/proc/}"; continue ;; esac
		tr '\0' ' ' 2>/dev/null <"$d/cmdline" |
			grep -q "^systemd-nspawn .*-D $TEST_STATE/" && echo "${d#/proc/}"
	done
	return 0
}
