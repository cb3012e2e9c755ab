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

int cli_input_file(const char *cmd, const char *path, const char *note)
{
	struct stat st;
	int fd, e;

	if (!path || !*path)
		return cli_usage_error(cmd, "an input file must not be empty");
	/* opened, not access(): the effective ids decide, as they will
	 * when the file is read; O_NONBLOCK: a FIFO does not block here */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		return cli_usage_error(cmd, "cannot read '%s': %s%s%s%s", path,
				       strerror(e), note ? " (" : "",
				       note ? note : "", note ? ")" : "");
	}
	e = fstat(fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	close(fd);
	if (e)
		return cli_usage_error(cmd, "cannot read '%s': %s%s%s%s", path,
				       strerror(e), note ? " (" : "",
				       note ? note : "", note ? ")" : "");
	return 0;
}
