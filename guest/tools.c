/* guest/tools.c - time the rootfs's own encryption tools (tools.h). */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emit.h"
#include "json.h"
#include "fdio.h"
#include "tools.h"
#include "tools-work.h"

#ifndef GUEST_VERSION
#define GUEST_VERSION "unknown"
#endif

/* Tool-mode defaults. The input file is DEFAULT_SIZE_MIB MiB; every case
 * is encrypted and decrypted DEFAULT_REPS times per variant. Measured with
 * tests/bench/tools.sh on a shared 2-core machine, 64 MiB: one
 * distribution's whole tool run (all four cases, hw and nohw, 10
 * repetitions) took 37 to 43 s, of which openssl aes-256-cbc and gpg -
 * the two tools of the 60 s budget - 23 to 27 s. 10 repetitions are the
 * fewest of which the trimmed mean drops one at each end (round(n / 20),
 * orchestrator/run/tool-stats.h). */
#define DEFAULT_SIZE_MIB 64
#define MAX_SIZE_MIB 1024
#define DEFAULT_REPS 10
/* Samples per line: four arrays of at most MAX_REPS numbers of at most 20
 * digits stay within a 4096-byte protocol line. */
#define MAX_REPS 40
#define DEFAULT_DIR "/tmp/benchorch-tools"
#define MAX_CASES 8
/* The mask of guest --nohw (guest/PROTOCOL.md): AES-NI and PCLMULQDQ. */
#define OPENSSL_NOHW_MASK "~0x200000200000000"
#define MAX_ARGV 32

/* One way of encrypting with one tool: what is measured. */
struct tool_case {
	const char *name;	/* --cases item: "openssl-aes-256-cbc" */
	const char *tool;	/* the program: "openssl", "gpg", "age" */
	const char *cipher;	/* "aes-256-cbc", ... (gpg: the cipher algo) */
};

static const struct tool_case cases[] = {
	{ "openssl-aes-256-cbc", "openssl", "aes-256-cbc" },
	{ "openssl-chacha20", "openssl", "chacha20" },
	{ "gpg-aes256", "gpg", "aes256" },
	{ "age", "age", "chacha20-poly1305" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

struct tool_opts {
	uint64_t size_mib;
	uint64_t reps;
	int cpu;
	const char *dir;
	bool want[NCASES];
	bool variants[2];	/* hw, nohw */
};

/* The state of one case in one variant while it is measured. */
struct case_run {
	const struct tool_case *c;
	int variant;		/* 0 hw, 1 nohw */
	char path[256];		/* the tool inside the rootfs, "" = absent */
	bool failed;
	char message[1024];
	uint64_t user_ns[2][MAX_REPS], sys_ns[2][MAX_REPS];
	uint64_t wall_ns[2][MAX_REPS], rss_kib[2][MAX_REPS];
	uint64_t done;		/* repetitions completed */
};

static int parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > hi)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

static int parse_cases(const char *list, struct tool_opts *o)
{
	char buf[512];
	char *item, *save = NULL;
	size_t i;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	memset(o->want, 0, sizeof(o->want));
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NCASES; i++)
			if (strcmp(item, cases[i].name) == 0)
				break;
		if (i == NCASES) {
			tools_say("tool: unknown case '%s'", item);
			return -1;
		}
		o->want[i] = true;
	}
	return 0;
}

static int parse_variants(const char *list, struct tool_opts *o)
{
	if (strcmp(list, "hw") == 0)
		o->variants[0] = true, o->variants[1] = false;
	else if (strcmp(list, "nohw") == 0)
		o->variants[0] = false, o->variants[1] = true;
	else if (strcmp(list, "hw,nohw") == 0 || strcmp(list, "nohw,hw") == 0)
		o->variants[0] = o->variants[1] = true;
	else {
		tools_say("tool: --variants takes hw, nohw or hw,nohw, not '%s'", list);
		return -1;
	}
	return 0;
}

