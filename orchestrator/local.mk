# orchestrator/: the benchorch command and its library.
liborch_a_SOURCES += \
	orchestrator/util.c orchestrator/util.h \
	orchestrator/spawn.c orchestrator/spawn.h \
	orchestrator/spawn-env.c
liborch_a_CFLAGS = $(AM_CFLAGS) $(ORCH_CFLAGS)
liborch_a_SOURCES += \
	orchestrator/algorithms.c orchestrator/algorithms.h \
	orchestrator/validate.c orchestrator/guest_output.h \
	orchestrator/guest-resources.c orchestrator/guest-resources.h \
	orchestrator/cpuinfo.c orchestrator/cpuinfo.h \
	orchestrator/cpustate.c orchestrator/cpustate.h \
	orchestrator/runstate.c orchestrator/runstate.h
liborch_a_SOURCES += \
	orchestrator/runner.c orchestrator/runner.h

# the CPU the guests are pinned to
liborch_a_SOURCES += orchestrator/cpuchoice.c orchestrator/cpuchoice.h
# run --tools: the distributions' own encryption tools
liborch_a_SOURCES += \
	orchestrator/tool-output.c orchestrator/tool-output.h \
	orchestrator/tool-stats.c orchestrator/tool-stats.h \
	orchestrator/tools-print.c orchestrator/tools-print.h \
	orchestrator/tools-run.c orchestrator/tools-run.h
liborch_a_SOURCES += \
	orchestrator/paths.c orchestrator/paths.h \
	orchestrator/flavour.c orchestrator/flavour.h \
	orchestrator/format.c orchestrator/format.h \
	orchestrator/summary.c orchestrator/summary.h \
	orchestrator/summary-fastest.c \
	orchestrator/progress.c orchestrator/progress.h \
	orchestrator/fastest.c orchestrator/fastest.h \
	orchestrator/plan.c orchestrator/plan.h \
	orchestrator/plan-interleave.c orchestrator/plan-interleave.h \
	orchestrator/confirm-curves.c orchestrator/confirm-curves.h \
	orchestrator/confirm.c orchestrator/confirm.h \
	orchestrator/confirm-summary.c orchestrator/confirm-summary.h \
	orchestrator/cmd-confirm.c \
	guest/shuffle.c guest/shuffle.h \
	orchestrator/run.c orchestrator/run.h \
	orchestrator/cli.c orchestrator/cli.h \
	orchestrator/cmd-run.c \
	orchestrator/results-resources.c orchestrator/results-resources.h \
	orchestrator/cmd-results.c \
	orchestrator/lib-faults.c orchestrator/lib-faults.h \
	orchestrator/cmd-images.c
# results, compare, report, export/merge (issue #7)
liborch_a_SOURCES += \
	orchestrator/report-fmt.c orchestrator/report-fmt.h \
	orchestrator/db-names.c orchestrator/db-names.h \
	orchestrator/stats.c orchestrator/stats.h \
	orchestrator/curves.c orchestrator/curves.h \
	orchestrator/compare.c orchestrator/compare.h \
	orchestrator/pkgchanges.c orchestrator/pkgchanges.h \
	orchestrator/verdict.c orchestrator/verdict.h \
	orchestrator/verdict-curve.c orchestrator/verdict-curve.h \
	orchestrator/verdict-load.c orchestrator/verdict-load.h \
	orchestrator/verdict-regime.c orchestrator/verdict-regime.h \
	orchestrator/verdict-stats.c orchestrator/verdict-stats.h \
	orchestrator/verdict-store.c \
	orchestrator/verdict-print.c orchestrator/verdict-print.h \
	orchestrator/cmd-compare.c \
	orchestrator/svg.c orchestrator/svg.h \
	orchestrator/report.c orchestrator/report.h \
	orchestrator/report-overview.c orchestrator/report-overview.h \
	orchestrator/report-tools.c orchestrator/report-tools.h \
	orchestrator/report-resources.c orchestrator/report-resources.h \
	orchestrator/cmd-report.c \
	orchestrator/merge.c orchestrator/merge.h \
	orchestrator/cmd-merge.c
# The stored runs, for people and the shell completion.
liborch_a_SOURCES += orchestrator/cmd-runs.c
# The daemon, its configuration and control socket (issue #6).
liborch_a_SOURCES += \
	orchestrator/config-file.c orchestrator/config-file.h \
	orchestrator/request-check.c orchestrator/request-check.h \
	orchestrator/daemon-latest.c \
	orchestrator/schedule.c orchestrator/schedule.h \
	orchestrator/control.c orchestrator/control.h \
	orchestrator/control-cli.c orchestrator/control-cli.h \
	orchestrator/daemon.c orchestrator/daemon.h \
	orchestrator/daemon-packages.c \
	orchestrator/daemon-verdict.c orchestrator/daemon-verdict.h \
	orchestrator/cmd-daemon.c orchestrator/cmd-status.c \
	orchestrator/cmd-submit.c orchestrator/cmd-cancel.c
# Many machines: Slurm submission, merge job and status.
liborch_a_SOURCES += \
	orchestrator/run-args.h \
	orchestrator/config-slurm.c orchestrator/config-slurm.h \
	orchestrator/compare-machines.c orchestrator/compare-machines.h \
	orchestrator/daemon-slurm.c orchestrator/daemon-slurm.h \
	orchestrator/slurm.h orchestrator/slurm-script.c \
	orchestrator/slurm-tasks.c orchestrator/slurm-cli.h \
	orchestrator/cmd-slurm.c orchestrator/cmd-slurm-collect.c \
	orchestrator/cmd-slurm-status.c

bin_PROGRAMS += benchorch
benchorch_SOURCES = orchestrator/main.c
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
EXTRA_DIST += dist/benchorch.service.in dist/benchorch-nightly.service.in
CLEANFILES += dist/benchorch.service dist/benchorch-nightly.service
dist/benchorch.service: $(top_srcdir)/dist/benchorch.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) dist && \
	sed 's|%bindir%|$(bindir)|g' $(top_srcdir)/dist/benchorch.service.in >$@
dist/benchorch-nightly.service: $(top_srcdir)/dist/benchorch-nightly.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) dist && \
	sed 's|%bindir%|$(bindir)|g' $(top_srcdir)/dist/benchorch-nightly.service.in >$@
