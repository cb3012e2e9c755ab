#!/bin/sh
# t7520-unknown-run - a run id the database does not hold is one usage
# error in every command that takes one (results, report, compare,
# compare --machines, export, confirm): exit 2, nothing written, one
# message "benchorch CMD: no run ID in 'DB'" and the --help hint; confirm
# says it before it waits for the run lock.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db"
ok $? "fixture database"

# unknown CMD ARGS...: CMD with ARGS naming run 99 exits 2 with the one
# message shape and nothing on stdout.
unknown() {
	c=$1
	shift
	timeout 60 "$BENCHORCH" "$c" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(cat "$tmp/err")" = "benchorch $c: no run 99 in '$db'
Try 'benchorch $c --help'." ]
	ok $? "$c $*: exit 2, 'no run 99 in DB' (exit $rc: $(head -1 "$tmp/err"))"
}

unknown results --run 99
unknown results --run 1 --run 99
unknown report --run 99 -o "$tmp/r.html"
[ ! -e "$tmp/r.html" ]
ok $? "report wrote nothing"
unknown compare 1 99
unknown compare 99 1
unknown compare --machines 1 99
unknown export --run 99 -o "$tmp/e.db"
[ ! -e "$tmp/e.db" ]
ok $? "export wrote nothing"
# confirm needs root; it refuses before it takes or awaits the run lock,
# so it runs nothing here
if [ "$(id -u)" -eq 0 ]; then
	unknown confirm --run 99
else
	skip_point "needs root" "confirm --run 99: exit 2, 'no run 99 in DB'"
fi
grep -q "no run ID in" "$top_srcdir/orchestrator/benchorch.1"
ok $? "benchorch(1) gives the message with the exit status"

done_testing
