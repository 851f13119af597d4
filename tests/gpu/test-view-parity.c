/* The colour-managed view on both backends: the view resampling through the view transform's
 * tables (core/ops/lut3d-math.h) and the histogram "as seen", CPU against CUDA, identical
 * bytes and counts, on the corpus's photos and their 16-bit versions, for transforms from
 * wide-gamut profiles to monitor profiles and for none. SKIP without a device (a second CPU
 * backend stands in with LUMEN_PARITY_SELF_TEST, to try the harness). */
#include <stdio.h>
#include <string.h>

#include "core/color/view-transform.h"
#include "core/io/monitor-profile.h"
#include "core/io/io.h"
#include "core/ops/view.h"
#include "parity-util.h"

#define COLORD "/usr/share/color/icc/colord/"

static LmBackend *cpu, *gpu;

/* IMAGE (8-bit) as 16-bit, its low bytes varied so that a view reading 8 bits of them would
 * differ: v·257 moved by up to ±100 (kept in range). */
static LmImage *
deepen (LmBackend *backend, const LmImage *image)
{
  LmFormat f = image->format == LM_FORMAT_GRAY8 ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16;
  GError *e = NULL;
  LmImage *deep = lm_image_new (f, image->width, image->height, lm_backend_host_allocator (backend), &e);
  g_assert_no_error (e);
  guint ch = lm_format_channels (image->format);
  guint32 state = 7;
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *in = lm_image_row (image, y);
      guint16 *out = (guint16 *) lm_image_row (deep, y);
      for (guint i = 0; i < image->width * ch; i++)
        {
          state = state * 1664525u + 1013904223u;
          int v = in[i] * 257 + (int) (state >> 24) % 201 - 100;
          out[i] = (guint16) CLAMP (v, 0, 65535);
        }
    }
  deep->opaque = image->opaque;
  return deep;
}

/* IMAGE's views through XF on both backends, at fit, 100 %, a zoom and an odd region, and
 * its histogram as seen: the same bytes, the same counts. */
static void
check (const char *name, const char *xf_name, LmImage *host, LmViewTransform *xf)
{
  GError *e = NULL;
  g_autoptr (LmImage) device = lm_backend_upload (gpu, host, &e);
  g_assert_no_error (e);
  double w = host->width, h = host->height;
  const LmViewRect rects[] = {
    { 0, 0, w, h, MAX (1, (int) (w / 3.7)), MAX (1, (int) (h / 3.7)) },
    { w / 7, h / 5, w / 2, h / 2, MAX (1, (int) (w / 2)), MAX (1, (int) (h / 2)) },
    { w / 3 + 0.37, h / 3 + 0.61, w / 6, h / 6, MAX (1, (int) (w / 2)), MAX (1, (int) (h / 2)) },
    { 0.5, 0.25, w - 0.75, h - 0.5, MAX (1, (int) (w / 1.37)), MAX (1, (int) (h / 2.11)) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rects); i++)
    {
      const LmViewRect *r = &rects[i];
      g_autoptr (LmImage) cpu_view = parity_poisoned (gpu, LM_FORMAT_RGBA8, r->out_w, r->out_h, PARITY_POISON_CPU);
      if (!lm_view_check (host, r, cpu_view, NULL))
        continue;
      g_assert_true (lm_backend_view_through (cpu, host, r, xf, cpu_view, &e));
      g_autoptr (LmImage) gpu_view = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, r->out_w, r->out_h);
      g_assert_true (lm_backend_view_through (gpu, device, r, xf, gpu_view, &e));
      g_assert_no_error (e);
      g_autoptr (LmImage) back = parity_download (gpu, gpu_view);
      guint64 differing = 0;
      int worst = parity_u8_distance (cpu_view, back, &differing, NULL);
      parity_record (worst == 0, "view %u of %s through %s: max|Δ| %d, %" G_GUINT64_FORMAT " pixels differ", i,
                     name, xf_name, worst, differing);
    }
  LmHistogram a, b;
  g_assert_true (lm_backend_seen_histogram (cpu, host, xf, &a, &e));
  g_assert_true (lm_backend_seen_histogram (gpu, device, xf, &b, &e));
  g_assert_no_error (e);
  gboolean same = lm_histogram_equal (&a, &b);
  parity_record (same, "histogram as seen of %s through %s %s", name, xf_name, same ? "equal" : "differs");
}

static GBytes *
profile (const char *name)
{
  /* LUMEN_ICC_DIR: where a machine without colord-data has the profiles (the GPU run's pack). */
  const char *dir = g_getenv ("LUMEN_ICC_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : COLORD, name, NULL);
  return lm_monitor_profile_load (path, NULL);
}

int
main (int argc, char **argv)
{
  int skip = parity_open ("view parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  static const char *pairs[][2] = {
    { NULL, NULL },                          /* sRGB to sRGB: no tables */
    { "AdobeRGB1998.icc", NULL },            /* to an sRGB monitor */
    { "ProPhotoRGB.icc", "AppleRGB.icc" },   /* out of gamut on a small one */
    { NULL, "AdobeRGB1998.icc" },            /* sRGB on a wide-gamut monitor */
  };
  GPtrArray *xfs = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_view_transform_unref);
  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      g_autoptr (GBytes) src = pairs[p][0] ? profile (pairs[p][0]) : NULL;
      g_autoptr (GBytes) mon = pairs[p][1] ? profile (pairs[p][1]) : NULL;
      if ((pairs[p][0] && !src) || (pairs[p][1] && !mon))
        {
          parity_fail ("colord-data's %s is not installed", pairs[p][src ? 1 : 0]);
          continue;
        }
      g_ptr_array_add (xfs, lm_view_transform_new (src, mon, LM_VIEW_LUT_GRID, NULL));
    }

  g_autofree char *dir = NULL;
  g_autoptr (GPtrArray) names = parity_data_names ("photos", "photos", &dir);
  for (guint i = 0; names && i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      GError *e = NULL;
      g_autoptr (LmImage) image = lm_io_load (path, lm_backend_host_allocator (gpu), &e);
      if (image == NULL)
        {
          parity_fail ("%s: %s", (char *) names->pdata[i], e->message);
          g_error_free (e);
          continue;
        }
      if (image->format != LM_FORMAT_RGBA8 && image->format != LM_FORMAT_GRAY8)
        continue; /* 16-bit photos come through deepen's cases */
      g_autoptr (LmImage) deep = deepen (gpu, image);
      g_autofree char *deep_name = g_strdup_printf ("%s (16-bit)", (char *) names->pdata[i]);
      for (guint x = 0; x < xfs->len; x++)
        {
          LmViewTransform *xf = xfs->pdata[x];
          g_autofree char *xf_name = g_strdup_printf ("%s → %s%s", lm_view_transform_source_name (xf),
                                                      lm_view_transform_monitor_name (xf),
                                                      lm_view_transform_lut (xf) ? "" : " (no tables)");
          check (names->pdata[i], xf_name, image, xf);
          check (deep_name, xf_name, deep, xf);
        }
      printf ("checked %s\n", (char *) names->pdata[i]);
    }
  g_ptr_array_unref (xfs);
  printf ("view parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (), parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
