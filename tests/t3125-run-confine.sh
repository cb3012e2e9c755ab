#!/bin/sh
# t3125-run-confine - the image's code runs without the host's powers,
# whichever runner: in a copy of the cached Debian image, /etc/ld.so.preload
# loads a stand-in library into the guest before its own code runs, whose constructor tries each way out it knows and
# writes what each attempt returned to stderr (the run's log): become root,
# make a block device, open the host's memory, remount the image read-write,
# write into it, chroot out of the chroot, reach the host through
# /proc/1/root, write /proc/sys, signal a host process, see the host's
# network, and share a namespace with the host. Expected under nspawn and
# under chroot: uid and gid 65534, no capability (the bounding set empty),
# no_new_privs, namespaces of its own (PID, network, IPC, UTS, mount),
# only a loopback interface, every attempt refused, and the run goes on
# (Nettle measured, exit 0). Then the runner is chosen from the host, never
# from what an image does: an image whose code exits 1 as soon as it sees
# nspawn fails under auto, and is never run under chroot; and a host whose
# systemd-nspawn cannot start any container runs the guests under chroot,
# saying why once.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v gcc >/dev/null 2>&1 || skip_all "needs gcc"
require_test_image

tmp=$(mktemp -d)
token=t3125-$$-$(date +%s)
trap 'rm -rf "$tmp" "/tmp/$token"*' EXIT
state="$tmp/state"
mkdir -p "$state/images"
cp -a "$TEST_IMAGE" "$state/images/"
ok $? "a copy of the cached Debian image"
root="$state/images/debian-bookworm/rootfs"
db="$tmp/results.db"
q() { sqlite3 -batch -noheader "$db" "$1"; }

cat >"$tmp/escape.c" <<'C'
/* Preloaded into every process of the guest: try each way out, say what
 * each returned ("t3125: RUNNER WHAT: SUCCEEDED" or the error). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *runner = "chroot";
static char token[128];

static void say(const char *what, int rc)
{
	fprintf(stderr, "t3125: %s %s: %s\n", runner, what,
		rc >= 0 ? "SUCCEEDED" : strerror(errno));
}

static void read_etc(const char *name, char *buf, size_t len)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "/etc/%s", name);
	buf[0] = '\0';
	if ((f = fopen(p, "r"))) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static void status(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Uid:", 4) || !strncmp(line, "Gid:", 4) ||
		    !strncmp(line, "Groups:", 7) || !strncmp(line, "Cap", 3) ||
		    !strncmp(line, "NoNewPrivs:", 11)) {
			line[strcspn(line, "\n")] = '\0';
			fprintf(stderr, "t3125: %s status %s\n", runner, line);
		}
	if (f)
		fclose(f);
}

static void namespaces(void)
{
	static const char *const ns[] = { "pid", "net", "ipc", "uts", "mnt", NULL };
	char p[64], link[64];
	int i;

	for (i = 0; ns[i]; i++) {
		ssize_t n;

		snprintf(p, sizeof(p), "/proc/self/ns/%s", ns[i]);
		n = readlink(p, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "t3125: %s ns %s\n", runner, link);
	}
}

static void interfaces(void)
{
	struct if_nameindex *ifs = if_nameindex(), *i;

	for (i = ifs; i && i->if_name; i++)
		fprintf(stderr, "t3125: %s interface %s\n", runner, i->if_name);
	if (ifs)
		if_freenameindex(ifs);
}

/* The classic way out of a chroot, and a file in the host's /tmp when it
 * worked. */
static void chroot_out(void)
{
	char p[256];
	int i, rc;

	mkdir("/tmp/t3125-jail", 0700);
	rc = chroot("/tmp/t3125-jail");
	say("chroot", rc);
	if (rc < 0)
		return;
	for (i = 0; i < 64; i++)
		if (chdir("..") < 0)
			break;
	rc = chroot(".");
	snprintf(p, sizeof(p), "/tmp/%s-chroot", token);
	if (rc == 0)
		rc = open(p, O_WRONLY | O_CREAT, 0644);
	say("escape-chroot", rc);
}

