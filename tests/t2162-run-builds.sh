#!/bin/sh
# t2162-run-builds - run --builds: a build measured beside the shipped
# library in the same guest, on the cached image. The build is a stand-in
# (tests/fixtures/fake-build: the image's own libsodium copied into a
# build directory, its recipe written by build_json_write), so nothing is
# compiled; the builds table, the build column of results_v and points_v,
# both verified, the build's pair against the shipped library at every
# point (the libraries take turns). An unknown build, a build of an
# image that is not one of the run's distributions, and a build whose
# build.json does not load (said so, and --list warns of it), are usage
# errors.
. "${top_srcdir:-.}/tests/lib.sh"
require_root_tools
command -v systemd-nspawn >/dev/null 2>&1 || skip_all "needs systemd-nspawn"
require_test_image

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/results.db"
state="$tmp/state"
fake=$top_builddir/tests/fixtures/fake-build
lib=$TEST_IMAGE/rootfs/usr/lib/x86_64-linux-gnu

# the cached image, read-only, beside this test's own builds
mkdir -p "$state/images" &&
	ln -s "$TEST_IMAGE" "$state/images/debian-bookworm" &&
	"$fake" "$state" debian-bookworm copy libsodium libsodium23 \
		"$(dpkg-query --admindir="$TEST_IMAGE/rootfs/var/lib/dpkg" -W -f '${Version}' libsodium23 2>/dev/null || echo 1)" \
		"$lib/libsodium.so.23" &&
	"$fake" "$state" debian-trixie other libsodium libsodium23 1 \
		"$lib/libsodium.so.23"
ok $? "a stand-in build 'copy' of debian-bookworm, and 'other' of debian-trixie"

"$BENCHORCH" run --distros debian --libs libsodium --algos chacha20,sha-512,x25519 \
	--quick --builds shipped,copy --runner nspawn --no-confirm \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err.run"
rc=$?
ok $rc "run --builds shipped,copy exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err.run"

q() { sqlite3 -batch -noheader "$db" "$1"; }

[ "$(q "select name, library, package, source, compiler, cflags, digest like 'sha256:%' from builds")" = \
  "copy|libsodium|libsodium23|libsodium|gcc|-O2 (a copy of the image's own library)|1" ] &&
	[ "$(q "select count(*) from builds b join images i on i.id = b.image_id where i.release = 'bookworm'")" -eq 1 ]
ok $? "the builds table has the build, of the bookworm image: $(q "select * from builds")"
[ "$(q "select group_concat(build, ',') from (select distinct build from results_v order by build)")" = copy,shipped ] &&
	[ "$(q "select count(distinct library) from results_v")" -eq 1 ]
ok $? "results_v: build 'shipped' and 'copy', both of library libsodium"
n_s=$(q "select count(*) from points_v where build = 'shipped'")
n_c=$(q "select count(*) from points_v where build = 'copy'")
[ "$n_s" -gt 0 ] && [ "$n_s" -eq "$n_c" ] &&
	[ "$(q "select count(*) from points_v where build not in ('shipped', 'copy')")" -eq 0 ]
ok $? "points_v: as many points of the build as of the shipped library ($n_c, $n_s)"
[ "$(q "select count(*) from results_v where verified = 0")" -eq 0 ] &&
	[ "$(q "select count(*) from points_v where verified = 0")" -eq 0 ]
ok $? "every point of both verified (the same known-answer tests and cross-check)"
[ "$(q "select count(distinct r.invocation_id) from results r join libraries l on l.id = r.library_id where l.build_ref is not null")" -eq \
  "$(q "select count(distinct invocation_id) from results")" ]
ok $? "the build is measured in every invocation beside the shipped library"
[ "$(q "select count(*) from libraries where build_ref is not null and path like '/run/benchorch/builds/copy-%/libsodium.so.23'")" -eq 1 ]
ok $? "its library row is the file it was loaded from: $(q "select path from libraries where build_ref is not null")"
grep -q '^debian:bookworm: libsodium 1\.[0-9.]*, libsodium@copy 1\.[0-9.]*$' "$tmp/out" &&
	grep -Eq '^  chacha20 +libsodium(@copy)?( = libsodium(@copy)?)? +[0-9]+[~!]* +[0-9.]+\*? +libsodium(@copy)? x[0-9.]+' "$tmp/out"
