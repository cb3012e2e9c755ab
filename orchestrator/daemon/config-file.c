/* config-file.c - parse, check and print benchorch.conf(5). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "images/image.h"
#include "orchestrator/daemon/config-file.h"
#include "lib/paths.h"
#include "orchestrator/run/request-check.h"

#define DEFAULT_TIMEOUT_S 1800
#define MAX_WORDS 32

void conf_free(struct conf *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nscheds; i++) {
		free(c->scheds[i].name);
		free(c->scheds[i].distros);
		free(c->scheds[i].libs);
		conf_slurm_free(c->scheds[i].slurm);
	}
	free(c->scheds);
	free(c->path);
	free(c->state_dir);
	free(c->db_path);
	free(c->socket_path);
	free(c->mirror);
	free(c);
}

/* Fill the paths left unset from the state directory. */
static void fill_defaults(struct conf *c)
{
	if (!c->state_dir)
		c->state_dir = xstrdup(BENCHORCH_DEFAULT_STATE_DIR);
	if (!c->db_path)
		c->db_path = xasprintf("%s/results.db", c->state_dir);
	if (!c->socket_path)
		c->socket_path = xasprintf("%s/control.sock", c->state_dir);
}

struct conf *conf_default(const char *state_dir)
{
	struct conf *c = xcalloc(1, sizeof(*c));

	c->path = xstrdup("(defaults)");
	c->kind = RUNNER_AUTO;
	c->timeout_s = DEFAULT_TIMEOUT_S;
	if (state_dir)
		c->state_dir = xstrdup(state_dir);
	fill_defaults(c);
	return c;
}

static int valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > CONF_MAX_NAME)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789._-") == n;
}

/* "HH:MM" or "HH:MM:SS", 24-hour clock, of schedule NAME into SC.
 * Returns 0, or -1 with err set: the format, or which field is out of
 * range. */
static int parse_clock(const char *name, const char *s, struct sched *sc,
		       bo_err *err)
{
	int h, m, sec = 0, used = 0;

	if (sscanf(s, "%2d:%2d%n", &h, &m, &used) != 2 ||
	    !isdigit((unsigned char)s[0]))
		goto format;
	if (s[used] == ':') {
		int more = 0;

		if (sscanf(s + used + 1, "%2d%n", &sec, &more) != 1)
			goto format;
		used += 1 + more;
	}
	if (s[used] != '\0')
		goto format;
	if (h < 0 || h > 23)
		return bo_err_set(err, "schedule '%s': '%s': hour %d out of range (00 to 23)",
				  name, s, h);
	if (m < 0 || m > 59)
		return bo_err_set(err, "schedule '%s': '%s': minute %d out of range (00 to 59)",
				  name, s, m);
	if (sec < 0 || sec > 59)
		return bo_err_set(err, "schedule '%s': '%s': second %d out of range (00 to 59)",
				  name, s, sec);
	sc->hour = h;
	sc->min = m;
	sc->sec = sec;
	return 0;
format:
	return bo_err_set(err, "schedule '%s': expected 'every day at HH:MM[:SS]'",
			  name);
}

/* "90s", "15m", "6h", "2d" (a bare number is seconds). */
static int parse_duration(const char *s, long *ret)
{
	char *end;
	long v, mul = 1;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	if (*end == 's')
		mul = 1, end++;
	else if (*end == 'm')
		mul = 60, end++;
	else if (*end == 'h')
		mul = 3600, end++;
	else if (*end == 'd')
		mul = 86400, end++;
	if (*end || v <= 0 || v > 366L * 86400 / mul)
		return -1;
	*ret = v * mul;
	return 0;
}

/* A comma-separated list of NAME[:RELEASE] specs, syntax only. */
static int check_spec_list(const char *list, bo_err *err)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int n = 0, rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *d, *r;

		if (image_spec_parse(tok, &d, &r, err) < 0) {
			rc = -1;
			break;
		}
		free(d);
		free(r);
		n++;
	}
	free(copy);
	if (!rc && n == 0)
		rc = bo_err_set(err, "distros '%s' names no distribution",
				list);
	return rc;
}

/* Free what a schedule being parsed holds (its lists and Slurm
 * settings), not SC itself. */
static void sched_parts_free(struct sched *sc)
{
	free(sc->distros);
	free(sc->libs);
	conf_slurm_free(sc->slurm);
}

/* The WHEN of schedule NAME, from w[*I] on ("every day at HH:MM[:SS]" or
 * "every DURATION") into SC's kind and time; *I is moved past it.
 * Returns 0, or -1 with err set. */