static int parse_tool_args(int argc, char **argv, struct tool_opts *o)
{
	int i;
	size_t k;

	o->size_mib = DEFAULT_SIZE_MIB;
	o->reps = DEFAULT_REPS;
	o->cpu = -1;
	o->dir = DEFAULT_DIR;
	for (k = 0; k < NCASES; k++)
		o->want[k] = true;
	o->variants[0] = o->variants[1] = true;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;

		if (strcmp(a, "--help") == 0) {
			static const char help[] =
				"Usage: benchorch-guest tool [--size MIB] [--reps N] [--cpu N]\n"
				"       [--dir DIR] [--cases LIST] [--variants hw,nohw]\n";
			if (write(1, help, sizeof(help) - 1) < 0)
				return -1;
			return 1;
		}
		if (strcmp(a, "--list-cases") == 0) {
			for (k = 0; k < NCASES; k++) {
				if (write(1, cases[k].name, strlen(cases[k].name)) < 0 ||
				    write(1, "\n", 1) < 0)
					return -1;
			}
			return 1;
		}
		if (!v) {
			tools_say("tool: unknown option or missing value '%s'", a);
			return -1;
		}
		if (strcmp(a, "--size") == 0) {
			if (parse_num(v, 1, MAX_SIZE_MIB, &o->size_mib) < 0) {
				tools_say("tool: --size: want 1..%d MiB, got '%s'",
				    MAX_SIZE_MIB, v);
				return -1;
			}
		} else if (strcmp(a, "--reps") == 0) {
			if (parse_num(v, 1, MAX_REPS, &o->reps) < 0) {
				tools_say("tool: --reps: want 1..%d, got '%s'",
				    MAX_REPS, v);
				return -1;
			}
		} else if (strcmp(a, "--cpu") == 0) {
			if (parse_num(v, 0, CPU_SETSIZE - 1, &n) < 0) {
				tools_say("tool: --cpu: bad CPU '%s'", v);
				return -1;
			}
			o->cpu = (int)n;
		} else if (strcmp(a, "--dir") == 0) {
			if (v[0] != '/' || strlen(v) > 128) {
				tools_say("tool: --dir: want an absolute path, got '%s'",
				    v);
				return -1;
			}
			o->dir = v;
		} else if (strcmp(a, "--cases") == 0) {
			if (parse_cases(v, o) < 0)
				return -1;
		} else if (strcmp(a, "--variants") == 0) {
			if (parse_variants(v, o) < 0)
				return -1;
		} else {
			tools_say("tool: unknown option '%s'", a);
			return -1;
		}
		i++;
	}
	return 0;
}

/* The environment of every tool: fixed, like the guest's own (no
 * caller's variable reaches it), plus the nohw switch the tool's
 * library honours. */
static void tool_env(const struct work *w, const struct tool_case *c,
		     int variant, char *home, size_t homelen, char **env)
{
	size_t n = 0;

	snprintf(home, homelen, "HOME=%s", w->dir);
	env[n++] = "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	env[n++] = "LC_ALL=C";
	env[n++] = home;
	if (variant == 1 && strcmp(c->tool, "openssl") == 0)
		env[n++] = "OPENSSL_ia32cap=" OPENSSL_NOHW_MASK;
	/* Go's runtime and golang.org/x/sys/cpu read GODEBUG: every
	 * optional CPU feature (SSSE3, AVX2, AES) off for age */
	if (variant == 1 && strcmp(c->tool, "age") == 0)
		env[n++] = "GODEBUG=cpu.all=off";
	env[n] = NULL;
}

