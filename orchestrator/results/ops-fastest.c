/* ops-fastest.c - the fastest of each public-key operation and key
 * derivation function, and its ties (see ops-fastest.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/fastest.h"
#include "orchestrator/results/ops-fastest.h"
#include "orchestrator/results/report-fmt.h"

/* The pairs of one algorithm of one run and kind; ?1 the run, ?2 the
 * mode, ?3 the algorithm. A library and its versus labelled as the rows
 * are (ops_row_label). */
static const char pairs_sql[] =
	"SELECT coalesce(distro || coalesce(':' || release, ''), ''), variant,"
	" algorithm, operation,"
	" CASE WHEN build = 'shipped' THEN library"
	" ELSE library || '@' || build END,"
	" CASE WHEN versus_build = 'shipped' THEN versus"
	" ELSE versus || '@' || versus_build END,"
	" ratio, tie FROM pairs_v WHERE run_id = ?1 AND mode = ?2"
	" AND algorithm = ?3";

int ops_same_group(const struct ops_row *a, const struct ops_row *b)
{
	return a->run_id == b->run_id && strcmp(a->distro, b->distro) == 0 &&
	       strcmp(a->variant, b->variant) == 0 &&
	       strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

/* The row of the group V[0 .. N-1] labelled NAME, or NULL. */
static struct ops_row *find_row(struct ops_row *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		char *label = ops_row_label(&v[i]);
		int same = strcmp(label, name) == 0;

		free(label);
		if (same)
			return &v[i];
	}
	return NULL;
}

/* Does the pair at the current row of ST (pairs_sql) belong to the
 * group whose first row is G, of KIND? */
static int pair_in_group(sqlite3_stmt *st, const struct ops_row *g,
			 enum ops_kind kind)
{
	const char *distro = (const char *)sqlite3_column_text(st, 0);
	const char *variant = (const char *)sqlite3_column_text(st, 1);
	const char *algo = (const char *)sqlite3_column_text(st, 2);
	const char *op = (const char *)sqlite3_column_text(st, 3);

	if (!distro || !variant || !algo || !op)
		return 0;
	/* a key derivation's pair is at operation 'derive', whatever its
	 * cost parameters */
	return strcmp(g->distro, distro) == 0 &&
	       strcmp(g->variant, variant) == 0 &&
	       strcmp(g->algorithm, algo) == 0 &&
	       (kind == OPS_KDF || strcmp(g->operation, op) == 0);
}

/* Mark the ties of the group V[0 .. N-1] (its fastest marked) from the
 * pairs ST gives for its run. Returns 0, or -1 with err set. */
static int mark_group(sqlite3 *db, sqlite3_stmt *st, enum ops_kind kind,
		      struct ops_row *v, size_t n, bo_err *err)
{
	struct ops_row *top = NULL;
	char *fastest;
	int rc;

	for (size_t i = 0; i < n && !top; i++)
		if (v[i].fastest)
			top = &v[i];
	if (!top || n < 2)
		return 0;
	fastest = ops_row_label(top);
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, v[0].run_id);
	sqlite3_bind_text(st, 3, v[0].algorithm, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *lib = (const char *)sqlite3_column_text(st, 4);
		const char *versus = (const char *)sqlite3_column_text(st, 5);
		const char *tied;
		struct ops_row *r;

		if (!lib || !versus || !pair_in_group(st, &v[0], kind))
			continue;
		tied = fastest_pair_tied(fastest, lib, versus,
					 sqlite3_column_double(st, 6),
					 sqlite3_column_int(st, 7));
		r = tied ? find_row(v, n, tied) : NULL;
		if (r && r != top && r->ops_per_s > 0)
			r->tie = 1;
	}
	free(fastest);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