static int parse_when(const char *name, char **w, int n, int *i,
		      struct sched *sc, bo_err *err)
{
	if (*i >= n || strcmp(w[*i], "every") != 0)
		return bo_err_set(err, "schedule '%s': expected 'every day at HH:MM' or 'every DURATION'",
				  name);
	(*i)++;
	if (*i < n && strcmp(w[*i], "day") == 0) {
		if (*i + 2 >= n || strcmp(w[*i + 1], "at") != 0)
			return bo_err_set(err, "schedule '%s': expected 'every day at HH:MM[:SS]'",
					  name);
		if (parse_clock(name, w[*i + 2], sc, err) < 0)
			return -1;
		sc->kind = SCHED_DAILY;
		*i += 3;
	} else if (*i < n && parse_duration(w[*i], &sc->interval_s) == 0) {
		sc->kind = SCHED_INTERVAL;
		(*i)++;
	} else {
		return bo_err_set(err, "schedule '%s': bad time '%s' (expected 'day at HH:MM' or a duration such as 6h)",
				  name, *i < n ? w[*i] : "");
	}
	return 0;
}

/* The list after "distros" or "libs" (w[*I]) of schedule NAME into SC
 * (copied); *I is moved onto it. Returns 0, or -1 with err set. */
static int parse_list(const char *name, char **w, int n, int *i,
		      struct sched *sc, bo_err *err)
{
	int is_distros = w[*i][0] == 'd';
	bo_err e;

	if (*i + 1 >= n)
		return bo_err_set(err, "schedule '%s': '%s' needs a list",
				  name, w[*i]);
	(*i)++;
	if (is_distros) {
		if (check_spec_list(w[*i], &e) < 0)
			return bo_err_set(err, "schedule '%s': %s", name,
					  e.msg);
		free(sc->distros);
		sc->distros = xstrdup(w[*i]);
		return 0;
	}
	if (strcmp(w[*i], "all") != 0 &&
	    (request_check_libs(w[*i], "libs", &e) < 0 ||
	     request_check_selection(w[*i], NULL, &e) < 0))
		return bo_err_set(err, "schedule '%s': %s", name, e.msg);
	free(sc->libs);
	sc->libs = strcmp(w[*i], "all") == 0 ? NULL : xstrdup(w[*i]);
	return 0;
}

/* One option of schedule NAME at w[*I] (distros or libs and its list,
 * quick, refresh or no-refresh, a Slurm word) into SC; *I is left on its
 * last word. *REFRESH_WORD is the refresh word given before (1 refresh,
 * 0 no-refresh, -1 none), updated. Returns 0, or -1 with err set (what
 * SC holds stays the caller's to free). */
static int parse_sched_word(const char *name, char **w, int n, int *i,
			    struct sched *sc, int *refresh_word, bo_err *err)
{
	bo_err e;
	int r;

	if (strcmp(w[*i], "distros") == 0 || strcmp(w[*i], "libs") == 0)
		return parse_list(name, w, n, i, sc, err);
	if (strcmp(w[*i], "quick") == 0) {
		sc->quick = 1;
		return 0;
	}
	if (strcmp(w[*i], "refresh") == 0 ||
	    strcmp(w[*i], "no-refresh") == 0) {
		r = strcmp(w[*i], "refresh") == 0;
		if (*refresh_word >= 0 && *refresh_word != r)
			return bo_err_set(err, "schedule '%s': both refresh and no-refresh",
					  name);
		*refresh_word = r;
		sc->refresh = r;
		return 0;
	}
	r = conf_slurm_word(&sc->slurm, w[*i], &e);
	if (r > 0)
		return 0;
	if (r < 0)
		return bo_err_set(err, "schedule '%s': %s", name, e.msg);
	return bo_err_set(err, "schedule '%s': unknown word '%s'", name,
			  w[*i]);
}

/* schedule NAME WHEN distros LIST [libs LIST] [quick] [refresh|no-refresh]
 * with WHEN = "every day at HH:MM[:SS]" or "every DURATION". w[0] is
 * "schedule". */
