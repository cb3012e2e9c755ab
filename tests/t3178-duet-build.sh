#!/bin/sh
# t3178-duet-build - `duet IMAGE IMAGE --new-build NAME`: the NEW guest
# loads the build (a stand-in: the image's own libsodium copied into a
# build directory by tests/fixtures/fake-build, so nothing is compiled) in
# place of the shipped libsodium, under libsodium's name, from its
# read-only bind mount; the curves pair with the BASE guest's, the duet
# says which build it measured (table heading, json, duets.new_build) and
# where each side's library came from (duet_libraries.path). The copy is
# the same code: an A/A, no curve slower or faster. A build that is not
# the image's, or whose library --libs leaves out, is a usage error
# before anything runs.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
state="$tmp/state"
fake=$top_builddir/tests/fixtures/fake-build
lib=$TEST_IMAGE/rootfs/usr/lib/x86_64-linux-gnu

mkdir -p "$state/images" &&
	ln -s "$TEST_IMAGE" "$state/images/debian-bookworm" &&
	"$fake" "$state" debian-bookworm copy libsodium libsodium23 1 \
		"$lib/libsodium.so.23"
ok $? "a stand-in build 'copy' of debian-bookworm's libsodium"

"$BENCHORCH" duet --state-dir "$state" --db "$db" --quick \
	--libs libsodium,nettle --algos chacha20 --seed 3 --rounds 4 \
	--max-rounds 4 --threshold 25 --new-build copy --fail-on-regression \
	--format json debian-bookworm debian-bookworm >"$tmp/j" 2>"$tmp/err"
rc=$?
ok $rc "duet IMAGE IMAGE --new-build copy exits 0 (status $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err" | tail -5
python3 - "$tmp/j" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
libs = {c["library"] for c in d["curves"]}
bad = [c for c in d["curves"] if c["verdict"] in ("slower", "faster")]
sys.exit(0 if d["new_build"] == "copy" and d["base_build"] is None and
         libs == {"libsodium", "nettle"} and not bad else 1)
PY
ok $? "json: new_build copy, base_build null; libsodium's curves paired under its own name beside nettle's; none slower or faster"
q() { sqlite3 -batch -noheader "$db" "$1"; }
[ "$(q "select coalesce(base_build, '-') || ' ' || new_build from duets")" = "- copy" ] &&
	[ "$(q "select count(*) from duet_libraries where side = 'new' and library = 'libsodium' and path like '/run/benchorch/builds/copy-%/libsodium.so.23'")" = 1 ] &&
	[ "$(q "select count(*) from duet_libraries where side = 'base' and library = 'libsodium' and path like '/run/benchorch/builds/%'")" = 0 ] &&
	[ "$(q "select count(*) from duet_libraries where side = 'new' and library = 'nettle' and path like '/run/benchorch/builds/%'")" = 0 ]
ok $? "duets.new_build is copy; the NEW side's libsodium came from the build's mount, the BASE side's and nettle from the image: $(q "select side || ':' || library || ':' || coalesce(path, '') from duet_libraries" | tr '\n' ' ')"

"$BENCHORCH" duet --state-dir "$state" --db "$db" --quick --libs nettle \
	--new-build copy debian-bookworm debian-bookworm >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "build 'copy' is of libsodium, which --libs leaves out" "$tmp/err"
ok $? "a build whose library --libs leaves out: exit 2 ($rc: $(head -1 "$tmp/err"))"
"$BENCHORCH" duet --state-dir "$state" --db "$db" --quick \
	--new-build nosuch debian-bookworm debian-bookworm >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "no build 'nosuch' of image 'debian-bookworm'" "$tmp/err"
ok $? "an unknown build: exit 2 ($rc: $(head -1 "$tmp/err"))"
[ "$(q "select count(*) from duets")" = 1 ]
ok $? "neither is stored"
[ -z "$(mounts_under "$TEST_IMAGE")" ]
ok $? "no mount left under the image"

done_testing
