# orchestrator/duet/: two images measured side by side, taking turns, and
# judged in pairs (`benchorch duet`).
liborch_a_SOURCES += \
	orchestrator/duet/duet-judge.c \
	orchestrator/duet/duet-judge.h \
	orchestrator/duet/duet-print.c \
	orchestrator/duet/duet-print.h \
	orchestrator/duet/duet-run.c \
	orchestrator/duet/duet-run.h \
	orchestrator/duet/duet.c \
	orchestrator/duet/duet.h
