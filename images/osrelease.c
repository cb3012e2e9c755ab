/* osrelease.c - what an image says it is: its os-release file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images/archive.h"
#include "images/osrelease.h"

void os_release_release(struct os_release *o)
{
	free(o->id);
	free(o->version_id);
	free(o->version_codename);
	memset(o, 0, sizeof(*o));
}

/* Unquote VAL in place per os-release(5): a value is either bare, or in
 * double quotes (where \" \\ \$ \` are escapes) or single quotes (no
 * escapes). Returns 0, or -1 when a quote is not closed. */
static int unquote(char *val)
{
	char q = val[0], *in, *out;

	if (q != '"' && q != '\'')
		return 0;
	for (in = val + 1, out = val; *in && *in != q; in++) {
		if (q == '"' && *in == '\\' && in[1] &&
		    strchr("\"\\$`", in[1]))
			in++;
		*out++ = *in;
	}
	if (*in != q || in[1] != '\0')
		return -1;
	*out = '\0';
	return 0;
}

int os_release_parse(FILE *f, struct os_release *ret)
{
	char line[1024];

	memset(ret, 0, sizeof(*ret));
	while (fgets(line, sizeof(line), f)) {
		char *eq, *val, **slot;
		size_t n = strcspn(line, "\r\n");

		line[n] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		val = eq + 1;
		if (strcmp(line, "ID") == 0)
			slot = &ret->id;
		else if (strcmp(line, "VERSION_ID") == 0)
			slot = &ret->version_id;
		else if (strcmp(line, "VERSION_CODENAME") == 0)
			slot = &ret->version_codename;
		else
			continue;
		if (unquote(val) < 0 || val[0] == '\0')
			continue;
		free(*slot);
		*slot = strdup(val);
		if (!*slot) {
			os_release_release(ret);
			return -1;
		}
	}
	return 0;
}

int os_release_read(const char *rootfs, struct os_release *ret)
{
	static const char *const where[] = { "etc/os-release",
					     "usr/lib/os-release" };
	size_t i;

	memset(ret, 0, sizeof(*ret));
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		int fd = rootfs_open(rootfs, where[i], 0), rc;
		FILE *f;

		if (fd < 0)
			continue;
		f = fdopen(fd, "r");
		if (!f) {
			close(fd);
			return -1;
		}
		rc = os_release_parse(f, ret);
		fclose(f);
		return rc;
	}
	errno = ENOENT;
	return -1;
}

int os_release_token_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}
