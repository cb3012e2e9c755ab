/* guest/backends.c - the table of compiled-in backends, and helpers. */
#include "compat.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

bool guest_nohw;

/* Default order of the run. A new backend adds one line here. */
static const struct guest_backend *const table[] = {
	&guest_backend_openssl,
	&guest_backend_libgcrypt,
	&guest_backend_nettle,
	&guest_backend_libsodium,
	&guest_backend_mbedtls,
	&guest_backend_gnutls,
	&guest_backend_wolfssl,
	&guest_backend_botan,
	&guest_backend_libtomcrypt,
	&guest_backend_libmcrypt,
};

const struct guest_backend *const *guest_backends(size_t *count)
{
	*count = sizeof(table) / sizeof(table[0]);
	return table;
}

/* The builds of this run (guest_backend_build): each a copy of its base
 * backend under its own name, and the directory it loads from. */
static struct {
	struct guest_backend b;
	char name[65];
	char dir[GUEST_BUILD_DIR_MAX];
} builds[GUEST_MAX_BUILDS];
static size_t nbuilds;

/* The directory backend_dlopen() loads from while backend_load() loads a
 * build; NULL otherwise (the loader's search path). */
static const char *load_dir;

/* Is NAME a build's name: 1 .. 64 bytes of [a-z0-9._-]? */
static bool build_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '.' ||
		      name[i] == '_' || name[i] == '-'))
			return false;
	return true;
}

const struct guest_backend *guest_backend_build(const struct guest_backend *base,
						const char *name,
						const char *dir, char *why,
						size_t why_bytes)
{
	size_t i = nbuilds, nb;

	if (name && (!build_name_ok(name) ||
		     strlen(base->name) + 1 + strlen(name) >=
		     sizeof(builds[0].name))) {
		snprintf(why, why_bytes, "invalid build name '%s'", name);
		return NULL;
	}
	if (dir[0] != '/' || strlen(dir) >= sizeof(builds[0].dir)) {
		snprintf(why, why_bytes, "build directory '%s' is not an absolute path of at most %d bytes",
			 dir, GUEST_BUILD_DIR_MAX - 1);
		return NULL;
	}
	if (i == GUEST_MAX_BUILDS) {
		snprintf(why, why_bytes, "too many builds (at most %d)",
			 GUEST_MAX_BUILDS);
		return NULL;
	}
	/* the lengths were checked above; in place (NAME NULL): BASE's own
	 * name */
	nb = strlen(base->name);
	memcpy(builds[i].name, base->name, nb + 1);
	if (name) {
		builds[i].name[nb] = '@';
		memcpy(builds[i].name + nb + 1, name, strlen(name) + 1);
	}
	for (size_t j = 0; j < nbuilds; j++)
		if (strcmp(builds[j].name, builds[i].name) == 0) {
			snprintf(why, why_bytes, "build '%s' given twice",
				 builds[i].name);
			return NULL;
		}
	builds[i].b = *base;
	snprintf(builds[i].dir, sizeof(builds[i].dir), "%s", dir);
	builds[i].b.name = builds[i].name;
	nbuilds++;
	return &builds[i].b;
}

enum guest_load backend_load(const struct guest_backend *b,
			     struct guest_lib_info *info, char *why,
			     size_t why_bytes)
{
	enum guest_load rc;

	load_dir = NULL;
	for (size_t i = 0; i < nbuilds; i++)
		if (b == &builds[i].b)
			load_dir = builds[i].dir;
	rc = b->load(info, why, why_bytes);
	load_dir = NULL;
	return rc;
}

const struct guest_backend *guest_backend_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(table[i]->name, name) == 0)
			return table[i];
	return NULL;
}

bool backend_op_fits(enum guest_algo algo, enum guest_op op)
{
	return algo < GUEST_ALGO_COUNT &&
	       (algo_info(algo)->kind == GUEST_KIND_HASH) ==
	       (op == GUEST_OP_HASH);
}

int backend_oneshot(const struct guest_backend *b, enum guest_algo algo,
		    enum guest_op op, const struct guest_oneshot *io)
{
	const struct guest_algo_info *ai;
	uint8_t aux[GUEST_MAX_DIGEST];
	void *ctx;
	int rc;

