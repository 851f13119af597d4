/* The fused point pass of the five point operations (white balance, exposure, contrast,
 * curves, saturation) against the same edits as five separate steps in double precision,
 * written out in point-oracle.h, within 1; and the same bytes from the CPU backend's
 * lm_backend_run_points and from the pipeline's render cache, which fuses them itself. A gray
 * image stays gray, 8- and 16-bit. */
#include <math.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/edit/pipeline.h"
#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "core/ops/wb.h"
#include "core/render/cache.h"
#include "point-oracle.h"
#include "test-util.h"

/* One look, as lumen-cli flags would give it. */
typedef struct {
  LmWbParams wb;
  LmExposureParams exposure;
  LmContrastParams contrast;
  LmCurveParams curve;
  LmSaturationParams saturation;
  const char *master, *red; /* the curve's points, as text */
} Look;

static Look
look (const char *mode, const char *master, const char *red)
{
  Look l = {
    .wb = { 4300.0f, 12.0f },
    .exposure = { 0.4f },
    .contrast = { 0.25f, 8.0f, 245.0f },
    .saturation = { 0.3f, 0.4f },
    .master = master,
    .red = red,
  };
  lm_op_params_init (&lm_curve_op, &l.curve);
  GError *e = NULL;
  g_assert_true (lm_op_param_parse (&lm_curve_op, &lm_curve_op.params[0], &l.curve, master, &e));
  g_assert_true (lm_op_param_parse (&lm_curve_op, &lm_curve_op.params[1], &l.curve, mode, &e));
  g_assert_true (lm_op_param_parse (&lm_curve_op, &lm_curve_op.params[2], &l.curve, red, &e));
  g_assert_no_error (e);
  return l;
}

static int
parse_points (const char *text, double *x, double *y)
{
  g_auto (GStrv) pairs = g_strsplit (text, ",", -1);
  int n = 0;
  for (; pairs[n]; n++)
    {
      char *end;
      x[n] = g_ascii_strtod (pairs[n], &end);
      y[n] = g_ascii_strtod (end + 1, NULL);
    }
  return n;
}

/* The five edits one after another on one pixel, unclipped in between, in double. */
static void
separate_steps (const Look *l, const guint8 *in, double out[3])
{
  double gains[3], mx[16], my[16], rx[16], ry[16], ix[2] = { 0, 255 };
  oracle_wb_gains (l->wb.temperature, l->wb.tint, gains);
  int mn = parse_points (l->master, mx, my), rn = parse_points (l->red, rx, ry);
  gboolean luma = l->curve.mode == LM_CURVE_MODE_LUMA;
  double c[3];
  for (int i = 0; i < 3; i++)
    {
      double v = oracle_gain (in[i], gains[i]);
      v = oracle_gain (v, pow (2.0, l->exposure.ev));
      v = oracle_contrast (v, l->contrast.contrast, l->contrast.black, l->contrast.white);
      if (!luma)
        v = oracle_curve (mx, my, mn, v);
      c[i] = i == 0 ? oracle_curve (rx, ry, rn, v) : oracle_curve (ix, ix, 2, v);
    }
  if (luma)
    oracle_curve_luma (mx, my, mn, c);
  oracle_saturation (l->saturation.saturation, l->saturation.vibrance, c);
  for (int i = 0; i < 3; i++)
    out[i] = c[i] < 0.0 ? 0.0 : c[i] > 255.0 ? 255.0 : c[i];
}

/* A pipeline with LOOK's point stages on, for the render cache to fuse. */
static LmPipeline
pipeline_of (const Look *l)
{
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  const struct {
    LmOpId id;
    const void *params;
    gsize size;
  } stages[] = {
    { LM_OP_WB, &l->wb, sizeof l->wb },
    { LM_OP_EXPOSURE, &l->exposure, sizeof l->exposure },
    { LM_OP_CONTRAST, &l->contrast, sizeof l->contrast },
    { LM_OP_CURVE, &l->curve, sizeof l->curve },
    { LM_OP_SATURATION, &l->saturation, sizeof l->saturation },
  };
  for (guint i = 0; i < G_N_ELEMENTS (stages); i++)
    {
      LmStage *stage = lm_pipeline_stage (&pipeline, stages[i].id);
      stage->enabled = TRUE;
      memcpy (stage->params.bytes, stages[i].params, stages[i].size);
    }
  return pipeline;
}

