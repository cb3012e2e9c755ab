# orchestrator/results/: what is read back: results, compare and verdicts,
# report, summaries, merge.
liborch_a_SOURCES += \
	orchestrator/results/compare-machines.c \
	orchestrator/results/compare-machines.h \
	orchestrator/results/compare.c \
	orchestrator/results/compare.h \
	orchestrator/results/db-names.c \
	orchestrator/results/db-names.h \
	orchestrator/results/fastest.c orchestrator/results/fastest-ties.c \
	orchestrator/results/fastest.h \
	orchestrator/results/latest-pick.c \
	orchestrator/results/latest-pick.h \
	orchestrator/results/lib-faults.c \
	orchestrator/results/lib-faults.h \
	orchestrator/results/merge.c \
	orchestrator/results/merge.h \
	orchestrator/results/pkgchanges.c \
	orchestrator/results/pkgchanges.h \
	orchestrator/results/report-fmt.c \
	orchestrator/results/report-fmt.h \
	orchestrator/results/report-overview.c \
	orchestrator/results/report-overview.h \
	orchestrator/results/build-pairs.c \
	orchestrator/results/build-pairs.h \
	orchestrator/results/report-builds.c \
	orchestrator/results/report-builds.h \
	orchestrator/results/ops-load.c \
	orchestrator/results/ops-load.h \
	orchestrator/results/report-ops.c \
	orchestrator/results/report-ops.h \
	orchestrator/results/report-resources.c \
	orchestrator/results/report-resources.h \
	orchestrator/results/report-tools.c \
	orchestrator/results/report-tools.h \
	orchestrator/results/report-colours.c \
	orchestrator/results/report-colours.h \
	orchestrator/results/report-data.c \
	orchestrator/results/report-data.h \
	orchestrator/results/report-tables.c \
	orchestrator/results/report.c \
	orchestrator/results/report.h \
	orchestrator/results/results-builds.c \
	orchestrator/results/results-builds.h \
	orchestrator/results/results-pubkey.c \
	orchestrator/results/results-pubkey.h \
	orchestrator/results/results-kdf.c \
	orchestrator/results/results-kdf.h \
	orchestrator/results/results-resources.c \
	orchestrator/results/results-resources.h \
	orchestrator/results/runstate.c \
	orchestrator/results/runstate.h \
	orchestrator/results/summary-fastest.c \
	orchestrator/results/summary.c \
	orchestrator/results/summary.h \
	orchestrator/results/svg.c \
	orchestrator/results/svg.h \
	orchestrator/results/tools-print.c \
	orchestrator/results/tools-print.h \
	orchestrator/results/verdict-duet.c \
	orchestrator/results/verdict-duet.h \
	orchestrator/results/verdict-curve.c \
	orchestrator/results/verdict-curve.h \
	orchestrator/results/verdict-load.c \
	orchestrator/results/verdict-load.h \
	orchestrator/results/verdict-print.c \
	orchestrator/results/verdict-print.h \
	orchestrator/results/verdict-regime.c \
	orchestrator/results/verdict-regime.h \
	orchestrator/results/verdict-stats.c orchestrator/results/paired-verdict.c \
	orchestrator/results/verdict-stats.h orchestrator/results/paired-verdict.h \
	orchestrator/results/verdict-store.c \
	orchestrator/results/verdict-confirm.c \
	orchestrator/results/verdict-judge.c \
	orchestrator/results/verdict-judge.h \
	orchestrator/results/verdict.c \
	orchestrator/results/verdict.h
