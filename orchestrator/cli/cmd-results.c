/* cmd-results.c - `benchorch results`: print stored measurements. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "lib/algorithms.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/results-points.h"
#include "orchestrator/cli/results-sections.h"
#include "orchestrator/results/db-names.h"
#include "orchestrator/results/fastest.h"
#include "lib/format.h"
#include "orchestrator/results/tools-print.h"
#include "orchestrator/results/latest-pick.h"
#include "orchestrator/results/lib-faults.h"
#include "lib/paths.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/results-builds.h"
#include "orchestrator/results/results-kdf.h"
#include "orchestrator/results/results-pubkey.h"
#include "orchestrator/results/results-resources.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/summary.h"
#include "orchestrator/run/run-report.h"

static const char usage[] =
"Usage: benchorch results [OPTIONS]\n"
"\n"
"Print the measurements of one run (the latest by default), one row per\n"
"library, algorithm, operation and buffer size: a point that several guest\n"
"invocations of the run measured (each is measured in two) is one row, the\n"
"median of their medians (per call), its quartiles spanning them.\n"
"The latest run is the latest finished run with library results: not an\n"
"aborted, failed or still running run, not a confirmation run (a few\n"
"curves of another run measured again), not a tool run (--tools shows\n"
"the latest finished tool run); stderr names the newer runs it skipped.\n"
"It is the view latest_runs_v of the database. --run names any run.\n"
"Throughput in MB/s (10^6 bytes per second). The table shows sizes in\n"
"binary units (16 B, 1 KiB, 1 MiB) and the median time per call in ns;\n"
"csv and json keep the stored columns (buffer_bytes, mb_per_s, median_ns\n"
"per batch of calls_per_batch calls) for machines, and add ns_per_call\n"
"(median_ns / calls_per_batch: the table's ns/call) and build (shipped,\n"
"or the name of a build measured with run --builds, shown in the table\n"
"as library@build) last.\n"
"mode is bulk (one keyed context reused) or oneshot (set up per buffer);\n"
"variant is hw, or nohw when hardware acceleration was masked.\n"
"slope cyc/B (cycles_per_byte) is the run's curve's fitted cost per byte\n"
"(the slope of time per call against bytes; each guest invocation fits its\n"
"own, and the run's is the mean of its invocations' slopes, the same on\n"
"every row of a curve and in the report)\n"
"at the core clock the guest measured, not the cycles per byte of the\n"
"row's point (--summary's cyc/B@16K); CV% (cv, a fraction) the spread of\n"
"the point's\n"
"raw samples (all its sets; the largest of its invocations'); a\n"
"throughput marked ~ (noisy = 1) spread in one of them more than 3 times\n"
"its invocation's typical point (interquartile range over median; CV% is\n"
"a description, not the rule). csv and json also give the\n"
"quartiles p25_ns and p75_ns (ns per batch). Runs stored before the guest\n"
"reported samples leave these empty.\n"
"The table starts with a line per run: its CPU, the state of the CPU its\n"
"guests were pinned to (governor, boost, scaling frequency before and\n"
"after, hypervisor), its seed and rounds, and its warnings if the numbers\n"
"may have drifted.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"--run, --latest and --all exclude each other; each other filter takes one\n"
"value; a library, algorithm or operation name the guest does not know is a\n"
"usage error. With no matching row the table is empty, csv prints its header\n"
"line and json [].\n"
"\n"
"Exit status: 0 rows printed; 1 no matching results; 2 usage error (a\n"
"run id the database does not hold too); 3 the database cannot be read.\n";

/* Set the filter *SLOT of option OPT to VALUE. A filter holds one value:
 * given again with another value it contradicts itself (no row can match
 * both), which is a usage error, not a silent override. Returns 0, or -1
 * with err set to why. */
static int set_filter(const char **slot, const char *opt, const char *value,
		      bo_err *err)
{
	if (*slot && strcmp(*slot, value) != 0)
		return bo_err_set(err, "%s '%s' and %s '%s' exclude each other",
				  opt, *slot, opt, value);
	*slot = value;
	return 0;
}

