/* guest/options.c - the guest's command line (see options.h). */
#include "compat.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "algo.h"
#include "backend.h"
#include "bench.h"
#include "canary.h"
#include "interleave.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "lib/shuffle.h"
#include "options.h"
#include "pairs.h"

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
/* --interleave without --duet: the blocks of a point taking turns are
 * paired round by round, so a block need not be long enough to stand
 * alone, and the libraries' speeds are compared within a round, not
 * across the host's drift between batches. Blocks of 1 ms made a full
 * run's blocks 183 s of its 265 s of guest time, 137 s of them the 13
 * sizes up to 16 KiB, where one call is far below a batch; --quick runs
 * taking turns at 0.5 ms met the ranking A/A targets (issue "Side by
 * side": 97.4 % agree, 0.21 % flips). A duet keeps 1 ms: each of its
 * blocks costs a turn of the token between two guests. */
#define INTERLEAVE_MIN_BATCH_NS UINT64_C(500000)	/* 0.5 ms */
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
/* Longest batch accepted on the command line: 60 s. */
#define MAX_MIN_BATCH_NS UINT64_C(60000000000)

static const char usage_text[] =
	"usage: benchorch-guest [--quick] [--min-batch-ns N] [--repetitions N]\n"
	"                       [--max-cv F] [--max-reruns N]\n"
	"                       [--libs a,b] [--algos x,y] [--pubkey x,y]\n"
	"                       [--kdf x,y]\n"
	"                       [--build NAME=LIBRARY:DIR]...\n"
	"                       [--replace LIBRARY:DIR]...\n"
	"                       [--cpu N] [--nohw]\n"
	"                       [--oneshot-max BYTES] [--lib-timeout S]\n"
	"                       [--seed N] [--no-fork] [--canary-disturb N]\n"
	"                       [--remeasure-max PCT] [--interleave]\n"
	"                       [--rounds N] [--duet] [--fixed-layout]\n"
	"                       [--help] [--version]\n"
	"       benchorch-guest --list-libs | --list-algos\n"
	"Benchmark the crypto libraries found in this root filesystem and\n"
	"print one JSON object per line (benchorch guest protocol 3).\n"
	"  --quick            sizes 16, 1024, 16384, 262144 B; 0.5 ms batches,\n"
	"                     3 repetitions, no re-runs (default: 16 B .. 1 MiB,\n"
	"                     1 ms, 5, up to 2 re-runs)\n"
	"  --min-batch-ns N   shortest timed batch (one sample), in ns\n"
	"                     (1000000; --quick, --interleave 500000)\n"
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
	"  --build NAME=LIBRARY:DIR  also measure the build NAME of LIBRARY,\n"
	"                     its sonames loaded from DIR, as the library\n"
	"                     LIBRARY@NAME (repeatable, at most 8)\n"
	"  --replace LIBRARY:DIR  load LIBRARY's sonames from DIR instead,\n"
	"                     under its own name (a duet of a build)\n"
	"  --algos x,y        algorithms (default: all; none: no cipher or\n"
	"                     hash, for --pubkey or --kdf alone)\n"
	"  --pubkey x,y       also measure these public-key algorithms\n"
	"                     (x25519, x448, ed25519, ecdh-p256,\n"
	"                     ecdsa-p256, rsa-2048, rsa-3072, rsa-pss-2048,\n"
	"                     ml-kem-768, ml-dsa-65, or all) in every\n"
	"                     library\n"
	"  --kdf x,y          also measure these key derivation functions\n"
	"                     (pbkdf2-sha256, hkdf-sha256, scrypt, argon2id,\n"
	"                     or all) in every library\n"
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
	"  --interleave       measure the libraries taking turns: each in a\n"
	"                     process of its own, one block (a batch) of a\n"
	"                     point at a time, a new random order every round;\n"
	"                     prints pair lines (ratios to the fastest)\n"
	"  --rounds N         blocks per library and point with --interleave\n"
	"                     (1..150; 4, --quick 6)\n"
	"  --duet             --interleave, taking turns with another guest:\n"
	"                     a byte on stdin starts each turn, a turn line\n"
	"                     ends it; end of file on stdin ends the turns\n"
	"                     (--pubkey, --kdf: each operation a point that\n"
	"                     takes turns, RSA keygen left out)\n"
	"  --fixed-layout     no address space randomisation: the same\n"
	"                     addresses in every guest of an image\n"
	"  --list-libs        print the library names, one a line, in the\n"
	"                     default order, and exit (no library is loaded)\n"
	"  --list-algos       print the algorithm names, one a line, and exit\n"
	"Exit status: 0 done, 1 failure, 2 usage error.\n";

