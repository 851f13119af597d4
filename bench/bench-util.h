/* What the benchmarks share: the median of the timed runs, the exit on an error, and the
 * JSON records that bench/write-results.py reads. */
#pragma once

#include <glib.h>

/* The median of the N values of V (sorted in place). */
double lm_bench_median (double *v, int n);

/* Prints "PROGRAM: message" to stderr and exits with status 1. */
G_NORETURN void lm_bench_die (const char *program, GError *error);

/* Opens the list of records: a JSON array, one record a line. */
GString *lm_bench_json_new (void);

/* Appends one record, "{" FORMAT "}", with the separator a record after the first needs. */
void lm_bench_json_add (GString *json, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Closes the list and, when PATH is given, writes it there. */
gboolean lm_bench_json_finish (GString *json, const char *path, GError **error);
