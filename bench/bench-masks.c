/* A masked instance's mask on a backend, step by step (core/ops/mask.h): the drawn plane of a
 * gradient and a brush stroke, the final mask without and with a feather, and the blend, at
 * the sizes given, the median of REPEAT runs of each (wall time, the host's part included). What a slider of an instance before a
 * masked one costs it (its final mask is recomputed) is "final, feathered" + "blend".
 *   bench-masks [--backend cuda] [--repeat N] [--feather F] WxH... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/ops/mask.h"

static LmMaskStrokeHead head = { 0, 0.03f, 0.5f, 1.0f, 200 };
static float points[400];

static gboolean
stroke_of (uint64_t list, guint index, const LmMaskStrokeHead **h, const float **p, gpointer user, GError **error)
{
  *h = index == 0 ? &head : NULL;
  *p = points;
  return TRUE;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

typedef gboolean (*Step) (LmBackend *b, LmMaskFlat *flat, LmImage *in, LmImage *drawn, LmImage *out, GError **e);

static gboolean
step_drawn (LmBackend *b, LmMaskFlat *flat, LmImage *in, LmImage *drawn, LmImage *out, GError **e)
{
  return lm_backend_mask_drawn (b, flat, NULL, drawn, e);
}

static gboolean
step_final (LmBackend *b, LmMaskFlat *flat, LmImage *in, LmImage *drawn, LmImage *out, GError **e)
{
  return lm_backend_mask (b, flat, NULL, in, drawn, out, e);
}

static gboolean
step_blend (LmBackend *b, LmMaskFlat *flat, LmImage *in, LmImage *drawn, LmImage *out, GError **e)
{
  return lm_backend_blend_mask (b, in, in, out, in, e);
}

static double
median_ms (LmBackend *b, Step step, LmMaskFlat *flat, LmImage *in, LmImage *drawn, LmImage *out, int repeat)
{
  double *ms = g_new (double, repeat);
  for (int i = -1; i < repeat; i++)
    {
      GError *e = NULL;
      /* Wall time, the host's part included: what a render waits for. */
      gint64 t0 = g_get_monotonic_time ();
      if (!step (b, flat, in, drawn, out, &e) || !lm_backend_synchronize (b, &e))
        {
          fprintf (stderr, "bench-masks: %s\n", e->message);
          exit (1);
        }
      if (i >= 0)
        ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (ms, repeat, sizeof *ms, by_value);
  double m = ms[repeat / 2];
  g_free (ms);
  return m;
}

int
main (int argc, char **argv)
{
  const char *backend_name = "cpu";
  int repeat = 10;
  double feather = 0.01;
  GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend_name, "cpu or cuda", "B" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "runs of each step", "N" },
    { "feather", 0, 0, G_OPTION_ARG_DOUBLE, &feather, "the feather, a fraction of the long side", "F" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("WxH...");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  LmBackendKind kind;
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || !lm_backend_kind_parse (backend_name, &kind)
      || argc < 2 || repeat < 1)
    {
      fprintf (stderr, "bench-masks: %s\n", error ? error->message : "give --backend cpu|cuda and sizes WxH");
      return 2;
    }
  g_autoptr (LmBackend) b = lm_backend_new (kind, &error);
  if (b == NULL)
    {
      fprintf (stderr, "bench-masks: %s\n", error->message);
      return 1;
    }
  for (int i = 0; i < 200; i++)
    points[2 * i] = 0.05f + 0.9f * i / 199, points[2 * i + 1] = 0.3f + 0.1f * sinf (i / 20.0f);
  printf ("# %s, feather %.3f of the long side, median of %d\n", b->klass->name, feather, repeat);
  printf ("%-12s %9s %9s %9s %9s %9s\n", "size", "drawn", "final", "feathered", "blend", "radius");
  for (int a = 1; a < argc; a++)
    {
      guint w, h;
      if (sscanf (argv[a], "%ux%u", &w, &h) != 2 || w == 0 || h == 0)
        return 2;
      LmMask mask = { .n_shapes = 2, .opacity = 1.0f, .detail = 0.1f };
      mask.shape[0] = (LmMaskShape) { .kind = LM_MASK_LINEAR, .opacity = 1, .g = { 0.5f, 0.05f, 0.5f, 0.4f } };
      mask.shape[1] = (LmMaskShape) { .kind = LM_MASK_BRUSH, .opacity = 1, .strokes = 1 };
      g_autoptr (LmImage) host = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_backend_host_allocator (b), &error);
      for (guint y = 0; host && y < h; y++)
        for (guint x = 0; x < w * 4; x++)
          lm_image_row (host, y)[x] = (guint8) (x * 7 + y * 13);
      g_autoptr (LmImage) in = host ? lm_backend_upload (b, host, &error) : NULL;
      g_autoptr (LmImage) drawn = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_backend_work_allocator (b), &error);
      g_autoptr (LmImage) out = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_backend_work_allocator (b), &error);
      LmMaskFrame frame = lm_mask_frame_source (w, h);
      g_autoptr (LmMaskFlat) plain = lm_mask_flatten (&mask, FALSE, stroke_of, NULL, &error);
      mask.feather = (float) feather;
      g_autoptr (LmMaskFlat) soft = lm_mask_flatten (&mask, FALSE, stroke_of, NULL, &error);
      if (in == NULL || drawn == NULL || out == NULL || plain == NULL || soft == NULL
          || !lm_mask_flat_place (plain, &frame, w, h, TRUE, &error) || !lm_mask_flat_place (soft, &frame, w, h, TRUE, &error))
        {
          fprintf (stderr, "bench-masks: %s\n", error ? error->message : "no memory");
          return 1;
        }
      double d = median_ms (b, step_drawn, plain, in, drawn, out, repeat);
      double f = median_ms (b, step_final, plain, in, drawn, out, repeat);
      double s = median_ms (b, step_final, soft, in, drawn, out, repeat);
      double bl = median_ms (b, step_blend, plain, in, drawn, out, repeat);
      printf ("%-12s %9.2f %9.2f %9.2f %9.2f %9d\n", argv[a], d, f, s, bl, lm_mask_flat_render (soft)->radius);
    }
  return 0;
}
