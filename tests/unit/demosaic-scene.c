#include "demosaic-scene.h"

#include <math.h>

#include "core/image.h"
#include "core/io/io.h"
#include "test-util.h"

LmCfa
demosaic_cfa (const char *pattern)
{
  LmCfa cfa = { 2, 2, { { 0 } } };
  gboolean green = FALSE;
  for (int i = 0; i < 4; i++)
    {
      int c = pattern[i] == 'R' ? LM_CFA_R : pattern[i] == 'B' ? LM_CFA_B : LM_CFA_G;
      if (c == LM_CFA_G && green)
        c = LM_CFA_G2;
      green |= c == LM_CFA_G;
      cfa.color[i / 2][i % 2] = (unsigned char) c;
    }
  return cfa;
}

static double
srgb_eotf (double u)
{
  return u <= 0.04045 ? u / 12.92 : pow ((u + 0.055) / 1.055, 2.4);
}

float *
demosaic_scene (const char *name, int *width, int *height)
{
  g_autoptr (GError) e = NULL;
  g_autofree char *path = g_build_filename (lm_test_data_dir (), "photos", name, NULL);
  g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  if (image == NULL)
    return NULL;
  g_assert_true (image->format == LM_FORMAT_RGBA8 || image->format == LM_FORMAT_RGBA16);
  if (image->format != LM_FORMAT_RGBA8 && image->format != LM_FORMAT_RGBA16)
    return NULL;
  int w = (int) image->width / 4 * 2, h = (int) image->height / 4 * 2;
  double eotf8[256];
  for (int i = 0; i < 256; i++)
    eotf8[i] = srgb_eotf (i / 255.0);
  float *rgb = g_new (float, (gsize) w * h * 3);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 3; c++)
        {
          double sum = 0.0;
          for (int j = 0; j < 4; j++)
            {
              guint sx = 2 * x + j % 2, sy = 2 * y + j / 2;
              const guint8 *row = lm_image_row (image, sy);
              sum += image->format == LM_FORMAT_RGBA8 ? eotf8[row[4 * sx + c]]
                                                       : srgb_eotf (((const guint16 *) row)[4 * sx + c] / 65535.0);
            }
          rgb[((gsize) y * w + x) * 3 + c] = (float) (sum / 4.0);
        }
  *width = w;
  *height = h;
  return rgb;
}

float *
demosaic_mosaic (const float *rgb, int width, int height, const LmCfa *cfa)
{
  float *m = g_new (float, (gsize) width * height);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      m[(gsize) y * width + x] = rgb[((gsize) y * width + x) * 3 + lm_cfa_color (cfa, x, y)];
  return m;
}

double
demosaic_cpsnr (const float *rgba, size_t rgba_stride, const float *truth, int width, int height, int border)
{
  double se[3] = { 0.0, 0.0, 0.0 };
  gsize n = 0;
  for (int y = border; y < height - border; y++)
    for (int x = border; x < width - border; x++, n++)
      for (int c = 0; c < 3; c++)
        {
          double d = (double) rgba[(gsize) y * rgba_stride + 4 * (gsize) x + c] - truth[((gsize) y * width + x) * 3 + c];
          se[c] += d * d;
        }
  double mse = (se[0] + se[1] + se[2]) / (3.0 * (double) n);
  return 10.0 * log10 (1.0 / mse);
}
