/* rebuild-script.c - the shell script that builds a library inside the
 * throwaway copy of an image (rebuild.h): source archive, compiler,
 * build dependencies, the source package built with its own packaging,
 * the runtime package's shared objects collected under /benchorch-out. */
#include "config.h"

#include "orchestrator/rebuild/rebuild.h"

/* Its arguments: $1 the runtime package ("libsodium23"), $2 the compiler
 * (CC), $3 the compiler's package, $4 the optimisation flags. On stdout
 * (fd 3 after the first exec) it writes only its protocol, one line each:
 * "step TEXT" when a step begins, "nocompiler PACKAGE" when the release
 * has no such package, "fail WHAT" before it gives up, "done" at the end;
 * everything the tools print goes to stderr, the build log (with no
 * FLAGS the packaging's optimisation flags stay). The shared
 * objects kept are those of the runtime package and of the other library
 * packages of the same source the image has installed (libhogweed6
 * beside libnettle8), so that a build's sub-libraries come with it. The optimisation
 * flags (-O*) of the packaging are stripped and FLAGS appended, through
 * dpkg-buildflags' DEB_{C,CXX}FLAGS_STRIP and _APPEND, so the packaging's
 * other flags stay; nocheck skips the test suites, nostrip keeps the
 * debugging sections (and skips dh_dwz, which fails on clang's DWARF 5). Flags the compiler
 * rejects fail before the build dependencies are installed (a small
 * program compiled with them). */
