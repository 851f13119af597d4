/* lm_pipeline_source_point against the operations' own pixel moves: an image whose pixels
 * are labelled with their coordinates goes through rotate, crop and straighten as the CPU
 * renders them, and every output pixel's point, followed back, is where its label says it
 * came from (exactly for the lossless moves; for straightening, a lone bright pixel is found
 * where it was put, within the bicubic's reach). What the window's white balance picker
 * relies on to read the photo under the pointer. */
#include <math.h>

#include "core/edit/pipeline.h"
#include "core/ops/ops.h"
#include "test-util.h"

/* PIPELINE's geometry run on SRC, stage by stage, by each operation's CPU reference. */
static LmImage *
render_geometry (const LmPipeline *pipeline, const LmImage *src)
{
  LmImage *image = lm_image_ref ((LmImage *) src);
  for (int i = 0; i < LM_N_OPS; i++)
    {
      const LmStage *stage = lm_pipeline_primary (pipeline, i);
      if (!stage->enabled || lm_op_kind (i) != LM_KIND_GEOMETRY)
        continue;
      LmImage *next = lm_test_run_op (stage->info, stage->params.bytes, image);
      lm_image_unref (image);
      image = next;
    }
  return image;
}

/* W × H, each pixel's R, G its x, y. */
static LmImage *
labelled (guint w, guint h)
{
  g_autofree guint8 *px = g_malloc0 ((gsize) w * h * 4);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint8 *p = px + 4 * ((gsize) y * w + x);
        p[0] = (guint8) x, p[1] = (guint8) y, p[2] = 0, p[3] = 255;
      }
  return lm_test_rgba_from (w, h, px);
}

/* Every output pixel of PIPELINE on the labelled image maps back to its label. */
static void
check_lossless (const LmPipeline *pipeline, guint w, guint h)
{
  g_autoptr (LmImage) src = labelled (w, h);
  g_autoptr (LmImage) out = render_geometry (pipeline, src);
  guint ow, oh;
  lm_pipeline_output_size (pipeline, w, h, &ow, &oh);
  g_assert_cmpuint (out->width, ==, ow);
  g_assert_cmpuint (out->height, ==, oh);
  for (guint j = 0; j < out->height; j++)
    for (guint i = 0; i < out->width; i++)
      {
        double sx, sy;
        g_assert_true (lm_pipeline_source_point (pipeline, w, h, i, j, &sx, &sy));
        const guint8 *p = lm_test_pixel (out, i, j);
        g_assert_cmpfloat (sx, ==, p[0]);
        g_assert_cmpfloat (sy, ==, p[1]);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

static void
test_rotate_and_crop (void)
{
  for (int angle = LM_ROTATE_0; angle <= LM_ROTATE_270; angle++)
    for (int flip = LM_FLIP_NONE; flip <= LM_FLIP_VERTICAL; flip++)
      for (int crop = 0; crop < 2; crop++)
        {
          LmPipeline p;
          lm_pipeline_init (&p);
          lm_pipeline_stage (&p, LM_OP_ROTATE)->enabled = TRUE;
          lm_pipeline_stage (&p, LM_OP_ROTATE)->params.rotate = (LmRotateParams) { angle, flip };
          lm_pipeline_stage (&p, LM_OP_CROP)->enabled = crop;
          lm_pipeline_stage (&p, LM_OP_CROP)->params.crop = (LmCropParams) { 5, 3, 11, 7, LM_CROP_FREE };
          g_test_message ("angle %d flip %d crop %d", angle, flip, crop);
          check_lossless (&p, 23, 17);
          LM_TEST_RETURN_IF_FAILED ();
        }
}

/* A lone white pixel at (X, Y) of a black W × H image, through PIPELINE: the brightest
 * output pixel, followed back, lies within a pixel of it. */
static void
check_bright_pixel (const LmPipeline *pipeline, guint w, guint h, guint x, guint y)
{
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA8, w, h, 0);
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      lm_test_pixel (src, i, j)[3] = 255;
  guint8 *dot = lm_test_pixel (src, x, y);
  dot[0] = dot[1] = dot[2] = 255;
  g_autoptr (LmImage) out = render_geometry (pipeline, src);
  guint bi = 0, bj = 0, best = 0;
  for (guint j = 0; j < out->height; j++)
    for (guint i = 0; i < out->width; i++)
      if (lm_test_pixel (out, i, j)[1] > best)
        best = lm_test_pixel (out, i, j)[1], bi = i, bj = j;
  g_assert_cmpuint (best, >, 100);
  double sx, sy;
  g_assert_true (lm_pipeline_source_point (pipeline, w, h, bi, bj, &sx, &sy));
  g_test_message ("dot (%u, %u) found at (%u, %u), back at (%.2f, %.2f)", x, y, bi, bj, sx, sy);
  g_assert_cmpfloat (hypot (sx - x, sy - y), <=, M_SQRT1_2 + 1e-6);
}

static void
test_straighten (void)
{
  static const float angles[] = { 7.5f, -12.0f, 30.0f, -44.0f };
  for (guint k = 0; k < G_N_ELEMENTS (angles); k++)
    for (int quarter = 0; quarter < 2; quarter++)
      {
        LmPipeline p;
        lm_pipeline_init (&p);
        lm_pipeline_stage (&p, LM_OP_ROTATE)->enabled = quarter;
        lm_pipeline_stage (&p, LM_OP_ROTATE)->params.rotate = (LmRotateParams) { LM_ROTATE_90, LM_FLIP_HORIZONTAL };
        lm_pipeline_stage (&p, LM_OP_STRAIGHTEN)->enabled = TRUE;
        lm_pipeline_stage (&p, LM_OP_STRAIGHTEN)->params.straighten.angle = angles[k];
        lm_pipeline_stage (&p, LM_OP_CROP)->enabled = TRUE;
        lm_pipeline_stage (&p, LM_OP_CROP)->params.crop = (LmCropParams) { 4, 6, 0, 0, LM_CROP_FREE };
        check_bright_pixel (&p, 96, 80, 47, 41);
        check_bright_pixel (&p, 96, 80, 52, 36);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* Off the photo is said so; a pipeline without geometry maps a point to itself. */
static void
test_identity_and_outside (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  double sx, sy;
  g_assert_true (lm_pipeline_source_point (&p, 40, 30, 12.25, 7.5, &sx, &sy));
  g_assert_cmpfloat (sx, ==, 12.25);
  g_assert_cmpfloat (sy, ==, 7.5);
  g_assert_false (lm_pipeline_source_point (&p, 40, 30, 40.0, 3, &sx, &sy));
  g_assert_false (lm_pipeline_source_point (&p, 40, 30, 3, -1.0, &sx, &sy));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/source-point/rotate-and-crop", test_rotate_and_crop);
  g_test_add_func ("/source-point/straighten", test_straighten);
  g_test_add_func ("/source-point/identity-and-outside", test_identity_and_outside);
  return g_test_run ();
}
