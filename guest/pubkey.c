/* guest/pubkey.c - the public-key algorithms of a run: known answers,
 * timing, the cross-check between libraries and the lines that report
 * them (see pubkey.h and guest/PROTOCOL.md, "Public key"). */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit.h"
#include "options.h"
#include "place.h"
#include "pubkey-kat.h"
#include "pubkey.h"
#include "rsa-keys.h"

/* The timed path's values, the same in every library: the private key
 * (X25519 and P-256 scalar, Ed25519 and ML-DSA seed) is the run's key,
 * bytes 0x10 .. 0x2f (guest/main.c), X448's 56-byte scalar the bytes
 * 0x10 .. 0x47 and ML-KEM's 64-byte seed d || z the bytes 0x10 .. 0x4f
 * (seed_of); the key agreements' peer has the private key 0x60, 0x61,
 * ... (0x7f for 32 bytes, 0x97 for X448's 56), its public key computed
 * by the library itself before timing; the signatures sign and verify the 64-byte message 0x40 ..
 * 0x7f; ML-KEM encapsulates to the seed's encapsulation key and
 * decapsulates what it encapsulated. ML-DSA's timed verification checks
 * the library's own last signature (ML-DSA signing is hedged, so no one
 * signature is every library's). */
#define PK_MSG_BYTES 64
#define PK_PEER_FIRST 0x60
#define PK_MSG_FIRST 0x40

/* RSA key generation (rsa-2048's keygen) takes tens to hundreds of ms a
 * key, and each key's time differs widely (the search for primes): it
 * is timed in one set of this many batches of one key each (the spread
 * is in the pkresult's quartiles, CV and samples), after the one
 * calibration batch and without the untimed call first; with --quick,
 * PK_KEYGEN_QUICK_SAMPLES. */
#define PK_KEYGEN_SAMPLES 5
#define PK_KEYGEN_QUICK_SAMPLES 3

/* The Ed25519 signature of that message under that seed, which the
 * timed verification checks (so that it verifies a good signature in
 * every library, whatever its own signing does): computed with
 * pyca/cryptography 48 when it was typed in; every library's known
 * answers and the cross-check confirm it in each run. */
static const uint8_t timed_sig_ed25519[GUEST_PK_SIG_BYTES] = {
	0xdf, 0x51, 0x41, 0x12, 0x6a, 0x22, 0x09, 0x00,
	0x4a, 0xa6, 0xcc, 0x6e, 0x37, 0x64, 0x95, 0x1b,
	0x43, 0x9b, 0x37, 0xb9, 0x30, 0x9f, 0x93, 0x6b,
	0x3d, 0xb7, 0x24, 0x46, 0x0e, 0x44, 0x3e, 0x9b,
	0x9c, 0x3c, 0x64, 0xe0, 0xdd, 0xd6, 0x1c, 0x11,
	0xe7, 0x6c, 0xd7, 0x0b, 0xb7, 0xcf, 0x4c, 0xdf,
	0x4e, 0xf4, 0x06, 0x61, 0xc8, 0xdd, 0x29, 0x42,
	0x38, 0x76, 0x46, 0x67, 0x5e, 0xcd, 0x71, 0x0c,
};

/* The ECDSA P-256 / SHA-256 signature (r || s) of that message under the
 * private scalar 0x1011 .. 2f, the one RFC 6979's deterministic nonce
 * gives (computed with pyca/cryptography 48 when it was typed in): the
 * timed verification checks it, the same good signature in every library
 * whether its own signing is randomised or not. */
static const uint8_t timed_sig_ecdsa[GUEST_PK_SIG_BYTES] = {
	0x90, 0x3a, 0x09, 0xe8, 0x42, 0xdf, 0x4f, 0x8d,
	0xda, 0x17, 0xc9, 0x6e, 0x80, 0xab, 0xcc, 0x04,
	0x5e, 0xe7, 0xf0, 0x84, 0x72, 0x32, 0x10, 0x82,
	0x2e, 0x67, 0xfa, 0x0d, 0x46, 0xbe, 0x46, 0x6c,
	0xc4, 0x85, 0xf1, 0x11, 0x52, 0xa0, 0x02, 0x88,
	0xd0, 0x2f, 0xe2, 0x68, 0xd3, 0x3f, 0xa6, 0x7b,
	0xd1, 0xf9, 0xa4, 0xe1, 0x87, 0xf1, 0xba, 0xb4,
	0x82, 0x3a, 0x37, 0x2e, 0x9e, 0x68, 0xc5, 0xc9,
};

