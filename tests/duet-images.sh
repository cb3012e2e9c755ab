# tests/duet-images.sh - image copies for duets with a known truth
# (issue "Side by side": "Duet A/A", "Duet A/B with a known truth").
# Source it (POSIX sh) from a test or from tests/bench; it needs
# top_srcdir (tests/lib.sh sets it) for the stand-in's source.
#
#   duet_image_copy STATE SRC NAME
#	STATE/images/NAME: a copy of the image directory SRC (image.json and
#	rootfs/, e.g. the cached $TEST_IMAGE) whose image.json names it NAME
#	and has a digest of its own, so that benchorch sees two images.
#   duet_image_shim STATE NAME K
#	installs the stand-in libcrypto.so.3 of tests/fixtures/duet-shim.c
#	into the copy: every K-th timed OpenSSL call repeated once more
#	(throughput K/(K+1) on every bulk curve), K = 0 a pure forwarder;
#	and marks the package of openssl in image.json as changed, so that
#	a duet of two such copies takes openssl for the library under test.
#   duet_have_command BENCHORCH, duet_source_image
#	the duet command is there; the image to copy (DUET_IMAGE or the
#	test suite's cached Debian bookworm image).
#   duet_truth K
#	prints the bulk curves' true effect, K/(K+1) - 1 (0 for K = 0).
#
# Each function returns 0, or 1 with the reason on stderr.
#
# The copy's files are hard links to SRC's (cp -al: 0.2 s against 0.9 s
# for cp -a of the 170 MB Debian bookworm image on ext4): both runners
# mount the rootfs read-only, and these functions only ever replace a
# file of the copy (a new file renamed over it), never write into one.
# Whoever writes into a copy some other way writes into SRC as well:
# set DUET_COPY=full first for a copy of its own (cp -a, with reflinks
# where the file system has them).

# duet_image_copy STATE SRC NAME
duet_image_copy() {
	dic_dst=$1/images/$3
	[ -f "$2/image.json" ] && [ -d "$2/rootfs" ] || {
		echo "duet_image_copy: $2 is not an image (image.json, rootfs/)" >&2
		return 1
	}
	case $3 in
	'' | *[!a-z0-9._-]* | [!a-z0-9]*)
		echo "duet_image_copy: bad image name '$3'" >&2
		return 1
		;;
	esac
	mkdir -p "$1/images" && rm -rf "$dic_dst" || return 1
	if [ "${DUET_COPY:-link}" = full ]; then
		cp -a --reflink=auto "$2" "$dic_dst"
	else
		cp -al "$2" "$dic_dst"
	fi || {
		echo "duet_image_copy: cannot copy $2 to $dic_dst" >&2
		return 1
	}
	# a digest of its own: sha256 of the original's and the new name
	dic_old=$(sed -n 's/^  "digest": "\(sha256:[0-9a-f]*\)",$/\1/p' \
		"$dic_dst/image.json")
	dic_new=sha256:$(printf '%s %s\n' "$dic_old" "$3" | sha256sum |
		cut -c1-64)
	duet_json_edit "$dic_dst/image.json" \
		-e "s/^  \"digest\": \"sha256:[0-9a-f]*\",\$/  \"digest\": \"$dic_new\",/" \
		-e "s/^  \"name\": \"[^\"]*\",\$/  \"name\": \"$3\",/" &&
		grep -q "^  \"name\": \"$3\",\$" "$dic_dst/image.json" &&
		grep -q "^  \"digest\": \"$dic_new\",\$" "$dic_dst/image.json" || {
		echo "duet_image_copy: cannot set name and digest in $dic_dst/image.json" >&2
		return 1
	}
}

# duet_json_edit FILE SED-ARGS...: FILE edited by sed into a new file
# renamed over it (never written in place: it may be a hard link to the
# cached image's). image.json is benchorch's own output (images/store.c:
# indented by 2, one member a line), so line patterns find its members.
duet_json_edit() {
	dje_f=$1
	shift
	sed "$@" <"$dje_f" >"$dje_f.new" && mv "$dje_f.new" "$dje_f"
}

