#!/bin/sh
# t5030-cli - the command line: help, version, usage errors and exit codes
# that need no image.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$BENCHORCH" --help >"$tmp/out" 2>"$tmp/err"
ok $? "--help exits 0"
grep -q '^Commands:' "$tmp/out"
ok $? "--help lists the commands on stdout"

v=$("$BENCHORCH" --version)
ok $? "--version exits 0"
echo "$v" | grep -Eq '^benchorch [0-9]+\.[0-9]+\.[0-9]+$'
ok $? "--version prints 'benchorch X.Y.Z' ($v)"

for cmd in run results; do
	"$BENCHORCH" "$cmd" --help >"$tmp/out" 2>"$tmp/err"
	ok $? "$cmd --help exits 0"
	head -1 "$tmp/out" | grep -q "^Usage: benchorch $cmd"
	ok $? "$cmd --help starts with its usage line"
done

"$BENCHORCH" frobnicate >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ]; echo $?) "an unknown command exits 2"
grep -q "unknown command 'frobnicate'" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "and says so on stderr only"
"$BENCHORCH" --verbose >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ] && grep -q "^benchorch: unknown option (before a command) '--verbose'" "$tmp/err" &&
     [ ! -s "$tmp/out" ]; echo $?) "an option before any command is called an option, exit 2"

"$BENCHORCH" >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ]; echo $?) "no command exits 2"

# An argument echoed back in a message cannot break its line, drive the
# terminal or run to any length: control characters are shown as \n,
# \t or \xNN, and a message stops after 2000 bytes, counting the rest.
esc=$(printf 'deb\033[31mian')
"$BENCHORCH" "$esc" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	! grep -q "$(printf '\033')" "$tmp/err" &&
	grep -qF "unknown command 'deb\\x1b[31mian'" "$tmp/err"
ok $? "an escape sequence in an unknown command is shown as x1b after a backslash"
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/esc.db" >/dev/null 2>&1 &&
	"$BENCHORCH" results --db "$tmp/esc.db" --distro "$(printf 'debian\nfoo\tbar')" \
		>/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 2 ] &&
	grep -qF "distribution 'debian\\nfoo\\tbar'" "$tmp/err"
ok $? "a newline and a tab in --distro stay on the message's line, as backslash-n and backslash-t"
long=$(head -c 100000 /dev/zero | tr '\0' a)
"$BENCHORCH" results --db "$tmp/esc.db" --distro "$long" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(head -1 "$tmp/err" | wc -c)" -lt 2100 ] &&
	head -1 "$tmp/err" | grep -Eq '\.\.\. \([0-9]+ bytes more\)$'
ok $? "a 100000-character --distro: the message stops after 2000 bytes and counts the rest"

"$BENCHORCH" results --format xml >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ]; echo $?) "results --format xml is a usage error"
grep -q "unknown format 'xml'" "$tmp/err"
ok $? "naming the format"

"$BENCHORCH" results --db "$tmp/none.db" --run 99999999999999999999 >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ]; echo $?) "results --run 99999999999999999999 is a usage error"
grep -q "'99999999999999999999' is out of range" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "saying it is out of range, not clamping it"
"$BENCHORCH" results --db "$tmp/none.db" --run 1 --all >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 2 ]; echo $?) "results --run with --all is a usage error"

"$BENCHORCH" results --db "$tmp/none.db" >"$tmp/out" 2>"$tmp/err"
ok $([ $? -eq 3 ]; echo $?) "results on a missing database exits 3"
grep -q "cannot open database '$tmp/none.db'" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "naming the database, nothing on stdout"
[ ! -e "$tmp/none.db" ]
ok $? "and does not create it"

