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
#include "tools.h"

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
#define DEFAULT_DIR "/run/benchorch/tools"
#define MAX_CASES 8
#define PIECE ((size_t)1 << 20)
/* statfs f_type of the file systems that live in memory (linux/magic.h). */
#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6
/* The mask of guest --nohw (guest/PROTOCOL.md): AES-NI and PCLMULQDQ. */
#define OPENSSL_NOHW_MASK "~0x200000200000000"
#define PASSPHRASE "benchorch tool mode passphrase"
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

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, "benchorch-guest: ", 17) < 0 || write(2, buf, (size_t)n) < 0)
		return;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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
			say("tool: unknown case '%s'", item);
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
		say("tool: --variants takes hw, nohw or hw,nohw, not '%s'", list);
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
			say("tool: unknown option or missing value '%s'", a);
			return -1;
		}
		if (strcmp(a, "--size") == 0) {
			if (parse_num(v, 1, MAX_SIZE_MIB, &o->size_mib) < 0) {
				say("tool: --size: want 1..%d MiB, got '%s'",
				    MAX_SIZE_MIB, v);
				return -1;
			}
		} else if (strcmp(a, "--reps") == 0) {
			if (parse_num(v, 1, MAX_REPS, &o->reps) < 0) {
				say("tool: --reps: want 1..%d, got '%s'",
				    MAX_REPS, v);
				return -1;
			}
		} else if (strcmp(a, "--cpu") == 0) {
			if (parse_num(v, 0, CPU_SETSIZE - 1, &n) < 0) {
				say("tool: --cpu: bad CPU '%s'", v);
				return -1;
			}
			o->cpu = (int)n;
		} else if (strcmp(a, "--dir") == 0) {
			if (v[0] != '/' || strlen(v) > 128) {
				say("tool: --dir: want an absolute path, got '%s'",
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
			say("tool: unknown option '%s'", a);
			return -1;
		}
		i++;
	}
	return 0;
}

/* Find PROG in the fixed PATH of the container; "" when absent. */
static void find_tool(const char *prog, char *buf, size_t len)
{
	static const char *const dirs[] = { "/usr/local/bin", "/usr/bin",
					    "/bin", "/usr/sbin", "/sbin" };
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(buf, len, "%s/%s", dirs[i], prog);
		if (access(buf, X_OK) == 0)
			return;
	}
	buf[0] = '\0';
}

