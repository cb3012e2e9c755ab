#!/bin/sh
# t8000-deb - the Debian package: `dpkg-buildpackage -us -uc -b` on a clean
# copy of the source tree builds benchorch_VERSION_amd64.deb holding the
# command, both guests, the recipes, the manual pages, the example
# configuration as a conffile, the three systemd units (the daemon enabled
# but not started, the timer neither) and the bash completion; the
# unpacked command runs. Skips where dpkg-buildpackage or debhelper is
# missing. Takes about a minute on two cores (the package build also runs
# the tests debian/rules names).
. "${top_srcdir:-.}/tests/lib.sh"

command -v dpkg-buildpackage >/dev/null 2>&1 ||
	skip_all "needs dpkg-buildpackage (Debian dpkg-dev)"
command -v dh >/dev/null 2>&1 || skip_all "needs debhelper"
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] ||
	skip_all "the package is built for amd64 only"
[ -f "$top_srcdir/debian/rules" ] || skip_all "no debian/ in $top_srcdir"
command -v dpkg-checkbuilddeps >/dev/null 2>&1 &&
	! (cd "$top_srcdir" && dpkg-checkbuilddeps -B >/dev/null 2>&1) &&
	skip_all "build dependencies missing: $(cd "$top_srcdir" && dpkg-checkbuilddeps -B 2>&1 | sed 's/.*Unmet build dependencies: //')"