static int parse_schedule(struct conf *c, char **w, int n, int lineno,
			  bo_err *err)
{
	struct sched sc;
	bo_err e2;
	size_t k;
	int i = 2, refresh_word = -1;	/* the refresh word given, if any */

	memset(&sc, 0, sizeof(sc));
	sc.refresh = 1;
	if (n < 2)
		return bo_err_set(err, "'schedule' needs a name");
	if (!valid_name(w[1]))
		return bo_err_set(err, "schedule name '%s' is not 1 to %d of [A-Za-z0-9._-]",
				  w[1], CONF_MAX_NAME);
	for (k = 0; k < c->nscheds; k++)
		if (strcmp(c->scheds[k].name, w[1]) == 0)
			return bo_err_set(err, "schedule '%s' is defined twice",
					  w[1]);
	if (parse_when(w[1], w, n, &i, &sc, err) < 0)
		return -1;
	for (; i < n; i++)
		if (parse_sched_word(w[1], w, n, &i, &sc, &refresh_word,
				     err) < 0) {
			sched_parts_free(&sc);
			return -1;
		}
	if (!sc.distros || conf_slurm_check(sc.slurm, &e2) < 0) {
		int named = sc.distros != NULL;

		sched_parts_free(&sc);
		if (named)
			return bo_err_set(err, "schedule '%s': %s", w[1], e2.msg);
		return bo_err_set(err, "schedule '%s' names no distros",
				  w[1]);
	}
	sc.name = xstrdup(w[1]);
	sc.line = lineno;
	c->scheds = xrealloc(c->scheds, (c->nscheds + 1) * sizeof(sc));
	c->scheds[c->nscheds++] = sc;
	return 0;
}

static int set_path(char **slot, const char *key, char **w, int n,
		    bo_err *err)
{
	if (n != 2)
		return bo_err_set(err, "'%s' takes one path", key);
	if (w[1][0] != '/')
		return bo_err_set(err, "'%s' must be an absolute path, not '%s'",
				  key, w[1]);
	free(*slot);
	*slot = xstrdup(w[1]);
	return 0;
}

