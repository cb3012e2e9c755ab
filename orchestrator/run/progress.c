/* progress.c - a run's progress on stderr: a live line on a terminal,
 * plain lines in a log. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "orchestrator/run/progress.h"
#include "lib/util.h"

/* Redraw the live line at most this often (ns). */
#define REDRAW_NS 200000000u

void progress_init(struct progress *p, enum progress_mode mode, FILE *f,
		   size_t total, size_t rounds, int64_t previous_ns)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->f = f;
	p->total = total;
	p->rounds = rounds;
	p->previous_ns = previous_ns > 0 ? previous_ns : 0;
}

enum progress_mode progress_mode_for(int quiet, FILE *f)
{
	if (quiet)
		return PROGRESS_OFF;
	return isatty(fileno(f)) ? PROGRESS_LIVE : PROGRESS_LINES;
}

char *progress_fmt_duration(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = (ns + 500000000u) / 1000000000u;

	if (s < 60)
		snprintf(buf, len, "%llu s", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%llu min %02llu s",
			 (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%llu h %02llu min",
			 (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	return buf;
}

/* Erase the live line, if one is shown. */
static void clear_live(struct progress *p)
{
	if (!p->live_shown)
		return;
	fputs("\r\033[K", p->f);
	fflush(p->f);
	p->live_shown = 0;
}

/* The width of the terminal F, in columns (80 when it does not say). */
static int term_width(FILE *f)
{
	struct winsize ws;

	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* What a line begins with: "round 2/8" or the stage. BUF of LEN bytes;
 * returns BUF. */
static const char *head(const struct progress *p, size_t round, char *buf,
			size_t len)
{
	if (p->stage)
		snprintf(buf, len, "%s", p->stage);
	else
		snprintf(buf, len, "round %zu/%zu", round, p->rounds);
	return buf;
}

static void draw_live(struct progress *p)
{
	char eta[64] = "", d[32], line[512], h[48];
	int w;

	/* a log (the sink) gets no live line */
	if (p->mode != PROGRESS_LIVE || p->sink)
		return;
	if (p->previous_ns && p->first_ns) {
		uint64_t spent = bo_now_ns() - p->first_ns;

		if (spent < (uint64_t)p->previous_ns)
			snprintf(eta, sizeof(eta), ", about %s left",
				 progress_fmt_duration((uint64_t)p->previous_ns -
						       spent, d, sizeof(d)));
		else
			snprintf(eta, sizeof(eta), ", longer than the previous run");
	}
	snprintf(line, sizeof(line), "benchorch: %s %.30s %.16s%s(%zu of %zu)%s",
		 head(p, p->round, h, sizeof(h)), p->spec, p->library,
		 p->library[0] ? " " : "", p->done + 1, p->total, eta);
	/* one terminal line, redrawn in place: cut to the terminal's width */
	w = term_width(p->f) - 1;
	fprintf(p->f, "\r\033[K%.*s", w > 0 ? w : 0, line);
	fflush(p->f);
	p->live_shown = 1;
	p->drawn_ns = bo_now_ns();
}

void progress_begin(struct progress *p, const char *spec, size_t round)
{
	if (p->mode == PROGRESS_OFF)
		return;
	if (!p->first_ns)
		p->first_ns = bo_now_ns();
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	p->library[0] = '\0';
	p->round = round;
	draw_live(p);
}

void progress_library(struct progress *p, const char *library)
{
	if (p->mode != PROGRESS_LIVE || strcmp(p->library, library) == 0 ||
	    bo_now_ns() - p->drawn_ns < REDRAW_NS)
		return;
	snprintf(p->library, sizeof(p->library), "%s", library);
	draw_live(p);
}

static void put_line(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put_line(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	char line[512];

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (p->sink) {
		p->sink(p->sink_ctx, line);
		return;
	}
	fprintf(p->f, "benchorch: %s\n", line);
	fflush(p->f);
}

void progress_end(struct progress *p, const char *spec, size_t round,
		  uint64_t wall_ns, size_t points, size_t noisy, int failed)
{
	char h[48];

	if (p->mode == PROGRESS_OFF)
		return;
	p->done++;
	clear_live(p);
	if (failed)
		/* a guest stopped by the user's signal did not fail: the
		 * run says next that it was interrupted */
		put_line(p, "%s %s: %s after %.1f s", head(p, round, h,
			 sizeof(h)), spec, bo_interrupted ? "interrupted" :
			 "failed", (double)wall_ns / 1e9);
	else if (p->stage)
		put_line(p, "%s %s: %.1f s, %zu point%s", head(p, round, h,
			 sizeof(h)), spec, (double)wall_ns / 1e9, points,
			 points == 1 ? "" : "s");
	else
		put_line(p, "%s %s: %.1f s, %zu point%s, %zu noisy",
			 head(p, round, h, sizeof(h)), spec,
			 (double)wall_ns / 1e9, points, points == 1 ? "" : "s",
			 noisy);
}

/* CMDLINE without its "--seed N" (or --seed=N), words separated by one
 * space. Newly allocated. */
static char *without_seed(const char *cmdline)
{
	char *copy = xstrdup(cmdline), *out = xcalloc(strlen(cmdline) + 1, 1);
	char *tok, *save = NULL;
	int skip = 0;

	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (skip) {
			skip = 0;
			continue;
		}
		if (strcmp(tok, "--seed") == 0) {
			skip = 1;
			continue;
		}
		if (strncmp(tok, "--seed=", 7) == 0)
			continue;
		if (*out)
			strcat(out, " ");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

int64_t progress_previous_ns(sqlite3 *db, const char *host,
			     const char *cmdline, int64_t exclude_run)
{
	sqlite3_stmt *st;
	char *want = without_seed(cmdline);
	int64_t ns = 0;

	/* the latest 50 finished runs of this host are enough to look at */
	if (sqlite3_prepare_v2(db, "SELECT r.command_line, (SELECT sum(wall_ns)"
			       " FROM invocations i WHERE i.run_id = r.id)"
			       " FROM runs r WHERE r.status = 'done' AND"
			       " r.host = ?1 AND r.id <> ?2 ORDER BY r.id DESC"
			       " LIMIT 50", -1, &st, NULL) != SQLITE_OK) {
		free(want);
		return 0;
	}
	sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, exclude_run);
	while (!ns && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *cl = sqlite3_column_text(st, 0);
		char *have = without_seed(cl ? (const char *)cl : "");

		if (strcmp(have, want) == 0)
			ns = sqlite3_column_int64(st, 1);
		free(have);
	}
	sqlite3_finalize(st);
	free(want);
	return ns > 0 ? ns : 0;
}
