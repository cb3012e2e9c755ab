/* cmd-status.c - `benchorch status`: ask the daemon what it is doing. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"
#include "lib/format.h"

static const char usage[] =
"Usage: benchorch status [--format table|json] [--socket PATH |\n"
"                        --config FILE | --state-dir DIR]\n"
"\n"
"Show what the daemon is doing: the current run and its progress, the\n"
"queue, when each schedule runs next and how the last run ended, with\n"
"the package versions that changed since the previous run (the first few;\n"
"the database's package_changes_v view has them all), the newest run in\n"
"the database, a manual `benchorch run` included, and the last verdict the\n"
"daemon kept: its last run judged curve by curve against the run before\n"
"it (as `benchorch compare` does), with the largest changes. Times are\n"
"local, with their UTC offset; in JSON they are in UTC.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 answered; 2 usage error, or a --config FILE that cannot be\n"
"read; 3 no daemon answers at the socket, or no permission to use it (root\n"
"and the daemon's user only).\n";

struct status_opts {
	int as_json;		/* --json or --format json, the last one given */
	struct control_cli cc;
};

/* --format FORMAT: table or json, into the int as_json (1 for json). The
 * names every command takes; csv has no place for the reply's nested
 * lists. */
static int parse_format(const char *arg, void *dest, bo_err *err)
{
	enum format fmt;

	if (format_parse(arg, &fmt, err) < 0 || fmt == FORMAT_CSV) {
		bo_err_set(err, "--format takes table or json (not '%s')", arg);
		return -1;
	}
	*(int *)dest = fmt == FORMAT_JSON;
	return 0;
}

static const struct opt_def options[] = {
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct status_opts, as_json),
	  .parse = parse_format,
	  .help = "table (default) or json: the daemon's reply as\n"
		  "it sent it" },
	{ .name = "json", .kind = OPT_FLAG,
	  .offset = offsetof(struct status_opts, as_json),
	  .help = "the same as --format json" },
	{ .kind = OPT_GROUP, .group = control_cli_options,
	  .offset = offsetof(struct status_opts, cc) },
	{ .kind = OPT_END },
};

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static long long num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* The UTC time "YYYY-MM-DDTHH:MM:SSZ" of member KEY of O as local time
 * with its offset ("2026-10-25 02:30:00 +0200"); as given when it is not
 * such a time, "" when missing. The buffer is static, one per slot 0-3. */
static const char *local(json_t *o, const char *key, int slot)
{
	static char buf[4][48];
	const char *s = str(o, key);
	struct tm tm;
	time_t t;
	char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || (*end != 'Z' && strcmp(end, ".000Z") != 0))
		return s;
	t = timegm(&tm);
	if (!localtime_r(&t, &tm) ||
	    !strftime(buf[slot], sizeof(buf[slot]), "%Y-%m-%d %H:%M:%S %z", &tm))
		return s;
	return buf[slot];
}

static void print_job(const char *label, json_t *j)
{
	const char *libs = json_string_value(json_object_get(j, "libs"));

	printf("%-10s job %lld: %s%s%s, distros %s%s%s%s\n", label,
	       num(j, "id"), str(j, "origin"),
	       *str(j, "schedule") ? " " : "", str(j, "schedule"),
	       str(j, "distros"), libs ? ", libs " : "", libs ? libs : "",
	       json_is_true(json_object_get(j, "quick")) ? ", quick" : "");
}

/* The string member KEY of O, or NONE when it is null or missing (a
 * package new or gone: "(none)", "(removed)"). */
static const char *ver(json_t *o, const char *key, const char *none)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : none;
}

/* The changed packages the daemon kept of the last run (the first few),
 * one per line, and how many more there are. */
static void print_changes(json_t *last)
{
	json_t *a = json_object_get(last, "changed_packages"), *c;
	long long total = num(last, "package_changes");
	size_t i;

	json_array_foreach(a, i, c)
		printf("           %s %s %s -> %s\n", str(c, "spec"),
		       str(c, "package"), ver(c, "old_version", "(none)"),
		       ver(c, "new_version", "(removed)"));
	if (total > (long long)json_array_size(a))
		printf("           and %lld more (package_changes_v of run %lld in the database)\n",
		       total - (long long)json_array_size(a), num(last, "run_id"));
}

/* The daemon's last verdict (run against the previous run), with its
 * largest changes. */
