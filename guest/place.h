/* guest/place.h - where on the stack a timed block runs. A process's
 * stack starts at a random offset within its page (address space layout
 * randomisation: Linux moves the initial stack pointer by up to 8 KiB, in
 * 16-byte steps), and that offset, fixed for the life of the process,
 * sets how a library's stack buffers and locals fall against the input
 * and output buffers modulo 4 KiB (4K aliasing of loads and stores) and
 * against the cache's sets. One process of a library can so be faster or
 * slower than another of the same image by tens of per cent (Mytkowicz
 * et al., "Producing wrong data without doing anything obviously wrong!",
 * ASPLOS 2009; Curtsinger and Berger, "STABILIZER: statistically sound
 * performance evaluation", ASPLOS 2013).
 *
 * So a block runs with the stack pointer at an offset within the page
 * that place_offset draws per point and round: the same in every process
 * given the same seed (the two guests of a duet, the libraries of one
 * round share it and the placement cancels in their pairs), another in
 * each round (a figure is an average over placements, not one process's
 * luck). */
#ifndef GUEST_PLACE_H
#define GUEST_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The seed of the placements without --seed (any fixed value: the same
 * placements in every invocation then). */
#define PLACE_SEED UINT64_C(0x6a09e667)

/* The span the offsets cover, bytes: one page. */
#define PLACE_SPAN 4096u

/* The stack offset of round ROUND of a point (ALGO, OP, ONESHOT, LEN
 * bytes) under SEED: a multiple of 16 below PLACE_SPAN, drawn by
 * SplitMix64 (lib/shuffle.h) from all of them. */
uint32_t place_offset(uint64_t seed, unsigned algo, unsigned op,
		      bool oneshot, size_t len, unsigned round);

/* The offsets, bytes, of round ROUND's input and output buffers of the
 * same point under SEED within their page, each a multiple of 64 (a
 * cache line: the alignment the libraries see stays the same) below
 * PLACE_SPAN, drawn apart from each other and from the stack offset.
 * Returned packed: the input's in the low 16 bits, the output's in the
 * high 16 (place_in_offset, place_out_offset take them apart). How the
 * output falls against the input, the library's context and its tables
 * modulo 4 KiB decides whether their loads and stores alias; drawn per
 * round, a figure is an average over these placements too. */
uint32_t place_buffers(uint64_t seed, unsigned algo, unsigned op,
		       bool oneshot, size_t len, unsigned round);

/* The input's offset, bytes, of place_buffers' PACKED. */
uint32_t place_in_offset(uint32_t packed);

/* The output's offset, bytes, of place_buffers' PACKED. */
uint32_t place_out_offset(uint32_t packed);

/* Call FN(ARG) with the stack pointer moved down so that it lies at
 * OFFSET (a multiple of 16 below PLACE_SPAN) within its page, up to a
 * constant of this code's own frames: the same OFFSET gives the same
 * placement in every process. Returns what FN returns. */
int place_call(uint32_t offset, int (*fn)(void *), void *arg);

/* Make this process's address space layout the same in every run: when
 * it is randomised (ASLR), turn randomisation off for this process
 * (personality(2) ADDR_NO_RANDOMIZE) and execute ARGV again through
 * /proc/self/exe, so that the libraries, the heap and the stack start at
 * the same addresses in every guest of the same image (the two guests of
 * a duet then differ only where their images do). The guest runs only
 * its own fixed inputs through the libraries, so the hardening ASLR
 * gives is not needed here. Returns only when the layout is fixed
 * already (0) or cannot be (-1: personality refused, or no
 * /proc/self/exe; the process goes on as it is). */
int place_fixed_layout(char **argv);

#endif /* GUEST_PLACE_H */
