/* cpuinfo.c - read the CPU identity from /proc/cpuinfo. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/cpuinfo.h"

/* Value after "key<tabs>: " on a line starting with KEY, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	if (strncmp(line, key, n) != 0)
		return NULL;
	p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

int cpuinfo_read(const char *path, struct cpuinfo *ci, bo_err *err)
{
	struct utsname u;
	char *buf, *line, *save = NULL;
	const char *v;

	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = ci->stepping = -1;
	if (bo_read_file(path, 4u << 20, &buf, NULL, err) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '\0')
			break;	/* end of the first processor */
		if ((v = field(line, "vendor_id")) && !ci->vendor)
			ci->vendor = xstrdup(v);
		else if ((v = field(line, "model name")) && !ci->model_name)
			ci->model_name = xstrdup(v);
		else if ((v = field(line, "cpu family")))
			ci->family = atoi(v);
		else if ((v = field(line, "model")))
			ci->model = atoi(v);
		else if ((v = field(line, "stepping")))
			ci->stepping = atoi(v);
		else if ((v = field(line, "microcode")) && !ci->microcode)
			ci->microcode = xstrdup(v);
		else if ((v = field(line, "flags")) && !ci->flags)
			ci->flags = xstrdup(v);
	}
	free(buf);
	if (!ci->vendor)
		ci->vendor = xstrdup("");
	if (!ci->model_name)
		ci->model_name = xstrdup("");
	if (!ci->microcode)
		ci->microcode = xstrdup("");
	if (!ci->flags)
		ci->flags = xstrdup("");
	if (uname(&u) == 0)
		ci->kernel = xasprintf("%s %s %s", u.sysname, u.release,
				       u.machine);
	else
		ci->kernel = xstrdup("");
	return 0;
}

void cpuinfo_release(struct cpuinfo *ci)
{
	free(ci->vendor);
	free(ci->model_name);
	free(ci->microcode);
	free(ci->flags);
	free(ci->kernel);
	memset(ci, 0, sizeof(*ci));
}
