# orchestrator/daemon/: the daemon, its control socket, schedule and configuration.
liborch_a_SOURCES += \
	orchestrator/daemon/config-file.c \
	orchestrator/daemon/config-file.h \
	orchestrator/daemon/config-slurm.c \
	orchestrator/daemon/config-slurm.h \
	orchestrator/daemon/control.c \
	orchestrator/daemon/control.h \
	orchestrator/daemon/daemon-job.c \
	orchestrator/daemon/daemon-job.h \
	orchestrator/daemon/daemon-latest.c \
	orchestrator/daemon/daemon-log.c \
	orchestrator/daemon/daemon-log.h \
	orchestrator/daemon/daemon-packages.c \
	orchestrator/daemon/daemon-serve.c \
	orchestrator/daemon/daemon-slurm.c \
	orchestrator/daemon/daemon-slurm.h \
	orchestrator/daemon/daemon-state.h \
	orchestrator/daemon/daemon-verdict.c \
	orchestrator/daemon/daemon-verdict.h \
	orchestrator/daemon/daemon.c \
	orchestrator/daemon/daemon.h \
	orchestrator/daemon/schedule.c \
	orchestrator/daemon/schedule.h
