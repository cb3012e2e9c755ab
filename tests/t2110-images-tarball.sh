#!/bin/sh
# t2110-images-tarball.sh - the gentoo and alpine recipes' tarball method
# on small fixture root filesystems made here (their servers are not
# reachable from the test machines): a local --from file verified against
# the checksum file next to it (Alpine .sha256, Gentoo DIGESTS) or named by
# --digests; the recipe's URL templates against a file:// mirror laid out
# like the real sites; mismatches, missing entries and unreadable keyrings
# refused with nothing registered; --no-verify recorded; a PGP signature
# checked with gpgv; a second build not rebuilding. Needs root.

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
TMP=$(mktemp -d /tmp/t2110-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
S="$TMP/state"
B() { "$BENCHORCH" images "$@"; }
field() { sed -n "s/.*\"$2\": \"\(.*\)\".*/\1/p" "$S/images/$1/image.json"; }
clean() { # clean NAME: no image NAME, no temporary directory
	[ ! -e "$S/images/$1" ] && ! ls -a "$S/images" | grep -q '^\.build-'
}

# Alpine-shaped minirootfs.
A="$TMP/alpine"
mkdir -p "$A/etc" "$A/bin" "$A/lib/apk/db" "$A/usr/bin"
echo 3.20.3 > "$A/etc/alpine-release"
printf '#!/bin/true\n' > "$A/bin/busybox"
ln -s /bin/busybox "$A/bin/sh"
printf 'P:musl\nV:1.2.5-r0\n\nP:libcrypto3\nV:3.3.2-r0\n\nP:libssl3\nV:3.3.2-r0\n' \
	> "$A/lib/apk/db/installed"
AT=alpine-minirootfs-3.20.3-x86_64.tar.gz
mkdir -p "$TMP/dl"
tar -C "$A" --numeric-owner -czf "$TMP/dl/$AT" .
(cd "$TMP/dl" && sha256sum "$AT" > "$AT.sha256")

B build --state-dir "$S" alpine:3.20 --from "$TMP/dl/$AT" >"$TMP/out" 2>"$TMP/err"
ok $? "alpine:3.20 from a local file with its .sha256: $(tail -1 "$TMP/err")"
check "verification recorded: sha256" -- \
	test "$(field alpine-3.20 verification)" = "sha256 ($AT.sha256)"
B show --state-dir "$S" alpine:3.20 > "$TMP/show"
check "show: openssl is libcrypto3 3.3.2-r0 (apk database)" -- \
	grep -q "^openssl  *libcrypto3  *3.3.2-r0" "$TMP/show"
check "show: pkgdb apk" -- grep -q "^packages: *3 (apk)" "$TMP/show"
created=$(field alpine-3.20 created_at)
# Second build: cached, not rebuilt -- even with a now-corrupt --from file,
# which a rebuild would refuse.
cp "$TMP/dl/$AT" "$TMP/keep.tgz"
echo garbage >> "$TMP/dl/$AT"
sleep 1
B build --state-dir "$S" alpine:3.20 --from "$TMP/dl/$AT" >/dev/null 2>"$TMP/err"
ok $([ $? -eq 0 ] && [ "$(field alpine-3.20 created_at)" = "$created" ]; echo $?) \
	"second build uses the cached image (no rebuild)"
B build --quiet --state-dir "$S" alpine:3.20 --refresh --from "$TMP/dl/$AT" \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 1 ] && grep -q "checksum mismatch" "$TMP/err" &&
     [ "$(wc -l < "$TMP/err")" -eq 1 ]; echo $?) \
	"--refresh with a tampered tarball: checksum mismatch, one line"
check "the old image is still there, unchanged" -- \
	test "$(field alpine-3.20 created_at)" = "$created"
cp "$TMP/keep.tgz" "$TMP/dl/$AT"

S2="$TMP/state2"
printf '%s  other.tar.gz\n' "$(sha256sum < "$TMP/dl/$AT" | cut -d' ' -f1)" \
	> "$TMP/other.sha256"
B build --state-dir "$S2" alpine --from "$TMP/dl/$AT" --digests "$TMP/other.sha256" \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 1 ] && grep -q "no SHA-256 entry for '$AT'" "$TMP/err"; echo $?) \
	"a checksum file without an entry for the tarball is refused"
