#!/bin/sh
# build.sh - configure and build benchorch in the source tree.
set -eu
cd "$(dirname "$0")/.."
mkdir -p m4	# configure.ac's macro directory; git keeps no empty one
autoreconf -fi >/dev/null
./configure -q "$@"
make -j"$(nproc)" >/dev/null
