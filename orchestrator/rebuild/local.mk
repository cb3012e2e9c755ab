# orchestrator/rebuild/: a library built from its distribution's source
# package in a throwaway copy of an image (benchorch rebuild).
liborch_a_SOURCES += \
	orchestrator/rebuild/rebuild.c \
	orchestrator/rebuild/rebuild.h \
	orchestrator/rebuild/rebuild-script.c