if [ "$(id -u)" -eq 0 ]; then
	"$BENCHORCH" run --distros nosuch --state-dir "$tmp/state" >"$tmp/out" 2>"$tmp/err"
	ok $([ $? -eq 2 ]; echo $?) "an unknown distro exits 2"
	grep -q "unknown distro 'nosuch' (known: .*debian" "$tmp/err"
	ok $? "and lists the known ones: $(cat "$tmp/err" | head -1)"
	[ "$(wc -l <"$tmp/err")" -le 2 ] && [ ! -s "$tmp/out" ]
	ok $? "in a short message on stderr only"
	[ ! -e "$tmp/state" ]
	ok $? "before creating any state"

	"$BENCHORCH" run --distros 'debian,../etc' --state-dir "$tmp/state" >"$tmp/out" 2>"$tmp/err"
	ok $([ $? -eq 2 ]; echo $?) "a malformed distro spec exits 2"

	"$BENCHORCH" run --runner docker >"$tmp/out" 2>"$tmp/err"
	ok $([ $? -eq 2 ]; echo $?) "an unknown runner exits 2"

	"$BENCHORCH" run --timeout 0 >"$tmp/out" 2>"$tmp/err"
	ok $([ $? -eq 2 ]; echo $?) "--timeout 0 exits 2"
	for bad in "--min-batch-ms 0" "--min-batch-ms 60001" "--repetitions 0" \
		"--repetitions 151" "--max-cv 1.5" "--max-cv x" "--max-reruns -1" \
		"--max-reruns 101"; do
		# shellcheck disable=SC2086
		"$BENCHORCH" run --distros debian $bad --state-dir "$tmp/state" \
			--db "$tmp/x.db" >"$tmp/out" 2>"$tmp/err"
		ok $([ $? -eq 2 ] && grep -q "^benchorch run: ${bad%% *}: " "$tmp/err" &&
		     [ ! -s "$tmp/out" ]; echo $?) "run $bad is a usage error"
	done
	# the tool mode's options: their ranges, and none of the library
	# run's options with --tools
	for bad in "--tool-size 4" "--tools --tool-size 0" \
		"--tools --tool-size 1025" "--tools --tool-reps 41" \
		"--tools --tool-reps x" "--tools --libs openssl" "--tools --nohw" \
		"--tools --quick"; do
		# shellcheck disable=SC2086
		"$BENCHORCH" run --distros debian $bad --state-dir "$tmp/state" \
			--db "$tmp/x.db" >"$tmp/out" 2>"$tmp/err"
		ok $([ $? -eq 2 ] && grep -q "^benchorch run: .*--tool" "$tmp/err" &&
		     [ ! -s "$tmp/out" ] && [ ! -e "$tmp/x.db" ]; echo $?) "run $bad is a usage error"
	done
	# the libraries take turns by default; --sequential is the other
	# way, never both, and never with a build (judged in pairs)
	for bad in "--interleave --sequential" "--tools --sequential" \
		"--sequential --builds o3"; do
		# shellcheck disable=SC2086
		"$BENCHORCH" run --distros debian $bad --state-dir "$tmp/state" \
			--db "$tmp/x.db" >"$tmp/out" 2>"$tmp/err"
		ok $([ $? -eq 2 ] && grep -q "^benchorch run: .*--sequential" "$tmp/err" &&
		     [ ! -s "$tmp/out" ] && [ ! -e "$tmp/x.db" ]; echo $?) "run $bad is a usage error: $(head -1 "$tmp/err")"
	done
	"$BENCHORCH" run --timeout 99999999999999999999 >"$tmp/out" 2>"$tmp/err"
	ok $([ $? -eq 2 ] && grep -q "out of range (1 to 604800)" "$tmp/err"; echo $?) \
		"--timeout 99999999999999999999 exits 2, out of range"

	mkdir -p "$tmp/ro"
	"$BENCHORCH" run --distros debian --state-dir "$tmp/state" \
		--db /proc/benchorch/results.db >"$tmp/out" 2>"$tmp/err"
	ok $([ $? -eq 3 ]; echo $?) "an unusable database path exits 3"
	grep -q "cannot open database '/proc/benchorch/results.db'" "$tmp/err"
	ok $? "naming it: $(head -1 "$tmp/err")"

	# A database in a missing directory fails at once, even while the
	# machine-wide run lock is held (by this shell, or by a run of another
	# test: either way there is nothing to wait for).
	mkdir -p /run/benchorch
	exec 9>>/run/benchorch/run.lock
	flock -n 9 || diag "the run lock is held by another run"
	timeout 20 "$BENCHORCH" run --distros debian --state-dir "$tmp/state" \
		--db "$tmp/nodir/results.db" >"$tmp/out" 2>"$tmp/err" 9>&-
	rc=$?
	exec 9>&-
	ok $([ $rc -eq 3 ] && ! grep -q waiting "$tmp/err" &&
	     grep -q "cannot open database '$tmp/nodir/results.db': '$tmp/nodir': No such file or directory" "$tmp/err"
	     echo $?) "a database in a missing directory exits 3 without waiting for the run lock"

	# A run lock directory another user made (as anyone could in the
	# old /run/lock) is refused at once, named, in a mount namespace of
	# its own so that the machine's lock is left alone.
	if command -v unshare >/dev/null 2>&1 &&
		unshare -m sh -c 'mkdir -p /run/benchorch &&
			mount -t tmpfs tmpfs /run/benchorch' 2>/dev/null; then
		timeout 20 unshare -m sh -c 'mount -t tmpfs tmpfs /run/benchorch &&
			chown 65534 /run/benchorch && exec env PATH=/nonexistent "$0" "$@"' \
			"$BENCHORCH" run --distros debian --state-dir "$tmp/state" \
			--db "$tmp/lock.db" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		ok $([ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		     grep -q "^benchorch: refusing the run lock directory '/run/benchorch': it belongs to uid 65534" "$tmp/err"
		     echo $?) "a run lock directory of another user is refused in one line, exit 3 (exit $rc): $(head -1 "$tmp/err")"
	else
		skip_point "no mount namespace of its own" "a run lock directory of another user"
	fi

	if command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$BENCHORCH" run --distros debian >"$tmp/out" 2>"$tmp/err"
		ok $([ $? -eq 3 ]; echo $?) "run as a normal user exits 3"
		grep -q "must be run as root" "$tmp/err"
		ok $? "saying it needs root"
	else
		skip_point "needs setpriv to drop root" "run as a normal user exits 3"
		skip_point "needs setpriv to drop root" "saying it needs root"
	fi
else
	skip_point "needs root" "run's usage errors, unusable databases and the run lock, checked as root"
fi

done_testing
