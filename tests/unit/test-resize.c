/* Resize: the output size rules (fit, exact, one side 0, both 0), a constant image stays
 * constant, a ramp stays a ramp away from the edges, an exact shrink by 2 or 4 is each
 * cell's mean rounded half up, each axis's weights sum to 1 over pixels inside the image,
 * and alpha of an opaque image stays 255; the CPU's row passes give the bytes of resize-math.h's plain sums. */
#include <math.h>
#include <string.h>

#include "core/ops/ops.h"
#include "test-util.h"

static void
assert_size (float w, float h, int mode, guint iw, guint ih, guint want_w, guint want_h)
{
  LmResizeParams p = { w, h, mode };
  guint ow, oh;
  lm_op_output_size (&lm_resize_op, &p, iw, ih, &ow, &oh);
  g_test_message ("%gx%g %s on %u × %u: %u × %u", w, h, mode ? "exact" : "fit", iw, ih, ow, oh);
  g_assert_cmpuint (ow, ==, want_w);
  g_assert_cmpuint (oh, ==, want_h);
}

static void
test_sizes (void)
{
  assert_size (0, 0, LM_RESIZE_FIT, 400, 300, 400, 300);     /* no change */
  assert_size (200, 0, LM_RESIZE_FIT, 400, 300, 200, 150);   /* height from the aspect */
  assert_size (0, 100, LM_RESIZE_FIT, 400, 300, 133, 100);   /* 133.3 */
  assert_size (0, 100, LM_RESIZE_EXACT, 400, 300, 133, 100); /* one side: the mode does not matter */
  assert_size (200, 200, LM_RESIZE_FIT, 400, 300, 200, 150); /* the width binds */
  assert_size (1000, 100, LM_RESIZE_FIT, 400, 300, 133, 100); /* the height binds */
  assert_size (200, 200, LM_RESIZE_EXACT, 400, 300, 200, 200);
  assert_size (800, 900, LM_RESIZE_FIT, 400, 300, 800, 600); /* fit enlarges too */
  assert_size (3, 1, LM_RESIZE_FIT, 400, 300, 1, 1);         /* never below one pixel */
  assert_size (199.6f, 0, LM_RESIZE_FIT, 400, 300, 200, 150); /* whole pixels, rounded */
  assert_size (1, 0, LM_RESIZE_FIT, 4000, 10, 1, 1);
}

static LmImage *
run (guint ow, guint oh, const LmImage *src)
{
  LmResizeParams p = { (float) ow, (float) oh, LM_RESIZE_EXACT };
  LmImage *out = lm_test_run_op (&lm_resize_op, &p, src);
  g_assert_cmpuint (out->width, ==, ow);
  g_assert_cmpuint (out->height, ==, oh);
  return out;
}

/* Lanczos up and down, area, and one axis each. */
static const guint constant_sizes[][2] = { { 150, 90 }, { 77, 53 }, { 33, 20 }, { 7, 111 }, { 250, 13 }, { 1, 1 } };

