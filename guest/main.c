/* guest/main.c - benchorch-guest: benchmark the crypto libraries of the
 * rootfs it runs in and print guest/PROTOCOL.md lines on stdout.
 *
 * Exit status: 0 after printing `done`; 2 on a usage error (nothing is
 * printed on stdout then); 1 on any other failure.
 */
#include "compat.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "algo.h"
#include "backend.h"
#include "bench.h"
#include "cpuclock.h"
#include "emit.h"
#include "canary.h"
#include "hwmask.h"
#include "kat.h"
#include "rusage.h"
#include "lib/shuffle.h"
#include "tools.h"

#ifndef GUEST_VERSION
#define GUEST_VERSION "unknown"
#endif

/* Defaults (full run / --quick). A full run measures ~1.2 x 10^4 points
 * (10 libraries x 32 algorithms x 17 sizes x 2 directions x 2 modes, fewer
 * for what a library lacks), each in two guest invocations
 * (orchestrator/run/plan.h), and must fit in 5 minutes of guest time on 2
 * cores: ~12 ms per point and invocation all in. With 1 ms batches a
 * point costs ~7 ms: one calibration batch and 3 sets of 2 timed batches,
 * always (guest/bench.h), which leaves room for the large buffers of slow
 * ciphers (one 1 MiB 3DES call alone is ~40 ms). Measured with
 * tests/bench/full-run.sh on Debian bookworm (10 libraries, 23920 results
 * in two invocations each) on a busy 2-core machine: 286 s of guest
 * time. Before, with one invocation per point, 5 batches and up to two
 * re-runs of 5 for a point above 2 % CV (most points, on that machine), a
 * run took about 195 s: 3 sets of 5 in two invocations would not fit.
 * An older measurement: 1377 s with 10 ms batches for 7 libraries - 10 ms
 * does not fit. */
#define DEFAULT_MIN_BATCH_NS UINT64_C(1000000)	/* 1 ms */
#define QUICK_MIN_BATCH_NS UINT64_C(500000)	/* 0.5 ms */
#define DEFAULT_REPETITIONS 2
#define QUICK_REPETITIONS 3
/* Flag a point noisy when the coefficient of variation of all its samples
 * exceeds this fraction (--max-cv); measure every point in
 * DEFAULT_MAX_RERUNS + 1 sets (--max-reruns; guest/bench.h). --quick, a
 * smoke test, measures one set of 3 samples of 0.5 ms (it still flags
 * noisy points). */
#define DEFAULT_MAX_CV 0.02
#define DEFAULT_MAX_RERUNS 2
#define QUICK_MAX_RERUNS 0
/* Largest --max-reruns accepted: BENCH_MAX_SETS sets. */
#define MAX_MAX_RERUNS (BENCH_MAX_SETS - 1)
/* One-shot timing (context + key + one buffer + free per call) is done for
 * buffers up to this size: above it the per-message cost is lost in the
 * bulk cost, which the bulk mode measures. */
#define DEFAULT_ONESHOT_MAX 16384
/* A library's child process that runs longer than this is killed and
 * reported as hung (seconds; --lib-timeout). */
#define DEFAULT_LIB_TIMEOUT_S 900
/* The cross-library check's input: this many bytes of fill_pattern(). */
#define CROSSCHECK_BYTES ((size_t)128 * 1024)
/* Longest batch accepted on the command line: 60 s. */
#define MAX_MIN_BATCH_NS UINT64_C(60000000000)
#define MAX_LIBS 32

/* Buffer sizes in bytes: the FULL_SIZES powers of two 16 << 0 .. 16 << 16
 * (1 MiB), or --quick's 4. */
#define FULL_SIZES 17
#define MAX_BUFFER ((size_t)16 << (FULL_SIZES - 1))
static const size_t quick_sizes[] = { 16, 1024, 16384, 1048576 };

struct options {
	bool quick;
	uint64_t min_batch_ns;		/* 0 = default */
	unsigned repetitions;		/* 0 = default */
	const struct guest_backend *libs[MAX_LIBS];
	size_t nlibs;			/* 0 = all compiled in */
	enum guest_algo algos[GUEST_ALGO_COUNT];
	size_t nalgos;			/* 0 = all */
	int cpu;			/* -1 = not pinned */
	bool nohw;			/* mask hardware acceleration */
	bool no_fork;			/* run libraries in-process */
	bool oneshot_set;		/* --oneshot-max given */
	uint64_t oneshot_max;		/* largest one-shot buffer, bytes */
	uint64_t lib_timeout_s;		/* per library child, seconds */
	bool max_cv_set;		/* --max-cv given */
	double max_cv;			/* noisy above this CV (fraction) */
	bool max_reruns_set;		/* --max-reruns given */
	unsigned max_reruns;		/* sets per point after the first */
	unsigned canary_disturb;	/* --canary-disturb: the first N
					 * sweeps' canaries run 3 x the work
					 * after the sweep (for tests) */
	unsigned remeasure_max;		/* --remeasure-max: sweeps measured
					 * again, at most, percent (plus 1) */
	bool seed_set;			/* --seed given */
	uint64_t seed;			/* shuffles libs and algos */
};