/* The good signature of the message under the run's key that the timed
 * verification of signature algorithm ALGO checks: Ed25519's and
 * ECDSA's above, RSA's the known answers of its fixed key
 * (guest/rsa-keys.c; for PSS one of many). */
static const uint8_t *timed_sig(enum guest_pk_algo algo)
{
	const struct rsa_test_key *k = rsa_test_key_of(algo);

	if (k)
		return algo == GUEST_PK_RSA_PSS_2048 ? k->sig_pss : k->sig_pkcs1;
	return algo == GUEST_PK_ECDSA_P256 ? timed_sig_ecdsa : timed_sig_ed25519;
}

/* Fill BUF with the N bytes FIRST, FIRST + 1, ... */
static void fill_from(uint8_t *buf, size_t n, unsigned first)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)(first + i);
}

/* The private key of ALGO on the timed path into SEED
 * (guest_pk_priv_bytes(ALGO) bytes): the run's KEY (GUEST_MAX_KEY bytes
 * 0x10, 0x11, ...) continued in the same way where ALGO's seed is
 * longer. */
static void seed_of(const uint8_t *key, enum guest_pk_algo algo,
		    uint8_t *seed)
{
	size_t n = guest_pk_priv_bytes(algo);

	for (size_t i = 0; i < n; i++)
		seed[i] = i < GUEST_MAX_KEY ? key[i] : (uint8_t)(key[0] + i);
}

struct pk_shared *pubkey_shared_new(void)
{
	struct pk_shared *p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < MAX_LIBS; i++)
		for (int a = 0; a < GUEST_PK_COUNT; a++)
			memset(p->o[i][a].check, 0xff,
			       sizeof(p->o[i][a].check));
	return p;
}

void pubkey_shared_free(struct pk_shared *p)
{
	if (p)
		munmap(p, sizeof(*p));
}

/* What one timed batch works on. */
struct pk_arg {
	const struct guest_pk_ops *pk;
	enum guest_pk_algo algo;
	void *key;		/* private key (derive, sign) or public
				 * (verify) */
	const uint8_t *priv;	/* import: the raw private key */
	const uint8_t *in;	/* derive: the peer's public key; sign,
				 * verify: the message; decaps: the
				 * ciphertext */
	uint8_t *out;		/* derive, sign: the output; encaps: the
				 * ciphertext, then the shared secret */
	const uint8_t *sig;	/* verify: the good signature it checks */
	uint8_t *ss;		/* decaps: the shared secret */
};

/* Each of these runs CALLS operations (bench_batch_fn); 0, or -1 when
 * one failed (verify: also when it rejected the signature). */
static int batch_import(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;

	for (uint64_t i = 0; i < calls; i++) {
		void *k = a->pk->key_new(a->algo, a->priv);

		if (!k)
			return -1;
		a->pk->key_free(k);
	}
	return 0;
}

static int batch_derive(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;

	for (uint64_t i = 0; i < calls; i++)
		if (a->pk->derive(a->key, a->in, a->out) != 0)
			return -1;
	return 0;
}

static int batch_sign(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;

	for (uint64_t i = 0; i < calls; i++)
		if (a->pk->sign(a->key, a->in, PK_MSG_BYTES, a->out) != 0)
			return -1;
	return 0;
}

static int batch_verify(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;

	for (uint64_t i = 0; i < calls; i++)
		if (a->pk->verify(a->key, a->in, PK_MSG_BYTES, a->sig) != 0)
			return -1;
	return 0;
}

/* CALLS new key pairs (RSA keygen), each modulus checked to have its
 * size (top bit set) and to be odd; 0, or -1 when one failed. */
static int batch_keygen(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;
	size_t bytes = guest_pk_pub_bytes(a->algo);
	uint8_t n[GUEST_PK_PUB_MAX];

	for (uint64_t i = 0; i < calls; i++)
		if (a->pk->keygen(a->algo, n) != 0 || !(n[0] & 0x80) ||
		    !(n[bytes - 1] & 1))
			return -1;
	return 0;
}

