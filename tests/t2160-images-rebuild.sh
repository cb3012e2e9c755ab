#!/bin/sh
# t2160-images-rebuild - `benchorch rebuild`: nettle (with libhogweed, of the same source package) rebuilt from
# Debian bookworm's source package with -O3 in a throwaway overlay of a
# copy of the cached image: STATE/builds/IMAGE/NAME holds its sonames and
# build.json, the image is unchanged; bad inputs (unknown image or
# library, an image without a source archive, a compiler the release does
# not ship, flags the compiler rejects, a name used twice) exit non-zero
# with one line and leave nothing under builds/; a build interrupted
# while it installs leaves no directory, mount or process; a build
# killed outright (SIGKILL) leaves no process in its container, and its
# directory is removed by the next --list; --list
# (--format), --remove, and images remove takes the image's builds. The
# container runs need the Debian mirror: skipped without it. One real
# build (about 1.5 minutes); the failing cases stop before the build
# dependencies are installed. Prints TAP.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/duet-images.sh"
skip_in_distcheck
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
state=$tmp/state
# the overlay only reads the copy's rootfs: hard links are enough
duet_image_copy "$state" "$TEST_IMAGE" deb
ok $? "a copy of the cached image"
rb() {
	"$BENCHORCH" rebuild --state-dir "$state" "$@"
}
# nothing_built: no build and no temporary directory under builds/
nothing_built() {
	[ -z "$(ls -A "$state/builds" 2>/dev/null)" ]
}

rb nosuch libsodium --name x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no image 'nosuch'" "$tmp/err" && nothing_built
ok $? "an unknown image exits 2 ($(head -1 "$tmp/err"))"
rb deb nosuchlib --name x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown library 'nosuchlib'" "$tmp/err" && nothing_built
ok $? "an unknown library exits 2 ($(head -1 "$tmp/err"))"
rb deb libsodium --name x --cc icc >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown compiler 'icc'" "$tmp/err" && nothing_built
ok $? "a compiler that is neither gcc nor clang exits 2"
rb deb libsodium >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--name NAME is needed" "$tmp/err"
ok $? "--name is needed"
# a normal user: exit 3 before the image store (which it may not read)
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BENCHORCH" \
		rebuild --state-dir "$state" deb libsodium --name x \
		>/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q "must be run as root" "$tmp/err" && nothing_built
	ok $? "a normal user: exit 3, it must be run as root ($rc: $(head -1 "$tmp/err"))"
else
	skip_point "needs setpriv to drop root" "a normal user: exit 3"
fi
rb deb libsodium --name shipped >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "invalid build name 'shipped'" "$tmp/err" && nothing_built
ok $? "the name 'shipped' is refused: it names the distribution's libraries ($(head -1 "$tmp/err"))"
rb --remove deb o3 --cc clang >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--remove takes no --name, --cc or --cflags" "$tmp/err"
ok $? "--remove with --cc is a usage error, nothing removed"
# an image of another distribution: no source archive
mkdir -p "$state/images/alp/rootfs" &&
	sed -e 's/"distro": "debian"/"distro": "alpine"/' \
		-e 's/"name": "deb"/"name": "alp"/' \
		"$state/images/deb/image.json" >"$state/images/alp/image.json"
rb alp libsodium --name x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no source archive for image 'alp'" "$tmp/err" &&
	nothing_built
ok $? "a non-Debian image exits 2 ($(head -1 "$tmp/err"))"
rb --list >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q '^image  *name ' "$tmp/out"
ok $? "--list with no build prints the header only"
rb --list --format csv >"$tmp/out" 2>"$tmp/err" &&
	[ "$(tr -d '\r' <"$tmp/out")" = "image,name,library,package,source,version,cc,cc_version,flags,cflags,created_at,build_seconds,digest" ] &&
	rb --list --format json >"$tmp/out" && [ "$(tr -d ' \n' <"$tmp/out")" = "[]" ]
ok $? "--list --format csv and json"
rb --list --format xml >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown format 'xml'" "$tmp/err"
ok $? "--list --format xml exits 2"
# a build killed outright (SIGKILL) leaves its directory, named after its
# process: the next --list removes it, but not one whose process lives
dead=$(sh -c 'echo $$')
mkdir -p "$state/builds/.tmp-$dead-deb-x-abcdef/upper" \
	"$state/builds/.tmp-$$-deb-y-abcdef"