static const char usage_text[] =
	"usage: benchorch-guest [--quick] [--min-batch-ns N] [--repetitions N]\n"
	"                       [--max-cv F] [--max-reruns N]\n"
	"                       [--libs a,b] [--algos x,y] [--cpu N] [--nohw]\n"
	"                       [--oneshot-max BYTES] [--lib-timeout S]\n"
	"                       [--seed N] [--no-fork] [--canary-disturb N]\n"
	"                       [--remeasure-max PCT]\n"
	"                       [--help] [--version]\n"
	"       benchorch-guest --list-libs | --list-algos\n"
	"Benchmark the crypto libraries found in this root filesystem and\n"
	"print one JSON object per line (benchorch guest protocol 3).\n"
	"  --quick            sizes 16, 1024, 16384, 1048576 B; 0.5 ms batches,\n"
	"                     3 repetitions, no re-runs (default: 16 B .. 1 MiB,\n"
	"                     1 ms, 5, up to 2 re-runs)\n"
	"  --min-batch-ns N   shortest timed batch (one sample), in ns\n"
	"  --repetitions N    timed batches (samples) per measurement (1..150)\n"
	"  --max-cv F         flag a measurement noisy when its samples'\n"
	"                     coefficient of variation exceeds the fraction F\n"
	"                     (0.02)\n"
	"  --max-reruns N     measure every point in N + 1 sets of\n"
	"                     --repetitions batches, always (0..9; default 2;\n"
	"                     --quick: 0); it reports the median of the sets'\n"
	"                     medians\n"
	"  --libs a,b         libraries to try, in this order unless --seed\n"
	"                     shuffles it (default: all)\n"
	"  --algos x,y        algorithms (default: all)\n"
	"  --cpu N            pin to CPU N first\n"
	"  --nohw             mask the libraries' hardware acceleration\n"
	"                     (AES-NI, PCLMUL, SIMD) where they allow it\n"
	"  --oneshot-max N    time one-shot calls up to N-byte buffers (16384)\n"
	"  --lib-timeout S    kill a library's process after S seconds (900)\n"
	"  --seed N           shuffle the order of the libraries and of the\n"
	"                     algorithms with seed N (0..4294967295)\n"
	"  --no-fork          run every library in this process (no isolation)\n"
	"  --canary-disturb N for tests: the contention canary after the first\n"
	"                     N sweeps of sizes does 3 times its work, as if\n"
	"                     another process had taken the CPU (0)\n"
	"  --remeasure-max PCT measure again at most 1 + PCT %% of the sweeps\n"
	"                     whose canary moved (0..100; 10); the others\n"
	"                     are kept and marked moved\n"
	"  --list-libs        print the library names, one a line, in the\n"
	"                     default order, and exit (no library is loaded)\n"
	"  --list-algos       print the algorithm names, one a line, and exit\n"
	"Exit status: 0 done, 1 failure, 2 usage error.\n";

