/* cpuinfo.h - the host CPU and kernel, recorded with every run. */
#ifndef BENCHORCH_CPUINFO_H
#define BENCHORCH_CPUINFO_H

#include "lib/util.h"

/* Identity of the CPU the guests run on. Strings owned by the struct;
 * missing fields are "" or -1. */
struct cpuinfo {
	char *vendor;		/* vendor_id, e.g. GenuineIntel */
	char *model_name;	/* "model name" */
	int family, model, stepping;
	char *microcode;	/* e.g. "0xffffffff" */
	char *flags;		/* space-separated, as the kernel lists them */
	char *kernel;		/* uname -srm */
};

/* Read the first processor's entry from PATH (normally /proc/cpuinfo) and
 * the kernel from uname(2). Returns 0, or -1 with err set when PATH cannot
 * be read. Free with cpuinfo_release. */
int cpuinfo_read(const char *path, struct cpuinfo *ret, bo_err *err);

void cpuinfo_release(struct cpuinfo *ci);

#endif
