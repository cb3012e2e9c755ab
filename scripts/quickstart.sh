#!/bin/sh
# quickstart.sh - on a fresh Debian machine, as root: install the
# dependencies, build, and benchmark the crypto libraries of Debian
# (bookworm) on this CPU. Results go to /var/lib/benchorch/results.db.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
exec ./benchorch run --distros "${1:-debian}"
