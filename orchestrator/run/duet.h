/* duet.h - `benchorch duet BASE NEW`: two images measured side by side,
 * taking turns block by block on one CPU (duet-run.h), each curve judged
 * in pairs (duet-judge.h), printed as a table, CSV or JSON
 * (duet-print.h). */
#ifndef BENCHORCH_DUET_H
#define BENCHORCH_DUET_H

#include <stdint.h>

#include "lib/format.h"
#include "orchestrator/run/runner.h"

/* The threshold of a verdict when none is given, a fraction: 3 %, as
 * compare's. Two guests of identical images still differ by up to about
 * 2.5 % on a few one-shot curves with tight intervals (ten A/A duets,
 * tests/bench/duet-aa.sh: 2 of 420 curves at -2.45 % and +2.63 % with a
 * 2 % threshold), a bias of the process pairing cannot see; below 3 % a
 * curve is not called changed. */
#define DUET_DEFAULT_THRESHOLD 0.03

/* Rounds of the first look when none are given; a curve still undecided
 * there gets as many again (duet-pass.h), up to twice these. At 24
 * rounds in one look, an A/A duet of OpenSSL's 96 --quick curves on a
 * 2-core VM had a median minimum detectable effect of 3.6 %
 * (tests/bench/duet-aa.sh); at 8 it was 6 to 7 %, the t quantile of 7
 * degrees of freedom at alpha / 96 weighing as much as the fewer rounds.
 * Most curves of an A/A duet are 'same' at the first look, so --quick
 * starts at fewer. The first look's rounds come from two pairs of
 * guests (duet.c), whose disagreement widens the interval and costs a
 * degree of freedom: at 12 rounds (6 + 6) the A/B benchmark's median
 * minimum detectable effect rose from 3.6 % to 4.5 %
 * (tests/bench/duet-ab.sh, 3 duets per K), the t quantile of 10
 * degrees of freedom at alpha / 28 / 2 looks (4.6) weighing most; 16
 * (8 + 8) gives 14 (4.0). */
#define DUET_ROUNDS 24
#define DUET_QUICK_ROUNDS 16

/* What to measure and how. Strings are borrowed. */
struct duet_request {
	const char *base, *new_name;	/* image names or specs (image_find) */
	const char *base_build, *new_build;	/* a build of that side's
					 * image (`benchorch rebuild`) loaded
					 * in place of its library, under the
					 * library's name; NULL = shipped */
	const char *libs, *algos;	/* the guest's lists; NULL = all */
	int quick;			/* 4 sizes, short blocks */
	int nohw;			/* the guest's --nohw: hardware
					 * acceleration masked */
	unsigned rounds;		/* blocks per point and image, the
					 * first look; 0 = DUET_ROUNDS or
					 * DUET_QUICK_ROUNDS */
	unsigned max_rounds;		/* the most rounds an undecided curve
					 * gets (duet-pass.h), >= rounds; 0 =
					 * twice rounds */
	int seed_set;
	uint64_t seed;			/* the guests' block order */
	double threshold;		/* a fraction, > 0 */
	enum runner_kind kind;
	long timeout_s;			/* per guest */
	enum format format;
	int fail_on_regression;		/* exit 4 on a tested slower curve */
	int quiet;			/* no progress on stderr */
	const char *state_dir;		/* images, logs */
	const char *db_path;		/* where the duet is stored
					 * (db/duets.h); NULL = nowhere */
	int no_print;			/* 1: print no verdicts on stdout (a
					 * confirmation's duet) */
	int64_t confirmation_run;	/* the confirmation run it belongs
					 * to, 0 = none; then DISTRO and
					 * RELEASE name its distribution */
	const char *distro, *release;
	int64_t *ret_duet_id;		/* not NULL: the stored duet's id,
					 * 0 when none was stored */
	const char *data_dir;		/* recipes (image_find of a spec) */
	const char *guest;		/* the glibc guest binary */
};

/* Run the duet R asks for and print its verdicts on stdout (progress and
 * faults on stderr). The libraries under test are those whose package
 * differs between the two images (image.json), or every library when
 * none does; the others are controls. Returns the exit status: 0, 1 when
 * a guest or a library in it failed (what was measured is still
 * printed), 2 when an image is unknown, 3 when the environment is not
 * fit (no log directory), 4 with fail_on_regression when a tested
 * library's curve is slower, 130/143 when interrupted. The duet, its
 * libraries, verdicts and measured blocks are stored in R->db_path
 * (duets, duet_libraries, duet_curves, duet_points) when both guests
 * ran; a database that cannot be written is said on stderr and exits 3,
 * after the verdicts are printed. */
int duet_execute(const struct duet_request *r);

#endif /* BENCHORCH_DUET_H */