	if (b->oneshot)
		return b->oneshot(algo, op, io);
	if (!backend_op_fits(algo, op) || !b->supports(algo))
		return -1;
	ai = algo_info(algo);
	if (ai->kind == GUEST_KIND_AEAD && !b->aead)
		return -1;
	if (!(ctx = b->bulk_new(algo, op, io->key, io->iv)))
		return -1;
	switch (ai->kind) {
	case GUEST_KIND_AEAD:
		rc = b->aead(ctx, io->aad, io->aad_bytes, io->in, io->out,
			     io->len, io->tag);
		break;
	case GUEST_KIND_HASH:
		rc = b->bulk_run(ctx, io->in, NULL, io->len, 1, aux);
		if (rc == 0)
			memcpy(io->out, aux, ai->digest_bytes);
		break;
	default:
		rc = b->bulk_run(ctx, io->in, io->out, io->len, 1, aux);
		break;
	}
	b->bulk_free(ctx);
	return rc;
}

struct backend_hctx *backend_hctx_new(enum guest_algo algo, enum guest_op op,
				      const uint8_t *iv,
				      void (*release)(void *handle))
{
	struct backend_hctx *c;

	if (!backend_op_fits(algo, op) || !(c = calloc(1, sizeof(*c))))
		return NULL;
	c->algo = algo;
	c->op = op;
	c->release = release;
	if (iv && op != GUEST_OP_HASH)
		memcpy(c->iv, iv, algo_info(algo)->iv_bytes);
	return c;
}

void backend_hctx_free(void *ctx)
{
	struct backend_hctx *c = ctx;

	if (!c)
		return;
	if (c->handle && c->release)
		c->release(c->handle);
	free(c->buf);
	free(c);
}

uint8_t *backend_hctx_buf(struct backend_hctx *c, size_t bytes)
{
	if (bytes > c->buf_bytes) {
		free(c->buf);
		c->buf_bytes = 0;
		if (!(c->buf = malloc(bytes ? bytes : 1)))
			return NULL;
		c->buf_bytes = bytes;
	}
	return c->buf;
}

void backend_copy(char *out, size_t out_bytes, const char *src)
{
	size_t n;

	if (out_bytes == 0)
		return;
	if (src == NULL)
		src = "";
	n = strlen(src);
	if (n >= out_bytes)
		n = out_bytes - 1;
	memcpy(out, src, n);
	out[n] = '\0';
}

void backend_lib_path(const void *addr, char *out, size_t out_bytes)
{
	Dl_info dli;
	char resolved[PATH_MAX];

	backend_copy(out, out_bytes, "");
	memset(&dli, 0, sizeof(dli));
	/* dladdr takes void *; converting a function pointer's address
	 * through const void * is what POSIX dlsym implies is fine. */
	if (dladdr((void *)(uintptr_t)addr, &dli) == 0 || !dli.dli_fname)
		return;
	if (realpath(dli.dli_fname, resolved) != NULL)
		backend_copy(out, out_bytes, resolved);
	else
		backend_copy(out, out_bytes, dli.dli_fname);
}

/* Did dlopen(SONAME) fail because no file of that name exists (rather
 * than because it, or a library it needs, could not be loaded)? Told
 * from the loader's message, which names the file it could not find:
 * glibc "SONAME: cannot open shared object file: No such file or
 * directory" (a missing dependency names the dependency instead), musl
 * "Error loading shared library SONAME: No such file or directory" (a
 * missing dependency adds "(needed by ...)"). */
static bool soname_missing(const char *soname, const char *msg)
{
	static const char glibc[] =
		": cannot open shared object file: No such file or directory";
	static const char musl_pre[] = "Error loading shared library ";
	static const char musl[] = ": No such file or directory";
	size_t n = strlen(soname);

	if (strncmp(msg, soname, n) == 0 && strcmp(msg + n, glibc) == 0)
		return true;
	if (strncmp(msg, musl_pre, sizeof(musl_pre) - 1) == 0) {
		msg += sizeof(musl_pre) - 1;
		return strncmp(msg, soname, n) == 0 && strcmp(msg + n, musl) == 0;
	}
	return false;
}

