/* guest/turns.h - take turns with another guest (--duet): two guests,
 * each measuring its own image, hold a token in turn, so that only one of
 * them measures at any moment and the two measure the same point within
 * milliseconds of each other (DESIGN.md, "Compare side by side";
 * guest/PROTOCOL.md, "Duet").
 *
 * The token comes on stdin: one byte is one turn. The guest reads a byte
 * before it does any work, and at the end of every turn it prints a
 * `turn` line and reads the next byte. End of file on stdin (the other
 * guest is done, or no duet at all: stdin is /dev/null) ends the turns:
 * from then on the guest runs freely. The orchestrator hands the token
 * on: it reads the `turn` line of one guest and writes the byte to the
 * other's stdin. */
#ifndef GUEST_TURNS_H
#define GUEST_TURNS_H

#include <stdbool.h>
#include <stdint.h>

/* Start taking turns when ON (--duet), else do nothing: wait for the
 * first byte on stdin. Call once, after `hello`. */
void turns_start(bool on);

/* The end of a turn, when taking turns: print the `turn` line (its
 * number, from 1) and wait for the next byte on stdin; nothing otherwise.
 * Exits with status 1 when stdout is gone (check_emit). */
void turns_pass(void);

/* The turns ended so far (the `turn` lines printed). */
uint64_t turns_count(void);

#endif /* GUEST_TURNS_H */
