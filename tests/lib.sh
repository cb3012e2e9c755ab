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

# skip_point REASON DESCRIPTION: report one test point that cannot run here,
# as a TAP skip with the reason (the harness counts it, unlike a point
# left out).
skip_point() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $2 # SKIP $1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# tap_py [ARGS...]: run the python3 script on stdin as TAP points of this
# test: it starts with tmp ($tmp), n (the points so far), ok(cond, what)
# (prints a point) and load(name) (the JSON lines of $tmp/NAME as a list)
# defined, and ARGS in sys.argv[3:]; its points are printed and counted
# here (tap_n, tap_failed), its other "# " lines passed on.
tap_py() {
	out=$( { cat <<'PRE'
import json, sys, collections
tmp, n = sys.argv[1], int(sys.argv[2])
def ok(cond, what):
    global n
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
def load(name):
    return [json.loads(l) for l in open("%s/%s" % (tmp, name))]
PRE
		cat
		printf '\nprint("# %%d" %% n)\n'; } | python3 - "$tmp" "$tap_n" "$@")
	echo "$out" | grep -v '^#'
	echo "$out" | grep '^# ' | grep -v '^# [0-9]*$'
	tap_failed=$((tap_failed + $(echo "$out" | grep -c '^not ok')))
	count=$(echo "$out" | sed -n 's/^# \([0-9][0-9]*\)$/\1/p' | tail -1)
	if [ -n "$count" ]; then
		tap_n=$count
	else
		tap_n=$(echo "$out" | grep -c '^\(not \)\{0,1\}ok ' | \
			awk -v n="$tap_n" '{ print n + $1 }')
		ok 1 "the python checks ran to their end"
	fi
}

# skip_in_distcheck: skip an integration test inside `make distcheck`
# (BENCHORCH_DISTCHECK, set by its configure flags in dist/local.mk): it
# needs root, a network and the machine's cached test image, none of which
# belongs to a build of the source tarball.
skip_in_distcheck() {
	[ -z "${BENCHORCH_DISTCHECK-}" ] ||
		skip_all "inside make distcheck: needs root, a network and the cached test image"
}

# require_root_tools: skip unless root with debootstrap and network access
# to a Debian mirror (the integration tests build a real rootfs).
require_root_tools() {
	skip_in_distcheck
	[ "$(id -u)" -eq 0 ] || skip_all "needs root"
	command -v debootstrap >/dev/null 2>&1 || skip_all "needs debootstrap"
	command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
}

# Where integration tests keep images between runs, so the Debian rootfs is
# built once per machine.
TEST_STATE="${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}"

# The cached Debian image the integration tests run on.
TEST_IMAGE="$TEST_STATE/images/debian-bookworm"

# test_image_ready: status 0 when the cached image $TEST_IMAGE is there,
# building it first when it is missing (as root, with debootstrap and a
# Debian mirror; under a lock, so tests started together build it once).
# Status 1, with the reason in $test_image_why, when it cannot be had.
test_image_ready() {
	test_image_why=
	# a build of the release tarball (make distcheck) builds no image
	if [ -n "${BENCHORCH_DISTCHECK-}" ]; then
		test_image_why="inside make distcheck: the cached test image is the machine's"
		return 1
	fi
	[ -f "$TEST_IMAGE/image.json" ] && [ -d "$TEST_IMAGE/rootfs/usr/lib" ] &&
		return 0
	if [ "$(id -u)" -ne 0 ]; then
		test_image_why="needs root to build the cached image $TEST_IMAGE"
		return 1
	fi
	if ! command -v debootstrap >/dev/null 2>&1; then
		test_image_why="needs debootstrap to build the cached image $TEST_IMAGE"
		return 1
	fi
	mkdir -p "$TEST_STATE" 2>/dev/null
	(
		flock 8
		[ -f "$TEST_IMAGE/image.json" ] && exit 0
		echo "# building the cached image $TEST_IMAGE" >&2
		"$BENCHORCH" images build --state-dir "$TEST_STATE" \
			debian:bookworm >/dev/null 2>"$TEST_STATE/test-image.err"
	) 8>>"$TEST_STATE/test-image.lock"
	[ -f "$TEST_IMAGE/image.json" ] && [ -d "$TEST_IMAGE/rootfs/usr/lib" ] &&
		return 0
	test_image_why="cannot build the cached image $TEST_IMAGE: $(tail -1 "$TEST_STATE/test-image.err" 2>/dev/null)"
	return 1
}

