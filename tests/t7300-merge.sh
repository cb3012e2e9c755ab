#!/bin/sh
# t7300-merge - `benchorch export` and `benchorch merge`: results from
# several hosts combine into one database, merging twice adds nothing.
. "${top_srcdir:-.}/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk="$top_builddir/tests/fixtures/results-mkdb"
"$mk" "$tmp/a.db" host-a && "$mk" "$tmp/b.db" host-b
ok $? "two hosts' databases, three runs each"
q() { sqlite3 -batch -noheader "$1" "$2"; }

"$BENCHORCH" merge --db "$tmp/all.db" "$tmp/a.db" "$tmp/b.db" >"$tmp/out" 2>"$tmp/err"
ok $? "merge a.db b.db into a new database exits 0"
grep -q "^merged 3 runs (498 results) from '$tmp/a.db'; 0 already present$" "$tmp/out"
ok $? "reports what it merged"
[ "$(q "$tmp/all.db" "select count(*) from runs")" -eq 6 ] &&
	[ "$(q "$tmp/all.db" "select count(distinct host) from runs")" -eq 2 ]
ok $? "six runs from two hosts"
[ "$(q "$tmp/all.db" "select count(*) from results_v")" -eq 996 ]
ok $? "every result came along (2 x 498)"
[ "$(q "$tmp/all.db" "select count(*) from images")" -eq 3 ] &&
	[ "$(q "$tmp/all.db" "select count(*) from libraries")" -eq 7 ] &&
	[ "$(q "$tmp/all.db" "select count(*) from cpus")" -eq 1 ]
ok $? "equal images, libraries and CPUs are shared, not duplicated"
[ "$(q "$tmp/all.db" "select count(*) from image_packages")" -eq 12 ] &&
	[ "$(q "$tmp/all.db" "select count(*) from kats")" -eq "$(( 2 * $(q "$tmp/a.db" "select count(*) from kats") ))" ]
ok $? "image packages and KATs came along"
# each host's run 2 updated libgcrypt20 since that host's run 1
[ "$(q "$tmp/all.db" "select group_concat(host || ':' || package || ':' ||
	previous_run_uuid || ':' || previous_run_id, ' ') from (select * from
	package_changes_v order by run_id)")" = \
  "host-a:libgcrypt20:$(q "$tmp/a.db" "select uuid from runs where id = 1"):1 host-b:libgcrypt20:$(q "$tmp/b.db" "select uuid from runs where id = 1"):4" ]
ok $? "package changes came along, each against its own host's previous run"
sql="select uuid, distro, library, algorithm, operation, mode, buffer_bytes, median_ns, min_ns, package_version from results_v join runs r on r.id = run_id order by 1,2,3,4,5,6,7"
q "$tmp/a.db" "$sql" >"$tmp/a.rows"
q "$tmp/all.db" "$sql" >"$tmp/all.rows"
[ "$(grep -cFf "$tmp/a.rows" "$tmp/all.rows")" -eq 498 ]
ok $? "a.db's results are in the merge unchanged"
sql="select uuid, distro, library, algorithm, operation, mode, buffer_bytes, (select group_concat(ns, ' ') from (select ns from samples s where s.result_id = v.result_id order by rep)) from results_v v join runs r on r.id = run_id order by 1,2,3,4,5,6,7"
q "$tmp/a.db" "$sql" >"$tmp/a.samples"
q "$tmp/all.db" "$sql" >"$tmp/all.samples"
[ "$(q "$tmp/all.db" "select count(*) from samples")" -eq $((2 * $(q "$tmp/a.db" "select count(*) from samples"))) ] &&
	[ "$(grep -cFxf "$tmp/a.samples" "$tmp/all.samples")" -eq 498 ] &&
	[ "$(q "$tmp/all.db" "select count(*) from keysetup_samples")" -eq 60 ] &&
	[ "$(q "$tmp/all.db" "select count(*) from curves")" -eq 80 ]