ok $? "the run's summary shows the build as libsodium@copy beside libsodium (marks allowed: a noisy or nominal-clock figure): $(grep '^  chacha20' "$tmp/out")"
"$BENCHORCH" results --db "$db" --algo sha-512 --format csv >"$tmp/csv" &&
	[ "$(tr -d '\r' <"$tmp/csv" | awk -F, 'NR > 1 { print $4 "/" $NF }' | sort -u | tr '\n' ' ')" = "libsodium/copy libsodium/shipped " ] &&
	"$BENCHORCH" results --db "$db" --algo sha-512 --size 16K >"$tmp/table" &&
	grep -q ' libsodium@copy ' "$tmp/table"
ok $? "results: a build column in csv, library@build in the table"
n_p=$(q "select count(*) from pairs_v where library = 'libsodium' and build = 'copy' and versus = 'libsodium' and versus_build = 'shipped' and mode in ('bulk', 'oneshot')")
n_pk=$(q "select count(*) from pairs_v where library = 'libsodium' and build = 'copy' and versus = 'libsodium' and versus_build = 'shipped' and mode = 'pubkey'")
n_r=$(q "select count(*) from results_v where build = 'copy'")
[ "$n_r" -gt 0 ] && [ "$n_p" -eq "$n_r" ] &&
	[ "$(q "select count(*) from pairs_v where build = 'copy' and versus_build = 'shipped' and not (low <= ratio and ratio <= high and low > 0)")" -eq 0 ]
ok $? "with a build the libraries take turns: every point of the build has its pair against the shipped library ($n_p pairs, $n_r points)"
[ "$n_pk" -eq "$(q "select count(*) from pubkey_v where build = 'copy'")" ] && [ "$n_pk" -gt 0 ]
ok $? "and every public-key operation of the build too ($n_pk pairs)"
grep -Eq '^benchorch: run [0-9]+: build libsodium@copy \(debian:bookworm\): [0-9]+\.[0-9]{2} of the shipped library.s throughput at 16 KiB \(the median over 2 algorithms, bulk encryption and hashing\): [0-2] slower, [0-2] same, [0-2] faster; ' "$tmp/err.run"
ok $? "the run ends with a line per build: $(grep ': build libsodium@copy' "$tmp/err.run")"
[ "$(q "select build || ' ' || count(*) || ' ' || sum(verified) from pubkey_v group by build order by build" | tr '\n' ' ')" = "copy 2 2 shipped 2 2 " ] &&
	"$BENCHORCH" results --db "$db" --pubkey >"$tmp/pk" &&
	grep -Eq '^ *1 +debian:bookworm +hw +libsodium@copy +[^ ]+ +x25519 +derive ' "$tmp/pk" &&
	grep -Eq '^ *1 +debian:bookworm +hw +libsodium +[^ ]+ +x25519 +derive ' "$tmp/pk"
ok $? "x25519 of the build and of the shipped library apart: pubkey_v's build column, results --pubkey's library@build"
"$BENCHORCH" results --db "$db" --builds >"$tmp/bt" 2>"$tmp/err" &&
	grep -q '^run [0-9]*, debian:bookworm, libsodium at 16384 B: ' "$tmp/bt" &&
	grep -q '^  copy: gcc -O2 (a copy of the image' "$tmp/bt" &&
	grep -Eq '^  chacha20 +encrypt +bulk +(= )?[0-9]+\.[0-9]{2} \([0-9.]+\.\.[0-9.]+\)$' "$tmp/bt"
