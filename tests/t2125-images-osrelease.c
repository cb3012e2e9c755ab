/* t2125-images-osrelease.c - reading an image's os-release(5): quoting
 * rules from os-release(5) (double quotes with \" \\ \$ \` escapes, single
 * quotes, bare values), the /usr/lib fallback, the usual relative symlink
 * etc/os-release -> ../usr/lib/os-release, an absolute symlink resolved
 * inside the rootfs (never the host's file), and which values may become
 * an image release. The Debian 12 text is that of bookworm's base-files. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images/osrelease.h"
#include "lib/util.h"
#include "tests/tap.h"

static void put(const char *root, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", root, rel);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static int parse_str(const char *text, struct os_release *o)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -1;
	rc = os_release_parse(f, o);
	fclose(f);
	return rc;
}

static int eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int main(void)
{
	char tmpl[] = "/tmp/t2125-XXXXXX", *root, *p;
	struct os_release o;
	bo_err e;

	tap_ok(parse_str("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
			 "NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n"
			 "VERSION=\"12 (bookworm)\"\nVERSION_CODENAME=bookworm\n"
			 "ID=debian\n", &o) == 0 &&
	       eq(o.id, "debian") && eq(o.version_id, "12") &&
	       eq(o.version_codename, "bookworm"),
	       "Debian 12: ID, VERSION_ID (double-quoted), codename (bare)");
	os_release_release(&o);
	tap_ok(parse_str("# comment\n\nID='alpine'\r\nVERSION_ID=\"3.\\\"20\\\\\"\n",
			 &o) == 0 && eq(o.id, "alpine") &&
	       eq(o.version_id, "3.\"20\\") && o.version_codename == NULL,
	       "single quotes, CRLF, escapes in double quotes, missing codename");
	os_release_release(&o);
	tap_ok(parse_str("ID=\"unterminated\nVERSION_ID=\nVERSION_CODENAME=\"x\"y\"\n",
			 &o) == 0 && o.id == NULL && o.version_id == NULL &&
	       o.version_codename == NULL,
	       "unclosed quote, empty value, text after the quote: ignored");
	os_release_release(&o);

	tap_ok(os_release_token_ok("bookworm") && os_release_token_ok("3.20.3") &&
	       os_release_token_ok("12"), "codenames and versions are releases");
	tap_ok(!os_release_token_ok("") && !os_release_token_ok(NULL) &&
	       !os_release_token_ok("../x") && !os_release_token_ok("a b") &&
	       !os_release_token_ok("Bookworm"),
	       "empty, '/', spaces, capitals are not");

	root = mkdtemp(tmpl);
	if (!root) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	tap_ok(os_release_read(root, &o) < 0 && errno == ENOENT,
	       "no os-release: ENOENT");
	p = xasprintf("%s/usr/lib", root);
	bo_mkdir_p(p, &e);
	free(p);
	p = xasprintf("%s/etc", root);
	bo_mkdir_p(p, &e);
	free(p);
	put(root, "usr/lib/os-release", "ID=debian\nVERSION_CODENAME=trixie\n");
	tap_ok(os_release_read(root, &o) == 0 &&
	       eq(o.version_codename, "trixie"), "usr/lib/os-release fallback");
	os_release_release(&o);
	p = xasprintf("%s/etc/os-release", root);
	tap_ok(symlink("../usr/lib/os-release", p) == 0 &&
	       os_release_read(root, &o) == 0 &&
	       eq(o.version_codename, "trixie"),
	       "etc/os-release -> ../usr/lib/os-release");
	os_release_release(&o);
	unlink(p);
	/* An absolute symlink to the host's own file must resolve inside the
	 * rootfs (or not at all), never to the host. */
	put(root, "usr/lib/os-release", "ID=inside\n");
	tap_ok(symlink("/usr/lib/os-release", p) == 0 &&
	       os_release_read(root, &o) == 0 && eq(o.id, "inside"),
	       "absolute etc/os-release -> /usr/lib/os-release stays inside");
	os_release_release(&o);
	free(p);
	bo_rm_rf(root, &e);
	return tap_done();
}
