/* archive.c - unpack root filesystem tarballs with libarchive, refusing
 * anything that could write outside the destination or create devices.
 *
 * Device nodes, FIFOs and sockets refuse the whole archive rather than
 * being skipped: the hostile-archive cases require it, and a root
 * filesystem for the guest needs none (a Gentoo stage3 ships an almost
 * empty /dev; systemd-nspawn and the chroot runner give the guest a fresh
 * /dev anyway). Use `benchorch images import` on a tarball made without
 * them (e.g. tar --exclude ./dev). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "images/archive.h"

/* The only extended attribute unpacked: file capabilities (ping, ...). */
#define KEPT_XATTR "security.capability"
/* The errno libarchive gives an input no enabled format recognises
 * (its ARCHIVE_ERRNO_FILE_FORMAT, which archive.h does not export: EILSEQ
 * on Linux). */
#define NOT_RECOGNISED EILSEQ

#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

/* 1 when PATH is absolute or has a ".." component. */
static int path_escapes(const char *path)
{
	const char *p = path;

	if (path[0] == '/')
		return 1;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* One-line copy of an archive error string (libarchive's may end in a
 * newline). */
static const char *one_line(const char *s, char *buf, size_t len)
{
	char *nl;

	snprintf(buf, len, "%s", s && *s ? s : "unknown error");
	while ((nl = strpbrk(buf, "\r\n")) != NULL)
		*nl = (nl[1] ? ' ' : '\0');
	return buf;
}

static const char *type_name(mode_t t)
{
	switch (t) {
	case AE_IFCHR: return "character device";
	case AE_IFBLK: return "block device";
	case AE_IFIFO: return "fifo";
	case AE_IFSOCK: return "socket";
	default: return "special file";
	}
}

/* Check entry E (number COUNT + 1) of FILE before it is written: it has a
 * name, neither it nor its hard link target leaves the destination, and it
 * is no device, FIFO or socket. Returns 0, or -1 with err set. */
static int check_entry(const char *file, struct archive_entry *e,
		       size_t count, bo_err *err)
{
	const char *path = archive_entry_pathname(e), *link;
	mode_t type;

	if (!path || !*path)
		return bo_err_set(err, "cannot unpack '%s': entry %zu has no "
				  "name", file, count + 1);
	if (path_escapes(path))
		return bo_err_set(err, "refusing archive '%s': entry '%.200s' "
				  "is %s", file, path, path[0] == '/' ?
				  "an absolute path" :
				  "outside the destination ('..')");
	link = archive_entry_hardlink(e);
	if (link && path_escapes(link))
		return bo_err_set(err, "refusing archive '%s': hard link "
				  "'%.200s' points outside the destination "
				  "('%.200s')", file, path, link);
	type = archive_entry_filetype(e);
	if (!link && (type == AE_IFCHR || type == AE_IFBLK ||
		      type == AE_IFIFO || type == AE_IFSOCK))
		return bo_err_set(err, "refusing archive '%s': entry '%.200s' "
				  "is a %s", file, path, type_name(type));
	return 0;
}

/* What an unpack has written so far, against its limits. */
struct unpack_state {
	struct archive_limits lim;
	uint64_t bytes;		/* bytes of entries finished (their sizes) */
	size_t count;		/* entries written */
};

/* The error for an archive over the byte limit. Returns -1. */
static int over_bytes(const char *file, const struct unpack_state *st,
		      bo_err *err)
{
	return bo_err_set(err, "refusing archive '%s': it unpacks to more "
			  "than %llu bytes (BENCHORCH_UNPACK_MAX_BYTES)", file,
			  (unsigned long long)st->lim.max_bytes);
}

/* Copy the data of the current entry PATH of FILE from IN to OUT, block by
 * block (stopping early, without an error, when interrupted), refusing it
 * once ST's bytes and the entry's end pass the byte limit. Returns 0, or
 * -1 with err set. */
static int copy_data(struct archive *in, struct archive *out,
		     const char *file, const char *path,
		     const struct unpack_state *st, bo_err *err)
{
	char msg[512];
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	while ((r = archive_read_data_block(in, &buf, &len, &off)) ==
	       ARCHIVE_OK) {
		if (off < 0 || (uint64_t)off + len >
		    st->lim.max_bytes - st->bytes)
			return over_bytes(file, st, err);
		if (archive_write_data_block(out, buf, len, off) <
		    ARCHIVE_WARN)
			return bo_err_set(err, "cannot unpack '%s': entry "
					  "'%.200s': %s", file, path,
					  one_line(archive_error_string(out),
						   msg, sizeof(msg)));
		if (bo_interrupted)
			break;
	}
	if (r != ARCHIVE_EOF && r != ARCHIVE_OK)
		return bo_err_set(err, "cannot unpack '%s': entry '%.200s': %s",
				  file, path,
				  one_line(archive_error_string(in), msg,
					   sizeof(msg)));
	return 0;
}

/* Keep of entry E's extended attributes only those a root filesystem
 * needs (KEPT_XATTR: file capabilities), and none of its file flags
 * (immutable, append-only, ...). */
static void strip_metadata(struct archive_entry *e)
{
	const char *name;
	const void *val, *keep = NULL;
	size_t size, keep_size = 0;
	void *copy = NULL;

	archive_entry_set_fflags(e, 0, 0);
	if (archive_entry_xattr_reset(e) == 0)
		return;
	while (archive_entry_xattr_next(e, &name, &val, &size) ==
	       ARCHIVE_OK)
		if (name && strcmp(name, KEPT_XATTR) == 0 && !keep) {
			keep = val;
			keep_size = size;
		}
	if (keep) {
		copy = xmalloc(keep_size ? keep_size : 1);
		memcpy(copy, keep, keep_size);
	}
	archive_entry_xattr_clear(e);
	if (copy)
		archive_entry_xattr_add_entry(e, KEPT_XATTR, copy, keep_size);
	free(copy);
}

/* Write entry E of FILE, read from IN, through OUT: checked (check_entry,
 * the limits in ST), stripped (strip_metadata), its header, its data,
 * finished; ST counts it. Returns 0, or -1 with err set. */
static int unpack_entry(struct archive *in, struct archive *out,
			struct archive_entry *e, const char *file,
			struct unpack_state *st, bo_err *err)
{
	const char *path;
	char msg[512];
	la_int64_t size = archive_entry_size(e);

	if (st->count >= st->lim.max_entries)
		return bo_err_set(err, "refusing archive '%s': it has more "
				  "than %zu entries "
				  "(BENCHORCH_UNPACK_MAX_ENTRIES)", file,
				  st->lim.max_entries);
	if (check_entry(file, e, st->count, err) < 0)
		return -1;
	if (size < 0)
		size = 0;
	if ((uint64_t)size > st->lim.max_bytes - st->bytes)
		return over_bytes(file, st, err);
	strip_metadata(e);
	path = archive_entry_pathname(e);
	if (archive_write_header(out, e) < ARCHIVE_WARN)
		return bo_err_set(err, "refusing archive '%s': entry '%.200s': "
				  "%s", file, path,
				  one_line(archive_error_string(out), msg,
					   sizeof(msg)));
	if ((size > 0 || !archive_entry_size_is_set(e)) &&
	    copy_data(in, out, file, path, st, err) < 0)
		return -1;
	if (archive_write_finish_entry(out) < ARCHIVE_WARN)
		return bo_err_set(err, "cannot unpack '%s': entry '%.200s': %s",
				  file, path,
				  one_line(archive_error_string(out), msg,
					   sizeof(msg)));
	st->bytes += (uint64_t)size;
	st->count++;
	return 0;
}

/* Unpack every entry of IN (opened on FILE) through OUT, counting them
 * into ST; refuses an archive without entries. Returns 0, or -1 with err
 * set. */
static int unpack_entries(struct archive *in, struct archive *out,
			  const char *file, struct unpack_state *st,
			  bo_err *err)
{
	struct archive_entry *e;
	char msg[512];
	int r;

	for (;;) {
		if (bo_interrupted)
			return bo_err_set(err, "cannot unpack '%s': interrupted",
					  file);
		r = archive_read_next_header(in, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN)
			return bo_err_set(err, "cannot unpack '%s': %s", file,
					  one_line(archive_error_string(in),
						   msg, sizeof(msg)));
		if (unpack_entry(in, out, e, file, st, err) < 0)
			return -1;
	}
	if (st->count == 0)
		return bo_err_set(err, "refusing archive '%s': it has no "
				  "entries, so it is not a root filesystem",
				  file);
	/* Applies the deferred directory permissions and times. */
	if (archive_write_close(out) < ARCHIVE_WARN)
		return bo_err_set(err, "cannot unpack '%s': %s", file,
				  one_line(archive_error_string(out), msg,
					   sizeof(msg)));
	return 0;
}

/* Let IN read the tar family only, raw or through one of the compression
 * filters libarchive has built in (a filter it would run as an external
 * program is left out). */
static void support_tar_only(struct archive *in)
{
	static int (*const filters[])(struct archive *) = {
		archive_read_support_filter_gzip,
		archive_read_support_filter_bzip2,
		archive_read_support_filter_xz,
		archive_read_support_filter_lzma,
		archive_read_support_filter_zstd,
		archive_read_support_filter_lz4,
	};
	size_t i;

	/* Every tar variant: ustar, pax, GNU tar, Solaris and old tar. */
	archive_read_support_format_tar(in);
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		struct archive *probe = archive_read_new();

		if (probe && filters[i](probe) == ARCHIVE_OK)
			filters[i](in);
		if (probe)
			archive_read_free(probe);
	}
}