const char rebuild_script[] =
"set -u\n"
"# $1 runtime package, $2 compiler (CC), $3 its package, $4 optimisation flags\n"
"pkg=$1 cc=$2 ccpkg=$3 flags=$4\n"
"exec 3>&1 1>&2\n"
"# stdin is a pipe whose other end benchorch holds and never writes: at\n"
"# its end (even by SIGKILL, which nspawn does not survive but the\n"
"# container would) it reads EOF, and every process of the container\n"
"# is killed. An asynchronous list's stdin is /dev/null: fd 4 carries it.\n"
"exec 4<&0 </dev/null\n"
"{ cat >/dev/null; kill -KILL -1; } <&4 &\n"
"step() { echo \"step $*\" >&3; echo \"=== benchorch rebuild: $*\"; }\n"
"fail() { echo \"fail $*\" >&3; exit 1; }\n"
"export DEBIAN_FRONTEND=noninteractive\n"
"# who the container's root is on the host (its user namespace)\n"
"echo \"=== benchorch rebuild: uid_map $(cat /proc/self/uid_map)\"\n"
"step sources: enabling the source archive\n"
"for f in /etc/apt/sources.list; do\n"
"\t[ -f \"$f\" ] && sed -n 's/^deb /deb-src /p' \"$f\"\n"
"done >/etc/apt/sources.list.d/benchorch-rebuild-src.list\n"
"for f in /etc/apt/sources.list.d/*.sources; do\n"
"\t[ -f \"$f\" ] && sed -i 's/^Types: deb$/Types: deb deb-src/' \"$f\"\n"
"done\n"
"apt-get update || fail \"apt-get update\"\n"
"src=$(dpkg-query -W -f '${source:Package}' \"$pkg\") && [ -n \"$src\" ] ||\n"
"\tfail \"no installed package '$pkg' in the image\"\n"
"srcver=$(dpkg-query -W -f '${source:Version}' \"$pkg\")\n"
"step compiler: \"$ccpkg\"\n"
"if ! apt-cache show --no-all-versions \"$ccpkg\" >/dev/null 2>&1; then\n"
"\techo \"nocompiler $ccpkg\" >&3\n"
"\texit 1\n"
"fi\n"
"step install: \"$ccpkg\" and dpkg-dev\n"
"apt-get install -y --no-install-recommends dpkg-dev \"$ccpkg\" ||\n"
"\tfail \"installing $ccpkg\"\n"
"set -f\n"
"step flags: \"$cc\" $flags\n"
"printf 'int main(void) { return 0; }\\n' >/tmp/benchorch-flags.c\n"
"\"$cc\" $flags -c /tmp/benchorch-flags.c -o /tmp/benchorch-flags.o ||\n"
"\tfail \"$cc rejects the flags '$flags'\"\n"
"set +f\n"
"step install: build dependencies of \"$src\"\n"
"apt-get build-dep -y --no-install-recommends \"$src=$srcver\" ||\n"
"\tapt-get build-dep -y --no-install-recommends \"$src\" ||\n"
"\tfail \"installing the build dependencies of $src\"\n"
"mkdir -p /benchorch-build && cd /benchorch-build || fail \"mkdir\"\n"
"step source: \"$src\" \"$srcver\"\n"
"apt-get source --only-source \"$src=$srcver\" ||\n"
"\t{ step source: \"$src\" \"$srcver\" is gone from the archive: the newest;\n"
"\t  apt-get source --only-source \"$src\"; } || fail \"apt-get source $src\"\n"
"dir=$(find . -mindepth 1 -maxdepth 1 -type d | head -1)\n"
"cd \"$dir\" || fail \"no source tree\"\n"
"srcver=$(dpkg-parsechangelog -S Version)\n"
"# nostrip: the shared objects keep their debugging sections (not loaded,\n"
"# no cost at run time) and dh_dwz is skipped, which rejects clang's DWARF 5\n"
"export DEB_BUILD_OPTIONS=\"nocheck nodoc nostrip parallel=$(nproc)\"\n"
"# FLAGS replace the packaging's optimisation flags; none: kept as they are\n"
"if [ -n \"$flags\" ]; then\n"
"\topt=\"-O0 -O1 -O2 -O3 -Os -Og -Ofast -Oz\"\n"
"\texport DEB_CFLAGS_STRIP=\"$opt\" DEB_CXXFLAGS_STRIP=\"$opt\"\n"
"\texport DEB_CFLAGS_APPEND=\"$flags\" DEB_CXXFLAGS_APPEND=\"$flags\"\n"
"fi\n"
"export CC=\"$cc\"\n"
"case $cc in gcc*) export CXX=\"g++${cc#gcc}\" ;; clang*) export CXX=\"clang++${cc#clang}\" ;; esac\n"
"cflags=$(dpkg-buildflags --get CFLAGS)\n"
"ccver=$(\"$cc\" --version | head -1)\n"
"step build: \"$src\" \"$srcver\" with \"$cc\" CFLAGS=\"$cflags\"\n"
"dpkg-buildpackage -b -uc -us || fail \"dpkg-buildpackage\"\n"
"# the runtime package and its installed siblings of the same source\n"
"# (libhogweed6 beside libnettle8): the sonames the guest may load\n"
"sibs=$(dpkg-query -W -f '${Package} ${source:Package} ${db:Status-Abbrev}\\n' |\n"
"\tawk -v s=\"$src\" -v p=\"$pkg\" '$2 == s && $3 == \"ii\" && $1 != p &&\n"
"\t\t$1 ~ /^lib/ && $1 !~ /-(dev|dbg|doc|bin)$/ { printf \"%s \", $1 }')\n"
"step collect: the shared objects of \"$pkg\" $sibs\n"
"mkdir -p /benchorch-out/x /benchorch-out/lib\n"
"for p in \"$pkg\" $sibs; do\n"
"\tdeb=$(ls ../\"${p}\"_*.deb 2>/dev/null | head -1)\n"
"\tif [ -z \"$deb\" ]; then\n"
"\t\t[ \"$p\" = \"$pkg\" ] && fail \"no package $pkg built\"\n"
"\t\tcontinue\n"
"\tfi\n"
"\tdpkg-deb -x \"$deb\" /benchorch-out/x || fail \"dpkg-deb -x $deb\"\n"
"done\n"
"find /benchorch-out/x -name 'lib*.so.*' \\( -type f -o -type l \\) \\\n"
"\t-exec mv {} /benchorch-out/lib/ \\; || fail \"collecting\"\n"
"printf 'source=%s\\nversion=%s\\ncc=%s\\nccpkg_version=%s\\ncc_version=%s\\ncflags=%s\\n' \\\n"
"\t\"$src\" \"$srcver\" \"$cc\" \"$(dpkg-query -W -f '${Version}' \"$ccpkg\")\" \"$ccver\" \"$cflags\" >/benchorch-out/info\n"
"echo done >&3\n";