static void print_verdict(json_t *v)
{
	json_t *c;
	size_t i;

	if (!json_is_object(v))
		return;
	printf("verdict:   run %lld against run %lld: %lld curves, %lld changed"
	       " (%lld confirmed regression%s), %lld flagged\n",
	       num(v, "new_run"), num(v, "base_run"), num(v, "curves"),
	       num(v, "changed"), num(v, "confirmed_regressions"),
	       num(v, "confirmed_regressions") == 1 ? "" : "s", num(v, "flagged"));
	json_array_foreach(json_object_get(v, "changed_curves"), i, c) {
		double e = json_real_value(json_object_get(c, "effect"));

		printf("           %s %s %s %s %s: %+.1f %% [%+.1f, %+.1f], %s; %s %s -> %s\n",
		       str(c, "distro"), str(c, "library"), str(c, "algorithm"),
		       str(c, "operation"), str(c, "mode"), 100 * e,
		       100 * json_real_value(json_object_get(c, "ci_low")),
		       100 * json_real_value(json_object_get(c, "ci_high")),
		       str(c, "state"), str(c, "package"), str(c, "base_version"),
		       str(c, "new_version"));
	}
}

static void print_status(json_t *r)
{
	json_t *j, *v;
	size_t i;

	printf("daemon:    pid %lld, %s, config %s\n", num(r, "pid"),
	       str(r, "state"), str(r, "config"));
	j = json_object_get(r, "job");
	if (j) {
		print_job("current:", j);
		printf("           started %s, ", local(j, "started_at", 0));
		/* no run id and no progress until the job holds the run lock
		 * and has opened its run */
		if (strcmp(str(r, "state"), "waiting") == 0)
			printf("waiting for the run lock: another run holds it");
		else if (num(j, "run_id") < 0)
			printf("preparing: no run opened yet");
		else
			printf("run %lld, %lld of %lld guest runs done",
			       num(j, "run_id"), num(j, "done"),
			       num(j, "total"));
		if (num(j, "run_id") >= 0 && *str(j, "current"))
			printf(", now %s (round %lld of %lld)", str(j, "current"),
			       num(j, "round"), num(j, "rounds"));
		putchar('\n');
	}
	json_array_foreach(json_object_get(r, "queue"), i, v)
		print_job("queued:", v);
	json_array_foreach(json_object_get(r, "schedules"), i, v)
		printf("schedule:  %s next %s%s%s\n", str(v, "name"),
		       local(v, "next", 0), *str(v, "last") ? ", last " : "",
		       local(v, "last", 1));
	j = json_object_get(r, "last");
	if (j) {
		print_job("last:", j);
		/* a cancelled job has no exit status of its own (exit -1) */
		printf("           %s", str(j, "status"));
		if (num(j, "exit") >= 0)
			printf(" (exit %lld)", num(j, "exit"));
		printf(", run %lld, finished %s", num(j, "run_id"),
		       local(j, "finished_at", 0));
		if (num(j, "package_changes") >= 0)
			printf(", %lld package change%s", num(j, "package_changes"),
			       num(j, "package_changes") == 1 ? "" : "s");
		putchar('\n');
		print_changes(j);
	}
	j = json_object_get(r, "latest_run");
	if (json_is_object(j))
		printf("database:  newest run %lld, %s, started %s: %s\n",
		       num(j, "id"), str(j, "status"), local(j, "started_at", 0),
		       str(j, "command_line"));
	if (*str(r, "database_error"))
		printf("database:  cannot read it: %s\n", str(r, "database_error"));
	print_verdict(json_object_get(r, "last_verdict"));
}

static int cmd_status(const struct cmd_ctx *ctx, void *opts, int argc,
		      char **argv)
{
	const struct status_opts *o = opts;
	json_t *reply;
	int rc;

	(void)ctx;
	(void)argc;
	(void)argv;
	rc = control_cli_call("status", &o->cc,
			      json_pack("{s:s}", "type", "status"),
			      &reply);
	if (rc)
		return rc;
	if (o->as_json) {
		json_dumpf(reply, stdout, JSON_INDENT(2) | JSON_SORT_KEYS |
				   FORMAT_JSON_REAL);
		putchar('\n');
	} else {
		print_status(reply);
	}
	json_decref(reply);
	return EXIT_OK;
}

const struct cmd_entry cmd_status_entry = {
	.name = "status",
	.summary = "show what the daemon is doing",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct status_opts),
	.max_args = 0,
	.run = cmd_status,
};
