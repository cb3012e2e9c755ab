/* tool-output.h - read and check what `benchorch-guest tool` prints
 * (guest/PROTOCOL.md "Tool mode"): untrusted input, every line checked. */
#ifndef BENCHORCH_TOOL_OUTPUT_H
#define BENCHORCH_TOOL_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "db/tools.h"
#include "lib/util.h"

/* A `tool` line: one case (a tool and a cipher) and whether the rootfs
 * has the tool. Strings owned by the struct. */
struct tool_case_out {
	char *name, *tool, *cipher;
	int present;		/* 0: absent from the rootfs */
	char *version;		/* as the tool states it; "" when unknown */
	char *hwf_hw, *hwf_nohw;	/* gpg: libgcrypt's hwflist per variant;
					 * NULL when not reported */
};

/* A `tool_result` line: one case, direction and variant. */
struct tool_result_out {
	size_t case_index;	/* into tool_output.cases */
	char *direction;	/* "encrypt" or "decrypt" */
	char *variant;		/* "hw" or "nohw" */
	int verified;		/* every round trip restored the input */
	char *message;		/* why not; NULL when verified */
	size_t nsamples;
	struct db_tool_sample *samples;
};

struct tool_output {
	int have_hello, have_done;
	uint64_t bytes;		/* input size, bytes */
	uint64_t repetitions;
	size_t lines;
	struct tool_case_out *cases;
	size_t ncases;
	struct tool_result_out *results;
	size_t nresults;
	uint64_t elapsed_ns;	/* the guest's own, from tool_done */
};

void tool_output_init(struct tool_output *out);
void tool_output_release(struct tool_output *out);

/* Check one line LINE (LEN bytes, no newline) and add it to OUT. Lines
 * come in protocol order: tool_hello first, `tool` lines before the
 * results of their case, tool_done last. A verified result has exactly
 * `repetitions` samples of wall time > 0; an unverified one a message.
 * Returns 0, or -1 with err set ("tool output line N: ...") on a line
 * that breaks the protocol. */
int tool_output_add_line(struct tool_output *out, const char *line,
			 size_t len, bo_err *err);

/* After the last line: did the output end with tool_done? Returns 0, or
 * -1 with err set. */
int tool_output_finish(const struct tool_output *out, bo_err *err);

#endif
