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

for t in t3000-validate t3010-db t3012-db-package-changes t3015-db-open \
	 t3020-spawn t3040-cpustate t3050-plan t2000-images-dpkg \
	 t2010-images-spec t2020-images-rootfs t2030-images-digest \
	 t6000-daemon-config; do
	bin="$top_builddir/tests/$t"
	[ -x "$bin" ] || continue
	vg "$bin" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok $([ $rc -ne 99 ] && ! grep -q '^==[0-9]*==' "$tmp/err"; echo $?) \
		"$t is clean under valgrind"
	[ $rc -eq 99 ] && sed 's/^/# /' "$tmp/err" | head -30
done

# Error paths of the command itself (a full run under valgrind is part of
# t3100-run-debian).
vg "$BENCHORCH" results --db "$tmp/none.db" >/dev/null 2>"$tmp/err"
ok $([ $? -ne 99 ]; echo $?) "benchorch results (missing database) is clean"
vg "$BENCHORCH" run --distros nosuch >/dev/null 2>"$tmp/err"
ok $([ $? -ne 99 ]; echo $?) "benchorch run (usage error) is clean"
vg "$BENCHORCH" --help >/dev/null 2>"$tmp/err"
ok $([ $? -ne 99 ]; echo $?) "benchorch --help is clean"

done_testing
