#!/bin/sh
# t6170-units - the systemd units as `make install` installs them pass
# `systemd-analyze verify` without a complaint, and both units that run
# benchmarks, benchorch.service and benchorch-nightly.service, have the same
# confinement: their `systemd-analyze security` exposure (offline, from the
# unit file) is at most 5.3 (9.6 without confinement; 5.1 before the guest's
# tool mode needed a user namespace of its own, RestrictNamespaces= with
# user, 0.2 more; the weights are systemd 252's) and they keep the settings
# a run cannot do without.
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

for unit in benchorch.service benchorch-nightly.service; do
	systemd-analyze security --offline=true "$dir/$unit" >"$tmp/sec" 2>&1
	score=$(sed -n "s/.*Overall exposure level for $unit: \([0-9.]*\) .*/\1/p" "$tmp/sec")
	systemd-analyze security --offline=true --threshold=53 "$dir/$unit" >/dev/null 2>&1
	ok $? "$unit: exposure $score, at most 5.3"
	for o in NoNewPrivileges=yes ProtectKernelModules=yes LockPersonality=yes \
		RestrictRealtime=yes SystemCallArchitectures=native; do
		grep -q "^$o$" "$dir/$unit"
		ok $? "$unit has $o"
	done
	# A run needs these: namespaces for systemd-nspawn and the chroot
	# runner, and a user namespace for the guest's tool mode, CAP_SYS_ADMIN
	# and CAP_MKNOD for mounts and the images' device nodes,
	# sched_setaffinity(2) for the guest's CPU pinning (@resources allowed).
	grep -q "^RestrictNamespaces=cgroup ipc mnt net pid uts user$" "$dir/$unit" &&
		grep "^CapabilityBoundingSet=" "$dir/$unit" | grep -q CAP_SYS_ADMIN &&
		grep "^CapabilityBoundingSet=" "$dir/$unit" | grep -q CAP_MKNOD &&
		! grep "^SystemCallFilter=" "$dir/$unit" | grep -q "@resources\|@mount\|@privileged"
	ok $? "$unit: keeps what a run needs"
	sed 's/^/# /' "$tmp/sec" | grep -v "^# ✓"
done
# one confinement for both
[ "$(sed -n '/^# Confinement/,/^CapabilityBoundingSet=/p' "$dir/benchorch.service")" = \
  "$(sed -n '/^# Confinement/,/^CapabilityBoundingSet=/p' "$dir/benchorch-nightly.service")" ] &&
	grep -q "^# Confinement" "$dir/benchorch-nightly.service"
ok $? "both units have the same confinement"

done_testing
