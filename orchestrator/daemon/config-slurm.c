/* config-slurm.c - the Slurm words of a schedule line. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "orchestrator/daemon/config-slurm.h"
#include "orchestrator/run/slurm.h"

/* VALUE if WORD is "KEY=VALUE", else NULL. */
static const char *value_of(const char *word, const char *key)
{
	size_t n = strlen(key);

	return strncmp(word, key, n) == 0 && word[n] == '=' ? word + n + 1 : NULL;
}

int conf_slurm_word(struct sched_slurm **s, const char *word, bo_err *err)
{
	static const char *const keys[] = { "partition", "nodes", "nodelist",
					    "spool", "time" };
	const char *v = NULL;
	size_t k;

	if (strcmp(word, "slurm") != 0) {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if ((v = value_of(word, keys[k])))
				break;
		if (!v)
			return 0;
		if (!*v)
			return bo_err_set(err, "'%s' needs a value", word);
	}
	if (!*s)
		*s = xcalloc(1, sizeof(**s));
	if (!v) {
		(*s)->enabled = 1;
	} else if (k == 0) {
		free((*s)->partition);
		(*s)->partition = xstrdup(v);
	} else if (k == 1) {
		long long n;

		if (cli_parse_ll(v, 1, 10000, &n, err) < 0) {
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			return bo_err_set(err, "nodes: %s", msg);
		}
		(*s)->nodes = (long)n;
	} else if (k == 2) {
		free((*s)->nodelist);
		(*s)->nodelist = xstrdup(v);
	} else if (k == 3) {
		if (v[0] != '/')
			return bo_err_set(err, "spool must be an absolute path, not '%s'", v);
		free((*s)->spool);
		(*s)->spool = xstrdup(v);
	} else {
		if (slurm_time_check(v, err) < 0) {
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			return bo_err_set(err, "time: %s", msg);
		}
		free((*s)->time);
		(*s)->time = xstrdup(v);
	}
	return 1;
}

int conf_slurm_check(const struct sched_slurm *s, bo_err *err)
{
	if (!s)
		return 0;
	if (!s->enabled)
		return bo_err_set(err, "partition=, nodes=, nodelist=, spool= and time= need the word 'slurm'");
	if (s->nodes && s->nodelist)
		return bo_err_set(err, "nodes= and nodelist= exclude each other");
	/* as slurm submit: the default spool is local to each node */
	if (!s->spool)
		return bo_err_set(err, "slurm needs spool=DIR, a directory every node and this host share (the default, STATE/slurm, is local to each node)");
	return 0;
}

void conf_slurm_print(FILE *f, const struct sched_slurm *s)
{
	if (!s)
		return;
	fputs(" slurm", f);
	if (s->partition)
		fprintf(f, " partition=%s", s->partition);
	if (s->nodes)
		fprintf(f, " nodes=%ld", s->nodes);
	if (s->nodelist)
		fprintf(f, " nodelist=%s", s->nodelist);
	if (s->spool)
		fprintf(f, " spool=%s", s->spool);
	if (s->time)
		fprintf(f, " time=%s", s->time);
}

void conf_slurm_free(struct sched_slurm *s)
{
	if (!s)
		return;
	free(s->partition);
	free(s->nodelist);
	free(s->spool);
	free(s->time);
	free(s);
}