/* The libarchive reader of FD (shown as FILE) for the tar family
 * (support_tar_only), opened; NULL with err set. */
static struct archive *open_reader(int fd, const char *file, bo_err *err)
{
	struct archive *in = archive_read_new();
	char msg[512];

	if (!in) {
		bo_err_set(err, "cannot unpack '%s': out of memory", file);
		return NULL;
	}
	support_tar_only(in);
	if (lseek(fd, 0, SEEK_SET) < 0) {
		bo_err_set(err, "cannot unpack '%s': %s", file,
			   strerror(errno));
	} else if (archive_read_open_fd(in, fd, 64 * 1024) == ARCHIVE_OK) {
		return in;
	} else if (archive_errno(in) == NOT_RECOGNISED) {
		bo_err_set(err, "refusing '%s': not a tar archive (tar, "
			   "uncompressed or with gzip, bzip2, xz, lzma, zstd "
			   "or lz4)", file);
	} else {
		bo_err_set(err, "cannot unpack '%s': %s", file,
			   one_line(archive_error_string(in), msg,
				    sizeof(msg)));
	}
	archive_read_free(in);
	return NULL;
}

int archive_limits_get(struct archive_limits *lim, bo_err *err)
{
	static const struct {
		const char *var;
		unsigned long long def;
	} vars[2] = {
		{ "BENCHORCH_UNPACK_MAX_BYTES", ARCHIVE_MAX_BYTES_DEFAULT },
		{ "BENCHORCH_UNPACK_MAX_ENTRIES", ARCHIVE_MAX_ENTRIES_DEFAULT },
	};
	unsigned long long v[2];
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *s = getenv(vars[i].var);
		char *end;

		v[i] = vars[i].def;
		if (!s || !*s)
			continue;
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (errno || *end || s[0] < '0' || s[0] > '9' || v[i] == 0 ||
		    (i == 1 && v[i] > SIZE_MAX))
			return bo_err_set(err, "invalid %s '%.100s': expected "
					  "a whole number above 0", vars[i].var,
					  s);
	}
	lim->max_bytes = v[0];
	lim->max_entries = (size_t)v[1];
	return 0;
}