static void
test_constant (void)
{
  g_autoptr (LmImage) rgba = lm_test_image_new (LM_FORMAT_RGBA8, 100, 60, 0);
  for (guint y = 0; y < 60; y++)
    for (guint x = 0; x < 100; x++)
      memcpy (lm_test_pixel (rgba, x, y), ((guint8[]) { 3, 128, 252, 255 }), 4);
  rgba->opaque = TRUE;
  g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY8, 100, 60, 77);
  for (guint i = 0; i < G_N_ELEMENTS (constant_sizes); i++)
    {
      g_autoptr (LmImage) out = run (constant_sizes[i][0], constant_sizes[i][1], rgba);
      g_autoptr (LmImage) gout = run (constant_sizes[i][0], constant_sizes[i][1], gray);
      g_assert_true (gout->format == LM_FORMAT_GRAY8);
      for (guint y = 0; y < out->height; y++)
        for (guint x = 0; x < out->width; x++)
          {
            g_assert_cmpmem (lm_test_pixel (out, x, y), 4, ((guint8[]) { 3, 128, 252, 255 }), 4);
            g_assert_cmpuint (*lm_test_pixel (gout, x, y), ==, 77);
          }
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* v = x on 200 columns: output column i covers source centre c = (i + 0.5) · 200 / ow - 0.5,
 * so a linear filter must give c there. Lanczos-3 is not exactly linear-preserving (its
 * normalised taps reproduce a line within a small fraction of a level), area averaging is:
 * within 0.5 + 0.01 of c after rounding, away from the edges (where the taps left out
 * bend the ramp): 3 source pixels times the stretch for Lanczos, one output pixel for area. */
static void
test_ramp (void)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_GRAY8, 200, 4, 0);
  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 200; x++)
      *lm_test_pixel (src, x, y) = (guint8) x;
  static const guint widths[] = { 257, 150, 101, 66, 40 };
  for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
    {
      guint ow = widths[k];
      g_autoptr (LmImage) out = run (ow, 4, src);
      double f = 200.0 / ow, margin = lm_resize_axis_area (200, ow) ? 1.0 : 3.0 * MAX (f, 1.0) / f + 1.0;
      for (guint i = (guint) ceil (margin); i + margin < ow; i++)
        {
          double c = (i + 0.5) * f - 0.5;
          g_assert_cmpfloat (fabs (*lm_test_pixel (out, i, 2) - c), <=, 0.51);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

/* An exact shrink by KX × KY (2 or 4 each, lm_resize_axis_whole_factor) averages each cell:
 * its sum S over n = KX × KY pixels, (S + n / 2) / n, rounded half up, on every channel of
 * RGBA and on gray: the integer rule the GPU computes these shrinks by. */
static void
assert_whole_means (const LmImage *src, guint kx, guint ky)
{
  g_autoptr (LmImage) out = run (src->width / kx, src->height / ky, src);
  int channels = lm_format_channels (src->format), n = (int) (kx * ky);
  for (guint y = 0; y < out->height; y++)
    for (guint x = 0; x < out->width; x++)
      for (int c = 0; c < channels; c++)
        {
          int sum = 0;
          for (guint j = 0; j < ky; j++)
            for (guint i = 0; i < kx; i++)
              sum += lm_test_pixel (src, kx * x + i, ky * y + j)[c];
          g_assert_cmpint (lm_test_pixel (out, x, y)[c], ==, (sum + n / 2) / n);
        }
}

static void
test_area_mean (void)
{
  g_autoptr (LmImage) src = lm_test_random_rgba (40, 28, 21, TRUE);
  g_autoptr (LmImage) flat = lm_test_random_gray (36, 20, 23);
  for (guint kx = 2; kx <= 4; kx += 2)
    for (guint ky = 2; ky <= 4; ky += 2)
      {
        g_assert_cmpuint (lm_resize_axis_whole_factor (src->width, src->width / kx), ==, kx);
        assert_whole_means (src, kx, ky);
        assert_whole_means (flat, kx, ky);
      }
  g_assert_cmpuint (lm_resize_axis_whole_factor (41, 20), ==, 0);
  g_assert_cmpuint (lm_resize_axis_whole_factor (60, 20), ==, 0);
  g_autoptr (LmImage) gray = lm_test_random_gray (9, 6, 22);
  g_autoptr (LmImage) gout = run (3, 2, gray); /* 3 × 3 blocks: the mean within rounding */
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 3; x++)
      {
        int sum = 0;
        for (int j = 0; j < 3; j++)
          for (int i = 0; i < 3; i++)
            sum += *lm_test_pixel (gray, 3 * x + i, 3 * y + j);
        g_assert_cmpfloat (fabs (*lm_test_pixel (gout, x, y) - sum / 9.0), <=, 0.5 + 1e-4);
      }
}

/* Every span's weights sum to 1 (float rounding aside), for area and Lanczos, up and down,
 * and every span lies inside the image: at the border the Lanczos taps that would fall
 * outside are left out (the rest renormalised), not the edge pixel repeated in their place. */
static void
test_weights_sum (void)
{
  static const guint pairs[][2] = { { 100, 37 }, { 100, 50 }, { 100, 51 }, { 100, 99 }, { 100, 250 }, { 7, 1 },
                                    { 1, 9 }, { 65535, 3 } };
  for (guint k = 0; k < G_N_ELEMENTS (pairs); k++)
    {
      guint in = pairs[k][0], out = pairs[k][1];
      g_autofree LmResizeSpan *spans = g_new (LmResizeSpan, out);
      g_autofree float *weights = g_new (float, lm_resize_axis_capacity (in, out));
      gsize n = lm_resize_axis_table (in, out, spans, weights);
      g_assert_cmpuint (n, <=, lm_resize_axis_capacity (in, out));
      for (guint i = 0; i < out; i++)
        {
          double sum = 0;
          for (guint t = 0; t < spans[i].count; t++)
            sum += weights[spans[i].offset + t];
          g_assert_cmpfloat (fabs (sum - 1.0), <, 1e-5);
          g_assert_cmpint (spans[i].start, >=, 0);
          g_assert_cmpint (spans[i].start + (gint64) spans[i].count, <=, in);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

/* The CPU's row passes (and the 2 × 2 and power-of-two box paths) against the plain two-pass
 * sums of resize-math.h, the ones the CUDA kernel runs: the same bytes, for RGBA, gray and
 * 16-bit, shrinks by 2, 4 and 3, Lanczos up and down, and each axis first. */
static void
reference (const LmImage *src, LmImage *dst)
{
  guint w = src->width, h = src->height, ow = dst->width, oh = dst->height;
  int C = (int) lm_format_channels (src->format);
  gboolean deep = src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16;
  gsize bps = deep ? 2 : 1;
  g_autofree LmResizeSpan *xs = g_new (LmResizeSpan, ow), *ys = g_new (LmResizeSpan, oh);
  g_autofree float *xw = g_new (float, lm_resize_axis_capacity (w, ow));
  g_autofree float *yw = g_new (float, lm_resize_axis_capacity (h, oh));
  lm_resize_axis_table (w, ow, xs, xw);
  lm_resize_axis_table (h, oh, ys, yw);
  gboolean vfirst = lm_resize_vertical_first (w, h, ow, oh);
  guint tw = vfirst ? w : ow, th = vfirst ? oh : h;
  g_autofree float *tmp = g_new (float, (gsize) tw * th * C);
  for (guint y = 0; y < th; y++)
    for (guint x = 0; x < tw; x++)
      {
        float acc[4];
        const guint8 *base = vfirst ? src->data + (gsize) x * C * bps : lm_image_row (src, y);
        gsize step = vfirst ? src->stride : C * bps;
        int n = (int) (vfirst ? h : w);
        LmResizeSpan sp = vfirst ? ys[y] : xs[x];
        if (deep)
          lm_resize_sum_u16 (base, step, n, sp, vfirst ? yw : xw, C, acc);
        else
          lm_resize_sum_u8 (base, step, n, sp, vfirst ? yw : xw, C, acc);
        memcpy (tmp + ((gsize) y * tw + x) * C, acc, C * sizeof (float));
      }
  for (guint y = 0; y < oh; y++)
    for (guint x = 0; x < ow; x++)
      {
        float acc[4];
        if (vfirst)
          lm_resize_sum_f32 (tmp + (gsize) y * tw * C, C, (int) w, xs[x], xw, C, acc);
        else
          lm_resize_sum_f32 (tmp + (gsize) x * C, (gsize) tw * C, (int) h, ys[y], yw, C, acc);
        for (int c = 0; c < C; c++)
          if (deep)
            ((guint16 *) lm_image_row (dst, y))[(gsize) x * C + c] = lm_quantize_u16 (acc[c]);
          else
            lm_image_row (dst, y)[(gsize) x * C + c] = lm_quantize_u8 (acc[c]);
      }
}

static void
test_passes_match_sums (void)
{
  static const guint sizes[][2] = { { 41, 27 }, { 20, 13 }, { 10, 6 }, { 20, 27 }, { 27, 9 }, { 100, 80 },
                                    { 61, 20 }, { 13, 54 }, { 82, 7 }, { 5, 50 } };
  g_autoptr (LmImage) rgba = lm_test_random_rgba (82, 54, 31, TRUE);
  g_autoptr (LmImage) gray = lm_test_random_gray (82, 54, 32);
  g_autoptr (LmImage) deep = lm_test_image_new (LM_FORMAT_RGBA16, 82, 54, 0);
  for (guint y = 0; y < 54; y++)
    for (guint i = 0; i < 82 * 4; i++)
      ((guint16 *) lm_image_row (deep, y))[i] = (guint16) (lm_image_row (rgba, y)[i] * 257 + (i * 7 + y) % 257);
  const LmImage *srcs[] = { rgba, gray, deep };
  for (guint s = 0; s < G_N_ELEMENTS (srcs); s++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      {
        g_autoptr (LmImage) out = run (sizes[k][0], sizes[k][1], srcs[s]);
        g_autoptr (LmImage) want = lm_test_image_new (srcs[s]->format, sizes[k][0], sizes[k][1], 0x5a);
        reference (srcs[s], want);
        g_test_message ("format %d, 82 × 54 to %u × %u", srcs[s]->format, sizes[k][0], sizes[k][1]);
        for (guint y = 0; y < out->height; y++)
          g_assert_cmpmem (lm_image_row (out, y), lm_format_bytes_per_pixel (out->format) * out->width,
                           lm_image_row (want, y), lm_format_bytes_per_pixel (want->format) * want->width);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/resize/sizes", test_sizes);
  g_test_add_func ("/resize/constant", test_constant);
  g_test_add_func ("/resize/ramp", test_ramp);
  g_test_add_func ("/resize/area-mean", test_area_mean);
  g_test_add_func ("/resize/passes-match-sums", test_passes_match_sums);
  g_test_add_func ("/resize/weights-sum", test_weights_sum);
  return g_test_run ();
}