int ops_mark_ties(sqlite3 *db, enum ops_kind kind, struct ops_row *v,
		  size_t n, bo_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	for (size_t i = 0, j; i < n; i = j) {
		struct ops_row *top = NULL;

		for (j = i; j < n && ops_same_group(&v[i], &v[j]); j++) {
			v[j].fastest = v[j].tie = 0;
			if (v[j].ops_per_s > 0 &&
			    (!top || v[j].ops_per_s > top->ops_per_s))
				top = &v[j];
		}
		if (top)
			top->fastest = 1;
	}
	if (n < 2)
		return 0;
	rc = db_prepare_optional(db, pairs_sql, &st);
	if (rc < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (rc == 0)
		return 0;	/* a schema before pairs or their builds */
	sqlite3_bind_text(st, 2, kind == OPS_KDF ? "kdf" : "pubkey", -1,
			  SQLITE_STATIC);
	rc = 0;
	for (size_t i = 0, j; i < n && rc == 0; i = j) {
		for (j = i; j < n && ops_same_group(&v[i], &v[j]); j++)
			;
		rc = mark_group(db, st, kind, &v[i], j - i, err);
	}
	sqlite3_finalize(st);
	return rc;
}

/* qsort order of tied rows: by rate, fastest first, then by name */
static int cmp_rate(const void *pa, const void *pb)
{
	const struct ops_row *a = *(const struct ops_row *const *)pa;
	const struct ops_row *b = *(const struct ops_row *const *)pb;

	if (a->ops_per_s != b->ops_per_s)
		return a->ops_per_s < b->ops_per_s ? 1 : -1;
	return strcmp(a->library, b->library);
}

char *ops_fastest_names(const struct ops_row *v, size_t n, int *ret_tie)
{
	const struct ops_row **tied = xcalloc(n ? n : 1, sizeof(*tied));
	const struct ops_row *top = NULL;
	size_t nt = 0;
	char *s, *t;

	for (size_t i = 0; i < n; i++) {
		if (v[i].fastest)
			top = &v[i];
		else if (v[i].tie)
			tied[nt++] = &v[i];
	}
	if (ret_tie)
		*ret_tie = top && nt > 0;
	if (!top) {
		free(tied);
		return NULL;
	}
	qsort(tied, nt, sizeof(*tied), cmp_rate);
	s = ops_row_label(top);
	for (size_t i = 0; i < nt; i++) {
		char *name = ops_row_label(tied[i]);

		t = xasprintf("%s = %s", s, name);
		free(name);
		free(s);
		s = t;
	}
	free(tied);
	return s;
}

enum { C_DISTRO, C_ALGO, C_OP, C_FAST, C_RATE, NCOLS };

/* The cells of one line about the group V[0 .. N-1] into CELL (newly
 * allocated strings); *TIE set when a library is tied. 0, or -1 when
 * the group has no fastest (nothing allocated). */
static int line_of(const struct ops_row *v, size_t n, char **cell, int *tie)
{
	const struct ops_row *top = NULL;
	char buf[32];
	int k = 0;

	cell[C_FAST] = ops_fastest_names(v, n, &k);
	if (!cell[C_FAST])
		return -1;
	*tie |= k;
	for (size_t i = 0; i < n; i++)
		if (v[i].fastest)
			top = &v[i];
	cell[C_DISTRO] = strcmp(v[0].variant, "hw") == 0 ?
			 xstrdup(*v[0].distro ? v[0].distro : "?") :
			 xasprintf("%s (%s)", *v[0].distro ? v[0].distro : "?",
				   v[0].variant);
	cell[C_ALGO] = xstrdup(v[0].algorithm);
	cell[C_OP] = xstrdup(v[0].operation);
	cell[C_RATE] = xasprintf("%s/s%s", fmt_ops(top->ops_per_s, buf,
						    sizeof(buf)),
				 top->verified ? "" : "!");
	return 0;
}

long ops_fastest_print(FILE *f, sqlite3 *db, enum ops_kind kind,
		       int64_t run_id, bo_err *err)
{
	struct ops_row *v;
	long n = ops_rows_load(db, kind, &run_id, 1, &v, err);
	char *(*lines)[NCOLS];
	size_t w[NCOLS] = { 0 }, nl = 0;
	int tie = 0, unverified = 0;

	if (n <= 0)
		return n;
	lines = xcalloc((size_t)n, sizeof(*lines));
	for (size_t i = 0, j; i < (size_t)n; i = j) {
		for (j = i; j < (size_t)n && ops_same_group(&v[i], &v[j]); j++)
			;
		if (line_of(&v[i], j - i, lines[nl], &tie) < 0)
			continue;
		for (int c = 0; c < NCOLS; c++)
			if (strlen(lines[nl][c]) > w[c])
				w[c] = strlen(lines[nl][c]);
		unverified |= strchr(lines[nl][C_RATE], '!') != NULL;
		nl++;
	}
	if (nl)
		fprintf(f, "\nFastest per %s:\n", kind == OPS_KDF ?
			"function and parameters" : "operation");
	for (size_t i = 0; i < nl; i++) {
		for (int c = 0; c < NCOLS; c++) {
			/* two blanks before each cell; the rate, last,
			 * right-aligned: no trailing blanks */
			fprintf(f, "  %*s", c == C_RATE ? (int)w[c] :
				-(int)w[c], lines[i][c]);
			free(lines[i][c]);
		}
		fputc('\n', f);
	}
	if (tie)
		fputs("a = b: a tie with the fastest, measured taking turns and not told apart\n"
		      "(their paired interval holds 1, or the guests disagree on which is faster)\n",
		      f);
	if (unverified)
		fputs("! NOT verified\n", f);
	free(lines);
	ops_rows_free(v, (size_t)n);
	return (long)nl;
}