void put_fd(int fd, const char *text)
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

void complain(const char *fmt, ...)
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

/* The options without a value. Returns 1 when ARG is --help, -h,
 * --version, --list-libs or --list-algos (after printing what it asks
 * for), 0 when it is --quick, --nohw, --no-fork, --interleave, --duet
 * or --fixed-layout (set in *o), -1 when it
 * is none of them. */
static int parse_flag(const char *arg, struct options *o)
{
	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
		put_fd(1, usage_text);
		return 1;
	}
	if (strcmp(arg, "--version") == 0) {
		put_fd(1, "benchorch-guest " GUEST_VERSION " (protocol 3)\n");
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
	if (strcmp(arg, "--quick") == 0)
		o->quick = true;
	else if (strcmp(arg, "--nohw") == 0)
		o->nohw = true;
	else if (strcmp(arg, "--no-fork") == 0)
		o->no_fork = true;
	else if (strcmp(arg, "--interleave") == 0)
		o->interleave = true;
	else if (strcmp(arg, "--duet") == 0)
		o->interleave = o->duet = true;
	else if (strcmp(arg, "--fixed-layout") == 0)
		o->fixed_layout = true;
	else
		return -1;
	return 0;
}

/* The setters of the options with a value: each parses VAL into *o and
 * returns 0, or complains and returns 2. */
static int set_min_batch_ns(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, MAX_MIN_BATCH_NS, &v) < 0 || v < 1) {
		complain("--min-batch-ns: want 1..%llu, got '%s'",
			 (unsigned long long)MAX_MIN_BATCH_NS, val);
		return 2;
	}
	o->min_batch_ns = v;
	return 0;
}

static int set_repetitions(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, BENCH_MAX_REPETITIONS, &v) < 0 || v < 1) {
		complain("--repetitions: want 1..%d, got '%s'",
			 BENCH_MAX_REPETITIONS, val);
		return 2;
	}
	o->repetitions = (unsigned)v;
	return 0;
}

static int set_cpu(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, CPU_SETSIZE - 1, &v) < 0) {
		complain("--cpu: want 0..%d, got '%s'", CPU_SETSIZE - 1, val);
		return 2;
	}
	o->cpu = (int)v;
	return 0;
}

static int set_oneshot_max(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, MAX_BUFFER, &v) < 0) {
		complain("--oneshot-max: want 0..%zu, got '%s'", MAX_BUFFER,
			 val);
		return 2;
	}
	o->oneshot_max = v;
	o->oneshot_set = true;
	return 0;
}

static int set_lib_timeout(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, 86400, &v) < 0 || v < 1) {
		complain("--lib-timeout: want 1..86400, got '%s'", val);
		return 2;
	}
	o->lib_timeout_s = v;
	return 0;
}

static int set_max_cv(const char *val, struct options *o)
{
	if (parse_fraction(val, &o->max_cv) < 0) {
		complain("--max-cv: want a fraction 0..1 such as 0.02, got '%s'",
			 val);
		return 2;
	}
	o->max_cv_set = true;
	return 0;
}

static int set_max_reruns(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, MAX_MAX_RERUNS, &v) < 0) {
		complain("--max-reruns: want 0..%d, got '%s'", MAX_MAX_RERUNS,
			 val);
		return 2;
	}
	o->max_reruns = (unsigned)v;
	o->max_reruns_set = true;
	/* the product with --repetitions is checked by finish_options() */
	return 0;
}

static int set_canary_disturb(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, 1000000, &v) < 0) {
		complain("--canary-disturb: want 0..1000000, got '%s'", val);
		return 2;
	}
	o->canary_disturb = (unsigned)v;
	return 0;
}

static int set_remeasure_max(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, 100, &v) < 0) {
		complain("--remeasure-max: want 0..100, got '%s'", val);
		return 2;
	}
	o->remeasure_max = (unsigned)v;
	return 0;
}

static int set_rounds(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, PAIRS_MAX_ROUNDS, &v) < 0 || v < 1) {
		complain("--rounds: want 1..%d, got '%s'", PAIRS_MAX_ROUNDS,
			 val);
		return 2;
	}
	o->rounds = (unsigned)v;
	return 0;
}

static int set_seed(const char *val, struct options *o)
{
	uint64_t v;

	if (parse_u64(val, SHUFFLE_SEED_MAX, &v) < 0) {
		complain("--seed: want 0..%llu, got '%s'",
			 (unsigned long long)SHUFFLE_SEED_MAX, val);
		return 2;
	}
	o->seed = v;
	o->seed_set = true;
	return 0;
}

