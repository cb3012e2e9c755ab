#!/bin/sh
# t2150-images-keyring - `images build --keyring FILE` trusts FILE and
# nothing else: with a throwaway key generated here, which never signed
# Debian's archive, building debian:bookworm fails (exit 1) with both
# bootstrap tools, although the host's apt keyrings hold Debian's keys,
# and leaves no image. A build with the recipe's own keyring records the
# keyring and its keys' fingerprints, shown by `images show`. Needs root,
# gpg and the network (or BENCHORCH_TEST_MIRROR); skips otherwise.
. "${top_srcdir:-.}/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v gpg >/dev/null 2>&1 || skip_all "needs gpg"
PATH="$PATH:/usr/sbin:/sbin"
mirror=${BENCHORCH_TEST_MIRROR:-}
host=deb.debian.org
[ -n "$mirror" ] && host=$(echo "$mirror" | sed 's|^[a-z]*://||; s|[:/].*||')
getent hosts "$host" >/dev/null 2>&1 || skip_all "no network (cannot resolve $host)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/gnupg"
GNUPGHOME="$tmp/gnupg" gpg --batch --quiet --passphrase '' \
	--quick-gen-key 'benchorch test throwaway <throwaway@invalid>' \
	ed25519 sign never 2>/dev/null &&
	GNUPGHOME="$tmp/gnupg" gpg --batch --export >"$tmp/throwaway.gpg" &&
	[ -s "$tmp/throwaway.gpg" ]
ok $? "a throwaway key"
fpr=$(GNUPGHOME="$tmp/gnupg" gpg --batch --with-colons --list-keys | awk -F: '$1 == "fpr" { print $10; exit }')

# build TOOL NAME [OPTIONS...]: debian:bookworm with TOOL, through a copy
# of the debian recipe that names TOOL alone (the caller's PATH stays
# whole, so that a tool can only fail for its keyring)
build() {
	tool=$1 name=$2
	shift 2
	mkdir -p "$tmp/data-$tool/images"
	sed 's/"method": \[.*\]/"method": ["'$tool'"]/' \
		"$top_srcdir/images/debian.json" >"$tmp/data-$tool/images/debian.json"
	BENCHORCH_DATA_DIR="$tmp/data-$tool" "$BENCHORCH" images build \
		debian:bookworm --state-dir "$tmp/$name" \
		${mirror:+--mirror "$mirror"} "$@" \
		>"$tmp/out.$name" 2>"$tmp/err.$name"
}

for tool in mmdebstrap debootstrap; do
	command -v $tool >/dev/null 2>&1 || {
		echo "ok $((tap_n + 1)) # SKIP $tool not installed"
		tap_n=$((tap_n + 1))
		continue
	}
	build $tool bad-$tool --keyring "$tmp/throwaway.gpg"
	rc=$?
	diag "$tool: $(head -2 "$tmp/err.bad-$tool")"
	[ $rc -eq 1 ] && [ ! -e "$tmp/bad-$tool/images/debian-bookworm" ] &&
		grep -q "^benchorch: cannot build image 'debian:bookworm': $tool exited with status" "$tmp/err.bad-$tool" &&
		grep -Eq "is not signed|signed by unknown key|NO_PUBKEY" "$tmp/err.bad-$tool"
	ok $? "$tool with a keyring that never signed the archive: refused for its signature (exit $rc), no image"
done

if command -v mmdebstrap >/dev/null 2>&1; then
	build mmdebstrap good
	rc=$?
	[ $rc -eq 0 ]
	ok $? "mmdebstrap with the recipe's keyring builds (exit $rc)"
	"$BENCHORCH" images show debian-bookworm --state-dir "$tmp/good" >"$tmp/show" 2>&1
	diag "$(grep -i verification "$tmp/show")"
	# 4D64FEC119C2029067D6E791F8D2585B8783D481: Debian 12 (bookworm)
	# stable release key, as published on https://ftp-master.debian.org/keys.html
	grep -q "keyring '/usr/share/keyrings/debian-archive-keyring.gpg' alone (OpenPGP keys .*4D64FEC119C2029067D6E791F8D2585B8783D481" "$tmp/show" &&
		! grep -q "$fpr" "$tmp/show"
	ok $? "images show names the keyring and its keys' fingerprints"
	[ -z "$(mounts_under "$tmp")" ]
	ok $? "no mount left"
fi
done_testing