# require_test_image: skip the whole script, saying why, unless the cached
# image can be had (test_image_ready).
require_test_image() {
	test_image_ready || skip_all "$test_image_why"
}

# mounts_under DIR: print the mount points at or below DIR.
mounts_under() {
	awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' \
		/proc/self/mountinfo
}

# proc_root PID: the directory PID runs in, as the host sees it: its root
# directory, or for a process whose rootfs is the root of a mount
# namespace of its own (the chroot runner pivots the root, and then
# /proc/PID/root reads "/"), the directory bound there, from its
# mountinfo. Status 1 when PID is gone.
proc_root() {
	proc_root_r=$(readlink "/proc/$1/root" 2>/dev/null) || return 1
	if [ "$proc_root_r" = / ] &&
		[ "$(readlink "/proc/$1/ns/mnt" 2>/dev/null)" != "$(readlink /proc/self/ns/mnt)" ]; then
		proc_root_r=$(awk '$5 == "/" { r = $4 } END { print r }' \
			"/proc/$1/mountinfo" 2>/dev/null)
	fi
	echo "$proc_root_r"
}

# stray_guests [DIR]: print the pids of processes this test's runs left
# behind: any whose command line names the state directory DIR (default
# the test state directory: benchorch itself, systemd-nspawn -D, the image
# builders) or whose root directory is an image below it (a guest under
# the chroot runner, proc_root). A container's processes die with its
# systemd-nspawn. Other benchorch users on the machine are not counted.
stray_guests() {
	stray_dir=${1:-$TEST_STATE}
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" = $$ ] && continue
		root=$(proc_root "$pid") || continue
		case $root in "$stray_dir"/*) echo "$pid"; continue ;; esac
		# "$stray_dir/" or "$stray_dir " (NULs made spaces): another
		# state directory that merely starts with the same name (a
		# neighbour's "$stray_dir-x") is not ours
		tr '\0' ' ' 2>/dev/null <"$d/cmdline" |
			grep -qF -e "$stray_dir/" -e "$stray_dir " &&
			echo "$pid"
	done
	return 0
}

# running_guests: print the pids of guests of this test's runs that are
# running now: a systemd-nspawn on an image below the test state
# directory, or a process whose root is one (proc_root).
running_guests() {
	for d in /proc/[0-9]*; do
		root=$(proc_root "${d#/proc/}") || continue
		case $root in "$TEST_STATE"/*) echo "${d#/proc/}"; continue ;; esac
		tr '\0' ' ' 2>/dev/null <"$d/cmdline" |
			grep -q "^systemd-nspawn .*-D $TEST_STATE/" && echo "${d#/proc/}"
	done
	return 0
}

# wait_for SECONDS SHELL-CONDITION: poll CONDITION (eval'ed) every 0.1 s
# until it holds (status 0) or SECONDS have passed (status 1).
wait_for() {
	wait_i=0
	while [ $wait_i -lt $(($1 * 10)) ]; do
		eval "$2" && return 0
		sleep 0.1
		wait_i=$((wait_i + 1))
	done
	return 1
}

# descendants PID: the pids of PID's children, grandchildren, ... (for a
# daemon: its jobs and their guests; other users of the test state
# directory are not counted).
descendants() {
	for c in $(cat /proc/[0-9]*/stat 2>/dev/null |
		   awk -v p="$1" '$4 == p { print $1 }'); do
		echo "$c"
		descendants "$c"
	done
}

# --- Tests of a real daemon on the cached Debian image ------------------
#
# daemon_setup: skip unless root with the tools and systemd-nspawn; build
# the cached image $TEST_IMAGE if it is missing; then wait for the
# daemon tests' turn (one daemon per state directory) and set $tmp (a new
# directory, removed at exit after the daemon is stopped), $db and $sock
# (the daemon's database and control socket in $tmp) and $dpid (the
# daemon's pid once daemon_start started it, else empty).
daemon_setup() {
	require_root_tools
	command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
	require_test_image
	tmp=$(mktemp -d)
	dpid=
	trap daemon_cleanup EXIT
	exec 9>"$TEST_STATE/t6-daemon.lock"
	flock 9
	db="$tmp/results.db"
	sock="$tmp/control.sock"
}

