#!/bin/sh
# tests/t1010-guest-symver.sh - the glibc flavour of the guest is portable:
# it needs no GLIBC_ symbol version above 2.17, only libc.so.6 and
# libdl.so.2, and the standard x86_64 ELF interpreter (DESIGN.md, "the guest
# is a portable binary"). Prints TAP. BENCHORCH_GUEST names another guest
# binary to check (the package build checks the installed one).

guest=${BENCHORCH_GUEST:-${top_builddir:-.}/guest/benchorch-guest}
max=2.17

if [ "$(uname -m)" != x86_64 ]; then
	echo "1..0 # SKIP symbol version pins are defined for x86_64 only"
	exit 0
fi
for tool in objdump readelf; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "1..0 # SKIP $tool not installed"
		exit 0
	fi
done
if [ ! -x "$guest" ]; then
	echo "1..0 # SKIP $guest not built"
	exit 0
fi

echo "1..6"
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

tmp=${TMPDIR:-/tmp}/t1010.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
objdump -T "$guest" >"$tmp.dyn" 2>&1
readelf -d "$guest" >"$tmp.d" 2>&1
readelf -l "$guest" >"$tmp.l" 2>&1

# 1. highest GLIBC_ version required
versions=$(grep -o 'GLIBC_[0-9][0-9.]*' "$tmp.dyn" | sed 's/GLIBC_//' | sort -u)
echo "# GLIBC versions: $(echo $versions)"
too_new=$(echo "$versions" | awk -v max="$max" '
	function cmp(a, b,   x, y, i, n) {
		n = split(a, x, "."); split(b, y, ".")
		for (i = 1; i <= 3; i++)
			if (x[i] + 0 != y[i] + 0)
				return x[i] + 0 < y[i] + 0 ? -1 : 1
		return 0
	}
	NF && cmp($1, max) > 0 { print }')
[ -n "$versions" ] && [ -z "$too_new" ]
check $? "no GLIBC_ version above $max${too_new:+ (found: $(echo $too_new))}"

# 2. nothing private, no unversioned libc function
! grep -q 'GLIBC_PRIVATE' "$tmp.dyn"
check $? "no GLIBC_PRIVATE symbols"
unversioned=$(awk '$0 ~ /\*UND\*/ && $0 !~ /GLIBC_/ && $NF != "__gmon_start__" \
	&& $NF !~ /^_ITM_/ && $NF !~ /^__cxa_finalize$/ { print $NF }' "$tmp.dyn")
[ -z "$unversioned" ]
check $? "every undefined dynamic symbol is versioned${unversioned:+ (not: $(echo $unversioned))}"

# 3. DT_NEEDED: exactly libc.so.6 and libdl.so.2
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' "$tmp.d" | sort | tr '\n' ' ')
echo "# NEEDED: $needed"
[ "$needed" = "libc.so.6 libdl.so.2 " ]
check $? "DT_NEEDED is libc.so.6 and libdl.so.2 only"

# 4. the standard interpreter
interp=$(sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p' "$tmp.l")
echo "# interpreter: $interp"
[ "$interp" = /lib64/ld-linux-x86-64.so.2 ]
check $? "ELF interpreter is /lib64/ld-linux-x86-64.so.2"

# 5. it links no crypto library
! grep -qi -E 'ssl|crypto|gcrypt|nettle|sodium' "$tmp.d"
check $? "no crypto library among the dynamic dependencies"

exit $((fails > 0))