static void
build_pass (const Look *l, LmPointPass *pass)
{
  lm_point_pass_init (pass);
  lm_point_pass_add (pass, &lm_wb_op, &l->wb);
  lm_point_pass_add (pass, &lm_exposure_op, &l->exposure);
  lm_point_pass_add (pass, &lm_contrast_op, &l->contrast);
  lm_point_pass_add (pass, &lm_curve_op, &l->curve);
  lm_point_pass_add (pass, &lm_saturation_op, &l->saturation);
}

static void
check_look (const Look *l)
{
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) src = lm_test_random_rgba (97, 23, 7, TRUE);
  LmPointPass pass;
  build_pass (l, &pass);
  g_autoptr (LmImage) fused = lm_test_image_new (LM_FORMAT_RGBA8, src->width, src->height, 0xAB);
  GError *e = NULL;
  g_assert_true (lm_backend_run_points (cpu, &pass, src, fused, &e));
  g_assert_no_error (e);

  int worst = 0, differing = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *in = lm_test_pixel (src, x, y), *o = lm_test_pixel (fused, x, y);
        double want[3];
        separate_steps (l, in, want);
        for (int c = 0; c < 3; c++)
          {
            /* Within 1 of the exact value: rounding, and float's error near a half. */
            int d = (int) fabs (o[c] - oracle_u8 (want[c]));
            worst = MAX (worst, d), differing += d != 0;
            g_assert_cmpfloat (fabs (o[c] - want[c]), <, 1.0);
          }
        g_assert_cmpuint (o[3], ==, in[3]);
        LM_TEST_RETURN_IF_FAILED ();
      }
  g_test_message ("fused vs separate double steps: max |Δ| %d, %d values differ of %u", worst, differing,
                  3 * src->width * src->height);

  /* The operation's own runs compose to the same pass: the CPU reference of the pass, and
   * the render cache, which fuses the enabled point stages of a pipeline by itself. */
  g_autoptr (LmImage) direct = lm_test_image_new (LM_FORMAT_RGBA8, src->width, src->height, 0x54);
  lm_point_run_cpu (&pass, src, direct);
  lm_test_assert_same_pixels (fused, direct);

  LmPipeline pipeline = pipeline_of (l);
  g_autoptr (LmImage) source = lm_backend_upload (cpu, src, &e);
  g_assert_no_error (e);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) rendered = lm_render_cache_run (cache, &pipeline, NULL, &e);
  g_assert_no_error (e);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 1); /* one fused step */
  lm_test_assert_same_pixels (fused, rendered);
}

/* A gray image through the same look stays one channel at either depth, on the backend and
 * through the render cache, and takes what the edits do to a gray value, in double: exposure,
 * contrast and the master curve (in luma mode the luma of a gray pixel is its value). White
 * balance, the red curve and saturation act on colour, which a gray image has none of: they
 * leave it as it is. Every 8-bit value, and 16-bit values with every low byte. */
static double
gray_steps (const Look *l, double v)
{
  double mx[16], my[16];
  int mn = parse_points (l->master, mx, my);
  v = oracle_gain (v, pow (2.0, l->exposure.ev));
  v = oracle_contrast (v, l->contrast.contrast, l->contrast.black, l->contrast.white);
  return oracle_curve (mx, my, mn, v);
}

static LmImage *
run_gray (const Look *l, LmImage *src)
{
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  LmPointPass pass;
  build_pass (l, &pass);
  g_assert_true (lm_point_output_format (NULL, src->format, TRUE) == src->format);
  LmImage *out = lm_test_image_new (src->format, src->width, src->height, 0xAB);
  GError *e = NULL;
  g_assert_true (lm_backend_run_points (cpu, &pass, src, out, &e));
  g_assert_no_error (e);

  LmPipeline pipeline = pipeline_of (l);
  g_autoptr (LmImage) source = lm_backend_upload (cpu, src, &e);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) rendered = lm_render_cache_run (cache, &pipeline, NULL, &e);
  g_assert_no_error (e);
  g_assert_cmpint (rendered->format, ==, src->format);
  lm_test_assert_same_pixels (out, rendered);
  return out;
}