ok $? "results --builds: a table of the build's ratio to the shipped library: $(grep '^  chacha20' "$tmp/bt")"
"$BENCHORCH" results --db "$db" --builds --format csv --algo sha-512 >"$tmp/bc" &&
	[ "$(tr -d '\r' <"$tmp/bc" | head -1)" = "run_id,distro,variant,library,build,compiler,cflags,algorithm,operation,mode,buffer_bytes,ratio,low,high,coverage,tie,invocations" ] &&
	[ "$(tr -d '\r' <"$tmp/bc" | awk -F, 'NR > 1 && $5 == "copy" && $8 == "sha-512" && $12 > 0 && $13 <= $12 && $12 <= $14' | wc -l)" -eq "$(q "select count(*) from (select distinct operation, mode, buffer_bytes from pairs_v where build = 'copy' and versus_build = 'shipped' and algorithm = 'sha-512')")" ]
ok $? "results --builds --format csv: every point of sha-512, one row each over the invocations"
"$BENCHORCH" results --db "$db" --builds --lib openssl >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "no matching builds" "$tmp/err"
ok $? "results --builds of a library without builds: exit 1 and why"
"$BENCHORCH" report --db "$db" -o "$tmp/r.html" 2>"$tmp/err" &&
	grep -q '<section id="builds">' "$tmp/r.html" &&
	grep -q 'libsodium in debian:bookworm, run [0-9]*: each build' "$tmp/r.html"
ok $? "the report has the builds' table"
# a run with builds travels: export and merge copy its builds
"$BENCHORCH" export --db "$db" --run 1 -o "$tmp/x.db" 2>"$tmp/err" &&
	"$BENCHORCH" merge --db "$tmp/m.db" "$tmp/x.db" >/dev/null 2>>"$tmp/err" &&
	[ "$(sqlite3 -batch -noheader "$tmp/m.db" "select group_concat(distinct build) from (select build from results_v order by build)")" = "copy,shipped" ] &&
	[ "$(sqlite3 -batch -noheader "$tmp/m.db" "select name || ' ' || cflags from builds")" = "copy -O2 (a copy of the image's own library)" ] &&
	[ "$(sqlite3 -batch -noheader "$tmp/m.db" "select count(*) from pairs_v where build = 'copy' and versus_build = 'shipped'")" -eq "$(q "select count(*) from pairs_v where build = 'copy' and versus_build = 'shipped'")" ]
ok $? "export --run and merge carry the builds, the build column and the build's pairs ($(head -1 "$tmp/err"))"

# a build whose files changed after it was built is not measured
"$fake" "$state" debian-bookworm changed libsodium libsodium23 1 \
	"$lib/libsodium.so.23" &&
	f=$(ls "$state"/builds/debian-bookworm/changed/lib/libsodium.so.23*) &&
	chmod u+w "$f" && printf x >>"$f"
"$BENCHORCH" run --distros debian --libs libsodium --algos sha-512 --quick \
	--builds changed --runner nspawn --no-confirm --state-dir "$state" \
	--db "$tmp/changed.db" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q "build 'changed' of image 'debian-bookworm' changed since it was built" "$tmp/err"
ok $? "a build whose files changed since it was built is not measured (exit $rc: $(grep changed "$tmp/err" | head -1))"