static int batch_encaps(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;

	for (uint64_t i = 0; i < calls; i++)
		if (a->pk->encaps(a->key, a->out,
				  a->out + GUEST_PK_MLKEM_CT_BYTES) != 0)
			return -1;
	return 0;
}

static int batch_decaps(void *p, uint64_t calls)
{
	const struct pk_arg *a = p;

	for (uint64_t i = 0; i < calls; i++)
		if (a->pk->decaps(a->key, a->in, a->ss) != 0)
			return -1;
	return 0;
}

/* The batch function of operation NAME of ALGO: "keygen" is a new key
 * pair from the library's generator (RSA), or for the post-quantum
 * algorithms the key pair from its seed, their import. */
static bench_batch_fn batch_of(const char *name, enum guest_pk_algo algo)
{
	if (strcmp(name, "keygen") == 0)
		return guest_pk_is_pq(algo) ? batch_import : batch_keygen;
	if (strcmp(name, "import") == 0)
		return batch_import;
	if (strcmp(name, "encaps") == 0)
		return batch_encaps;
	if (strcmp(name, "decaps") == 0)
		return batch_decaps;
	if (strcmp(name, "derive") == 0)
		return batch_derive;
	return strcmp(name, "sign") == 0 ? batch_sign : batch_verify;
}

/* The position of B in run->o->libs, or -1. */
static int lib_index(const struct run *run, const struct guest_backend *b)
{
	for (size_t i = 0; i < run->o->nlibs; i++)
		if (run->o->libs[i] == b)
			return (int)i;
	return -1;
}

/* The timed path of one algorithm in one library: its inputs, the
 * batch argument that points into them, and its keys. Does not move
 * once opened (arg points into it). */
struct pk_path {
	uint8_t peer[GUEST_PK_PRIV_MAX], msg[PK_MSG_BYTES];
	uint8_t pub[GUEST_PK_PUB_MAX], seed[GUEST_PK_PRIV_MAX];
	uint8_t ss[GUEST_PK_KEY_BYTES];
	struct pk_arg arg;
	void *key, *other;
};

/* Set up P for ALGO in PK (the keys untimed), its outputs into *OUT.
 * Returns true, or false when the keys cannot be set up (P must still
 * be closed, path_close). */
static bool path_open(struct run *run, const struct guest_pk_ops *pk,
		      enum guest_pk_algo algo, struct pk_outcome *out,
		      struct pk_path *p)
{
	struct pk_arg arg = { pk, algo, NULL, p->seed, NULL, out->out,
			      algo == GUEST_PK_ML_DSA_65 ? out->out
							 : timed_sig(algo),
			      p->ss };
	bool ok;

	p->arg = arg;
	p->other = NULL;
	seed_of(run->key, algo, p->seed);
	p->key = pk->key_new(algo, p->seed);
	fill_from(p->peer, guest_pk_priv_bytes(algo), PK_PEER_FIRST);
	fill_from(p->msg, sizeof(p->msg), PK_MSG_FIRST);
	if (guest_pk_is_kem(algo)) {
		ok = p->key && pk->public_key(p->key, p->pub) == 0 &&
		     (p->other = pk->pub_new(algo, p->pub));
		p->arg.in = out->out;	/* decaps what encaps made */
	} else if (guest_pk_is_agreement(algo)) {
		/* the peer's public key, from its private key */
		ok = p->key && (p->other = pk->key_new(algo, p->peer)) &&
		     pk->public_key(p->other, p->pub) == 0;
		p->arg.in = p->pub;
	} else {
		ok = p->key && pk->public_key(p->key, p->pub) == 0 &&
		     (p->other = pk->pub_new(algo, p->pub));
		p->arg.in = p->msg;
	}
	return ok;
}

static void path_close(struct pk_path *p)
{
	p->arg.pk->key_free(p->key);
	p->arg.pk->key_free(p->other);
	p->key = p->other = NULL;
}

/* Whether operation FN can run now on P: ML-DSA verifies the signature
 * just made, and ML-KEM decapsulates the ciphertext just made, none
 * without it; sets the key FN works on. */
