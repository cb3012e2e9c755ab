/* spool.c - a guest invocation's output kept on disk (see spool.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/spool.h"

FILE *spool_open(bo_err *err)
{
	FILE *f = tmpfile();

	if (!f)
		bo_err_set(err, "cannot create a temporary file: %s",
			   strerror(errno));
	return f;
}

int spool_add(FILE *spool, const char *line, size_t len, bo_err *err)
{
	if (fwrite(line, 1, len, spool) != len || putc('\n', spool) == EOF)
		return bo_err_set(err, "cannot write a temporary file: %s",
				  strerror(errno));
	return 0;
}

void spool_shrink(struct guest_output *out)
{
	int64_t start = out->clock_start_hz, end = out->clock_end_hz;
	int64_t host = out->host_elapsed_ns;

	guest_output_release(out);
	guest_output_init(out);
	out->clock_start_hz = start;
	out->clock_end_hz = end;
	out->host_elapsed_ns = host;
}

int spool_load(FILE *spool, int64_t host_elapsed_ns, struct guest_output *out,
	       bo_err *err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;

	guest_output_init(out);
	if (fflush(spool) != 0 || fseek(spool, 0, SEEK_SET) != 0)
		return bo_err_set(err, "cannot read a temporary file: %s",
				  strerror(errno));
	while ((n = getline(&line, &cap, spool)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		if (guest_output_add_line(out, line, (size_t)n, ++lineno,
					  err) < 0)
			goto fail;
	}
	if (ferror(spool)) {
		bo_err_set(err, "cannot read a temporary file: %s",
			   strerror(errno));
		goto fail;
	}
	if (guest_output_finish(out, err) < 0)
		goto fail;
	out->host_elapsed_ns = host_elapsed_ns;
	free(line);
	return 0;
fail:
	free(line);
	guest_output_release(out);
	guest_output_init(out);
	return -1;
}