static int set_libs(const char *val, struct options *o)
{
	return each_item(val, o, add_lib) < 0 ? 2 : 0;
}

/* --build NAME=LIBRARY:DIR: the rebuilt LIBRARY called NAME, its shared
 * objects in DIR, measured as the library "LIBRARY@NAME" beside the others
 * (guest/PROTOCOL.md, "Builds"). */
static int set_build(const char *val, struct options *o)
{
	const char *eq = strchr(val, '='), *colon;
	const struct guest_backend *base, *b;
	char name[80], lib[32], why[256];

	colon = eq ? strchr(eq, ':') : NULL;
	if (!eq || !colon || (size_t)(eq - val) >= sizeof(name) ||
	    (size_t)(colon - eq - 1) >= sizeof(lib)) {
		complain("--build: want NAME=LIBRARY:DIR, got '%s'", val);
		return 2;
	}
	memcpy(name, val, (size_t)(eq - val));
	name[eq - val] = '\0';
	memcpy(lib, eq + 1, (size_t)(colon - eq - 1));
	lib[colon - eq - 1] = '\0';
	if (!(base = guest_backend_by_name(lib))) {
		complain("--build: unknown library '%s'", lib);
		return 2;
	}
	if (!(b = guest_backend_build(base, name, colon + 1, why,
				      sizeof(why)))) {
		complain("--build: %s", why);
		return 2;
	}
	o->builds[o->nbuilds++] = b;
	return 0;
}

/* --replace LIBRARY:DIR: LIBRARY's shared objects loaded from DIR, under
 * LIBRARY's own name, in its place (guest/PROTOCOL.md, "Builds": a duet
 * of a build against the shipped library). */
static int set_replace(const char *val, struct options *o)
{
	const char *colon = strchr(val, ':');
	const struct guest_backend *base, *b;
	char lib[32], why[256];

	if (!colon || (size_t)(colon - val) >= sizeof(lib)) {
		complain("--replace: want LIBRARY:DIR, got '%s'", val);
		return 2;
	}
	memcpy(lib, val, (size_t)(colon - val));
	lib[colon - val] = '\0';
	if (!(base = guest_backend_by_name(lib))) {
		complain("--replace: unknown library '%s'", lib);
		return 2;
	}
	for (size_t i = 0; i < o->nreplaces; i++)
		if (strcmp(o->replaces[i]->name, lib) == 0) {
			complain("--replace: '%s' given twice", lib);
			return 2;
		}
	if (o->nbuilds + o->nreplaces >= GUEST_MAX_BUILDS) {
		complain("--replace: too many builds (at most %d)",
			 GUEST_MAX_BUILDS);
		return 2;
	}
	if (!(b = guest_backend_build(base, NULL, colon + 1, why,
				      sizeof(why)))) {
		complain("--replace: %s", why);
		return 2;
	}
	o->replaces[o->nreplaces++] = b;
	return 0;
}

/* --algos: a list, or "none" (no cipher or hash: with --pubkey, only
 * the public-key algorithms run). */
static int set_algos(const char *val, struct options *o)
{
	if (strcmp(val, "none") == 0) {
		o->algos_none = true;
		return 0;
	}
	return each_item(val, o, add_algo) < 0 ? 2 : 0;
}

/* Add public-key algorithm NAME ("all": every one) to o->pk. */
static int add_pk(const char *name, struct options *o)
{
	const struct pubkey_algorithm *a = pubkey_find(name);
	bool all = strcmp(name, "all") == 0;

	if (!a && !all) {
		complain("unknown public-key algorithm '%s'", name);
		return -1;
	}
	for (int i = 0; i < GUEST_PK_COUNT; i++)
		if (all || a == &pubkey_table[i])
			o->pk[i] = true;
	o->pubkey = true;
	return 0;
}

/* --pubkey x25519,ed25519,... (or all): the public-key algorithms to run
 * after each library's ciphers and hashes (guest/pubkey.h). */
static int set_pubkey(const char *val, struct options *o)
{
	return each_item(val, o, add_pk) < 0 ? 2 : 0;
}

/* Add key derivation function NAME ("all": every one) to o->kdf. */
static int add_kdf(const char *name, struct options *o)
{
	const struct kdf_algorithm *a = kdf_find(name);
	bool all = strcmp(name, "all") == 0;

	if (!a && !all) {
		complain("unknown key derivation function '%s'", name);
		return -1;
	}
	for (int i = 0; i < GUEST_KDF_COUNT; i++)
		if (all || a == &kdf_table[i])
			o->kdf[i] = true;
	o->kdf_any = true;
	return 0;
}