S="$S2"
check "nothing registered, nothing left" -- clean alpine-3.20
B build --state-dir "$S2" alpine --from "$TMP/dl/$AT" --keyring "$TMP/none.gpg" \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 2 ] && grep -q "^benchorch images: cannot read '$TMP/none.gpg'" "$TMP/err"; echo $?) \
	"an unreadable keyring is a usage error"
B build --state-dir "$S2" alpine --from "$TMP/dl/$AT" --digests "$TMP/other.sha256" \
	--no-verify >/dev/null 2>"$TMP/err"
ok $([ $? -eq 2 ]; echo $?) "--no-verify with --digests is a usage error"
B build --state-dir "$S2" alpine --from "$TMP/dl/$AT" --no-verify >/dev/null 2>"$TMP/err"
ok $? "--no-verify builds without a checksum"
B show --state-dir "$S2" alpine --format json > "$TMP/json"
check "--no-verify recorded in image.json and shown" -- \
	sh -c "grep -q '\"verification\": \"none (--no-verify)\"' '$S2/images/alpine-3.20/image.json' &&
	       grep -q '\"no_verify\": true' '$TMP/json'"

# URL templates against a file:// mirror laid out like the real one.
M="$TMP/mirror"
mkdir -p "$M/v3.20/releases/x86_64"
cp "$TMP/dl/$AT" "$TMP/dl/$AT.sha256" "$M/v3.20/releases/x86_64/"
S3="$TMP/state3"
B build --state-dir "$S3" alpine:3.20 --mirror "file://$M" >/dev/null 2>"$TMP/err"
ok $? "alpine:3.20 downloaded from the recipe's URL template: $(tail -1 "$TMP/err")"
check "source recorded as the URL" -- sh -c \
	"grep -q '\"source\": \"file://$M/v3.20/releases/x86_64/$AT\"' '$S3/images/alpine-3.20/image.json'"

# Progress off a terminal: stderr here is a file, and a build prints one
# plain line per step (building, unpacking, digest, done), no live line.
has_steps() { # has_steps FILE: the four steps, once each, in order
	grep '^benchorch: \(building\|unpacking\|computing\|built\) ' "$1" \
		> "$TMP/steps"
	[ "$(wc -l < "$TMP/steps")" -eq 4 ] &&
	sed -n 1p "$TMP/steps" |
		grep -q "^benchorch: building image 'alpine:3.20' with tarball\.\.\.\$" &&
	sed -n 2p "$TMP/steps" | grep -q "^benchorch: unpacking '.*/$AT'\.\.\.\$" &&
	sed -n 3p "$TMP/steps" |
		grep -q "^benchorch: computing the digest of image 'alpine:3.20'\.\.\.\$" &&
	sed -n 4p "$TMP/steps" |
		grep -q "^benchorch: built image 'alpine:3.20' in [0-9.]* s\$" &&
	! grep -q "$(printf '\033')" "$1" && ! grep -q "$(printf '\r')" "$1"
}
check "images build off a terminal: one progress line per step" -- \
	has_steps "$TMP/err"
S4="$TMP/state4"
B build --state-dir "$S4" alpine:3.20 --mirror "file://$M" --quiet \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 0 ] && [ ! -s "$TMP/err" ] &&
     [ -f "$S4/images/alpine-3.20/image.json" ]; echo $?) \
	"images build --quiet builds with nothing on stderr: $(cat "$TMP/err")"
# The build a run does on first use goes the same way (the fixture rootfs
# has no loader, so the run itself then fails: only its build is looked at).
S5="$TMP/state5"
"$BENCHORCH" run --state-dir "$S5" --db "$TMP/run.db" --distros alpine:3.20 \
	--mirror "file://$M" --quick >/dev/null 2>"$TMP/err"
check "a run building its image off a terminal: one line per build step" -- \
	has_steps "$TMP/err"
"$BENCHORCH" run --state-dir "$TMP/state6" --db "$TMP/run.db" \
	--distros alpine:3.20 --mirror "file://$M" --quick --quiet \
	>/dev/null 2>"$TMP/err"
ok $([ -f "$TMP/state6/images/alpine-3.20/image.json" ] &&
     ! grep -q '^benchorch: \(building\|unpacking\|computing\|built\) ' "$TMP/err";
     echo $?) "run --quiet builds its image without progress lines"