/* The command line of case C in direction DEC (0 encrypt, 1 decrypt). */
static void tool_argv(const struct case_run *r, const struct work *w,
		      int dec, char **a)
{
	size_t n = 0;
	const char *in = dec ? w->enc : w->plain, *out = dec ? w->dec : w->enc;

	a[n++] = (char *)r->path;
	if (strcmp(r->c->tool, "openssl") == 0) {
		static char cipher[64], pass[256];

		snprintf(cipher, sizeof(cipher), "-%s", r->c->cipher);
		snprintf(pass, sizeof(pass), "file:%s", w->pass);
		a[n++] = "enc";
		if (dec)
			a[n++] = "-d";
		a[n++] = cipher;
		a[n++] = "-pbkdf2";
		a[n++] = "-iter";
		a[n++] = "1";
		a[n++] = "-pass";
		a[n++] = pass;
		a[n++] = "-in";
		a[n++] = (char *)in;
		a[n++] = "-out";
		a[n++] = (char *)out;
	} else if (strcmp(r->c->tool, "gpg") == 0) {
		a[n++] = "--batch";
		a[n++] = "--yes";
		a[n++] = "--quiet";
		/* no CAP_IPC_LOCK in a container: gpg says so each time */
		a[n++] = "--no-secmem-warning";
		a[n++] = "--homedir";
		a[n++] = (char *)w->gnupg;
		a[n++] = "--pinentry-mode";
		a[n++] = "loopback";
		a[n++] = "--passphrase-file";
		a[n++] = (char *)w->pass;
		a[n++] = "--output";
		a[n++] = (char *)out;
		if (dec) {
			a[n++] = "--decrypt";
		} else {
			a[n++] = "--symmetric";
			a[n++] = "--cipher-algo";
			a[n++] = "AES256";
			a[n++] = "--compress-algo";
			a[n++] = "none";
			a[n++] = "--s2k-mode";
			a[n++] = "0";
		}
		a[n++] = (char *)in;
	} else {	/* age: to the recipient of a key made beforehand */
		a[n++] = dec ? "--decrypt" : "--encrypt";
		a[n++] = "--identity";
		a[n++] = (char *)w->agekey;
		a[n++] = "--output";
		a[n++] = (char *)out;
		a[n++] = (char *)in;
	}
	a[n] = NULL;
}

/* SRC into DST (LEN bytes), cut to fit. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The first line of TEXT, in place. */
static char *first_line(char *text)
{
	char *nl = strchr(text, '\n');

	if (nl)
		*nl = '\0';
	return text;
}

/* The tool's version as it states it, and for gpg the hardware features
 * libgcrypt uses in each variant (gpgconf --show-versions, its
 * "hwflist:" line), so that nohw is seen to be in effect. */
static void describe_tool(const struct case_run *r, const struct work *w,
			  char *version, size_t vlen, char *hwf_hw,
			  char *hwf_nohw, size_t hlen)
{
	char *env[8], home[200], out[4096], gpgconf[256];
	char *a[6];

	version[0] = hwf_hw[0] = hwf_nohw[0] = '\0';
	tool_env(w, r->c, 0, home, sizeof(home), env);
	a[0] = (char *)r->path;
	a[1] = strcmp(r->c->tool, "openssl") == 0 ? "version" : "--version";
	a[2] = NULL;
	if (tools_run_capture(a, env, w, false, out, sizeof(out)) >= 0)
		copy_str(version, vlen, first_line(out));
	if (strcmp(r->c->tool, "gpg") != 0)
		return;
	tools_find_tool("gpgconf", gpgconf, sizeof(gpgconf));
	if (!gpgconf[0])
		return;
	a[0] = gpgconf;
	a[1] = "--show-versions";
	a[2] = NULL;
	for (int v = 0; v < 2; v++) {
		char *line;

		if (tools_run_capture(a, env, w, v == 1, out, sizeof(out)) != 0)
			continue;
		line = strstr(out, "\nhwflist:");
		if (line)
			copy_str(v ? hwf_nohw : hwf_hw, hlen,
				 first_line(line + 9));
	}
}

/* Per-tool set-up outside the timing: age's key. Returns 0, or -1 with
 * r->message set. */
static int prepare_tool(struct case_run *r, const struct work *w)
{
	char keygen[256], home[200], msg[256], *env[8], *a[4];
	struct cost c;

	if (strcmp(r->c->tool, "age") != 0)
		return 0;
	tools_find_tool("age-keygen", keygen, sizeof(keygen));
	if (!keygen[0]) {
		snprintf(r->message, sizeof(r->message),
			 "age-keygen not found beside age");
		return -1;
	}
	unlink(w->agekey);
	tool_env(w, r->c, 0, home, sizeof(home), env);
	a[0] = keygen;
	a[1] = "-o";
	a[2] = (char *)w->agekey;
	a[3] = NULL;
	if (tools_run_child(a, env, -1, w, false, &c, msg, sizeof(msg)) != 0) {
		snprintf(r->message, sizeof(r->message), "age-keygen failed%s%s",
			 msg[0] ? ": " : "", msg);
		return -1;
	}
	return 0;
}

