#!/bin/sh
# t5032-path-options - the path options every command shares: an empty
# --db or --state-dir is a usage error in each command that takes them;
# `run` and `confirm` refuse an unusable database before waiting for the
# run lock; `images` takes its options before the subcommand; an image or
# distro name too long is refused saying so. No guest runs.
. "${top_srcdir:-.}/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset BENCHORCH_STATE_DIR BENCHORCH_DB

# try ARGS...: run benchorch ARGS; status in $rc, stderr in $tmp/err.
try() {
	"$BENCHORCH" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# An empty path: exit 2, "benchorch CMD: OPT must not be empty" and the
# --help hint, nothing else.
for c in "runs --db=" "runs --state-dir=" "results --db=" "results --state-dir=" \
	"report --db=" "report --state-dir=" "export --db=" "export --state-dir=" \
	"merge --db= o.db" "merge --state-dir= o.db" "compare --db= 1 2" \
	"compare --state-dir= 1 2" "images show x --state-dir=" \
	"images --state-dir= list" "status --state-dir=" "cancel --state-dir=" \
	"submit --distros debian --state-dir=" "daemon --check --state-dir=" \
	"slurm status 1 --state-dir=" "slurm collect 1 --db=" \
	"slurm submit --db= --distros debian" \
	"slurm submit --distros debian --state-dir="; do
	# shellcheck disable=SC2086
	try $c
	cmd=${c%% *}
	# slurm's subcommands speak as 'benchorch slurm SUB'
	[ "$cmd" = slurm ] && cmd=$(printf '%s\n' "$c" | cut -d' ' -f1-2)
	opt=$(printf '%s\n' "$c" | sed 's/.*\(--[a-z-]*\)=.*/\1/')
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(sed -n 1p "$tmp/err")" = "benchorch $cmd: $opt must not be empty" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ]
	ok $? "$c: usage error: $(head -1 "$tmp/err")"
done
# the same spelled as two words
try runs --state-dir ''
[ $rc -eq 2 ] && grep -q "^benchorch runs: --state-dir must not be empty$" "$tmp/err"
ok $? "runs --state-dir '': usage error"
try images show x --state-dir ''
[ $rc -eq 2 ] && grep -q "^benchorch images: --state-dir must not be empty$" "$tmp/err"
ok $? "images show x --state-dir '': usage error"

# An empty variable counts as unset: the next in line is used.
mkdir -p "$tmp/env"
BENCHORCH_DB= BENCHORCH_STATE_DIR="$tmp/env" "$BENCHORCH" runs \
	>/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/env/results.db'" "$tmp/err"
ok $? "an empty BENCHORCH_DB counts as unset: the state directory's results.db ($(cat "$tmp/err"))"
BENCHORCH_STATE_DIR= BENCHORCH_DB="$tmp/env/x.db" "$BENCHORCH" runs \
	>/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/env/x.db'" "$tmp/err" &&
	! grep -q "must not be empty" "$tmp/err"
ok $? "an empty BENCHORCH_STATE_DIR counts as unset: no usage error"

# images: options before the subcommand, as after it
mkdir -p "$tmp/st"
try images --state-dir "$tmp/st" --format csv list
[ $rc -eq 0 ] && [ "$(tr -d '\r' <"$tmp/out")" = "name,distro,release,method,created_at,digest,verification" ]
ok $? "images --state-dir DIR --format csv list: options before the subcommand"
try images --state-dir "$tmp/st" show nosuch
[ $rc -eq 2 ] && grep -q "^benchorch images: no image 'nosuch' in '$tmp/st/images'" "$tmp/err"
ok $? "images --state-dir DIR show NAME looks in DIR: $(head -1 "$tmp/err")"
try images --refresh list
[ $rc -eq 2 ] && grep -q "^benchorch images: 'list' takes no option '--refresh'" "$tmp/err"
ok $? "an option the subcommand does not take is refused before it too"
try images --state-dir "$tmp/st"
[ $rc -eq 2 ] && grep -q "a subcommand is needed" "$tmp/err"
ok $? "options without a subcommand: a subcommand is needed"
"$BENCHORCH" images --help | grep -q "may come before or after the subcommand"
ok $? "images --help says so"

# names: 65 characters of [a-z0-9._-] is too long, and the message says
long=$(printf 'a%.0s' $(seq 65))
try images import "$long" "$tmp/none.tar" --state-dir "$tmp/st"
[ $rc -eq 2 ] && grep -q "^benchorch images: invalid image name '$long': it is 65 characters long (at most 64)$" "$tmp/err"
ok $? "images import with a 65-character name: the length limit"
try images import "$(printf 'a%.0s' $(seq 64))" "$tmp/none.tar" --state-dir "$tmp/st"
! grep -q "invalid image name" "$tmp/err" &&
	grep -q "^benchorch images: cannot read '$tmp/none.tar'" "$tmp/err"
ok $? "64 characters are allowed (exit $rc: the missing archive, not the name)"
try images import "Ab" "$tmp/none.tar" --state-dir "$tmp/st"
[ $rc -eq 2 ] && grep -q "invalid image name 'Ab': it has a character outside \[a-z0-9._-\]$" "$tmp/err"
ok $? "a character outside the set: the characters"
try images import ".ab" "$tmp/none.tar" --state-dir "$tmp/st"
[ $rc -eq 2 ] && grep -q "invalid image name '.ab': it starts with '.'$" "$tmp/err"
ok $? "a leading '.': said so"

if [ "$(id -u)" -ne 0 ]; then
	for i in 1 2 3 4 5 6 7 8; do
		skip_point "run and confirm need root" "run/confirm checks $i"
	done
	done_testing
	exit
fi

try run --distros "$long" --state-dir "$tmp/st" --db "$tmp/r.db"
[ $rc -eq 2 ] && grep -q "^benchorch run: invalid image spec '$long': the distro is 65 characters long (at most 64)$" "$tmp/err"
ok $? "run --distros with a 65-character name: the length limit"
try run --distros "debian,$long:x" --state-dir "$tmp/st" --db "$tmp/r.db"
[ $rc -eq 2 ] && grep -q "the distro is 65 characters long (at most 64)$" "$tmp/err"
ok $? "and as the second of a list"
try images build "debian:$long" --state-dir "$tmp/st"
[ $rc -eq 2 ] && grep -q "^benchorch images: invalid image spec 'debian:$long': the release is 65 characters long (at most 64)$" "$tmp/err"
ok $? "images build with a 65-character release: the length limit"

# An unusable database is refused at once, exit 3, even while the
# machine-wide run lock is held (by this shell, or by a run of another
# test: either way there is nothing to wait for).
mkdir -p -m 0700 /run/benchorch "$tmp/dbdir" "$tmp/ro"
: >"$tmp/ro/r.db"
exec 9>>/run/benchorch/run.lock
flock -n 9 || diag "the run lock is held by another run"
# no_wait CMD ARGS...: run benchorch, at most 20 s, without the lock's fd
no_wait() {
	timeout 20 "$BENCHORCH" "$@" >"$tmp/out" 2>"$tmp/err" 9>&-
	rc=$?
}
no_wait run --distros debian --state-dir "$tmp/st" --db "$tmp/dbdir"
[ $rc -eq 3 ] && ! grep -q waiting "$tmp/err" &&
	grep -q "^benchorch: cannot open database '$tmp/dbdir': it is a directory" "$tmp/err"
ok $? "run --db DIRECTORY: exit 3 at once: $(head -1 "$tmp/err")"
no_wait confirm --state-dir "$tmp/st" --db "$tmp/dbdir"
[ $rc -eq 3 ] && ! grep -q waiting "$tmp/err" &&
	grep -q "^benchorch: cannot open database '$tmp/dbdir': it is a directory" "$tmp/err"
ok $? "confirm --db DIRECTORY: exit 3 at once"
if command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c "mount --bind -o ro '$tmp/ro' '$tmp/ro'" 2>/dev/null; then
	# a read-only file system, in a mount namespace of its own
	unshare -m sh -c "mount --bind -o ro '$tmp/ro' '$tmp/ro' &&
		timeout 20 '$BENCHORCH' run --distros debian --state-dir '$tmp/st' \
			--db '$tmp/ro/r.db' >'$tmp/out' 2>'$tmp/err' 9>&-"
	rc=$?
	[ $rc -eq 3 ] && ! grep -q waiting "$tmp/err" &&
		grep -q "^benchorch: cannot open database '$tmp/ro/r.db': Read-only file system$" "$tmp/err"
	ok $? "run on a read-only database: exit 3 at once: $(head -1 "$tmp/err")"
	unshare -m sh -c "mount --bind -o ro '$tmp/ro' '$tmp/ro' &&
		timeout 20 '$BENCHORCH' run --distros debian --state-dir '$tmp/st' \
			--db '$tmp/ro/new.db' >'$tmp/out' 2>'$tmp/err' 9>&-"
	rc=$?
	[ $rc -eq 3 ] && ! grep -q waiting "$tmp/err" &&
		grep -q "^benchorch: cannot open database '$tmp/ro/new.db': cannot create it in '$tmp/ro': Read-only file system$" "$tmp/err"
	ok $? "run with a new database on a read-only file system: exit 3 at once: $(head -1 "$tmp/err")"
else
	skip_point "needs unshare and a bind mount" "run on a read-only database"
	skip_point "needs unshare and a bind mount" "run with a new database on a read-only file system"
fi
# not a database of benchorch's
printf 'CREATE TABLE t(x);\n' | sqlite3 "$tmp/other.db"
no_wait run --distros debian --state-dir "$tmp/st" --db "$tmp/other.db"
[ $rc -eq 3 ] && ! grep -q waiting "$tmp/err" &&
	grep -q "'$tmp/other.db' is an SQLite database of something else" "$tmp/err"
ok $? "run on another program's database: exit 3 at once"
exec 9>&-

done_testing
