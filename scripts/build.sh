#!/bin/sh
# build.sh - configure and build benchorch in the source tree.
set -eu
cd "$(dirname "$0")/.."
autoreconf -fi >/dev/null
./configure -q "$@"
make -j"$(nproc)" >/dev/null