ok $? "raw samples follow their results (and key setups), curve fits come along"
[ "$(q "$tmp/all.db" "pragma foreign_key_check")" = "" ] &&
	[ "$(q "$tmp/all.db" "pragma integrity_check")" = ok ]
ok $? "foreign keys and integrity hold"

"$BENCHORCH" merge --db "$tmp/all.db" "$tmp/a.db" "$tmp/b.db" >"$tmp/out" 2>"$tmp/err"
ok $? "merging again exits 0"
grep -q "^merged 0 runs (0 results) from '$tmp/b.db'; 3 already present$" "$tmp/out" &&
	[ "$(q "$tmp/all.db" "select count(*) from results")" -eq 996 ]
ok $? "and adds nothing"

"$BENCHORCH" export --db "$tmp/all.db" -o "$tmp/copy.db" 2>"$tmp/err"
ok $? "export of the whole database exits 0"
[ "$(q "$tmp/copy.db" "select count(*) from results_v")" -eq 996 ] &&
	[ "$(q "$tmp/copy.db" "pragma user_version")" = "$(q "$tmp/all.db" "pragma user_version")" ]
ok $? "the copy has every result, same schema version"
[ ! -e "$tmp/copy.db-wal" ] && [ ! -e "$tmp/copy.db-shm" ] &&
	[ "$(q "$tmp/copy.db" "pragma journal_mode")" = delete ] &&
	[ ! -e "$tmp/copy.db-wal" ] && [ ! -e "$tmp/copy.db-shm" ]
ok $? "the whole export is one file: no -wal or -shm beside it, not in WAL mode"
"$BENCHORCH" export --db "$tmp/all.db" -o "$tmp/copy.db" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "exists" "$tmp/err"
ok $? "export refuses to overwrite, a usage error (2)"
"$BENCHORCH" export --db "$tmp/all.db" --run 2 -o "$tmp/copy.db" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "exists" "$tmp/err"
ok $? "and so does export --run (2)"
ln -s "$tmp/nowhere.db" "$tmp/dangling.db"
"$BENCHORCH" export --db "$tmp/all.db" -o "$tmp/dangling.db" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "exists" "$tmp/err" && [ ! -e "$tmp/nowhere.db" ]
ok $? "and a dangling symbolic link: nothing written where it points"

# SQLite opens "" as a temporary database: the export would vanish with
# exit 0
( cd "$tmp" && "$BENCHORCH" export --db "$tmp/all.db" -o '' ) >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch export: -o needs a file name$" "$tmp/err"
ok $? "export -o '' is a usage error, not a silent temporary database"
"$BENCHORCH" export --db "$tmp/all.db" --run 2 --run 5 -o "$tmp/some.db" 2>"$tmp/err"
ok $? "export --run 2 --run 5 exits 0"
[ "$(q "$tmp/some.db" "select count(*) from runs")" -eq 2 ] &&
	[ "$(q "$tmp/some.db" "select count(*) from results_v")" -eq 332 ] &&
	[ "$(q "$tmp/some.db" "select group_concat(uuid) from (select uuid from runs order by uuid)")" = \
	  "$(q "$tmp/all.db" "select group_concat(uuid) from (select uuid from runs where id in (2, 5) order by uuid)")" ]
ok $? "only those two runs and their results"
[ "$(q "$tmp/some.db" "select count(*) from package_changes_v where
	package = 'libgcrypt20' and previous_run_id is null")" -eq 2 ]
