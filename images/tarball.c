/* tarball.c - root filesystem tarballs: where they come from (a local file
 * or a URL template in the recipe) and their verification against the
 * checksum file published next to them (fail closed). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/digest.h"
#include "images/tarball.h"
#include "lib/spawn.h"

/* Downloads and gpgv must finish within these times (ns). */
#define FETCH_TIMEOUT_NS (3600ull * 1000000000ull)
#define GPGV_TIMEOUT_NS (120ull * 1000000000ull)
/* Largest checksum or "latest" file read (bytes). */
#define SUMS_MAX (1u << 20)

int sums_format_parse(const char *s, enum sums_format *ret, bo_err *err)
{
	if (s && strcmp(s, "sha256sum") == 0)
		*ret = SUMS_SHA256SUM;
	else if (s && strcmp(s, "gentoo-digests") == 0)
		*ret = SUMS_GENTOO_DIGESTS;
	else
		return bo_err_set(err, "unknown checksum format '%s' (known: "
				  "sha256sum, gentoo-digests)", s ? s : "");
	return 0;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

/* The part of TEXT that a PGP clear signature covers (in place), or TEXT
 * itself when it is not clear-signed. *signed_out = 1 when it was. */
static char *signed_part(char *text, int *signed_out)
{
	char *p = strstr(text, "-----BEGIN PGP SIGNED MESSAGE-----"), *end;

	*signed_out = 0;
	if (!p)
		return text;
	*signed_out = 1;
	p = strstr(p, "\n\n");	/* after the armor headers */
	if (!p)
		return p = text + strlen(text);
	p += 2;
	end = strstr(p, "-----BEGIN PGP SIGNATURE-----");
	if (end)
		*end = '\0';
	return p;
}

/* Find the hash for NAME in the checksum text. Returns a newly allocated
 * lowercase hex string or NULL. *alg gets its algorithm. */
static char *find_sum(char *text, enum sums_format fmt, const char *name,
		      enum digest_alg *alg)
{
	char *line, *save = NULL, *found = NULL;
	int in_sha512 = 0;

	*alg = fmt == SUMS_GENTOO_DIGESTS ? DIGEST_SHA512 : DIGEST_SHA256;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t hlen = fmt == SUMS_GENTOO_DIGESTS ? 128 : 64;
		char *l = line, *e = line + strlen(line), *fname;

		while (e > l && (e[-1] == '\r' || e[-1] == ' ' ||
				 e[-1] == '\t'))
			*--e = '\0';
		if (fmt == SUMS_GENTOO_DIGESTS && l[0] == '#') {
			in_sha512 = strstr(l, "SHA512") != NULL;
			continue;
		}
		if (fmt == SUMS_GENTOO_DIGESTS && !in_sha512)
			continue;
		if (strlen(l) < hlen + 2 || !all_hex(l, hlen) ||
		    (l[hlen] != ' ' && l[hlen] != '\t'))
			continue;
		fname = l + hlen;
		while (*fname == ' ' || *fname == '\t')
			fname++;
		if (*fname == '*')	/* sha256sum's binary marker */
			fname++;
		if (strcmp(base_name(fname), name) == 0) {
			size_t i;

			found = xmalloc(hlen + 1);
			for (i = 0; i < hlen; i++)
				found[i] = (char)((l[i] >= 'A' && l[i] <= 'F') ?
						  l[i] - 'A' + 'a' : l[i]);
			found[hlen] = '\0';
		}
	}
	return found;
}

/* Put the descriptor at *CTX on the child's stdin (spawn setup). */
static int stdin_from(void *ctx, bo_err *err)
{
	int fd = *(const int *)ctx;

	if (dup2(fd, 0) < 0)
		return bo_err_set(err, "cannot redirect stdin: %s",
				  strerror(errno));
	return 0;
}

/* Run gpgv --keyring KEYRING [SIG] -, the signed data (or the clear-signed
 * file, without SIG) read on gpgv's stdin from DATA_FD, from its start:
 * the very descriptor the caller then reads, never its path again. WHAT
 * names the data in the message. DATA_FD is rewound to its start. Returns
 * 0 when the signature is good, or -1 with err set. */
