/* Masked instances in the render (core/render/cache.c, tiled.c, mask-place.c): the result is
 * the input where the mask is 0 and the global edit where it is 1, the mask there is the
 * gradient's formula written out here, a slider of a masked instance redraws no mask, a tiled
 * render equals the whole one with a feather, masks follow crop and rotation and pyramid
 * levels, scene light takes masked gains, and what cannot be masked says so. */
#include <math.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/edit/blob-store.h"
#include "core/error.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "core/ops/view.h"
#include "test-util.h"

#define W 160
#define H 120

static LmBackend *cpu;

/* 1 − smoothstep of T clamped to [0, 1]: the linear gradient's definition (docs/masks.md). */
static double
linear_value (double t)
{
  if (t <= 0)
    return 1;
  if (t >= 1)
    return 0;
  return 1 - t * t * (3 - 2 * t);
}

/* A linear gradient fully on at v = V0, off from v = V1, vertical. */
static LmMask
vertical_gradient (float v0, float v1)
{
  LmMask m = { .n_shapes = 1, .opacity = 1.0f, .detail = 0.1f };
  m.shape[0] = (LmMaskShape) { .kind = LM_MASK_LINEAR, .combine = LM_MASK_ADD, .opacity = 1.0f,
                               .g = { 0.5f, v0, 0.5f, v1 } };
  return m;
}

/* The pipeline with exposure at EV, masked by MASK (NULL: unmasked, DISABLED: off). */
static void
exposure_pipeline (LmPipeline *p, float ev, const LmMask *mask)
{
  lm_pipeline_init (p);
  LmStage *exposure = lm_pipeline_stage (p, LM_OP_EXPOSURE);
  exposure->enabled = TRUE;
  exposure->params.exposure.ev = ev;
  if (mask)
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (lm_pipeline_mask_attach (p, (guint) lm_pipeline_find (p, exposure->id), mask, &error));
      g_assert_no_error (error);
    }
}

static LmImage *
render (LmRenderCache *cache, const LmPipeline *p)
{
  g_autoptr (GError) error = NULL;
  LmImage *out = lm_render_cache_run (cache, p, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (out);
  return out;
}

static LmImage *
render_once (const LmImage *source, const LmPipeline *p)
{
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, (LmImage *) source);
  return render (cache, p);
}

/* OUT against PLAIN + M·(EDITED − PLAIN) with M from MASK_AT: equal where M is 0 or 1, within
 * a level between. */
static void
check_blend (const LmImage *out, const LmImage *plain, const LmImage *edited, double (*mask_at) (guint, guint),
             const char *what)
{
  guint between = 0;
  for (guint y = 0; y < out->height; y++)
    for (guint x = 0; x < out->width; x++)
      {
        double m = mask_at (x, y);
        const guint8 *o = lm_test_pixel (out, x, y), *p = lm_test_pixel (plain, x, y), *e = lm_test_pixel (edited, x, y);
        for (int c = 0; c < 4; c++)
          {
            double want = c == 3 ? p[3] : p[c] + m * (e[c] - p[c]);
            gboolean exact = m == 0 || m == 1 || c == 3;
            if (exact ? o[c] != want : fabs (o[c] - want) > 1.0)
              {
                g_test_message ("%s: (%u, %u) channel %d is %u, wants %.2f (mask %.4f)", what, x, y, c, o[c], want, m);
                g_test_fail ();
                return;
              }
          }
        between += m > 0 && m < 1;
      }
  g_assert_cmpuint (between, >, 0);
}

static double
gradient_at (guint x, guint y)
{
  (void) x;
  double v = (y + 0.5) / W;
  return linear_value ((v - 0.1) / (0.4 - 0.1));
}

