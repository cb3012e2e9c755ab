#!/bin/sh
# t8010-completion - the bash completion (dist/benchorch.bash.in): loaded
# by bash-completion, it offers the subcommands, exactly the options each
# subcommand's --help lists, --libs and --algos from the guest's own lists,
# --distros from the recipes and the cached images, and run ids from
# `benchorch runs` for compare and results --run.
. "${top_srcdir:-.}/tests/lib.sh"

bc=/usr/share/bash-completion/bash_completion
command -v bash >/dev/null 2>&1 || skip_all "needs bash"
[ -r "$bc" ] || skip_all "needs bash-completion ($bc)"
comp="$top_builddir/dist/completion/benchorch"
[ -r "$comp" ] || skip_all "$comp not built"
guest="$top_builddir/guest/benchorch-guest"
[ -x "$guest" ] || skip_all "$guest not built"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A state directory with two cached images: one built from a recipe, one
# imported (only the fields the completion reads).
mkdir -p "$tmp/state/images/debian-trixie" "$tmp/state/images/mydistro"
printf '{\n  "distro": "debian",\n  "name": "debian-trixie",\n  "release": "trixie"\n}\n' \
	>"$tmp/state/images/debian-trixie/image.json"
printf '{\n  "distro": "mydistro",\n  "name": "mydistro",\n  "release": ""\n}\n' \
	>"$tmp/state/images/mydistro/image.json"
"$top_builddir/tests/fixtures/results-mkdb" "$tmp/r.db" >/dev/null 2>&1
# two builds (benchorch rebuild): o3 of both images, o0 of one
for b in debian-trixie/o3 mydistro/o3 mydistro/o0; do
	mkdir -p "$tmp/state/builds/$b" && echo '{}' >"$tmp/state/builds/$b/build.json"
done