static int run_gpgv(const char *keyring, const char *sig, int data_fd,
		    const char *logdir, const char *what, bo_err *err)
{
	char *log = xasprintf("%s/gpgv.log", logdir);
	char *ring = realpath(keyring, NULL);
	const char *argv[6];
	struct spawn_opts o;
	char **env;
	struct spawn_result res;
	int fd, rc, n = 0;

	if (!ring) {
		rc = bo_err_set(err, "cannot read keyring '%s': %s", keyring,
				strerror(errno));
		free(log);
		return rc;
	}
	if (lseek(data_fd, 0, SEEK_SET) < 0) {
		rc = bo_err_set(err, "cannot read '%s': %s", what,
				strerror(errno));
		free(ring);
		free(log);
		return rc;
	}
	argv[n++] = "gpgv";
	argv[n++] = "--keyring";
	argv[n++] = ring;
	if (sig)
		argv[n++] = sig;
	argv[n++] = "-";
	argv[n] = NULL;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_ns = GPGV_TIMEOUT_NS;
	o.cpu = -1;
	o.log_fd = fd;
	o.setup = stdin_from;
	o.setup_ctx = &data_fd;
	env = spawn_env_builder();	/* no GNUPGHOME, CURL_HOME, LD_*, ... */
	o.envp = (const char *const *)env;
	rc = spawn_run(&o, &res, err);
	spawn_env_free(env);
	if (fd >= 0)
		close(fd);
	if (rc == 0 && (res.status != SPAWN_EXITED || res.exit_code != 0))
		rc = bo_err_set(err, "bad or missing signature on '%s' (gpgv "
				"with keyring '%s' failed; log: %s)", what,
				keyring, log);
	if (lseek(data_fd, 0, SEEK_SET) < 0 && rc == 0)
		rc = bo_err_set(err, "cannot rewind '%s': %s", what,
				strerror(errno));
	free(ring);
	free(log);
	return rc;
}

int tarball_open(const char *path, int *ret_fd, bo_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		      O_NONBLOCK);

	*ret_fd = -1;
	if (fd < 0 && errno == ELOOP)
		return bo_err_set(err, "cannot read '%s': it is a symbolic "
				  "link (name the file itself)", path);
	if (fd < 0)
		return bo_err_set(err, "cannot read '%s': %s", path,
				  strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		close(fd);
		return bo_err_set(err, "cannot read '%s': %s", path,
				  S_ISREG(st.st_mode) ? strerror(e) :
				  "not a regular file");
	}
	/* Opened without blocking only so that a FIFO could not stall the
	 * open; reads of a regular file block as usual. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		close(fd);
		return bo_err_set(err, "cannot read '%s': %s", path,
				  strerror(errno));
	}
	*ret_fd = fd;
	return 0;
}

/* Read the whole file open at FD (SHOWN in messages; at most MAX bytes)
 * from its start into a NUL-terminated *ret (newly allocated, caller
 * frees), and rewind FD. Returns 0, or -1 with err set. */
static int read_fd_text(int fd, const char *shown, size_t max, char **ret,
			bo_err *err)
{
	size_t n = 0;
	char *buf = xmalloc(max + 1);

	*ret = NULL;
	if (lseek(fd, 0, SEEK_SET) < 0)
		goto fail;
	for (;;) {
		ssize_t r = read(fd, buf + n, max + 1 - n);

		if (r < 0 && errno == EINTR && !bo_interrupted)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			return bo_err_set(err, "cannot read '%s': larger than "
					  "%zu bytes", shown, max);
		}
	}
	if (lseek(fd, 0, SEEK_SET) < 0)
		goto fail;
	buf[n] = '\0';
	*ret = buf;
	return 0;
fail:
	free(buf);
	return bo_err_set(err, "cannot read '%s': %s", shown, strerror(errno));
}