static bool path_op(struct pk_path *p, bench_batch_fn fn,
		    const struct pk_outcome *out)
{
	if (((p->arg.algo == GUEST_PK_ML_DSA_65 && fn == batch_verify) ||
	     fn == batch_decaps) && !out->out_ok)
		return false;
	p->arg.key = fn == batch_verify || fn == batch_encaps ? p->other
							      : p->key;
	return true;
}

/* After a successful batch of FN on P: its output is the timed path's
 * (derive, sign, encaps), or the decapsulation is checked against
 * it. Prints an `error` line (library B, algorithm NAME) when the
 * ciphertext came back with another secret. */
static void path_done(struct pk_path *p, bench_batch_fn fn,
		      struct pk_outcome *out, const char *lib,
		      const char *name)
{
	if (fn == batch_derive || fn == batch_sign || fn == batch_encaps)
		out->out_ok = true;
	if (fn == batch_decaps &&
	    memcmp(p->ss, out->out + GUEST_PK_MLKEM_CT_BYTES,
		   sizeof(p->ss)) != 0) {
		/* its own ciphertext came back with another secret */
		out->out_ok = false;
		check_emit(emit_error(lib, name,
				      "decaps gave another shared secret than encaps"));
	}
}

/* Time operation I of ALGO (library B, its ops PK) on PATH into
 * OUT->r[I] with the guest's timing (bench_measure; RSA key generation
 * in its documented count of samples, one set), setting OUT->have[I];
 * prints an `error` line when it fails. An operation that cannot run
 * now (path_op) or a keygen the backend lacks is left out. */
static void time_op(struct run *run, const struct guest_backend *b,
		    const struct guest_pk_ops *pk, enum guest_pk_algo algo,
		    struct pk_path *path, struct pk_outcome *out, int i)
{
	const struct pubkey_algorithm *t = &pubkey_table[algo];
	bench_batch_fn fn = batch_of(t->ops[i], algo);
	struct bench_params params = run->params;
	int rc;

	if (!path_op(path, fn, out))
		return;
	if (fn == batch_keygen) {
		if (!pk->keygen)
			return;
		params.sets = 1;
		params.repetitions = run->o->quick ? PK_KEYGEN_QUICK_SAMPLES :
						     PK_KEYGEN_SAMPLES;
	} else {
		/* one untimed call first: a library's one-time set-up on
		 * first use (wolfSSL 5.5's first P-256 verify and derive
		 * take milliseconds) is not an operation's cost, and
		 * calibration would take it for one */
		(void)fn(&path->arg, 1);
	}
	rc = bench_measure(fn, &path->arg, 1, &params, NULL, &out->r[i]);
	run->counts->measure_ns += out->r[i].spent_ns;
	if (rc < 0) {
		check_emit(emit_error(b->name, t->name, "%s failed", t->ops[i]));
		return;
	}
	out->have[i] = true;
	path_done(path, fn, out, b->name, t->name);
}

/* Time every operation of ALGO in B into *OUT (the keys set up
 * untimed), printing an `error` line for one that fails. */
static void time_ops(struct run *run, const struct guest_backend *b,
		     enum guest_pk_algo algo, struct pk_outcome *out)
{
	const struct pubkey_algorithm *t = &pubkey_table[algo];
	const struct guest_pk_ops *pk = guest_pk_ops_of(b, algo);
	struct pk_path path;
	bool ok = path_open(run, pk, algo, out, &path);

	for (int i = 0; ok && i < PUBKEY_MAX_OPS && t->ops[i]; i++)
		time_op(run, b, pk, algo, &path, out, i);
	if (!ok)
		check_emit(emit_error(b->name, t->name,
				      "cannot set up the keys of the timed path"));
	path_close(&path);
}

/* The known-answer tests of ALGO in B (its `kat` lines), or its
 * `unsupported` line; fills OUT's measured and kat_ok. Returns PK's ops
 * when supported, else NULL. */
static const struct guest_pk_ops *open_algo(const struct guest_backend *b,
					    enum guest_pk_algo a,
					    struct pk_outcome *out)
{
	const struct guest_pk_ops *pk = guest_pk_ops_of(b, a);
	const char *name = pubkey_table[a].name;
	const struct pk_kat *v[2];
	size_t nv[2];