/* Write TEXT (a C string) to file descriptor FD, ignoring errors. */
static void put_fd(int fd, const char *text)
{
	size_t left = strlen(text);

	while (left > 0) {
		ssize_t n = write(fd, text, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		text += n;
		left -= (size_t)n;
	}
}

/* Print "benchorch-guest: MESSAGE" on stderr. */
static void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void complain(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	n = snprintf(msg, sizeof(msg), "benchorch-guest: ");
	va_start(ap, fmt);
	if (n > 0)
		vsnprintf(msg + n, sizeof(msg) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(msg);
	msg[n] = '\n';
	msg[n + 1] = '\0';
	put_fd(2, msg);
}

/* Parse decimal S into *V (0 .. MAX). Returns 0, or -1 if S is not a plain
 * decimal number in range. */
static int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (x > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

/* Parse S, a decimal fraction 0 .. 1 written as digits with at most one
 * '.' ("0.02", ".5", "1"), into *V. Returns 0, or -1 if S is anything
 * else. (Parsed by hand: strtod would depend on the locale.) */
static int parse_fraction(const char *s, double *v)
{
	double x = 0, scale = 1;
	bool dot = false, digits = false;

	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
		} else if (*s >= '0' && *s <= '9') {
			digits = true;
			if (dot) {
				scale /= 10;
				x += (*s - '0') * scale;
			} else {
				x = x * 10 + (*s - '0');
			}
			if (x > 1)
				return -1;
		} else {
			return -1;
		}
	}
	if (!digits)
		return -1;
	*v = x;
	return 0;
}

/* Split comma-separated LIST into names; call ADD(name, o) for each.
 * Returns 0, or -1 (after complaining) on an empty item or ADD failure. */
static int each_item(const char *list, struct options *o,
		     int (*add)(const char *, struct options *))
{
	char item[128];

	for (;;) {
		const char *comma = strchr(list, ',');
		size_t n = comma ? (size_t)(comma - list) : strlen(list);

		if (n == 0 || n >= sizeof(item)) {
			complain("bad list item in '%s'", list);
			return -1;
		}
		memcpy(item, list, n);
		item[n] = '\0';
		if (add(item, o) < 0)
			return -1;
		if (!comma)
			return 0;
		list = comma + 1;
	}
}

/* Add library NAME to o->libs (duplicates ignored). */
static int add_lib(const char *name, struct options *o)
{
	const struct guest_backend *b = guest_backend_by_name(name);

	if (!b) {
		complain("unknown library '%s'", name);
		return -1;
	}
	for (size_t i = 0; i < o->nlibs; i++)
		if (o->libs[i] == b)
			return 0;
	if (o->nlibs == MAX_LIBS) {
		complain("too many libraries");
		return -1;
	}
	o->libs[o->nlibs++] = b;
	return 0;
}

/* Add algorithm NAME to o->algos (duplicates ignored). */
static int add_algo(const char *name, struct options *o)
{
	enum guest_algo a;

	if (algo_by_name(name, &a) < 0) {
		complain("unknown algorithm '%s'", name);
		return -1;
	}
	for (size_t i = 0; i < o->nalgos; i++)
		if (o->algos[i] == a)
			return 0;
	o->algos[o->nalgos++] = a;
	return 0;
}

/* --seed: put o->libs, then o->algos, in the random order drawn from
 * o->seed (lib/shuffle.h), so that a library or an algorithm is not
 * always measured at the same point of an invocation. */
static void shuffle_options(struct options *o)
{
	const struct guest_backend *libs[MAX_LIBS];
	enum guest_algo algos[GUEST_ALGO_COUNT];
	size_t order[MAX_LIBS > GUEST_ALGO_COUNT ? MAX_LIBS : GUEST_ALGO_COUNT];
	struct shuffle_rng r;

	shuffle_seed(&r, o->seed);
	shuffle_permutation(&r, order, o->nlibs);
	for (size_t i = 0; i < o->nlibs; i++)
		libs[i] = o->libs[order[i]];
	memcpy(o->libs, libs, o->nlibs * sizeof(libs[0]));
	shuffle_permutation(&r, order, o->nalgos);
	for (size_t i = 0; i < o->nalgos; i++)
		algos[i] = o->algos[order[i]];
	memcpy(o->algos, algos, o->nalgos * sizeof(algos[0]));
}

/* --list-libs: the backend table's names, one a line, on stdout, in the
 * default order of a run (what --libs accepts). Loads no library. */
static void list_libs(void)
{
	size_t n;
	const struct guest_backend *const *b = guest_backends(&n);

	for (size_t i = 0; i < n; i++) {
		put_fd(1, b[i]->name);
		put_fd(1, "\n");
	}
}

/* --list-algos: the protocol's algorithm names (guest/PROTOCOL.md), one a
 * line, on stdout, in protocol order (what --algos accepts). */
static void list_algos(void)
{
	for (int i = 0; i < GUEST_ALGO_COUNT; i++) {
		put_fd(1, algo_info((enum guest_algo)i)->name);
		put_fd(1, "\n");
	}
}

/* Parse the command line into *o. Returns 0 to run, 1 after printing help
 * or version (exit 0), 2 on a usage error (already reported). */
static int parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->remeasure_max = CANARY_REMEASURE_PCT;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		char name[32];
		size_t n;
		uint64_t v;

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			put_fd(1, usage_text);
			return 1;
		}
		if (strcmp(arg, "--version") == 0) {
			put_fd(1, "benchorch-guest " GUEST_VERSION
				  " (protocol 3)\n");
			return 1;
		}
		if (strcmp(arg, "--list-libs") == 0) {
			list_libs();
			return 1;
		}
		if (strcmp(arg, "--list-algos") == 0) {
			list_algos();
			return 1;
		}
		if (strcmp(arg, "--quick") == 0) {
			o->quick = true;
			continue;
		}
		if (strcmp(arg, "--nohw") == 0) {
			o->nohw = true;
			continue;
		}
		if (strcmp(arg, "--no-fork") == 0) {
			o->no_fork = true;
			continue;
		}
		/* options with a value: --opt N or --opt=N */
		eq = strchr(arg, '=');
		n = eq ? (size_t)(eq - arg) : strlen(arg);
		if (strncmp(arg, "--", 2) != 0 || n >= sizeof(name)) {
			complain("unknown argument '%s'", arg);
			return 2;
		}
		memcpy(name, arg, n);
		name[n] = '\0';
		if (strcmp(name, "--min-batch-ns") && strcmp(name, "--repetitions")
		    && strcmp(name, "--libs") && strcmp(name, "--algos")
		    && strcmp(name, "--cpu") && strcmp(name, "--oneshot-max")
		    && strcmp(name, "--lib-timeout") && strcmp(name, "--max-cv")
		    && strcmp(name, "--max-reruns") && strcmp(name, "--seed")
		    && strcmp(name, "--canary-disturb")
		    && strcmp(name, "--remeasure-max")) {
			complain("unknown option '%s'", name);
			return 2;
		}
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			complain("option '%s' needs a value", name);
			return 2;
		}
		if (strcmp(name, "--min-batch-ns") == 0) {
			if (parse_u64(val, MAX_MIN_BATCH_NS, &v) < 0 || v < 1) {
				complain("--min-batch-ns: want 1..%llu, got '%s'",
					 (unsigned long long)MAX_MIN_BATCH_NS,
					 val);
				return 2;
			}
			o->min_batch_ns = v;
		} else if (strcmp(name, "--repetitions") == 0) {
			if (parse_u64(val, BENCH_MAX_REPETITIONS, &v) < 0 ||
			    v < 1) {
				complain("--repetitions: want 1..%d, got '%s'",
					 BENCH_MAX_REPETITIONS, val);
				return 2;
			}
			o->repetitions = (unsigned)v;
		} else if (strcmp(name, "--cpu") == 0) {
			if (parse_u64(val, CPU_SETSIZE - 1, &v) < 0) {
				complain("--cpu: want 0..%d, got '%s'",
					 CPU_SETSIZE - 1, val);
				return 2;
			}
			o->cpu = (int)v;
		} else if (strcmp(name, "--oneshot-max") == 0) {
			if (parse_u64(val, MAX_BUFFER, &v) < 0) {
				complain("--oneshot-max: want 0..%zu, got '%s'",
					 MAX_BUFFER, val);
				return 2;
			}
			o->oneshot_max = v;
			o->oneshot_set = true;
		} else if (strcmp(name, "--lib-timeout") == 0) {
			if (parse_u64(val, 86400, &v) < 0 || v < 1) {
				complain("--lib-timeout: want 1..86400, got '%s'",
					 val);
				return 2;
			}
			o->lib_timeout_s = v;
		} else if (strcmp(name, "--max-cv") == 0) {
			if (parse_fraction(val, &o->max_cv) < 0) {
				complain("--max-cv: want a fraction 0..1 such as 0.02, got '%s'",
					 val);
				return 2;
			}
			o->max_cv_set = true;
		} else if (strcmp(name, "--max-reruns") == 0) {
			if (parse_u64(val, MAX_MAX_RERUNS, &v) < 0) {
				complain("--max-reruns: want 0..%d, got '%s'",
					 MAX_MAX_RERUNS, val);
				return 2;
			}
			o->max_reruns = (unsigned)v;
			o->max_reruns_set = true;
			/* the product with --repetitions is checked below */
		} else if (strcmp(name, "--canary-disturb") == 0) {
			if (parse_u64(val, 1000000, &v) < 0) {
				complain("--canary-disturb: want 0..1000000, got '%s'",
					 val);
				return 2;
			}
			o->canary_disturb = (unsigned)v;
		} else if (strcmp(name, "--remeasure-max") == 0) {
			if (parse_u64(val, 100, &v) < 0) {
				complain("--remeasure-max: want 0..100, got '%s'",
					 val);
				return 2;
			}
			o->remeasure_max = (unsigned)v;
		} else if (strcmp(name, "--seed") == 0) {
			if (parse_u64(val, SHUFFLE_SEED_MAX, &v) < 0) {
				complain("--seed: want 0..%llu, got '%s'",
					 (unsigned long long)SHUFFLE_SEED_MAX,
					 val);
				return 2;
			}
			o->seed = v;
			o->seed_set = true;
		} else if (strcmp(name, "--libs") == 0) {
			if (each_item(val, o, add_lib) < 0)
				return 2;
		} else if (each_item(val, o, add_algo) < 0) {
			return 2;
		}
	}
	if (o->min_batch_ns == 0)
		o->min_batch_ns = o->quick ? QUICK_MIN_BATCH_NS
					   : DEFAULT_MIN_BATCH_NS;
	if (o->repetitions == 0)
		o->repetitions = o->quick ? QUICK_REPETITIONS
					  : DEFAULT_REPETITIONS;
	if (!o->oneshot_set)
		o->oneshot_max = DEFAULT_ONESHOT_MAX;
	if (!o->max_cv_set)
		o->max_cv = DEFAULT_MAX_CV;
	if (!o->max_reruns_set)
		o->max_reruns = o->quick ? QUICK_MAX_RERUNS : DEFAULT_MAX_RERUNS;
	if (o->repetitions * (o->max_reruns + 1) > BENCH_MAX_REPETITIONS) {
		complain("--repetitions %u with --max-reruns %u: %u samples per point, at most %d fit a line",
			 o->repetitions, o->max_reruns,
			 o->repetitions * (o->max_reruns + 1),
			 BENCH_MAX_REPETITIONS);
		return 2;
	}
	if (o->lib_timeout_s == 0)
		o->lib_timeout_s = DEFAULT_LIB_TIMEOUT_S;
	if (o->nlibs == 0) {
		size_t count;
		const struct guest_backend *const *all = guest_backends(&count);

		for (size_t i = 0; i < count && i < MAX_LIBS; i++)
			o->libs[o->nlibs++] = all[i];
	}
	if (o->nalgos == 0)
		for (int a = 0; a < GUEST_ALGO_COUNT; a++)
			o->algos[o->nalgos++] = (enum guest_algo)a;
	if (o->seed_set)
		shuffle_options(o);
	return 0;
}