/* Open the small file PATH (a checksum or "latest" file) once:
 * tarball_open() into *ret_fd (caller closes) and its text into *ret_text
 * (read_fd_text()). Returns 0, or -1 with err set and nothing open. */
static int open_text(const char *path, int *ret_fd, char **ret_text,
		     bo_err *err)
{
	if (tarball_open(path, ret_fd, err) < 0)
		return -1;
	if (read_fd_text(*ret_fd, path, SUMS_MAX, ret_text, err) < 0) {
		close(*ret_fd);
		*ret_fd = -1;
		return -1;
	}
	return 0;
}

int tarball_verify(int fd, const char *file, const char *name,
		   const char *sums, enum sums_format fmt, const char *keyring,
		   const char *sig, const char *logdir, char **ret_how,
		   bo_err *err)
{
	char *text = NULL, *part, *want = NULL, *defsig = NULL;
	char got[129];
	enum digest_alg alg;
	int is_signed, rc = -1, sums_fd = -1;

	*ret_how = NULL;
	if (!name)
		name = base_name(file);
	if (keyring && access(keyring, R_OK) < 0)
		return bo_err_set(err, "cannot read keyring '%s': %s", keyring,
				  strerror(errno));
	if (open_text(sums, &sums_fd, &text, err) < 0)
		return -1;
	part = signed_part(text, &is_signed);
	if (keyring) {
		const char *what = fmt == SUMS_GENTOO_DIGESTS ? sums : file;
		int what_fd = fmt == SUMS_GENTOO_DIGESTS ? sums_fd : fd;

		if (!sig && !(is_signed && fmt == SUMS_GENTOO_DIGESTS)) {
			defsig = xasprintf("%s.asc", what);
			sig = defsig;
		}
		if (sig && access(sig, R_OK) < 0) {
			bo_err_set(err, "cannot verify '%s': no signature "
				   "'%s': %s", what, sig, strerror(errno));
			goto out;
		}
		if (run_gpgv(keyring, sig, what_fd, logdir, what, err) < 0)
			goto out;
	}
	want = find_sum(part, fmt, name, &alg);
	if (!want) {
		bo_err_set(err, "no %s entry for '%s' in '%s'",
			   alg == DIGEST_SHA512 ? "SHA512" : "SHA-256", name,
			   sums);
		goto out;
	}
	if (digest_fd_hex(fd, file, alg, got, sizeof(got), err) < 0)
		goto out;
	if (strcmp(got, want) != 0) {
		bo_err_set(err, "checksum mismatch for '%s': %s is %.16s..., "
			   "'%s' says %.16s...", file,
			   alg == DIGEST_SHA512 ? "SHA512" : "SHA-256", got,
			   sums, want);
		goto out;
	}
	*ret_how = xasprintf("%s (%s)%s", alg == DIGEST_SHA512 ? "sha512" :
			     "sha256", base_name(sums),
			     keyring ? ", gpg signature" : "");
	rc = 0;
out:
	if (sums_fd >= 0)
		close(sums_fd);
	free(defsig);
	free(want);
	free(text);
	return rc;
}

/* The recipe setting KEY: the release's, else the recipe's; NULL when
 * absent or not a string. */