/* Write LEN bytes of BUF to FD. Returns 0 or -1 (errno set). */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read up to LEN bytes from FD (fewer only at the end of the file). */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int guest_tools_same_content(const char *file_a, const char *file_b)
{
	int fa = open(file_a, O_RDONLY | O_CLOEXEC);
	int fb = open(file_b, O_RDONLY | O_CLOEXEC);
	char *a = malloc(PIECE), *b = malloc(PIECE);
	int rc = -1;

	if (fa < 0 || fb < 0 || !a || !b)
		goto out;
	for (;;) {
		ssize_t na = read_full(fa, a, PIECE), nb = read_full(fb, b, PIECE);

		if (na < 0 || nb < 0)
			goto out;
		if (na != nb || memcmp(a, b, (size_t)na) != 0) {
			rc = 0;
			goto out;
		}
		if (na == 0) {
			rc = 1;
			goto out;
		}
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	free(a);
	free(b);
	return rc;
}

/* The input: SIZE bytes of an xorshift64 stream (Marsaglia, "Xorshift
 * RNGs", J. Stat. Softw. 8(14), 2003; shifts 13, 7, 17), incompressible
 * like real data, written to PATH. Returns 0 or -1 (errno set). */
static int write_input(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15), left = size;
	uint64_t *buf = malloc(PIECE);
	int rc = -1;

	if (fd < 0 || !buf)
		goto out;
	while (left > 0) {
		size_t n = left < PIECE ? (size_t)left : PIECE, i;

		for (i = 0; i < PIECE / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		if (write_all(fd, buf, n) < 0)
			goto out;
		left -= n;
	}
	rc = 0;
out:
	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	free(buf);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc;

	if (fd < 0)
		return -1;
	rc = write_all(fd, text, strlen(text));
	if (close(fd) < 0)
		rc = -1;
	return rc;
}

/* Work-directory layout under DIR. */
struct work {
	char dir[160];
	char plain[192], enc[192], dec[192], pass[192], gnupg[192];
	char agekey[192], gcrypt_top[192];
};

static void work_paths(struct work *w, const char *dir)
{
	snprintf(w->dir, sizeof(w->dir), "%s", dir);
	snprintf(w->plain, sizeof(w->plain), "%s/plain", dir);
	snprintf(w->enc, sizeof(w->enc), "%s/enc", dir);
	snprintf(w->dec, sizeof(w->dec), "%s/dec", dir);
	snprintf(w->pass, sizeof(w->pass), "%s/pass", dir);
	snprintf(w->gnupg, sizeof(w->gnupg), "%s/gnupg", dir);
	snprintf(w->agekey, sizeof(w->agekey), "%s/age.key", dir);
	/* the layer laid over /etc for libgcrypt's nohw: gcrypt/hwf.deny */
	snprintf(w->gcrypt_top, sizeof(w->gcrypt_top), "%s/etc-nohw", dir);
}

/* Make the work directory, in memory only (the container's tmpfs, never
 * a disk), with the input, the passphrase and libgcrypt's deny file.
 * Returns 0, or -1 after printing why. */
static int work_setup(struct work *w, uint64_t size)
{
	struct statfs sf;
	char p[256];

	if (mkdir(w->dir, 0700) < 0 && errno != EEXIST) {
		say("cannot create '%s': %s", w->dir, strerror(errno));
		return -1;
	}
	if (statfs(w->dir, &sf) < 0) {
		say("cannot stat '%s': %s", w->dir, strerror(errno));
		return -1;
	}
	if ((unsigned long)sf.f_type != TMPFS_MAGIC_ &&
	    (unsigned long)sf.f_type != RAMFS_MAGIC_) {
		say("'%s' is not in memory (a tmpfs): refusing to write the tool input there",
		    w->dir);
		return -1;
	}
	if (write_input(w->plain, size) < 0 ||
	    write_text(w->pass, PASSPHRASE "\n") < 0) {
		say("cannot write the input in '%s': %s", w->dir,
		    strerror(errno));
		return -1;
	}
	snprintf(p, sizeof(p), "%s/gcrypt", w->gcrypt_top);
	if ((mkdir(w->gnupg, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(w->gcrypt_top, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(p, 0755) < 0 && errno != EEXIST)) {
		say("cannot create directories in '%s': %s", w->dir,
		    strerror(errno));
		return -1;
	}
	/* libgcrypt reads /etc/gcrypt/hwf.deny at initialisation: one
	 * feature a line, "all" for every one (libgcrypt's doc/gcrypt.texi,
	 * "Hardware features"); the same as GCRYCTL_DISABLE_HWF "all", which
	 * guest --nohw uses for the library */
	snprintf(p, sizeof(p), "%s/gcrypt/hwf.deny", w->gcrypt_top);
	if (write_text(p, "all\n") < 0) {
		say("cannot write '%s': %s", p, strerror(errno));
		return -1;
	}
	return 0;
}

/* In a child before exec: lay W's gcrypt_top over /etc in a mount
 * namespace of the child's own, so that libgcrypt finds
 * /etc/gcrypt/hwf.deny while the rootfs stays untouched. Returns 0 or -1
 * (errno set). */
static int mask_gcrypt(const struct work *w)
{
	char opts[512];

	if (unshare(CLONE_NEWNS) < 0)
		return -1;
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	/* a read-only overlay of two lower layers, the first on top */
	snprintf(opts, sizeof(opts), "lowerdir=%s:/etc", w->gcrypt_top);
	return mount("overlay", "/etc", "overlay", MS_RDONLY, opts);
}

/* What one child process cost. */
struct cost {
	uint64_t user_ns, sys_ns, wall_ns, rss_kib;
};

/* Run ARGV (ARGV[0] a path) with ENV, stdin from /dev/null, stdout to
 * OUT_FD (-1: our stderr), stderr to ours; for NOHW_GCRYPT with W's layer
 * over /etc. Fills *COST from wait4's rusage and CLOCK_MONOTONIC around
 * fork and reap. Returns the exit status (0..255), 256 + signal when
 * killed, or -1 when it could not be started, with a message in MSG. */
static int run_child(char *const argv[], char *const env[], int out_fd,
		     const struct work *w, bool nohw_gcrypt, struct cost *cost,
		     char *msg, size_t msglen)
{
	int errpipe[2], status, saved;
	struct rusage ru;
	uint64_t t0;
	pid_t pid;
	ssize_t n;

	if (pipe(errpipe) < 0) {
		snprintf(msg, msglen, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fcntl(errpipe[1], F_SETFD, FD_CLOEXEC);
	fcntl(errpipe[0], F_SETFD, FD_CLOEXEC);
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		snprintf(msg, msglen, "cannot fork: %s", strerror(errno));
		close(errpipe[0]);
		close(errpipe[1]);
		return -1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);
		const char *what = "exec";

		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
		dup2(out_fd >= 0 ? out_fd : 2, 1);
		if (nohw_gcrypt && mask_gcrypt(w) < 0)
			what = "mask libgcrypt's hardware features (overlay on /etc)";
		else
			execve(argv[0], argv, env);
		saved = errno;
		{
			char m[256];

			snprintf(m, sizeof(m), "cannot %s for '%s': %s", what,
				 argv[0], strerror(saved));
			if (write(errpipe[1], m, strlen(m)) < 0)
				_exit(127);
		}
		_exit(127);
	}
	close(errpipe[1]);
	n = read(errpipe[0], msg, msglen - 1);
	close(errpipe[0]);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			snprintf(msg, msglen, "cannot wait: %s", strerror(errno));
			return -1;
		}
	cost->wall_ns = now_ns() - t0;
	cost->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
			(uint64_t)ru.ru_utime.tv_usec * 1000u;
	cost->sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
		       (uint64_t)ru.ru_stime.tv_usec * 1000u;
	cost->rss_kib = (uint64_t)ru.ru_maxrss;	/* Linux: KiB */
	if (n > 0) {
		msg[n] = '\0';
		return -1;
	}
	msg[0] = '\0';
	if (WIFSIGNALED(status))
		return 256 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Run ARGV and keep its stdout (at most LEN - 1 bytes) in BUF, untimed.
 * Returns its exit status as run_child does. */
static int run_capture(char *const argv[], char *const env[],
		       const struct work *w, bool nohw_gcrypt, char *buf,
		       size_t len)
{
	char tmp[256], msg[256];
	struct cost c;
	int fd, rc;
	ssize_t n;

	buf[0] = '\0';
	snprintf(tmp, sizeof(tmp), "%s/capture", w->dir);
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	rc = run_child(argv, env, fd, w, nohw_gcrypt, &c, msg, sizeof(msg));
	if (lseek(fd, 0, SEEK_SET) == 0) {
		n = read_full(fd, buf, len - 1);
		buf[n > 0 ? n : 0] = '\0';
	}
	close(fd);
	unlink(tmp);
	return rc;
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
	if (run_capture(a, env, w, false, out, sizeof(out)) >= 0)
		copy_str(version, vlen, first_line(out));
	if (strcmp(r->c->tool, "gpg") != 0)
		return;
	find_tool("gpgconf", gpgconf, sizeof(gpgconf));
	if (!gpgconf[0])
		return;
	a[0] = gpgconf;
	a[1] = "--show-versions";
	a[2] = NULL;
	for (int v = 0; v < 2; v++) {
		char *line;

		if (run_capture(a, env, w, v == 1, out, sizeof(out)) != 0)
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
	find_tool("age-keygen", keygen, sizeof(keygen));
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
	if (run_child(a, env, -1, w, false, &c, msg, sizeof(msg)) != 0) {
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
		rc = run_child(a, env, -1, w, gcrypt, &c, msg, sizeof(msg));
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
	return write_all(1, j->buf, j->len);
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

	find_tool("gpgconf", gpgconf, sizeof(gpgconf));
	if (!gpgconf[0])
		return;
	tool_env(w, &cases[0], 0, home, sizeof(home), env);
	a[0] = gpgconf;
	a[1] = "--homedir";
	a[2] = (char *)w->gnupg;
	a[3] = "--kill";
	a[4] = "all";
	a[5] = NULL;
	run_child(a, env, -1, w, false, &c, msg, sizeof(msg));
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
		say("try 'benchorch-guest tool --help'");
		return 2;
	}
	if (pin(o.cpu) < 0) {
		say("cannot pin to CPU %d: %s", o.cpu, strerror(errno));
		return 1;
	}
	bytes = o.size_mib << 20;
	t0 = now_ns();
	work_paths(&w, o.dir);
	json_begin(&j);
	json_add_str(&j, "type", "tool_hello");
	json_add_int(&j, "protocol", GUEST_PROTOCOL);
	json_add_str(&j, "guest_version", GUEST_VERSION);
	json_add_int(&j, "cpu", o.cpu);
	json_add_uint(&j, "bytes", bytes);
	json_add_uint(&j, "repetitions", o.reps);
	if (emit_line(&j) < 0)
		return 1;
	if (work_setup(&w, bytes) < 0)
		return 1;
	runs = calloc(2 * NCASES, sizeof(*runs));
	if (!runs) {
		say("out of memory");
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
			find_tool(cases[i].tool, r->path, sizeof(r->path));
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
	json_add_uint(&j, "elapsed_ns", now_ns() - t0);
	free(runs);
	return emit_line(&j) < 0 ? 1 : 0;
fail:
	free(runs);
	return 1;
}
