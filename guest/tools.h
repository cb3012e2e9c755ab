/* guest/tools.h - `benchorch-guest tool`: time the rootfs's own
 * command-line encryption tools (openssl enc, gpg, age) on a file in a
 * tmpfs and print guest/PROTOCOL.md's tool lines ("Tool mode").
 */
#ifndef GUEST_TOOLS_H
#define GUEST_TOOLS_H

/* Run the tool mode with ARGC/ARGV (ARGV[0] is "tool", the options follow;
 * see guest/PROTOCOL.md "Tool mode" for them). Prints tool_hello, one
 * `tool` line per tool case, tool_result lines and tool_done on stdout,
 * the tools' own messages on stderr. Returns the process exit status: 0
 * after tool_done (also when a tool was absent or failed: that is
 * reported in its lines), 2 on a usage error (nothing on stdout), 1 when
 * the work directory could not be had or stdout failed. */
int guest_tools_main(int argc, char **argv);

/* Is FILE_A's content equal to FILE_B's (byte for byte, same length)?
 * Returns 1 equal, 0 different, -1 when either cannot be read (errno
 * set). Reads both in 1 MiB pieces; allocates and frees 2 MiB. */
int guest_tools_same_content(const char *file_a, const char *file_b);

#endif
