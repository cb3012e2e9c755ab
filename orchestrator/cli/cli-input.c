/* cli-input.c - an input file named on a command line is checked before
 * the command does anything with it: one message and one exit status
 * (a usage error) in every command that reads such a file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "orchestrator/cli/cli.h"

/* Why PATH cannot be read as an input file: an errno, or 0 when it can
 * (opened, not access(): the effective ids decide, as they will when the
 * file is read; O_NONBLOCK: a FIFO does not block here). */
static int input_errno(const char *path)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno;
	e = fstat(fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	close(fd);
	return e;
}

int cli_input_file(const char *cmd, const char *path, const char *note)
{
	int e;

	if (!path || !*path)
		return cli_usage_error(cmd, "an input file must not be empty");
	e = input_errno(path);
	if (e)
		return cli_usage_error(cmd, "cannot read '%s': %s%s%s%s", path,
				       strerror(e), note ? " (" : "",
				       note ? note : "", note ? ")" : "");
	return 0;
}

int cli_input_file_nofollow(const char *cmd, const char *path)
{
	struct stat st;

	if (path && *path && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return cli_usage_error(cmd, "cannot read '%s': it is a symbolic "
				       "link (name the file itself)", path);
	return cli_input_file(cmd, path, NULL);
}

int cli_input_files(const char *cmd, int n, char *const *paths,
		    const char *note)
{
	int i, e, last = -1;

	/* the last one that cannot be read carries the --help hint */
	for (i = 0; i < n; i++)
		if (!paths[i] || !*paths[i] || input_errno(paths[i]))
			last = i;
	for (i = 0; i < last; i++) {
		if (!paths[i] || !*paths[i])
			cli_cmd_error(cmd, "an input file must not be empty");
		else if ((e = input_errno(paths[i])))
			cli_cmd_error(cmd, "cannot read '%s': %s%s%s%s",
				      paths[i], strerror(e), note ? " (" : "",
				      note ? note : "", note ? ")" : "");
	}
	if (last < 0)
		return 0;
	if (cli_input_file(cmd, paths[last], note) == 0)
		/* it became readable in between: said as it was */
		return cli_usage_error(cmd, "cannot read '%s'", paths[last]);
	return EXIT_USAGE;
}
