/* duet-run.c - two guests taking turns (see duet-run.h). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "orchestrator/run/duet-run.h"

/* The most guest arguments duet_run passes on, --duet included. */
#define DUET_MAX_ARGS 64
/* The most arguments of one side's own (duet_side.extra_args). */
#define DUET_MAX_SIDE_ARGS 8

/* The token between the two guests, and how far each has come. */
struct duet {
	const struct duet_config *c;
	struct duet_side *sides;
	pthread_mutex_t mu;
	int tok[2];		/* our end of each guest's stdin (a socket),
				 * -1 once closed: the guest runs freely */
	int in[2];		/* the guest's end, its stdin */
	int hello[2];		/* the guest said hello */
	int ended[2];		/* its runner returned */
	int64_t turns[2];	/* turns it ended */
	int started;		/* the first turn was given */
	const char *args[DUET_MAX_ARGS];
};

/* What one thread runs: a side of D. */
struct duet_thread {
	struct duet *d;
	unsigned side;
};

/* Give guest S a turn: one byte on its stdin. A guest already gone, or
 * set free, gets nothing (no SIGPIPE: MSG_NOSIGNAL). Under d->mu. */
static void give(struct duet *d, unsigned s)
{
	if (d->tok[s] >= 0 && send(d->tok[s], "t", 1, MSG_NOSIGNAL) != 1) {
		close(d->tok[s]);
		d->tok[s] = -1;
	}
}

/* Whose turn is next, both guests running: the one that has ended fewer
 * turns; at a tie (k turns each), pair k + 1 opens with c->first when k
 * is even, with the other side when odd (ABBA, so neither side always
 * follows the other). */
static unsigned next_side(const struct duet *d)
{
	int64_t k = d->turns[0];

	if (d->turns[0] != d->turns[1])
		return d->turns[0] < d->turns[1] ? 0 : 1;
	return k % 2 == 0 ? d->c->first : 1 - d->c->first;
}

/* runner_opts.on_output of side t->side: hand the token on at its hello
 * (once both have said it) and at each of its turn lines. */
static void on_output(void *ctx, const struct guest_output *out)
{
	struct duet_thread *t = ctx;
	struct duet *d = t->d;
	unsigned s = t->side;

	pthread_mutex_lock(&d->mu);
	if (out->have_hello && !d->hello[s])
		d->hello[s] = 1;
	if (!d->started && (d->hello[0] || d->ended[0]) &&
	    (d->hello[1] || d->ended[1])) {
		d->started = 1;
		give(d, next_side(d));
	}
	if (out->turns > d->turns[s]) {
		d->turns[s] = out->turns;
		if (!d->ended[1 - s])
			give(d, next_side(d));
		else
			give(d, s);
	}
	if (d->c->on_output)
		d->c->on_output(d->c->output_ctx, s, out);
	pthread_mutex_unlock(&d->mu);
}

/* The end of side S's guest: the other side runs freely from now on
 * (end of file on its stdin), and a first turn nobody gave yet is
 * given. */
static void side_ended(struct duet *d, unsigned s)
{
	pthread_mutex_lock(&d->mu);
	d->ended[s] = 1;
	for (unsigned i = 0; i < 2; i++)
		if (d->tok[i] >= 0) {
			close(d->tok[i]);
			d->tok[i] = -1;
		}
	d->started = 1;
	pthread_mutex_unlock(&d->mu);
}

/* A thread: one side's guest, from start to end. */
static void *side_main(void *arg)
{
	struct duet_thread *t = arg;
	struct duet *d = t->d;
	struct duet_side *sd = &d->sides[t->side];
	const char *args[DUET_MAX_ARGS];
	size_t n = 0;
	struct runner_opts ro = {
		.kind = d->c->kind,
		.rootfs = sd->rootfs,
		.guest = sd->guest,
		.guest_args = args,
		.nbinds = sd->nbinds,
		.bind_src = sd->bind_src,
		.bind_dst = sd->bind_dst,
		.timeout_ns = d->c->timeout_ns,
		.cpu = d->c->cpu,
		.log_fd = sd->log_fd,
		.on_output = on_output,
		.output_ctx = t,
		.machine = sd->name,
		.in_fd = d->in[t->side],
	};

	/* the common arguments (checked to leave room), then its own */
	for (size_t i = 0; d->args[i]; i++)
		args[n++] = d->args[i];
	for (size_t i = 0; sd->extra_args && sd->extra_args[i] &&
	     n < DUET_MAX_ARGS - 1; i++)
		args[n++] = sd->extra_args[i];
	args[n] = NULL;
	sd->rc = runner_run(&ro, &sd->out, &sd->runner, &sd->res, NULL,
			    &sd->err);
	side_ended(d, t->side);
	return NULL;
}

/* Close every descriptor of D's sockets still open. */
static void close_sockets(struct duet *d)
{
	for (unsigned i = 0; i < 2; i++) {
		if (d->tok[i] >= 0)
			close(d->tok[i]);
		if (d->in[i] >= 0)
			close(d->in[i]);
		d->tok[i] = d->in[i] = -1;
	}
}

int duet_run(const struct duet_config *c, struct duet_side sides[2],
	     bo_err *err)
{
	struct duet d;
	struct duet_thread t[2];
	pthread_t th[2];
	size_t n = 0;
	int fds[2], made = 0, rc = 0;

	memset(&d, 0, sizeof(d));
	d.c = c;
	d.sides = sides;
	d.tok[0] = d.tok[1] = d.in[0] = d.in[1] = -1;
	for (unsigned i = 0; i < 2; i++) {
		guest_output_init(&sides[i].out);
		sides[i].rc = -1;
		sides[i].runner = "";
		memset(&sides[i].res, 0, sizeof(sides[i].res));
		bo_err_set(&sides[i].err, "not started");
	}
	for (size_t i = 0; c->guest_args && c->guest_args[i]; i++) {
		if (n >= DUET_MAX_ARGS - 2 - DUET_MAX_SIDE_ARGS)
			return bo_err_set(err, "too many guest arguments");
		d.args[n++] = c->guest_args[i];
	}
	d.args[n++] = "--duet";
	d.args[n] = NULL;
	for (unsigned i = 0; i < 2; i++) {
		/* a socket, not a pipe: a byte sent to a guest that is gone
		 * is an error, not SIGPIPE; our end closed is its end of
		 * file whoever else holds its end */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
			       fds) < 0) {
			close_sockets(&d);
			return bo_err_set(err, "cannot make the token socket: %s",
					  strerror(errno));
		}
		d.tok[i] = fds[0];
		d.in[i] = fds[1];
		/* the guest only reads: nothing it writes reaches us */
		shutdown(fds[1], SHUT_WR);
	}
	pthread_mutex_init(&d.mu, NULL);
	for (unsigned i = 0; i < 2; i++) {
		t[i].d = &d;
		t[i].side = i;
		if (pthread_create(&th[i], NULL, side_main, &t[i]) != 0) {
			bo_err_set(err, "cannot start a thread");
			side_ended(&d, i);
			rc = -1;
			break;
		}
		made++;
	}
	for (int i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&d.mu);
	close_sockets(&d);
	if (rc < 0)
		return -1;
	for (unsigned i = 0; i < 2; i++)
		if (sides[i].rc < 0) {
			*err = sides[i].err;
			return -1;
		}
	return 0;
}
