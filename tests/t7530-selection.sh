#!/bin/sh
# t7530-selection - a selection of libraries and algorithms that would
# measure nothing is refused before anything runs, with one line naming
# what is unsupported (exit 2): an algorithm no library of --libs has.
# The same check in run and slurm submit (its RUN-OPTIONS); a selection
# in which every algorithm has a library passes, also with a library that
# has none of them (measured as unsupported).
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -m 755 "$tmp/spool"

# refused CMD... -- WANT: CMD exits 2, prints nothing on stdout, one error
# line holding WANT (and run's --help hint), creates no database.
refused() {
	want=$1
	shift
	BENCHORCH_STATE_DIR=$tmp/state timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(grep -c . "$tmp/err")" -eq 2 ] &&
		head -1 "$tmp/err" | grep -qF -- "$want" &&
		[ ! -e "$tmp/state" ] && [ ! -e "$tmp/r.db" ]
	ok $? "$(echo "$*" | sed "s|$BENCHORCH|benchorch|; s|$tmp|TMP|g; s| --spool.*--dry-run||"): exit 2, '$want' (exit $rc: $(head -1 "$tmp/err"))"
}

slurm() {
	"$BENCHORCH" slurm submit --spool "$tmp/spool" --db "$tmp/r.db" \
		--dry-run "$@"
}
# the same as a command line for refused
submit="$BENCHORCH slurm submit --spool $tmp/spool --db $tmp/r.db --dry-run"

refused "no library of --libs 'openssl' measures 'salsa20'" \
	$submit --libs openssl --algos salsa20
refused "no library of --libs 'openssl,wolfssl' measures 'salsa20'" \
	$submit --libs openssl,wolfssl --algos sha-256,salsa20
refused "no library of --libs 'libsodium' measures 'aes-128-cbc'" \
	$submit --libs libsodium --algos aes-128-cbc

# passes: every name measures something
slurm --libs openssl,nettle --algos salsa20,sha-256 >"$tmp/out" 2>"$tmp/err"
ok $? "slurm submit --libs openssl,nettle --algos salsa20,sha-256 passes ($(head -1 "$tmp/err"))"
slurm --algos salsa20 >"$tmp/out" 2>"$tmp/err"
ok $? "--algos salsa20 with every library passes"
slurm --libs libmcrypt >"$tmp/out" 2>"$tmp/err"
ok $? "--libs libmcrypt with every algorithm passes"
slurm --libs openssl,libmcrypt --algos sha-256,blake2b-512 >"$tmp/out" 2>"$tmp/err"
ok $? "--libs openssl,libmcrypt --algos sha-256,blake2b-512 passes: openssl has them, libmcrypt is measured as unsupported"

# run: refused while the options are read, before the image, the
# database or the run lock
if [ "$(id -u)" -eq 0 ]; then
	refused "no library of --libs 'openssl' measures 'salsa20'" \
		"$BENCHORCH" run --db "$tmp/r.db" --libs openssl --algos salsa20
	refused "no library of --libs 'gnutls,libsodium' measures 'aes-128-ecb'" \
		"$BENCHORCH" run --db "$tmp/r.db" --libs gnutls,libsodium \
		--algos aes-128-ecb
else
	skip_point "needs root" "run --libs openssl --algos salsa20 refused"
	skip_point "needs root" "run --libs gnutls,libsodium --algos aes-128-ecb refused"
fi

grep -q "measures nothing" "$top_srcdir/orchestrator/benchorch.1"
ok $? "benchorch(1) says such a selection is refused"

done_testing