/* --distro NAME into the filter (const char *) DEST. */
static int parse_distro(const char *arg, void *dest, bo_err *err)
{
	return set_filter(dest, "--distro", arg, err);
}

/* --lib NAME: a library the guest knows, into the filter DEST. */
static int parse_lib(const char *arg, void *dest, bo_err *err)
{
	if (!library_known(arg))
		return bo_err_set(err, "--lib: unknown library '%s'", arg);
	return set_filter(dest, "--lib", arg, err);
}

/* --algo NAME: an algorithm the guest knows (a public-key one too: it
 * selects --pubkey), into the filter DEST. */
static int parse_algo(const char *arg, void *dest, bo_err *err)
{
	if (!algorithm_find(arg) && !pubkey_find(arg) && !kdf_find(arg))
		return bo_err_set(err, "--algo: unknown algorithm '%s'", arg);
	return set_filter(dest, "--algo", arg, err);
}

/* --op OP: encrypt, decrypt or hash, into the filter DEST. */
static int parse_op(const char *arg, void *dest, bo_err *err)
{
	if (strcmp(arg, "encrypt") != 0 && strcmp(arg, "decrypt") != 0 &&
	    strcmp(arg, "hash") != 0)
		return bo_err_set(err, "--op: '%s' is not encrypt, decrypt or hash",
				  arg);
	return set_filter(dest, "--op", arg, err);
}

/* --size SIZE into the struct cli_size DEST; given again, the same size
 * only. */
static int parse_size_filter(const char *arg, void *dest, bo_err *err)
{
	struct cli_size *s = dest, was = *s;

	if (cli_parse_size_opt(arg, s, err) < 0)
		return -1;
	if (was.bytes && was.bytes != s->bytes)
		return bo_err_set(err, "--size '%s' and --size '%s' exclude each other",
				  was.arg, arg);
	return 0;
}

/* When run RUN_ID (without results) is a confirmation whose verdict is a
 * duet alone (no curve looked changed; the previous and the new image
 * were measured side by side), the clause saying so into *RET (NULL
 * otherwise; the caller frees it). Returns 0, or -1 on a database
 * error. */
static int duet_only_reason(sqlite3 *db, int64_t run_id, char **ret)
{
	char *sql;
	long long of, duet;
	int has = db_has(db, "duets");

	*ret = NULL;
	if (has <= 0)
		return has;
	sql = xasprintf("SELECT coalesce((SELECT confirmed_run_id FROM"
			" confirmations WHERE run_id = %lld LIMIT 1), 0)",
			(long long)run_id);
	of = db_query_int(db, sql);
	free(sql);
	sql = xasprintf("SELECT coalesce(max(id), 0) FROM duets WHERE"
			" confirmation_run_id = %lld", (long long)run_id);
	duet = of > 0 ? db_query_int(db, sql) : 0;
	free(sql);
	if (of < 0 || duet < 0)
		return -1;
	if (of > 0 && duet > 0)
		*ret = xasprintf(": run %lld confirms run %lld by a duet of the previous and the new image alone (duet %lld: its verdicts in duet_curves_v)",
				 (long long)run_id, of, duet);
	return 0;
}

/* Why run RUN_ID (a run DB holds: check_runs) has no results at all, as
 * a clause to append to the "no matching results" error, in *RET: ": run
 * N is stored as aborted (why)", ": run N is still running (or its
 * orchestrator died)", ": run N is a tool run (run --tools); ..." (it
 * has tool results, shown by --tools); NULL when the run has results
 * (the filters excluded them) or when it finished normally. The caller
 * frees it. Returns 0, or -1 (*RET NULL) on a database error (the
 * message is sqlite3_errmsg(DB)). */