# Gentoo-shaped stage3 with a DIGESTS file.
G="$TMP/gentoo"
mkdir -p "$G/etc" "$G/usr/bin" "$G/var/db/pkg/dev-libs/openssl-3.0.13-r1" \
	"$G/var/db/pkg/dev-libs/libgcrypt-1.10.3-r1" \
	"$G/var/db/pkg/sys-libs/glibc-2.39-r6" "$G/dev"
ln -s usr/bin "$G/bin"
echo "Gentoo Base System release 2.15" > "$G/etc/gentoo-release"
GT=stage3-amd64-openrc-20240801T170406Z.tar.xz
GD="$TMP/gdl/20240801T170406Z"
mkdir -p "$GD"
tar -C "$G" --numeric-owner -cJf "$GD/$GT" .
digests() { # digests TARBALL: a DIGESTS file in the stage3 layout
	printf '# BLAKE2B HASH\n%0128d  %s\n' 0 "$GT"
	printf '# SHA512 HASH\n%s  %s\n' "$(sha512sum < "$1" | cut -d' ' -f1)" "$GT"
	printf '# SHA512 HASH\n%0128d  %s.CONTENTS.gz\n' 0 "$GT"
}
digests "$GD/$GT" > "$GD/$GT.DIGESTS"
S4="$TMP/state4"
B build --state-dir "$S4" gentoo --from "$GD/$GT" >/dev/null 2>"$TMP/err"
ok $? "gentoo from a local stage3 with its DIGESTS: $(tail -1 "$TMP/err")"
S=$S4
check "verification recorded: sha512 (DIGESTS)" -- \
	test "$(field gentoo-openrc verification)" = "sha512 ($GT.DIGESTS)"
B show --state-dir "$S4" gentoo > "$TMP/show"
check "show: /var/db/pkg read: openssl 3.0.13-r1, libgcrypt 1.10.3-r1" -- \
	sh -c "grep -q '^openssl  *dev-libs/openssl  *3.0.13-r1' '$TMP/show' &&
	       grep -q '^libgcrypt  *dev-libs/libgcrypt  *1.10.3-r1' '$TMP/show'"
# A DIGESTS whose SHA512 is for another file's content.
printf 'x' > "$TMP/x"
digests "$TMP/x" > "$TMP/bad.DIGESTS"
S5="$TMP/state5"
B build --state-dir "$S5" gentoo --from "$GD/$GT" --digests "$TMP/bad.DIGESTS" \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 1 ] && grep -q "checksum mismatch for '$GD/$GT': SHA512" "$TMP/err"; echo $?) \
	"gentoo: a mismatching DIGESTS is refused"
S=$S5
check "nothing registered, nothing left" -- clean gentoo-openrc
# Only a BLAKE2B line for the tarball: no SHA512 entry.
printf '# BLAKE2B HASH\n%0128d  %s\n' 0 "$GT" > "$TMP/b2.DIGESTS"
B build --state-dir "$S5" gentoo --from "$GD/$GT" --digests "$TMP/b2.DIGESTS" \
	>/dev/null 2>"$TMP/err"
ok $([ $? -eq 1 ] && grep -q "no SHA512 entry for '$GT'" "$TMP/err"; echo $?) \
	"gentoo: a DIGESTS without a SHA512 entry is refused"

# The URL template: latest-stage3-*.txt names the tarball.
GM="$TMP/gmirror/releases/amd64/autobuilds"
mkdir -p "$GM"
cp -r "$GD" "$GM/"
printf '# Latest as of Thu, 01 Aug 2024\n# ts=1722532046\n20240801T170406Z/%s 1234\n' \
	"$GT" > "$GM/latest-stage3-amd64-openrc.txt"
S6="$TMP/state6"
B build --state-dir "$S6" gentoo:openrc --mirror "file://$TMP/gmirror" >/dev/null 2>"$TMP/err"
ok $? "gentoo via latest-stage3-amd64-openrc.txt on a file:// mirror: $(tail -1 "$TMP/err")"