__attribute__((constructor)) static void t3125(void)
{
	const char *c = getenv("container");
	char p[256], hostpid[32];

	if (c && *c)
		runner = "nspawn";
	if (c && *c && access("/etc/t3125-exit-under-nspawn", F_OK) == 0)
		_exit(1);
	read_etc("t3125-token", token, sizeof(token));
	read_etc("t3125-hostpid", hostpid, sizeof(hostpid));
	status();
	namespaces();
	interfaces();
	say("setuid-0", setuid(0));
	say("mknod-block", mknod("/tmp/t3125-sda", S_IFBLK | 0600, makedev(8, 0)));
	say("mknod-char", mknod("/tmp/t3125-mem", S_IFCHR | 0600, makedev(1, 1)));
	say("open-dev-mem", open("/dev/mem", O_RDONLY));
	say("remount-rw", mount("none", "/", NULL, MS_REMOUNT | MS_BIND, NULL));
	say("write-image", open("/etc/t3125-written", O_WRONLY | O_CREAT, 0644));
	snprintf(p, sizeof(p), "/proc/1/root/tmp/%s-proc1", token);
	say("proc1-root", open(p, O_WRONLY | O_CREAT, 0644));
	say("proc-sys", open("/proc/sys/kernel/domainname", O_WRONLY));
	say("kill-host", kill((pid_t)atoi(hostpid), 0));
	say("kill-init", kill(1, SIGKILL));
	say("mount-tmpfs", mount("tmpfs", "/tmp", "tmpfs", 0, NULL));
	chroot_out();
}
C
gcc -shared -fPIC -o "$root/usr/lib/t3125-escape.so" "$tmp/escape.c" &&
	echo /usr/lib/t3125-escape.so >"$root/etc/ld.so.preload" &&
	echo "$token" >"$root/etc/t3125-token" &&
	echo $$ >"$root/etc/t3125-hostpid"
ok $? "the stand-in is preloaded in the copy"

run() {
	name=$1
	shift
	rm -rf "$state/logs"
	"$BENCHORCH" run --distros debian --quick --min-batch-ms 0.05 \
		--libs nettle --algos aes-128-ctr --no-confirm \
		--state-dir "$state" --db "$db" "$@" >"$tmp/out.$name" \
		2>"$tmp/err.$name"
}

