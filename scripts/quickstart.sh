#!/bin/sh
# quickstart.sh - on a fresh Debian machine, as root: install the
# dependencies, build, and benchmark the crypto libraries of Debian
# (bookworm) on this CPU. Results go to /var/lib/benchorch/results.db
# (BENCHORCH_DB, or BENCHORCH_STATE_DIR/results.db, when set: the run
# below reads them as benchorch always does; BENCHORCH_STATE_DIR also
# holds the images and logs).
#
# usage: scripts/quickstart.sh [DISTROS]
# DISTROS is benchorch run's --distros list (default: debian), e.g.
# debian:bookworm,debian:trixie. For every other option run
# ./benchorch run yourself once this has built it. When benchorch is not
# installed, the last line says to type the commands the run names as
# ./benchorch (its full path).
set -eu
usage() {
	echo "usage: $0 [DISTROS]   (default DISTROS: debian; see ./benchorch run --help)"
}
case "${1:-}" in
-h|--help)
	usage
	exit 0 ;;
-*)
	usage >&2
	exit 2 ;;
esac
if [ $# -gt 1 ]; then
	usage >&2
	exit 2
fi
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
# Not exec: once the run ends, say how to type the commands its closing
# line names while benchorch is only built here (a trapped signal is
# reset in the run, which handles it as it always does).
trap : INT TERM
rc=0
./benchorch run --distros "${1:-debian}" || rc=$?
if ! command -v benchorch >/dev/null 2>&1; then
	echo "quickstart: benchorch is built, not installed: type the commands above as $(pwd)/benchorch (or 'make install' first)" >&2
fi
exit $rc