/* Stop with status 1 when stdout is gone. */
static void check_emit(int rc)
{
	if (rc < 0) {
		complain("cannot write to stdout");
		exit(1);
	}
}

/* The buffers of one run, each BUFFER_BYTES, 64-byte aligned: room for
 * the largest buffer and, right after it, an AEAD tag (guest/PROTOCOL.md,
 * "Buffers"). */
#define BUFFER_BYTES (MAX_BUFFER + 64)
struct buffers {
	uint8_t *pt;		/* benchmark plaintext / message */
	uint8_t *ct;		/* its ciphertext (valid AEAD message, the
				 * tag right after it) */
	uint8_t *work;		/* what the timed calls write */
	uint8_t *scratch;	/* verification */
};

/* Allocate *bufs. Returns 0 or -1. */
static int alloc_buffers(struct buffers *bufs)
{
	void *p[4];

	for (int i = 0; i < 4; i++) {
		if (posix_memalign(&p[i], 64, BUFFER_BYTES) != 0)
			return -1;
		memset(p[i], 0, BUFFER_BYTES);
	}
	bufs->pt = p[0];
	bufs->ct = p[1];
	bufs->work = p[2];
	bufs->scratch = p[3];
	return 0;
}

/* Free the buffers of alloc_buffers(). */
static void free_buffers(struct buffers *bufs)
{
	free(bufs->pt);
	free(bufs->ct);
	free(bufs->work);
	free(bufs->scratch);
}

/* Deterministic, incompressible-looking fill (xorshift64). */
static void fill_pattern(uint8_t *buf, size_t len)
{
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)(x >> 32);
	}
}

/* What one timed batch needs. */
struct batch_arg {
	const struct guest_backend *b;
	enum guest_algo algo;
	enum guest_op op;
	void *ctx;
	const uint8_t *in;
	uint8_t *out;
	size_t len;
	uint8_t *aux;
	const uint8_t *key, *iv;
};

/* bench_batch_fn for a backend's bulk_run. */
static int run_batch(void *p, uint64_t calls)
{
	struct batch_arg *a = p;

	return a->b->bulk_run(a->ctx, a->in, a->out, a->len, calls, a->aux);
}

/* bench_batch_fn for one-shot calls: every call creates, keys, uses and
 * frees a context (backend_oneshot()). */
static int run_oneshot_batch(void *p, uint64_t calls)
{
	struct batch_arg *a = p;
	struct guest_oneshot io;

	memset(&io, 0, sizeof(io));
	io.key = a->key;
	io.iv = a->iv;
	io.in = a->in;
	io.len = a->len;
	io.out = a->out;
	io.tag = a->aux;
	if (algo_info(a->algo)->kind == GUEST_KIND_AEAD) {
		io.aad = guest_aead_aad;
		io.aad_bytes = GUEST_AEAD_AAD_BYTES;
	}
	if (algo_info(a->algo)->kind == GUEST_KIND_HASH)
		io.out = a->aux;
	for (uint64_t i = 0; i < calls; i++)
		if (backend_oneshot(a->b, a->algo, a->op, &io) != 0)
			return -1;
	return 0;
}