int archive_unpack_fd(int fd, const char *file, const char *dest,
		      size_t *ret_entries, bo_err *err)
{
	struct archive *in = NULL, *out = NULL;
	struct unpack_state st;
	int cwd = -1, rc = -1;
	/* No ARCHIVE_EXTRACT_FFLAGS and no _ACL: strip_metadata() drops file
	 * flags, and of the xattrs (_XATTR) keeps file capabilities only. */
	const int flags = ARCHIVE_EXTRACT_SECURE_NODOTDOT |
		ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS |
		ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_PERM |
		ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_XATTR |
		ARCHIVE_EXTRACT_OWNER;

	memset(&st, 0, sizeof(st));
	if (ret_entries)
		*ret_entries = 0;
	if (archive_limits_get(&st.lim, err) < 0)
		return -1;
	out = archive_write_disk_new();
	if (!out) {
		bo_err_set(err, "cannot unpack '%s': out of memory", file);
		goto out;
	}
	/* Numeric owners: archive_write_disk_set_standard_lookup() is
	 * deliberately not called, so no name is looked up on the host. */
	archive_write_disk_set_options(out, flags);
	in = open_reader(fd, file, err);
	if (!in)
		goto out;
	/* archive_write_disk works relative to the current directory. */
	cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0 || chdir(dest) < 0) {
		bo_err_set(err, "cannot enter '%s': %s", dest, strerror(errno));
		goto out;
	}
	if (unpack_entries(in, out, file, &st, err) < 0)
		goto out;
	rc = 0;