# duet_libdir ROOTFS: the directory of the rootfs holding libcrypto.so.3
# (Debian's multiarch directory, else the usual others).
duet_libdir() {
	for dl_d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu usr/lib64 \
		lib64 usr/lib lib; do
		if [ -e "$1/$dl_d/libcrypto.so.3" ] || [ -L "$1/$dl_d/libcrypto.so.3" ]; then
			echo "$1/$dl_d"
			return 0
		fi
	done
	return 1
}

# duet_image_shim STATE NAME K
duet_image_shim() {
	dis_img=$1/images/$2
	dis_k=$3
	case $dis_k in
	'' | *[!0-9]*)
		echo "duet_image_shim: K must be a number, got '$dis_k'" >&2
		return 1
		;;
	esac
	dis_src=${top_srcdir:-.}/tests/fixtures/duet-shim.c
	[ -f "$dis_src" ] || {
		echo "duet_image_shim: no $dis_src (top_srcdir unset?)" >&2
		return 1
	}
	dis_lib=$(duet_libdir "$dis_img/rootfs") || {
		echo "duet_image_shim: no libcrypto.so.3 in $dis_img/rootfs" >&2
		return 1
	}
	[ ! -e "$dis_lib/libcrypto-real.so.3" ] || {
		echo "duet_image_shim: $2 has a stand-in already" >&2
		return 1
	}
	dis_tmp=$(mktemp -d) || return 1
	# The stand-in needs the real library by the name libcrypto-real.so.3
	# (DT_NEEDED). Linking against the real one would record its soname,
	# libcrypto.so.3, the stand-in's own, so it is linked against an empty
	# library of that name instead; at run time $ORIGIN (the stand-in's
	# directory) holds the real one under that name, its own soname left
	# as it is (the loader finds a needed library by file name).
	# shellcheck disable=SC2016 # '$ORIGIN' is the loader's, not ours
	mkdir "$dis_tmp/stub" &&
		: >"$dis_tmp/empty.c" &&
		gcc -shared -fPIC -o "$dis_tmp/stub/libcrypto-real.so.3" \
			-Wl,-soname,libcrypto-real.so.3 "$dis_tmp/empty.c" &&
		gcc -shared -fPIC -O2 -Wall -Wextra -DDUET_K="$dis_k" \
			-o "$dis_tmp/libcrypto.so.3" "$dis_src" \
			-Wl,-soname,libcrypto.so.3 -Wl,-rpath,'$ORIGIN' \
			-Wl,--no-as-needed -L"$dis_tmp/stub" -l:libcrypto-real.so.3 \
			-ldl 2>"$dis_tmp/cc.err" || {
		echo "duet_image_shim: cannot build the stand-in:" >&2
		cat "$dis_tmp/cc.err" >&2
		rm -rf "$dis_tmp"
		return 1
	}
	# It runs against the image's glibc: every symbol version it needs
	# must be one that glibc defines (built here against the host's).
	if ! duet_glibc_fits "$dis_tmp/libcrypto.so.3" "$dis_img/rootfs"; then
		rm -rf "$dis_tmp"
		return 1
	fi
	# the real one renamed (a rename in the copy's own directory: the
	# cached image keeps its file), the stand-in a new file beside it
	mv "$dis_lib/libcrypto.so.3" "$dis_lib/libcrypto-real.so.3" &&
		cp "$dis_tmp/libcrypto.so.3" "$dis_lib/libcrypto.so.3.new" &&
		chmod 644 "$dis_lib/libcrypto.so.3.new" &&
		mv "$dis_lib/libcrypto.so.3.new" "$dis_lib/libcrypto.so.3" || {
		echo "duet_image_shim: cannot install the stand-in in $dis_lib" >&2
		rm -rf "$dis_tmp"
		return 1
	}
	rm -rf "$dis_tmp"
	# the package of openssl (libpkgs) "changed": VERSION+duetkK
	dis_pkg=$(awk '/^  "libpkgs": \{/ { l = 1; next } /^  [}]/ { l = 0 }
		l && /^    "openssl": / { gsub(/[",]/, "", $2); print $2 }' \
		"$dis_img/image.json")
	[ -n "$dis_pkg" ] &&
		duet_json_edit "$dis_img/image.json" \
			-e "s/^\\(    \"$dis_pkg\": \"[^\"]*\\)\"/\\1+duetk$dis_k\"/" &&
		grep -q "^    \"$dis_pkg\": \"[^\"]*+duetk$dis_k\"" "$dis_img/image.json" || {
		echo "duet_image_shim: cannot mark openssl's package in $dis_img/image.json" >&2
		return 1
	}
}

# duet_glibc_fits LIB ROOTFS: status 0 when every GLIBC_ version LIB
# requires is defined by ROOTFS's libc.so.6 (objdump -p: "Version
# References" of LIB, "Version definitions" of libc), else 1 with the
# versions missing on stderr.
duet_glibc_fits() {
	dgf_libc=$(duet_libdir_of "$2" libc.so.6) || {
		echo "duet_glibc_fits: no libc.so.6 in $2" >&2
		return 1
	}
	dgf_need=$(objdump -p "$1" | awk '/^Version References/ { r = 1 }
		r && $NF ~ /^GLIBC_/ { print $NF }' | sort -u)
	dgf_have=$(objdump -p "$dgf_libc" | awk '/^Version definitions/ { d = 1 }
		/^Version References/ { d = 0 }
		d && $NF ~ /^GLIBC_/ { print $NF }' | sort -u)
	[ -n "$dgf_have" ] || {
		echo "duet_glibc_fits: cannot read the versions of $dgf_libc" >&2
		return 1
	}
	dgf_miss=
	for dgf_v in $dgf_need; do
		echo "$dgf_have" | grep -qx "$dgf_v" || dgf_miss="$dgf_miss $dgf_v"
	done
	[ -z "$dgf_miss" ] || {
		echo "duet_glibc_fits: $1 needs$dgf_miss, which $dgf_libc lacks" >&2
		return 1
	}
}

# duet_libdir_of ROOTFS FILE: the path of FILE in one of ROOTFS's
# library directories.
duet_libdir_of() {
	for dlo_d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu usr/lib64 \
		lib64 usr/lib lib; do
		if [ -e "$1/$dlo_d/$2" ]; then
			echo "$1/$dlo_d/$2"
			return 0
		fi
	done
	return 1
}

# duet_truth K: the bulk curves' true effect, a fraction: K/(K+1) - 1.
duet_truth() {
	awk -v k="$1" 'BEGIN { printf "%.6f\n", k > 0 ? k / (k + 1) - 1 : 0 }'
}

# duet_have_command BENCHORCH: status 0 when BENCHORCH has the duet
# command, else 1 saying so ("benchorch duet: unknown command").
duet_have_command() {
	dhc_err=$("$1" duet --help 2>&1 >/dev/null)
	dhc_rc=$?
	case $dhc_rc:$dhc_err in
	*"unknown command 'duet'"*)
		echo "benchorch duet: unknown command ($1 has no duet yet)" >&2
		return 1
		;;
	0:*) return 0 ;;
	*)
		echo "benchorch duet: --help failed (status $dhc_rc): $dhc_err" >&2
		return 1
		;;
	esac
}

# duet_source_image: print the image directory the duets copy:
# DUET_IMAGE, else the test suite's cached Debian bookworm image
# (tests/lib.sh: BENCHORCH_TEST_STATE, /var/cache/benchorch-test);
# status 1 when it is not there.
duet_source_image() {
	dsi=${DUET_IMAGE:-${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}/images/debian-bookworm}
	[ -f "$dsi/image.json" ] && [ -d "$dsi/rootfs" ] || {
		echo "no image at $dsi: set DUET_IMAGE, or build the test suite's (make check TESTS=tests/t1330-guest-interleave.sh builds it)" >&2
		return 1
	}
	echo "$dsi"
}
