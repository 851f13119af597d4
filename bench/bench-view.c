/* bench-view: the colour-managed view's cost on a backend, on a synthetic image.
 *
 *   bench-view [--backend cpu|cuda] [--repeat N] [--size WxH] [--json FILE]
 *
 * Per case, the median of N warm runs (CUDA events around the kernels on the GPU, the host
 * clock on the CPU), inputs rotating among three copies: the view resampling of the whole
 * image at fit (into 2560×1440 at most) and of a 2560×1440 region at 100 %, each without a
 * view transform (sRGB on sRGB) and through Adobe RGB → sRGB's tables (core/color), on
 * 8-bit and 16-bit sources; and the histogram "as seen" of the full image with and without
 * tables. Default size 8660×5773 (50 MP). Not a test: figures go to bench/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "core/backend/backend.h"
#include "core/color/view-transform.h"
#include "core/io/monitor-profile.h"

#include "bench-util.h"

#define N_COPIES 3

static const char *program = "bench-view";

/* A photo-like gradient with noise, FORMAT (RGBA8 or RGBA16), in BACKEND's work memory. */
static LmImage *
synthetic (LmBackend *backend, LmFormat format, guint w, guint h, guint32 seed)
{
  GError *e = NULL;
  g_autoptr (LmImage) host = lm_image_new (format, w, h, lm_backend_host_allocator (backend), &e);
  if (host == NULL)
    lm_bench_die (program, e);
  guint32 s = seed;
  for (guint y = 0; y < h; y++)
    {
      guint8 *row = lm_image_row (host, y);
      for (guint x = 0; x < w; x++)
        {
          s = s * 1664525u + 1013904223u;
          guint v[4] = { (x * 65535u / w + (s >> 24)) & 0xffff, (y * 65535u / h) & 0xffff,
                         ((x + y) * 32767u / (w + h) + (s >> 20)) & 0xffff, 0xffff };
          for (int c = 0; c < 4; c++)
            if (format == LM_FORMAT_RGBA16)
              ((guint16 *) row)[x * 4 + c] = (guint16) v[c];
            else
              row[x * 4 + c] = (guint8) (v[c] >> 8);
        }
    }
  host->opaque = TRUE;
  LmImage *work = lm_backend_upload (backend, host, &e);
  if (work == NULL)
    lm_bench_die (program, e);
  return work;
}

typedef gboolean (*Step) (LmBackend *b, LmImage *src, gpointer data, GError **error);

typedef struct {
  LmViewRect rect;
  LmViewTransform *xf;
  LmImage *out;
} ViewCase;

static gboolean
view_step (LmBackend *b, LmImage *src, gpointer data, GError **error)
{
  ViewCase *v = data;
  return lm_backend_view_through (b, src, &v->rect, v->xf, v->out, error);
}

static gboolean
histogram_step (LmBackend *b, LmImage *src, gpointer data, GError **error)
{
  LmHistogram hist;
  return lm_backend_seen_histogram (b, src, data, &hist, error);
}

static double
time_step (LmBackend *backend, Step step, gpointer data, LmImage **inputs, int repeat)
{
  GError *e = NULL;
  g_autofree double *ms = g_new (double, repeat);
  for (int r = -N_COPIES; r < repeat; r++)
    {
      LmMark a, b;
      lm_backend_mark (backend, &a);
      if (!step (backend, inputs[(r + N_COPIES) % N_COPIES], data, &e))
        lm_bench_die (program, e);
      lm_backend_mark (backend, &b);
      if (!lm_backend_synchronize (backend, &e))
        lm_bench_die (program, e);
      if (r >= 0)
        ms[r] = lm_backend_elapsed_ms (backend, &a, &b);
    }
  return lm_bench_median (ms, repeat);
}