/* One line split into words; returns 0 or -1 with err set (no position). */
static int parse_words(struct conf *c, char **w, int n, int lineno,
		       bo_err *err)
{
	if (strcmp(w[0], "state-dir") == 0)
		return set_path(&c->state_dir, w[0], w, n, err);
	if (strcmp(w[0], "database") == 0) {
		c->db_set = 1;
		return set_path(&c->db_path, w[0], w, n, err);
	}
	if (strcmp(w[0], "socket") == 0) {
		c->socket_set = 1;
		if (set_path(&c->socket_path, w[0], w, n, err) < 0)
			return -1;
		if (strlen(c->socket_path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return bo_err_set(err, "socket path '%s' is too long",
					  c->socket_path);
		return 0;
	}
	if (strcmp(w[0], "mirror") == 0) {
		if (n != 2)
			return bo_err_set(err, "'mirror' takes one URL");
		if (request_check_mirror(w[1], "mirror", err) < 0)
			return -1;
		free(c->mirror);
		c->mirror = xstrdup(w[1]);
		return 0;
	}
	if (strcmp(w[0], "runner") == 0) {
		if (n != 2)
			return bo_err_set(err, "'runner' takes auto, nspawn or chroot");
		return runner_kind_parse(w[1], &c->kind, err);
	}
	if (strcmp(w[0], "timeout") == 0) {
		long v;

		if (n != 2 || parse_duration(w[1], &v) < 0 || v > 86400 * 7)
			return bo_err_set(err, "'timeout' takes a duration from 1s to 7d");
		c->timeout_s = v;
		return 0;
	}
	if (strcmp(w[0], "schedule") == 0)
		return parse_schedule(c, w, n, lineno, err);
	return bo_err_set(err, "unknown directive '%s'", w[0]);
}

/* As slurm submit refuses to go without --db: a schedule sent to Slurm
 * needs the file's database line, as the default (STATE/results.db) is
 * local to each node. Returns 0, or -1 with err set to one line naming
 * the file, the schedule's line and the key. */
static int check_slurm_db(const struct conf *c, bo_err *err)
{
	size_t i;

	if (c->db_set)
		return 0;
	for (i = 0; i < c->nscheds; i++)
		if (c->scheds[i].slurm && c->scheds[i].slurm->enabled)
			return bo_err_set(err, "'%s' line %d: schedule '%s': slurm needs a line 'database PATH' in this file: a database every node and this host share (the default, STATE/results.db, is local to each node)",
					  c->path, c->scheds[i].line,
					  c->scheds[i].name);
	return 0;
}

int conf_parse(const char *path, const char *buf, size_t len,
	       struct conf **ret, bo_err *err)
{
	struct conf *c = xcalloc(1, sizeof(*c));
	size_t pos = 0;
	int lineno = 0, directives = 0;

	c->path = xstrdup(path);
	c->kind = RUNNER_AUTO;
	c->timeout_s = DEFAULT_TIMEOUT_S;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char line[CONF_MAX_LINE + 1], *w[MAX_WORDS], *p, *save = NULL;
		int n = 0;
		bo_err e;

		lineno++;
		if (ll > CONF_MAX_LINE) {
			bo_err_set(err, "'%s' line %d: longer than %d bytes",
				   path, lineno, CONF_MAX_LINE);
			goto fail;
		}
		memcpy(line, buf + pos, ll);
		line[ll] = '\0';
		pos += ll + (nl ? 1 : 0);
		if (memchr(line, '\0', ll)) {
			bo_err_set(err, "'%s' line %d: contains a NUL byte",
				   path, lineno);
			goto fail;
		}
		for (p = strtok_r(line, " \t\r", &save); p && *p != '#';
		     p = strtok_r(NULL, " \t\r", &save)) {
			if (n == MAX_WORDS) {
				bo_err_set(err, "'%s' line %d: more than %d words",
					   path, lineno, MAX_WORDS);
				goto fail;
			}
			w[n++] = p;
		}
		if (n == 0)
			continue;
		directives++;
		if (parse_words(c, w, n, lineno, &e) < 0) {
			bo_err_set(err, "'%s' line %d: %s", path, lineno, e.msg);
			goto fail;
		}
	}
	if (len > 0 && buf[len - 1] != '\n') {
		bo_err_set(err, "'%s' line %d: no newline at the end: the file is cut short",
			   path, lineno);
		goto fail;
	}
	if (directives == 0) {
		bo_err_set(err, "'%s' is empty: not a single directive", path);
		goto fail;
	}
	if (check_slurm_db(c, err) < 0)
		goto fail;
	fill_defaults(c);
	*ret = c;
	return 0;
fail:
	conf_free(c);
	return -1;
}

int conf_load(const char *path, struct conf **ret, bo_err *err)
{
	char *buf;
	size_t len;
	int rc;

	if (bo_read_file(path, 1u << 20, &buf, &len, err) < 0)
		return -1;
	rc = conf_parse(path, buf, len, ret, err);
	free(buf);
	return rc;
}

/* $NAME when set and not empty, else NULL. */
static const char *env_path(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int conf_resolve_paths(struct conf *c, const char *state_opt, bo_err *err)
{
	const char *env_state = env_path("BENCHORCH_STATE_DIR");
	const char *env_db = env_path("BENCHORCH_DB");
	const char *state = state_opt ? state_opt : env_state;

	if (!state_opt && env_state && env_state[0] != '/')
		return bo_err_set(err, "$BENCHORCH_STATE_DIR must be an absolute path, not '%s'",
				  env_state);
	if (env_db && env_db[0] != '/')
		return bo_err_set(err, "$BENCHORCH_DB must be an absolute path, not '%s'",
				  env_db);
	if (state) {
		free(c->state_dir);
		c->state_dir = xstrdup(state);
	}
	if (env_db || !c->db_set) {
		free(c->db_path);
		c->db_path = env_db ? xstrdup(env_db) : NULL;
	}
	if (!c->socket_set) {
		free(c->socket_path);
		c->socket_path = NULL;
	}
	fill_defaults(c);	/* what is left follows the state directory */
	return 0;
}

static const char *kind_name(enum runner_kind k)
{
	return k == RUNNER_NSPAWN ? "nspawn" : k == RUNNER_CHROOT ? "chroot" :
	       "auto";
}

void conf_print(FILE *f, const struct conf *c)
{
	size_t i;

	fprintf(f, "state-dir %s\n", c->state_dir);
	fprintf(f, "database %s\n", c->db_path);
	fprintf(f, "socket %s\n", c->socket_path);
	if (c->mirror)
		fprintf(f, "mirror %s\n", c->mirror);
	fprintf(f, "runner %s\n", kind_name(c->kind));
	fprintf(f, "timeout %lds\n", c->timeout_s);
	for (i = 0; i < c->nscheds; i++) {
		const struct sched *s = &c->scheds[i];

		fprintf(f, "schedule %s every ", s->name);
		if (s->kind == SCHED_DAILY)
			fprintf(f, "day at %02d:%02d:%02d", s->hour, s->min,
				s->sec);
		else
			fprintf(f, "%lds", s->interval_s);
		fprintf(f, " distros %s libs %s%s %s", s->distros,
			s->libs ? s->libs : "all", s->quick ? " quick" : "",
			s->refresh ? "refresh" : "no-refresh");
		conf_slurm_print(f, s->slurm);
		fputc('\n', f);
	}
}

int conf_check_distros(const struct conf *c, const char *data_dir,
		       bo_err *err)
{
	size_t i;

	for (i = 0; i < c->nscheds; i++) {
		bo_err e;

		if (request_check_distros(c->scheds[i].distros, "distros",
					  data_dir, c->state_dir, NULL, NULL,
					  &e) < 0)
			return bo_err_set(err, "'%s' line %d: schedule '%s': %s",
					  c->path, c->scheds[i].line,
					  c->scheds[i].name, e.msg);
	}
	return 0;
}
