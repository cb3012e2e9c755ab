/* guest/worker.c - one library in a long-lived process that measures
 * what the parent asks (see worker.h). */
#include "compat.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "algo.h"
#include "bench.h"
#include "emit.h"
#include "fdio.h"
#include "kat.h"
#include "kdf.h"
#include "place.h"
#include "point.h"
#include "pubkey.h"
#include "rusage.h"
#include "worker.h"

/* Highest descriptor a new worker closes of those it inherited. */
#define WORKER_MAX_FD 1024

/* Read exactly N bytes from FD into BUF. Returns 0, or -1 at the end of
 * the file or on an error. */
static int read_full(int fd, void *buf, size_t n)
{
	return fdio_read_all(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

/* --- the worker (child) -------------------------------------------- */

/* What the worker keeps between commands. */
struct serve_state {
	const struct guest_backend *b;
	int algo;			/* from the last ALGO, -1 = none */
	bool kat_ok;
	size_t rt_len;			/* the size the round trip ran at,
					 * 0 = none yet */
	bool rt_ok;
	uint8_t tag[GUEST_MAX_DIGEST];	/* the AEAD tag of ct at rt_len */
	struct point p;
	bool open;			/* p is open */
	bool first_block;		/* no block timed yet at p */
	struct bench_hint hints[2][2];	/* [decrypt][one-shot]: the
					 * previous point of the curve */
	struct bench_hint *hint;	/* p's curve */
};

static void serve_close(struct serve_state *st)
{
	pubkey_duet_close();
	if (st->open)
		point_close(&st->p);
	st->open = false;
}

/* ALGO: the algorithm's lines before its points (measure_algo_prepare). */
static void serve_algo(struct run *run, struct serve_state *st,
		       const struct worker_req *q, struct worker_reply *r)
{
	bool kat_ok = false;

	serve_close(st);
	if (q->algo >= GUEST_ALGO_COUNT) {
		r->status = -1;
		return;
	}
	st->algo = (int)q->algo;
	run->counts->algo = st->algo;
	memset(st->hints, 0, sizeof(st->hints));
	st->rt_len = 0;
	r->supported = measure_algo_prepare(run, st->b,
					    (enum guest_algo)q->algo, &kat_ok);
	st->kat_ok = kat_ok;
	r->verified = kat_ok;
}

/* POINT: the round trip at a new size, the point opened and
 * calibrated. */
static void serve_point(struct run *run, struct serve_state *st,
			const struct worker_req *q, struct worker_reply *r)
{
	const struct guest_backend *b = st->b;
	enum guest_algo algo = (enum guest_algo)st->algo;
	enum guest_op op = (enum guest_op)q->op;
	const char *aname;
	size_t len = (size_t)q->len;

	serve_close(st);
	if (st->algo < 0 || q->algo != (uint32_t)st->algo || len < 1 ||
	    len > MAX_BUFFER || !backend_op_fits(algo, op)) {
		r->status = -1;
		return;
	}
	aname = algo_info(algo)->name;
	if (len != st->rt_len) {
		fill_pattern(run->bufs.pt, len);
		memset(st->tag, 0, sizeof(st->tag));
		st->rt_ok = kat_roundtrip(b, algo, run->key, run->iv,
					  run->bufs.pt, len, run->bufs.ct,
					  st->tag, run->bufs.scratch);
		if (!st->rt_ok)
			check_emit(emit_error(b->name, aname,
					      "round trip on a %zu-byte buffer failed",
					      len));
		st->rt_len = len;
	}
	r->verified = st->kat_ok && st->rt_ok;
	if (point_open(&st->p, b, algo, op, len, q->oneshot != 0,
		       run->bufs.pt, run->bufs.ct, run->bufs.work, st->tag,
		       run->key, run->iv) < 0) {
		check_emit(emit_error(b->name, aname,
				      "cannot create a %s context (%zu bytes)",
				      op_name(op), len));
		r->status = -1;
		return;
	}
	st->hint = &st->hints[op == GUEST_OP_DECRYPT][q->oneshot != 0];
	if (point_calibrate(&st->p, &run->params, st->hint,
			    &r->spent_ns) < 0) {
		check_emit(emit_error(b->name, aname,
				      "%s %s of %zu-byte buffers failed",
				      q->oneshot ? "one-shot" : "bulk",
				      op_name(op), len));
		point_close(&st->p);
		r->status = -1;
		return;
	}
	st->open = true;
	st->first_block = true;
	r->calls = st->p.calls;
}

/* point_block's arguments, for place_call. */
struct block_call {
	struct point *p;
	bool tsc;
	struct worker_reply *r;
};

/* place_call's function: the block of a->p into a->r. */
static int block_thunk(void *arg)
{
	struct block_call *a = arg;

	return point_block(a->p, a->tsc, &a->r->ns, &a->r->ticks,
			   &a->r->spent_ns);
}

/* BLOCK: one timed batch of the open point, at the stack offset and
 * with the input and output at the offsets Q asks for (guest/place.h). */
static void serve_block(struct run *run, struct serve_state *st,
			const struct worker_req *q, struct worker_reply *r)
{
	struct point *p = &st->p;
	struct block_call a = { p, run->params.tsc, r };

	if (!st->open) {
		r->status = -1;
		return;
	}
	point_place_buffers(p, place_in_offset(q->buffers),
			    place_out_offset(q->buffers));
	if (place_call(q->place % PLACE_SPAN & ~15u, block_thunk, &a) < 0) {
		check_emit(emit_error(st->b->name,
				      algo_info(p->arg.algo)->name,
				      "%s %s of %zu-byte buffers failed",
				      p->oneshot ? "one-shot" : "bulk",
				      op_name(p->arg.op), p->arg.len));
		serve_close(st);
		r->status = -1;
		return;
	}
	if (st->first_block) {
		/* the next size of this curve is predicted from here */
		st->hint->bytes_per_call = p->arg.len;
		st->hint->ns_per_call = (double)r->ns / (double)p->calls;
		st->first_block = false;
	}
	r->maxrss_kib = rusage_peak_kib();
}

/* The worker: load B, say so, then answer commands from IN on OUT until
 * QUIT (exit with ISOLATE_DONE_STATUS) or the parent is gone (status
 * 1). */
static void serve(struct run *run, const struct guest_backend *b, int in,
		  int out)
{
	struct serve_state st;
	struct worker_req q;
	struct worker_reply r;

	memset(&st, 0, sizeof(st));
	st.b = b;
	st.algo = -1;
	memset(&r, 0, sizeof(r));
	r.status = measure_load(run, b) ? 0 : 1;
	if (fdio_write_all(out, &r, sizeof(r)) < 0)
		_exit(1);
	if (r.status != 0) {
		run->counts->finished = 1;
		exit(ISOLATE_DONE_STATUS);
	}
	for (;;) {
		if (read_full(in, &q, sizeof(q)) < 0)
			_exit(1);
		memset(&r, 0, sizeof(r));
		switch (q.cmd) {
		case WORKER_ALGO:
			serve_algo(run, &st, &q, &r);
			break;
		case WORKER_POINT:
			serve_point(run, &st, &q, &r);
			break;
		case WORKER_BLOCK:
			serve_block(run, &st, &q, &r);
			break;
		case WORKER_PKALGO:
			serve_close(&st);
			run->counts->algo = -1;
			r.supported = pubkey_duet_algo(run, b, (int)q.algo);
			break;
		case WORKER_PKOP:
			if (pubkey_duet_op(run, (int)q.op, &r.calls,
					   &r.spent_ns) < 0)
				r.status = -1;
			r.verified = 1;
			break;
		case WORKER_PKBLOCK:
			if (pubkey_duet_block(q.place, &r.ns, &r.ticks,
					      &r.spent_ns) < 0)
				r.status = -1;
			r.maxrss_kib = rusage_peak_kib();
			break;
		case WORKER_KDFALGO:
			serve_close(&st);
			run->counts->algo = -1;
			r.supported = kdf_duet_algo(run, b, (int)q.algo);
			break;
		case WORKER_KDFOP:
			if (kdf_duet_op(run, &r.calls, &r.spent_ns) < 0)
				r.status = -1;
			r.verified = 1;
			break;
		case WORKER_KDFBLOCK:
			if (kdf_duet_block(q.place, &r.ns, &r.ticks,
					   &r.spent_ns) < 0)
				r.status = -1;
			r.maxrss_kib = rusage_peak_kib();
			break;
		case WORKER_QUIT:
			serve_close(&st);
			run->counts->algo = -1;
			run->counts->finished = 1;
			if (fdio_write_all(out, &r, sizeof(r)) < 0)
				_exit(1);
			exit(ISOLATE_DONE_STATUS);
		default:
			r.status = -1;
		}
		if (fdio_write_all(out, &r, sizeof(r)) < 0)
			_exit(1);
	}
}

/* In the new worker: keep only descriptors 0, 2 and the three of its
 * pipes (IN, OUT, STRAY_W; -1 = none), so that it holds no end of
 * another worker's pipes; protocol lines to a copy of stdout, descriptor
 * 1 to STRAY_W (or stderr); then serve. Never returns. */
static void worker_child(struct run *run, struct worker *w, int in,
			 int out, int stray_w)
{
	int copy = dup(1);

	for (int fd = 3; fd < WORKER_MAX_FD; fd++)
		if (fd != in && fd != out && fd != stray_w && fd != copy)
			close(fd);
	if (copy >= 0) {
		emit_set_fd(copy);
		dup2(stray_w >= 0 ? stray_w : 2, 1);
	}
	if (stray_w >= 0)
		close(stray_w);
	run->counts = w->counts;
	check_emit_flag(&run->counts->stdout_gone);
	serve(run, w->b, in, out);
	_exit(1);
}

/* --- the parent ------------------------------------------------------ */

/* Close W's pipes, reap it (its end, or KILLED at the timeout), record
 * its rusage, report an end that was not clean or what it wrote to
 * stdout, and mark it dead: after QUIT (worker_stop) or when it was lost
 * (EOF on its replies, a broken reply, the timeout). */
static void worker_lost(struct run *run, struct worker *w, bool killed)
{
	struct isolate_end e;
	struct rusage ru;

	if (w->to >= 0)
		close(w->to);
	if (w->from >= 0)
		close(w->from);
	w->to = w->from = -1;
	w->alive = false;
	if (w->pid < 0)
		return;
	isolate_wait(run, w->pid, &w->stray, &e, &ru);
	e.killed = e.killed || killed;
	w->pid = -1;
	if (e.reaped && run->nrusage < MAX_LIBS)
		rusage_from(&run->rusage[run->nrusage++], w->b->name, &ru);
	if (w->counts->stdout_gone)
		exit(1);	/* the worker said so on stderr */
	isolate_report(run, w->counts, w->b, &e, &w->stray);
}

/* Wait for W's reply into *R, at most --lib-timeout seconds, draining
 * its stray output. Returns 0, or -1 after worker_lost(). */
static int wait_reply(struct run *run, struct worker *w,
		      struct worker_reply *r)
{
	uint64_t deadline = bench_now_ns() +
			    run->o->lib_timeout_s * UINT64_C(1000000000);
	char *p = (char *)r;
	size_t got = 0;

	while (got < sizeof(*r)) {
		struct pollfd fds[2];
		uint64_t now = bench_now_ns();
		int n, wait_ms;

		if (now >= deadline) {
			kill(w->pid, SIGKILL);
			worker_lost(run, w, true);
			return -1;
		}
		wait_ms = (int)((deadline - now) / 1000000 + 1);
		if (wait_ms > 1000)
			wait_ms = 1000;
		fds[0].fd = w->from;
		fds[0].events = POLLIN;
		fds[1].fd = w->stray.fd;
		fds[1].events = POLLIN;
		n = poll(fds, w->stray.fd >= 0 ? 2 : 1, wait_ms);
		if (n < 0 && errno != EINTR) {
			kill(w->pid, SIGKILL);
			worker_lost(run, w, false);
			return -1;
		}
		if (n <= 0)
			continue;
		if (w->stray.fd >= 0 && fds[1].revents)
			isolate_stray_drain(&w->stray, 0);
		if (fds[0].revents) {
			ssize_t k = read(w->from, p + got, sizeof(*r) - got);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				worker_lost(run, w, false);
				return -1;
			}
			got += (size_t)k;
		}
	}
	return 0;
}

int worker_start(struct run *run, const struct guest_backend *b,
		 struct worker *w)
{
	int cmd[2] = { -1, -1 }, rep[2] = { -1, -1 }, stray[2] = { -1, -1 };
	struct worker_reply r;

	memset(w, 0, sizeof(*w));
	w->b = b;
	w->pid = -1;
	w->to = w->from = w->stray.fd = -1;
	w->counts = mmap(NULL, sizeof(*w->counts), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->counts == MAP_FAILED) {
		w->counts = NULL;
		return -1;
	}
	memset(w->counts, 0, sizeof(*w->counts));
	w->counts->algo = -1;
	if (pipe(cmd) < 0 || pipe(rep) < 0)
		goto fail;
	if (pipe(stray) < 0)
		stray[0] = stray[1] = -1;
	w->pid = fork();
	if (w->pid < 0)
		goto fail;
	if (w->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		if (stray[0] >= 0)
			close(stray[0]);
		worker_child(run, w, cmd[0], rep[1], stray[1]);
	}
	close(cmd[0]);
	close(rep[1]);
	if (stray[1] >= 0)
		close(stray[1]);
	w->to = cmd[1];
	w->from = rep[0];
	w->stray.fd = stray[0];
	w->alive = true;
	if (wait_reply(run, w, &r) < 0)
		return 0;
	if (r.status != 0) {
		worker_stop(run, w);
		return 0;
	}
	return 1;
fail:
	for (int i = 0; i < 2; i++) {
		if (cmd[i] >= 0)
			close(cmd[i]);
		if (rep[i] >= 0)
			close(rep[i]);
		if (stray[i] >= 0)
			close(stray[i]);
	}
	munmap(w->counts, sizeof(*w->counts));
	w->counts = NULL;
	w->pid = -1;
	return -1;
}

int worker_call(struct run *run, struct worker *w,
		const struct worker_req *q, struct worker_reply *r)
{
	if (!w->alive)
		return -1;
	if (fdio_write_all(w->to, q, sizeof(*q)) < 0) {
		kill(w->pid, SIGKILL);
		worker_lost(run, w, false);
		return -1;
	}
	return wait_reply(run, w, r);
}

void worker_stop(struct run *run, struct worker *w)
{
	struct worker_req q;
	struct worker_reply r;

	if (!w->counts)
		return;
	memset(&q, 0, sizeof(q));
	q.cmd = WORKER_QUIT;
	/* a worker lost on the way was reaped and reported already */
	if (!w->alive || w->counts->finished != 0 ||
	    worker_call(run, w, &q, &r) == 0)
		worker_lost(run, w, false);
	munmap(w->counts, sizeof(*w->counts));
	w->counts = NULL;
}