static int no_results_reason(sqlite3 *db, int64_t run_id, char **ret)
{
	sqlite3_stmt *st;
	char *why = NULL;
	int rc, tools;

	*ret = NULL;
	if (sqlite3_prepare_v2(db, "SELECT status, error, EXISTS (SELECT 1"
			       " FROM results_v WHERE run_id = ?1)"
			       " FROM runs WHERE id = ?1", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_int(st, 2) == 0) {
		const char *status = (const char *)sqlite3_column_text(st, 0);
		const char *error = (const char *)sqlite3_column_text(st, 1);

		if (status && strcmp(status, "running") == 0)
			why = xasprintf(": run %lld is still running (or its "
					"orchestrator died)", (long long)run_id);
		else if (status && strcmp(status, "done") != 0) {
			char *what = cli_stored_as(run_id, status, error);

			why = xasprintf(": %s", what);
			free(what);
		}
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	/* a database older than the tool mode has no tool run */
	tools = !why && rc == SQLITE_ROW ? db_has(db, "tool_results") : 0;
	if (tools < 0)
		return -1;
	if (tools) {
		char *sql = xasprintf("SELECT EXISTS (SELECT 1 FROM invocations i"
				      " JOIN tool_results t ON t.invocation_id ="
				      " i.id WHERE i.run_id = %lld) AND NOT EXISTS"
				      " (SELECT 1 FROM results_v WHERE run_id ="
				      " %lld)", (long long)run_id,
				      (long long)run_id);
		long long k = db_query_int(db, sql);

		free(sql);
		if (k < 0)
			return -1;
		if (k == 1)
			why = xasprintf(": run %lld is a tool run (run --tools);"
					" 'benchorch results --tools --run %lld'"
					" shows it", (long long)run_id,
					(long long)run_id);
	}
	if (!why && rc == SQLITE_ROW && duet_only_reason(db, run_id, &why) < 0)
		return -1;
	*ret = why;
	return 0;
}

/* Warn on stderr about every selected run (F's --run ids, or the latest
 * run show_results put there) that has results but did not finish
 * normally (aborted, failed, still running): its results are partial. */
static void warn_partial_runs(sqlite3 *db, const struct filters *f)
{
	for (size_t i = 0; i < f->nruns; i++)
		cli_warn_partial_run(db, f->runs[i]);
}

/* Check F's --distro and --size against what the runs F selects (its
 * --run ids, the latest run show_results put there, or every run with
 * --all) have results for: a name or size they have none for is a usage
 * error (a typo, or a size the run did not measure) naming what they
 * have, not an empty answer. Returns 0, EXIT_USAGE after printing why,
 * or EXIT_ENV on a database error. */
static int check_known(sqlite3 *db, const char *path, const struct filters *f,
		       const char *size_arg)
{
	const int64_t *runs = f->runs;
	size_t n = f->all ? 0 : f->nruns;
	char *names = NULL, *where;
	int k;

	if (f->distro) {
		k = db_names_distro_known(db, runs, n, f->distro);
		if (k == 0 && !(names = db_names_distros(db, runs, n)))
			k = -1;
		if (k < 0)
			goto dberr;
		if (k == 0) {
			where = db_names_scope(runs, n, path);
			cli_usage_error("results", "--distro: no results for distribution '%s' in %s (it has: %s)",
					f->distro, where, names);
			free(where);
			free(names);
			return EXIT_USAGE;
		}
	}
	if (f->size) {
		k = db_names_size_known(db, runs, n, f->size);
		if (k == 0 && !(names = db_names_sizes(db, runs, n)))
			k = -1;
		if (k < 0)
			goto dberr;
		if (k == 0) {
			where = db_names_scope(runs, n, path);
			cli_usage_error("results", "--size: no results at '%s' in %s (it has: %s)",
					size_arg, where, names);
			free(where);
			free(names);
			return EXIT_USAGE;
		}
	}
	return 0;
dberr:
	cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
	return EXIT_ENV;
}

/* --summary: print summary_fastest for each run of F (its --run ids, or
 * the latest run show_results put there), or run_report_ops for a run
 * without bulk results, read from DB at PATH (named in the closing line
 * unless it is the default database). Returns an exit status. */
static int print_summaries(sqlite3 *db, const char *path,
			   const struct filters *f)
{
	const int64_t *runs = f->runs;
	size_t nruns = f->nruns, i, len = 0;
	int rc = EXIT_OK;
	char *out = NULL;
	FILE *mem;
	bo_err err;

	for (i = 0; i < nruns; i++)
		cli_warn_partial_run(db, runs[i]);
	/* stdout gets the summaries once every run's is read: a database
	 * error leaves it empty */
	mem = open_memstream(&out, &len);
	if (!mem) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	for (i = 0; i < nruns && rc != EXIT_ENV; i++) {
		long n;

		if (i)
			fputc('\n', mem);
		n = summary_fastest(mem, db, runs[i], path, &err);
		/* a run of public-key and key derivation functions alone:
		 * what its end printed, their results */
		if (n == 0)
			n = run_report_ops(mem, db, runs[i], FORMAT_TABLE,
					   path, &err);
		if (n < 0) {
			cli_error("%s in '%s'", err.msg, path);
			rc = EXIT_ENV;
		} else if (n == 0) {
			char *why;

			if (no_results_reason(db, runs[i], &why) < 0) {
				cli_error("database error in '%s': %s", path,
					  sqlite3_errmsg(db));
				rc = EXIT_ENV;
				break;
			}
			cli_error("no bulk results at 16 B or 16 KiB for run %lld in '%s'%s",
				  (long long)runs[i], path, why ? why : "");
			free(why);
			rc = EXIT_FAILED;
		}
	}
	fclose(mem);
	if (rc != EXIT_ENV)
		fwrite(out, 1, len, stdout);
	free(out);
	return rc;
}

/* The warnings, one line each, about every library that failed (could
 * not be loaded, crashed, hung) in the selected runs (F's --run ids, or
 * the latest run show_results put there): it has no results there.
 * Returns 0 with the lines in *RET ("" for none; the caller frees
 * them), or -1 (*RET NULL) on a database error (the message is
 * sqlite3_errmsg(DB)). */
static int failed_libraries(sqlite3 *db, const struct filters *f, char **ret)
{
	const int64_t *runs = f->runs;
	size_t nruns = f->nruns, len = 0, i;
	long k = 0;
	FILE *m;

	*ret = NULL;
	m = open_memstream(ret, &len);
	if (!m) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	for (i = 0; i < nruns && k >= 0; i++)
		k = lib_faults_print(m, db, runs[i], "benchorch: warning: ");
	fclose(m);
	if (k < 0) {
		free(*ret);
		*ret = NULL;
		return -1;
	}
	return 0;
}

/* --resources: print results_resources() for F in FMT. Returns an exit
 * status. */
static int print_resources(sqlite3 *db, const char *path,
			   const struct filters *f, enum format fmt)
{
	struct resources_filter rf = { f->all, f->runs, f->nruns, f->distro,
				       f->lib, f->algo };
	bo_err err;
	long n = results_resources(stdout, db, &rf, fmt, &err);

	if (n < 0) {
		cli_error("cannot read resources from '%s': %s", path, err.msg);
		return EXIT_ENV;
	}
	if (n == 0) {
		cli_error("no resource figures in '%s' for these runs (runs stored before benchorch recorded them have none)",
			  path);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

/* results' options. */
struct results_opts {
	struct cli_paths paths;	/* first: cli_parse reads it */
	struct cli_runs runs;
	int all, latest, summary, tools, resources, pubkey, builds, kdf;
	const char *distro, *lib, *algo, *op;
	struct cli_size size;	/* bytes 0: any size */
	enum format fmt;
};

static const struct opt_def options[] = {
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .kind = OPT_GROUP, .group = cli_run_options,
	  .offset = offsetof(struct results_opts, runs) },
	{ .name = "latest", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, latest),
	  .help = "show the latest run (the default)" },
	{ .name = "all", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, all),
	  .help = "show every run" },
	{ .name = "distro", .kind = OPT_VALUE, .arg = "NAME",
	  .offset = offsetof(struct results_opts, distro),
	  .parse = parse_distro,
	  .help = "only distro NAME or NAME:RELEASE" },
	{ .name = "lib", .kind = OPT_VALUE, .arg = "NAME",
	  .offset = offsetof(struct results_opts, lib), .parse = parse_lib,
	  .help = "only library NAME (openssl, libgcrypt, ...)" },
	{ .name = "algo", .kind = OPT_VALUE, .arg = "NAME",
	  .offset = offsetof(struct results_opts, algo), .parse = parse_algo,
	  .help = "only algorithm NAME (aes-256-gcm, ...)" },
	{ .name = "size", .kind = OPT_VALUE, .arg = "SIZE",
	  .offset = offsetof(struct results_opts, size),
	  .parse = parse_size_filter,
	  .help = "only buffer size SIZE (16384, 16K, 16KiB, 1M,\n"
		  "1MiB; not 16KB or 16kib)" },
	{ .name = "op", .kind = OPT_VALUE, .arg = "OP",
	  .offset = offsetof(struct results_opts, op), .parse = parse_op,
	  .help = "only operation OP (encrypt, decrypt, hash)" },
	{ .kind = OPT_GROUP, .group = cli_format_options,
	  .offset = offsetof(struct results_opts, fmt) },
	{ .name = "summary", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, summary),
	  .help = "print the answer `benchorch run` ends with\n"
		  "instead: per distribution and algorithm the\n"
		  "fastest library at 16 KiB and 16 B, the runner-up\n"
		  "and the slowest (table only; with --run or\n"
		  "--latest, no other filter)" },
	{ .name = "tools", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, tools),
	  .help = "the tool mode's results instead (`run --tools`):\n"
		  "per distribution, tool, cipher, direction and\n"
		  "variant the package version, MB/s (10^6 bytes\n"
		  "per second of wall time), CPU (user + system) and\n"
		  "wall seconds per run of the tool, its peak RSS in\n"
		  "MiB (trimmed means) and the samples kept/taken;\n"
		  "absent tools and failed round trips with why\n"
		  "(--run, --latest, --all, --distro and --format\n"
		  "apply; the latest finished tool run by\n"
		  "default)" },
	{ .name = "resources", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, resources),
	  .help = "print what each library's process cost instead:\n"
		  "per invocation and library the CPU time (user,\n"
		  "system), the peak resident set, the footprint\n"
		  "after loading and the algorithm that raised the\n"
		  "peak most; with --algo NAME that algorithm's\n"
		  "peak and raise per library (takes --run,\n"
		  "--latest, --all, --distro, --lib, --algo and\n"
		  "--format; the table in ms and MiB, csv and json\n"
		  "in microseconds and KiB)" },
	{ .name = "pubkey", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, pubkey),
	  .help = "the public-key results instead (x25519, x448,\n"
		  "ed25519, ecdh-p256, ecdsa-p256, rsa-2048,\n"
		  "rsa-3072, rsa-pss-2048, ml-kem-768, ml-dsa-65):\n"
		  "per distribution, library, algorithm and\n"
		  "operation (import, derive, sign, verify, keygen,\n"
		  "encaps, decaps) the operations per second (10^9\n"
		  "over the mean ns per operation of the run's\n"
		  "invocations), ns/op,\n"
		  "verified and the invocations (--run, --latest,\n"
		  "--all, --distro, --lib, --algo and --format\n"
		  "apply; --algo with one of them implies it; the\n"
		  "latest finished run with public-key results by\n"
		  "default)" },
	{ .name = "builds", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, builds),
	  .help = "each rebuilt library against its shipped one\n"
		  "instead (`run --builds`): per distribution,\n"
		  "library, algorithm and operation, one column per\n"
		  "build, its throughput as a fraction of the\n"
		  "shipped library's from blocks that took turns,\n"
		  "with its interval; '=' where the two are not told\n"
		  "apart (bulk encryption and hashing at 16 KiB\n"
		  "unless --op, --size; --run, --latest, --all,\n"
		  "--distro, --lib, --algo, --op and --format apply;\n"
		  "csv and json every point without them; the latest\n"
		  "run with builds by default)" },
	{ .name = "kdf", .kind = OPT_FLAG,
	  .offset = offsetof(struct results_opts, kdf),
	  .help = "the key derivation results instead\n"
		  "(pbkdf2-sha256, hkdf-sha256, scrypt, argon2id):\n"
		  "per distribution, library and algorithm its cost,\n"
		  "the derivations per second (10^9 over the mean ns\n"
		  "per derivation of the run's invocations), us per\n"
		  "derivation, the invocations and verified (NO: and\n"
		  "why: a known answer failed, another key, or no\n"
		  "known answer and no library to compare) (--run,\n"
		  "--latest, --all, --distro, --lib, --algo and\n"
		  "--format apply; --algo pbkdf2-sha256 and the\n"
		  "others imply it; the latest finished run with key\n"
		  "derivation results by default)" },
	{ .kind = OPT_END },
};