/* bench_batch_fn for key setup alone (the backend's rekey()). */
static int run_rekey_batch(void *p, uint64_t calls)
{
	struct batch_arg *a = p;

	return a->b->rekey(a->ctx, a->key, a->iv, calls);
}

/* What the parent and a library's child process share (MAP_SHARED), so
 * that the parent can finish the `done` line and say where a child died. */
struct shared_counts {
	uint64_t results;	/* result lines printed */
	uint64_t measure_ns;	/* ns spent in timed batches */
	uint64_t sweeps;	/* sweeps of sizes begun (canary_disturb) */
	uint64_t first_sweeps;	/* of them first attempts */
	uint64_t remeasured;	/* of them measured again */
	uint64_t held;		/* result lines of the current sweep, held
				 * (emit_hold): counted in results only
				 * when written, so that a library that
				 * dies in a sweep leaves a true count */
	int algo;		/* algorithm being worked on, -1 = none */
	int finished;		/* 1 when the child got through its list */
};

/* Run state shared by the loops below. */
struct run {
	const struct options *o;
	struct bench_params params;	/* from o, and whether to read the TSC */
	struct buffers bufs;
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV];
	struct shared_counts *counts;
	/* each library's child process, as wait4() reported it (parent) */
	struct rusage_lib rusage[MAX_LIBS];
	size_t nrusage;
};

/* Time OP of ALGO on LEN-byte buffers (pt/ct/tag prepared by the caller)
 * in MODE ("bulk" or "oneshot") and print the result (or an error line).
 * HINT is the previous point of the same curve (bench.h), updated here.
 * Returns true when a result line was printed. */
static bool measure_op(struct run *run, const struct guest_backend *b,
		       enum guest_algo algo, enum guest_op op, size_t len,
		       const uint8_t *tag, bool verified, bool oneshot,
		       struct bench_hint *hint)
{
	const struct guest_algo_info *ai = algo_info(algo);
	const char *aname = ai->name;
	uint8_t aux[GUEST_MAX_DIGEST];
	struct batch_arg arg;
	struct bench_result r;
	int rc;

	memset(aux, 0, sizeof(aux));
	memset(&arg, 0, sizeof(arg));
	arg.b = b;
	arg.algo = algo;
	arg.op = op;
	arg.len = len;
	arg.aux = aux;
	arg.key = run->key;
	arg.iv = run->iv;
	/* one layout for every library and mode (guest/PROTOCOL.md,
	 * "Buffers"): out of place, the input read from pt (encrypt, hash)
	 * or ct (decrypt), the output written to work; an AEAD's tag right
	 * after its text */
	arg.in = op == GUEST_OP_DECRYPT ? run->bufs.ct : run->bufs.pt;
	arg.out = run->bufs.work;
	if (ai->kind == GUEST_KIND_AEAD && op == GUEST_OP_DECRYPT) {
		memcpy(run->bufs.ct + len, tag, ai->tag_bytes);
		arg.aux = run->bufs.ct + len;
	} else if (ai->kind == GUEST_KIND_AEAD) {
		arg.aux = run->bufs.work + len;
	}
	if (oneshot) {
		rc = bench_measure(run_oneshot_batch, &arg, len, &run->params,
				   hint, &r);
	} else {
		arg.ctx = b->bulk_new(algo, op, run->key, run->iv);
		if (!arg.ctx) {
			check_emit(emit_error(b->name, aname,
					      "cannot create a %s context (%zu bytes)",
					      op_name(op), len));
			return false;
		}
		rc = bench_measure(run_batch, &arg, len, &run->params, hint,
				   &r);
		b->bulk_free(arg.ctx);
	}
	run->counts->measure_ns += r.spent_ns;
	/* the high-water mark after the point: which point raised the
	 * library's peak (PROTOCOL.md, "Resources"); outside the timing */
	r.maxrss_kib = rusage_peak_kib();
	if (rc < 0) {
		check_emit(emit_error(b->name, aname,
				      "%s %s of %zu-byte buffers failed",
				      oneshot ? "one-shot" : "bulk",
				      op_name(op), len));
		return false;
	}
	check_emit(emit_result(b->name, aname, op_name(op),
			       oneshot ? "oneshot" : "bulk", len, &r,
			       verified));
	run->counts->held++;
	return true;
}

/* Time key setup alone for OP of cipher ALGO in B (if B can) and print a
 * keysetup line. */
static void measure_keysetup(struct run *run, const struct guest_backend *b,
			     enum guest_algo algo, enum guest_op op,
			     bool verified)
{
	struct batch_arg arg;
	struct bench_result r;
	int rc;

	if (!b->rekey)
		return;
	memset(&arg, 0, sizeof(arg));
	arg.b = b;
	arg.algo = algo;
	arg.op = op;
	arg.key = run->key;
	arg.iv = run->iv;
	arg.ctx = b->bulk_new(algo, op, run->key, run->iv);
	if (!arg.ctx) {
		check_emit(emit_error(b->name, algo_info(algo)->name,
				      "cannot create a %s context for key setup",
				      op_name(op)));
		return;
	}
	if (b->rekey(arg.ctx, run->key, run->iv, 1) == 1) {
		b->bulk_free(arg.ctx);	/* no separate key setup */
		return;
	}
	rc = bench_measure(run_rekey_batch, &arg, 1, &run->params, NULL, &r);
	b->bulk_free(arg.ctx);
	run->counts->measure_ns += r.spent_ns;
	if (rc < 0) {
		check_emit(emit_error(b->name, algo_info(algo)->name,
				      "%s key setup failed", op_name(op)));
		return;
	}
	check_emit(emit_keysetup(b->name, algo_info(algo)->name, op_name(op),
				 &r, verified));
}

