# dist/: the bash completion (installed where bash-completion loads it,
# configure --with-bash-completion-dir) and what `make distcheck` needs.
bashcompletion_DATA = dist/completion/benchorch
EXTRA_DIST += dist/benchorch.bash.in
CLEANFILES += dist/completion/benchorch
dist/completion/benchorch: $(top_srcdir)/dist/benchorch.bash.in Makefile
	$(AM_V_GEN)$(MKDIR_P) dist/completion && \
	sed -e 's|%pkglibexecdir%|$(pkglibexecdir)|g' \
	    -e 's|%pkgdatadir%|$(pkgdatadir)|g' \
	    $(top_srcdir)/dist/benchorch.bash.in >$@

# distcheck installs under its own prefix as an ordinary user: the unit and
# completion directories follow that prefix, and BENCHORCH_DISTCHECK tells
# the tests that need root, the network or the cached test image to skip
# (tests/lib.sh).
AM_DISTCHECK_CONFIGURE_FLAGS = \
	--with-systemdsystemunitdir='$${prefix}/lib/systemd/system' \
	--with-bash-completion-dir='$${datadir}/bash-completion/completions' \
	BENCHORCH_DISTCHECK=1
AM_TESTS_ENVIRONMENT += \
	BENCHORCH_DISTCHECK='$(BENCHORCH_DISTCHECK)'; export BENCHORCH_DISTCHECK;
EXTRA_DIST += debian/changelog debian/control debian/copyright \
	debian/rules debian/source/format debian/benchorch.install \
	debian/benchorch.lintian-overrides

# The package, the completion and the run listing it reads.
TESTS += tests/t8000-deb.sh tests/t8010-completion.sh tests/t8020-runs.sh
EXTRA_DIST += tests/t8000-deb.sh tests/t8010-completion.sh tests/t8020-runs.sh