/* The options of O that exclude each other, in the order they are
 * told. Returns 0, or EXIT_USAGE after the message. */
static int check_options(const struct results_opts *o)
{
	if ((o->all != 0) + (o->latest != 0) + (o->runs.n != 0) > 1)
		return cli_usage_error("results", "--run, --latest and --all exclude each other");
	if (o->summary && (o->all || o->distro || o->lib || o->algo || o->op ||
			   o->size.bytes || o->fmt != FORMAT_TABLE))
		return cli_usage_error("results", "--summary takes --run or --latest, no other filter, and no --format but table");
	if (o->tools && o->resources)
		return cli_usage_error("results", "--tools and --resources exclude each other");
	if (o->tools && (o->summary || o->lib || o->algo || o->op ||
			 o->size.bytes))
		return cli_usage_error("results", "--tools takes no --summary, --lib, --algo, --op or --size");
	if (o->resources && (o->summary || o->op || o->size.bytes))
		return cli_usage_error("results", "--resources takes no --summary, --op or --size");
	if (o->algo && pubkey_find(o->algo) && (o->tools || o->resources))
		return cli_usage_error("results", "--algo '%s' is a public-key algorithm: not with --tools or --resources",
				       o->algo);
	if ((o->pubkey || (o->algo && pubkey_find(o->algo))) &&
	    (o->summary || o->tools || o->resources || o->op || o->size.bytes))
		return cli_usage_error("results", "--pubkey takes no --summary, --tools, --resources, --op or --size");
	if (o->builds && (o->summary || o->tools || o->resources ||
			  o->pubkey || o->kdf ||
			  (o->algo && (pubkey_find(o->algo) ||
				       kdf_find(o->algo)))))
		return cli_usage_error("results", "--builds takes no --summary, --tools, --resources, --pubkey, --kdf or a public-key or key derivation --algo");
	if (o->pubkey && o->algo && !pubkey_find(o->algo))
		return cli_usage_error("results", "--pubkey: --algo '%s' is not a public-key algorithm (x25519, x448, ed25519, ecdh-p256, ecdsa-p256, rsa-2048, rsa-3072, rsa-pss-2048, ml-kem-768, ml-dsa-65)",
				       o->algo);
	if (o->algo && kdf_find(o->algo) && (o->tools || o->resources))
		return cli_usage_error("results", "--algo '%s' is a key derivation function: not with --tools or --resources",
				       o->algo);
	if ((o->kdf || (o->algo && kdf_find(o->algo))) &&
	    (o->summary || o->tools || o->resources || o->pubkey || o->op ||
	     o->size.bytes))
		return cli_usage_error("results", "--kdf takes no --summary, --tools, --resources, --pubkey, --op or --size");
	if (o->kdf && o->algo && !kdf_find(o->algo))
		return cli_usage_error("results", "--kdf: --algo '%s' is not a key derivation function (pbkdf2-sha256, hkdf-sha256, scrypt, argon2id)",
				       o->algo);
	return 0;
}