/* One repetition of R: encrypt, decrypt, compare. Returns 0, or -1 with
 * r->failed and r->message set. */
static int measure_once(struct case_run *r, const struct work *w)
{
	char *env[8], *a[MAX_ARGV], home[200], msg[512];
	bool gcrypt = r->variant == 1 && strcmp(r->c->tool, "gpg") == 0;
	int dir, rc;

	tool_env(w, r->c, r->variant, home, sizeof(home), env);
	unlink(w->enc);
	unlink(w->dec);
	for (dir = 0; dir < 2; dir++) {
		struct cost c;

		tool_argv(r, w, dir, a);
		rc = tools_run_child(a, env, -1, w, gcrypt, &c, msg, sizeof(msg));
		if (rc != 0) {
			r->failed = true;
			if (rc < 0)
				snprintf(r->message, sizeof(r->message), "%s",
					 msg);
			else if (rc > 255)
				snprintf(r->message, sizeof(r->message),
					 "%s killed by signal %d",
					 dir ? "decryption" : "encryption",
					 rc - 256);
			else
				snprintf(r->message, sizeof(r->message),
					 "%s exited with status %d",
					 dir ? "decryption" : "encryption", rc);
			return -1;
		}
		r->user_ns[dir][r->done] = c.user_ns;
		r->sys_ns[dir][r->done] = c.sys_ns;
		r->wall_ns[dir][r->done] = c.wall_ns;
		r->rss_kib[dir][r->done] = c.rss_kib;
	}
	rc = guest_tools_same_content(w->plain, w->dec);
	if (rc != 1) {
		r->failed = true;
		snprintf(r->message, sizeof(r->message), rc < 0 ?
			 "cannot compare the round trip: %s" :
			 "round trip differs: decrypt(encrypt(x)) != x%s",
			 rc < 0 ? strerror(errno) : "");
		return -1;
	}
	r->done++;
	return 0;
}

static int emit_line(struct json_line *j)
{
	if (json_end(j) < 0)
		return -1;
	return fdio_write_all(1, j->buf, j->len);
}

static int emit_tool(const struct case_run *r, const char *version,
		     const char *hwf_hw, const char *hwf_nohw)
{
	struct json_line j;

	json_begin(&j);
	json_add_str(&j, "type", "tool");
	json_add_str(&j, "case", r->c->name);
	json_add_str(&j, "tool", r->c->tool);
	json_add_str(&j, "cipher", r->c->cipher);
	json_add_str(&j, "status", r->path[0] ? "present" : "absent");
	json_add_str_max(&j, "path", r->path, 256);
	json_add_str_max(&j, "version", version, 512);
	if (hwf_hw[0] || hwf_nohw[0]) {
		json_add_str_max(&j, "hwf_hw", hwf_hw, 1024);
		json_add_str_max(&j, "hwf_nohw", hwf_nohw, 1024);
	}
	return emit_line(&j);
}

static int emit_tool_result(const struct case_run *r, uint64_t bytes)
{
	static const char *const dirs[] = { "encrypt", "decrypt" };
	int d;

	for (d = 0; d < 2; d++) {
		struct json_line j;

		json_begin(&j);
		json_add_str(&j, "type", "tool_result");
		json_add_str(&j, "case", r->c->name);
		json_add_str(&j, "direction", dirs[d]);
		json_add_str(&j, "variant", r->variant ? "nohw" : "hw");
		json_add_uint(&j, "bytes", bytes);
		json_add_bool(&j, "verified", !r->failed);
		if (r->failed)
			json_add_str_max(&j, "message", r->message, 1024);
		json_add_uint_array(&j, "user_ns", r->user_ns[d], r->done);
		json_add_uint_array(&j, "sys_ns", r->sys_ns[d], r->done);
		json_add_uint_array(&j, "wall_ns", r->wall_ns[d], r->done);
		json_add_uint_array(&j, "max_rss_kib", r->rss_kib[d], r->done);
		if (emit_line(&j) < 0)
			return -1;
	}
	return 0;
}

