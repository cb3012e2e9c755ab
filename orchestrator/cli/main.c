/* main.c - benchorch: dispatch to a subcommand from the command table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orchestrator/cli/cli.h"
#include "lib/util.h"

static const struct cmd_entry *const commands[] = {
	&cmd_run_entry,
	&cmd_results_entry,
	&cmd_runs_entry,
	&cmd_daemon_entry,
	&cmd_status_entry,
	&cmd_submit_entry,
	&cmd_cancel_entry,
	&cmd_images_entry,
	&cmd_compare_entry,
	&cmd_confirm_entry,
	&cmd_duet_entry,
	&cmd_report_entry,
	&cmd_export_entry,
	&cmd_merge_entry,
	&cmd_slurm_entry,
	&cmd_rebuild_entry,
	NULL,
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: benchorch COMMAND [OPTIONS]\n"
		"       benchorch --help | --version\n"
		"\n"
		"Benchmark the crypto libraries Linux distributions ship, inside a\n"
		"root filesystem of each distribution, and keep the results in SQLite.\n"
		"\n"
		"Commands:\n");
	for (i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(f, "\n'benchorch COMMAND --help' describes a command; see also benchorch(1).\n");
}

/* Flush stdout and turn a write error (e.g. a full disk or closed pipe)
 * into a failure, as results that were not written are not results. */
static int finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output");
		return rc ? rc : EXIT_FAILED;
	}
	return rc;
}

/* Run command CMD on ARGV (ARGC entries from its name): a command with an
 * option table gets them parsed into its options struct first. Returns
 * its exit status. */
static int run_command(const struct cmd_entry *cmd, int argc, char **argv)
{
	struct cmd_ctx ctx;
	void *opts;
	int first, rc;

	if (!cmd->options)
		return cmd->fn(argc, argv);
	opts = xcalloc(1, cmd->opts_size ? cmd->opts_size : 1);
	if (cmd->init)
		cmd->init(opts);
	rc = cli_parse(cmd, argc, argv, opts, &ctx, &first);
	if (rc == 0)
		rc = cmd->run(&ctx, opts, argc - first, argv + first);
	else if (rc < 0)
		rc = EXIT_OK;
	cli_ctx_release(&ctx);
	free(opts);
	return rc;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *cmd = NULL;
	size_t i;
	int j;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (i = 0; commands[i]; i++)
				if (strcmp(commands[i]->name, argv[2]) == 0) {
					cli_help(stdout, commands[i]);
					return finish(EXIT_OK);
				}
		}
		usage(stdout);
		return finish(EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("benchorch %s\n", PACKAGE_VERSION);
		return finish(EXIT_OK);
	}
	for (i = 0; commands[i]; i++)
		if (strcmp(commands[i]->name, argv[1]) == 0)
			cmd = commands[i];
	if (!cmd) {
		/* an option before any command: the only ones are --help and
		 * --version; the others belong to a command */
		char *names = xstrdup("");

		for (i = 0; commands[i]; i++) {
			char *t = xasprintf("%s %s", names, commands[i]->name);

			free(names);
			names = t;
		}
		cli_error("unknown %s '%s' (commands:%s)",
			  argv[1][0] == '-' ? "option (before a command)" :
			  "command", argv[1], names);
		free(names);
		return EXIT_USAGE;
	}
	for (j = 2; j < argc; j++) {
		if (strcmp(argv[j], "--") == 0)
			break;
		if (strcmp(argv[j], "--help") == 0 || strcmp(argv[j], "-h") == 0) {
			cli_help(stdout, cmd);
			return finish(EXIT_OK);
		}
	}
	if ((cmd->flags & CMD_NEEDS_ROOT) && geteuid() != 0) {
		cli_error("'%s' must be run as root: it builds root filesystems and starts containers",
			  cmd->name);
		return EXIT_ENV;
	}
	return finish(run_command(cmd, argc - 1, argv + 1));
}