for runner in nspawn chroot; do
	run $runner --runner $runner
	rc=$?
	cat "$state"/logs/* 2>/dev/null | grep "^t3125: $runner " >"$tmp/said.$runner"
	sed 's/^/# /' "$tmp/err.$runner" | grep -v '^# benchorch: round' | tail -3
	[ $rc -eq 0 ]
	ok $? "$runner: the run goes on and ends with status 0 (got $rc)"
	run_id=$(q "select max(id) from runs")
	[ "$(q "select count(*) from results_v where run_id = $run_id and library = 'nettle'")" -gt 0 ] &&
		[ "$(q "select distinct runner from invocations where run_id = $run_id")" = $runner ]
	ok $? "$runner: Nettle measured under $runner"
	# the guest of the run's one round (--quick, one algorithm) said it
	# (its library processes are forks of it, with the same
	# credentials and namespaces), twice: it executes itself again for
	# a fixed address space layout (--fixed-layout, guest/place.h)
	n=$(grep -c " status Uid:" "$tmp/said.$runner")
	[ "$n" -eq 2 ]
	ok $? "$runner: the stand-in ran in the guest of the round, before and after it executed itself again ($n)"
	! grep " status Uid:\| status Gid:" "$tmp/said.$runner" |
		grep -v "[UG]id:	65534	65534	65534	65534$" | grep -q .
	ok $? "$runner: every process runs as uid and gid 65534 (real, effective, saved, file system)"
	! grep " status Groups:" "$tmp/said.$runner" | grep -qv "Groups:[	 ]*$"
	ok $? "$runner: no supplementary group"
	! grep " status Cap" "$tmp/said.$runner" | grep -qv "	0000000000000000$"
	ok $? "$runner: no capability: effective, permitted, inheritable, ambient and bounding sets empty"
	! grep " status NoNewPrivs:" "$tmp/said.$runner" | grep -qv "NoNewPrivs:	1$"
	ok $? "$runner: no_new_privs set"
	for ns in pid net ipc uts mnt; do
		host=$(readlink /proc/self/ns/$ns)
		[ "$(grep -c " ns $ns:" "$tmp/said.$runner")" -eq "$n" ] &&
			! grep -q " ns $host$" "$tmp/said.$runner"
		ok $? "$runner: a $ns namespace of its own, not the host's $host"
	done
	[ "$(grep " interface " "$tmp/said.$runner" | sed 's/.* interface //' | sort -u)" = lo ]
	ok $? "$runner: only a loopback interface"
	for what in setuid-0 mknod-block mknod-char open-dev-mem remount-rw \
		write-image proc1-root proc-sys kill-host kill-init mount-tmpfs chroot; do
		[ "$(grep -c " $what: " "$tmp/said.$runner")" -eq "$n" ] &&
			! grep -q " $what: SUCCEEDED" "$tmp/said.$runner"
		ok $? "$runner: $what refused ($(grep " $what: " "$tmp/said.$runner" | sed 's/.*: //' | sort -u | tr '\n' ';'))"
	done
	! ls /tmp/"$token"* >/dev/null 2>&1
	ok $? "$runner: nothing written in the host's /tmp"
	[ ! -e "$root/etc/t3125-written" ] && [ ! -e "$root/tmp/t3125-sda" ] &&
		[ ! -e "$root/tmp/t3125-mem" ] && [ ! -e "$root/tmp/t3125-jail" ]
	ok $? "$runner: nothing written into the image"
	[ -z "$(mounts_under "$state")" ] && [ -z "$(stray_guests "$state")" ]
	ok $? "$runner: no mount and no process left"
done

# The image cannot choose the runner: its code exits 1 under nspawn, the
# failure of nspawn's own kind on main, which made benchorch run it again
# under chroot.
touch "$root/etc/t3125-exit-under-nspawn"
run exit1
rc=$?
sed 's/^/# /' "$tmp/err.exit1" | grep -v '^# benchorch: round' | tail -3
[ $rc -eq 1 ]
ok $? "an image that exits 1 under nspawn: the run fails (status $rc)"
! grep -qi "chroot" "$tmp/err.exit1" &&
	! cat "$state"/logs/* 2>/dev/null | grep -q "^t3125: chroot "
ok $? "... and is never run under chroot"
run_id=$(q "select max(id) from runs")
[ "$(q "select count(*) from invocations where run_id = $run_id and runner = 'chroot'")" -eq 0 ]
ok $? "... and no invocation is stored as chroot"
rm -f "$root/etc/t3125-exit-under-nspawn"

# A host whose systemd-nspawn cannot start a container: auto says so once
# and runs the guests under chroot.
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "t3125: this nspawn starts nothing" >&2\nexit 1\n' \
	>"$tmp/bin/systemd-nspawn"
chmod 755 "$tmp/bin/systemd-nspawn"
PATH="$tmp/bin:$PATH" run broken
rc=$?
sed 's/^/# /' "$tmp/err.broken" | grep -v '^# benchorch: round' | tail -3
[ $rc -eq 0 ]
ok $? "nspawn that starts nothing: the run ends with status 0 (got $rc)"
[ "$(grep -c "systemd-nspawn cannot start a container on this host (systemd-nspawn exited with status 1: t3125: this nspawn starts nothing): running the guests under chroot instead" "$tmp/err.broken")" -eq 1 ]
ok $? "... said once, with nspawn's reason"
run_id=$(q "select max(id) from runs")
[ "$(q "select distinct runner from invocations where run_id = $run_id")" = chroot ]
ok $? "... and the guests ran under chroot"
done_testing
