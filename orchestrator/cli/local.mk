# orchestrator/cli/: the command table, the option parser and every command.
liborch_a_SOURCES += \
	orchestrator/cli/cli.c \
	orchestrator/cli/cli.h \
	orchestrator/cli/cli-input.c \
	orchestrator/cli/cmd-cancel.c \
	orchestrator/cli/cmd-compare.c \
	orchestrator/cli/cmd-confirm.c \
	orchestrator/cli/cmd-daemon.c \
	orchestrator/cli/cmd-duet.c \
	orchestrator/cli/cmd-images.c \
	orchestrator/cli/cmd-merge.c \
	orchestrator/cli/cmd-rebuild.c \
	orchestrator/cli/cmd-report.c \
	orchestrator/cli/cmd-results.c \
	orchestrator/cli/cmd-run.c \
	orchestrator/cli/cmd-runs.c \
	orchestrator/cli/cmd-slurm-collect.c \
	orchestrator/cli/cmd-slurm-status.c \
	orchestrator/cli/cmd-slurm.c \
	orchestrator/cli/cmd-status.c \
	orchestrator/cli/cmd-submit.c \
	orchestrator/cli/control-cli.c \
	orchestrator/cli/control-cli.h \
	orchestrator/cli/options-measure.c \
	orchestrator/cli/options-measure.h \
	orchestrator/cli/options.c \
	orchestrator/cli/options.h \
	orchestrator/cli/results-points.c \
	orchestrator/cli/results-points.h \
	orchestrator/cli/results-sections.c \
	orchestrator/cli/results-sections.h \
	orchestrator/cli/run-args.h \
	orchestrator/cli/slurm-cli.h \
	orchestrator/cli/slurm-job.c \
	orchestrator/cli/slurm-job.h