rb --list >/dev/null 2>"$tmp/err" &&
	[ ! -e "$state/builds/.tmp-$dead-deb-x-abcdef" ] &&
	[ -d "$state/builds/.tmp-$$-deb-y-abcdef" ]
ok $? "--list removes the directory of a build whose process is gone, not a live one's"
rm -rf "$state/builds/.tmp-$$-deb-y-abcdef"
rb --remove deb x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no build 'x' of image 'deb'" "$tmp/err"
ok $? "--remove of a build that does not exist exits 2"

if ! timeout 10 sh -c 'exec 3<>/dev/tcp/deb.debian.org/80' 2>/dev/null &&
	! curl -fsI --max-time 10 http://deb.debian.org/debian/ >/dev/null 2>&1; then
	for what in "compiler not shipped" "interrupted: status" \
		"interrupted: nothing left" "flags rejected" "the build" \
		"build.json" "progress" "image untouched" \
		"no temporary directory" "same name refused" "--list" \
		"--list --format json" "images remove"; do
		skip_point "the Debian mirror is unreachable" "$what"
	done
	done_testing
	exit 0
fi
digest_before=$(cd "$state/images/deb/rootfs" && find . -newer "$state/images/deb/image.json" | wc -l)

rb deb libsodium --name x --cc clang-99 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "ships no compiler 'clang-99'" "$tmp/err" && nothing_built
ok $? "a compiler the release does not ship exits 2 ($(grep -v '^benchorch: rebuild libsodium: ' "$tmp/err" | head -1))"

# build_procs: the processes whose command line names a directory under
# builds/ (the container of a build: systemd-nspawn -D .../merged)
build_procs() {
	for p in /proc/[0-9]*; do
		case $(tr '\0' ' ' 2>/dev/null <"$p/cmdline") in
		*"$state/builds/"*) echo "${p#/proc/}" ;;
		esac
	done
}
# interrupt_in_install SIGNAL STATUS: a build interrupted by SIGNAL while
# it installs exits STATUS and leaves no directory, mount or process
interrupt_in_install() {
	# benchorch itself in the background, not a subshell running it
	"$BENCHORCH" rebuild --state-dir "$state" deb libsodium --name int \
		>/dev/null 2>"$tmp/err" &
	pid=$!
	wait_for 120 'grep -q "s: install: build dependencies" "$tmp/err"'
	sleep 1
	kill -s "$1" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$2" ] && grep -q "interrupted" "$tmp/err"
	ok $? "interrupted by SIG$1 while installing: status $2 (status $rc: $(grep -v '^benchorch: rebuild libsodium: ' "$tmp/err" | head -1))"
	# no process of the build, and its overlay in no mount namespace
	wait_for 10 '[ -z "$(build_procs)" ] &&
		! grep -qs "$state" /proc/[0-9]*/mounts'
	[ $? -eq 0 ] && nothing_built
	ok $? "interrupted: nothing left under builds/, no mount, no process"
	[ -z "$(build_procs)" ] || diag "left: $(build_procs)"
	grep -s "$state" /proc/[0-9]*/mounts | head -3 | while read -r l; do
		diag "mount left: $l"
	done
}
interrupt_in_install INT 130

# container_procs: the processes of a build's container, whose command
# lines name no path: their user is of the range systemd-nspawn picks
# for the container's user namespace (--private-users=pick: 0x80000 and
# up; every user of this host's own is below)
container_procs() {
	for p in /proc/[0-9]*; do
		u=$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' "$p/status" 2>/dev/null)
		[ -n "$u" ] && [ "$u" -ge 524288 ] && echo "${p#/proc/}"
	done
}
# SIGKILL: nothing in benchorch can clean up, nspawn dies with it, and the
# container's processes end too (their stdin is a pipe benchorch holds:
# orchestrator/rebuild/rebuild-script.c); the next --list removes the
# directory
"$BENCHORCH" rebuild --state-dir "$state" deb libsodium --name kill \
	>/dev/null 2>"$tmp/err" &
pid=$!
wait_for 120 'grep -q "s: install: build dependencies" "$tmp/err"' &&
	sleep 1 && [ -n "$(container_procs)" ]
