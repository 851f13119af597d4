/* What tiling costs: one pipeline (straighten, exposure, blur) on a 100 MP image rendered in
 * one piece (upload, render, download) and tile by tile (lm_render_tiled: copies in and out
 * of each tile overlapped with the other lane's compute), medians of a few runs. Run it with
 * and without LUMEN_CUDA_MEMORY_LIMIT (tests/gpu/device-run.sh's "tiles" step): the limit
 * picks the tile size. Usage: bench-tiled [--backend auto|cpu|cuda] [--size WxH] [--runs N]. */
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "core/backend/backend.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"

static LmImage *
synthetic (LmBackend *backend, guint w, guint h)
{
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_backend_host_allocator (backend), NULL);
  if (image == NULL)
    return NULL;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < h; y++)
    {
      guint8 *row = lm_image_row (image, y);
      for (guint x = 0; x < w; x++)
        {
          guint32 n = (x * 2654435761u) ^ (y * 40503u);
          row[4 * x] = (guint8) (x / 50 + (n >> 28)), row[4 * x + 1] = (guint8) (y / 30 + ((n >> 20) & 15));
          row[4 * x + 2] = (guint8) ((x + y) / 90), row[4 * x + 3] = 255;
        }
    }
  return image;
}

/* One piece into HOST, allocated once beforehand as the tiled runs' output is: pinning a new
 * buffer of the photo's size on each run would cost more than the render. */
static double
run_untiled (LmBackend *backend, LmImage *source, const LmPipeline *pipeline, LmImage *host, GError **error)
{
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (backend, source, error);
  g_autoptr (LmRenderCache) cache = work ? lm_render_cache_new (backend, work) : NULL;
  g_autoptr (LmImage) out = cache ? lm_render_cache_run (cache, pipeline, NULL, error) : NULL;
  if (out == NULL || !lm_backend_copy (backend, out, host, error) || !lm_backend_synchronize (backend, error))
    return -1.0;
  return (g_get_monotonic_time () - t) / 1000.0;
}

static double
run_tiled (LmBackend *backend, LmImage *source, const LmPipeline *pipeline, LmImage *out,
           const LmTileOptions *options, char **label, GError **error)
{
  LmTimings timings;
  lm_timings_init (&timings);
  gint64 t = g_get_monotonic_time ();
  gboolean ok = lm_render_tiled (backend, source, pipeline, NULL, NULL, out, options, &timings, error);
  double ms = (g_get_monotonic_time () - t) / 1000.0;
  for (guint i = 0; ok && i < timings.entries->len; i++)
    if (g_str_has_prefix (g_array_index (timings.entries, LmTiming, i).label, "tiles: "))
      {
        g_free (*label);
        *label = g_strdup (g_array_index (timings.entries, LmTiming, i).label);
      }
  lm_timings_clear (&timings);
  return ok ? ms : -1.0;
}

int
main (int argc, char **argv)
{
  LmBackendKind kind = LM_BACKEND_AUTO;
  guint w = 12240, h = 8160;
  int runs = 3;
  for (int i = 1; i + 1 < argc; i += 2)
    if (g_str_equal (argv[i], "--backend") && !lm_backend_kind_parse (argv[i + 1], &kind))
      return 2;
    else if (g_str_equal (argv[i], "--size") && sscanf (argv[i + 1], "%ux%u", &w, &h) != 2)
      return 2;
    else if (g_str_equal (argv[i], "--runs"))
      runs = CLAMP (atoi (argv[i + 1]), 1, 50);
  GError *error = NULL;
  g_autoptr (LmBackend) backend = lm_backend_new (kind, &error);
  if (backend == NULL)
    lm_bench_die ("bench-tiled", error);
  g_autoptr (LmImage) source = synthetic (backend, w, h);
  if (source == NULL)
    return 1;

  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  lm_pipeline_stage (&pipeline, LM_OP_STRAIGHTEN)->enabled = TRUE;
  lm_pipeline_stage (&pipeline, LM_OP_STRAIGHTEN)->params.straighten.angle = 2.0f;
  lm_pipeline_stage (&pipeline, LM_OP_EXPOSURE)->enabled = TRUE;
  lm_pipeline_stage (&pipeline, LM_OP_EXPOSURE)->params.exposure.ev = 0.3f;
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->enabled = TRUE;
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->params.blur.sigma = 5.0f;
  LmFormat format;
  guint ow, oh;
  lm_render_tiled_output (source, &pipeline, &format, &ow, &oh);
  g_autoptr (LmImage) out = lm_image_new (format, ow, oh, lm_backend_host_allocator (backend), NULL);

  const char *limit = g_getenv ("LUMEN_CUDA_MEMORY_LIMIT");
  printf ("bench-tiled: %s, %u×%u, straighten 2 + exposure 0.3 + blur 5, limit %s, available %" G_GSIZE_FORMAT
          " MiB, fits untiled: %s\n", backend->description, w, h, limit ? limit : "none",
          lm_backend_memory_available (backend) >> 20, lm_render_fits (backend, source, &pipeline) ? "yes" : "no");

  double v[50];
  int n = 0;
  for (int r = 0; r < runs; r++)
    {
      double ms = run_untiled (backend, source, &pipeline, out, &error);
      if (ms < 0.0)
        {
          printf ("untiled: %s\n", error->message);
          g_clear_error (&error);
          break;
        }
      v[n++] = ms;
    }
  if (n)
    printf ("untiled (upload, render, download): %.1f ms median of %d\n", lm_bench_median (v, n), n);

  const guint sides[] = { 0, 4096, 2048, 1024 };
  for (guint s = 0; s < G_N_ELEMENTS (sides); s++)
    {
      LmTileOptions options = { sides[s], sides[s], 0 };
      g_autofree char *label = NULL;
      n = 0;
      for (int r = 0; r < runs; r++)
        {
          double ms = run_tiled (backend, source, &pipeline, out, &options, &label, &error);
          if (ms < 0.0)
            lm_bench_die ("bench-tiled", error);
          v[n++] = ms;
        }
      printf ("tiled %-40s %.1f ms median of %d\n", label ? label : "", lm_bench_median (v, n), n);
    }
  return 0;
}
