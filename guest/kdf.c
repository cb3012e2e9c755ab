/* guest/kdf.c - the key derivation functions of a run: known answers,
 * timing, the comparison between libraries and the lines that report
 * them (see kdf.h and guest/PROTOCOL.md, "Key derivation"). */
#include "compat.h"

#include <string.h>
#include <sys/mman.h>

#include "emit.h"
#include "kdf-kat.h"
#include "kdf.h"
#include "place.h"

/* The timed path's inputs, the same in every library: the password
 * (HKDF's input keying material) is the run's key, bytes 0x10 .. 0x2f
 * (guest/main.c); the salt the 16 bytes 0x40 .. 0x4f (Argon2id's salt
 * is 16 bytes, as libsodium requires); HKDF's info the 16 bytes
 * 0x60 .. 0x6f; Argon2id has no secret and no associated data (most
 * libraries' APIs take neither). */
#define KDF_PASS_BYTES 32
#define KDF_SALT_BYTES 16
#define KDF_SALT_FIRST 0x40
#define KDF_INFO_BYTES 16
#define KDF_INFO_FIRST 0x60

/* The slow KDFs (scrypt, Argon2id: tens to hundreds of ms a derivation)
 * are timed in one set of at most this many batches, to keep a run's
 * added cost small. */
#define KDF_SLOW_REPETITIONS 3

/* Fill BUF with the N bytes FIRST, FIRST + 1, ... */
static void fill_from(uint8_t *buf, size_t n, unsigned first)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)(first + i);
}

struct kdf_shared *kdf_shared_new(void)
{
	struct kdf_shared *p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, sizeof(*p));
	return p;
}

void kdf_shared_free(struct kdf_shared *p)
{
	if (p)
		munmap(p, sizeof(*p));
}

/* What one timed batch works on. */
struct kdf_arg {
	const struct guest_kdf_ops *kdf;
	enum guest_kdf_algo algo;
	const struct guest_kdf_input *in;
	uint8_t *out;
};

/* CALLS derivations (bench_batch_fn); 0, or -1 when one failed. */
static int batch_derive(void *p, uint64_t calls)
{
	const struct kdf_arg *a = p;

	for (uint64_t i = 0; i < calls; i++)
		if (a->kdf->derive(a->algo, a->in, a->out) != 0)
			return -1;
	return 0;
}

/* The position of B in run->o->libs, or -1. */
static int lib_index(const struct run *run, const struct guest_backend *b)
{
	for (size_t i = 0; i < run->o->nlibs; i++)
		if (run->o->libs[i] == b)
			return (int)i;
	return -1;
}

/* The timed path's inputs of one KDF; arg points into it (it does not
 * move once set up). */
struct kdf_path {
	uint8_t salt[KDF_SALT_BYTES], info[KDF_INFO_BYTES];
	struct guest_kdf_input in;
	struct kdf_arg arg;
};

/* Set up P for ALGO in B, the derived key into OUT. */
static void path_setup(struct run *run, const struct guest_backend *b,
		       enum guest_kdf_algo algo, uint8_t *out,
		       struct kdf_path *p)
{
	const struct kdf_algorithm *t = &kdf_table[algo];
	struct kdf_arg arg = { b->kdf, algo, &p->in, out };

	fill_from(p->salt, sizeof(p->salt), KDF_SALT_FIRST);
	fill_from(p->info, sizeof(p->info), KDF_INFO_FIRST);
	memset(&p->in, 0, sizeof(p->in));
	p->in.pass = run->key;
	p->in.pass_bytes = KDF_PASS_BYTES;
	p->in.salt = p->salt;
	p->in.salt_bytes = sizeof(p->salt);
	p->in.info = p->info;
	p->in.info_bytes = sizeof(p->info);
	p->in.cost = t->iterations;
	p->in.block = t->block_size;
	p->in.memory_kib = algo == GUEST_KDF_ARGON2ID ?
			   (uint32_t)t->memory_kib : 0;
	p->in.lanes = t->parallelism;
	p->in.out_bytes = t->output_bytes;
	p->arg = arg;
}

/* Time one derivation of ALGO in B at the cost of kdf_table into *OUT,
 * printing an `error` line when it fails. */
