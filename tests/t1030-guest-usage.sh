#!/bin/sh
# tests/t1030-guest-usage.sh - the guest's command line: usage errors exit
# with status 2 and print nothing on stdout (--build's too); a run starts with a protocol 3
# hello and ends with done; --seed shuffles the libraries reproducibly and
# says so in hello. Prints TAP.

guest=${top_builddir:-.}/guest/benchorch-guest

if [ ! -x "$guest" ]; then
	echo "1..0 # SKIP $guest not built"
	exit 0
fi

echo "1..36"
n=0
fails=0
check() {	# check STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}

tmp=${TMPDIR:-/tmp}/t1030.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

usage_error() {	# usage_error DESCRIPTION ARGS...: exit 2, empty stdout
	what=$1
	shift
	"$guest" "$@" >"$tmp.out" 2>"$tmp.err"
	status=$?
	[ $status -eq 2 ] && [ ! -s "$tmp.out" ] && [ -s "$tmp.err" ]
	check $? "$what: exit 2 (got $status), nothing on stdout, a message on stderr"
}

usage_error "--libs nosuch" --libs nosuch
usage_error "--libs openssl,nosuch" --libs openssl,nosuch
usage_error "--algos nosuch" --algos nosuch
usage_error "--algos with an empty item" --algos sha-256,,aes-128-cbc
usage_error "--repetitions 0" --repetitions 0
usage_error "--min-batch-ns abc" --min-batch-ns abc
usage_error "--cpu without a value" --cpu
usage_error "unknown option" --frobnicate
usage_error "--repetitions 151 (more samples than a line holds)" --repetitions 151
usage_error "--max-cv 2" --max-cv 2
usage_error "--max-cv -0.1" --max-cv -0.1
usage_error "--max-cv 1e-2" --max-cv 1e-2
usage_error "--max-reruns x" --max-reruns x
usage_error "--seed -1" --seed -1
usage_error "--seed 2^32" --seed 4294967296
usage_error "--seed abc" --seed abc
usage_error "--build without NAME=" --build libsodium:/b
usage_error "--build of an unknown library" --build o3=nosuch:/b
usage_error "--build with a relative directory" --build o3=libsodium:b
usage_error "--build with an invalid name" --build ../x=libsodium:/b
usage_error "--build given twice" --build o3=libsodium:/b --build o3=libsodium:/c
usage_error "--replace without LIBRARY:" --replace /b
usage_error "--replace of an unknown library" --replace nosuch:/b
usage_error "--replace with a relative directory" --replace libsodium:b
usage_error "--replace given twice" --replace libsodium:/b --replace libsodium:/c
usage_error "--replace of a library not measured" --libs nettle --replace libsodium:/b

# a build is a library of its own, LIBRARY@NAME, loaded from its
# directory only: absent when that has none of the library's files
"$guest" --libs libsodium --algos sha-512 --quick --build o3=libsodium:/nonexistent >"$tmp.out" 2>"$tmp.err"
[ $? -eq 0 ] && grep -q '^{"type":"library","library":"libsodium@o3","status":"absent"}$' "$tmp.out" &&
	[ "$(grep -c '"type":"library"' "$tmp.out")" -eq 2 ]
check $? "--build o3=libsodium:DIR reports the library libsodium@o3 after libsodium, absent from an empty DIR"

"$guest" --help >"$tmp.out" 2>&1
[ $? -eq 0 ] && grep -q '^usage: benchorch-guest' "$tmp.out"
check $? "--help prints usage, exit 0"

"$guest" --version >"$tmp.out" 2>&1
[ $? -eq 0 ] && grep -q 'protocol 3' "$tmp.out"
check $? "--version, exit 0"

# A real (short) run: hello first, done last, exit 0.
"$guest" --quick --algos sha-256 --min-batch-ns 100000 --repetitions 1 \
	>"$tmp.out" 2>"$tmp.err"
status=$?
[ $status -eq 0 ]
check $? "a --quick sha-256 run exits 0 (got $status)"
head -n 1 "$tmp.out" | grep -q '^{"type":"hello","protocol":3,"guest_version":"[^"]*","libc":"[^"]*","cpu":-1,"variant":"hw","clock_hz":[1-9][0-9]*,"clock_source":"\(perf\|chain\|tsc\)","timer":"thread-cpu"}$'
check $? "first line is hello with protocol 3, cpu -1, variant hw, the clock and the timer"
ru='{"library":"[a-z0-9]*","user_us":[0-9]*,"sys_us":[0-9]*,"maxrss_kib":[0-9]*}'
tail -n 1 "$tmp.out" | grep -q '^{"type":"done","results":[0-9]*,"measure_ns":[0-9]*,"elapsed_ns":[0-9]*,"clock_hz":[1-9][0-9]*,"clock_source":"\(perf\|chain\|tsc\)","tsc_hz":[0-9]*,"rusage":\['"$ru"'\(,'"$ru"'\)*\]}$'
check $? "last line is done, with each library process's rusage"

# --seed: the order of the library lines (absent ones too) is drawn from
# the seed. lib_order [--seed N]: print the libraries on one line, in the
# order they ran; the output stays in $tmp.seed.
lib_order() {
	"$guest" --algos sha-256 "$@" --quick --min-batch-ns 10000 \
		--repetitions 1 --oneshot-max 0 >"$tmp.seed" 2>/dev/null &&
	sed -n 's/^{"type":"library","library":"\([a-z0-9]*\)".*/\1/p' "$tmp.seed" |
		tr '\n' ' '
}
plain=$(lib_order)
c=$(lib_order --seed 6)
b=$(lib_order --seed 5)
a=$(lib_order --seed 5)
[ -n "$a" ] && [ "$a" = "$b" ]
check $? "the same seed gives the same library order ($a)"
[ "$a" != "$c" ] && [ "$a" != "$plain" ]
check $? "another seed, and no seed, give other orders ($c / $plain)"
[ "$(echo $a | tr ' ' '\n' | sort)" = "$(echo $plain | tr ' ' '\n' | sort)" ] &&
[ "$(echo $a | wc -w)" -eq "$(echo $a | tr ' ' '\n' | sort -u | wc -w)" ]
check $? "every library runs exactly once"
head -n 1 "$tmp.seed" | grep -q '^{"type":"hello",.*,"variant":"hw","clock_hz":[1-9][0-9]*,"clock_source":"[a-z]*","timer":"thread-cpu","seed":5}$'
check $? "hello states the seed"

exit $((fails > 0))