ok $? "with their package changes, the runs compared with not exported"
[ "$(q "$tmp/some.db" "select count(*) from images")" -eq 2 ]
ok $? "and only the images they used"
"$BENCHORCH" compare --db "$tmp/some.db" 1 2 >/dev/null
ok $? "the exported runs compare"
[ ! -e "$tmp/some.db-wal" ] && [ ! -e "$tmp/some.db-shm" ]
ok $? "export --run leaves one file: no -wal or -shm beside it"
# carried alone to another host: copy the file only, merge it there
mkdir "$tmp/elsewhere" && cp "$tmp/some.db" "$tmp/copy.db" "$tmp/elsewhere/"
"$BENCHORCH" merge --db "$tmp/elsewhere/new.db" "$tmp/elsewhere/some.db" \
	"$tmp/elsewhere/copy.db" >"$tmp/out" 2>"$tmp/err" &&
	grep -q "^merged 2 runs (332 results) from '$tmp/elsewhere/some.db'; 0 already present$" "$tmp/out" &&
	grep -q "^merged 4 runs (664 results) from '$tmp/elsewhere/copy.db'; 2 already present$" "$tmp/out" &&
	[ "$(q "$tmp/elsewhere/new.db" "select count(*) from results_v")" -eq 996 ] &&
	[ "$(q "$tmp/elsewhere/new.db" "pragma integrity_check")" = ok ]
ok $? "both exports, their files alone, open and merge elsewhere: $(cat "$tmp/err")"
"$BENCHORCH" export --db "$tmp/all.db" --run 99 -o "$tmp/none.db" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no run 99 in '$tmp/all.db'" "$tmp/err" && [ ! -e "$tmp/none.db" ]
ok $? "an unknown run is an unknown name (exit 2) and leaves no file"

# a confirmation comes along with its run: run 3 of host a confirmed run 2
cp "$tmp/a.db" "$tmp/c.db"
q "$tmp/c.db" "insert into confirmations (run_id, confirmed_run_id, distro, release, image_id)
	values (3, 2, 'debian', 'bookworm', 3);
	insert into confirmation_curves (run_id, distro, release, library, algorithm)
	values (3, 'debian', 'bookworm', 'libgcrypt', 'sha-256')"
u2=$(q "$tmp/c.db" "select uuid from runs where id = 2")
u3=$(q "$tmp/c.db" "select uuid from runs where id = 3")
cp "$tmp/b.db" "$tmp/cm.db"
"$BENCHORCH" merge --db "$tmp/cm.db" "$tmp/c.db" >/dev/null 2>"$tmp/err" &&
	[ "$(q "$tmp/cm.db" "select r.uuid || ' ' || p.uuid || ' ' || i.distro || ' ' || c.previous_removed
		from confirmations c join runs r on r.id = c.run_id
		join runs p on p.id = c.confirmed_run_id join images i on i.id = c.image_id")" = "$u3 $u2 debian 0" ] &&
	[ "$(q "$tmp/cm.db" "select r.uuid || ' ' || c.library || ' ' || c.algorithm
		from confirmation_curves c join runs r on r.id = c.run_id")" = "$u3 libgcrypt sha-256" ]
ok $? "merge: a confirmation and its curves follow the renumbered runs and image"
"$BENCHORCH" export --db "$tmp/c.db" --run 3 -o "$tmp/c3.db" 2>"$tmp/err" &&
	[ "$(q "$tmp/c3.db" "select coalesce(confirmed_run_id, 'none') || ' ' || (select count(*) from confirmation_curves) from confirmations")" = "none 1" ]
ok $? "export of the confirmation run alone: kept, its confirmed run unknown (NULL)"

printf 'not a database' >"$tmp/junk.db"
"$BENCHORCH" merge --db "$tmp/all.db" "$tmp/junk.db" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && [ "$(q "$tmp/all.db" "select count(*) from runs")" -eq 6 ]
ok $? "a file that is no database is refused, nothing merged"
# sources are checked before the destination is made: nothing is left
sqlite3 "$tmp/foreign.db" "create table t (x); insert into t values (1)"
for src in foreign.db junk.db; do
	"$BENCHORCH" merge --db "$tmp/new-$src" "$tmp/$src" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && [ ! -s "$tmp/out" ] && grep -q "nothing merged" "$tmp/err" &&
		[ -z "$(ls "$tmp" | grep "^new-$src")" ]
	ok $? "merge --db NEW.db $src: refused (exit $rc), no NEW.db, -wal or -shm made: $(cat "$tmp/err")"
