# orchestrator/: the benchorch command, in rooms that follow the data:
# cli/ (the command table and the commands), run/ (a run, from plan to
# stored results, and duets of two images), results/ (what is read back)
# and daemon/.
liborch_a_CFLAGS = $(AM_CFLAGS) $(ORCH_CFLAGS)
include orchestrator/cli/local.mk
include orchestrator/run/local.mk
include orchestrator/results/local.mk
include orchestrator/daemon/local.mk
include orchestrator/rebuild/local.mk
EXTRA_DIST += orchestrator/results/verdicts.md

bin_PROGRAMS += benchorch
benchorch_SOURCES = orchestrator/cli/main.c
benchorch_CFLAGS = $(AM_CFLAGS) $(ORCH_CFLAGS)
benchorch_LDADD = $(ORCH_LIBS) -lm
dist_man_MANS += orchestrator/benchorch.1

# The daemon's manual pages, example configuration and systemd units
# (benchorch.service, or benchorch-nightly.timer + .service instead).
dist_man_MANS += orchestrator/benchorch-daemon.8 orchestrator/benchorch.conf.5
dist_pkgdata_DATA += dist/benchorch.conf
# systemdunitdir: configure --with-systemdsystemunitdir.
systemdunit_DATA = dist/benchorch.service dist/benchorch-nightly.service
dist_systemdunit_DATA = dist/benchorch-nightly.timer
# Both units that run benchmarks get one confinement, dist/confinement.in,
# in place of their line %confinement%.
EXTRA_DIST += dist/benchorch.service.in dist/benchorch-nightly.service.in \
	dist/confinement.in
CLEANFILES += dist/benchorch.service dist/benchorch-nightly.service
UNIT_SED = sed -e 's|%bindir%|$(bindir)|g' \
	-e '/^%confinement%$$/{r $(top_srcdir)/dist/confinement.in' -e 'd;}'
dist/benchorch.service: $(top_srcdir)/dist/benchorch.service.in \
		$(top_srcdir)/dist/confinement.in Makefile
	$(AM_V_GEN)$(MKDIR_P) dist && \
	$(UNIT_SED) $(top_srcdir)/dist/benchorch.service.in >$@
dist/benchorch-nightly.service: $(top_srcdir)/dist/benchorch-nightly.service.in \
		$(top_srcdir)/dist/confinement.in Makefile
	$(AM_V_GEN)$(MKDIR_P) dist && \
	$(UNIT_SED) $(top_srcdir)/dist/benchorch-nightly.service.in >$@
