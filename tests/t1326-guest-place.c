/* t1326-guest-place - where a timed block runs on the stack
 * (guest/place.h): the function place_call runs sees the same stack
 * offset within its page for the same requested offset, from whatever
 * depth it is called (as from processes whose stacks start at other
 * random offsets), and another offset for another request; the offsets
 * place_offset draws are multiples of 16 below a page, the same for the
 * same seed, point and round, and spread over the page; the buffers'
 * offsets place_buffers draws are multiples of 64 below a page, the same
 * for the same seed, point and round, spread over the page, and the
 * input's and the output's are drawn apart from each other and from the
 * stack's. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "guest/place.h"
#include "tests/tap.h"

/* place_call's function: the page offset of a local of its own. */
static int where(void *arg)
{
	volatile unsigned char here = 0;

	*(uintptr_t *)arg = (uintptr_t)&here % PLACE_SPAN;
	return here;
}

/* place_call(OFFSET) from DEPTH frames of N bytes further down the
 * stack; the page offset the function saw. */
static __attribute__((noinline)) uintptr_t from_depth(unsigned depth,
						       size_t n,
						       uint32_t offset)
{
	volatile unsigned char pad[64];
	uintptr_t seen = 0;

	memset((void *)pad, 0, sizeof(pad));
	if (depth > 0) {
		unsigned char *p = __builtin_alloca(n);

		p[0] = pad[0];
		seen = from_depth(depth - 1, n, offset);
		p[0] = (unsigned char)seen;
		return seen + pad[1];
	}
	place_call(offset, where, &seen);
	return seen;
}

int main(void)
{
	uintptr_t a, b;
	int same = 1, distinct = 0, aligned = 1, repeat = 1;
	unsigned hist[16] = { 0 }, d, lo = 1000, hi = 0;

	a = from_depth(0, 16, 1024);
	for (d = 1; d < 12; d++) {
		b = from_depth(d, 16 * d + 48 * (d % 3), 1024);
		same = same && b == a;
	}
	tap_ok(same, "one requested offset, one page offset of the block's "
	       "frame, from 12 stack depths (%lu)", (unsigned long)a);
	for (uint32_t off = 0; off < PLACE_SPAN; off += 256) {
		b = from_depth(off % 5, 32, off);
		distinct += b != from_depth(0, 16, (off + 128) % PLACE_SPAN);
	}
	tap_ok(distinct == 16, "another offset, another placement (%d of 16)",
	       distinct);
	for (unsigned r = 0; r < 4096; r++) {
		uint32_t o = place_offset(7, 3, 1, r % 2, 16384, r);

		aligned = aligned && o % 16 == 0 && o < PLACE_SPAN;
		repeat = repeat && o == place_offset(7, 3, 1, r % 2, 16384, r);
		hist[o / 256]++;
	}
	for (d = 0; d < 16; d++) {
		lo = hist[d] < lo ? hist[d] : lo;
		hi = hist[d] > hi ? hist[d] : hi;
	}
	tap_ok(aligned, "the offsets are multiples of 16 below a page");
	tap_ok(repeat, "the same seed, point and round give the same offset");
	/* 4096 draws in 16 bins of 256: 256 each, sd 15.5; 5 sd either way */
	tap_ok(lo > 178 && hi < 334, "the offsets spread over the page "
	       "(16 bins of 256 bytes: %u to %u of 4096 draws)", lo, hi);
	tap_ok(place_offset(7, 3, 1, 0, 16384, 0) !=
	       place_offset(8, 3, 1, 0, 16384, 0) ||
	       place_offset(7, 3, 1, 0, 16384, 1) !=
	       place_offset(8, 3, 1, 0, 16384, 1),
	       "another seed, other offsets");
	{
		unsigned hin[16] = { 0 }, hout[16] = { 0 }, same_io = 0,
			 same_stack = 0, lo2 = 1000, hi2 = 0;
		int ok64 = 1, again = 1;

		for (unsigned r = 0; r < 4096; r++) {
			uint32_t pb = place_buffers(7, 3, 1, r % 2, 16384, r);
			uint32_t i = place_in_offset(pb);
			uint32_t o = place_out_offset(pb);

			ok64 = ok64 && i % 64 == 0 && o % 64 == 0 &&
			       i < PLACE_SPAN && o < PLACE_SPAN &&
			       pb == (i | o << 16);
			again = again &&
				pb == place_buffers(7, 3, 1, r % 2, 16384, r);
			same_io += i == o;
			same_stack += i == place_offset(7, 3, 1, r % 2,
							16384, r);
			hin[i / 256]++;
			hout[o / 256]++;
		}
		for (d = 0; d < 16; d++) {
			lo2 = hin[d] < lo2 ? hin[d] : lo2;
			lo2 = hout[d] < lo2 ? hout[d] : lo2;
			hi2 = hin[d] > hi2 ? hin[d] : hi2;
			hi2 = hout[d] > hi2 ? hout[d] : hi2;
		}
		tap_ok(ok64, "the buffers' offsets are multiples of 64 below "
		       "a page, packed input low, output high");
		tap_ok(again, "the same seed, point and round give the same "
		       "buffer offsets");
		tap_ok(lo2 > 178 && hi2 < 334, "the buffers' offsets spread "
		       "over the page (%u to %u of 4096 draws a bin)", lo2,
		       hi2);
		/* independent draws of 64 offsets agree 1 time in 64: 64 of
		 * 4096, sd 7.9; the stack's has 256, 16 of 4096 */
		tap_ok(same_io < 120 && same_stack < 60, "the input's, the "
		       "output's and the stack's offsets are drawn apart "
		       "(input = output %u, input = stack %u of 4096)",
		       same_io, same_stack);
	}
	return tap_done();
}