# A bash script that loads bash-completion and the completion (pointed at
# this build's guest and recipes), then prints, for each line of its
# standard input, the candidates for completing that command line at its
# end, sorted, on one line.
cat >"$tmp/drive.bash" <<'DRIVE'
. "$BC"
. "$COMP"
_benchorch_guest=$GUEST
_benchorch_recipes=$RECIPES
PATH=$BUILDDIR:$PATH
complete -p benchorch
while IFS= read -r line; do
	# bash splits words at the characters of COMP_WORDBREAKS, ':' too
	read -r -a COMP_WORDS <<<"${line//:/ : }"
	[[ $line == *' ' ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_benchorch benchorch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
	echo
done
DRIVE
# complete LINE...: one output line per command line.
complete_lines() {
	{ [ $# -eq 0 ] || printf '%s\n' "$@"; } | BC=$bc COMP=$comp GUEST=$guest \
		RECIPES="$top_srcdir/images" BUILDDIR="$top_builddir" \
		bash --norc --noprofile "$tmp/drive.bash" 2>"$tmp/err"
}

complete_lines >"$tmp/out"
grep -qx 'complete -F _benchorch benchorch' "$tmp/out"
ok $? "complete -p benchorch: $(head -1 "$tmp/out") $(cat "$tmp/err")"

# expect DESCRIPTION LINE WANT: completing LINE gives exactly WANT.
expect() {
	got=$(complete_lines "$2" | tail -n +2)
	[ "$got" = "$3" ]
	ok $? "$1: '$2' gives '$got'"
}

expect "one option" 'benchorch run --li' '--libs '
expect "the subcommands of benchorch --help, --help and --version" 'benchorch ' \
	"$({ "$BENCHORCH" --help |
		awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'
	     echo --help; echo --version; } | sort | tr '\n' ' ')"

# Every subcommand: the options offered are exactly those its --help lists.
help_opts() {
	"$BENCHORCH" "$@" --help |
		grep -Eo '^ +(-[a-zA-Z], )?--[a-z-]+' | tr ', ' '\n\n' | grep . |
		sort -u | tr '\n' ' '
}
for cmd in run results runs daemon status submit cancel compare confirm duet report \
	export merge rebuild; do
	expect "the options of $cmd are those of its --help" \
		"benchorch $cmd -" "$(help_opts "$cmd")"
done
imgs=$(complete_lines 'benchorch images list -' 'benchorch images build -' \
	'benchorch images import -' 'benchorch images show -' \
	'benchorch images remove -' | tail -n +2 | tr ' ' '\n' | grep . |
	sort -u | tr '\n' ' ')
[ "$imgs" = "$(help_opts images)" ]
ok $? "images: its subcommands' options together are those of its --help ($imgs)"
expect "images' subcommands" 'benchorch images ' 'build import list remove show '
expect "slurm's subcommands" 'benchorch slurm ' 'collect status submit '
# slurm submit takes its own options and then run's (RUN-OPTIONS)
want=$({ help_opts slurm; help_opts run; } | tr ' ' '\n' | grep . |
	grep -vx -e --report | sort -u | tr '\n' ' ')
expect "slurm submit: its own options and run's" 'benchorch slurm submit -' "$want"
sl=$(complete_lines 'benchorch slurm status -' 'benchorch slurm collect -' |
	tail -n +2 | tr ' ' '\n' | grep . | sort -u)
sub=$(complete_lines 'benchorch slurm submit -' | tail -n +2 | tr ' ' '\n' | grep .)
help_opts slurm | tr ' ' '\n' | grep . >"$tmp/slurm-help"
# status and collect offer only slurm's options; each of slurm's options
# is offered by one of its subcommands
[ "$(echo "$sl" | grep -cvxF -f "$tmp/slurm-help")" -eq 0 ] &&
	printf '%s\n%s\n' "$sl" "$sub" >"$tmp/offered" &&
	[ "$(grep -cvxF -f "$tmp/offered" "$tmp/slurm-help")" -eq 0 ]
ok $? "slurm: every option of its --help is offered, status and collect offer only slurm's ($(echo $sl))"

libs=$("$guest" --list-libs | sort | tr '\n' ' ')
[ "$(echo $libs | wc -w)" -eq 10 ]
ok $? "the guest lists its ten libraries: $libs"
expect "--libs: the guest's libraries" 'benchorch run --libs ' "$libs"
expect "--libs completes the last item of a list" \
	'benchorch run --libs openssl,n' 'openssl,nettle '
expect "submit --libs too" 'benchorch submit --libs wolf' 'wolfssl '
expect "results --lib: one library" 'benchorch results --lib lib' \
	'libgcrypt libmcrypt libsodium libtomcrypt '
expect "--algos: the guest's algorithms" 'benchorch run --algos aes-128-c' \
	'aes-128-cbc aes-128-ctr '
expect "--algos after a comma" 'benchorch run --algos sha-256,sha' \
	'sha-256,sha-1 sha-256,sha-256 sha-256,sha-512 sha-256,sha3-256 '
[ "$("$guest" --list-algos | wc -l)" -eq 32 ] &&
	[ "$(complete_lines 'benchorch run --algos ' | tail -1 | wc -w)" -eq 46 ]
ok $? "run --algos offers all 32 protocol algorithms, the 10 public-key ones and the 4 key derivation functions"
expect "run --algos: the public-key algorithms" 'benchorch run --algos x2' \
	'x25519 '
expect "run --algos: X448 too" 'benchorch run --algos x' 'x25519 x448 '
expect "run --algos: the P-256 ones" 'benchorch run --algos ecd' \
	'ecdh-p256 ecdsa-p256 '
expect "run --algos: the RSA ones" 'benchorch run --algos rsa' \
	'rsa-2048 rsa-3072 rsa-pss-2048 '
expect "run --algos: the post-quantum ones" 'benchorch run --algos ml-' \
	'ml-dsa-65 ml-kem-768 '
expect "duet --algos: no public-key algorithm" 'benchorch duet --algos x2' ' '
expect "results --pubkey" 'benchorch results --pub' '--pubkey '
# The orchestrator knows every name the completion offers: results
# refuses a library or algorithm name the guest does not know (exit 2).
refused=
for l in $libs; do
	"$BENCHORCH" results --db "$tmp/r.db" --lib "$l" >/dev/null 2>&1
	[ $? -eq 2 ] && refused="$refused $l"
done
for a in $("$guest" --list-algos); do
	"$BENCHORCH" results --db "$tmp/r.db" --algo "$a" >/dev/null 2>&1
	[ $? -eq 2 ] && refused="$refused $a"
done
"$BENCHORCH" results --db "$tmp/r.db" --lib nosuchlib >/dev/null 2>&1
[ $? -eq 2 ] && [ -z "$refused" ]
ok $? "benchorch accepts every library and algorithm offered (and refuses an unknown one)${refused:+; refused:$refused}"

expect "--distros: recipes, their releases, cached images" \
	"benchorch run --state-dir $tmp/state --distros d" \
	'debian debian:bookworm debian:bullseye debian:sid debian:trixie '
expect "--distros: an imported image by its name" \
	"benchorch run --state-dir $tmp/state --distros debian,my" 'debian,mydistro '
got=$(complete_lines "benchorch run --distros " | tail -1)
for want in alpine debian ubuntu gentoo debian:bookworm ubuntu:noble alpine:3.20; do
	case " $got" in *" $want "*) ;; *) false ;; esac || break
done
ok $? "--distros from the recipes: $got"
# bash replaces the word after the ':' only.
expect "images build: recipes and releases" "benchorch images build ubuntu:n" 'noble '
expect "--distros: a release after a comma" "benchorch run --distros debian,ubuntu:n" 'noble '
expect "images show: the cached images' names" \
	"benchorch images show --state-dir $tmp/state " 'debian-trixie mydistro '
expect "run --builds: shipped and the builds' names, each once" \
	"benchorch run --state-dir $tmp/state --builds " 'o0 o3 shipped '
expect "run --builds: the last item of the list" \
	"benchorch run --state-dir $tmp/state --builds shipped,o" 'shipped,o0 shipped,o3 '
expect "images: an option's value before the subcommand is not one" \
	"benchorch images --state-dir $tmp/state remove " 'debian-trixie mydistro '

expect "compare: run ids of the database on the line" \
	"benchorch compare --db $tmp/r.db " '1 2 3 '
expect "results --run: run ids" "benchorch results --db $tmp/r.db --run " '1 2 3 '
expect "--format" 'benchorch results --format ' 'csv json table '
expect "--runner" 'benchorch run --runner ' 'auto chroot nspawn '

done_testing
