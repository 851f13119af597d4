/* bench-first-run: where an operation's first run on the CPU loses time against its warm run,
 * the way lumen-cli runs it once per process.
 *
 *   bench-first-run [--op gray|equalize|blur] [--set PARAM=VALUE …] IMAGE
 *
 * Run once per process (each process is one cold start): the phases of the first run, timed
 * with the host clock, then the same operation warm. Phases: the backend's creation (which
 * starts the OpenMP team), the output's allocation, an empty parallel region (what is left of
 * the team's start), the first run into the fresh output, and warm runs into the same output.
 * LUMEN_FIRST_RUN_ORDER=plain skips the empty region; LUMEN_FIRST_RUN_PREFAULT=1 faults the
 * output in before the first run (timed apart), as lumen-cli does beside the decoding.
 * Not a test: figures go to bench/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <omp.h>

#include "core/backend/backend.h"
#include "core/io/io.h"
#include "core/ops/ops.h"
#include "core/timing.h"

#include "bench-util.h"

int
main (int argc, char **argv)
{
  const char *op_name = "gray";
  g_auto (GStrv) sets = NULL;
  const GOptionEntry entries[] = {
    { "op", 0, 0, G_OPTION_ARG_STRING, &op_name, "the operation", "OP" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "a parameter", "PARAM=VALUE" },
    { NULL },
  };
  GError *e = NULL;
  g_autoptr (GOptionContext) context = g_option_context_new ("IMAGE");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &e) || argc != 2)
    {
      fprintf (stderr, "usage: bench-first-run [--op OP] [--set PARAM=VALUE …] IMAGE\n");
      return 2;
    }
  const LmOpInfo *op = lm_op_info_by_name (op_name);
  if (op == NULL)
    return 2;
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  lm_op_params_init (op, params);
  for (int s = 0; sets && sets[s]; s++)
    {
      g_auto (GStrv) kv = g_strsplit (sets[s], "=", 2);
      for (guint k = 0; k < op->n_params; k++)
        if (g_str_equal (op->params[k].name, kv[0]) && !lm_op_param_parse (op, &op->params[k], params, kv[1], &e))
          lm_bench_die ("bench-first-run", e);
    }

  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmBackend) backend = lm_backend_new (LM_BACKEND_CPU, &e);
  if (backend == NULL)
    lm_bench_die ("bench-first-run", e);
  double backend_ms = lm_ms_since (t);
  g_autoptr (LmImage) source = lm_io_load (argv[1], lm_backend_host_allocator (backend), &e);
  if (source == NULL)
    lm_bench_die ("bench-first-run", e);

  t = g_get_monotonic_time ();
  g_autoptr (LmImage) out = lm_image_new (op->output_format (params, source->format, source->opaque),
                                          source->width, source->height, lm_backend_work_allocator (backend), &e);
  if (out == NULL)
    lm_bench_die ("bench-first-run", e);
  double alloc_ms = lm_ms_since (t);

  /* LUMEN_FIRST_RUN_PREFAULT=1: the output faulted in before the first run, as lumen-cli
   * does beside the decoding (core/render/prefault.h). */
  double prefault_ms = 0;
  if (g_strcmp0 (g_getenv ("LUMEN_FIRST_RUN_PREFAULT"), "1") == 0)
    {
      t = g_get_monotonic_time ();
      lm_image_prefault (out, NULL);
      prefault_ms = lm_ms_since (t);
    }

  double team_ms = 0;
  if (g_strcmp0 (g_getenv ("LUMEN_FIRST_RUN_ORDER"), "plain") != 0)
    {
      t = g_get_monotonic_time ();
#pragma omp parallel
      {
        (void) omp_get_thread_num ();
      }
      team_ms = lm_ms_since (t);
    }

  double runs[6];
  for (int r = 0; r < 6; r++)
    {
      t = g_get_monotonic_time ();
      if (!lm_backend_run_op (backend, op, params, source, out, &e))
        lm_bench_die ("bench-first-run", e);
      runs[r] = lm_ms_since (t);
    }
  double warm = lm_bench_median (runs + 1, 5);
  printf ("%s on %u×%u, %d threads: backend %.2f ms, output alloc %.3f ms, pre-fault %.3f ms, team start %.3f ms, "
          "first run %.2f ms, warm %.2f ms (median of 5)\n",
          op_name, source->width, source->height, omp_get_max_threads (), backend_ms, alloc_ms, prefault_ms, team_ms,
          runs[0], warm);
  return 0;
}
