#!/bin/sh
# deps.sh - install what benchorch needs to build, run and test on Debian
# (12 or later). Run as root.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake pkg-config \
	libarchive-dev libsqlite3-dev libjansson-dev libssl-dev \
	musl-tools binutils \
	debootstrap mmdebstrap systemd-container \
	sqlite3 python3 valgrind procps util-linux faketime \
	ca-certificates curl gpg gpgv xz-utils zstd >/dev/null
# Slurm, for `benchorch slurm` and its test (t8120 starts a one-node
# cluster: munged, slurmctld, slurmd).
apt-get install -y -qq --no-install-recommends \
	slurmctld slurmd slurm-client munge >/dev/null
# Headless Chromium renders the HTML report in the tests (t7200).
apt-get install -y -qq --no-install-recommends chromium >/dev/null
# The Debian package (debian/, tests/t8000) and the bash completion (t8010).
apt-get install -y -qq --no-install-recommends \
	debhelper dh-autoreconf dpkg-dev fakeroot lintian bash-completion >/dev/null
# Debian has no package with Ubuntu's archive keyring; fetch it from the
# Ubuntu archive, pinned by fingerprint. Without it only ubuntu:* images are
# unavailable, so a failure here is a warning.
sh "$(dirname "$0")/ubuntu-keyring.sh" ||
	echo "deps.sh: warning: no Ubuntu archive keyring: ubuntu images cannot be built" >&2