ok $? "a build under way has processes in its container ($(container_procs | wc -l))"
kill -KILL $pid
wait $pid
wait_for 10 '[ -z "$(container_procs)" ] && [ -z "$(build_procs)" ]'
ok $? "killed by SIGKILL while installing: no process of its container left"
[ -z "$(container_procs)" ] || diag "left: $(container_procs | head -3 | while read -r p; do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
"$BENCHORCH" rebuild --list --state-dir "$state" >/dev/null 2>&1 &&
	wait_for 10 '! grep -qs "$state" /proc/[0-9]*/mounts' && nothing_built
ok $? "and the next --list removes its directory: nothing under builds/, no mount"

rb deb libsodium --name bad --cflags -fno-such-flag >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "failed at 'flags: gcc -fno-such-flag'" "$tmp/err" &&
	grep -q "rejects the flags" "$tmp/err" &&
	grep -q "no-such-flag" "$tmp/err" && nothing_built
ok $? "flags the compiler rejects: exit 1 before the build dependencies, what failed and the log's last lines, nothing left (status $rc: $(grep -v '^benchorch: rebuild libsodium: ' "$tmp/err" | head -1))"

rb deb nettle --name o3 --cflags -O3 >"$tmp/out" 2>"$tmp/err"
rc=$?
b=$state/builds/deb/o3
[ $rc -eq 0 ] && [ -f "$b/lib/libnettle.so.8" ] && [ -L "$b/lib/libnettle.so.8" ] &&
	[ -L "$b/lib/libhogweed.so.6" ]
ok $? "nettle built with -O3: its soname kept, and libhogweed's, of the same source (status $rc: $(tail -1 "$tmp/err"))"
grep -q '"source": "nettle"' "$b/build.json" &&
	grep -q '"cflags": ".*-O3' "$b/build.json" &&
	! grep -q '"cflags": ".*-O2' "$b/build.json" &&
	grep -q '"cc_version": "gcc' "$b/build.json" &&
	grep -q '"digest": "sha256:' "$b/build.json" &&
	grep -q '"version": "3\.' "$b/build.json" && [ -s "$b/build.log" ] &&
	[ -z "$(ls "$b/lib" | grep -Ev '^lib(nettle|hogweed)\.so\.')" ]
ok $? "build.json: source, version, CFLAGS with -O3 for -O2, compiler, digest; only nettle's and hogweed's shared objects"
# the container's root is an unprivileged user of the host: uid 0 inside
# maps to another uid outside; what is kept is root's
awk '/^=== benchorch rebuild: uid_map/ { print $6; exit }' "$b/build.log" >"$tmp/hostuid"
[ -s "$tmp/hostuid" ] && [ "$(cat "$tmp/hostuid")" -gt 0 ] &&
	[ "$(find "$b" ! -user root | wc -l)" -eq 0 ]
ok $? "the build ran as the root of its own user namespace (host uid $(cat "$tmp/hostuid")), and its files are root's"
grep -q '^benchorch: rebuild nettle: .*build: nettle' "$tmp/err"
ok $? "progress lines name each step"
digest_after=$(cd "$state/images/deb/rootfs" && find . -newer "$state/images/deb/image.json" | wc -l)
[ "$digest_before" = "$digest_after" ] &&
	[ ! -e "$state/images/deb/rootfs/benchorch-out" ]
ok $? "the image itself is untouched"
[ -z "$(ls -A "$state/builds" | grep '^\.')" ]
ok $? "no temporary directory left"
rb deb nettle --name o3 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "exists already" "$tmp/err"
ok $? "a second build of the same name is refused"
rb --list >"$tmp/out" && grep -Eq '^deb +o3 +nettle +3\.[^ ]* +gcc +-O3 ' "$tmp/out"
ok $? "--list shows it"
rb --list deb --format json >"$tmp/out" &&
	grep -q '"digest": "sha256:' "$tmp/out" && grep -q '"name": "o3"' "$tmp/out"
ok $? "--list --format json shows every field"
"$BENCHORCH" images remove --state-dir "$state" deb >/dev/null &&
	[ ! -e "$state/builds/deb" ]
ok $? "images remove removes the image's builds"
done_testing
