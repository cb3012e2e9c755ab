/* lib/exitcode.h - the exit statuses of every benchorch command
 * (documented in benchorch(1)). */
#ifndef BENCHORCH_EXITCODE_H
#define BENCHORCH_EXITCODE_H

/* Exit statuses (documented in benchorch(1)). */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,	/* the work ran but something in it failed */
	EXIT_USAGE = 2,		/* bad command line or unknown name */
	EXIT_ENV = 3,		/* not root, missing tool, unusable database */
	EXIT_REGRESSION = 4,	/* reserved: compare --fail-on-regression */
	EXIT_INTERRUPTED = 130,	/* 128 + SIGINT; SIGTERM gives 143 */
};

#endif