/* Whether DB (at PATH) has the tool mode's tables. Returns EXIT_OK, or
 * EXIT_FAILED (a database older than the tool mode) or EXIT_ENV after
 * the message. */
static int check_tools(sqlite3 *db, const char *path)
{
	int k = sqlite3_table_column_metadata(db, "main", "tool_results",
					      "tool", NULL, NULL, NULL, NULL,
					      NULL);

	if (k == SQLITE_OK)
		return EXIT_OK;
	/* SQLITE_ERROR: a database older than the tool mode (opened
	 * read-only, not migrated); else its schema cannot be read */
	if (k == SQLITE_ERROR)
		cli_error("no tool results in '%s' (`benchorch run --tools` makes them; this database predates them)",
			  path);
	else
		cli_error("database error in '%s': %s", path,
			  sqlite3_errmsg(db));
	return k == SQLITE_ERROR ? EXIT_FAILED : EXIT_ENV;
}

/* --tools: print the tool results of F from DB (at PATH) in FMT (after
 * check_tools). Returns an exit status. */
static int print_tools(sqlite3 *db, const char *path, const struct filters *f,
		       enum format fmt)
{
	bo_err err;
	long n;

	n = tools_print(stdout, db, f->runs, f->nruns, f->all, f->distro, fmt,
			&err);
	if (n < 0)
		cli_error("%s in '%s'", err.msg, path);
	else if (n == 0)
		cli_error("no matching tool results in '%s' (`benchorch run --tools` makes them)",
			  path);
	return n < 0 ? EXIT_ENV : n == 0 ? EXIT_FAILED : EXIT_OK;
}