static int pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Stop what gpg may have started (gpg-agent) for the work directory's
 * home, so that nothing outlives the guest. */
static void stop_agents(const struct work *w)
{
	char gpgconf[256], home[200], msg[128], *env[8], *a[6];
	struct cost c;

	tools_find_tool("gpgconf", gpgconf, sizeof(gpgconf));
	if (!gpgconf[0])
		return;
	tool_env(w, &cases[0], 0, home, sizeof(home), env);
	a[0] = gpgconf;
	a[1] = "--homedir";
	a[2] = (char *)w->gnupg;
	a[3] = "--kill";
	a[4] = "all";
	a[5] = NULL;
	tools_run_child(a, env, -1, w, false, &c, msg, sizeof(msg));
}

int guest_tools_main(int argc, char **argv)
{
	struct tool_opts o;
	struct work w;
	struct case_run *runs;
	size_t nruns = 0, i;
	uint64_t bytes, t0, rep;
	struct json_line j;
	int rc;

	rc = parse_tool_args(argc, argv, &o);
	if (rc == 1)
		return 0;
	if (rc < 0) {
		tools_say("try 'benchorch-guest tool --help'");
		return 2;
	}
	if (pin(o.cpu) < 0) {
		tools_say("cannot pin to CPU %d: %s", o.cpu, strerror(errno));
		return 1;
	}
	bytes = o.size_mib << 20;
	t0 = tools_now_ns();
	tools_work_paths(&w, o.dir);
	json_begin(&j);
	json_add_str(&j, "type", "tool_hello");
	json_add_int(&j, "protocol", GUEST_PROTOCOL);
	json_add_str(&j, "guest_version", GUEST_VERSION);
	json_add_int(&j, "cpu", o.cpu);
	json_add_uint(&j, "bytes", bytes);
	json_add_uint(&j, "repetitions", o.reps);
	if (emit_line(&j) < 0)
		return 1;
	if (tools_work_setup(&w, bytes) < 0)
		return 1;
	runs = calloc(2 * NCASES, sizeof(*runs));
	if (!runs) {
		tools_say("out of memory");
		return 1;
	}
	for (i = 0; i < NCASES; i++) {
		char version[512], hwf_hw[1024], hwf_nohw[1024];
		struct case_run *first = &runs[nruns];
		int v;

		if (!o.want[i])
			continue;
		for (v = 0; v < 2; v++) {
			struct case_run *r;

			if (!o.variants[v])
				continue;
			r = &runs[nruns++];
			r->c = &cases[i];
			r->variant = v;
			tools_find_tool(cases[i].tool, r->path, sizeof(r->path));
			if (r->path[0] && prepare_tool(r, &w) < 0)
				r->failed = true;
		}
		if (first == &runs[nruns])
			continue;
		version[0] = hwf_hw[0] = hwf_nohw[0] = '\0';
		if (first->path[0])
			describe_tool(first, &w, version, sizeof(version),
				      hwf_hw, hwf_nohw, sizeof(hwf_hw));
		if (emit_tool(first, version, hwf_hw, hwf_nohw) < 0)
			goto fail;
	}
	/* the repetitions outermost: a slow drift of the machine spreads
	 * over every case instead of falling on one */
	for (rep = 0; rep < o.reps; rep++)
		for (i = 0; i < nruns; i++)
			if (runs[i].path[0] && !runs[i].failed)
				measure_once(&runs[i], &w);
	for (i = 0; i < nruns; i++)
		if (runs[i].path[0] && emit_tool_result(&runs[i], bytes) < 0)
			goto fail;
	stop_agents(&w);
	unlink(w.plain);
	unlink(w.enc);
	unlink(w.dec);
	json_begin(&j);
	json_add_str(&j, "type", "tool_done");
	json_add_uint(&j, "elapsed_ns", tools_now_ns() - t0);
	free(runs);
	return emit_line(&j) < 0 ? 1 : 0;
fail:
	free(runs);
	return 1;
}
