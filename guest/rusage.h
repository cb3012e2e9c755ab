/* guest/rusage.h - what a library's process costs besides time: CPU time
 * and resident memory (guest/PROTOCOL.md, "Resources").
 *
 * Sizes are in KiB (1024 bytes), as the kernel reports them; CPU times in
 * microseconds (struct rusage's resolution). Nothing here allocates.
 */
#ifndef GUEST_RUSAGE_H
#define GUEST_RUSAGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "json.h"

/* The resident set of this process now, in KiB: the second field of
 * /proc/self/statm (resident pages) times the page size. Returns 0 when
 * /proc is not mounted or cannot be read (no figure). */
uint64_t rusage_rss_now_kib(void);

/* The peak resident set of this process so far (getrusage RUSAGE_SELF,
 * ru_maxrss: the kernel's high-water mark, in KiB on Linux). After fork()
 * a child's mark starts at its resident set at the fork. Returns 0 when
 * getrusage fails. */
uint64_t rusage_peak_kib(void);

/* What wait4() reported for one library's child process. */
struct rusage_lib {
	const char *library;	/* backend name, static */
	uint64_t user_us;	/* user CPU time, microseconds */
	uint64_t sys_us;	/* system CPU time, microseconds */
	uint64_t maxrss_kib;	/* peak resident set, KiB */
};

/* Fill *OUT for LIBRARY from RU, the rusage of its reaped child. */
void rusage_from(struct rusage_lib *out, const char *library,
		 const struct rusage *ru);

/* Add member KEY to J: an array with one object per entry of LIBS (N of
 * them), {"library":..,"user_us":..,"sys_us":..,"maxrss_kib":..}. Library
 * names are the guest's own backend names (letters and digits), written
 * as they are. Fails the line (json.h) when it does not fit. */
void rusage_add_json(struct json_line *j, const char *key,
		     const struct rusage_lib *libs, size_t n);

#endif /* GUEST_RUSAGE_H */
