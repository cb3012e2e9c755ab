/* tests/bench/regimes.c - how does this machine's speed move over seconds,
 * and does it move every kind of code alike?
 *
 * Four kernels, each timed in one batch per round in the thread's CPU
 * time (the guest's clock), round after round for a few seconds:
 *   canary     the guest's contention canary (guest/canary.c: xorshift64
 *              steps, each reading and updating one word of a 32 KiB
 *              table): loads and stores, each step on the one before;
 *   ctr        AES-128-CTR over 16 KiB, EVP_EncryptUpdate: AES-NI rounds
 *              of independent blocks, bound by the AES unit's throughput;
 *   cbc        AES-128-CBC encryption over 16 KiB: each block waits for
 *              the one before, bound by the AES unit's latency;
 *   sha256-16  EVP_Digest-like init/update/final of 16 bytes on one
 *              context: short calls, branches and call overhead;
 * and three more reference kernels that need no library (compiler
 * intrinsics and one inline instruction), candidates for a canary
 * matched to a kind of code:
 *   aes-lat    AESENC rounds on one block, each on the one before (the
 *              AES unit's latency, as CBC encryption);
 *   aes-thr    AESENC rounds on eight independent blocks (its
 *              throughput, as CTR);
 *   add-chain  dependent register adds: the core's clock, as
 *              guest/cpuclock.c measures it.
 * Rounds are grouped in blocks of BLOCK rounds (about 0.1 s); per kernel
 * it prints each block's median relative to the kernel's median over all
 * blocks, the coefficient of variation of the block medians, and the
 * correlation of each kernel's block medians with the canary's.
 *
 * What it showed here (2-core KVM guest, two traces an hour apart): the
 * whole core slows for spans of 0.2 s to over 7 s and then recovers, with
 * no process of this machine running and no steal time accounted -
 * another tenant on the host's core. In the first trace the canary ran up
 * to 60 % slower, AES-CTR 30 %, SHA-256 of 16 B 66 %, and AES-CBC
 * encryption (latency-bound) hardly at all (correlation with the canary
 * 0.94, 0.95 and 0.25); in the second, quieter, the canary up to 22 %,
 * SHA-256 of 16 B up to 52 %, CBC 3 % (correlations 0.93, 0.90, 0.73).
 * So no single reference kernel can correct every curve for it, and a
 * point measured within a few milliseconds lands in whichever span is
 * current: only measurements spread over seconds (rounds, runs) average
 * it out. A third trace, 4 minutes long (40000 rounds), and
 * tests/bench/spread.py on it: spans of a minute and more; spreading alone
 * (the median of 5 blocks 15 s apart) leaves 0.66-0.76 of the coefficient
 * of variation of a one-second mean, and only spreading with each block
 * corrected by the canary (its slope fitted per kernel: 0.40 for CBC, 1.06
 * for CTR, 2.33 for SHA-256 of 16 B) comes to 0.3-0.43 (3 blocks 30 s
 * apart).
 *
 * Two traces of 60000 rounds (4.5 minutes each) with the three extra
 * kernels, idle machine, and tests/bench/spread.py on them: a quiet one
 * (the one-second mean's CV 1.2-1.8 %; printed at two decimals, so its
 * smallest figures are coarse) and one where the core clock
 * moved (add-chain up to 2.3 times slower; its one-second mean's CV
 * 13 %). The class-matched references help the code they match: taking
 * add-chain's share out of SHA-256 of 16 B left 0.06-0.26 of its
 * one-second CV, the AES throughput kernel's out of CTR 0.46-0.62 (5 and
 * 3 blocks 15 s apart). AES-CBC is the exception: it drifted by 3 % for a
 * minute in the quiet trace while no reference moved by 0.5 %, its block
 * times correlate at most 0.73 with any reference, and no estimator or
 * correction brought it below 0.87 of the one-second CV in either trace.
 * The slopes here are fitted on the whole trace: the best case, which a
 * tool fitting on its own history can only approach.
 *
 * Build and run (pin it, under the machine's benchmark lock):
 *   cc -O2 -o regimes tests/bench/regimes.c -lcrypto -lm
 *   taskset -c 1 ./regimes [ROUNDS [all]]   (default 3000, about 18 s)
 * It prints the first 60 blocks of each kernel, every block with "all"
 * (four decimals: a block's median moves by less than 1 % when quiet),
 * and the trace's length in wall-clock seconds (for tests/bench/spread.py,
 * which asks how stable an estimate spread over time would be).
 */
#include <math.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wmmintrin.h>
#include <emmintrin.h>

#define NK 7
#define BLOCK 16

static const char *const names[NK] = { "canary", "ctr", "cbc", "sha256-16",
					"aes-lat", "aes-thr", "add-chain" };

/* AESENC rounds on one block, each on the one before: bound by the AES
 * unit's latency, as CBC encryption is. Returns a value that depends on
 * every round. Compiler intrinsics (wmmintrin.h), no library. */
__attribute__((target("aes,sse2"), noinline))
static uint64_t aes_latency(uint64_t seed, int n)
{
	__m128i s = _mm_set_epi64x((long long)seed, 1), k = _mm_set1_epi32(7);

	for (int i = 0; i < n; i++)
		s = _mm_aesenc_si128(s, k);
	return (uint64_t)_mm_cvtsi128_si64(s);
}

/* AESENC rounds on eight independent blocks: bound by the AES unit's
 * throughput, as CTR mode is. N rounds per block. */