static void
test_gradient (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 7, FALSE);
  LmPipeline p;
  exposure_pipeline (&p, 0.0f, NULL);
  g_autoptr (LmImage) plain = render_once (source, &p);
  exposure_pipeline (&p, 1.0f, NULL);
  g_autoptr (LmImage) edited = render_once (source, &p);
  LmMask mask = vertical_gradient (0.1f, 0.4f);
  exposure_pipeline (&p, 1.0f, &mask);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) out = render (cache, &p);
  check_blend (out, plain, edited, gradient_at, "linear gradient");

  /* The mask the run applied is the formula's, to float precision. */
  g_autoptr (LmImage) plane = lm_render_cache_mask (cache, lm_pipeline_stage (&p, LM_OP_EXPOSURE)->id);
  g_assert_nonnull (plane);
  g_assert_cmpint (plane->format, ==, LM_FORMAT_GRAY_F32);
  g_assert_cmpuint (plane->width, ==, W);
  for (guint y = 0; y < H; y++)
    g_assert_cmpfloat_with_epsilon (((const float *) lm_image_row (plane, y))[W / 2], gradient_at (0, y), 1e-5);
  /* Another instance has no mask. */
  g_assert_null (lm_render_cache_mask (cache, lm_pipeline_stage (&p, LM_OP_CONTRAST)->id));
}

/* Opacity 0 gives the unedited render, and a mask with no shape (all on) the global edit,
 * byte for byte. */
static void
test_opacity_ends (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 8, TRUE);
  LmPipeline p;
  exposure_pipeline (&p, 0.0f, NULL);
  g_autoptr (LmImage) plain = render_once (source, &p);
  exposure_pipeline (&p, -0.7f, NULL);
  lm_pipeline_stage (&p, LM_OP_BLUR)->enabled = TRUE;
  g_autoptr (LmImage) edited = render_once (source, &p);

  LmMask none = vertical_gradient (0.1f, 0.4f);
  none.opacity = 0.0f;
  exposure_pipeline (&p, -0.7f, &none);
  g_autoptr (LmImage) zero = render_once (source, &p);
  lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev = 0.0f;
  g_autoptr (LmImage) zero_plain = render_once (source, &p);
  lm_test_assert_same_pixels (zero, zero_plain);

  LmMask all = { .opacity = 1.0f, .detail = 0.1f };
  exposure_pipeline (&p, -0.7f, &all);
  LmStage *blur = lm_pipeline_stage (&p, LM_OP_BLUR);
  blur->enabled = TRUE;
  g_assert_true (lm_pipeline_mask_attach (&p, (guint) lm_pipeline_find (&p, blur->id), &all, NULL));
  g_autoptr (LmImage) one = render_once (source, &p);
  lm_test_assert_same_pixels (one, edited);
  (void) plain;
}

/* A slider of the masked instance redraws nothing; a feather redraws the final mask alone; a
 * shape both; an edit before the instance the final mask alone. */
static void
test_reuse (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 9, FALSE);
  LmMask mask = vertical_gradient (0.1f, 0.4f);
  mask.feather = 0.02f;
  LmPipeline p;
  exposure_pipeline (&p, 1.0f, &mask);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) first = render (cache, &p);
  g_assert_cmpuint (lm_render_cache_last_masks_computed (cache), ==, 2);

  LmStage *exposure = lm_pipeline_stage (&p, LM_OP_EXPOSURE);
  exposure->params.exposure.ev = 0.5f;
  g_autoptr (LmImage) second = render (cache, &p);
  g_assert_cmpuint (lm_render_cache_last_masks_computed (cache), ==, 0);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 1);

  p.masks[exposure->mask].feather = 0.03f;
  g_autoptr (LmImage) third = render (cache, &p);
  g_assert_cmpuint (lm_render_cache_last_masks_computed (cache), ==, 1);

  p.masks[exposure->mask].shape[0].g[3] = 0.5f;
  g_autoptr (LmImage) fourth = render (cache, &p);
  g_assert_cmpuint (lm_render_cache_last_masks_computed (cache), ==, 2);

  LmStage *wb = lm_pipeline_stage (&p, LM_OP_WB);
  wb->enabled = TRUE;
  wb->params.wb.temperature = 4000.0f;
  g_autoptr (LmImage) fifth = render (cache, &p);
  g_assert_cmpuint (lm_render_cache_last_masks_computed (cache), ==, 1);
}

