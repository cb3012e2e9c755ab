/* duet.c - `benchorch duet BASE NEW` from images to verdicts (see
 * duet.h). */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "db/duets.h"
#include "images/builds.h"
#include "images/image.h"
#include "lib/cpuinfo.h"
#include "lib/exitcode.h"
#include "lib/flavour.h"
#include "lib/messages.h"
#include "lib/paths.h"
#include "orchestrator/run/duet.h"
#include "orchestrator/run/duet-judge.h"
#include "orchestrator/run/duet-pass.h"
#include "orchestrator/run/duet-print.h"
#include "orchestrator/run/duet-run.h"
#include "orchestrator/run/progress.h"
#include "orchestrator/run/runner.h"

/* A plain progress line on stderr: "benchorch: duet: ...". */
static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("benchorch: duet: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* One image of the duet, with what its guest needs. */
struct side_prep {
	struct image *image;
	char *guest;		/* the musl guest, or NULL: the request's */
	char *logpath;
	int log_fd;
	struct build_info *build;	/* loaded in place of its library,
					 * or NULL */
	char *bind_src, *bind_dst, *replace;	/* its lib/, where the guest
					 * sees it, "LIBRARY:DIR" */
	const char *extra[3];		/* "--replace", replace, NULL */
	const char *bsrc[1], *bdst[1];
};

/* The build NAME of P's image into P (its bind mount and the guest's
 * --replace), for request R. Returns EXIT_OK, or EXIT_USAGE (no such
 * build, or its library left out by --libs) or EXIT_ENV after the
 * message. */
static int prepare_build(const struct duet_request *r, const char *name,
			 struct side_prep *p)
{
	struct build_info **v = NULL;
	size_t n = 0;
	const char *dg;
	bo_err err;

	if (builds_list(r->state_dir, p->image->name, &v, &n, &err) < 0) {
		cli_error("duet: %s", err.msg);
		return EXIT_ENV;
	}
	for (size_t i = 0; i < n && !p->build; i++)
		if (strcmp(v[i]->name, name) == 0) {
			p->build = v[i];
			v[i] = NULL;
		}
	builds_list_free(v, n);
	if (!p->build && build_broken(r->state_dir, p->image->name, name,
				      &err)) {
		cli_error("duet: build '%s' of image '%s' cannot be used: %s (`benchorch rebuild --remove %s %s` removes it)",
			  name, p->image->name, err.msg, p->image->name, name);
		return EXIT_FAILED;
	}
	if (!p->build)
		return cli_usage_error("duet", "no build '%s' of image '%s' (`benchorch rebuild --list` shows them)",
				       name, p->image->name);
	if (r->libs && !bo_list_has(r->libs, p->build->library))
		return cli_usage_error("duet", "build '%s' is of %s, which --libs leaves out",
				       name, p->build->library);
	/* what is measured is what was built */
	if (build_verify(p->build, &err) < 0) {
		cli_error("duet: %s", err.msg);
		return EXIT_FAILED;
	}
	dg = strchr(p->build->digest, ':');
	dg = dg ? dg + 1 : p->build->digest;
	p->bind_src = xasprintf("%s/%s", p->build->dir, BUILD_LIBDIR);
	p->bind_dst = xasprintf("%s/%s-%.12s", RUNNER_BUILDS_PATH,
				p->build->name, dg);
	p->replace = xasprintf("%s:%s", p->build->library, p->bind_dst);
	p->extra[0] = "--replace";
	p->extra[1] = p->replace;
	p->extra[2] = NULL;
	p->bsrc[0] = p->bind_src;
	p->bdst[0] = p->bind_dst;
	return EXIT_OK;
}

/* Find image NAME (a name or a spec) and its guest; open its log in
 * R->state_dir/logs, named after STAMP and SIDE ("base", "new"): its
 * guest's stderr, duet-STAMP-SIDE-IMAGE.log. Returns EXIT_OK, or
 * EXIT_USAGE (no such image) or EXIT_ENV after the message. */
static int prepare(const struct duet_request *r, const char *name,
		   const char *side, const char *stamp, struct side_prep *p)
{
	struct image_ctx ictx = { .state_dir = r->state_dir,
				  .data_dir = r->data_dir };
	enum guest_flavour fl;
	char *dir;
	bo_err err;

	if (image_find(&ictx, name, &p->image, &err) < 0)
		return cli_usage_error("duet", "%s", err.msg);
	if (guest_flavour_detect(p->image->rootfs, &fl, &err) < 0) {
		cli_error("duet: %s: %s", p->image->name, err.msg);
		return EXIT_ENV;
	}
	if (fl == GUEST_FLAVOUR_MUSL)
		p->guest = paths_guest(fl);
	dir = xasprintf("%s/logs", r->state_dir);
	if (bo_mkdir_p(dir, &err) < 0) {
		free(dir);
		cli_error("duet: %s", err.msg);
		return EXIT_ENV;
	}
	p->logpath = xasprintf("%s/duet-%s-%s-%s.log", dir, stamp, side,
			       p->image->name);
	free(dir);
	p->log_fd = open(p->logpath, O_RDWR | O_CREAT | O_TRUNC | O_APPEND |
			 O_CLOEXEC, 0644);
	if (p->log_fd < 0) {
		cli_error("duet: cannot open the guest log %s", p->logpath);
		return EXIT_ENV;
	}
	return EXIT_OK;
}

static void prep_free(struct side_prep *p)
{
	if (p->build)
		build_info_free(p->build);
	free(p->bind_src);
	free(p->bind_dst);
	free(p->replace);
	if (p->log_fd >= 0)
		close(p->log_fd);
	image_free(p->image);
	free(p->guest);
	free(p->logpath);
}

/* LIBRARY's line in OUT, or NULL. */
static const struct guest_library *library_of(const struct guest_output *out,
					       const char *library)
{
	for (size_t i = 0; i < out->nlibraries; i++)
		if (!strcmp(out->libraries[i].name, library))
			return &out->libraries[i];
	return NULL;
}

/* Whether two strings, either NULL, differ. */
static int differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

/* The libraries under test: those loaded on both sides whose build id,
 * version or package version differs, in a new NULL-terminated array
 * (strings borrowed from S[1].out); NULL when none differs (every
 * library is then under test). */
static const char **tested_libraries(const struct duet_side s[2],
				     const struct side_prep p[2])
{
	const struct guest_output *n = &s[1].out;
	const char **v = xcalloc(n->nlibraries + 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < n->nlibraries; i++) {
		const struct guest_library *ln = &n->libraries[i];
		const struct guest_library *lb = library_of(&s[0].out, ln->name);
		const char *pb = image_library_package(p[0].image, ln->name);
		const char *pn = image_library_package(p[1].image, ln->name);

		if (!lb || !ln->loaded || !lb->loaded)
			continue;
		if (differ(lb->build_id, ln->build_id) ||
		    differ(lb->version, ln->version) || differ(pb, pn) ||
		    (pb && pn && differ(image_package_version(p[0].image, pb),
					image_package_version(p[1].image, pn))))
			v[k++] = ln->name;
	}
	if (k == 0) {
		free(v);
		return NULL;
	}
	return v;
}

/* Store the duet of request R (sides S, images P, verdicts C, N of them,
 * TESTED as tested_libraries gave it; STARTED, PINNED) in r->db_path with
 * STATUS ("done", "failed", "aborted") and ERROR (NULL = none); what the
 * guests measured is stored whatever the status. Returns EXIT_OK, or
 * EXIT_ENV after one line on stderr. */
static int store(const struct duet_request *r, const struct duet_side s[2],
		 const struct side_prep p[2], const struct duet_curve *c,
		 size_t n, const char *const *tested, const char *started,
		 int pinned, const char *status, const char *error)
{
	static const char *const side_names[2] = { "base", "new" };
	struct db_duet d;
	struct db_duet_library *l;
	struct db_duet_curve *dc = xcalloc(n + 1, sizeof(*dc));
	struct cpuinfo ci;
	const struct guest_output *outs[2] = { &s[0].out, &s[1].out };
	char host[256] = "", finished[32];
	size_t nl = 0;
	sqlite3 *db;
	int64_t id;
	bo_err err;
	int rc;

	l = xcalloc(s[0].out.nlibraries + s[1].out.nlibraries + 1,
		    sizeof(*l));
	for (unsigned i = 0; i < 2; i++)
		for (size_t k = 0; k < s[i].out.nlibraries; k++) {
			const struct guest_library *g = &s[i].out.libraries[k];
			const char *pkg = image_library_package(p[i].image,
								g->name);

			if (!g->loaded)
				continue;
			l[nl].side = side_names[i];
			l[nl].library = g->name;
			l[nl].version = g->version;
			l[nl].build_id = g->build_id;
			l[nl].path = g->path;
			l[nl].package = pkg;
			l[nl].package_version = pkg ?
				image_package_version(p[i].image, pkg) : NULL;
			l[nl].tested = duet_is_tested(tested, g->name);
			nl++;
		}
	for (size_t i = 0; i < n; i++) {
		dc[i].library = c[i].library;
		dc[i].algorithm = c[i].algorithm;
		dc[i].operation = c[i].operation;
		dc[i].mode = c[i].mode;
		dc[i].tested = c[i].tested;
		dc[i].verdict = c[i].r.verdict == PV_MORE ? "undecided" :
				pv_verdict_name(c[i].r.verdict);
		dc[i].effect = c[i].r.effect;
		dc[i].low = c[i].r.low;
		dc[i].high = c[i].r.high;
		dc[i].p = c[i].r.p;
		dc[i].mde = c[i].r.mde;
		dc[i].rounds = c[i].r.rounds;
		dc[i].sizes = c[i].nsizes;
	}
	memset(&ci, 0, sizeof(ci));
	if (cpuinfo_read("/proc/cpuinfo", &ci, &err) < 0)
		memset(&ci, 0, sizeof(ci));
	gethostname(host, sizeof(host) - 1);
	memset(&d, 0, sizeof(d));
	d.started_at = started;
	d.finished_at = bo_utc_now(finished, sizeof(finished));
	d.host = host;
	d.cpu_model = ci.model_name ? ci.model_name : "";
	d.pinned_cpu = pinned;
	d.base_image = p[0].image->name;
	d.base_digest = p[0].image->digest;
	d.new_image = p[1].image->name;
	d.new_digest = p[1].image->digest;
	d.base_build = p[0].build ? p[0].build->name : NULL;
	d.new_build = p[1].build ? p[1].build->name : NULL;
	d.quick = r->quick;
	d.rounds = r->rounds;
	d.max_rounds = r->max_rounds;
	d.nohw = r->nohw;
	d.seed = r->seed;
	d.threshold = r->threshold;
	d.libs = r->libs;
	d.algos = r->algos;
	d.mde_median = n ? duet_median_mde(c, n, 1) : -1;
	d.status = status;
	d.error = error;
	d.confirmation_run_id = r->confirmation_run;
	d.distro = r->distro;
	d.release = r->release;
	rc = db_open(r->db_path, &db, &err);
	if (rc == 0) {
		rc = db_duet_store(db, &d, l, nl, dc, n, outs, &id, &err);
		sqlite3_close(db);
	}
	if (rc < 0)
		cli_error("duet: cannot store the duet in '%s': %s",
			  r->db_path, err.msg);
	else
		note("stored as duet %lld (%s) in %s (duet_curves_v)",
		     (long long)id, status, r->db_path);
	if (rc == 0 && r->ret_duet_id)
		*r->ret_duet_id = id;
	cpuinfo_release(&ci);
	free(l);
	free(dc);
	return rc < 0 ? EXIT_ENV : EXIT_OK;
}

/* Say on stderr how each side's guest ended when it failed, and which
 * libraries failed in it. Returns the count of failures. */
static size_t report_faults(const struct duet_side s[2],
			    const struct side_prep p[2])
{
	size_t bad = 0;

	for (unsigned i = 0; i < 2; i++) {
		struct guest_fault *f;
		size_t nf;

		if (s[i].rc < 0) {
			cli_error("duet: %s: %s (guest log: %s)",
				  p[i].image->name, s[i].err.msg,
				  p[i].logpath);
			bad++;
			continue;
		}
		nf = guest_output_faults(&s[i].out, &f);
		for (size_t k = 0; k < nf; k++)
			cli_error("duet: %s: library '%s' failed: %s (its "
				  "curves are left out)", p[i].image->name,
				  f[k].library, f[k].what);
		free(f);
		bad += nf;
	}
	return bad;
}

/* Whether LIST (comma-separated, NULL: none named) names an algorithm
 * with an operation a duet leaves out: RSA key generation. */
static int keygen_named(const char *list)
{
	size_t n = strlen("rsa-2048");

	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
		if (strncmp(p, "rsa-2048", n) == 0 && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* The guest's arguments for R, into ARGS (at least 24), with their
 * values in BUFS; SYM, PK and KDF are R->algos split
 * (duet_split_algos). */
static void guest_args(const struct duet_request *r, int cpu,
		       const char **args, char bufs[3][24], const char *sym,
		       const char *pk, const char *kdf)
{
	size_t n = 0;

	snprintf(bufs[0], 24, "%d", cpu);
	snprintf(bufs[1], 24, "%llu", (unsigned long long)r->seed);
	snprintf(bufs[2], 24, "%u", r->rounds);
	if (cpu >= 0) {
		args[n++] = "--cpu";
		args[n++] = bufs[0];
	}
	args[n++] = "--seed";
	args[n++] = bufs[1];
	args[n++] = "--rounds";
	args[n++] = bufs[2];
	if (r->quick)
		args[n++] = "--quick";
	if (r->nohw)
		args[n++] = "--nohw";
	if (r->libs) {
		args[n++] = "--libs";
		args[n++] = r->libs;
	}
	if (sym) {
		args[n++] = "--algos";
		args[n++] = sym;
	}
	/* public-key operations and key derivation: points that take
	 * turns as well */
	if (pk) {
		args[n++] = "--pubkey";
		args[n++] = pk;
	}
	if (kdf) {
		args[n++] = "--kdf";
		args[n++] = kdf;
	}
	/* the same addresses in both guests: they differ only where
	 * their images do (guest/place.h) */
	args[n++] = "--fixed-layout";
	args[n] = NULL;
}

/* What the progress shows: the images' names and the live line. */
struct duet_progress {
	struct progress pg;
	char name[2][144];	/* "base IMAGE", "new IMAGE" */
	int done[2];
	uint64_t t0;
};

/* duet_config.on_output (under the duet's lock): on a terminal the live
 * line names the side, image and library measured now; a line when a
 * guest ends ("duet new IMAGE: 12.3 s, 55 points"). */
static void on_output(void *ctx, unsigned side, const struct guest_output *out)
{
	struct duet_progress *dp = ctx;

	if (out->nresults && !out->have_done) {
		snprintf(dp->pg.spec, sizeof(dp->pg.spec), "%s",
			 dp->name[side]);
		progress_library(&dp->pg,
				 out->results[out->nresults - 1].library);
	}
	if (out->have_done && !dp->done[side]) {
		dp->done[side] = 1;
		progress_end(&dp->pg, dp->name[side], 1,
			     bo_now_ns() - dp->t0, out->nresults,
			     0, 0);
	}
}

/* The most pairs of guests one duet starts: two at the first look, then
 * one per doubling of the rounds up to GUEST_MAX_REPETITIONS. */
#define DUET_MAX_PASSES 16

/* The pairs of guests of a first look. */
#ifndef DUET_FIRST_PAIRS
#define DUET_FIRST_PAIRS 2
#endif

/* The pairs of guests (passes) a duet's rounds came from: pass j
 * measured from round START[j] on (duet_judge_params.pass_start). */
struct duet_passes {
	unsigned start[DUET_MAX_PASSES];
	unsigned n;		/* passes run and merged */
	unsigned total;		/* rounds measured by them */
};

/* Run one pass of the duet: R's guests (R->rounds rounds of R->libs and
 * R->algos, seed R->seed) on the images of P by DC, into S (zeroed here;
 * the caller releases its outputs). PASS (1, 2, ...) names it in the
 * progress DP. */
static void run_pass(const struct duet_request *r, struct duet_config *dc,
		     const struct side_prep p[2], struct duet_side s[2],
		     unsigned pass, struct duet_progress *dp)
{
	const char *args[28];
	char bufs[3][24], stage[32], *sym, *pk, *kdf;
	bo_err err;

	memset(s, 0, 2 * sizeof(*s));
	for (unsigned i = 0; i < 2; i++) {
		s[i].name = p[i].image->name;
		s[i].rootfs = p[i].image->rootfs;
		s[i].guest = p[i].guest ? p[i].guest : r->guest;
		s[i].log_fd = p[i].log_fd;
		if (p[i].build) {
			s[i].extra_args = p[i].extra;
			s[i].nbinds = 1;
			s[i].bind_src = p[i].bsrc;
			s[i].bind_dst = p[i].bdst;
		}
		dp->done[i] = 0;
	}
	duet_split_algos(r->algos, &sym, &pk, &kdf);
	guest_args(r, dc->cpu, args, bufs, sym, pk, kdf);
	dc->guest_args = args;
	dc->first = (unsigned)(r->seed & 1);
	if (pass > 1)
		snprintf(stage, sizeof(stage), "duet pass %u", pass);
	else
		snprintf(stage, sizeof(stage), "duet");
	dp->pg.stage = stage;
	dp->t0 = bo_now_ns();
	progress_begin(&dp->pg, dp->name[0], 1);
	duet_run(dc, s, &err);
	for (unsigned i = 0; i < 2; i++)	/* judged as the others */
		duet_pk_results(&s[i].out);
	free(sym);
	free(pk);
	free(kdf);
	for (unsigned i = 0; i < 2; i++)	/* a guest that did not end */
		if (!dp->done[i])
			progress_end(&dp->pg, dp->name[i], 1,
				     bo_now_ns() - dp->t0,
				     s[i].out.nresults, 0, 1);
	dp->pg.stage = "duet";
	dc->guest_args = NULL;
}

/* One further pass of the duet: Q's guests on the images of P by DC as
 * pass PS->n + 1, its blocks appended to S's outputs as further rounds
 * (duet_pass_merge) for the curves C (N of them; NULL: every curve), its
 * first round recorded in PS. Adds the faults said to *FAULTS. Returns 1
 * when merged, 0 when a guest failed or the duet was interrupted (S is
 * then as it was). */
static int add_pass(const struct duet_request *q, struct duet_config *dc,
		    const struct side_prep p[2], struct duet_side s[2],
		    const struct duet_curve *c, size_t n,
		    struct duet_passes *ps, struct duet_progress *dp,
		    size_t *faults)
{
	struct duet_side more[2];
	int ok;

	run_pass(q, dc, p, more, ps->n + 1, dp);
	*faults += report_faults(more, p);
	ok = more[0].rc == 0 && more[1].rc == 0 && !bo_interrupted;
	if (ok) {
		for (unsigned i = 0; i < 2; i++)
			duet_pass_merge(&s[i].out, &more[i].out, c, n);
		ps->start[ps->n++] = ps->total;
		ps->total += q->rounds;
	}
	for (unsigned i = 0; i < 2; i++)
		guest_output_release(&more[i].out);
	return ok;
}

/* The rounds of the curves R's first pass left undecided in *CURVES
 * (*NCURVES, judged by JP; replaced by the verdicts over all rounds):
 * further passes (duet-pass.h) on the images of P by DC, each with as
 * many rounds as measured so far, up to R->max_rounds, their blocks
 * appended to S's outputs and each pass's first round added to PS. Returns the count of faults said (a guest or a
 * library that failed in a later pass: the curves it left stay
 * undecided). */
static size_t more_rounds(const struct duet_request *r, struct duet_config *dc,
			  const struct side_prep p[2], struct duet_side s[2],
			  struct duet_passes *ps,
			  const struct duet_judge_params *jp,
			  struct duet_curve **curves, size_t *ncurves,
			  struct duet_progress *dp)
{
	size_t faults = 0;

	while (ps->total < r->max_rounds && ps->n < DUET_MAX_PASSES &&
	       !bo_interrupted) {
		struct duet_request q = *r;
		struct duet_judge_params j;
		char *libs, *algos;
		size_t undecided = duet_pass_undecided(*curves, *ncurves,
						       &libs, &algos);
		int ok;

		if (!undecided)
			break;
		q.rounds = ps->total < r->max_rounds - ps->total ? ps->total :
			   r->max_rounds - ps->total;
		q.libs = libs;
		q.algos = algos;
		q.seed = r->seed + ps->n;	/* pass k's seed: + k - 1 */
		if (!r->quiet)
			note("%zu curve%s undecided after %u rounds: %u more "
			     "rounds of %s (%s), seed %llu", undecided,
			     undecided == 1 ? "" : "s", ps->total, q.rounds,
			     libs, algos, (unsigned long long)q.seed);
		ok = add_pass(&q, dc, p, s, *curves, *ncurves, ps, dp,
			      &faults);
		if (ok) {
			free(*curves);
			j = *jp;
			j.npasses = ps->n;
			*ncurves = duet_judge(&s[0].out, &s[1].out, &j, curves);
		}
		free(libs);
		free(algos);
		if (!ok)
			break;	/* a guest failed: no further pass */
	}
	return faults;
}

/* The first look's rounds of R: DUET_FIRST_PAIRS pairs of guests, each
 * with its share of R->rounds (at least 2 rounds a pair; fewer pairs
 * when R->rounds is small) and the next seed, each later pair's blocks
 * appended to the first's in S, so that each curve's interval sees
 * several processes of each image and their own biases (duet-judge.h).
 * PS is filled. A failed later pair leaves the rounds before it alone.
 * Returns the count of faults said. */
static size_t first_look(const struct duet_request *r, struct duet_config *dc,
			 const struct side_prep p[2], struct duet_side s[2],
			 struct duet_passes *ps, struct duet_progress *dp)
{
	unsigned pairs = DUET_FIRST_PAIRS;
	struct duet_request q = *r;
	size_t faults;

	if (pairs > r->rounds / 2)
		pairs = r->rounds / 2 ? r->rounds / 2 : 1;
	memset(ps, 0, sizeof(*ps));
	q.rounds = r->rounds / pairs;
	run_pass(&q, dc, p, s, 1, dp);
	ps->start[ps->n++] = 0;
	ps->total = q.rounds;
	faults = report_faults(s, p);
	for (unsigned j = 1; j < pairs; j++) {
		if (bo_interrupted || s[0].rc || s[1].rc ||
		    ps->total != r->rounds * j / pairs)
			break;
		q.rounds = r->rounds * (j + 1) / pairs - ps->total;
		q.seed = r->seed + j;
		if (!r->quiet)
			note("pair %u of %u of guests: %u rounds, seed %llu",
			     j + 1, pairs, q.rounds,
			     (unsigned long long)q.seed);
		add_pass(&q, dc, p, s, NULL, 0, ps, dp, &faults);
	}
	return faults;
}

int duet_execute(const struct duet_request *req)
{
	struct duet_request r = *req;
	struct side_prep p[2] = { { .log_fd = -1 }, { .log_fd = -1 } };
	struct duet_side s[2];
	struct duet_config dc;
	struct duet_progress dprog;
	struct runner_fallback fb;
	struct duet_curve *curves = NULL;
	struct duet_heading h;
	struct duet_passes passes;
	const char **tested = NULL;
	char stamp[32], started[32];
	size_t ncurves = 0, faults;
	uint64_t t0 = bo_now_ns();
	int rc = EXIT_OK, kind;
	bo_err err;

	memset(s, 0, sizeof(s));
	if (r.ret_duet_id)
		*r.ret_duet_id = 0;
	if (!r.rounds)
		r.rounds = r.quick ? DUET_QUICK_ROUNDS : DUET_ROUNDS;
	if (!r.max_rounds)
		r.max_rounds = 2 * r.rounds < GUEST_MAX_REPETITIONS ?
			       2 * r.rounds : GUEST_MAX_REPETITIONS;
	if (r.max_rounds < r.rounds)
		r.max_rounds = r.rounds;
	if (!r.seed_set)
		r.seed = bo_random_seed();
	bo_utc_now(stamp, sizeof(stamp));
	bo_utc_now(started, sizeof(started));
	for (unsigned i = 0; i < 2 && rc == EXIT_OK; i++) {
		const char *b = i ? r.new_build : r.base_build;

		rc = prepare(&r, i ? r.new_name : r.base, i ? "new" : "base",
			     stamp, &p[i]);
		if (rc == EXIT_OK && b)
			rc = prepare_build(&r, b, &p[i]);
	}
	if (rc != EXIT_OK)
		goto out;
	kind = runner_choose(r.kind, &fb, &err);
	if (kind < 0) {
		rc = cli_interrupted_status(bo_interrupted);
		goto out;
	}
	runner_warn_fallback(&fb, "duet");
	memset(&dc, 0, sizeof(dc));
	dc.kind = (enum runner_kind)kind;
	dc.cpu = runner_default_cpu();
	dc.timeout_ns = (uint64_t)r.timeout_s * 1000000000u;
	memset(&dprog, 0, sizeof(dprog));
	progress_init(&dprog.pg, progress_mode_for(r.quiet, stderr), stderr, 2,
		      1, 0);
	snprintf(dprog.name[0], sizeof(dprog.name[0]), "base %s",
		 p[0].image->name);
	snprintf(dprog.name[1], sizeof(dprog.name[1]), "new %s",
		 p[1].image->name);
	dc.on_output = on_output;
	dc.output_ctx = &dprog;
	if (!r.quiet)
		note("%s against %s, seed %llu, %u rounds (up to %u where "
		     "undecided), on CPU %d", p[1].image->name,
		     p[0].image->name, (unsigned long long)r.seed, r.rounds,
		     r.max_rounds, dc.cpu);
	if (!r.quiet && keygen_named(r.algos))
		note("rsa-2048 keygen is not judged in a duet (a new key's "
		     "time varies by nature); its other operations are");
	faults = first_look(&r, &dc, p, s, &passes, &dprog);
	if (bo_interrupted) {
		/* what was measured, and that it was cut short */
		if (r.db_path)
			store(&r, s, p, NULL, 0, NULL, started, dc.cpu,
			      "aborted", "interrupted");
		rc = cli_interrupted_status(bo_interrupted);
		goto out;
	}
	if ((s[0].rc < 0 || s[1].rc < 0) && r.db_path) {
		char *why = xasprintf("%s: %s", p[s[0].rc < 0 ? 0 : 1].image->name,
				      s[s[0].rc < 0 ? 0 : 1].err.msg);

		if (store(&r, s, p, NULL, 0, NULL, started, dc.cpu, "failed",
			  why) != EXIT_OK)
			rc = EXIT_ENV;
		free(why);
	}
	if (s[0].rc == 0 && s[1].rc == 0) {
		struct duet_judge_params jp = {
			.threshold = r.threshold,
			.alpha = 0.05,
			.first_look = r.rounds,
			.max_rounds = r.max_rounds,
			.pass_start = passes.start,
		};

		tested = tested_libraries(s, p);
		jp.tested = tested;
		jp.npasses = passes.n;
		ncurves = duet_judge(&s[0].out, &s[1].out, &jp, &curves);
		faults += more_rounds(&r, &dc, p, s, &passes, &jp, &curves,
				      &ncurves, &dprog);
		if (bo_interrupted) {
			/* in a later pass: what was measured before it */
			if (r.db_path)
				store(&r, s, p, curves, ncurves, tested,
				      started, dc.cpu, "aborted",
				      "interrupted");
			rc = cli_interrupted_status(bo_interrupted);
			goto out;
		}
		h.base = p[0].image->name;
		h.new_name = p[1].image->name;
		h.base_build = p[0].build ? p[0].build->name : NULL;
		h.new_build = p[1].build ? p[1].build->name : NULL;
		h.threshold = r.threshold;
		h.rounds = r.rounds;
		h.max_rounds = r.max_rounds;
		h.seconds = (double)(bo_now_ns() - t0) / 1e9;
		if (!r.no_print &&
		    duet_print(stdout, r.format, &h, curves, ncurves) < 0) {
			cli_error("duet: cannot write the verdicts to stdout");
			rc = EXIT_FAILED;
			goto out;
		}
		if (r.db_path && store(&r, s, p, curves, ncurves, tested,
				       started, dc.cpu, "done", NULL) != EXIT_OK)
			rc = EXIT_ENV;
		if (r.fail_on_regression && rc == EXIT_OK)
			for (size_t i = 0; i < ncurves; i++)
				if (curves[i].tested &&
				    curves[i].r.verdict == PV_SLOWER)
					rc = EXIT_REGRESSION;
	}
	if (rc == EXIT_OK && faults)
		rc = EXIT_FAILED;
	if (!r.quiet)
		note("%zu curves judged in %.0f s", ncurves,
			 (double)(bo_now_ns() - t0) / 1e9);
out:
	free(curves);
	free(tested);
	for (unsigned i = 0; i < 2; i++) {
		guest_output_release(&s[i].out);
		prep_free(&p[i]);
	}
	return rc;
}