/* FNV-1a, 64-bit (G. Fowler, L. C. Noll, K.-P. Vo; offset basis
 * 14695981039346656037, prime 1099511628211, as in the IETF draft
 * draft-eastlake-fnv): a checksum, not a cryptographic hash, used to
 * compare outputs across libraries (accidental agreement is what it guards
 * against; nobody is choosing these inputs). H is the running value:
 * start with FNV1A64_INIT. */
#define FNV1A64_INIT UINT64_C(14695981039346656037)
static uint64_t fnv1a64(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* The cross-library check of ALGO in B (see PROTOCOL.md): one-shot
 * encrypt (or hash) the CROSSCHECK_BYTES pattern with the run's key and
 * IV, print the output's FNV-1a 64 and whether decryption restored the
 * input. */
static void crosscheck(struct run *run, const struct guest_backend *b,
		       enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	uint8_t tag[GUEST_MAX_DIGEST];
	struct guest_oneshot io;
	uint64_t h = FNV1A64_INIT;
	size_t outlen;
	bool rt = true;

	fill_pattern(run->bufs.pt, CROSSCHECK_BYTES);
	memset(tag, 0, sizeof(tag));
	memset(&io, 0, sizeof(io));
	io.key = run->key;
	io.iv = run->iv;
	io.in = run->bufs.pt;
	io.len = CROSSCHECK_BYTES;
	io.tag = tag;
	if (ai->kind == GUEST_KIND_AEAD) {
		io.aad = guest_aead_aad;
		io.aad_bytes = GUEST_AEAD_AAD_BYTES;
	}
	if (ai->kind == GUEST_KIND_HASH) {
		io.out = tag;
		if (backend_oneshot(b, algo, GUEST_OP_HASH, &io) != 0) {
			check_emit(emit_error(b->name, ai->name,
					      "cross-check: hashing failed"));
			return;
		}
		h = fnv1a64(h, tag, ai->digest_bytes);
		outlen = ai->digest_bytes;
	} else {
		io.out = run->bufs.ct;
		if (backend_oneshot(b, algo, GUEST_OP_ENCRYPT, &io) != 0) {
			check_emit(emit_error(b->name, ai->name,
					      "cross-check: encryption failed"));
			return;
		}
		h = fnv1a64(h, run->bufs.ct, CROSSCHECK_BYTES);
		h = fnv1a64(h, tag, ai->tag_bytes);
		outlen = CROSSCHECK_BYTES + ai->tag_bytes;
		io.in = run->bufs.ct;
		io.out = run->bufs.scratch;
		rt = backend_oneshot(b, algo, GUEST_OP_DECRYPT, &io) == 0 &&
		     memcmp(run->bufs.scratch, run->bufs.pt,
			    CROSSCHECK_BYTES) == 0;
	}
	check_emit(emit_crosscheck(b->name, ai->name, CROSSCHECK_BYTES, outlen,
				   h, rt));
}

/* Every size and operation (bulk and one-shot) of ALGO in B, its
 * known-answer tests passed when KAT_OK; DONE[operation][one-shot] is set
 * for each curve that printed a result (operation 0: encrypt or hash, 1:
 * decrypt). */
static void sweep_sizes(struct run *run, const struct guest_backend *b,
			enum guest_algo algo, bool kat_ok, bool done[2][2])
{
	const struct guest_algo_info *ai = algo_info(algo);
	size_t nsizes;
	uint8_t tag[GUEST_MAX_DIGEST];
	/* per curve, the previous size's point: [operation][one-shot] */
	struct bench_hint hints[2][2];

	memset(done, 0, 4 * sizeof(bool));
	memset(hints, 0, sizeof(hints));
	nsizes = run->o->quick ? sizeof(quick_sizes) / sizeof(quick_sizes[0])
			       : FULL_SIZES;
	for (size_t s = 0; s < nsizes; s++) {
		size_t len = run->o->quick ? quick_sizes[s] : (size_t)16 << s;
		bool rt, ok, one = len <= run->o->oneshot_max;
		/* bulk streams whole keystream blocks only (algo.h) */
		bool bulk = len % algo_stream_block(algo) == 0;

		fill_pattern(run->bufs.pt, len);
		memset(tag, 0, sizeof(tag));
		rt = kat_roundtrip(b, algo, run->key, run->iv, run->bufs.pt,
				   len, run->bufs.ct, tag, run->bufs.scratch);
		if (!rt)
			check_emit(emit_error(b->name, ai->name,
					      "round trip on a %zu-byte buffer failed",
					      len));
		ok = kat_ok && rt;
		if (ai->kind == GUEST_KIND_HASH) {
			done[0][0] |= measure_op(run, b, algo, GUEST_OP_HASH,
						 len, tag, ok, false,
						 &hints[0][0]);
			if (one)
				done[0][1] |= measure_op(run, b, algo,
							 GUEST_OP_HASH, len,
							 tag, ok, true,
							 &hints[0][1]);
			continue;
		}
		if (bulk) {
			done[0][0] |= measure_op(run, b, algo, GUEST_OP_ENCRYPT,
						 len, tag, ok, false,
						 &hints[0][0]);
			done[1][0] |= measure_op(run, b, algo, GUEST_OP_DECRYPT,
						 len, tag, ok, false,
						 &hints[1][0]);
		}
		if (one) {
			done[0][1] |= measure_op(run, b, algo, GUEST_OP_ENCRYPT,
						 len, tag, ok, true,
						 &hints[0][1]);
			done[1][1] |= measure_op(run, b, algo, GUEST_OP_DECRYPT,
						 len, tag, ok, true,
						 &hints[1][1]);
		}
	}
}

/* The sizes of ALGO in B (sweep_sizes) between two timings of the
 * contention canary (guest/canary.h). When the canary moved, and the
 * process has measured fewer sweeps again than --remeasure-max allows
 * (canary_may_remeasure), the lines of the sweep are dropped and it is
 * measured once more between two new timings; the lines of the sweep kept are followed by one canary line
 * per curve that has results, moved only when the canary moved in the
 * sweep kept (both). */
static void sweep_with_canary(struct run *run, const struct guest_backend *b,
			      enum guest_algo algo, bool kat_ok)
{
	uint64_t before[CANARY_REPS], after[CANARY_REPS];
	static const char *const modes[2] = { "bulk", "oneshot" };
	const struct guest_algo_info *ai = algo_info(algo);
	bool done[2][2];
	struct canary c;
	unsigned attempt;

	run->counts->first_sweeps++;
	for (attempt = 0;; attempt++) {
		unsigned extra = run->counts->sweeps++ <
				 run->o->canary_disturb ? 2 : 0;

		run->counts->held = 0;
		canary_time(before, CANARY_REPS, 0);
		emit_hold();
		sweep_sizes(run, b, algo, kat_ok, done);
		canary_time(after, CANARY_REPS, extra);
		canary_judge(before, after, CANARY_REPS, &c);
		if (!c.moved || attempt == 1 || !(done[0][0] || done[0][1] ||
						  done[1][0] || done[1][1]))
			break;
		/* over the allowance: kept, marked moved */
		if (!canary_may_remeasure(run->counts->first_sweeps,
					  run->counts->remeasured,
					  run->o->remeasure_max))
			break;
		/* measured again: the first sweep's lines are dropped
		 * (unless there were too many to hold) */
		if (emit_release(false) == 1)
			break;
		run->counts->remeasured++;
	}
	if (emit_release(true) < 0)
		check_emit(-1);
	run->counts->results += run->counts->held;
	run->counts->held = 0;
	for (int op = 0; op < 2; op++)
		for (int m = 0; m < 2; m++)
			if (done[op][m])
				check_emit(emit_canary(b->name, ai->name,
						       ai->kind == GUEST_KIND_HASH ?
						       "hash" : op ? "decrypt" :
						       "encrypt", modes[m], &c,
						       attempt > 0));
}

/* Known-answer tests, the cross-check, key setup, then every size and
 * operation (bulk and one-shot), of ALGO in B. */
static void run_algo(struct run *run, const struct guest_backend *b,
		     enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	const struct kat_vector *v;
	size_t nv;
	bool kat_ok = true;

	if (!b->supports(algo)) {
		check_emit(emit_unsupported(b->name, ai->name));
		return;
	}
	v = kat_table(&nv);
	for (size_t i = 0; i < nv; i++) {
		bool ok;

		if (v[i].algo != algo)
			continue;
		ok = kat_check(b, &v[i]);
		kat_ok = kat_ok && ok;
		check_emit(emit_kat(b->name, ai->name, ok, v[i].source));
	}
	if (ai->mode == GUEST_MODE_CBC) {
		bool ok = kat_cbc_chain(b, algo, run->key, run->iv);

		kat_ok = kat_ok && ok;
		check_emit(emit_kat(b->name, ai->name, ok,
				    KAT_CBC_CHAIN_SOURCE));
	}
	crosscheck(run, b, algo);
	if (ai->kind != GUEST_KIND_HASH) {
		measure_keysetup(run, b, algo, GUEST_OP_ENCRYPT, kat_ok);
		measure_keysetup(run, b, algo, GUEST_OP_DECRYPT, kat_ok);
	}

	sweep_with_canary(run, b, algo, kat_ok);
}

/* Load library B and run every selected algorithm in it (in the calling
 * process). */
static void run_library(struct run *run, const struct guest_backend *b)
{
	struct guest_lib_info info;
	char why[512];
	enum guest_load rc;

	memset(&info, 0, sizeof(info));
	why[0] = '\0';
	/* the footprint: resident set before and right after loading
	 * (PROTOCOL.md, "Resources") */
	info.rss_before_load_kib = rusage_rss_now_kib();
	rc = b->load(&info, why, sizeof(why));
	info.footprint_kib = rusage_rss_now_kib();
	if (rc == GUEST_LOAD_ABSENT) {
		check_emit(emit_library(b->name, NULL));
		return;
	}
	if (rc != GUEST_LOAD_OK) {
		/* present but not loadable: failed, not absent */
		check_emit(emit_library_failed(b->name, why));
		check_emit(emit_error(b->name, "", "%s", why));
		return;
	}
	backend_build_id(info.path, info.build_id, sizeof(info.build_id));
	check_emit(emit_library(b->name, &info));
	for (size_t i = 0; i < run->o->nalgos; i++) {
		run->counts->algo = (int)run->o->algos[i];
		run_algo(run, b, run->o->algos[i]);
	}
	run->counts->algo = -1;
}

/* Run library B in a child process, so that a library that crashes or
 * hangs costs only its own results: the parent waits (at most
 * o->lib_timeout_s, then SIGKILL) and reports an abnormal end as an
 * `error` line naming the algorithm the child was on. Falls back to
 * running in-process when fork() fails. */
static void run_library_isolated(struct run *run,
				 const struct guest_backend *b)
{
	uint64_t deadline;
	struct rusage ru;
	int status = 0;
	pid_t pid, w;
	bool killed = false;

	run->counts->algo = -1;
	run->counts->finished = 0;
	pid = fork();
	if (pid < 0) {
		run_library(run, b);
		return;
	}
	if (pid == 0) {
		run_library(run, b);
		run->counts->finished = 1;
		_exit(0);
	}
	deadline = bench_now_ns() + run->o->lib_timeout_s * UINT64_C(1000000000);
	memset(&ru, 0, sizeof(ru));
	for (;;) {
		w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (!killed && bench_now_ns() > deadline) {
			kill(pid, SIGKILL);
			killed = true;
		}
		poll(NULL, 0, 20);
	}
	if (w == pid && run->nrusage < MAX_LIBS)
		rusage_from(&run->rusage[run->nrusage++], b->name, &ru);
	if (w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    run->counts->finished)
		return;
	{
		int a = run->counts->algo;
		const char *aname = a >= 0 && a < GUEST_ALGO_COUNT ?
				    algo_info((enum guest_algo)a)->name : "";

		if (killed)
			check_emit(emit_error(b->name, aname,
					      "library hung: killed after %llu s%s%s",
					      (unsigned long long)run->o->lib_timeout_s,
					      *aname ? " during " : "", aname));
		else if (w == pid && WIFSIGNALED(status))
			check_emit(emit_error(b->name, aname,
					      "library crashed: killed by signal %d (%s)%s%s",
					      WTERMSIG(status),
					      strsignal(WTERMSIG(status)),
					      *aname ? " during " : "", aname));
		else if (w == pid && WIFEXITED(status) &&
			 WEXITSTATUS(status) == 1)
			exit(1);	/* the child could not write stdout */
		else
			check_emit(emit_error(b->name, aname,
					      "library process ended abnormally (status %d)%s%s",
					      status, *aname ? " during " : "",
					      aname));
	}
}

/* Pin the process to CPU. Returns 0 or -1 (errno set). */
static int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	struct options o;
	struct run run;
	char libc[64];
	uint64_t clock_hz, hello_ns, hello_tsc, elapsed_ns, tsc_hz = 0;
	const char *clock_source;
	int rc;

	/* A closed stdout must end the run with status 1, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	/* A hang-up is not ours to act on: the orchestrator (or the daemon's
	 * job) decides when a run stops, and stops this process itself. */
	signal(SIGHUP, SIG_IGN);
	/* `benchorch-guest tool ...`: the distribution's own tools */
	if (argc > 1 && strcmp(argv[1], "tool") == 0)
		return guest_tools_main(argc - 1, argv + 1);
	rc = parse_args(argc, argv, &o);
	if (rc == 1)
		return 0;
	if (rc != 0) {
		put_fd(2, "Try 'benchorch-guest --help'.\n");
		return 2;
	}
	if (o.cpu >= 0 && pin_cpu(o.cpu) < 0) {
		complain("cannot pin to CPU %d: %s", o.cpu, strerror(errno));
		return 1;
	}
	/* --nohw: the mask, before any library is loaded (guest/hwmask.h;
	 * libgcrypt is masked by its backend, backend-libgcrypt.c, when
	 * guest_nohw is set); without it the stand-in of the same size.
	 * Libraries without a runtime switch (libsodium, Mbed TLS, wolfSSL,
	 * Botan 2, LibTomCrypt, libmcrypt) are measured as they are;
	 * PROTOCOL.md says which. */
	if (hwmask_apply(o.nohw) < 0) {
		complain("cannot set the environment: %s", strerror(errno));
		return 1;
	}
	guest_nohw = o.nohw;
#ifdef __GLIBC__
	snprintf(libc, sizeof(libc), "glibc %s", gnu_get_libc_version());
#else
	snprintf(libc, sizeof(libc), "musl");
#endif
	memset(&run, 0, sizeof(run));
	run.o = &o;
	run.params.min_batch_ns = o.min_batch_ns;
	run.params.repetitions = o.repetitions;
	run.params.max_cv = o.max_cv;
	run.params.sets = o.max_reruns + 1;
	run.params.tsc = cpuclock_have_tsc();
	for (size_t i = 0; i < sizeof(run.key); i++)
		run.key[i] = (uint8_t)(0x10 + i);
	for (size_t i = 0; i < sizeof(run.iv); i++)
		run.iv[i] = (uint8_t)(0xa0 + i);
	run.counts = mmap(NULL, sizeof(*run.counts), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run.counts == MAP_FAILED || alloc_buffers(&run.bufs) < 0) {
		complain("out of memory");
		return 1;
	}
	memset(run.counts, 0, sizeof(*run.counts));
	/* the clock on the pinned CPU, before anything else runs */
	clock_hz = cpuclock_measure(o.cpu, &clock_source);
	check_emit(emit_hello(GUEST_VERSION, libc, o.cpu,
			      o.nohw ? "nohw" : "hw", clock_hz, clock_source,
			      o.seed_set ? (int64_t)o.seed : -1));
	hello_ns = bench_now_ns();
	hello_tsc = run.params.tsc ? cpuclock_tsc() : 0;
	for (size_t i = 0; i < o.nlibs; i++) {
		if (o.no_fork)
			run_library(&run, o.libs[i]);
		else
			run_library_isolated(&run, o.libs[i]);
	}
	clock_hz = cpuclock_measure(o.cpu, &clock_source);
	elapsed_ns = bench_now_ns() - hello_ns;
	if (run.params.tsc && elapsed_ns > 0)
		tsc_hz = (uint64_t)((double)(cpuclock_tsc() - hello_tsc) * 1e9 /
				    (double)elapsed_ns + 0.5);
	check_emit(emit_done(run.counts->results, run.counts->measure_ns,
			     elapsed_ns, clock_hz, clock_source, tsc_hz,
			     o.no_fork ? NULL : run.rusage, run.nrusage));
	free_buffers(&run.bufs);
	munmap(run.counts, sizeof(*run.counts));
	return 0;
}
