/* guest/turns.c - take turns with another guest (see turns.h). */
#include "compat.h"

#include <errno.h>
#include <unistd.h>

#include "emit.h"
#include "measure.h"
#include "turns.h"

static bool taking;	/* --duet, and stdin has not ended */
static uint64_t ended;	/* turn lines printed */

/* Wait for one byte of token on stdin; at its end of file (or an error)
 * stop taking turns. */
static void take(void)
{
	char c;

	for (;;) {
		ssize_t n = read(0, &c, 1);

		if (n == 1)
			return;
		if (n < 0 && errno == EINTR)
			continue;
		taking = false;
		return;
	}
}

void turns_start(bool on)
{
	taking = on;
	if (taking)
		take();
}

void turns_pass(void)
{
	if (!taking)
		return;
	ended++;
	check_emit(emit_turn(ended));
	take();
}

uint64_t turns_count(void)
{
	return ended;
}
