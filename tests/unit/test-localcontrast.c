/* Local contrast (core/ops/localcontrast.c), CPU reference, against known answers:
 * - clarity 0 is the identity within rounding, and a flat image stays flat at any clarity, on
 *   8- and 16-bit RGBA (alpha kept bit for bit), gray and scene light (RGBA_F32);
 * - a hard 3 EV step gets no halo: the output stays within the input's range but for
 *   LM_TEST_HALO_EV (measured 0.0425 EV; an unsharp mask of the same effect overshoots by
 *   over 1 EV), while a texture of ±0.1 EV beside it grows by at least 1.6× at clarity 1
 *   (measured 1.64) and shrinks to at most half at −1 (0.45), so the bound is not met by
 *   doing nothing;
 * - outputs are poisoned (lm_test_run_op: two byte patterns; scene light: NaN), on photos'
 *   sizes and down to one pixel;
 * - a tiled render equals the whole one byte for byte;
 * - parameters out of range and formats it cannot take are refused in one line.
 * Sources are encoded with the sRGB curve written out here in double, not the code's. The
 * NumPy definition followed line by line is tests/oracle/test_localcontrast.py; CPU against
 * CUDA, tests/gpu/test-parity.c. */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/ops/ops.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "test-util.h"

/* The bound stated in docs/user-guide.md: overshoot past a hard edge's two sides. */
#define LM_TEST_HALO_EV 0.05

static LmLocalcontrastParams
params (float amount, float range, float radius)
{
  LmLocalcontrastParams p;
  lm_op_params_init (&lm_localcontrast_op, &p);
  p.amount = amount, p.range = range, p.radius = radius;
  return p;
}

/* Channel C of pixel (X, Y) in linear light (floats as they are). */
static double
linear_at (const LmImage *image, guint x, guint y, guint c)
{
  guint ch = lm_format_channels (image->format);
  const guint8 *row = lm_image_row (image, y);
  switch (lm_format_depth (image->format))
    {
    case 32: return ((const float *) row)[x * ch + c];
    case 16: return lm_test_srgb_decode (((const guint16 *) row)[x * ch + c] / 65535.0);
    default: return lm_test_srgb_decode (row[x * ch + c] / 255.0);
    }
}

/* An image of FORMAT whose pixel (x, y) has the linear grey LIGHT (x, y) and alpha 40 + x. */
static LmImage *
grey_image (LmFormat format, guint w, guint h, double (*light) (guint x, guint y))
{
  LmImage *image = lm_test_image_new (format, w, h, 0x5a);
  guint ch = lm_format_channels (format);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint c = 0; c < ch; c++)
        {
          double l = light (x, y), e = lm_test_srgb_encode (l);
          gboolean alpha = c == 3;
          guint8 *row = lm_image_row (image, y);
          if (format == LM_FORMAT_RGBA_F32)
            ((float *) row)[x * ch + c] = alpha ? 1.0f : (float) l;
          else if (lm_format_depth (format) == 16)
            ((guint16 *) row)[x * ch + c] = alpha ? (guint16) (257 * (40 + x % 200)) : (guint16) lround (e * 65535.0);
          else
            row[x * ch + c] = alpha ? (guint8) (40 + x % 200) : (guint8) lround (e * 255.0);
        }
  image->opaque = ch == 1 || format == LM_FORMAT_RGBA_F32;
  return image;
}

/* The run through the registration, outputs poisoned; floats also into a NaN-poisoned output. */
static LmImage *
run (const LmLocalcontrastParams *p, const LmImage *src)
{
  LmImage *out = lm_test_run_op (&lm_localcontrast_op, p, src);
  if (src->format == LM_FORMAT_RGBA_F32)
    {
      g_autoptr (LmImage) nan = lm_test_image_new (src->format, src->width, src->height, 0xff);
      g_autoptr (GError) error = NULL;
      g_assert_true (lm_localcontrast_op.run_cpu (p, src, nan, &error));
      g_assert_no_error (error);
      for (guint y = 0; y < src->height; y++)
        for (guint i = 0; i < src->width * 4; i++)
          g_assert_false (isnan (((const float *) lm_image_row (nan, y))[i]));
    }
  return out;
}

/* The largest difference of OUT from SRC in the units of SRC's depth (u8, u16 levels, or
 * relative for floats), failing if an alpha sample changed at all. */
