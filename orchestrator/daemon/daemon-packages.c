/* daemon-packages.c - the package changes of the daemon's last run: sent
 * by the job's child down its progress pipe, kept by the daemon, shown in
 * the status reply. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orchestrator/daemon/daemon.h"

/* Longest field of a "c" line, in bytes: package names and versions are
 * far shorter; a longer one is cut rather than overflow the daemon's
 * 2048-byte line buffer. */
#define FIELD_MAX 100

int daemon_changes_send(int fd, const struct pkg_change *v, size_t n,
			bo_err *err)
{
	char line[8 + 4 * (FIELD_MAX + 1)];
	size_t i;
	int len;

	len = snprintf(line, sizeof(line), "C %zu\n", n);
	if (write(fd, line, (size_t)len) != len)
		return bo_err_set(err, "cannot report package changes to the daemon");
	for (i = 0; i < n && i < DAEMON_STATUS_CHANGES; i++) {
		len = snprintf(line, sizeof(line), "c\t%.*s\t%.*s\t%.*s\t%.*s\n",
			       FIELD_MAX, v[i].spec, FIELD_MAX, v[i].package,
			       FIELD_MAX, v[i].old_version ? v[i].old_version : "",
			       FIELD_MAX, v[i].new_version ? v[i].new_version : "");
		if (len < 0 || (size_t)len >= sizeof(line) ||
		    write(fd, line, (size_t)len) != len)
			return bo_err_set(err, "cannot report package changes to the daemon");
	}
	return 0;
}

/* The next tab-separated field of *S (advanced past it), newly allocated;
 * NULL for an empty field when EMPTY_NULL. */
static char *field(const char **s, int empty_null)
{
	size_t len = strcspn(*s, "\t");
	char *f = NULL;

	if (len || !empty_null) {
		f = xmalloc(len + 1);
		memcpy(f, *s, len);
		f[len] = '\0';
	}
	*s += len + ((*s)[len] == '\t');
	return f;
}

int daemon_changes_parse(struct daemon_changes *dc, const char *line)
{
	struct pkg_change *c;
	long n;
	char end;

	if (sscanf(line, "C %ld%c", &n, &end) == 1) {
		daemon_changes_reset(dc);
		dc->total = n;
		return 1;
	}
	if (strncmp(line, "c\t", 2) != 0)
		return 0;
	if (dc->nshown == DAEMON_STATUS_CHANGES)
		return 1;
	line += 2;
	dc->shown = xrealloc(dc->shown, (dc->nshown + 1) * sizeof(*dc->shown));
	c = &dc->shown[dc->nshown++];
	memset(c, 0, sizeof(*c));
	c->spec = field(&line, 0);
	c->package = field(&line, 0);
	c->old_version = field(&line, 1);
	c->new_version = field(&line, 1);
	return 1;
}

/* S as a JSON string; null when S is NULL or not UTF-8. */
static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_null();
}

void daemon_changes_json(const struct daemon_changes *dc, json_t *o)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < dc->nshown; i++) {
		const struct pkg_change *c = &dc->shown[i];

		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o}",
			"spec", str_or_null(c->spec),
			"package", str_or_null(c->package),
			"old_version", str_or_null(c->old_version),
			"new_version", str_or_null(c->new_version)));
	}
	json_object_set_new(o, "package_changes", json_integer(dc->total));
	json_object_set_new(o, "changed_packages", a);
}

void daemon_changes_reset(struct daemon_changes *dc)
{
	pkg_changes_free(dc->shown, dc->nshown);
	dc->shown = NULL;
	dc->nshown = 0;
	dc->total = -1;
}