__attribute__((target("aes,sse2"), noinline))
static uint64_t aes_throughput(uint64_t seed, int n)
{
	__m128i s[8], k = _mm_set1_epi32(7);

	for (int j = 0; j < 8; j++)
		s[j] = _mm_set_epi64x((long long)seed, j);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 8; j++)
			s[j] = _mm_aesenc_si128(s[j], k);
	for (int j = 1; j < 8; j++)
		s[0] = _mm_xor_si128(s[0], s[j]);
	return (uint64_t)_mm_cvtsi128_si64(s[0]);
}

/* A chain of dependent register adds (one core cycle each): the core's
 * clock, as guest/cpuclock.c measures it. Y is read through a volatile so
 * that the compiler cannot fold the chain. */
__attribute__((noinline))
static uint64_t add_chain(uint64_t x, int n)
{
	volatile uint64_t vy = 3;
	uint64_t y = vy;

	for (int i = 0; i < n; i++)
		__asm__ volatile("add %1, %0" : "+r"(x) : "r"(y));
	return x;
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s)), m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static double mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static double sd(const double *v, size_t n)
{
	double m = mean(v, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)n);
}

static double corr(const double *a, const double *b, size_t n)
{
	double ma = mean(a, n), mb = mean(b, n), sab = 0, saa = 0, sbb = 0;

	for (size_t i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[16384], key[16], iv[16], md[32];
	static uint64_t table[4096];
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 3000;
	size_t show = argc > 2 && !strcmp(argv[2], "all") ? (size_t)-1 : 60;
	struct timespec w0, w1;
	EVP_CIPHER_CTX *ctr = EVP_CIPHER_CTX_new(), *cbc = EVP_CIPHER_CTX_new();
	EVP_MD_CTX *mdc = EVP_MD_CTX_new();
	const EVP_MD *sha = EVP_sha256();
	uint64_t x = 88172645463325252ULL, acc = 0;
	double *t[NK], *blk[NK];
	size_t nb;
	int outl;

	if (rounds < BLOCK * 4 || rounds > 1000000 || !ctr || !cbc || !mdc ||
	    EVP_EncryptInit_ex(ctr, EVP_aes_128_ctr(), NULL, key, iv) != 1 ||
	    EVP_EncryptInit_ex(cbc, EVP_aes_128_cbc(), NULL, key, iv) != 1) {
		fprintf(stderr, "usage: regimes [ROUNDS >= %d]\n", BLOCK * 4);
		return 2;
	}
	nb = (size_t)rounds / BLOCK;
	for (int k = 0; k < NK; k++) {
		t[k] = calloc((size_t)rounds, sizeof(double));
		blk[k] = calloc(nb, sizeof(double));
	}
	clock_gettime(CLOCK_MONOTONIC, &w0);
	for (long r = 0; r < rounds; r++) {
		double t0 = cpu_ns(), t1, t2, t3, t4, t5, t6, t7;

		for (int i = 0; i < 100000; i++) {
			uint64_t *w;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			w = &table[(x ^ acc) & 4095];
			*w += x;
			acc += *w >> 3;
		}
		t1 = cpu_ns();
		for (int i = 0; i < 200; i++)
			EVP_EncryptUpdate(ctr, buf, &outl, buf, sizeof(buf));
		t2 = cpu_ns();
		for (int i = 0; i < 40; i++)
			EVP_EncryptUpdate(cbc, buf, &outl, buf, sizeof(buf));
		t3 = cpu_ns();
		for (int i = 0; i < 10000; i++) {
			unsigned l;

			EVP_DigestInit_ex(mdc, sha, NULL);
			EVP_DigestUpdate(mdc, buf, 16);
			EVP_DigestFinal_ex(mdc, md, &l);
		}
		t4 = cpu_ns();
		acc += aes_latency(x, 100000);
		t5 = cpu_ns();
		acc += aes_throughput(x, 25000);
		t6 = cpu_ns();
		acc += add_chain(x, 300000);
		t7 = cpu_ns();
		t[4][r] = t5 - t4;
		t[5][r] = t6 - t5;
		t[6][r] = t7 - t6;
		t[0][r] = t1 - t0;
		t[1][r] = t2 - t1;
		t[2][r] = t3 - t2;
		t[3][r] = t4 - t3;
	}
	for (int k = 0; k < NK; k++) {
		double m;

		for (size_t b = 0; b < nb; b++)
			blk[k][b] = median(t[k] + b * BLOCK, BLOCK);
		m = median(blk[k], nb);
		for (size_t b = 0; b < nb; b++)
			blk[k][b] /= m;
	}
	clock_gettime(CLOCK_MONOTONIC, &w1);
	printf("%zu blocks of %d rounds in %.1f s; a block's median time / the kernel's median block (1.20 = 20 %% slower)\n",
	       nb, BLOCK, (double)(w1.tv_sec - w0.tv_sec) +
	       (double)(w1.tv_nsec - w0.tv_nsec) / 1e9);
	for (int k = 0; k < NK; k++) {
		double lo = blk[k][0], hi = blk[k][0];

		for (size_t b = 0; b < nb; b++) {
			lo = blk[k][b] < lo ? blk[k][b] : lo;
			hi = blk[k][b] > hi ? blk[k][b] : hi;
		}
		printf("%-10s cv %5.1f %%  range %.2f .. %.2f  corr with canary %+.2f\n",
		       names[k], 100 * sd(blk[k], nb) / mean(blk[k], nb), lo,
		       hi, corr(blk[0], blk[k], nb));
	}
	for (int k = 0; k < NK; k++) {
		printf("%-10s", names[k]);
		for (size_t b = 0; b < nb && b < show; b++)
			printf(" %.4f", blk[k][b]);
		printf("\n");
	}
	EVP_CIPHER_CTX_free(ctr);
	EVP_CIPHER_CTX_free(cbc);
	EVP_MD_CTX_free(mdc);
	return (int)(acc & 0);
}
