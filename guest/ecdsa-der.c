/* guest/ecdsa-der.c - ECDSA P-256 signatures between r || s and DER (see
 * ecdsa-der.h). */
#include "compat.h"

#include <string.h>

#include "ecdsa-der.h"

/* Write the 32-byte big-endian unsigned V as a DER INTEGER at OUT
 * (minimal: leading zeros dropped, a 0x00 added when the top bit is set,
 * at least one byte). Returns the bytes written (3 .. 35). */
static size_t put_int(const uint8_t *v, uint8_t *out)
{
	size_t i = 0, n;

	while (i < 31 && v[i] == 0)
		i++;
	n = 32 - i;
	out[0] = 0x02;
	if (v[i] & 0x80) {
		out[1] = (uint8_t)(n + 1);
		out[2] = 0;
		memcpy(out + 3, v + i, n);
		return n + 3;
	}
	out[1] = (uint8_t)n;
	memcpy(out + 2, v + i, n);
	return n + 2;
}

size_t ecdsa_rs_to_der(const uint8_t *rs, uint8_t *der)
{
	size_t n = put_int(rs, der + 2);

	n += put_int(rs + 32, der + 2 + n);
	der[0] = 0x30;
	der[1] = (uint8_t)n;
	return n + 2;
}

/* Read a DER INTEGER at *P (below END) into the 32 bytes of OUT,
 * advancing *P. Returns 0, or -1 when it is not a non-negative INTEGER
 * of at most 32 significant bytes. */
static int get_int(const uint8_t **p, const uint8_t *end, uint8_t *out)
{
	const uint8_t *q = *p;
	size_t n;

	if (end - q < 2 || q[0] != 0x02 || q[1] > 33 ||
	    (size_t)(end - q - 2) < q[1] || q[1] == 0 || (q[2] & 0x80))
		return -1;
	n = q[1];
	q += 2;
	*p = q + n;
	while (n > 0 && *q == 0) {
		q++;
		n--;
	}
	if (n > 32)
		return -1;
	memset(out, 0, 32 - n);
	memcpy(out + 32 - n, q, n);
	return 0;
}

int ecdsa_der_to_rs(const uint8_t *der, size_t len, uint8_t *rs)
{
	const uint8_t *p = der + 2, *end = der + len;

	if (len < 2 || der[0] != 0x30 || der[1] != len - 2 ||
	    get_int(&p, end, rs) != 0 || get_int(&p, end, rs + 32) != 0)
		return -1;
	return p == end ? 0 : -1;
}
