/* t1060-guest-hwmask - the --nohw environment of guest/hwmask.c: the mask
 * sets the libraries' variables; its stand-in sets none of them but as
 * many variables of the same name and value lengths, under names no
 * library reads; and the heap after either is laid out alike (the next
 * allocation lands at the same address in two processes forked from the
 * same state), so that --nohw changes the libraries' code paths and not
 * where their allocations land. Prints TAP. */
#include "guest/compat.h"
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest/hwmask.h"
#include "tests/tap.h"

/* In a child: apply the mask (NOHW) or the stand-in, allocate SIZE bytes
 * and write the address to the parent. Returns the address, or 0. */
static uintptr_t next_alloc(int nohw, size_t size)
{
	int fd[2];
	uintptr_t addr = 0;
	pid_t pid;

	if (pipe(fd) < 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		void *p;

		close(fd[0]);
		if (hwmask_apply(nohw) < 0)
			_exit(1);
		p = malloc(size);
		addr = (uintptr_t)p;
		if (write(fd[1], &addr, sizeof(addr)) != sizeof(addr))
			_exit(1);
		free(p);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &addr, sizeof(addr)) != sizeof(addr))
		addr = 0;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return addr;
}

int main(void)
{
	size_t n, i, j;
	const struct hwmask_var *v = hwmask_vars(&n);
	char name[64], value[256], other[64], ov[256];
	int same = 1, distinct = 1, unread = 1;
	uintptr_t a, b;

	tap_ok(n == 4, "four variables: OpenSSL, Nettle, GnuTLS, Botan 3 (%zu)",
	       n);
	for (i = 0; i < n; i++) {
		if (hwmask_pad(i, name, sizeof(name), value, sizeof(value)) < 0 ||
		    strlen(name) != strlen(v[i].name) ||
		    strlen(value) != strlen(v[i].value) ||
		    strspn(value, "x") != strlen(value))
			same = 0;
		for (j = 0; j < n; j++) {
			if (strcmp(name, v[j].name) == 0)
				unread = 0;
			if (j != i &&
			    hwmask_pad(j, other, sizeof(other), ov,
				       sizeof(ov)) == 0 &&
			    strcmp(name, other) == 0)
				distinct = 0;
		}
	}
	tap_ok(same, "each stand-in has the name and value lengths of its variable");
	tap_ok(distinct && unread,
	       "the stand-ins' names are distinct and none is a library's variable");
	tap_ok(hwmask_pad(n, name, sizeof(name), value, sizeof(value)) == -1 &&
	       hwmask_pad(0, name, 4, value, sizeof(value)) == -1,
	       "hwmask_pad refuses an index out of range and a short buffer");
	tap_ok(strcmp(v[0].name, "OPENSSL_ia32cap") == 0 &&
	       strcmp(v[0].value, "~0x200000200000000") == 0,
	       "OpenSSL: AES-NI (bit 57) and PCLMULQDQ (bit 33) cleared");

	for (i = 0; i < n; i++) {
		unsetenv(v[i].name);
		if (hwmask_pad(i, name, sizeof(name), value, sizeof(value)) == 0)
			unsetenv(name);
	}
	same = hwmask_apply(0) == 0;
	for (i = 0; i < n; i++) {
		const char *got;

		if (getenv(v[i].name))
			same = 0;
		if (hwmask_pad(i, name, sizeof(name), value, sizeof(value)) < 0 ||
		    !(got = getenv(name)) || strcmp(got, value) != 0)
			same = 0;
	}
	tap_ok(same, "without --nohw: the stand-ins are set, no library's variable");
	same = hwmask_apply(1) == 0;
	for (i = 0; i < n; i++) {
		const char *got = getenv(v[i].name);

		if (!got || strcmp(got, v[i].value) != 0)
			same = 0;
	}
	tap_ok(same, "with --nohw: every library's variable has its value");
	for (i = 0; i < n; i++) {
		unsetenv(v[i].name);
		if (hwmask_pad(i, name, sizeof(name), value, sizeof(value)) == 0)
			unsetenv(name);
	}

	/* the heap: the same state forked twice, mask against stand-in */
	a = next_alloc(1, 48);
	b = next_alloc(0, 48);
	tap_ok(a != 0 && a == b,
	       "the next small allocation lands at the same address after either (%#lx, %#lx)",
	       (unsigned long)a, (unsigned long)b);
	return tap_done();
}
