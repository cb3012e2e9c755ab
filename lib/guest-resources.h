/* guest-resources.h - the resource members of the guest protocol
 * (guest/PROTOCOL.md, "Resources"): footprint on `library`, the peak
 * after each `result`, and each library process's CPU time and peak
 * resident set in `done`'s `rusage`. Every member is optional (older
 * guests print none); when absent the field is -1 (or the array NULL).
 */
#ifndef BENCHORCH_GUEST_RESOURCES_H
#define BENCHORCH_GUEST_RESOURCES_H

#include <jansson.h>
#include <stddef.h>

#include "lib/guest_output.h"

/* Largest size accepted, in KiB (1 TiB). */
#define GUEST_MAX_KIB (INT64_C(1) << 30)
/* Largest CPU time accepted, in microseconds (about 35 years). */
#define GUEST_MAX_CPU_US (INT64_C(1) << 50)

/* Read the optional rss_before_load_kib and footprint_kib of library line
 * O (line LINENO) into L (-1 when absent; footprint >= 1, before >= 0,
 * both at most GUEST_MAX_KIB; both or neither). Returns 0, or -1 with err
 * set naming the line. */
int guest_resources_library(json_t *o, size_t lineno, struct guest_library *l,
			    bo_err *err);

/* Read the optional maxrss_kib (1 .. GUEST_MAX_KIB) of result line O into
 * R (-1 when absent). Returns 0, or -1 with err set. */
int guest_resources_result(json_t *o, size_t lineno, struct guest_result *r,
			   bo_err *err);

/* Read done line O's optional rusage array into OUT: one object per
 * library the guest reported (each at most once), with user_us and sys_us
 * (0 .. GUEST_MAX_CPU_US) and maxrss_kib (0 .. GUEST_MAX_KIB, 0 = the
 * kernel gave none). Returns 0, or -1 with err set (OUT unchanged). */
int guest_resources_done(struct guest_output *out, json_t *o, size_t lineno,
			 bo_err *err);

/* Free OUT's rusage array (out->rusage = NULL, nrusage = 0). */
void guest_resources_release(struct guest_output *out);

/* The rusage entry of LIBRARY in OUT, or NULL. */
const struct guest_rusage *guest_resources_find(const struct guest_output *out,
						const char *library);

#endif