static void
check_gray_look (const Look *l)
{
  guint8 values[256];
  for (int i = 0; i < 256; i++)
    values[i] = (guint8) i;
  g_autoptr (LmImage) src = lm_test_gray_from (256, 1, values);
  g_autoptr (LmImage) out = run_gray (l, src);
  int worst = 0;
  for (int i = 0; i < 256; i++)
    {
      double want = gray_steps (l, i);
      guint8 got = lm_image_row (out, 0)[i];
      worst = MAX (worst, (int) fabs (got - oracle_u8 (want)));
      g_assert_cmpfloat (fabs (got - CLAMP (want, 0.0, 255.0)), <, 1.0);
    }
  g_test_message ("gray 8-bit vs the gray steps in double: max |Δ| %d", worst);

  /* 16-bit: v = 257 i + (37 i mod 257) - 128, clipped: every low byte occurs. */
  g_autoptr (LmImage) src16 = lm_test_image_new (LM_FORMAT_GRAY16, 4096, 1, 0);
  guint16 *in16 = (guint16 *) lm_image_row (src16, 0);
  for (int x = 0; x < 4096; x++)
    in16[x] = (guint16) CLAMP (257 * (x / 16) + (37 * x) % 257 - 128, 0, 65535);
  src16->opaque = TRUE;
  g_autoptr (LmImage) out16 = run_gray (l, src16);
  double worst16 = 0.0;
  for (int x = 0; x < 4096; x++)
    {
      double want = 257.0 * CLAMP (gray_steps (l, in16[x] / 257.0), 0.0, 255.0);
      worst16 = MAX (worst16, fabs (((guint16 *) lm_image_row (out16, 0))[x] - want));
    }
  g_test_message ("gray 16-bit vs the gray steps in double: max |Δ| %.3f u16", worst16);
  g_assert_cmpfloat (worst16, <, 2.0); /* rounding, and float's error on the 0..255 scale */
}

static void
test_gray_luma (void)
{
  Look l = look ("luma", "0:0,64:50,192:210,255:255", "0:0,128:140,255:255");
  check_gray_look (&l);
}

static void
test_gray_rgb (void)
{
  Look l = look ("rgb", "0:10,80:60,160:190,255:245", "0:0,100:90,255:255");
  check_gray_look (&l);
}

static void
test_fused_luma (void)
{
  Look l = look ("luma", "0:0,64:50,192:210,255:255", "0:0,128:140,255:255");
  check_look (&l);
}

static void
test_fused_rgb (void)
{
  Look l = look ("rgb", "0:10,80:60,160:190,255:245", "0:0,100:90,255:255");
  check_look (&l);
}

/* The pass's pack is lm_quantize_u8, the one rounding every operation ends with, on every
 * float: point-math.h writes it as the half added, then a clamp and a truncation, which is
 * what the GPU's saturating conversions do. */
static void
test_pack_rounds (void)
{
  guint64 differ = 0;
  for (guint64 bits = 0; bits <= G_MAXUINT32; bits++)
    {
      float v = lm_bits_float ((guint32) bits);
      guint32 word = lm_point_pack (v, 0.0f, 255.0f, 0x80000000u);
      differ += word != ((guint32) lm_quantize_u8 (v) | 0x80ff0000u);
    }
  g_assert_cmpuint (differ, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/point-pass/fused-luma", test_fused_luma);
  g_test_add_func ("/point-pass/pack-rounds", test_pack_rounds);
  g_test_add_func ("/point-pass/fused-rgb", test_fused_rgb);
  g_test_add_func ("/point-pass/gray-luma", test_gray_luma);
  g_test_add_func ("/point-pass/gray-rgb", test_gray_rgb);
  return g_test_run ();
}