static double
largest_change (const LmImage *src, const LmImage *out)
{
  guint ch = lm_format_channels (src->format), depth = lm_format_depth (src->format);
  double most = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      for (guint c = 0; c < ch; c++)
        {
          const guint8 *a = lm_image_row (src, y), *b = lm_image_row (out, y);
          gsize i = (gsize) x * ch + c;
          double d = depth == 32 ? fabs (((const float *) b)[i] / ((const float *) a)[i] - 1.0)
                   : depth == 16 ? fabs ((double) ((const guint16 *) b)[i] - ((const guint16 *) a)[i])
                                 : fabs ((double) b[i] - a[i]);
          if (c == 3)
            g_assert_cmpfloat (d, ==, 0);
          most = MAX (most, d);
        }
  return most;
}

static double
noise_light (guint x, guint y)
{
  /* reproducible, 0.001 .. 1 (10 EV), with structure at every scale */
  guint32 v = (x * 2654435761u) ^ (y * 40503u + (x / 16) * 97u + (y / 16) * 131u);
  return 0.001 * pow (1000.0, (v % 10007) / 10006.0);
}

static double
flat_light (guint x, guint y)
{
  return 0.18;
}

static void
test_identity (void)
{
  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_GRAY8, LM_FORMAT_GRAY16,
                               LM_FORMAT_RGBA_F32 };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) src = grey_image (formats[f], 67, 45, noise_light);
      LmLocalcontrastParams p = params (0.0f, 1.0f, 16.0f);
      g_autoptr (LmImage) out = run (&p, src);
      double d = largest_change (src, out);
      g_test_message ("%s, clarity 0: largest change %g", lm_format_name (formats[f]), d);
      g_assert_cmpfloat (d, <=, formats[f] == LM_FORMAT_RGBA_F32 ? 1e-5 : 1.0);

      g_autoptr (LmImage) flat = grey_image (formats[f], 40, 33, flat_light);
      p = params (1.0f, 0.5f, 64.0f);
      g_autoptr (LmImage) flat_out = run (&p, flat);
      d = largest_change (flat, flat_out);
      g_assert_cmpfloat (d, <=, formats[f] == LM_FORMAT_RGBA_F32 ? 1e-5 : 1.0);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* The step: 0.1 to the left of column 128, 0.8 from it on (3 EV). */
static double
step_light (guint x, guint y)
{
  return x < 128 ? 0.1 : 0.8;
}

/* The same step, each side with a ±0.1 EV square-wave texture of period 6 columns. */
static double
textured_step_light (guint x, guint y)
{
  return step_light (x, y) * exp2 ((x / 3) % 2 ? 0.1 : -0.1);
}

/* Of row Y of OUT (grey), the log2 of the largest and smallest light over columns A..B−1. */
static void
log_range (const LmImage *out, guint y, guint a, guint b, double *lo, double *hi)
{
  *lo = INFINITY, *hi = -INFINITY;
  for (guint x = a; x < b; x++)
    {
      double v = log2 (MAX (linear_at (out, x, y, 0), 1e-9));
      *lo = MIN (*lo, v), *hi = MAX (*hi, v);
    }
}