/* --kdf pbkdf2-sha256,argon2id (or all): the key derivation functions
 * to run after each library's public-key algorithms (guest/kdf.h). */
static int set_kdf(const char *val, struct options *o)
{
	return each_item(val, o, add_kdf) < 0 ? 2 : 0;
}

/* The options with a value (--opt N or --opt=N) and their setters. */
struct value_option {
	const char *name;
	int (*set)(const char *val, struct options *o);
};

static const struct value_option value_options[] = {
	{ "--min-batch-ns", set_min_batch_ns },
	{ "--repetitions", set_repetitions },
	{ "--libs", set_libs },
	{ "--build", set_build },
	{ "--replace", set_replace },
	{ "--algos", set_algos },
	{ "--pubkey", set_pubkey },
	{ "--kdf", set_kdf },
	{ "--cpu", set_cpu },
	{ "--oneshot-max", set_oneshot_max },
	{ "--lib-timeout", set_lib_timeout },
	{ "--max-cv", set_max_cv },
	{ "--max-reruns", set_max_reruns },
	{ "--seed", set_seed },
	{ "--canary-disturb", set_canary_disturb },
	{ "--remeasure-max", set_remeasure_max },
	{ "--rounds", set_rounds },
};

/* The option with a value called NAME, or NULL. */
static const struct value_option *value_option_find(const char *name)
{
	for (size_t i = 0; i < sizeof(value_options) / sizeof(value_options[0]);
	     i++)
		if (strcmp(value_options[i].name, name) == 0)
			return &value_options[i];
	return NULL;
}

/* ARGV[*I], an option with a value: its value is after '=' or the next
 * argument (then *I moves past it). Returns 0 with it set in *o, or 2
 * after complaining. */
static int parse_value_option(int argc, char **argv, int *i,
			      struct options *o)
{
	const char *arg = argv[*i], *val, *eq = strchr(arg, '=');
	const struct value_option *opt;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	char name[32];

	if (strncmp(arg, "--", 2) != 0 || n >= sizeof(name)) {
		complain("unknown argument '%s'", arg);
		return 2;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	opt = value_option_find(name);
	if (!opt) {
		complain("unknown option '%s'", name);
		return 2;
	}
	if (eq) {
		val = eq + 1;
	} else if (*i + 1 < argc) {
		val = argv[++*i];
	} else {
		complain("option '%s' needs a value", name);
		return 2;
	}
	return opt->set(val, o);
}

/* Fill in the defaults of what the command line left unset, check
 * --repetitions against --max-reruns, and apply --seed. Returns 0, or 2
 * after complaining. */
static int finish_options(struct options *o)
{
	if (o->min_batch_ns == 0)
		o->min_batch_ns = o->quick ? QUICK_MIN_BATCH_NS
				  : o->interleave && !o->duet
					? INTERLEAVE_MIN_BATCH_NS
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
	if (o->rounds == 0)
		o->rounds = o->quick ? INTERLEAVE_QUICK_ROUNDS
				     : INTERLEAVE_ROUNDS;
	if (o->algos_none && o->nalgos > 0) {
		complain("--algos none names no other algorithm");
		return 2;
	}
	if (o->interleave && o->no_fork) {
		complain("--interleave needs a process per library: not with --no-fork");
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
	/* a replacement takes the place of the library of its name */
	for (size_t i = 0; i < o->nreplaces; i++) {
		size_t k = 0;

		while (k < o->nlibs &&
		       strcmp(o->libs[k]->name, o->replaces[i]->name) != 0)
			k++;
		if (k == o->nlibs) {
			complain("--replace: library '%s' is not measured",
				 o->replaces[i]->name);
			return 2;
		}
		o->libs[k] = o->replaces[i];
	}
	for (size_t i = 0; i < o->nbuilds; i++) {
		if (o->nlibs == MAX_LIBS) {
			complain("too many libraries");
			return 2;
		}
		o->libs[o->nlibs++] = o->builds[i];
	}
	if (o->nalgos == 0 && !o->algos_none)
		for (int a = 0; a < GUEST_ALGO_COUNT; a++)
			o->algos[o->nalgos++] = (enum guest_algo)a;
	if (o->seed_set)
		shuffle_options(o);
	return 0;
}

int parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->remeasure_max = CANARY_REMEASURE_PCT;
	for (int i = 1; i < argc; i++) {
		int rc = parse_flag(argv[i], o);

		if (rc == 1)
			return 1;
		if (rc == 0)
			continue;
		rc = parse_value_option(argc, argv, &i, o);
		if (rc != 0)
			return rc;
	}
	return finish_options(o);
}
