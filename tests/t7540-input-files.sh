#!/bin/sh
# t7540-input-files - an input file named on a command line that cannot
# be read (missing, a directory, no permission) is a usage error in every
# command that reads one: images import FILE, images build --from,
# --digests and --keyring, the databases given to merge, --config of
# daemon, status, submit and cancel. Each exits 2 with one message,
# "benchorch CMD: cannot read 'FILE': REASON", and the --help hint, before
# it does anything else (no image, no database made). A symbolic link is
# refused where the file is opened without following one: images import
# FILE, images build --from and --digests.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -m 755 "$tmp/state" "$tmp/dir"
printf 'secret\n' >"$tmp/private"
chmod 600 "$tmp/private"

# refused FILE REASON CMD ARGS...: benchorch CMD ARGS exits 2, prints
# nothing on stdout, and on stderr exactly "benchorch CMD: cannot read
# 'FILE': REASON[ (...)]" and CMD's --help hint. RUNAS (a command prefix,
# may be empty) runs it.
refused() {
	file=$1 reason=$2 c=$3
	shift 3
	BENCHORCH_STATE_DIR=$tmp/state timeout 60 $RUNAS "$BENCHORCH" "$c" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 2 ] &&
		head -1 "$tmp/err" | grep -q "^benchorch $c: cannot read '$file': $reason\( (.*)\)\{0,1\}$" &&
		[ "$(sed -n 2p "$tmp/err")" = "Try 'benchorch $c --help'." ]
	ok $? "$c $* ${RUNAS:+as nobody }: exit 2, cannot read (exit $rc: $(head -1 "$tmp/err"))"
}

# every command, CASE the file and its reason
each() {
	f=$1 why=$2
	refused "$f" "$why" images import mine "$f"
	refused "$f" "$why" images build gentoo --from "$f"
	refused "$f" "$why" images build gentoo --from "$tmp/private" --digests "$f"
	refused "$f" "$why" images build debian --keyring "$f"
	refused "$f" "$why" merge --db "$tmp/new.db" "$f"
	refused "$f" "$why" daemon --check --config "$f"
	refused "$f" "$why" daemon --foreground --config "$f"
	refused "$f" "$why" status --config "$f"
	refused "$f" "$why" submit --distros debian --config "$f"
	refused "$f" "$why" cancel --config "$f"
}

RUNAS=
each "$tmp/missing" "No such file or directory"
# images import opens its tarball without following a symbolic link:
# a link is refused up front as any other file it cannot read
printf 'x\n' >"$tmp/real.tar"
ln -s real.tar "$tmp/link.tar"
refused "$tmp/link.tar" "it is a symbolic link" images import mine "$tmp/link.tar"
# and so do images build --from and --digests (the tarball and its
# checksums are opened alike): refused up front too, not late
refused "$tmp/link.tar" "it is a symbolic link" images build gentoo --from "$tmp/link.tar"
refused "$tmp/link.tar" "it is a symbolic link" images build gentoo --from "$tmp/private" --digests "$tmp/link.tar"
each "$tmp/dir" "Is a directory"
if [ "$(id -u)" -ne 0 ]; then
	each "$tmp/private" "Permission denied"
elif command -v setpriv >/dev/null 2>&1; then
	RUNAS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	each "$tmp/private" "Permission denied"
	RUNAS=
else
	skip_point "needs setpriv to drop root" "a file without read permission"
fi

[ ! -e "$tmp/new.db" ] && [ -z "$(ls "$tmp/state")" ]
ok $? "nothing made: no database, nothing in the state directory"

grep -q "cannot read 'FILE': REASON" "$top_srcdir/orchestrator/benchorch.1"
ok $? "benchorch(1) gives the message with the exit status"

done_testing
