#!/bin/sh
# t6170-units - the systemd units as `make install` installs them pass
# `systemd-analyze verify` without a complaint, and benchorch.service is
# confined: its `systemd-analyze security` exposure (offline, from the
# unit file) is at most 5.1 (9.6 without confinement, 5.0 with UMask=0027,
# which would make the database unreadable to other users; the weights are
# systemd 252's) and it keeps the settings a run cannot do without.
. "${top_srcdir:-.}/tests/lib.sh"
command -v systemd-analyze >/dev/null 2>&1 || skip_all "needs systemd-analyze"
systemd-analyze security --help 2>/dev/null | grep -q -- --offline ||
	skip_all "needs systemd-analyze security --offline (systemd 250 or later)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root

make -C "$top_builddir" install DESTDIR="$root" >"$tmp/install" 2>&1
ok $? "make install DESTDIR=..."
units=$(find "$root" -path '*/systemd/system/*' \( -name '*.service' -o -name '*.timer' \))
[ -n "$units" ]
ok $? "installs units:" $(echo "$units" | sed "s|^$root||")
# What the units refer to outside the package, for verify --root: the
# standard targets and /bin/kill of ExecReload.
mkdir -p "$root/usr/lib/systemd/system" "$root/bin"
for t in /lib/systemd/system/*.target /usr/lib/systemd/system/*.target; do
	[ -f "$t" ] && cp "$t" "$root/usr/lib/systemd/system/"
done
[ -x /bin/kill ] && cp /bin/kill "$root/bin/kill"
# verify finds units by name below --root in the places systemd looks:
# the installed units are put where an administrator's would be (their
# install directory, e.g. under make distcheck's prefix, may be none)
dir=$root/etc/systemd/system
mkdir -p "$dir" && cp $units "$dir/"
(cd "$dir" && systemd-analyze verify --root="$root" --man=no *.service *.timer) >"$tmp/verify" 2>&1
rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/verify" ]
ok $? "systemd-analyze verify: no complaint (exit $rc)"
sed 's/^/# /' "$tmp/verify"

systemd-analyze security --offline=true "$dir/benchorch.service" >"$tmp/sec" 2>&1
score=$(sed -n 's/.*Overall exposure level for benchorch.service: \([0-9.]*\) .*/\1/p' "$tmp/sec")
systemd-analyze security --offline=true --threshold=51 "$dir/benchorch.service" >/dev/null 2>&1
ok $? "benchorch.service: exposure $score, at most 5.1"
for o in NoNewPrivileges=yes ProtectKernelModules=yes LockPersonality=yes \
	RestrictRealtime=yes SystemCallArchitectures=native; do
	grep -q "^$o$" "$dir/benchorch.service"
	ok $? "benchorch.service has $o"
done
# A run needs these: namespaces for systemd-nspawn (no user namespace),
# CAP_SYS_ADMIN and CAP_MKNOD for mounts and the images' device nodes,
# sched_setaffinity(2) for the guest's CPU pinning (@resources allowed).
grep -q "^RestrictNamespaces=cgroup ipc mnt net pid uts$" "$dir/benchorch.service" &&
	grep "^CapabilityBoundingSet=" "$dir/benchorch.service" | grep -q CAP_SYS_ADMIN &&
	grep "^CapabilityBoundingSet=" "$dir/benchorch.service" | grep -q CAP_MKNOD &&
	! grep "^SystemCallFilter=" "$dir/benchorch.service" | grep -q "@resources\|@mount\|@privileged"
ok $? "and keeps what a run needs"
sed 's/^/# /' "$tmp/sec" | grep -v "^# ✓"

done_testing
