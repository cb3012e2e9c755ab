#!/bin/sh
# t7025-results-resources - `results --resources` on a database without
# resource figures, its usage errors and its help.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
"$top_builddir/tests/fixtures/results-mkdb" "$db" >/dev/null 2>&1
ok $? "fixture database (runs stored without resource figures)"

"$BENCHORCH" results --resources --all --db "$db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^benchorch: no resource figures in '$db' for these runs" "$tmp/err"
ok $? "no figures: exit 1, nothing on stdout, the reason on stderr"

"$BENCHORCH" results --resources --format csv --db "$db" >"$tmp/out" 2>/dev/null
[ $? -eq 1 ] && [ "$(cat "$tmp/out" | tr -d '\r')" = "run_id,distro,release,variant,round,library,library_version,status,user_us,sys_us,maxrss_kib,rss_before_load_kib,footprint_kib,top_algorithm,top_raise_kib" ]
ok $? "csv still prints its header line"

for bad in "--op encrypt" "--size 16" "--summary"; do
	"$BENCHORCH" results --resources $bad --db "$db" >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "takes no --summary, --op or --size" "$tmp/err"
	ok $? "--resources $bad: usage error, exit 2"
done

# a database older than the tool mode (read, not migrated): said plainly,
# not as an SQL error
cp "$db" "$tmp/old.db" &&
	sqlite3 "$tmp/old.db" "drop view tool_results_v; drop table tool_samples; drop table tool_results"
"$BENCHORCH" results --tools --db "$tmp/old.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^benchorch: no tool results in '$tmp/old.db' (.*predates them)$" "$tmp/err"
ok $? "results --tools on a database older than the tool mode: exit 1, the reason: $(cat "$tmp/err")"

"$BENCHORCH" results --help | grep -q '^      --resources  '
ok $? "--help lists --resources"

done_testing