	if (!pk || !pk->supports(a)) {
		check_emit(emit_unsupported(b->name, name));
		return NULL;
	}
	v[0] = pk_kat_table(&nv[0]);
	v[1] = pk_kat_pq_table(&nv[1]);
	out->measured = true;
	out->kat_ok = true;
	for (size_t t = 0; t < 2; t++) {
		for (size_t i = 0; i < nv[t]; i++) {
			bool ok;

			if (v[t][i].algo != a)
				continue;
			ok = pk_kat_run(pk, &v[t][i]);
			out->kat_ok = out->kat_ok && ok;
			check_emit(emit_kat(b->name, name, ok,
					    v[t][i].source));
		}
	}
	return pk;
}

void pubkey_measure_library(struct run *run, const struct guest_backend *b)
{
	int idx = run->pk ? lib_index(run, b) : -1;

	if (idx < 0)
		return;
	for (int a = 0; a < GUEST_PK_COUNT; a++) {
		struct pk_outcome *out = &run->pk->o[idx][a];

		if (!run->o->pk[a])
			continue;
		if (open_algo(b, (enum guest_pk_algo)a, out))
			time_ops(run, b, (enum guest_pk_algo)a, out);
	}
}

/* --- interleaved points (pubkey_duet_*, --interleave and a duet): one
 * algorithm at a time, one operation open at a time, in a worker
 * process --- */

static struct {
	bool algo_open;		/* path holds ALGO's keys */
	bool ok;		/* they were set up */
	const struct guest_backend *b;
	enum guest_pk_algo algo;
	struct pk_outcome *out;
	struct pk_path path;
	int op;			/* the open operation, -1 = none */
	bench_batch_fn fn;
	uint64_t calls;
	bool tsc;
	uint64_t ns, ticks, spent;	/* the last block */
} duet = { .op = -1 };

bool pubkey_duet_has_op(int algo, int i)
{
	const char *op;

	if (algo < 0 || algo >= GUEST_PK_COUNT || i < 0 ||
	    i >= PUBKEY_MAX_OPS || !(op = pubkey_table[algo].ops[i]))
		return false;
	/* a new RSA key's time varies by nature (the search for primes):
	 * no point (timed alone under --interleave, not judged in a
	 * duet); ML-KEM's and ML-DSA's keygen is the key
	 * pair from its seed, deterministic */
	return strcmp(op, "keygen") != 0 ||
	       guest_pk_is_pq((enum guest_pk_algo)algo);
}

void pubkey_duet_close(void)
{
	duet.op = -1;
	if (duet.algo_open)
		path_close(&duet.path);
	duet.algo_open = false;
}

bool pubkey_duet_algo(struct run *run, const struct guest_backend *b,
		      int algo)
{
	int idx = run->pk ? lib_index(run, b) : -1;
	const struct guest_pk_ops *pk;

	pubkey_duet_close();
	if (idx < 0 || algo < 0 || algo >= GUEST_PK_COUNT)
		return false;
	duet.b = b;
	duet.algo = (enum guest_pk_algo)algo;
	duet.out = &run->pk->o[idx][algo];
	if (!(pk = open_algo(b, duet.algo, duet.out)))
		return false;
	duet.ok = path_open(run, pk, duet.algo, duet.out, &duet.path);
	duet.algo_open = true;
	if (!duet.ok) {
		check_emit(emit_error(b->name, pubkey_table[algo].name,
				      "cannot set up the keys of the timed path"));
		return false;
	}
	/* not a point (RSA key generation): measured here, this library
	 * alone, as without --interleave; a duet leaves it out */
	for (int i = 0; !run->o->duet && i < PUBKEY_MAX_OPS &&
			pubkey_table[algo].ops[i]; i++)
		if (!pubkey_duet_has_op(algo, i))
			time_op(run, b, pk, duet.algo, &duet.path, duet.out,
				i);
	return true;
}

