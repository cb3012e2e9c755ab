/* guest/place.c - where on the stack a timed block runs (see place.h). */
#include "compat.h"

#include <sys/personality.h>
#include <unistd.h>

#include "lib/shuffle.h"
#include "place.h"

uint32_t place_offset(uint64_t seed, unsigned algo, unsigned op,
		      bool oneshot, size_t len, unsigned round)
{
	struct shuffle_rng r;
	uint64_t x;

	/* each field through the mixer in turn: nearby points and rounds
	 * get unrelated offsets */
	shuffle_seed(&r, seed);
	x = shuffle_next(&r) ^ algo;
	shuffle_seed(&r, x);
	x = shuffle_next(&r) ^ ((uint64_t)op << 1 | (oneshot ? 1 : 0));
	shuffle_seed(&r, x);
	x = shuffle_next(&r) ^ (uint64_t)len;
	shuffle_seed(&r, x);
	x = shuffle_next(&r) ^ round;
	shuffle_seed(&r, x);
	return (uint32_t)(shuffle_next(&r) % (PLACE_SPAN / 16)) * 16;
}

/* Distinct seeds of the buffers' draws (any constants other than 0:
 * the first digits of pi and e in hexadecimal), so that they are
 * unrelated to the stack offset of the same round. */
#define PLACE_IN_SALT UINT64_C(0x243f6a8885a308d3)
#define PLACE_OUT_SALT UINT64_C(0xb7e151628aed2a6a)

uint32_t place_buffers(uint64_t seed, unsigned algo, unsigned op,
		       bool oneshot, size_t len, unsigned round)
{
	uint32_t in = place_offset(seed ^ PLACE_IN_SALT, algo, op, oneshot,
				   len, round) & ~63u;
	uint32_t out = place_offset(seed ^ PLACE_OUT_SALT, algo, op, oneshot,
				    len, round) & ~63u;

	return in | out << 16;
}

uint32_t place_in_offset(uint32_t packed)
{
	return (packed & 0xffffu) % PLACE_SPAN & ~63u;
}

uint32_t place_out_offset(uint32_t packed)
{
	return (packed >> 16) % PLACE_SPAN & ~63u;
}

__attribute__((noinline)) int place_call(uint32_t offset,
					 int (*fn)(void *), void *arg)
{
	/* the frame address is 16-byte aligned (x86-64 and AArch64 ABIs),
	 * and so is every size below: the stack pointer after the alloca
	 * is the frame address less a constant less PAD */
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	size_t pad = (size_t)((here - offset) & (PLACE_SPAN - 1)) &
		     ~(size_t)15;
	volatile unsigned char *p = __builtin_alloca(pad + 16);
	int rc;

	p[0] = 0;
	rc = fn(arg);
	/* the pad stays live across the call: no tail call, no early
	 * release of the frame */
	p[0] = (unsigned char)rc;
	return rc;
}

int place_fixed_layout(char **argv)
{
	int cur = personality(0xffffffff);

	if (cur < 0)
		return -1;
	if (cur & ADDR_NO_RANDOMIZE)
		return 0;
	if (personality((unsigned long)cur | ADDR_NO_RANDOMIZE) < 0)
		return -1;
	execv("/proc/self/exe", argv);
	personality((unsigned long)cur);	/* still here: as it was */
	return -1;
}
