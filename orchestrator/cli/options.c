/* options.c - the one option parser and --help generator (see options.h). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/util.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/options.h"

/* The width of "  -d, --distros LIST     ": the column where help text
 * starts. */
#define HELP_COLUMN 25

/* One row of a table flattened, with the base its offset counts from. */
struct flat_opt {
	const struct opt_def *def;
	size_t base;		/* bytes from the command's BASE to the
				 * group's struct */
};

/* Count the rows of TABLE, groups expanded. */
static size_t count_rows(const struct opt_def *table)
{
	size_t n = 0;

	for (; table->kind != OPT_END; table++)
		n += table->kind == OPT_GROUP ? count_rows(table->group) : 1;
	return n;
}

/* Append the rows of TABLE, groups expanded, at *out; BASE as in struct
 * flat_opt. */
static void flatten(const struct opt_def *table, size_t base,
		    struct flat_opt **out)
{
	for (; table->kind != OPT_END; table++) {
		if (table->kind == OPT_GROUP) {
			flatten(table->group, base + table->offset, out);
		} else {
			(*out)->def = table;
			(*out)->base = base;
			(*out)++;
		}
	}
}

/* Store ARG for row F in the struct at BASE. Returns 0, or EXIT_USAGE
 * after printing the usage error of command CMD. */
static int store_value(const char *cmd, const struct flat_opt *f, char *base,
		       const char *arg)
{
	const struct opt_def *o = f->def;
	void *dest = base + f->base + o->offset;
	char *opt = xasprintf("--%s", o->name);
	const char *prefix = o->msg_prefix;
	bo_err err;
	int rc = 0;

	switch (o->kind) {
	case OPT_FLAG:
		*(int *)dest = 1;
		break;
	case OPT_INPUT:
	case OPT_INPUT_NOFOLLOW:
	case OPT_PATH:
		if (cli_path_arg(cmd, opt, arg) ||
		    (o->kind == OPT_INPUT && cli_input_file(cmd, arg, NULL)) ||
		    (o->kind == OPT_INPUT_NOFOLLOW &&
		     cli_input_file_nofollow(cmd, arg))) {
			rc = EXIT_USAGE;
			break;
		}
		/* fall through */
	case OPT_STRING:
		*(const char **)dest = arg;
		break;
	case OPT_INT:
		if (cli_parse_ll(arg, o->min, o->max, (long long *)dest,
				 &err) < 0)
			rc = -1;
		break;
	case OPT_NUMBER:
		if (cli_parse_double(arg, o->dmin, o->dmax, (double *)dest,
				     &err) < 0)
			rc = -1;
		break;
	case OPT_VALUE:
		if (o->parse(arg, dest, &err) < 0)
			rc = -1;
		if (!prefix)
			prefix = "";
		break;
	case OPT_END:
	case OPT_GROUP:
		break;
	}
	if (rc < 0)
		rc = prefix ? cli_usage_error(cmd, "%s%s", prefix, err.msg) :
			      cli_usage_error(cmd, "%s: %s", opt, err.msg);
	free(opt);
	return rc;
}

/* getopt_long's view of a table: its rows flattened, their long options
 * (each val 256 + its index in flat) and short ones. */
struct parser {
	struct flat_opt *flat;
	size_t n;
	struct option *longs;
	char *shorts;
};

/* Fill P for TABLE; release with parser_free. */
static void parser_init(struct parser *p, const struct opt_def *table)
{
	struct flat_opt *end;
	size_t i;
	char *s;

	p->n = count_rows(table);
	p->flat = end = xcalloc(p->n + 1, sizeof(*p->flat));
	p->longs = xcalloc(p->n + 2, sizeof(*p->longs));
	/* ':' first: a missing value is told from an unknown option */
	p->shorts = s = xcalloc(2 * p->n + 4, 1);
	flatten(table, 0, &end);
	*s++ = ':';
	*s++ = 'h';
	for (i = 0; i < p->n; i++) {
		const struct opt_def *o = p->flat[i].def;

		p->longs[i].name = o->name;
		p->longs[i].has_arg = o->kind == OPT_FLAG ? no_argument :
				      required_argument;
		p->longs[i].val = 256 + (int)i;
		if (o->short_name) {
			*s++ = (char)o->short_name;
			if (o->kind != OPT_FLAG)
				*s++ = ':';
		}
	}
	p->longs[p->n].name = "help";
	p->longs[p->n].has_arg = no_argument;
	p->longs[p->n].val = 'h';
}

static void parser_free(struct parser *p)
{
	free(p->shorts);
	free(p->longs);
	free(p->flat);
}

/* Act on OPT, what getopt_long returned for ARGV (optind past it): store
 * the value, print the help, or the usage error. Returns 0, -1 after
 * --help, or EXIT_USAGE. */