version=$("$BENCHORCH" --version | sed 's/^benchorch //')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A clean copy: the files git knows (committed or not, not ignored) in a
# git checkout, else the whole tree of an unpacked release tarball (a
# configured tree would carry its build into the package build).
src="$tmp/benchorch-$version"
mkdir "$src"
if git -C "$top_srcdir" rev-parse --show-toplevel >/dev/null 2>&1 &&
   [ "$(cd "$top_srcdir" && git rev-parse --show-toplevel)" = "$(cd "$top_srcdir" && pwd -P)" ]; then
	(cd "$top_srcdir" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$src"
elif [ -f "$top_srcdir/config.status" ]; then
	skip_all "$top_srcdir is configured in place and is not a git checkout"
else
	cp -R "$top_srcdir/." "$src" && chmod -R u+w "$src"
fi
ok $? "a clean copy of the source tree"

start=$(date +%s)
# without the make check this test runs under: its MAKEFLAGS (TESTS=...
# among them) would reach the package build's own make and pick its tests
(cd "$src" && unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES &&
	DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS-}" \
	timeout 1200 dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
status=$?
diag "dpkg-buildpackage: exit $status after $(($(date +%s) - start)) s"
[ $status -eq 0 ] || tail -40 "$tmp/build.log" | sed 's/^/# /'
deb="$tmp/benchorch_${version}_amd64.deb"
[ $status -eq 0 ] && [ -f "$deb" ]
ok $? "dpkg-buildpackage -us -uc -b builds benchorch_${version}_amd64.deb"
[ -f "$deb" ] || { done_testing; exit; }

grep -q '^ok 1 - no GLIBC_ version above 2.17' "$tmp/build.log"
ok $? "the package build checked the installed guest's GLIBC_ versions"
# the package build runs its own short list (debian/rules PACKAGE_TESTS),
# never the root and container tests of the whole suite
ran=$(sed -n 's/^\(PASS\|FAIL\|SKIP\|ERROR\|XFAIL\|XPASS\): \(tests\/[^ ]*\).*/\2/p' "$tmp/build.log" | sort -u)
[ -n "$ran" ] && [ "$(echo "$ran" | grep -c .)" -eq 8 ] &&
	! echo "$ran" | grep -q 't3100-run-debian\|t2040-images-build'
ok $? "the package build ran its eight tests, not the whole suite: $(echo $ran)"

dpkg -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/files"
missing=
for f in /usr/bin/benchorch /usr/libexec/benchorch/benchorch-guest \
	/usr/libexec/benchorch/benchorch-guest-musl \
	/usr/libexec/benchorch/benchorch-confine \
	/usr/share/benchorch/images/debian.json \
	/usr/share/benchorch/images/ubuntu.json \
	/usr/share/benchorch/images/alpine.json \
	/usr/share/benchorch/images/gentoo.json \
	/usr/share/man/man1/benchorch.1.gz \
	/usr/share/man/man5/benchorch.conf.5.gz \
	/usr/share/man/man8/benchorch-daemon.8.gz \
	/etc/benchorch/benchorch.conf \
	/usr/share/bash-completion/completions/benchorch \
	/usr/share/doc/benchorch/copyright; do
	grep -qx "$f" "$tmp/files" || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "dpkg -c lists the command, guests, recipes, manual pages, configuration, completion${missing:+ (missing:$missing)}"
units=$(grep -E '/systemd/system/[^/]+$' "$tmp/files" | sed 's|.*/||' | sort | tr '\n' ' ')
[ "$units" = "benchorch-nightly.service benchorch-nightly.timer benchorch.service " ]
ok $? "the three systemd units: $units"

dpkg-deb -f "$deb" Depends >"$tmp/depends"
grep -q 'debootstrap | mmdebstrap' "$tmp/depends" &&
	grep -q 'systemd-container' "$tmp/depends" &&
	grep -q 'libc6 (>=' "$tmp/depends" && grep -q 'libarchive' "$tmp/depends" &&
	grep -q 'libsqlite3' "$tmp/depends" && grep -q 'libjansson' "$tmp/depends"
ok $? "Depends: computed libraries, debootstrap | mmdebstrap, systemd-container: $(cat "$tmp/depends")"
! grep 'dpkg-shlibdeps: warning' "$tmp/build.log" | grep -q benchorch-guest
ok $? "the guests are kept out of the computed dependencies (they run in other root filesystems; no dpkg-shlibdeps warning about them)"
dpkg-deb -I "$deb" conffiles 2>/dev/null | grep -qx /etc/benchorch/benchorch.conf
ok $? "/etc/benchorch/benchorch.conf is a conffile"

dpkg-deb -I "$deb" postinst >"$tmp/postinst" 2>/dev/null
grep -q "deb-systemd-helper enable 'benchorch.service'" "$tmp/postinst"
ok $? "postinst enables benchorch.service"
! grep -q 'deb-systemd-invoke' "$tmp/postinst" &&
	! grep -Eq "systemctl .*(start|restart)" "$tmp/postinst"
ok $? "postinst starts no unit (the daemon needs a configured schedule; no run at install)"
# dh_installsystemd --no-enable: the timer's enable only runs for a unit
# that is already installed and was enabled (by the administrator).
awk "/deb-systemd-helper debian-installed 'benchorch-nightly.timer'/ { guarded = 1 }
     /deb-systemd-helper update-state 'benchorch-nightly.timer'/ { seen = 1 }
     /deb-systemd-helper enable 'benchorch-nightly.timer'/ && !guarded { bad = 1 }
     END { exit bad || !seen }" "$tmp/postinst"
ok $? "the timer is shipped disabled (enabled again only where it was enabled)"

mkdir "$tmp/root" && dpkg-deb -x "$deb" "$tmp/root"
out=$("$tmp/root/usr/bin/benchorch" --version 2>&1)
[ "$out" = "benchorch $version" ]
ok $? "the unpacked benchorch --version runs: $out"
"$tmp/root/usr/libexec/benchorch/benchorch-guest" --list-libs | grep -qx openssl
ok $? "the unpacked guest runs (--list-libs)"
grep -q "^_benchorch_guest='/usr/libexec/benchorch/benchorch-guest'\$" \
	"$tmp/root/usr/share/bash-completion/completions/benchorch" &&
	grep -q "^_benchorch_recipes='/usr/share/benchorch/images'\$" \
	"$tmp/root/usr/share/bash-completion/completions/benchorch"
ok $? "the installed completion reads the installed guest and recipes"

if command -v lintian >/dev/null 2>&1; then
	lintian "$tmp"/benchorch_"$version"_amd64.changes >"$tmp/lintian" 2>&1
	grep '^W:' "$tmp/lintian" | sed 's/^/# kept: /'
	! grep -q '^E:' "$tmp/lintian"
	ok $? "lintian: no error$(grep '^E:' "$tmp/lintian" | tr '\n' ' ')"
else
	echo "ok $((tap_n += 1)) # SKIP lintian not installed"
fi

done_testing