static void time_derive(struct run *run, const struct guest_backend *b,
			enum guest_kdf_algo algo, struct kdf_outcome *out)
{
	const struct kdf_algorithm *t = &kdf_table[algo];
	struct bench_params p = run->params;
	struct kdf_path path;
	int rc;

	path_setup(run, b, algo, out->out, &path);
	if (algo == GUEST_KDF_SCRYPT || algo == GUEST_KDF_ARGON2ID) {
		p.sets = 1;
		if (p.repetitions > KDF_SLOW_REPETITIONS)
			p.repetitions = KDF_SLOW_REPETITIONS;
	}
	rc = bench_measure(batch_derive, &path.arg, 1, &p, NULL, &out->r);
	run->counts->measure_ns += out->r.spent_ns;
	if (rc < 0) {
		check_emit(emit_error(b->name, t->name, "derivation failed"));
		return;
	}
	out->have = true;
}

/* ALGO's `unsupported` line in B, or its known-answer tests (`kat`
 * lines); fills OUT's measured, kat_ok and nkat. Returns whether B has
 * ALGO. */
static bool open_kdf(const struct guest_backend *b, enum guest_kdf_algo a,
		     struct kdf_outcome *out)
{
	const char *name = kdf_table[a].name;
	const struct kdf_kat *v;
	size_t nv;

	if (!b->kdf || !b->kdf->supports(a)) {
		check_emit(emit_unsupported(b->name, name));
		return false;
	}
	v = kdf_kat_table(&nv);
	out->measured = true;
	out->kat_ok = true;
	for (size_t i = 0; i < nv; i++) {
		enum kdf_kat_rc rc;

		if (v[i].algo != a)
			continue;
		rc = kdf_kat_run(b->kdf, &v[i]);
		if (rc == KDF_KAT_SKIP)
			continue;
		out->nkat++;
		out->kat_ok = out->kat_ok && rc == KDF_KAT_PASS;
		check_emit(emit_kat(b->name, name, rc == KDF_KAT_PASS,
				    v[i].source));
	}
	return true;
}

void kdf_measure_library(struct run *run, const struct guest_backend *b)
{
	int idx = run->kdf ? lib_index(run, b) : -1;

	if (idx < 0)
		return;
	for (int a = 0; a < GUEST_KDF_COUNT; a++) {
		struct kdf_outcome *out = &run->kdf->o[idx][a];

		if (!run->o->kdf[a])
			continue;
		if (open_kdf(b, (enum guest_kdf_algo)a, out))
			time_derive(run, b, (enum guest_kdf_algo)a, out);
	}
}

/* --- interleaved points (kdf_duet_*, --interleave and a duet), in a
 * worker process --- */

static struct {
	bool open;		/* path is set up, calls calibrated */
	bool algo_open;		/* path is set up */
	const struct guest_backend *b;
	enum guest_kdf_algo algo;
	struct kdf_path path;
	uint64_t calls;
	bool tsc;
	uint64_t ns, ticks, spent;	/* the last block */
} duet;

bool kdf_duet_algo(struct run *run, const struct guest_backend *b, int algo)
{
	int idx = run->kdf ? lib_index(run, b) : -1;

	duet.open = duet.algo_open = false;
	if (idx < 0 || algo < 0 || algo >= GUEST_KDF_COUNT ||
	    !open_kdf(b, (enum guest_kdf_algo)algo, &run->kdf->o[idx][algo]))
		return false;
	duet.b = b;
	duet.algo = (enum guest_kdf_algo)algo;
	path_setup(run, b, duet.algo, run->kdf->o[idx][algo].out,
		   &duet.path);
	duet.algo_open = true;
	return true;
}

int kdf_duet_op(struct run *run, uint64_t *calls, uint64_t *spent_ns)
{
	struct bench_result r;
	int rc;

	duet.open = false;
	if (!duet.algo_open)
		return -1;
	memset(&r, 0, sizeof(r));
	rc = bench_calibrate(batch_derive, &duet.path.arg, 1, &run->params,
			     NULL, &duet.calls, &r);
	*spent_ns = r.spent_ns;
	if (rc < 0) {
		check_emit(emit_error(duet.b->name, kdf_table[duet.algo].name,
				      "derivation failed"));
		return -1;
	}
	*calls = duet.calls;
	duet.tsc = run->params.tsc;
	duet.open = true;
	return 0;
}

