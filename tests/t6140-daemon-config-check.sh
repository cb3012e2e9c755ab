#!/bin/sh
# t6140-daemon-config-check - `daemon --check` refuses what `run` refuses,
# with the same message and the line of the configuration: unknown
# libraries, unknown or repeated distributions; and it refuses a file that
# is empty or cut short. No daemon, no root needed.
. "${top_srcdir:-.}/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check_conf FORMAT [ARGS...]: write the printf output as the
# configuration and run --check; its status in $rc, stderr in $tmp/err.
check_conf() {
	fmt=$1
	shift
	printf "$fmt" "$@" >"$tmp/c.conf"
	"$BENCHORCH" daemon --check --config "$tmp/c.conf" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# run_err ARGS: the message `run ARGS` gives (its usage error, without the
# "benchorch run: " prefix and the --help hint), or the root check's.
# (with a database in a missing directory: a list run accepted wrongly
# stops there, exit 3, before it builds or measures anything)
run_err() {
	"$BENCHORCH" run --db "$tmp/missing/r.db" "$@" 2>&1 >/dev/null |
		sed -n 's/^benchorch run: //p'
}

head='state-dir %s\nsocket %s/s.sock\n'
check_conf "$head# a comment\nschedule nightly every day at 03:00 distros debian libs openssl,nosuchlib\n" \
	"$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "^benchorch: '$tmp/c.conf' line 4: schedule 'nightly': libs: unknown name 'nosuchlib' (known: " "$tmp/err"
ok $? "an unknown library is refused, with its line: $(cat "$tmp/err")"
known=$(sed -n 's/.*libs: \(unknown name .*\)$/\1/p' "$tmp/err")
if [ "$(id -u)" -eq 0 ]; then
	[ -n "$known" ] && [ "$(run_err --libs openssl,nosuchlib)" = "--libs: $known" ]
	ok $? "with the message run --libs gives"
else
	echo "ok $((tap_n += 1)) # SKIP run checks its options as root only"
fi

check_conf "${head}schedule nightly every 6h distros debian,nosuchdistro\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "^benchorch: '$tmp/c.conf' line 3: schedule 'nightly': unknown distro 'nosuchdistro'" "$tmp/err"
ok $? "an unknown distribution is refused, with its line: $(cat "$tmp/err")"
msg=$(sed -n "s/.*schedule 'nightly': //p" "$tmp/err")
if [ "$(id -u)" -eq 0 ]; then
	[ -n "$msg" ] && [ "$(run_err --distros debian,nosuchdistro)" = "$msg" ]
	ok $? "with the message run --distros gives"
else
	echo "ok $((tap_n += 1)) # SKIP run checks its options as root only"
fi

check_conf "${head}\nschedule a every 6h distros debian\nschedule b every 6h distros debian,debian\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "^benchorch: '$tmp/c.conf' line 5: schedule 'b': 'debian' is named twice in distros$" "$tmp/err"
ok $? "a distribution named twice is refused, with its line: $(cat "$tmp/err")"

# two spellings of one image would measure it twice in one run
check_conf "${head}schedule b every 6h distros debian,debian:bookworm\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "^benchorch: '$tmp/c.conf' line 3: schedule 'b': 'debian' and 'debian:bookworm' in distros name the same image 'debian-bookworm'$" "$tmp/err"
ok $? "one image named twice by two spellings is refused, with its line: $(cat "$tmp/err")"
if [ "$(id -u)" -eq 0 ]; then
	[ "$(run_err --distros debian:bookworm,debian)" = "'debian:bookworm' and 'debian' in --distros name the same image 'debian-bookworm'" ]
	ok $? "and run refuses it too: $(run_err --distros debian:bookworm,debian)"
else
	echo "ok $((tap_n += 1)) # SKIP run checks its options as root only"
fi
check_conf "${head}schedule b every 6h distros debian:bookworm,debian:trixie\n" "$tmp" "$tmp"
[ $rc -eq 0 ]
ok $? "two releases of one distribution are two images: accepted"

check_conf "${head}schedule a every 6h distros debian libs openssl,,nettle\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "line 3: schedule 'a': libs: empty item in 'openssl,,nettle'" "$tmp/err"
ok $? "an empty library name is refused: $(cat "$tmp/err")"

# a library or algorithm given twice would be measured once: the list is
# not what it says
check_conf "${head}schedule a every 6h distros debian libs openssl,nettle,openssl\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "line 3: schedule 'a': libs: 'openssl' is named twice$" "$tmp/err"
ok $? "a library named twice is refused: $(cat "$tmp/err")"
check_conf "${head}schedule a every 6h distros debian libs openssl,openssl-nohw\n" "$tmp" "$tmp"
[ $rc -ne 2 ] || ! grep -q "named twice" "$tmp/err"
ok $? "a name that only begins like another is not taken for it"
if [ "$(id -u)" -eq 0 ]; then
	[ "$(run_err --distros debian --libs openssl,nettle,openssl)" = "--libs: 'openssl' is named twice" ] &&
		[ "$(run_err --distros debian --algos sha-256,aes-128-ctr,sha-256)" = "--algos: 'sha-256' is named twice" ]
	ok $? "and run refuses --libs and --algos with a name twice: $(run_err --distros debian --algos sha-256,sha-256)"
else
	echo "ok $((tap_n += 1)) # SKIP run checks its options as root only"
fi

check_conf ""
[ $rc -eq 2 ] && grep -q "'$tmp/c.conf' is empty" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "an empty file is refused: $(cat "$tmp/err")"
check_conf "# nothing but a comment\n\n"
[ $rc -eq 2 ] && grep -q "is empty" "$tmp/err"
ok $? "a file of comments only is refused too"
check_conf "${head}schedule nightly every day at 03:00 distros deb" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "'$tmp/c.conf' line 3: no newline at the end: the file is cut short" "$tmp/err"
ok $? "a file cut short is refused: $(cat "$tmp/err")"

# a clock out of range says which field: the hour, the minute, the second
check_conf "${head}schedule nightly every day at 25:00 distros debian\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "line 3: schedule 'nightly': '25:00': hour 25 out of range (00 to 23)" "$tmp/err"
ok $? "every day at 25:00 is refused, naming the hour: $(cat "$tmp/err")"
check_conf "${head}schedule nightly every day at 03:60 distros debian\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "'03:60': minute 60 out of range (00 to 59)" "$tmp/err"
ok $? "and 03:60 naming the minute: $(cat "$tmp/err")"
check_conf "${head}schedule nightly every day at 3pm distros debian\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "schedule 'nightly': expected 'every day at HH:MM\[:SS\]'" "$tmp/err"
ok $? "and 3pm the format: $(cat "$tmp/err")"

check_conf "${head}schedule nightly every day at 03:00 distros debian libs openssl,nettle\n" "$tmp" "$tmp"
[ $rc -eq 0 ] && grep -q "^schedule nightly every day at 03:00:00 distros debian libs openssl,nettle refresh$" "$tmp/out"
ok $? "a valid file is accepted and printed"

# contradictions and a mirror that is no URL: refused, with the line, the
# mirror as run --mirror refuses it
check_conf "${head}schedule nightly every 6h distros debian refresh no-refresh\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "line 3: schedule 'nightly': both refresh and no-refresh" "$tmp/err"
ok $? "refresh and no-refresh in one schedule are refused: $(cat "$tmp/err")"
check_conf "${head}mirror notaurl\nschedule nightly every 6h distros debian\n" "$tmp" "$tmp"
[ $rc -eq 2 ] && grep -q "line 3: mirror: 'notaurl' is not a URL" "$tmp/err"
ok $? "a mirror that is no URL is refused: $(cat "$tmp/err")"
if [ "$(id -u)" -eq 0 ]; then
	[ "$(run_err --mirror notaurl)" = "--mirror: 'notaurl' is not a URL (e.g. http://deb.debian.org/debian)" ]
	ok $? "run --mirror refuses it in the same words"
else
	echo "ok $((tap_n += 1)) # SKIP run checks its options as root only"
fi

# The paths --check prints are the daemon's: --state-dir, else
# $BENCHORCH_STATE_DIR, else the file's state-dir; $BENCHORCH_DB, else the
# file's database, else STATE/results.db; the file's socket, else
# STATE/control.sock.
printf 'runner chroot\n' >"$tmp/plain.conf"
printf 'state-dir %s/file\ndatabase %s/file.db\n' "$tmp" "$tmp" >"$tmp/paths.conf"
# paths FILE [ARGS...]: the first three lines --check prints, on one line
paths() {
	f=$1
	shift
	"$BENCHORCH" daemon --check --config "$f" "$@" 2>"$tmp/err" | sed -n 1,3p | tr '\n' ' '
}
[ "$(BENCHORCH_STATE_DIR=$tmp/env BENCHORCH_DB=$tmp/env.db paths "$tmp/plain.conf")" = \
	"state-dir $tmp/env database $tmp/env.db socket $tmp/env/control.sock " ]
ok $? "--check: the environment over the defaults"
[ "$(BENCHORCH_STATE_DIR=$tmp/env paths "$tmp/plain.conf")" = \
	"state-dir $tmp/env database $tmp/env/results.db socket $tmp/env/control.sock " ]
ok $? "--check: the database and socket follow \$BENCHORCH_STATE_DIR"
[ "$(BENCHORCH_STATE_DIR=$tmp/env BENCHORCH_DB=$tmp/env.db paths "$tmp/paths.conf")" = \
	"state-dir $tmp/env database $tmp/env.db socket $tmp/env/control.sock " ]
ok $? "--check: the environment over the file's state-dir and database"
[ "$(BENCHORCH_STATE_DIR=$tmp/env paths "$tmp/paths.conf" --state-dir "$tmp/opt")" = \
	"state-dir $tmp/opt database $tmp/file.db socket $tmp/opt/control.sock " ]
ok $? "--check --state-dir: over the environment and the file; the file's database stays"
[ "$(paths "$tmp/paths.conf")" = \
	"state-dir $tmp/file database $tmp/file.db socket $tmp/file/control.sock " ]
ok $? "--check: the file's paths without option or environment"
[ "$(BENCHORCH_STATE_DIR= BENCHORCH_DB= paths "$tmp/paths.conf")" = \
	"state-dir $tmp/file database $tmp/file.db socket $tmp/file/control.sock " ]
ok $? "--check: an empty variable counts as unset"
BENCHORCH_STATE_DIR=rel "$BENCHORCH" daemon --check --config "$tmp/plain.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "benchorch: \$BENCHORCH_STATE_DIR must be an absolute path, not 'rel'" ]
ok $? "--check: a relative \$BENCHORCH_STATE_DIR is refused: $(cat "$tmp/err")"
BENCHORCH_DB=rel.db "$BENCHORCH" daemon --check --config "$tmp/plain.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "benchorch: \$BENCHORCH_DB must be an absolute path, not 'rel.db'" ]
ok $? "--check: a relative \$BENCHORCH_DB is refused"
"$BENCHORCH" daemon --check --config "$tmp/plain.conf" --state-dir '' >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^benchorch daemon: --state-dir must not be empty$" "$tmp/err"
ok $? "--check --state-dir '': usage error"
# the clients look where that daemon listens
BENCHORCH_STATE_DIR=$tmp/env "$BENCHORCH" status --config "$tmp/plain.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/env/control.sock'" "$tmp/err"
ok $? "status --config FILE with \$BENCHORCH_STATE_DIR: the daemon's socket: $(cat "$tmp/err")"
"$BENCHORCH" status --config "$tmp/paths.conf" --state-dir "$tmp/opt" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/opt/control.sock'" "$tmp/err"
ok $? "status --config FILE --state-dir DIR: the daemon's socket"
printf 'state-dir %s/file\nsocket %s/s.sock\n' "$tmp" "$tmp" >"$tmp/sock.conf"
BENCHORCH_STATE_DIR=$tmp/env "$BENCHORCH" status --config "$tmp/sock.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "'$tmp/s.sock'" "$tmp/err"
ok $? "status: the file's socket over the state directory"

done_testing
