#!/bin/sh
# t7510-size-spellings - every option that takes a buffer size (results,
# report, compare --machines) accepts exactly the spellings benchorch(1)
# documents (16384, 16384B, 16K, 16KiB, 1M, 1MiB, one space before the
# unit) and refuses the rest (16KB, 16kib, ...) with a usage error that
# lists them; compare --size without --machines is refused, not ignored.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database"

# size_cmd CMD SIZE: run the command CMD with --size SIZE on the fixture.
size_cmd() {
	case $1 in
	results) "$BENCHORCH" results --db "$db" --size "$2" ;;
	report) "$BENCHORCH" report --db "$db" --size "$2" -o "$tmp/r.html" ;;
	compare) "$BENCHORCH" compare --db "$db" --machines --size "$2" ;;
	esac
}

for c in results report compare; do
	for s in 16384 16384B 16K 16KiB "16 KiB"; do
		size_cmd $c "$s" >"$tmp/out" 2>"$tmp/err"
		ok $? "$c --size '$s' is accepted"
	done
	for s in 16KB 16kib 16k 16kb 16KIB 16Kib; do
		size_cmd $c "$s" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
			grep -q "invalid size '$s' (accepted: 16384, 16384B, 16K, 16KiB, 1M or 1MiB" "$tmp/err"
		ok $? "$c --size '$s' is a usage error listing the spellings (exit $rc: $(head -1 "$tmp/err"))"
	done
done

for s in 16K 16KiB; do
	"$BENCHORCH" compare --db "$db" 1 3 --size "$s" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		grep -q "compare: --size $s: --size goes with --machines" "$tmp/err"
	ok $? "compare --size $s without --machines is refused, not ignored (exit $rc)"
done
grep -q '^\.SS "BUFFER SIZES"' "$top_srcdir/orchestrator/benchorch.1" &&
	grep -q '16384, 16384B, 16K, 16KiB, "16 KiB", 1M or 1MiB' "$top_srcdir/orchestrator/benchorch.1"
ok $? "benchorch(1) documents the spellings"

done_testing