static int parser_take(const char *cmd, const struct parser *p, void *base,
		       int opt, char **argv,
		       void (*help)(FILE *f, const void *ctx),
		       const void *help_ctx)
{
	const struct flat_opt *f = NULL;
	size_t i;

	if (opt >= 256 && opt < 256 + (int)p->n) {
		f = &p->flat[opt - 256];
	} else if (opt != 'h' && opt != ':' && opt != '?') {
		for (i = 0; i < p->n && !f; i++)
			if (p->flat[i].def->short_name == opt)
				f = &p->flat[i];
	}
	if (f)
		return store_value(cmd, f, base, optarg);
	if (opt == 'h') {
		if (help)
			help(stdout, help_ctx);
		return -1;
	}
	if (opt == ':')
		return cli_usage_error(cmd, "option '%s' needs a value",
				       argv[optind - 1]);
	return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int opts_parse(const char *cmd, const struct opt_def *table, void *base,
	       int argc, char **argv, int max_args, int *first,
	       void (*help)(FILE *f, const void *ctx), const void *help_ctx)
{
	struct parser p;
	int opt, rc = 0;

	parser_init(&p, table);
	optind = 1;
	opterr = 0;
	while (rc == 0 &&
	       (opt = getopt_long(argc, argv, p.shorts, p.longs, NULL)) != -1)
		rc = parser_take(cmd, &p, base, opt, argv, help, help_ctx);
	if (rc == 0 && max_args >= 0 && argc - optind > max_args)
		rc = cli_usage_error(cmd, "unexpected argument '%s'",
				     argv[optind + max_args]);
	*first = optind;
	parser_free(&p);
	return rc;
}

/* 1 when ARG spells an option of P whole: "--NAME", "--NAME=VALUE" (a
 * row with a value), "-X"; or --help, -h. */
static int whole_option(const struct parser *p, const char *arg)
{
	size_t i, len;

	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
		return 1;
	for (i = 0; i < p->n; i++) {
		const struct opt_def *o = p->flat[i].def;

		if (arg[0] == '-' && arg[1] == o->short_name && arg[1] &&
		    arg[2] == '\0')
			return 1;
		if (strncmp(arg, "--", 2) != 0)
			continue;
		len = strlen(o->name);
		if (strncmp(arg + 2, o->name, len) == 0 &&
		    (arg[2 + len] == '\0' ||
		     (arg[2 + len] == '=' && o->kind != OPT_FLAG)))
			return 1;
	}
	return 0;
}

int opts_parse_pass(const char *cmd, const struct opt_def *table, void *base,
		    int argc, char **argv,
		    int (*other)(const char *arg, void *ctx), void *other_ctx,
		    void (*help)(FILE *f, const void *ctx),
		    const void *help_ctx)
{
	struct parser p;
	int i = 1, rc = 0;

	parser_init(&p, table);
	opterr = 0;
	while (rc == 0 && i < argc) {
		/* getopt_long reads the option alone, with what follows it
		 * as its value if it takes one */
		char *one[4] = { argv[0], argv[i], NULL, NULL };
		int n = 2, opt;

		if (!whole_option(&p, argv[i])) {
			rc = other(argv[i++], other_ctx);
			continue;
		}
		if (i + 1 < argc)
			one[n++] = argv[i + 1];
		optind = 1;
		opt = getopt_long(n, one, p.shorts, p.longs, NULL);
		rc = parser_take(cmd, &p, base, opt, one, help, help_ctx);
		i += optind - 1;
	}
	parser_free(&p);
	return rc;
}

/* Write TEXT (lines split at '\n') from the help column on, the first
 * line where F stands, the others indented. */
static void put_help_text(FILE *f, const char *text)
{
	const char *nl;

	while ((nl = strchr(text, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - text), text, HELP_COLUMN,
			"");
		text = nl + 1;
	}
	fprintf(f, "%s\n", text);
}

/* Write one option's line(s): "  -q, --quiet" or "      --db PATH",
 * padded to the help column, then its text. */
static void put_option(FILE *f, int short_name, const char *name,
		       const char *arg, const char *help)
{
	char *left = xasprintf("  %c%c%c --%s%s%s",
			       short_name ? '-' : ' ',
			       short_name ? short_name : ' ',
			       short_name ? ',' : ' ', name,
			       arg ? " " : "", arg ? arg : "");
	int len = (int)strlen(left);

	if (len > HELP_COLUMN - 2)
		fprintf(f, "%s\n%*s", left, HELP_COLUMN, "");
	else
		fprintf(f, "%-*s", HELP_COLUMN, left);
	put_help_text(f, help ? help : "");
	free(left);
}

/* Write the rows of TABLE, groups expanded, but for its hidden ones. */
static void put_rows(FILE *f, const struct opt_def *table)
{
	for (; table->kind != OPT_END; table++) {
		if (table->hidden)
			continue;
		if (table->kind == OPT_GROUP)
			put_rows(f, table->group);
		else
			put_option(f, table->short_name, table->name,
				   table->arg, table->help);
	}
}

void opts_help(FILE *f, const struct opt_def *table)
{
	if (table)
		put_rows(f, table);
	put_option(f, 'h', "help", NULL, "show this help");
}

const struct opt_def *opts_find(const struct opt_def *table, const char *name)
{
	const struct opt_def *o;

	for (; table->kind != OPT_END; table++) {
		if (table->kind == OPT_GROUP) {
			if ((o = opts_find(table->group, name)))
				return o;
		} else if (strcmp(table->name, name) == 0) {
			return table;
		}
	}
	return NULL;
}