/* place_call's function: one batch of the open KDF. */
static int duet_batch(void *unused)
{
	(void)unused;
	return bench_batch(batch_derive, &duet.path.arg, duet.calls, duet.tsc,
			   &duet.ns, &duet.ticks, &duet.spent);
}

int kdf_duet_block(uint32_t place, uint64_t *ns, uint64_t *ticks,
		   uint64_t *spent_ns)
{
	if (!duet.open)
		return -1;
	duet.spent = 0;
	if (place_call(place % PLACE_SPAN & ~15u, duet_batch, NULL) < 0) {
		*spent_ns = duet.spent;
		check_emit(emit_error(duet.b->name, kdf_table[duet.algo].name,
				      "derivation failed"));
		duet.open = false;
		return -1;
	}
	*ns = duet.ns;
	*ticks = duet.ticks;
	*spent_ns = duet.spent;
	return 0;
}

/* Whether outcome V may judge the others' keys: it derived one, and its
 * own known-answer tests ran and passed. */
static bool is_judge(const struct kdf_outcome *v)
{
	return v->measured && v->have && v->kat_ok && v->nkat > 0;
}

/* How many judges of ALGO (as report() counts them) share the most
 * common key that library IDX did not derive. */
static size_t largest_other(struct run *run, size_t idx, int algo)
{
	const struct kdf_outcome *o = &run->kdf->o[idx][algo];
	size_t bytes = kdf_table[algo].output_bytes, best = 0;

	for (size_t j = 0; j < run->o->nlibs; j++) {
		const struct kdf_outcome *v = &run->kdf->o[j][algo];
		size_t n = 0;

		if (!is_judge(v) || (o->have &&
				     memcmp(v->out, o->out, bytes) == 0))
			continue;
		for (size_t k = 0; k < run->o->nlibs; k++)
			if (k != idx && is_judge(&run->kdf->o[k][algo]) &&
			    memcmp(run->kdf->o[k][algo].out, v->out,
				   bytes) == 0)
				n++;
		if (n > best)
			best = n;
	}
	return best;
}

/* Step 2 for library IDX and ALGO: the kdfcheck line and the kdfresult
 * line. Judges are the other libraries that derived a key and whose own
 * known-answer tests of ALGO ran and passed. */
static void report(struct run *run, size_t idx, int algo)
{
	const struct kdf_outcome *o = &run->kdf->o[idx][algo];
	const struct kdf_algorithm *t = &kdf_table[algo];
	const char *yes[MAX_LIBS], *no[MAX_LIBS];
	size_t nyes = 0, nno = 0, judges = 0;
	const char *name = run->o->libs[idx]->name;
	bool verified;

	for (size_t j = 0; j < run->o->nlibs; j++) {
		const struct kdf_outcome *v = &run->kdf->o[j][algo];

		if (j == idx || !is_judge(v))
			continue;
		judges++;
		if (!o->have)
			continue;
		if (memcmp(v->out, o->out, t->output_bytes) == 0)
			yes[nyes++] = run->o->libs[j]->name;
		else
			no[nno++] = run->o->libs[j]->name;
	}
	/* the largest group of judges that derived one key decides: this
	 * library's key is held by itself and NYES judges, and must be
	 * held by more than any other key is (a library that derives
	 * another key costs only itself); with no judge, its known
	 * answers alone */
	verified = o->kat_ok && o->have &&
		   (judges == 0 ? o->nkat > 0 :
		    nyes + 1 > largest_other(run, idx, algo) && nyes > 0);
	check_emit(emit_kdfcheck(name, t->name, yes, nyes, no, nno));
	if (o->have)
		check_emit(emit_kdfresult(name, t, &o->r, verified));
}

void kdf_finish(struct run *run)
{
	if (!run->kdf)
		return;
	for (size_t i = 0; i < run->o->nlibs; i++)
		for (int a = 0; a < GUEST_KDF_COUNT; a++)
			if (run->kdf->o[i][a].measured)
				report(run, i, a);
}