/* Print the points of F from DB (at PATH) in FMT, then the warnings on
 * them (noisy points, partial runs, failed libraries). stdout gets the
 * rows only once every query has been read: a database error leaves it
 * empty. Returns an exit status. */
static int print_points(sqlite3 *db, const char *path,
			const struct filters *f, enum format fmt)
{
	char *out = NULL, *faults = NULL, *why = NULL;
	size_t outlen = 0;
	sqlite3_stmt *st;
	long n, noisy = 0;
	FILE *mem;
	bo_err err;
	int rc = results_prepare_points(db, path, f, fmt, &st);

	if (rc != 0)
		return rc;
	mem = open_memstream(&out, &outlen);
	if (!mem) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	if (fmt == FORMAT_TABLE)
		n = results_print_human(mem, st, &noisy, &err);
	else
		n = format_stmt(mem, st, fmt, &err);
	fclose(mem);
	/* with --all, every failed library of every run would be named */
	if (n > 0 && !f->all && failed_libraries(db, f, &faults) < 0)
		n = bo_err_set(&err, "database error: %s", sqlite3_errmsg(db));
	if (n == 0 && f->nruns == 1 && no_results_reason(db, f->runs[0], &why) < 0)
		n = bo_err_set(&err, "database error: %s", sqlite3_errmsg(db));
	if (n >= 0)	/* with no row: csv its header, json [] */
		fwrite(out, 1, outlen, stdout);
	if (n < 0) {
		cli_error("%s in '%s'", err.msg, path);
		rc = EXIT_ENV;
	} else if (n == 0) {
		cli_error("no matching results in '%s'%s", path, why ? why : "");
		rc = EXIT_FAILED;
	} else {
		if (noisy > 0)
			cli_warn("%ld of these %ld points are noisy (MB/s marked ~): their"
				 " spread (interquartile range over median) was above"
				 " 3 times their invocation's typical one",
				 noisy, n);
		if (!f->all) {	/* with --all, every partial run would be named */
			warn_partial_runs(db, f);
			fputs(faults, stderr);
		}
	}
	free(out);
	free(faults);
	free(why);
	sqlite3_finalize(st);
	return rc;
}

