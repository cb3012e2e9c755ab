/* guest/fdio.h - whole reads and writes on a file descriptor, retried
 * on EINTR and short transfers (pipes, files). */
#ifndef GUEST_FDIO_H
#define GUEST_FDIO_H

#include <stddef.h>
#include <sys/types.h>

/* Write the LEN bytes of BUF to FD. Returns 0, or -1 on an error
 * (errno set; part of BUF may have been written). */
int fdio_write_all(int fd, const void *buf, size_t len);

/* Read LEN bytes from FD into BUF, fewer only at the end of the file.
 * Returns the bytes read (0 .. LEN), or -1 on an error (errno set). */
ssize_t fdio_read_all(int fd, void *buf, size_t len);

#endif /* GUEST_FDIO_H */