void *backend_dlopen(const char *const *sonames, size_t n, size_t *which,
		     char *why, size_t why_bytes)
{
	size_t len = 0;

	if (why_bytes > 0)
		why[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char path[GUEST_BUILD_DIR_MAX + 128];
		const char *file = sonames[i];
		void *h;
		const char *err;
		int w;

		/* a build: its own file by absolute path, so that the
		 * loader neither searches nor matches the soname of a
		 * library it loaded before */
		if (load_dir) {
			snprintf(path, sizeof(path), "%s/%s", load_dir,
				 sonames[i]);
			file = path;
		}
		h = dlopen(file, RTLD_NOW | RTLD_LOCAL);

		if (h) {
			*which = i;
			return h;
		}
		err = dlerror();
		if (!err || soname_missing(file, err) || len >= why_bytes)
			continue;
		/* present but not loadable: keep the loader's message */
		w = snprintf(why + len, why_bytes - len, "%scannot load %s: %s",
			     len ? "; " : "", file, err);
		if (w > 0)
			len += (size_t)w < why_bytes - len ? (size_t)w :
			       why_bytes - len - 1;
	}
	return NULL;
}

enum guest_load backend_not_loaded(const char *why)
{
	return why[0] ? GUEST_LOAD_BROKEN : GUEST_LOAD_ABSENT;
}

int backend_sym(void *handle, void *slot, const char *name)
{
	void *p = dlsym(handle, name);

	memcpy(slot, &p, sizeof(p));
	return p ? 0 : -1;
}

int backend_require(void *handle, const struct backend_symbol *syms,
		    size_t n, char *why, size_t why_bytes)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (backend_sym(handle, syms[i].slot, syms[i].name) < 0) {
			snprintf(why, why_bytes, "missing symbol %s",
				 syms[i].name);
			return -1;
		}
	return 0;
}

/* Read exactly LEN bytes at OFF of FD into BUF. Returns 0 or -1. */
static int read_at(int fd, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (lseek(fd, (off_t)off, SEEK_SET) < 0)
		return -1;
	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Find the GNU build-id note in the LEN bytes of notes at NOTES; write its
 * hex to OUT. Returns 0 if found. Note layout: ELF gABI "Note Section"
 * (namesz, descsz, type, name padded to 4, desc padded to 4). */
static int scan_notes(const uint8_t *notes, size_t len, char *out,
		      size_t out_bytes)
{
	static const char hexd[] = "0123456789abcdef";
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + ((namesz + 3u) & ~3u);
		if (namesz > len || descsz > len || desc_off + descsz > len)
			return -1;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(notes + name_off, "GNU", 4) == 0 &&
		    descsz * 2 + 1 <= out_bytes) {
			for (uint32_t i = 0; i < descsz; i++) {
				out[2 * i] = hexd[notes[desc_off + i] >> 4];
				out[2 * i + 1] = hexd[notes[desc_off + i] & 15];
			}
			out[2 * descsz] = '\0';
			return 0;
		}
		off = desc_off + ((descsz + 3u) & ~3u);
	}
	return -1;
}

void backend_build_id(const char *path, char *out, size_t out_bytes)
{
	Elf64_Ehdr eh;
	int fd;

	backend_copy(out, out_bytes, "");
	if (!path || !*path || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	if (read_at(fd, 0, &eh, sizeof(eh)) < 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 256)
		goto out;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		uint8_t *notes;
		int found;

		if (read_at(fd, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph,
			    sizeof(ph)) < 0)
			goto out;
		if (ph.p_type != PT_NOTE || ph.p_filesz > 65536)
			continue;
		if (!(notes = malloc(ph.p_filesz ? ph.p_filesz : 1)))
			goto out;
		found = read_at(fd, ph.p_offset, notes, ph.p_filesz) == 0 &&
			scan_notes(notes, ph.p_filesz, out, out_bytes) == 0;
		free(notes);
		if (found)
			break;
	}
out:
	close(fd);
}