int pubkey_duet_op(struct run *run, int i, uint64_t *calls,
		   uint64_t *spent_ns)
{
	struct bench_result r;
	const char *name;

	duet.op = -1;
	if (!duet.algo_open || !duet.ok ||
	    !pubkey_duet_has_op((int)duet.algo, i))
		return -1;
	name = pubkey_table[duet.algo].ops[i];
	duet.fn = batch_of(name, duet.algo);
	if (!path_op(&duet.path, duet.fn, duet.out))
		return -1;
	/* one untimed call first, as time_ops does */
	(void)duet.fn(&duet.path.arg, 1);
	memset(&r, 0, sizeof(r));
	if (bench_calibrate(duet.fn, &duet.path.arg, 1, &run->params, NULL,
			    &duet.calls, &r) < 0) {
		*spent_ns = r.spent_ns;
		check_emit(emit_error(duet.b->name,
				      pubkey_table[duet.algo].name,
				      "%s failed", name));
		return -1;
	}
	*spent_ns = r.spent_ns;
	*calls = duet.calls;
	duet.op = i;
	duet.tsc = run->params.tsc;
	return 0;
}

/* place_call's function: one batch of the open operation. */
static int duet_batch(void *unused)
{
	(void)unused;
	return bench_batch(duet.fn, &duet.path.arg, duet.calls, duet.tsc,
			   &duet.ns, &duet.ticks, &duet.spent);
}

int pubkey_duet_block(uint32_t place, uint64_t *ns, uint64_t *ticks,
		      uint64_t *spent_ns)
{
	const struct pubkey_algorithm *t;

	if (duet.op < 0)
		return -1;
	t = &pubkey_table[duet.algo];
	duet.spent = 0;
	if (place_call(place % PLACE_SPAN & ~15u, duet_batch, NULL) < 0) {
		*spent_ns = duet.spent;
		check_emit(emit_error(duet.b->name, t->name, "%s failed",
				      t->ops[duet.op]));
		duet.op = -1;
		return -1;
	}
	*ns = duet.ns;
	*ticks = duet.ticks;
	*spent_ns = duet.spent;
	path_done(&duet.path, duet.fn, duet.out, duet.b->name, t->name);
	return 0;
}

/* Does PK confirm OUT, the timed path's output of another library for
 * ALGO? Key agreements: the shared secret from the peer's side (the
 * peer's private key with the public key of the run's key) equals it;
 * signatures: the signature verifies under the run key's public key
 * (RSA PKCS#1 v1.5: and is the known one, byte for byte); KEMs: the
 * ciphertext decapsulated with the run seed's key gives the shared
 * secret that follows it in OUT.
 * Returns 1 confirmed, 0 rejected, -1 when PK could not check. */
static int confirm(const struct guest_pk_ops *pk, enum guest_pk_algo algo,
		   const uint8_t *key, const uint8_t *out)
{
	uint8_t peer[GUEST_PK_PRIV_MAX], pub[GUEST_PK_PUB_MAX];
	uint8_t msg[PK_MSG_BYTES], s[GUEST_PK_SECRET_MAX];
	uint8_t seed[GUEST_PK_PRIV_MAX];
	void *own, *other = NULL;
	int rc = -1;

	seed_of(key, algo, seed);
	own = pk->key_new(algo, seed);
	fill_from(peer, guest_pk_priv_bytes(algo), PK_PEER_FIRST);
	fill_from(msg, sizeof(msg), PK_MSG_FIRST);
	if (!own || pk->public_key(own, pub) != 0)
		goto out;
	if (guest_pk_is_kem(algo)) {
		if (pk->decaps(own, out, s) == 0)
			rc = memcmp(s, out + GUEST_PK_MLKEM_CT_BYTES,
				    GUEST_PK_KEY_BYTES) == 0;
	} else if (guest_pk_is_agreement(algo)) {
		if ((other = pk->key_new(algo, peer)) &&
		    pk->derive(other, pub, s) == 0)
			rc = memcmp(s, out, guest_pk_secret_bytes(algo)) == 0;
	} else if ((other = pk->pub_new(algo, pub))) {
		int v = pk->verify(other, msg, PK_MSG_BYTES, out);

		rc = v == 0 ? 1 : v == 1 ? 0 : -1;
		/* PKCS#1 v1.5 is deterministic: a signature that verifies
		 * must also be the one signature there is */
		if (rc == 1 && guest_pk_is_rsa(algo) &&
		    algo != GUEST_PK_RSA_PSS_2048)
			rc = memcmp(out, timed_sig(algo),
				    guest_pk_sig_bytes(algo)) == 0;
	}
out:
	pk->key_free(own);
	pk->key_free(other);
	return rc;
}