int
main (int argc, char **argv)
{
  const char *backend_arg = "cuda", *json_path = NULL, *size = "8660x5773";
  int repeat = 30;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend_arg, "cpu or cuda", "NAME" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "timed runs per case (median)", "N" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "image size", "WxH" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "write the figures here", "FILE" },
    { NULL },
  };
  GError *e = NULL;
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_option_context_add_main_entries (context, entries, NULL);
  guint w = 0, h = 0;
  LmBackendKind kind;
  if (!g_option_context_parse (context, &argc, &argv, &e) || argc != 1 || repeat < 1
      || sscanf (size, "%ux%u", &w, &h) != 2 || w < 64 || h < 64 || !lm_backend_kind_parse (backend_arg, &kind))
    {
      fprintf (stderr, "usage: bench-view [--backend cpu|cuda] [--repeat N] [--size WxH] [--json FILE]\n");
      return 2;
    }
  g_autoptr (LmBackend) backend = lm_backend_new (kind, &e);
  if (backend == NULL)
    lm_bench_die (program, e);

  /* LUMEN_ICC_DIR: where a machine without colord-data has the profiles (the GPU run's pack). */
  const char *icc_dir = g_getenv ("LUMEN_ICC_DIR");
  g_autofree char *adobe_path = g_build_filename (icc_dir ? icc_dir : "/usr/share/color/icc/colord",
                                                  "AdobeRGB1998.icc", NULL);
  g_autoptr (GBytes) adobe = lm_monitor_profile_load (adobe_path, &e);
  if (adobe == NULL)
    lm_bench_die (program, e);
  g_autoptr (LmViewTransform) none = lm_view_transform_new (NULL, NULL, LM_VIEW_LUT_GRID, &e);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (LmViewTransform) xf = lm_view_transform_new (adobe, NULL, LM_VIEW_LUT_GRID, &e);
  double build_ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (xf == NULL || none == NULL)
    lm_bench_die (program, e);
  printf ("%s, %u×%u (%.1f MP); the tables of Adobe RGB → sRGB made in %.1f ms on the host (%.3f levels from lcms2)\n",
          backend->description, w, h, w * (double) h / 1e6, build_ms, lm_view_transform_error (xf));

  g_autoptr (GString) json = lm_bench_json_new ();
  static const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16 };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      LmImage *inputs[N_COPIES];
      for (int i = 0; i < N_COPIES; i++)
        inputs[i] = synthetic (backend, formats[f], w, h, 17 + i);
      const char *depth = formats[f] == LM_FORMAT_RGBA16 ? "16-bit" : "8-bit";
      double fit = MIN (1.0, MIN (2560.0 / w, 1440.0 / h));
      int fit_w = MAX (1, (int) (w * fit)), fit_h = MAX (1, (int) (h * fit));
      int vw = MIN (2560, (int) w), vh = MIN (1440, (int) h);
      const struct {
        const char *name;
        LmViewRect rect;
      } rects[] = {
        { "fit", { 0, 0, w, h, fit_w, fit_h } },
        { "100%", { (w - vw) / 2.0, (h - vh) / 2.0, vw, vh, vw, vh } },
      };
      for (guint r = 0; r < G_N_ELEMENTS (rects); r++)
        for (int with = 0; with < 2; with++)
          {
            ViewCase v = { rects[r].rect, with ? xf : none, NULL };
            v.out = lm_image_new (LM_FORMAT_RGBA8, v.rect.out_w, v.rect.out_h, lm_backend_work_allocator (backend), &e);
            if (v.out == NULL)
              lm_bench_die (program, e);
            double ms = time_step (backend, view_step, &v, inputs, repeat);
            g_autofree char *name = g_strdup_printf ("view %s %s %s", rects[r].name, depth, with ? "through tables" : "plain");
            printf ("%-36s %9.3f ms  (%d×%d out)\n", name, ms, v.rect.out_w, v.rect.out_h);
            lm_bench_json_add (json, "\"case\": \"%s\", \"backend\": \"%s\", \"ms\": %.4f, \"width\": %u, \"height\": %u",
                               name, lm_backend_name (backend), ms, w, h);
            lm_image_unref (v.out);
          }
      for (int with = 0; with < 2; with++)
        {
          double ms = time_step (backend, histogram_step, with ? xf : none, inputs, repeat);
          g_autofree char *name = g_strdup_printf ("histogram as seen %s %s", depth, with ? "through tables" : "plain");
          printf ("%-36s %9.3f ms\n", name, ms);
          lm_bench_json_add (json, "\"case\": \"%s\", \"backend\": \"%s\", \"ms\": %.4f, \"width\": %u, \"height\": %u",
                             name, lm_backend_name (backend), ms, w, h);
        }
      for (int i = 0; i < N_COPIES; i++)
        lm_image_unref (inputs[i]);
    }
  if (!lm_bench_json_finish (json, json_path, &e))
    lm_bench_die (program, e);
  return 0;
}
