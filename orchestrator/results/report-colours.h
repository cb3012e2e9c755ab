/* report-colours.h - one colour per library in every chart of the
 * report, from a fixed palette by the library's place in the guest's
 * list, and the legend that names them. */
#ifndef BENCHORCH_REPORT_COLOURS_H
#define BENCHORCH_REPORT_COLOURS_H

#include <stddef.h>
#include <stdio.h>

/* The colour ("#1f77b4", static storage) of library NAME: the palette
 * entry at its position in the guest's library list (library_index), so
 * the same in every chart whatever else the chart shows; one neutral
 * colour for a name the guest does not know (an older database's). */
const char *report_library_colour(const char *name);

/* The dash (a stroke-dasharray, "" solid; static storage) of the K-th
 * line (0-based) of one library in one chart: its distributions, runs or
 * machines apart, in the order the chart draws them. */
const char *report_library_dash(size_t k);

/* Write to F a legend of the colours of the N libraries in NAMES
 * (borrowed; repeats allowed, shown once, in the guest's library order,
 * unknown names last): a <p class="libcolours"> of one
 * <span class="libcolour" data-library="NAME" data-colour="#..."> each. */
void report_write_colour_legend(FILE *f, const char *const *names, size_t n);

#endif
