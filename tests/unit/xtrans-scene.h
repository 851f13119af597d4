/* Scenes with a known truth for the X-Trans demosaic's tests (test-demosaic-xtrans.c and
 * tests/gpu/test-xtrans-parity.c): the corpus's photos as linear camera RGB, and their
 * mosaics through Fujifilm X-Pro1's pattern (tests/raw/dng.py's XTRANS), rolled to any phase. */
#pragma once

#include <glib.h>
#include <math.h>

#include "core/image.h"
#include "core/io/io.h"
#include "core/ops/cfa-math.h"

static const unsigned char xt_xpro1[6][6] = {
  { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
  { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 },
};

/* The X-Pro1 pattern rolled so that site (x, y) has the colour of the original's
 * (x + DX, y + DY). */
static inline LmCfa
xt_cfa_rolled (int dx, int dy)
{
  LmCfa cfa = { .w = 6, .h = 6 };
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 6; x++)
      cfa.color[y][x] = xt_xpro1[(y + dy) % 6][(x + dx) % 6];
  return cfa;
}

/* WIDTH × HEIGHT × 3 floats sampled through CFA: each site keeps its filter's colour. */
static inline float *
xt_mosaic (const float *rgb, int width, int height, const LmCfa *cfa)
{
  float *plane = g_new (float, (gsize) width * height);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      plane[(gsize) y * width + x] = rgb[((gsize) y * width + x) * 3 + lm_cfa_color (cfa, x, y)];
  return plane;
}

static inline double
xt_srgb_eotf (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

/* Photo NAME of $LUMEN_TEST_DATA/photos as linear RGB (sRGB's EOTF), box-downscaled 2× (so
 * that its own demosaic and compression leave no trace), then its central MAX_SIDE ×
 * MAX_SIDE at most: *WIDTH × *HEIGHT × 3 floats, NULL (with the test failed) if unreadable. */
static inline float *
xt_scene_load (const char *name, int max_side, int *width, int *height)
{
  g_autofree char *path = g_build_filename (g_getenv ("LUMEN_TEST_DATA"), "photos", name, NULL);
  GError *error = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &error);
  if (image == NULL)
    {
      g_test_message ("%s: %s", path, error->message);
      g_test_fail ();
      g_clear_error (&error);
      return NULL;
    }
  int fw = (int) image->width / 2, fh = (int) image->height / 2;
  int w = MIN (fw, max_side), h = MIN (fh, max_side), ox = (fw - w) / 2, oy = (fh - h) / 2;
  float *rgb = g_new (float, (gsize) w * h * 3);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 3; c++)
        {
          double sum = 0.0;
          for (int v = 0; v < 2; v++)
            for (int u = 0; u < 2; u++)
              {
                guint sx = (guint) (2 * (ox + x) + u), sy = (guint) (2 * (oy + y) + v);
                const guint8 *row = lm_image_row (image, sy);
                double s = image->format == LM_FORMAT_RGBA16 ? ((const guint16 *) row)[sx * 4 + c] / 65535.0
                                                             : row[sx * 4 + c] / 255.0;
                sum += xt_srgb_eotf (s);
              }
          rgb[((gsize) y * w + x) * 3 + c] = (float) (sum / 4.0);
        }
  lm_image_unref (image);
  *width = w, *height = h;
  return rgb;
}