/* A brush stroke from the blob store: its centre line gets the edit, far from it nothing. */
static void
test_brush (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 10, FALSE);
  struct {
    LmMaskStrokeHead head;
    float uv[4];
  } stroke = { { 0, 0.1f, 1.0f, 1.0f, 2 }, { 0.1f, 0.35f, 0.9f, 0.35f } };
  guint64 key = lm_blob_intern (&stroke, sizeof stroke);
  guint64 list = lm_blob_intern (&key, sizeof key);
  LmMask mask = { .n_shapes = 1, .opacity = 1.0f, .detail = 0.1f };
  mask.shape[0] = (LmMaskShape) { .kind = LM_MASK_BRUSH, .opacity = 1.0f, .strokes = list };
  LmPipeline p;
  exposure_pipeline (&p, 0.0f, NULL);
  g_autoptr (LmImage) plain = render_once (source, &p);
  exposure_pipeline (&p, 1.5f, NULL);
  g_autoptr (LmImage) edited = render_once (source, &p);
  exposure_pipeline (&p, 1.5f, &mask);
  g_autoptr (LmImage) out = render_once (source, &p);
  /* v = 0.35 is row 0.35·160 − ½ = 55.5: rows 55 and 56 lie on the line (hardness 1: all on
   * within the radius of 8 px); rows beyond 8 px from it are off. */
  for (guint x = 24; x < 136; x++)
    for (guint y = 0; y < H; y++)
      {
        gboolean on = y == 55 || y == 56, off = fabs (y + 0.5 - 56.0) > 8.5;
        const guint32 got = *(const guint32 *) lm_test_pixel (out, x, y);
        if (on && got != *(const guint32 *) lm_test_pixel (edited, x, y))
          g_test_fail ();
        if (off && got != *(const guint32 *) lm_test_pixel (plain, x, y))
          g_test_fail ();
      }
  /* A list key that the store does not hold is refused, not read. */
  p.masks[lm_pipeline_stage (&p, LM_OP_EXPOSURE)->mask].shape[0].strokes = list ^ 0x5a5a;
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (GError) error = NULL;
  g_assert_null (lm_render_cache_run (cache, &p, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
}

/* Tiles equal the whole render, a feather, a brush, a radial shape and a range included, on a
 * masked area operation (blur) and a masked point instance between unmasked ones. */
static void
test_tiled (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 11, FALSE);
  LmMask mask = vertical_gradient (0.1f, 0.5f);
  mask.n_shapes = 2;
  mask.shape[1] = (LmMaskShape) { .kind = LM_MASK_RADIAL, .combine = LM_MASK_SUBTRACT, .opacity = 1.0f,
                                  .g = { 0.5f, 0.3f, 0.2f, 0.1f, 30.0f, 0.5f } };
  mask.feather = 0.03f;
  mask.luminance = (LmMaskRange) { 1, 0.1f, 0.3f, 0.8f, 0.95f };
  LmPipeline p;
  exposure_pipeline (&p, 0.8f, &mask);
  lm_pipeline_stage (&p, LM_OP_CONTRAST)->enabled = TRUE;
  lm_pipeline_stage (&p, LM_OP_SATURATION)->enabled = TRUE;
  LmStage *blur = lm_pipeline_stage (&p, LM_OP_BLUR);
  blur->enabled = TRUE;
  blur->params.blur.sigma = 3.0f;
  LmMask inverted = mask;
  inverted.invert = 1;
  g_assert_true (lm_pipeline_mask_attach (&p, (guint) lm_pipeline_find (&p, blur->id), &inverted, NULL));
  g_autoptr (LmImage) whole = render_once (source, &p);
  g_autoptr (LmImage) tiled = lm_test_image_new (whole->format, W, H, 0x5a);
  LmTileOptions options = { 48, 40, 1 };
  g_autoptr (GError) error = NULL;
  g_assert_true (lm_render_tiled (cpu, source, &p, NULL, NULL, tiled, &options, NULL, &error));
  g_assert_no_error (error);
  lm_test_assert_same_pixels (tiled, whole);
}

