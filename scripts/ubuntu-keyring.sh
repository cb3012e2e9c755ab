#!/bin/sh
# ubuntu-keyring.sh - install the Ubuntu archive keyring on a Debian host,
# which has no package for it, so that `benchorch images build ubuntu:...`
# can check the Ubuntu archive's signatures. Run as root.
#
#   sh scripts/ubuntu-keyring.sh [MIRROR]
#
# MIRROR defaults to http://archive.ubuntu.com/ubuntu. The keyring is taken
# from Ubuntu's own ubuntu-keyring package in that archive and accepted only
# if every primary key in it is one of the three Ubuntu signing keys pinned
# below, by full fingerprint (as Ubuntu publishes them, and as
# `gpg --show-keys` prints them from the package of noble, 2023.11.28.1):
#   790B C727 7767 219C 42C8  6F93 3B4F E6AC C0B2 1F32
#     Ubuntu Archive Automatic Signing Key (2012)
#   8439 38DF 228D 22F7 B374  2BC0 D94A A3F0 EFE2 1092
#     Ubuntu CD Image Automatic Signing Key (2012)
#   F6EC B376 2474 EDA9 D21B  7022 8719 20D1 991B C93C
#     Ubuntu Archive Automatic Signing Key (2018)
# so what the download path delivers cannot add a key of its own choosing.
# An existing keyring (from a package) is left alone. Exit status: 0 when
# the keyring is in place, 1 when it could not be fetched or did not match.
set -eu

DEST=/usr/share/keyrings/ubuntu-archive-keyring.gpg
MIRROR=${1:-http://archive.ubuntu.com/ubuntu}
PINNED="790BC7277767219C42C86F933B4FE6ACC0B21F32 843938DF228D22F7B3742BC0D94AA3F0EFE21092 F6ECB3762474EDA9D21B7022871920D1991BC93C"

if [ -s "$DEST" ]; then
	echo "ubuntu-keyring: '$DEST' is already installed" >&2
	exit 0
fi
for tool in curl gpg dpkg-deb xz; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "ubuntu-keyring: '$tool' is missing (scripts/deps.sh installs it)" >&2
		exit 1
	}
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Where the package is: the noble main index names its file.
if ! curl -fsS --max-time 120 -o "$work/Packages.xz" \
	"$MIRROR/dists/noble/main/binary-amd64/Packages.xz"; then
	echo "ubuntu-keyring: cannot download the package index from '$MIRROR'" >&2
	exit 1
fi
file=$(xz -dc "$work/Packages.xz" | awk '
	/^Package: / { p = ($2 == "ubuntu-keyring") }
	p && /^Filename: / { print $2; exit }')
case $file in
pool/*.deb) ;;
*)
	echo "ubuntu-keyring: no ubuntu-keyring package in the index of '$MIRROR'" >&2
	exit 1 ;;
esac
if ! curl -fsS --max-time 120 -o "$work/k.deb" "$MIRROR/$file"; then
	echo "ubuntu-keyring: cannot download '$MIRROR/$file'" >&2
	exit 1
fi
mkdir "$work/x"
dpkg-deb -x "$work/k.deb" "$work/x"
ring="$work/x/usr/share/keyrings/ubuntu-archive-keyring.gpg"
[ -s "$ring" ] || {
	echo "ubuntu-keyring: '$file' holds no ubuntu-archive-keyring.gpg" >&2
	exit 1
}

# Every primary key's fingerprint must be pinned, and the 2018 key (which
# signs current releases) must be there.
fprs=$(GNUPGHOME="$work" gpg --batch --with-colons --show-keys "$ring" 2>/dev/null |
	awk -F: '$1 == "pub" { want = 1; next }
		 want && $1 == "fpr" { print $10; want = 0 }')
[ -n "$fprs" ] || {
	echo "ubuntu-keyring: '$file' holds no readable key" >&2
	exit 1
}
for f in $fprs; do
	case " $PINNED " in
	*" $f "*) ;;
	*)
		echo "ubuntu-keyring: unexpected key $f in '$file': not installed" >&2
		exit 1 ;;
	esac
done
case " $fprs " in
*F6ECB3762474EDA9D21B7022871920D1991BC93C*) ;;
*)
	echo "ubuntu-keyring: the 2018 archive key is missing from '$file'" >&2
	exit 1 ;;
esac

install -D -m 0644 "$ring" "$DEST"
echo "ubuntu-keyring: installed '$DEST'" >&2
