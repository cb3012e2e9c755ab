/* tests/bench/speed-loop.c - why the guest reads a few per cent above
 * `openssl speed -evp` at 16-byte buffers: the same EVP_EncryptUpdate
 * calls, timed in the guest's loop shape and in openssl speed's.
 *
 * Variants, all on one keyed context, 16-byte calls (AES-128-CBC, -CTR):
 *   guest      out of place (input and output buffers apart), a plain
 *              counted loop: what the guest's bulk mode times;
 *   inplace    the same loop with output = input (openssl speed encrypts
 *              its buffer in place);
 *   speed      in place, and the loop condition reads a volatile flag
 *              each call, as openssl speed's loop does (its alarm clears
 *              the flag);
 *   guest+vol  out of place with the volatile flag: the loop alone.
 * Each variant is timed in batches of about 1 ms, interleaved round by
 * round (so that a drift of the machine hits them alike), and the median
 * ns per call over the rounds is printed with its ratio to "speed".
 *
 * Build and run (pin it, under the machine's benchmark lock):
 *   cc -O2 -o speed-loop tests/bench/speed-loop.c -lcrypto
 *   taskset -c 1 ./speed-loop [ROUNDS]
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile int run_flag = 1;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One batch of N calls in variant V; returns ns. */
static double batch(EVP_CIPHER_CTX *ctx, int v, unsigned char *in,
		    unsigned char *out, long n)
{
	double t0 = now_ns();
	int outl;
	long i;

	switch (v) {
	case 0:
		for (i = 0; i < n; i++)
			EVP_EncryptUpdate(ctx, out, &outl, in, 16);
		break;
	case 1:
		for (i = 0; i < n; i++)
			EVP_EncryptUpdate(ctx, in, &outl, in, 16);
		break;
	case 2:
		for (i = 0; run_flag && i < n; i++)
			EVP_EncryptUpdate(ctx, in, &outl, in, 16);
		break;
	default:
		for (i = 0; run_flag && i < n; i++)
			EVP_EncryptUpdate(ctx, out, &outl, in, 16);
		break;
	}
	return now_ns() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "guest", "inplace", "speed",
					     "guest+vol" };
	static const char *const ciphers[] = { "AES-128-CBC", "AES-128-CTR" };
	int rounds = argc > 1 ? atoi(argv[1]) : 201;
	unsigned char key[16] = { 0 }, iv[16] = { 0 };
	unsigned char *in = aligned_alloc(64, 4096), *out = aligned_alloc(64, 4096);
	double *t = calloc((size_t)rounds * 4, sizeof(*t));

	memset(in, 0x5a, 4096);
	for (int c = 0; c < 2; c++) {
		EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
		const EVP_CIPHER *ci = EVP_get_cipherbyname(ciphers[c]);
		long n = 1000;
		double m[4];

		EVP_EncryptInit_ex(ctx, ci, NULL, key, iv);
		/* calibrate to about 1 ms */
		while (batch(ctx, 0, in, out, n) < 1e6)
			n *= 2;
		for (int r = 0; r < rounds; r++)
			for (int v = 0; v < 4; v++)
				t[v * rounds + r] = batch(ctx, v, in, out, n) / n;
		for (int v = 0; v < 4; v++) {
			qsort(t + v * rounds, (size_t)rounds, sizeof(*t), cmp);
			m[v] = t[v * rounds + rounds / 2];
		}
		for (int v = 0; v < 4; v++)
			printf("%s 16 B %-9s %7.3f ns/call  %6.1f MB/s  x%.3f of speed's MB/s\n",
			       ciphers[c], names[v], m[v], 16e3 / m[v],
			       m[2] / m[v]);
		EVP_CIPHER_CTX_free(ctx);
	}
	free(t);
	free(in);
	free(out);
	return 0;
}