done
"$BENCHORCH" merge --db "$tmp/new.db" "$tmp/a.db" "$tmp/foreign.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] && [ -z "$(ls "$tmp" | grep '^new\.db')" ]
ok $? "a foreign source among good ones: refused before anything is merged or made"
cp "$tmp/a.db" "$tmp/a2.db"
"$BENCHORCH" merge --db "$tmp/a2.db" "$tmp/b.db" "$tmp/foreign.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/a.db" "$tmp/a2.db"
ok $? "an existing destination is left as it was"
# every source that cannot be read is named, one line each, and nothing
# is merged: not only the first
cp "$tmp/a.db" "$tmp/a3.db"
mkdir "$tmp/adir.db"
"$BENCHORCH" merge --db "$tmp/a3.db" "$tmp/gone1.db" "$tmp/b.db" "$tmp/gone2.db" \
	"$tmp/adir.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/a.db" "$tmp/a3.db" &&
	note="(a database to merge is made on its host with 'benchorch export -o FILE')" &&
	[ "$(sed -n 1p "$tmp/err")" = "benchorch merge: cannot read '$tmp/gone1.db': No such file or directory $note" ] &&
	[ "$(sed -n 2p "$tmp/err")" = "benchorch merge: cannot read '$tmp/gone2.db': No such file or directory $note" ] &&
	[ "$(sed -n 3p "$tmp/err")" = "benchorch merge: cannot read '$tmp/adir.db': Is a directory $note" ] &&
	[ "$(sed -n 4p "$tmp/err")" = "Try 'benchorch merge --help'." ] && [ "$(wc -l <"$tmp/err")" -eq 4 ]
ok $? "three sources missing or unreadable among four: each named on its line, nothing merged, exit 2 (exit $rc)"
[ $? -eq 0 ] || sed 's/^/# /' "$tmp/err"
"$BENCHORCH" merge --db "$tmp/new2.db" "$tmp/gone1.db" "$tmp/gone2.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ -z "$(ls "$tmp" | grep '^new2\.db')" ] &&
	[ "$(grep -c "^benchorch merge: cannot read '$tmp/gone[12].db'" "$tmp/err")" -eq 2 ]
ok $? "two missing sources: both named, no new database made"
# and every source that is no benchorch database
"$BENCHORCH" merge --db "$tmp/new.db" "$tmp/junk.db" "$tmp/a.db" "$tmp/foreign.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -s "$tmp/out" ] && [ -z "$(ls "$tmp" | grep '^new\.db')" ] &&
	grep -q "junk.db" "$tmp/err" && grep -q "foreign.db" "$tmp/err" && [ "$(grep -c "nothing merged" "$tmp/err")" -eq 2 ]
ok $? "two sources that are no benchorch database: both named, nothing merged"
[ $? -eq 0 ] || sed 's/^/# /' "$tmp/err"
ln -s "$tmp/all.db" "$tmp/alias.db"
"$BENCHORCH" merge --db "$tmp/all.db" "$tmp/alias.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "is the database it would be merged into" "$tmp/err" &&
	[ "$(q "$tmp/all.db" "select count(*) from runs")" -eq 6 ]
ok $? "merging the database into itself (by another name) is a usage error, said so"
if command -v valgrind >/dev/null 2>&1; then
	cp "$tmp/a.db" "$tmp/vg.db"
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" merge --db "$tmp/vg.db" "$tmp/b.db" >/dev/null 2>"$tmp/vg" &&
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$BENCHORCH" export --db "$tmp/vg.db" --run 1 -o "$tmp/vg2.db" 2>>"$tmp/vg"
	ok $? "merge and export under valgrind: no memory error"
	[ -s "$tmp/vg" ] && sed 's/^/# /' "$tmp/vg" | head -20
else
	skip_point "needs valgrind" "merge and export under valgrind: no memory error"
fi

done_testing