out:
	if (cwd >= 0) {
		if (fchdir(cwd) < 0 && rc == 0)
			rc = bo_err_set(err, "cannot return to the working "
					"directory: %s", strerror(errno));
		close(cwd);
	}
	if (ret_entries)
		*ret_entries = st.count;
	if (in)
		archive_read_free(in);
	if (out)
		archive_write_free(out);
	return rc;
}

int rootfs_open_force_fallback;

int rootfs_openat2_available(void)
{
#ifdef SYS_openat2
	struct open_how how;
	int fd, e;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)(O_RDONLY | O_CLOEXEC | O_DIRECTORY);
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
	e = errno;
	fd = (int)syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	errno = e;
#endif
	return 0;
}

int rootfs_open(const char *rootfs, const char *relpath, int flags)
{
	int root = open(rootfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, e;

	if (root < 0)
		return -1;
#ifdef SYS_openat2
	if (!rootfs_open_force_fallback) {
		struct open_how how;

		memset(&how, 0, sizeof(how));
		how.flags = (unsigned long long)(O_RDONLY | O_CLOEXEC |
						 O_NOCTTY | flags);
		how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
			RESOLVE_NO_XDEV;
		fd = (int)syscall(SYS_openat2, root, relpath, &how,
				  sizeof(how));
		if (fd >= 0 || (errno != ENOSYS && errno != EXDEV)) {
			e = errno;
			close(root);
			errno = e;
			return fd;
		}
	}
#endif
	/* No openat2: walk the components, following no symlink. */
	{
		char *copy = xstrdup(relpath), *p = copy, *slash;
		int dfd = root;

		for (;;) {
			slash = strchr(p, '/');
			if (slash)
				*slash = '\0';
			if (strcmp(p, "..") == 0) {
				fd = -1;
				errno = EPERM;
				break;
			}
			fd = openat(dfd, p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
				    O_NOCTTY | (slash ? O_DIRECTORY : flags));
			if (fd < 0 || !slash)
				break;
			if (dfd != root)
				close(dfd);
			dfd = fd;
			p = slash + 1;
			while (*p == '/')
				p++;
		}
		e = errno;
		if (dfd != root && dfd != fd)
			close(dfd);
		close(root);
		free(copy);
		errno = e;
		return fd;
	}
}

int rootfs_check_shape(const char *rootfs, const char *shown, bo_err *err)
{
	struct stat st;
	int dfd = open(rootfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ok;

	if (dfd < 0)
		return bo_err_set(err, "cannot open '%s': %s", rootfs,
				  strerror(errno));
	ok = fstatat(dfd, "etc", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		S_ISDIR(st.st_mode);
	if (ok)
		ok = (fstatat(dfd, "usr", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      S_ISDIR(st.st_mode)) ||
		     (fstatat(dfd, "bin", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)));
	close(dfd);
	if (!ok)
		return bo_err_set(err, "'%s' is not a root filesystem: no etc/ "
				  "and usr/ or bin/ at its top", shown);
	return 0;
}