static const char *setting(const struct recipe *r,
			   const struct recipe_release *rel, const char *key)
{
	json_t *v = json_object_get(rel->json, key);

	if (!v)
		v = json_object_get(r->json, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

struct vars {
	const char *mirror, *release, *version, *latest, *url;
};

/* Expand {mirror} {release} {version} {latest} {url} in T. Returns a new
 * string, or NULL with err set on an unknown or unset placeholder. */
static char *expand(const char *t, const struct vars *v, const char *recipe,
		    bo_err *err)
{
	size_t cap = strlen(t) + 256, n = 0;
	char *out = xmalloc(cap);
	const char *p = t;

	while (*p) {
		const char *val = NULL, *close;
		size_t len;

		if (*p != '{') {
			if (n + 2 > cap)
				out = xrealloc(out, cap *= 2);
			out[n++] = *p++;
			continue;
		}
		close = strchr(p, '}');
		len = close ? (size_t)(close - p - 1) : 0;
#define VAR(nm) (len == strlen(#nm) && strncmp(p + 1, #nm, len) == 0 ? \
		 (val = v->nm, 1) : 0)
		if (!close || !(VAR(mirror) || VAR(release) || VAR(version) ||
				VAR(latest) || VAR(url)) || !val) {
			bo_err_set(err, "invalid recipe '%s': unknown or unset "
				   "placeholder in '%s'", recipe, t);
			free(out);
			return NULL;
		}
#undef VAR
		while (n + strlen(val) + 2 > cap)
			out = xrealloc(out, cap *= 2);
		memcpy(out + n, val, strlen(val));
		n += strlen(val);
		p = close + 1;
	}
	out[n] = '\0';
	return out;
}

/* Download URL to DEST with curl. */
static int fetch(const char *url, const char *dest, const char *logdir,
		 bo_err *err)
{
	char *log = xasprintf("%s/fetch.log", logdir);
	const char *argv[] = { "curl", "-fsSL", "--retry", "2",
			       "--proto", "=https,http,file", "-o", dest,
			       "--", url, NULL };
	struct spawn_opts o;
	char **env;
	struct spawn_result res;
	int fd, rc;

	if (strncmp(url, "https://", 8) != 0 &&
	    strncmp(url, "http://", 7) != 0 &&
	    strncmp(url, "file://", 7) != 0) {
		free(log);
		return bo_err_set(err, "cannot download '%s': only http, "
				  "https and file URLs", url);
	}
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_ns = FETCH_TIMEOUT_NS;
	o.cpu = -1;
	o.log_fd = fd;
	env = spawn_env_builder();	/* no GNUPGHOME, CURL_HOME, LD_*, ... */
	o.envp = (const char *const *)env;
	rc = spawn_run(&o, &res, err);
	spawn_env_free(env);
	if (fd >= 0)
		close(fd);
	if (rc == 0 && res.status == SPAWN_INTERRUPTED)
		rc = bo_err_set(err, "cannot download '%s': interrupted", url);
	else if (rc == 0 && (res.status != SPAWN_EXITED || res.exit_code != 0))
		rc = bo_err_set(err, "cannot download '%s' (curl exit %d; "
				"log: %s)", url, res.exit_code, log);
	free(log);
	return rc;
}

/* The tarball path named by the text TEXT (modified) of the "latest" file
 * FILE: the first line that is not a comment, armor or empty, first field.
 * Must be a relative path without "..". Newly allocated or NULL with err
 * set. */
static char *parse_latest(char *text, const char *file, bo_err *err)
{
	char *part, *line, *save = NULL, *out = NULL;
	int is_signed;

	part = signed_part(text, &is_signed);
	for (line = strtok_r(part, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strcspn(line, " \t\r");
		size_t ok = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz0123456789._/-");

		if (n == 0 || line[0] == '#' || line[0] == '-')
			continue;
		line[n] = '\0';
		if (ok != n || line[0] == '/' || strstr(line, "..")) {
			bo_err_set(err, "invalid tarball name '%.100s' in '%s'",
				   line, file);
			break;
		}
		out = xstrdup(line);
		break;
	}
	if (!out && !err->msg[0])
		bo_err_set(err, "no tarball named in '%s'", file);
	return out;
}

/* With a keyring, the "latest" file open at FD, its text TEXT (fetched
 * from URL), must be clear-signed by a key in KEYRING: otherwise a
 * tampered file could point at an older tarball whose own signed DIGESTS
 * still verify (a downgrade). gpgv reads FD, whose text the caller
 * parses. Returns 0, or -1 with err set (unsigned file, bad signature). */
static int verify_latest(int fd, const char *text, const char *url,
			 const char *keyring, const char *workdir,
			 bo_err *err)
{
	if (!strstr(text, "-----BEGIN PGP SIGNED MESSAGE-----"))
		return bo_err_set(err, "verification failed: '%s' is not "
				  "signed but --keyring was given (--no-verify "
				  "skips it)", url);
	if (run_gpgv(keyring, NULL, fd, workdir, url, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return bo_err_set(err, "verification failed: %s (--no-verify "
				  "skips it)", msg);
	}
	return 0;
}

void tarball_result_free(struct tarball_result *res)
{
	if (res->file && res->fd >= 0)
		close(res->fd);
	free(res->file);
	free(res->source);
	free(res->verification);
	memset(res, 0, sizeof(*res));
	res->fd = -1;
}

int tarball_import_local(const char *file, struct tarball_result *res,
			 bo_err *err)
{
	memset(res, 0, sizeof(*res));
	res->fd = -1;
	res->source = realpath(file, NULL);
	if (!res->source)
		return bo_err_set(err, "cannot read '%s': %s", file,
				  strerror(errno));
	if (tarball_open(file, &res->fd, err) < 0) {
		free(res->source);
		res->source = NULL;
		return -1;
	}
	res->file = xstrdup(file);
	res->verification = xstrdup("none (imported local file)");
	return 0;
}

/* --from FILE: res->file and res->source are FILE, and *sums the
 * checksums file: --digests, else the recipe's "checksums" template
 * (SUMS_T, NULL = "{url}.sha256") expanded with {url} = FILE. Returns 0,
 * or -1 with err set; *sums is newly allocated (caller frees), res as
 * tarball_obtain() leaves it. */
static int obtain_local(const struct image_ctx *ctx, const struct recipe *r,
			const char *sums_t, struct vars *v,
			struct tarball_result *res, char **sums, bo_err *err)
{
	if (tarball_open(ctx->from, &res->fd, err) < 0)
		return -1;
	res->file = xstrdup(ctx->from);
	res->source = xstrdup(ctx->from);
	if (ctx->digests) {
		*sums = xstrdup(ctx->digests);
		return 0;
	}
	/* Next to the file, named as the recipe names it relative to the
	 * tarball URL. */
	v->url = ctx->from;
	*sums = expand(sums_t ? sums_t : "{url}.sha256", v, r->path, err);
	return *sums ? 0 : -1;
}

/* The recipe's "latest" file: download LATEST_T (expanded) into
 * WORKDIR/latest.txt, check its signature when a keyring is given (and
 * not --no-verify), and parse it. Returns the name it gives (newly
 * allocated, caller frees), or NULL with err set. */
static char *obtain_latest(const struct image_ctx *ctx,
			   const struct recipe *r, const char *latest_t,
			   const struct vars *v, const char *workdir,
			   bo_err *err)
{
	char *lurl = expand(latest_t, v, r->path, err);
	char *lfile = xasprintf("%s/latest.txt", workdir);
	char *latest = NULL, *text = NULL;
	int fd = -1;

	if (lurl && fetch(lurl, lfile, workdir, err) == 0 &&
	    open_text(lfile, &fd, &text, err) == 0 &&
	    (!ctx->keyring || ctx->no_verify ||
	     verify_latest(fd, text, lurl, ctx->keyring, workdir, err) == 0))
		latest = parse_latest(text, lfile, err);
	if (fd >= 0)
		close(fd);
	free(text);
	free(lurl);
	free(lfile);
	return latest;
}

/* Download the checksums (SUMS_T expanded, NULL = "{url}.sha256") into
 * WORKDIR as *sums and, with a keyring and a "signature" template SIG_T,
 * their signature as *sig (WORKDIR/signature.asc). Returns 0, or -1 with
 * err set; *sums and *sig newly allocated (caller frees, also on error). */
static int fetch_sums(const struct image_ctx *ctx, const struct recipe *r,
		      const char *sums_t, const char *sig_t,
		      const struct vars *v, const char *workdir,
		      const struct tarball_result *res, char **sums,
		      char **sig, bo_err *err)
{
	char *surl = expand(sums_t ? sums_t : "{url}.sha256", v, r->path, err);
	int rc;

	if (!surl)
		return -1;
	*sums = xasprintf("%s/%s", workdir, base_name(surl));
	if (strcmp(*sums, res->file) == 0) {
		free(*sums);
		*sums = xasprintf("%s/sums.txt", workdir);
	}
	rc = fetch(surl, *sums, workdir, err);
	if (rc == 0 && ctx->keyring && sig_t) {
		char *gurl = expand(sig_t, v, r->path, err);

		if (!gurl) {
			rc = -1;
		} else {
			*sig = xasprintf("%s/signature.asc", workdir);
			rc = fetch(gurl, *sig, workdir, err);
			free(gurl);
		}
	}
	free(surl);
	return rc < 0 ? -1 : 0;
}

/* Download the release's tarball (recipe "url", after its "latest" file
 * when there is one) into WORKDIR, and unless --no-verify its checksums
 * and signature (fetch_sums). Sets res->source, res->file and
 * res->downloaded; *latest, *sums and *sig are newly allocated (caller
 * frees, also on error). Returns 0, or -1 with err set. */
static int obtain_remote(const struct image_ctx *ctx, const struct recipe *r,
			 const struct recipe_release *rel, const char *mirror,
			 const char *workdir, struct vars *v,
			 struct tarball_result *res, char **latest,
			 char **sums, char **sig, bo_err *err)
{
	const char *url_t = setting(r, rel, "url");
	const char *latest_t = setting(r, rel, "latest");

	if (!url_t)
		return bo_err_set(err, "invalid recipe '%s': no 'url' for "
				  "release '%s' (or use --from FILE)",
				  r->path, rel->name);
	if (!*mirror)
		return bo_err_set(err, "invalid recipe '%s': no mirror",
				  r->path);
	if (latest_t) {
		*latest = obtain_latest(ctx, r, latest_t, v, workdir, err);
		if (!*latest)
			return -1;
		v->latest = *latest;
	}
	res->source = expand(url_t, v, r->path, err);
	if (!res->source)
		return -1;
	v->url = res->source;
	res->file = xasprintf("%s/%s", workdir, base_name(res->source));
	res->downloaded = 1;
	if (fetch(res->source, res->file, workdir, err) < 0 ||
	    tarball_open(res->file, &res->fd, err) < 0)
		return -1;
	if (ctx->no_verify)
		return 0;
	return fetch_sums(ctx, r, setting(r, rel, "checksums"),
			  setting(r, rel, "signature"), v, workdir, res, sums,
			  sig, err);
}

int tarball_obtain(const struct image_ctx *ctx, const struct recipe *r,
		   const struct recipe_release *rel, const char *mirror,
		   const char *workdir, struct tarball_result *res,
		   bo_err *err)
{
	const char *fmt_s = setting(r, rel, "checksum_format");
	const char *sums_t = setting(r, rel, "checksums");
	struct vars v = { mirror, rel->name, setting(r, rel, "version"), NULL,
			  NULL };
	enum sums_format fmt;
	char *latest = NULL, *sums = NULL, *sig = NULL;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	res->fd = -1;
	err->msg[0] = '\0';
	if (!fmt_s)
		fmt_s = "sha256sum";
	if (sums_format_parse(fmt_s, &fmt, err) < 0)
		return -1;
	if (ctx->from ? obtain_local(ctx, r, sums_t, &v, res, &sums, err) < 0
		      : obtain_remote(ctx, r, rel, mirror, workdir, &v, res,
				      &latest, &sums, &sig, err) < 0)
		goto out;
	if (ctx->no_verify) {
		res->verification = xstrdup("none (--no-verify)");
	} else if (tarball_verify(res->fd, res->file, base_name(res->source),
				  sums, fmt, ctx->keyring, sig, workdir,
				  &res->verification, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		bo_err_set(err, "verification failed: %s (--no-verify skips "
			   "it)", msg);
		goto out;
	}
	rc = 0;
out:
	if (rc < 0) {
		if (res->downloaded && res->file)
			unlink(res->file);
		tarball_result_free(res);
	}
	free(latest);
	free(sums);
	free(sig);
	return rc;
}
