/* guest/options.h - the guest's command line (options.c): what a run
 * measures, and how. */
#ifndef GUEST_OPTIONS_H
#define GUEST_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "backend.h"

/* Most libraries a run takes (--libs). */
#define MAX_LIBS 32

/* Buffer sizes in bytes: the FULL_SIZES powers of two 16 << 0 .. 16 << 16
 * (1 MiB), or --quick's 4. */
#define FULL_SIZES 17
#define MAX_BUFFER ((size_t)16 << (FULL_SIZES - 1))
/* The options of a run, after parse_args(): every default filled in. */
struct options {
	bool quick;
	uint64_t min_batch_ns;		/* 0 = default */
	unsigned repetitions;		/* 0 = default */
	const struct guest_backend *libs[MAX_LIBS];
	size_t nlibs;			/* 0 = all compiled in */
	const struct guest_backend *builds[GUEST_MAX_BUILDS];
	size_t nbuilds;			/* --build: measured after libs,
					 * as libraries of their own */
	const struct guest_backend *replaces[GUEST_MAX_BUILDS];
	size_t nreplaces;		/* --replace: each takes the place
					 * of the library of its name */
	enum guest_algo algos[GUEST_ALGO_COUNT];
	size_t nalgos;			/* 0 = all, or none with
					 * algos_none */
	bool algos_none;		/* --algos none */
	bool pubkey;			/* --pubkey given */
	bool pk[GUEST_PK_COUNT];	/* --pubkey: which public-key
					 * algorithms run */
	bool kdf_any;			/* --kdf given */
	bool kdf[GUEST_KDF_COUNT];	/* --kdf: which key derivation
					 * functions run */
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
	bool interleave;		/* --interleave: the libraries take
					 * turns block by block
					 * (guest/interleave.h) */
	bool fixed_layout;		/* --fixed-layout: no address space
					 * randomisation (guest/place.h) */
	bool duet;			/* --duet: --interleave, and take
					 * turns with another guest
					 * (guest/turns.h) */
	unsigned rounds;		/* --rounds: blocks per library and
					 * point when interleaved */
	bool seed_set;			/* --seed given */
	uint64_t seed;			/* shuffles libs and algos */
};

/* Write TEXT (a C string, not NULL) to file descriptor FD, whole, retrying
 * on EINTR; errors are ignored (stops at the first failed write). */
void put_fd(int fd, const char *text);

/* Print "benchorch-guest: MESSAGE\n" on stderr (printf-style FMT; the
 * line is cut at 1 KiB). Errors ignored. */
void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse the command line ARGV[1 .. ARGC-1] into *o (o's libs point into the
 * static backend table). Returns 0 to run, 1 after printing help, the
 * version or a list on stdout (exit 0), 2 on a usage error (already
 * reported on stderr, without the "Try ... --help" line). */
int parse_args(int argc, char **argv, struct options *o);

#endif /* GUEST_OPTIONS_H */