/* Geometry before the instance: the mask stays on the photo's content. A crop of the masked
 * render equals the masked render of the crop, and a quarter turn likewise. */
static void
test_follows_geometry (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 12, FALSE);
  LmMask mask = vertical_gradient (0.1f, 0.4f);
  mask.n_shapes = 2;
  mask.shape[1] = (LmMaskShape) { .kind = LM_MASK_RADIAL, .combine = LM_MASK_ADD, .opacity = 1.0f,
                                  .g = { 0.7f, 0.5f, 0.15f, 0.08f, 20.0f, 0.6f } };
  LmPipeline p;
  exposure_pipeline (&p, 1.0f, &mask);
  g_autoptr (LmImage) full = render_once (source, &p);

  LmStage *crop = lm_pipeline_stage (&p, LM_OP_CROP);
  crop->enabled = TRUE;
  crop->params.crop.x = 40, crop->params.crop.y = 30, crop->params.crop.width = 80, crop->params.crop.height = 60;
  g_autoptr (LmImage) cropped = render_once (source, &p);
  g_assert_cmpuint (cropped->width, ==, 80);
  for (guint y = 0; y < 60; y++)
    g_assert_cmpmem (lm_image_row (cropped, y), 80 * 4, lm_test_pixel (full, 40, 30 + y), 80 * 4);
  crop->enabled = FALSE;

  LmStage *rotate = lm_pipeline_stage (&p, LM_OP_ROTATE);
  rotate->enabled = TRUE;
  rotate->params.rotate.angle = LM_ROTATE_90;
  g_autoptr (LmImage) turned = render_once (source, &p);
  g_assert_cmpuint (turned->width, ==, H);
  guint same = 0;
  /* The output pixel that shows source pixel (x, y), through the pipeline's own map back. */
  for (guint y = 0; y < turned->height; y++)
    for (guint x = 0; x < turned->width; x++)
      {
        double sx, sy;
        g_assert_true (lm_pipeline_source_point (&p, W, H, x, y, &sx, &sy));
        same += *(const guint32 *) lm_test_pixel (turned, x, y)
                == *(const guint32 *) lm_test_pixel (full, (guint) lround (sx), (guint) lround (sy));
      }
  g_assert_cmpuint (same, ==, W * H);
}

/* On a pyramid level F times smaller, pixel i lies at the photo's (i + ½)·F: the mask there
 * is the formula's at that place. */
static void
test_level (void)
{
  g_autoptr (LmImage) photo = lm_test_random_rgba (W, H, 13, FALSE);
  g_autoptr (LmImage) level = lm_test_image_new (LM_FORMAT_RGBA8, W / 4, H / 4, 0);
  lm_shrink_cpu (photo, level);
  LmMask mask = vertical_gradient (0.1f, 0.4f);
  LmPipeline p;
  exposure_pipeline (&p, 1.0f, &mask);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, level);
  LmRenderLevel of = { 4.0, W, H };
  lm_render_cache_set_level (cache, &of);
  g_autoptr (LmImage) out = render (cache, &p);
  g_autoptr (LmImage) plane = lm_render_cache_mask (cache, lm_pipeline_stage (&p, LM_OP_EXPOSURE)->id);
  g_assert_nonnull (plane);
  for (guint y = 0; y < H / 4; y++)
    {
      double v = (y + 0.5) * 4 / W;
      g_assert_cmpfloat_with_epsilon (((const float *) lm_image_row (plane, y))[3], linear_value ((v - 0.1) / 0.3),
                                      1e-5);
    }
}

/* Scene light (a radiance map): a masked exposure is a gain where the mask is, and none
 * where it is not; the unmasked white balance still folds into one gain. */