/* Step 2 for library IDX in the calling process: load it (printing
 * nothing) and give its verdict on every other library's output. */
static void check_others(struct run *run, size_t idx)
{
	const struct guest_backend *b = run->o->libs[idx];
	struct guest_lib_info info;
	char why[256];

	memset(&info, 0, sizeof(info));
	if (backend_load(b, &info, why, sizeof(why)) != GUEST_LOAD_OK)
		return;
	for (int a = 0; a < GUEST_PK_COUNT; a++) {
		const struct guest_pk_ops *pk =
			guest_pk_ops_of(b, (enum guest_pk_algo)a);

		if (!run->o->pk[a] || !pk ||
		    !pk->supports((enum guest_pk_algo)a))
			continue;
		for (size_t j = 0; j < run->o->nlibs; j++) {
			struct pk_outcome *o = &run->pk->o[j][a];

			if (j != idx && o->measured && o->out_ok)
				o->check[idx] = (int8_t)confirm(
					pk, (enum guest_pk_algo)a,
					run->key, o->out);
		}
	}
}

/* Step 2 for library IDX in a child process: its stdout goes nowhere
 * (it prints no line), and it is killed after --lib-timeout. Prints an
 * `error` line when it ends in any other way than its own exit 0. */
static void check_others_isolated(struct run *run, size_t idx)
{
	const char *name = run->o->libs[idx]->name;
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null < 0 || dup2(null, 1) < 0)
			_exit(1);
		alarm((unsigned)run->o->lib_timeout_s);
		check_others(run, idx);
		_exit(0);
	}
	if (pid < 0) {
		check_others(run, idx);
		return;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (status != 0)
		check_emit(emit_error(name, "",
				      "public-key cross-check ended early (wait status %d)",
				      status));
}

/* Step 3 for library IDX and ALGO: the pkcheck line and the pkresult
 * lines. */
static void report(struct run *run, size_t idx, int algo)
{
	const struct pk_outcome *o = &run->pk->o[idx][algo];
	const struct pubkey_algorithm *t = &pubkey_table[algo];
	const char *yes[MAX_LIBS], *no[MAX_LIBS];
	size_t nyes = 0, nno = 0, checkers = 0;
	const char *name = run->o->libs[idx]->name;
	bool verified;

	for (size_t j = 0; j < run->o->nlibs; j++) {
		const struct pk_outcome *v = &run->pk->o[j][algo];

		/* only a library whose own known answers passed judges */
		if (j == idx || !v->measured || !v->kat_ok)
			continue;
		checkers++;
		if (o->check[j] == 1)
			yes[nyes++] = run->o->libs[j]->name;
		else if (o->check[j] == 0)
			no[nno++] = run->o->libs[j]->name;
	}
	/* the majority of the judges: a judge that rejects what more
	 * others confirm costs only itself (with none to ask, the known
	 * answers alone) */
	verified = o->kat_ok && o->out_ok && (checkers == 0 || nyes > nno);
	check_emit(emit_pkcheck(name, t->name, yes, nyes, no, nno));
	for (int i = 0; i < PUBKEY_MAX_OPS && t->ops[i]; i++)
		if (o->have[i])
			check_emit(emit_pkresult(name, t->name, t->ops[i],
						 &o->r[i], verified));
}

void pubkey_finish(struct run *run)
{
	if (!run->pk)
		return;
	for (size_t i = 0; i < run->o->nlibs; i++) {
		bool any = false;

		for (int a = 0; a < GUEST_PK_COUNT; a++)
			any = any || run->pk->o[i][a].measured;
		if (!any)
			continue;
		if (run->o->no_fork)
			check_others(run, i);
		else
			check_others_isolated(run, i);
	}
	for (size_t i = 0; i < run->o->nlibs; i++)
		for (int a = 0; a < GUEST_PK_COUNT; a++)
			if (run->pk->o[i][a].measured)
				report(run, i, a);
}
