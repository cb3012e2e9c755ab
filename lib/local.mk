# lib/: the bottom of the tree (see lib/README): errors, files, processes,
# the guest-output protocol, numbers and messages. It includes nothing above it.
liborch_a_SOURCES += \
	lib/algorithm-table.c \
	lib/algorithm-table.h \
	lib/algorithms.c \
	lib/pubkey-table.c \
	lib/pubkey-table.h \
	lib/kdf-table.c \
	lib/kdf-table.h \
	lib/algorithms.h \
	lib/build-name.c \
	lib/build-name.h \
	lib/crosscheck.c \
	lib/cpuchoice.c \
	lib/cpuchoice.h \
	lib/cpuinfo.c \
	lib/cpuinfo.h \
	lib/cpustate.c \
	lib/cpustate.h \
	lib/curves.c \
	lib/curves.h \
	lib/flavour.c \
	lib/flavour.h \
	lib/format.c \
	lib/exitcode.h \
	lib/format.h \
	lib/guest-resources.c \
	lib/guest-resources.h \
	lib/guest-output.c \
	lib/guest_output.h \
	lib/judge.c \
	lib/library-support.c \
	lib/library-support.h \
	lib/judge.h \
	lib/messages.c \
	lib/messages.h \
	lib/numbers.c \
	lib/rmtree.c \
	lib/runlock.c \
	lib/runlock.h \
	lib/numbers.h \
	lib/paths.c \
	lib/paths.h \
	lib/shuffle.c \
	lib/shuffle.h \
	lib/spawn-env.c \
	lib/spawn.c \
	lib/spawn.h \
	lib/stats.c \
	lib/stats.h \
	lib/util.c \
	lib/util.h \
	lib/validate-fields.c \
	lib/validate-points.c lib/validate-pairs.c \
	lib/validate.c \
	lib/validate.h
EXTRA_DIST += lib/README