static void
test_halo (void)
{
  const LmFormat formats[] = { LM_FORMAT_RGBA16, LM_FORMAT_RGBA_F32 };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) src = grey_image (formats[f], 256, 64, step_light);
      LmLocalcontrastParams p = params (1.0f, 1.0f, 64.0f);
      g_autoptr (LmImage) out = run (&p, src);
      double lo, hi;
      log_range (out, 32, 0, 256, &lo, &hi);
      double over = MAX (hi - log2 (0.8), log2 (0.1) - lo);
      g_test_message ("%s: overshoot at a 3 EV step, clarity 1: %.4f EV", lm_format_name (formats[f]), over);
      g_assert_cmpfloat (over, <=, LM_TEST_HALO_EV);

      /* the texture, away from the edge and the borders */
      g_autoptr (LmImage) tex = grey_image (formats[f], 256, 64, textured_step_light);
      const float amounts[] = { 1.0f, -1.0f };
      for (guint a = 0; a < 2; a++)
        {
          p = params (amounts[a], 1.0f, 64.0f);
          g_autoptr (LmImage) tex_out = run (&p, tex);
          double llo, lhi, rlo, rhi;
          log_range (tex_out, 32, 60, 90, &llo, &lhi);
          log_range (tex_out, 32, 170, 200, &rlo, &rhi);
          double gain = MIN (lhi - llo, rhi - rlo) / 0.2, most = MAX (lhi - llo, rhi - rlo) / 0.2;
          g_test_message ("%s: texture x%.3f..%.3f at clarity %g", lm_format_name (formats[f]), gain, most,
                          amounts[a]);
          if (amounts[a] > 0)
            g_assert_cmpfloat (gain, >=, 1.6);
          else
            g_assert_cmpfloat (most, <=, 0.5);
        }
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Images down to one pixel, whose levels all have one sample: every pixel written, the same
 * on each run (lm_test_run_op), nothing read outside (the sanitizers' build). */
static void
test_tiny (void)
{
  const guint sizes[][2] = { { 1, 1 }, { 1, 5 }, { 7, 1 }, { 2, 2 }, { 3, 9 } };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr (LmImage) src = grey_image (LM_FORMAT_RGBA8, sizes[s][0], sizes[s][1], noise_light);
      LmLocalcontrastParams p = params (1.0f, 0.5f, 512.0f);
      g_autoptr (LmImage) out = run (&p, src);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

static double
gentle_light (guint x, guint y)
{
  return 0.2 + 0.1 * (((x * 7 + y * 13) % 17) / 17.0) + (x > 600 ? 0.3 : 0.0);
}

/* A megapixel, where the passes run on threads: the same bytes as on one. */
static void
test_threads (void)
{
  g_autoptr (LmImage) src = grey_image (LM_FORMAT_GRAY8, 1024, 1024, gentle_light);
  LmLocalcontrastParams p = params (1.0f, 4.0f, 16.0f);
  int threads = omp_get_max_threads ();
  omp_set_num_threads (1);
  g_autoptr (LmImage) one = run (&p, src);
  omp_set_num_threads (MAX (threads, 2));
  g_autoptr (LmImage) many = run (&p, src);
  omp_set_num_threads (threads);
  lm_test_assert_same_pixels (one, many);
  g_assert_cmpfloat (largest_change (src, one), >=, 2);
}

/* Tiles of a photo against the whole, byte for byte: the halo and the grid's alignment. */
static void
test_tiled (void)
{
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) full = lm_test_load_photo ("chelsea.png");
  g_autoptr (LmImage) photo = lm_test_crop (full, 100, 80, 150, 110);
  g_autoptr (GError) error = NULL;

  LmPipeline p;
  lm_pipeline_init (&p);
  lm_test_set_param (&p, "localcontrast", "amount", "0.8");
  lm_test_set_param (&p, "localcontrast", "radius", "8");
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, photo);
  g_autoptr (LmImage) whole = lm_render_cache_run (cache, &p, NULL, &error);
  g_assert_no_error (error);

  const guint sizes[][2] = { { 37, 53 }, { 64, 64 } };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr (LmImage) out = lm_test_image_new (whole->format, whole->width, whole->height, 0xa5);
      LmTileOptions options = { sizes[s][0], sizes[s][1], 1 };
      LmTimings timings;
      lm_timings_init (&timings);
      g_assert_true (lm_render_tiled (cpu, photo, &p, NULL, NULL, out, &options, &timings, &error));
      g_assert_no_error (error);
      lm_timings_clear (&timings);
      lm_test_assert_same_pixels (whole, out);
    }
  /* and the op did something */
  g_assert_cmpfloat (largest_change (photo, whole), >=, 3);
}

static void
test_refused (void)
{
  LmLocalcontrastParams p = params (0.3f, 1.0f, 64.0f);
  const char *bad[][2] = { { "amount", "1.5" }, { "range", "0" }, { "radius", "100000" }, { "amount", "nan" } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    for (guint k = 0; k < lm_localcontrast_op.n_params; k++)
      if (g_str_equal (lm_localcontrast_op.params[k].name, bad[i][0]))
        {
          g_autoptr (GError) error = NULL;
          g_assert_false (lm_op_param_parse (&lm_localcontrast_op, &lm_localcontrast_op.params[k], &p, bad[i][1],
                                             &error));
          g_assert_nonnull (error);
          g_assert_null (strchr (error->message, '\n'));
        }

  g_autoptr (LmImage) rgbe = lm_test_image_new (LM_FORMAT_RGBE8, 8, 8, 0);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBE8, 8, 8, 0);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_localcontrast_op.run_cpu (&p, rgbe, out, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/localcontrast/identity", test_identity);
  g_test_add_func ("/localcontrast/halo", test_halo);
  g_test_add_func ("/localcontrast/tiny", test_tiny);
  g_test_add_func ("/localcontrast/threads", test_threads);
  g_test_add_func ("/localcontrast/tiled", test_tiled);
  g_test_add_func ("/localcontrast/refused", test_refused);
  return g_test_run ();
}
