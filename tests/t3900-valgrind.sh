#!/bin/sh
# t3900-valgrind - the orchestrator's unit tests and a `benchorch results`
# run under valgrind's memcheck: no invalid access, no definite leak.
. "${top_srcdir:-.}/tests/lib.sh"
command -v valgrind >/dev/null 2>&1 || skip_all "needs valgrind"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --trace-children=no \
		--child-silent-after-fork=yes "$@"
}

# Every C unit test (check_PROGRAMS named tNNNN-*; t2040-images-build-cli
# is t2040-images-build.sh's driver and runs there). A test that was not
# built is a failure, not a silent gap.
units="t1000-guest-json t1040-guest-stats t1045-guest-shuffle
	t1050-guest-canary t1060-guest-hwmask t1210-guest-flavour t1300-guest-alloc t1310-guest-clock
	t1320-guest-timedpath t1325-guest-pairs t1326-guest-place t1149-guest-pq-kat t0050-cpuchoice t2000-images-dpkg
	t2010-images-spec t2020-images-rootfs t2030-images-digest
	t2035-images-fakebuild t2036-images-previous t2037-images-store t2120-images-pkgdb t2161-images-builds
	t2125-images-osrelease
	t0000-validate t0005-guest-faults t0010-rmtree t0030-run-lock t0060-library-support t4010-db t4012-db-package-changes
	t4015-db-open t4016-db-canaries t0020-spawn t3022-child-env t0040-cpustate t3050-plan
	t3056-plan-interleave t3057-confirm-curves t3060-resources t3176-duet-pass
	t4065-store-invocation t3185-tool-stats
	t6000-daemon-config t6120-schedule-dst t7010-stats t7015-fit-clamp
	t7120-verdict-stats t7125-paired-verdict t7140-daemon-verdict t7310-merge-untrusted"
for t in $units; do
	bin="$top_builddir/tests/$t"
	if [ ! -x "$bin" ]; then
		ok 1 "$t is clean under valgrind: not built ($bin)"
		continue
	fi
	vg "$bin" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok $([ $rc -ne 99 ] && ! grep -q '^==[0-9]*==' "$tmp/err"; echo $?) \
		"$t is clean under valgrind"
	[ $rc -eq 99 ] && sed 's/^/# /' "$tmp/err" | head -30
done
# A C test added to tests/ later is added to the list above too.
missing=
for f in "$top_srcdir"/tests/t[0-9][0-9][0-9][0-9]-*.c; do
	t=$(basename "$f" .c)
	[ "$t" = t2040-images-build-cli ] && continue
	case " $(echo $units) " in *" $t "*) ;; *) missing="$missing $t" ;; esac
done
[ -z "$missing" ]
ok $? "the list names every C unit test in tests/${missing:+ (not:$missing)}"

# Error paths of the command itself (a full run under valgrind is part of
# t3100-run-debian).
vg "$BENCHORCH" results --db "$tmp/none.db" >/dev/null 2>"$tmp/err"
ok $([ $? -ne 99 ]; echo $?) "benchorch results (missing database) is clean"
vg "$BENCHORCH" run --distros nosuch >/dev/null 2>"$tmp/err"
ok $([ $? -ne 99 ]; echo $?) "benchorch run (usage error) is clean"
vg "$BENCHORCH" --help >/dev/null 2>"$tmp/err"
ok $([ $? -ne 99 ]; echo $?) "benchorch --help is clean"

done_testing
