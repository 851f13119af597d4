#include "bench-util.h"

#include <stdio.h>
#include <stdlib.h>

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
lm_bench_median (double *v, int n)
{
  qsort (v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void
lm_bench_die (const char *program, GError *error)
{
  fprintf (stderr, "%s: %s\n", program, error->message);
  exit (1);
}

GString *
lm_bench_json_new (void)
{
  return g_string_new ("[\n");
}

void
lm_bench_json_add (GString *json, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_string_append (json, json->len > 2 ? ",\n  {" : "  {");
  g_string_append_vprintf (json, format, args);
  g_string_append_c (json, '}');
  va_end (args);
}

gboolean
lm_bench_json_finish (GString *json, const char *path, GError **error)
{
  g_string_append (json, "\n]\n");
  return path == NULL || g_file_set_contents (path, json->str, -1, error);
}
