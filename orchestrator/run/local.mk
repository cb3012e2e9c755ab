# orchestrator/run/: a run from plan to stored results: the plan, the runner,
# progress, confirmation, the tools run, the Slurm script, and the duet of
# two images side by side.
liborch_a_SOURCES += \
	orchestrator/run/confirm-curves.c \
	orchestrator/run/confirm-curves.h \
	orchestrator/run/confirm-duet.c \
	orchestrator/run/confirm-duet.h \
	orchestrator/run/confirm-summary.c \
	orchestrator/run/confirm-summary.h \
	orchestrator/run/confirm-targets.c \
	orchestrator/run/confirm-targets.h \
	orchestrator/run/confirm.c \
	orchestrator/run/confirm.h \
	orchestrator/run/db-image.c \
	orchestrator/run/duet-judge.c \
	orchestrator/run/duet-judge.h \
	orchestrator/run/duet-pass.c \
	orchestrator/run/duet-pass.h \
	orchestrator/run/duet-print.c \
	orchestrator/run/duet-print.h \
	orchestrator/run/duet-run.c \
	orchestrator/run/duet-run.h \
	orchestrator/run/duet.c \
	orchestrator/run/duet.h \
	orchestrator/run/db-image.h \
	orchestrator/run/plan-interleave.c \
	orchestrator/run/plan-interleave.h \
	orchestrator/run/plan.c \
	orchestrator/run/plan.h \
	orchestrator/run/progress.c \
	orchestrator/run/progress.h \
	orchestrator/run/request-check.c \
	orchestrator/run/request-check.h \
	orchestrator/run/run.c \
	orchestrator/run/run-confirm.c \
	orchestrator/run/run-confirm.h \
	orchestrator/run/run-invoke.c \
	orchestrator/run/run-invoke.h \
	orchestrator/run/run-open.c \
	orchestrator/run/run-open.h \
	orchestrator/run/run-report.c \
	orchestrator/run/run-report.h \
	orchestrator/run/run.h \
	orchestrator/run/runner.c \
	orchestrator/run/runner.h \
	orchestrator/run/slurm-script.c \
	orchestrator/run/slurm-spool.c \
	orchestrator/run/slurm-tasks.c \
	orchestrator/run/slurm-time.c \
	orchestrator/run/slurm.h \
	orchestrator/run/tool-output.c \
	orchestrator/run/tool-output.h \
	orchestrator/run/tool-stats.c \
	orchestrator/run/tool-stats.h \
	orchestrator/run/tools-run.c \
	orchestrator/run/tools-run.h