# a build that computes wrong answers (as flags that miscompile would):
# the stand-in libsodium of t1130, which flips a bit of ChaCha20's
# keystream, as build 'wrong'; it is stored not verified, the shipped
# library beside it verified
real=$(readlink "$lib/libsodium.so.23")
if command -v gcc >/dev/null 2>&1 && [ -n "$real" ] &&
	gcc -shared -fPIC -std=c11 -DSTANDIN_WRONG_CIPHER \
		-DREAL_LIB="\"/usr/lib/x86_64-linux-gnu/$real\"" \
		-Wl,-soname,libsodium.so.23 -o "$tmp/libsodium.so.23" \
		"$top_srcdir/tests/fixtures/standin-libsodium.c" -ldl 2>"$tmp/cc.err" &&
	"$fake" "$state" debian-bookworm wrong libsodium libsodium23 1 \
		"$tmp/libsodium.so.23"; then
	"$BENCHORCH" run --distros debian --libs libsodium --algos chacha20 \
		--quick --builds shipped,wrong --runner nspawn --no-confirm \
		--state-dir "$state" --db "$tmp/wrong.db" >"$tmp/out" 2>"$tmp/err.wrong"
	ok $? "run --builds shipped,wrong exits 0 (a library that lies costs only itself)"
	w() { sqlite3 -batch -noheader "$tmp/wrong.db" "$1"; }
	[ "$(w "select build || ' ' || min(verified) || ' ' || max(verified) from results_v where algorithm = 'chacha20' group by build order by build" | tr '\n' ' ')" = "shipped 1 1 wrong 0 0 " ] &&
		[ "$(w "select count(*) from kats where library = 'libsodium@wrong' and algorithm = 'chacha20' and ok = 0")" -gt 0 ] &&
		grep -q 'NOT verified' "$tmp/err.wrong"
	ok $? "the miscompiled build is stored not verified, its known answers failed; the shipped library verified: $(w "select build || ' ' || min(verified) || ' ' || max(verified) from results_v where algorithm = 'chacha20' group by build order by build" | tr '\n' ' ') kats $(w "select library || ':' || ok from kats where algorithm = 'chacha20'" | sort -u | tr '\n' ' ') $(grep -c 'NOT verified' "$tmp/err.wrong")"
else
	skip_point "no gcc, or no libsodium link to build the stand-in" \
		"run --builds shipped,wrong"
	skip_point "no stand-in build" "the miscompiled build is stored not verified"
fi
[ -z "$(mounts_under "$TEST_IMAGE")" ]
ok $? "no mount left under the image"

"$BENCHORCH" run --distros debian --libs libsodium --quick --builds shipped,nosuch \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(grep -vc "^Try 'benchorch run --help'\.$" "$tmp/err")" -eq 1 ] && grep -q "unknown build 'nosuch'" "$tmp/err"
ok $? "an unknown build: exit 2, one line and the usual hint ($rc: $(head -1 "$tmp/err"))"
"$BENCHORCH" run --distros debian --libs libsodium --quick --builds other \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(grep -vc "^Try 'benchorch run --help'\.$" "$tmp/err")" -eq 1 ] &&
	grep -q "build 'other' is of image 'debian-trixie', not one of the run's distributions" "$tmp/err"
ok $? "a build of another image: exit 2, one line and the usual hint ($rc: $(head -1 "$tmp/err"))"
# a build whose build.json no longer loads: said so, never "unknown"
mkdir -p "$state/builds/debian-bookworm/broken/lib" &&
	echo '{"name": "broken",' >"$state/builds/debian-bookworm/broken/build.json"
"$BENCHORCH" run --distros debian --libs libsodium --quick --builds broken \
	--state-dir "$state" --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(grep -vc "^Try 'benchorch run --help'\.$" "$tmp/err")" -eq 1 ] &&
	grep -q "build 'broken' of image 'debian-bookworm' cannot be used: invalid build recipe '.*/broken/build.json': .* (\`benchorch rebuild --remove debian-bookworm broken\` removes it)" "$tmp/err"
ok $? "a build with a broken build.json: exit 2, one line saying why and how to remove it ($rc: $(head -1 "$tmp/err"))"
"$BENCHORCH" rebuild --list --state-dir "$state" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q ' copy ' "$tmp/out" && ! grep -q broken "$tmp/out" &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "build 'broken' of image 'debian-bookworm' is not listed: invalid build recipe" "$tmp/err"
ok $? "rebuild --list lists the others and warns of it on stderr ($rc: $(cat "$tmp/err"))"
"$BENCHORCH" rebuild --remove debian-bookworm broken --state-dir "$state" 2>"$tmp/err" &&
	[ ! -e "$state/builds/debian-bookworm/broken" ]
ok $? "rebuild --remove removes it"
[ "$(q "select count(*) from runs")" -eq 1 ]
ok $? "none of these is a run"

done_testing