# PGP: a clear-signed DIGESTS checked with gpgv against a keyring.
if command -v gpg >/dev/null 2>&1 && command -v gpgv >/dev/null 2>&1; then
	export GNUPGHOME="$TMP/gnupg"
	mkdir -m 700 "$GNUPGHOME"
	gpg --batch -q --passphrase '' --quick-gen-key "benchorch test <t@example.invalid>" \
		ed25519 sign never 2>/dev/null
	gpg --batch -q --export > "$TMP/ring.gpg"
	gpg --batch -q --yes --clearsign -o "$TMP/signed.DIGESTS" "$GD/$GT.DIGESTS" 2>/dev/null
	S7="$TMP/state7"
	B build --state-dir "$S7" gentoo --from "$GD/$GT" --digests "$TMP/signed.DIGESTS" \
		--keyring "$TMP/ring.gpg" >/dev/null 2>"$TMP/err"
	ok $? "gentoo: clear-signed DIGESTS verified with gpgv: $(tail -1 "$TMP/err")"
	sed 's/^\([0-9a-f]\)/f/' "$TMP/signed.DIGESTS" > "$TMP/forged.DIGESTS"
	S8="$TMP/state8"
	B build --state-dir "$S8" gentoo --from "$GD/$GT" --digests "$TMP/forged.DIGESTS" \
		--keyring "$TMP/ring.gpg" >/dev/null 2>"$TMP/err"
	ok $([ $? -eq 1 ] && grep -q "bad or missing signature" "$TMP/err"; echo $?) \
		"gentoo: a DIGESTS altered after signing is refused"
	S=$S8
	check "nothing registered, nothing left" -- clean gentoo-openrc
	B build --state-dir "$S8" gentoo --from "$GD/$GT" --keyring "$TMP/ring.gpg" \
		>/dev/null 2>"$TMP/err"
	ok $([ $? -eq 1 ] && grep -q "no signature" "$TMP/err"; echo $?) \
		"gentoo: an unsigned DIGESTS with --keyring is refused"
	# The "latest" file is clear-signed on the real site: with a keyring
	# its signature is checked too (a forged one could name an older
	# stage3 whose own DIGESTS still verify).
	cp "$GM/latest-stage3-amd64-openrc.txt" "$TMP/latest.plain"
	gpg --batch -q --yes --clearsign -o "$GM/latest-stage3-amd64-openrc.txt" \
		"$TMP/latest.plain" 2>/dev/null
	gpg --batch -q --yes --clearsign -o "$GM/20240801T170406Z/$GT.DIGESTS" \
		"$GD/$GT.DIGESTS" 2>/dev/null
	S9="$TMP/state9"
	B build --state-dir "$S9" gentoo:openrc --mirror "file://$TMP/gmirror" \
		--keyring "$TMP/ring.gpg" >/dev/null 2>"$TMP/err"
	ok $? "gentoo: signed latest-stage3 file and DIGESTS verified: $(tail -1 "$TMP/err")"
	sed 's/20240801T170406Z/20240101T000000Z/' "$GM/latest-stage3-amd64-openrc.txt" \
		> "$TMP/latest.forged"
	cp "$TMP/latest.forged" "$GM/latest-stage3-amd64-openrc.txt"
	B build --quiet --state-dir "$S9" gentoo:openrc --mirror "file://$TMP/gmirror" \
		--keyring "$TMP/ring.gpg" --refresh >/dev/null 2>"$TMP/err"
	ok $([ $? -eq 1 ] && grep -q "bad or missing signature on .*latest-stage3" "$TMP/err" &&
	     [ "$(wc -l < "$TMP/err")" -eq 1 ]; echo $?) \
		"gentoo: a latest-stage3 file altered after signing is refused"
	cp "$TMP/latest.plain" "$GM/latest-stage3-amd64-openrc.txt"
	B build --state-dir "$TMP/state10" gentoo:openrc --mirror "file://$TMP/gmirror" \
		--keyring "$TMP/ring.gpg" >/dev/null 2>"$TMP/err"
	ok $([ $? -eq 1 ] && grep -q "is not signed but --keyring was given" "$TMP/err"; echo $?) \
		"gentoo: an unsigned latest-stage3 file with --keyring is refused"
	S=$TMP/state10
	check "nothing registered, nothing left" -- clean gentoo-openrc
else
	echo "ok $((tap_n += 1)) # SKIP gpg not installed"
fi
done_testing
