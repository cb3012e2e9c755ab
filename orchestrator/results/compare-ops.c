/* compare-ops.c - the ratios of two runs' public-key and key derivation
 * results (see compare-ops.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/format.h"
#include "orchestrator/results/compare-ops.h"
#include "orchestrator/results/report-fmt.h"

/* Do A and B measure the same thing (run aside)? */
static int same_key(const struct ops_row *a, const struct ops_row *b)
{
	return strcmp(a->distro, b->distro) == 0 &&
	       strcmp(a->variant, b->variant) == 0 &&
	       strcmp(a->build, b->build) == 0 &&
	       strcmp(a->library, b->library) == 0 &&
	       strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

/* Load and pair KIND into *K. Returns the pairs, or -1 with err set. */
static long load_kind(sqlite3 *db, enum ops_kind kind, int64_t base_run,
		      int64_t new_run, struct compare_ops_kind *k, bo_err *err)
{
	long nb, nn;

	memset(k, 0, sizeof(*k));
	nb = ops_rows_load(db, kind, &base_run, 1, &k->base_rows, err);
	if (nb < 0)
		return -1;
	nn = ops_rows_load(db, kind, &new_run, 1, &k->new_rows, err);
	if (nn < 0) {
		ops_rows_free(k->base_rows, (size_t)nb);
		k->base_rows = NULL;
		return -1;
	}
	k->nbase = (size_t)nb;
	k->nnew = (size_t)nn;
	k->pairs = xcalloc(k->nnew ? k->nnew : 1, sizeof(*k->pairs));
	for (size_t i = 0; i < k->nnew; i++)
		for (size_t j = 0; j < k->nbase; j++) {
			const struct ops_row *b = &k->base_rows[j],
					     *n = &k->new_rows[i];

			if (!same_key(b, n) || !(b->ops_per_s > 0))
				continue;
			k->pairs[k->npairs++] = (struct compare_op){
				b, n, n->ops_per_s / b->ops_per_s };
			break;
		}
	return (long)k->npairs;
}

static void free_kind(struct compare_ops_kind *k)
{
	ops_rows_free(k->base_rows, k->nbase);
	ops_rows_free(k->new_rows, k->nnew);
	free(k->pairs);
	memset(k, 0, sizeof(*k));
}

long compare_ops_load(sqlite3 *db, int64_t base_run, int64_t new_run,
		      struct compare_ops *ret, bo_err *err)
{
	long a, b;

	memset(ret, 0, sizeof(*ret));
	ret->base_run = base_run;
	ret->new_run = new_run;
	a = load_kind(db, OPS_PUBKEY, base_run, new_run, &ret->pubkey, err);
	if (a < 0)
		return -1;
	b = load_kind(db, OPS_KDF, base_run, new_run, &ret->kdf, err);
	if (b < 0) {
		free_kind(&ret->pubkey);
		return -1;
	}
	return a + b;
}

void compare_ops_free(struct compare_ops *c)
{
	free_kind(&c->pubkey);
	free_kind(&c->kdf);
}

/* "LIBRARY" or "LIBRARY@BUILD" into BUF of LEN bytes; returns BUF. */
static const char *library_label(const struct ops_row *r, char *buf,
				 size_t len)
{
	if (strcmp(r->build, "shipped") == 0)
		snprintf(buf, len, "%s", r->library);
	else
		snprintf(buf, len, "%s@%s", r->library, r->build);
	return buf;
}

/* The table of K (of KIND) to F, after its heading. */
static void print_kind_table(FILE *f, const struct compare_ops_kind *k,
			     enum ops_kind kind)
{
	const char *hdr[] = { "distro", "library", "algorithm",
			      kind == OPS_KDF ? "parameters" : "op",
			      kind == OPS_KDF ? "base deriv/s" : "base ops/s",
			      kind == OPS_KDF ? "new deriv/s" : "new ops/s",
			      "new/base", "verified" };
	static const int right[] = { 0, 0, 0, 0, 1, 1, 1, 0 };
	struct tbl t;

	tbl_init(&t, 8, hdr, right);
	for (size_t i = 0; i < k->npairs; i++) {
		const struct compare_op *p = &k->pairs[i];
		char lib[256], a[32], b[32], r[32], d[256];
		const char *row[8];

		if (strcmp(p->new->variant, "hw") != 0)
			snprintf(d, sizeof(d), "%s (%s)", p->new->distro,
				 p->new->variant);
		else
			snprintf(d, sizeof(d), "%s", p->new->distro);
		snprintf(r, sizeof(r), "x%.2f", p->ratio);
		row[0] = d;
		row[1] = library_label(p->new, lib, sizeof(lib));
		row[2] = p->new->algorithm;
		row[3] = p->new->operation;
		row[4] = fmt_ops(p->base->ops_per_s, a, sizeof(a));
		row[5] = fmt_ops(p->new->ops_per_s, b, sizeof(b));
		row[6] = r;
		row[7] = p->base->verified && p->new->verified ? "yes" : "NO";
		tbl_add(&t, row);
	}
	fprintf(f, "\n%s results in both runs, %zu (%s):\n",
		kind == OPS_KDF ? "Key derivation" : "Public-key", k->npairs,
		COMPARE_OPS_NOTE);
	tbl_print(&t, f);
	tbl_free(&t);
}

void compare_ops_print_table(FILE *f, const struct compare_ops *c)
{
	if (c->pubkey.npairs)
		print_kind_table(f, &c->pubkey, OPS_PUBKEY);
	if (c->kdf.npairs)
		print_kind_table(f, &c->kdf, OPS_KDF);
}

/* The CSV rows of K, kind NAME. */
static void print_kind_csv(FILE *f, const struct compare_ops_kind *k,
			   const char *name)
{
	for (size_t i = 0; i < k->npairs; i++) {
		const struct compare_op *p = &k->pairs[i];
		const char *text[] = { p->new->distro, p->new->variant,
				       p->new->build, p->new->library,
				       p->new->algorithm, p->new->operation };

		fputs(name, f);
		for (size_t j = 0; j < sizeof(text) / sizeof(text[0]); j++) {
			fputc(',', f);
			format_csv_field(f, text[j]);
		}
		fprintf(f, ",%.6g,%.6g,%.6g,%d,%d,", p->base->ops_per_s,
			p->new->ops_per_s, p->ratio, p->base->verified,
			p->new->verified);
		format_csv_field(f, p->base->version);
		fputc(',', f);
		format_csv_field(f, p->new->version);
		fputc(',', f);
		format_csv_field(f, COMPARE_OPS_NOTE);
		fputs("\r\n", f);
	}
}

void compare_ops_print_csv(FILE *f, const struct compare_ops *c)
{
	fputs("kind,distro,variant,build,library,algorithm,operation,"
	      "base_ops_per_s,new_ops_per_s,ratio,base_verified,new_verified,"
	      "base_version,new_version,note\r\n", f);
	print_kind_csv(f, &c->pubkey, "pubkey");
	print_kind_csv(f, &c->kdf, "kdf");
}

/* The array of K's pairs. */
static json_t *kind_json(const struct compare_ops_kind *k)
{
	json_t *a = json_array();

	for (size_t i = 0; i < k->npairs; i++) {
		const struct compare_op *p = &k->pairs[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:b,"
			" s:b, s:s, s:s, s:n}",
			"distro", p->new->distro, "variant", p->new->variant,
			"build", p->new->build, "library", p->new->library,
			"algorithm", p->new->algorithm,
			"operation", p->new->operation,
			"base_ops_per_s", p->base->ops_per_s,
			"new_ops_per_s", p->new->ops_per_s,
			"ratio", p->ratio, "base_verified", p->base->verified,
			"new_verified", p->new->verified,
			"base_version", p->base->version,
			"new_version", p->new->version, "verdict"));
	}
	return a;
}

json_t *compare_ops_json(const struct compare_ops *c)
{
	return json_pack("{s:o, s:o, s:s}", "pubkey", kind_json(&c->pubkey),
			 "kdf", kind_json(&c->kdf), "ops_note",
			 COMPARE_OPS_NOTE);
}