static void
test_scene (void)
{
  g_autoptr (LmImage) hdr = lm_test_image_new (LM_FORMAT_RGBA_F32, 64, 48, 0);
  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      {
        float *px = (float *) lm_test_pixel (hdr, x, y);
        px[0] = 0.01f + x * 0.05f, px[1] = 0.02f + y * 0.04f, px[2] = 0.3f, px[3] = 1.0f;
      }
  LmMask mask = vertical_gradient (0.2f, 0.5f);
  LmPipeline p;
  exposure_pipeline (&p, 0.0f, NULL);
  g_autoptr (LmRenderCache) c0 = lm_render_cache_new (cpu, hdr);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) plain = lm_render_cache_run_scene (c0, &p, NULL, &error);
  g_assert_no_error (error);
  exposure_pipeline (&p, 2.0f, &mask);
  g_autoptr (LmRenderCache) c1 = lm_render_cache_new (cpu, hdr);
  g_autoptr (LmImage) out = lm_render_cache_run_scene (c1, &p, NULL, &error);
  g_assert_no_error (error);
  for (guint y = 0; y < 48; y++)
    {
      double v = (y + 0.5) / 64, m = linear_value ((v - 0.2) / 0.3);
      for (guint x = 0; x < 64; x += 7)
        {
          const float *o = (const float *) lm_test_pixel (out, x, y), *i = (const float *) lm_test_pixel (plain, x, y);
          for (int c = 0; c < 3; c++)
            g_assert_cmpfloat_with_epsilon (o[c], i[c] * (1 + m * 3), 1e-5 * (1 + i[c] * 4));
        }
    }
  /* A crop is display-side: it runs after the scene's edits, wherever it stands in the list,
   * so the masked gain's mask lies on the whole photo as before. */
  LmStage *crop = lm_pipeline_stage (&p, LM_OP_CROP);
  crop->enabled = TRUE;
  crop->params.crop.x = 10, crop->params.crop.y = 12, crop->params.crop.width = 30, crop->params.crop.height = 20;
  g_autoptr (LmRenderCache) c2 = lm_render_cache_new (cpu, hdr);
  g_autoptr (LmImage) cropped = lm_render_cache_run_scene (c2, &p, NULL, &error);
  g_assert_no_error (error);
  lm_test_assert_same_pixels (cropped, out);
}

/* What a mask cannot go on says so in one line. */
static void
test_refused (void)
{
  g_autoptr (LmImage) source = lm_test_random_rgba (W, H, 14, FALSE);
  LmMask mask = vertical_gradient (0.1f, 0.4f);
  LmPipeline p;
  lm_pipeline_init (&p);
  LmStage *gray = lm_pipeline_stage (&p, LM_OP_GRAY);
  gray->enabled = TRUE;
  g_assert_true (lm_pipeline_mask_attach (&p, (guint) lm_pipeline_find (&p, gray->id), &mask, NULL));
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (GError) error = NULL;
  g_assert_null (lm_render_cache_run (cache, &p, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "cannot have a mask"));
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA8, W, H, 0);
  g_assert_false (lm_render_tiled (cpu, source, &p, NULL, NULL, out, NULL, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  cpu = lm_backend_cpu_new ();
  g_test_add_func ("/render-masks/gradient", test_gradient);
  g_test_add_func ("/render-masks/opacity-ends", test_opacity_ends);
  g_test_add_func ("/render-masks/reuse", test_reuse);
  g_test_add_func ("/render-masks/brush", test_brush);
  g_test_add_func ("/render-masks/tiled", test_tiled);
  g_test_add_func ("/render-masks/follows-geometry", test_follows_geometry);
  g_test_add_func ("/render-masks/level", test_level);
  g_test_add_func ("/render-masks/scene", test_scene);
  g_test_add_func ("/render-masks/refused", test_refused);
  int status = g_test_run ();
  lm_backend_free (cpu);
  return status;
}
