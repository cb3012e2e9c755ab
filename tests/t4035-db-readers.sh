#!/bin/sh
# t4035-db-readers - a user who may read the database but not write beside
# it can run the read-only commands whatever another client did: after a
# root `sqlite3` query (which removes the -wal and -shm files when it
# closes), results, compare and report work as nobody; where SQLite cannot
# allow it (a -wal file with changes and no -shm), the message says why
# and what to run, and that command makes it work. The README's sqlite3
# form (-readonly) leaves the side files alone.
. "${top_srcdir:-.}/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (to read as another user)"
command -v setpriv >/dev/null 2>&1 || skip_all "needs setpriv"
command -v sqlite3 >/dev/null 2>&1 || skip_all "needs sqlite3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BENCHORCH" "$@"
}
# fresh DIR: a database written by benchorch's own code, 0644 in a 0755
# directory owned by root
fresh() {
	rm -rf "$tmp/$1"
	mkdir -m 755 "$tmp/$1"
	"$top_builddir/tests/fixtures/results-mkdb" "$tmp/$1/r.db" &&
		chmod 644 "$tmp/$1"/r.db*
}

fresh a
[ -e "$tmp/a/r.db-wal" ] && [ -e "$tmp/a/r.db-shm" ]
ok $? "benchorch keeps the WAL side files"
sqlite3 -readonly "$tmp/a/r.db" 'select count(*) from results_v' >/dev/null
[ -e "$tmp/a/r.db-wal" ] && [ -e "$tmp/a/r.db-shm" ]
ok $? "sqlite3 -readonly (the README's form) leaves them"
sqlite3 "$tmp/a/r.db" 'select count(*) from results_v' >/dev/null
[ ! -e "$tmp/a/r.db-wal" ] && [ ! -e "$tmp/a/r.db-shm" ]
ok $? "a plain root sqlite3 query removes them"
nobody results --db "$tmp/a/r.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 0 ] && grep -q aes-256-gcm "$tmp/out"; echo $?) "then results as nobody works (exit $rc: $(head -1 "$tmp/err"))"
nobody compare --latest 2 --db "$tmp/a/r.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 0 ]; echo $?) "compare as nobody works (exit $rc: $(head -1 "$tmp/err"))"
# nobody cannot write in $tmp: the report goes to a directory it owns
mkdir -m 700 "$tmp/home" && chown 65534:65534 "$tmp/home"
nobody report --db "$tmp/a/r.db" -o "$tmp/home/report.html" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 0 ] && [ -s "$tmp/home/report.html" ]; echo $?) "report as nobody works (exit $rc: $(head -1 "$tmp/err"))"
[ ! -e "$tmp/a/r.db-wal" ] && [ ! -e "$tmp/a/r.db-shm" ] &&
	[ "$(sqlite3 -readonly "$tmp/a/r.db" 'pragma integrity_check')" = ok ]
ok $? "nothing written beside the database, which is intact"

# a -wal with changes but no -shm: nobody cannot read those changes
fresh b
rm "$tmp/b/r.db-shm"
nobody results --db "$tmp/b/r.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $([ $rc -eq 3 ] && [ ! -s "$tmp/out" ]; echo $?) "a -wal without -shm: exit 3, nothing on stdout"
grep -q "^benchorch: cannot read database '$tmp/b/r.db' as this user: its write-ahead log '$tmp/b/r.db-wal' holds changes, and only a user who may write beside the database can open it; run \"sqlite3 '$tmp/b/r.db' 'PRAGMA wal_checkpoint(TRUNCATE)'\" as root" "$tmp/err"
ok $? "it says why and what to run: $(head -1 "$tmp/err")"
sqlite3 "$tmp/b/r.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
nobody results --db "$tmp/b/r.db" >/dev/null 2>"$tmp/err"
ok $? "after that command, results as nobody works"
done_testing
