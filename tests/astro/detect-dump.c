/* Runs each step of the CPU detection pipeline on a raw float32 image and writes what it
 * made, for tests/astro/test_detect_oracle.py to hold against SciPy, astropy and sep:
 *
 *   detect-dump IN.f32 WIDTH HEIGHT OUTDIR [KEY=VALUE…]
 *
 * KEY is kappa, iterations, threshold, min_area, connectivity, filter, mesh or mesh_filter
 * (LmDetectParams). OUTDIR receives stats.txt (the global clipped statistics and the label
 * counts), background.f32, noise.f32, mask.u8, labels.u32 (lm_label), labels-min.u32
 * (lm_label_min_area), sources.txt (lm_measure, one source a line) and detect.txt (lm_detect
 * on the CPU backend: the same sources, for the dispatch). Also: `clip IN.f32 N KAPPA ITERS`
 * prints lm_clip_stats of N values. */
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/astro/detect.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"

static gboolean
write_file (const char *dir, const char *name, const void *data, gsize size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (path, data, size, &error))
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

static void
print_source (GString *out, const LmSource *s)
{
  g_string_append_printf (out,
                          "%u %.17g %.17g %.17g %.17g %.17g %.9g %u %u %u %u %u %u %u "
                          "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                          s->label, s->x, s->y, s->flux, s->flux_raw, s->background, (double) s->peak,
                          s->peak_x, s->peak_y, s->area, s->xmin, s->ymin, s->xmax, s->ymax, s->x2,
                          s->y2, s->xy, s->a, s->b, s->theta, s->fwhm);
}

static gboolean
set_param (LmDetectParams *p, const char *arg)
{
  const char *eq = strchr (arg, '=');
  if (!eq)
    return FALSE;
  g_autofree char *key = g_strndup (arg, eq - arg);
  double v = g_ascii_strtod (eq + 1, NULL);
  if (!strcmp (key, "kappa"))
    p->kappa = v;
  else if (!strcmp (key, "iterations"))
    p->max_iterations = (int) v;
  else if (!strcmp (key, "threshold"))
    p->threshold = v;
  else if (!strcmp (key, "min_area"))
    p->min_area = (guint) v;
  else if (!strcmp (key, "connectivity"))
    p->connectivity = (int) v;
  else if (!strcmp (key, "filter"))
    p->filter_sigma = v;
  else if (!strcmp (key, "mesh"))
    p->mesh = (guint) v;
  else if (!strcmp (key, "mesh_filter"))
    p->mesh_filter = (guint) v;
  else
    return FALSE;
  return TRUE;
}

static int
clip_only (int argc, char **argv)
{
  gsize size;
  g_autofree char *bytes = NULL;
  if (argc != 6 || !g_file_get_contents (argv[2], &bytes, &size, NULL))
    return 2;
  gsize n = (gsize) g_ascii_strtoull (argv[3], NULL, 10);
  if (n * sizeof (float) > size)
    return 2;
  LmClipStats stats;
  if (!lm_clip_stats ((const float *) bytes, n, g_ascii_strtod (argv[4], NULL), atoi (argv[5]), &stats))
    {
      printf ("none\n");
      return 0;
    }
  printf ("%.17g %.17g %.17g %" G_GUINT64_FORMAT " %d\n", stats.mean, stats.median, stats.std,
          stats.count, stats.iterations);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc >= 2 && !strcmp (argv[1], "clip"))
    return clip_only (argc, argv);
  if (argc < 5)
    {
      g_printerr ("usage: %s IN.f32 WIDTH HEIGHT OUTDIR [KEY=VALUE…]\n", argv[0]);
      return 2;
    }
  guint width = (guint) atoi (argv[2]), height = (guint) atoi (argv[3]);
  const char *dir = argv[4];
  LmDetectParams params;
  lm_detect_params_init (&params);
  for (int i = 5; i < argc; i++)
    if (!set_param (&params, argv[i]))
      {
        g_printerr ("unknown parameter %s\n", argv[i]);
        return 2;
      }
  g_autoptr (GError) error = NULL;
  gsize size;
  g_autofree char *bytes = NULL;
  gsize n = (gsize) width * height;
  if (!g_file_get_contents (argv[1], &bytes, &size, &error) || size != n * sizeof (float))
    {
      g_printerr ("%s: not %u × %u float32\n", argv[1], width, height);
      return 1;
    }
  const float *data = (const float *) bytes;

  g_autofree float *background = g_new (float, n);
  g_autofree float *noise = g_new (float, n);
  g_autofree guint8 *mask = g_new (guint8, n);
  g_autofree guint32 *labels = g_new (guint32, n);
  LmClipStats global;
  if (!lm_background_map (data, width, height, &params, background, noise, &global, &error)
      || !lm_segment (data, background, noise, width, height, params.threshold, params.filter_sigma,
                      mask, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  guint n_labels = lm_label (mask, width, height, params.connectivity, labels);
  if (!write_file (dir, "labels.u32", labels, n * 4))
    return 1;
  guint kept = lm_label_min_area (labels, width, height, n_labels, params.min_area);
  g_autofree LmSource *sources = g_new (LmSource, MAX (kept, 1));
  lm_measure (data, background, labels, width, height, kept, sources);

  g_autoptr (GString) stats = g_string_new (NULL);
  g_string_append_printf (stats, "%.17g %.17g %.17g %" G_GUINT64_FORMAT " %d %u %u\n", global.mean,
                          global.median, global.std, global.count, global.iterations, n_labels, kept);
  g_autoptr (GString) lines = g_string_new (NULL);
  for (guint i = 0; i < kept; i++)
    print_source (lines, &sources[i]);

  /* The whole pipeline through lm_detect, from an image with padded rows. */
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) image = lm_image_new (LM_FORMAT_GRAY_F32, width, height, lm_allocator_host (), &error);
  if (!image)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (guint y = 0; y < height; y++)
    memcpy (lm_image_row (image, y), data + (gsize) y * width, width * sizeof (float));
  g_autoptr (LmDetectResult) result = lm_detect (backend, image, &params, NULL, &error);
  if (!result)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_autoptr (GString) detected = g_string_new (NULL);
  for (guint i = 0; i < result->n_sources; i++)
    print_source (detected, &result->sources[i]);
  gboolean same = result->n_sources == kept && memcmp (result->labels, labels, n * 4) == 0;

  if (!write_file (dir, "stats.txt", stats->str, stats->len)
      || !write_file (dir, "background.f32", background, n * 4)
      || !write_file (dir, "noise.f32", noise, n * 4) || !write_file (dir, "mask.u8", mask, n)
      || !write_file (dir, "labels-min.u32", labels, n * 4)
      || !write_file (dir, "sources.txt", lines->str, lines->len)
      || !write_file (dir, "detect.txt", detected->str, detected->len))
    return 1;
  if (!same)
    {
      g_printerr ("lm_detect's labels differ from the steps'\n");
      return 1;
    }
  g_printerr ("timings: background %.1f segment %.1f label %.1f measure %.1f total %.1f ms\n",
              result->timings.background, result->timings.segment, result->timings.label,
              result->timings.measure, result->timings.total);
  return 0;
}