# daemon_cleanup: stop the daemon if it runs, remove $tmp (the EXIT trap).
daemon_cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid"
	rm -rf "$tmp"
}

# daemon_sql SQL: run SQL on the daemon's database, rows on stdout. The
# daemon may be writing: sqlite3 waits for no lock unless told to, and a
# writer's checkpoint holds the file alone for a moment, so wait up to 10 s.
daemon_sql() {
	sqlite3 -batch -noheader -cmd '.timeout 10000' "$db" "$1"
}

# daemon_status [ARGS...]: `benchorch status` against the daemon's socket.
daemon_status() {
	"$BENCHORCH" status --socket "$sock" "$@"
}

# daemon_write_conf [EXTRA LINES...]: $tmp/benchorch.conf on the test
# state directory, $db and $sock, runner nspawn, and the lines given.
daemon_write_conf() {
	{
		echo "state-dir $TEST_STATE"
		echo "database $db"
		echo "socket $sock"
		echo "runner nspawn"
		for l in "$@"; do echo "$l"; done
	} >"$tmp/benchorch.conf"
}

# daemon_start: start the daemon in the foreground on $tmp/benchorch.conf
# (stdout appended to $tmp/daemon.out, its log to $tmp/daemon.log), set
# $dpid and wait up to 10 s for it to answer status.
daemon_start() {
	TZ=UTC "$BENCHORCH" daemon --foreground --config "$tmp/benchorch.conf" \
		>>"$tmp/daemon.out" 2>>"$tmp/daemon.log" &
	dpid=$!
	wait_for 10 'daemon_status >/dev/null 2>&1'
}

# daemon_stop: SIGTERM the daemon and return its exit status.
daemon_stop() {
	kill -TERM "$dpid"
	wait "$dpid"
	stop_rc=$?
	dpid=
	return $stop_rc
}

# daemon_clean_after_job: no job or guest process left under the daemon,
# and nothing mounted on the image (allowing 10 s to tear down).
daemon_clean_after_job() {
	wait_for 10 '[ -z "$(descendants "$dpid")" ] && [ -z "$(mounts_under "$TEST_STATE/images/debian-bookworm")" ]' && return 0
	diag "left behind: pids $(descendants "$dpid"); mounts $(mounts_under "$TEST_STATE/images/debian-bookworm")"
	return 1
}

# daemon_wait_guest: wait up to 60 s for the daemon's job to start its
# guest (a systemd-nspawn below the daemon).
daemon_wait_guest() {
	wait_for 60 'descendants "$dpid" | while read p; do
		tr "\0" " " </proc/$p/cmdline 2>/dev/null; echo; done |
		grep -q "^systemd-nspawn "'
}

# expect_db_error NAME DESC -- COMMAND...: benchorch COMMAND, given
# --db $tmp/NAME.db (a damaged database) and run through the function
# named by $via when it is set, exits 3, prints nothing on stdout and one
# line on stderr naming the database and SQLite's "malformed".
expect_db_error() {
	name=$1 desc=$2
	shift 3
	if [ -n "${via:-}" ]; then
		"$via" "$@" --db "$tmp/$name.db" >"$tmp/out" 2>"$tmp/err"
	else
		"$BENCHORCH" "$@" --db "$tmp/$name.db" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	[ $rc -eq 3 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "'$tmp/$name.db'" "$tmp/err" &&
		grep -q "malformed" "$tmp/err"
	ok $? "$name damaged: $desc exits 3 with one line naming the database (exit $rc, $(wc -c <"$tmp/out") bytes out: $(head -1 "$tmp/err"))"
}

# expect_db_sound DESC -- COMMAND...: benchorch COMMAND on the sound
# $tmp/ok.db exits 0 and prints something.
expect_db_sound() {
	desc=$1
	shift 2
	"$BENCHORCH" "$@" --db "$tmp/ok.db" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ -s "$tmp/out" ]
	ok $? "sound: $desc exits 0 with output (exit $rc: $(head -1 "$tmp/err"))"
}