/* Without --run or --all, F selects the latest finished run of the
 * kind O shows (tool runs for --tools, else library runs; latest_pick
 * says on stderr which newer runs it skipped): into *LATEST, F's only
 * run. Returns EXIT_OK; EXIT_FAILED after the message when DB (at PATH)
 * has no such run; EXIT_ENV on a database error. */
static int pick_latest(sqlite3 *db, const char *path,
		       const struct results_opts *o, struct filters *f,
		       int64_t *latest)
{
	if (f->nruns || f->all)
		return EXIT_OK;
	*latest = latest_pick(db, o->tools ? DB_RUN_TOOLS : DB_RUN_LIBRARY);
	if (*latest < 0) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		return EXIT_ENV;
	}
	if (*latest == 0) {
		cli_error(o->tools ? "no finished tool run in '%s' (`benchorch run --tools` makes one)" :
			  "no finished run with results in '%s'", path);
		return EXIT_FAILED;
	}
	f->runs = latest;
	f->nruns = 1;
	return EXIT_OK;
}

/* Show what O asks for from DB (at PATH) with the filters F0: its tool
 * results, summaries, resources or points. Returns an exit status. */
static int show_results(sqlite3 *db, const char *path,
			const struct results_opts *o, const struct filters *f0)
{
	struct filters sel = *f0, *f = &sel;
	int64_t latest = 0;
	/* a run the database does not hold is an unknown name */
	int rc = cli_check_runs("results", db, path, f->runs,
				f->nruns);

	/* the latest run with public-key results is results_pubkey's */
	if (rc == EXIT_OK && (o->pubkey || (o->algo && pubkey_find(o->algo))))
		return results_print_pubkey(db, path, f, o->fmt);
	/* and the latest run with builds results_builds' */
	if (rc == EXIT_OK && o->builds)
		return results_print_builds(db, path, f, o->fmt);
	/* and the latest run with key derivation results results_kdf's */
	if (rc == EXIT_OK && (o->kdf || (o->algo && kdf_find(o->algo))))
		return results_print_kdf(db, path, f, o->fmt);
	if (rc == EXIT_OK && o->tools)
		rc = check_tools(db, path);
	if (rc == EXIT_OK)
		rc = pick_latest(db, path, o, f, &latest);
	if (rc != EXIT_OK)
		return rc;
	if (o->tools)
		return print_tools(db, path, f, o->fmt);
	rc = check_known(db, path, f, o->size.arg);
	if (rc != EXIT_OK)
		return rc;
	if (o->summary)
		return print_summaries(db, path, f);
	if (o->resources)
		return print_resources(db, path, f, o->fmt);
	return print_points(db, path, f, o->fmt);
}

static int cmd_results(const struct cmd_ctx *ctx, void *opts, int argc,
		       char **argv)
{
	struct results_opts *o = opts;
	struct filters f = { .all = o->all, .latest = o->latest,
			     .runs = o->runs.ids, .nruns = o->runs.n,
			     .distro = o->distro, .lib = o->lib,
			     .algo = o->algo, .op = o->op,
			     .size = o->size.bytes };
	sqlite3 *db;
	int rc;

	(void)argc;
	(void)argv;
	rc = check_options(o);
	if (rc == 0)
		rc = cli_db_open(ctx->db_path, 0, &db);
	if (rc == 0) {
		rc = show_results(db, ctx->db_path, o, &f);
		sqlite3_close(db);
	}
	free(o->runs.ids);
	return rc;
}

const struct cmd_entry cmd_results_entry = {
	.name = "results",
	.summary = "print stored measurements (table, csv, json)",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct results_opts),
	.max_args = 0,
	.run = cmd_results,
};
