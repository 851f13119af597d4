/* Lens correction against lensfun's own C API (the library Lumen links; Debian ships no
 * lenstool): the models of lens-math.h against lensfun's modifier one pixel at a time (where
 * each channel of an output pixel lies in the source; the devignetting gain of a source
 * pixel; the auto scale), and the whole operation against lensfun's coordinates and gains
 * resampled with the same bicubic in double (≤ 1 level). Known answers: a profile of zero
 * coefficients gives the image back. Bad input: unknown lens and camera names, a lens with no
 * profile for the correction asked, names that are not names, a photo that names no lens. */
#include <math.h>
#include <string.h>
#include <lensfun.h>

#include "core/edit/commit.h"
#include "core/error.h"
#include "core/io/exif-shot.h"
#include "core/io/io.h"
#include "core/lens/lens-db.h"
#include "core/ops/lens.h"
#include "core/ops/ops.h"
#include "core/render/render.h"
#include "test-util.h"

static lfDatabase *db;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (lfModifier, lf_modifier_destroy)

typedef struct {
  const char *camera, *lens;
  float focal, aperture;
} Case;

/* ptlens + poly3 TCA + vignetting at three focal lengths (calibrated on this full-frame
 * camera); ptlens + linear TCA + vignetting calibrated on another APS-C crop (1.528 on a
 * 1.523 body); poly3 distortion alone. */
static const Case cases[] = {
  { "Canon EOS 5D Mark III", "Canon EF 24-105mm f/4L IS USM", 24, 4 },
  { "Canon EOS 5D Mark III", "Canon EF 24-105mm f/4L IS USM", 70, 5.6f },
  { "Canon EOS 5D Mark III", "Canon EF 24-105mm f/4L IS USM", 105, 4 },
  { "Nikon D7000", "Nikon AF-S DX Nikkor 35mm f/1.8G", 35, 2.8f },
  { "Nikon D7000", "Nikon AI-S Nikkor 35mm f/1.4", 35, 0 },
};

/* The case's lens and camera as lensfun itself finds them (not through Lumen's lookup). */
static void
oracle_lens (const Case *c, const lfCamera **camera, const lfLens **lens)
{
  const lfCamera **cameras = lf_db_find_cameras_ext (db, NULL, c->camera, 0);
  g_assert_nonnull (cameras);
  *camera = cameras[0];
  lf_free (cameras);
  const lfLens **lenses = lf_db_find_lenses_hd (db, *camera, NULL, c->lens, 0);
  g_assert_nonnull (lenses);
  *lens = lenses[0];
  lf_free (lenses);
  g_assert_cmpstr ((const char *) (*lens)->Model, ==, c->lens); /* the untranslated name */
}

/* The case committed as a render commits it. */
static void
commit_case (const Case *c, LmLensParams *p)
{
  lm_op_params_init (&lm_lens_op, p);
  g_strlcpy (p->lens.s, c->lens, sizeof p->lens.s);
  g_strlcpy (p->camera.s, c->camera, sizeof p->camera.s);
  p->focal = c->focal, p->aperture = c->aperture;
  LmOpContext context;
  lm_op_context_init (&context, NULL);
  lm_lens_op.commit (p, &context);
  g_assert_cmpint (p->profile.status, ==, LM_LENS_FOUND);
}

static lfModifier *
oracle_modifier (const Case *c, guint w, guint h, float scale)
{
  const lfCamera *camera;
  const lfLens *lens;
  oracle_lens (c, &camera, &lens);
  lfModifier *mod = lf_modifier_new (lens, camera->CropFactor, (int) w, (int) h);
  int flags = LF_MODIFY_TCA | LF_MODIFY_VIGNETTING | LF_MODIFY_DISTORTION | (scale != 0.0f ? LF_MODIFY_SCALE : 0);
  lf_modifier_initialize (mod, lens, LF_PF_F32, c->focal, c->aperture, 1000.0f, scale, LF_RECTILINEAR, flags, FALSE);
  return mod;
}

/* Each channel's source point of every STEP-th pixel, and each source pixel's gain, one pixel
 * at a time (lensfun's own row loop steps x in float: 0.25 px of drift over 6000 px). */
static void
check_models (const Case *c, guint w, guint h, guint step)
{
  LmLensParams p;
  commit_case (c, &p);
  LmLensMap m = lm_lens_map (&p, w, h);
  g_autoptr (lfModifier) unscaled = oracle_modifier (c, w, h, 0.0f);
  float auto_scale = lf_modifier_get_auto_scale (unscaled, FALSE);
  g_test_message ("%s at %g mm, %u × %u: auto scale %.6f (lensfun %.6f)", c->lens, c->focal, w, h, 1.0 / m.inv_scale,
                  auto_scale);
  g_assert_cmpfloat (fabs (1.0 / m.inv_scale / auto_scale - 1.0), <=, 1e-3);

  g_autoptr (lfModifier) mod = oracle_modifier (c, w, h, 1.0f / m.inv_scale);
  double worst = 0.0, worst_gain = 0.0;
  for (guint y = 0; y < h; y += step)
    for (guint x = 0; x < w; x += step)
      {
        float ref[6], xy[6];
        g_assert_true (lf_modifier_apply_subpixel_geometry_distortion (mod, (float) x, (float) y, 1, 1, ref));
        lm_lens_source (&m, (float) x, (float) y, xy);
        for (int k = 0; k < 6; k++)
          worst = MAX (worst, fabs (xy[k] - ref[k]));
        float pixel[3] = { 0.25f, 0.25f, 0.25f };
        gboolean vig = lf_modifier_apply_color_modification (mod, pixel, (float) x, (float) y, 1, 1,
                                                              LF_CR_3 (RED, GREEN, BLUE), 0);
        float gain = lm_lens_devignette (&m, (int) x, (int) y);
        g_assert_true (vig == (m.vig_model != LM_LENS_VIG_NONE));
        worst_gain = MAX (worst_gain, fabs (0.25f * gain / pixel[1] - 1.0));
      }
  g_test_message ("  coordinates within %.2g px, gains within %.2g", worst, worst_gain);
  g_assert_cmpfloat (worst, <=, 0.01);
  g_assert_cmpfloat (worst_gain, <=, 1e-5);
}

static void
test_models (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      check_models (&cases[i], 600, 400, 7);
      check_models (&cases[i], 400, 600, 7);
      check_models (&cases[i], 6000, 4000, 97);
    }
}

/* OpenCV's INTER_CUBIC weights (a = -0.75), in double. */
static void
cubic (double t, double k[4])
{
  const double a = -0.75;
  k[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  k[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  k[2] = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1;
  k[3] = 1 - k[0] - k[1] - k[2];
}

/* The photo corrected by lensfun's numbers: each source pixel devignetted by lensfun in
 * linear light, each channel sampled at lensfun's coordinates with the same bicubic (in
 * double, edges replicated), encoded back; against the operation's output: ≤ 1 level. */
static void
test_photo (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "data", "lens",
                                            "canon-5d3-24mm.jpg", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) src = lm_io_load (path, lm_allocator_host (), &error);
  g_assert_no_error (error);
  g_assert_true (src->format == LM_FORMAT_RGBA8);
  guint w = src->width, h = src->height;
  const Case *c = &cases[0];
  LmLensParams p;
  commit_case (c, &p);
  LmLensMap m = lm_lens_map (&p, w, h);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_lens_op, &p, src);
  g_autoptr (lfModifier) mod = oracle_modifier (c, w, h, 1.0f / m.inv_scale);

  g_autofree double *lin = g_new (double, (gsize) w * h * 3);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        float gain[3] = { 1, 1, 1 };
        lf_modifier_apply_color_modification (mod, gain, (float) x, (float) y, 1, 1, LF_CR_3 (RED, GREEN, BLUE), 0);
        const guint8 *px = lm_image_row (src, y) + (gsize) x * 4;
        for (int ch = 0; ch < 3; ch++)
          lin[((gsize) y * w + x) * 3 + ch] = lm_test_srgb_decode (px[ch] / 255.0) * gain[ch];
      }
  int worst = 0;
  guint off = 0;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        float xy[6];
        lf_modifier_apply_subpixel_geometry_distortion (mod, (float) x, (float) y, 1, 1, xy);
        const guint8 *o = lm_image_row (out, y) + (gsize) x * 4;
        for (int ch = 0; ch < 3; ch++)
          {
            double sx = xy[2 * ch], sy = xy[2 * ch + 1], fx = floor (sx), fy = floor (sy), kx[4], ky[4], sum = 0;
            cubic (sx - fx, kx);
            cubic (sy - fy, ky);
            for (int j = 0; j < 4; j++)
              for (int i = 0; i < 4; i++)
                {
                  int xi = CLAMP ((int) fx - 1 + i, 0, (int) w - 1), yi = CLAMP ((int) fy - 1 + j, 0, (int) h - 1);
                  sum += kx[i] * ky[j] * lin[((gsize) yi * w + xi) * 3 + ch];
                }
            int want = (int) lround (CLAMP (lm_test_srgb_encode (MAX (sum, 0.0)), 0.0, 1.0) * 255.0);
            int d = abs (want - o[ch]);
            worst = MAX (worst, d);
            off += d > 0;
          }
        g_assert_cmpint (o[3], ==, 255);
      }
  g_test_message ("%u × %u: worst %d level, %u channel values off by one", w, h, worst, off);
  g_assert_cmpint (worst, <=, 1);
  /* Not met by doing nothing: the corners brighten by more than 2x at 24 mm f/4. */
  const guint8 *corner = lm_image_row (out, 2) + 2 * 4, *before = lm_image_row (src, 2) + 2 * 4;
  g_assert_cmpint (corner[1], >, before[1] + 20);
}

/* A profile whose coefficients are all zero (the models run, each the identity) at scale 1:
 * every 8- and 16-bit value comes back as it was (colour and gray); scene light within float
 * rounding. */
static void
test_identity (void)
{
  LmLensParams p;
  lm_op_params_init (&lm_lens_op, &p);
  p.scale = 1.0f;
  p.profile = (LmLensProfile) { .status = LM_LENS_FOUND, .dist_model = LM_LENS_DIST_PTLENS,
                                .tca_model = LM_LENS_TCA_LINEAR, .tca = { 1, 1 }, .vig_model = LM_LENS_VIG_PA,
                                .lens_crop = 1.5f, .lens_aspect = 1.5f, .camera_crop = 1.5f };
  LmLensMap m = lm_lens_map (&p, 61, 37);
  g_assert_true (lm_lens_active (&m));
  g_autoptr (LmImage) rgba = lm_test_random_rgba (61, 37, 5, TRUE);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_lens_op, &p, rgba);
  lm_test_assert_same_pixels (out, rgba);

  g_autoptr (LmImage) deep = lm_test_image_new (LM_FORMAT_RGBA16, 61, 37, 0);
  g_autoptr (LmImage) scene = lm_test_image_new (LM_FORMAT_RGBA_F32, 61, 37, 0);
  for (guint y = 0; y < 37; y++)
    for (guint x = 0; x < 61 * 4; x++)
      {
        guint v = (x * 7919 + y * 104729) % 65536;
        ((guint16 *) lm_image_row (deep, y))[x] = (guint16) v;
        ((float *) lm_image_row (scene, y))[x] = v / 16384.0f;
      }
  g_autoptr (LmImage) deep_out = lm_test_run_op (&lm_lens_op, &p, deep);
  lm_test_assert_same_pixels (deep_out, deep);
  g_autoptr (LmImage) gray = lm_test_random_gray (61, 37, 6);
  g_autoptr (LmImage) gray_out = lm_test_run_op (&lm_lens_op, &p, gray);
  lm_test_assert_same_pixels (gray_out, gray);
  g_autoptr (LmImage) gray16 = lm_test_image_new (LM_FORMAT_GRAY16, 61, 37, 0);
  for (guint y = 0; y < 37; y++)
    for (guint x = 0; x < 61; x++)
      ((guint16 *) lm_image_row (gray16, y))[x] = (guint16) ((x * 7919 + y * 104729) % 65536);
  g_autoptr (LmImage) gray16_out = lm_test_run_op (&lm_lens_op, &p, gray16);
  lm_test_assert_same_pixels (gray16_out, gray16);
  g_autoptr (LmImage) scene_out = lm_test_run_op (&lm_lens_op, &p, scene);
  for (guint y = 0; y < 37; y++)
    for (guint x = 0; x < 61 * 4; x++)
      {
        float a = ((float *) lm_image_row (scene, y))[x], b = ((float *) lm_image_row (scene_out, y))[x];
        g_assert_cmpfloat (fabsf (a - b), <=, 1e-5f * MAX (1.0f, a));
      }
}

/* Tiles (core/render/tiled.c): each output rectangle computed from the input rectangle that
 * source_rect asks for, with the tile's frame set, is the whole render's pixels there. */
static void
test_tiles (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "data", "lens",
                                            "canon-5d3-24mm.jpg", NULL);
  g_autoptr (LmImage) src = lm_io_load (path, lm_allocator_host (), NULL);
  g_assert_nonnull (src);
  LmLensParams p;
  commit_case (&cases[0], &p);
  g_autoptr (LmImage) whole = lm_test_run_op (&lm_lens_op, &p, src);
  const guint step = 128;
  for (guint ty = 0; ty < src->height; ty += step)
    for (guint tx = 0; tx < src->width; tx += step)
      {
        LmRect out = { tx, ty, MIN (step, src->width - tx), MIN (step, src->height - ty) }, in;
        lm_lens_op.source_rect (&p, src->width, src->height, &out, &in);
        g_autoptr (LmImage) piece = lm_test_image_new (LM_FORMAT_RGBA8, in.width, in.height, 0);
        for (guint y = 0; y < in.height; y++)
          memcpy (lm_image_row (piece, y), lm_image_row (src, in.y + y) + (gsize) in.x * 4, (gsize) in.width * 4);
        LmLensParams tp = p;
        tp.tile = (LmTileFrame) { src->width, src->height, in.x, in.y, out.x, out.y, out.width, out.height };
        g_autoptr (LmImage) got = lm_test_run_op (&lm_lens_op, &tp, piece);
        g_assert_cmpuint (got->width, ==, out.width);
        for (guint y = 0; y < out.height; y++)
          g_assert_cmpmem (lm_image_row (got, y), (gsize) out.width * 4,
                           lm_image_row (whole, out.y + y) + (gsize) out.x * 4, (gsize) out.width * 4);
      }
}

static int
status_of (const LmShotInfo *shot, const char *camera, const char *lens, float focal)
{
  LmLensProfile out;
  lm_lens_find (shot, camera, lens, focal, 0, &out);
  return out.status;
}

/* The synthetic EXIF of the test photo (written with exiftool: Canon EOS 5D Mark III, "EF24-105mm
 * f/4L IS USM" as Canon names it, 24 mm, f/4) finds lensfun's profile by itself. */
static void
test_exif (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "data", "lens",
                                            "canon-5d3-24mm.jpg", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) src = lm_io_load (path, lm_allocator_host (), &error);
  g_assert_no_error (error);
  LmShotInfo shot;
  lm_shot_info_from_image (src, &shot);
  g_assert_cmpstr (shot.make, ==, "Canon");
  g_assert_cmpstr (shot.model, ==, "Canon EOS 5D Mark III");
  g_assert_cmpstr (shot.lens, ==, "EF24-105mm f/4L IS USM");
  g_assert_cmpfloat (shot.focal_mm, ==, 24.0f);
  g_assert_cmpfloat (shot.f_number, ==, 4.0f);
  LmLensProfile found;
  lm_lens_find (&shot, "", "", 0, 0, &found);
  g_assert_cmpint (found.status, ==, LM_LENS_FOUND);
  g_assert_cmpstr (found.found, ==, "Canon EF 24-105mm f/4L IS USM");
  g_assert_cmpint (found.dist_model, ==, LM_LENS_DIST_PTLENS);
  g_assert_cmpfloat (found.dist[0], ==, 0.017263f); /* slr-canon.xml at 24 mm */
  g_assert_cmpfloat (found.dist[1], ==, -0.049244f);
  g_assert_cmpfloat (found.camera_crop, ==, 1.0f);
}

/* Names the database does not have, a photo that names nothing, a zoom without its focal
 * length, a lens without the correction asked for: each says so, and the render refuses
 * (check) rather than return the photo as if corrected; the CPU reference alone leaves it
 * as it was. */
static void
test_bad_input (void)
{
  LmShotInfo shot = { .make = "Canon", .model = "Canon EOS 5D Mark III", .focal_mm = 24, .f_number = 4 };
  g_assert_cmpint (status_of (&shot, "", "No Such Lens 13mm f/0.7", 0), ==, LM_LENS_UNKNOWN_LENS);
  g_assert_cmpint (status_of (&shot, "No Such Camera 9000", "Canon EF 24-105mm f/4L IS USM", 0), ==,
                   LM_LENS_UNKNOWN_CAMERA);
  g_assert_cmpint (status_of (&shot, "", "", 0), ==, LM_LENS_NO_LENS_NAME);
  g_assert_cmpint (status_of (NULL, "", "", 0), ==, LM_LENS_NO_LENS_NAME);
  g_assert_cmpint (status_of (NULL, "", "Canon EF 24-105mm f/4L IS USM", 0), ==, LM_LENS_NO_FOCAL);
  g_assert_cmpint (status_of (NULL, "", "Canon EF 24-105mm f/4L IS USM", 50), ==, LM_LENS_FOUND);

  /* A lens with a distortion profile alone, asked for vignetting alone. */
  LmLensParams p;
  lm_op_params_init (&lm_lens_op, &p);
  g_strlcpy (p.lens.s, "Nikon AI-S Nikkor 35mm f/1.4", sizeof p.lens.s);
  p.aperture = 2.8f, p.distortion = 0.0f, p.tca = 0.0f;
  LmOpContext context;
  lm_op_context_init (&context, NULL);
  context.shot = &shot;
  lm_lens_op.commit (&p, &context);
  g_assert_cmpint (p.profile.status, ==, LM_LENS_NO_PROFILE);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_lens_op.check (&p, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "Nikon AI-S Nikkor 35mm f/1.4"));
  g_assert_null (strchr (error->message, '\n'));
  g_autoptr (LmImage) rgba = lm_test_random_rgba (33, 21, 9, TRUE);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_lens_op, &p, rgba);
  lm_test_assert_same_pixels (out, rgba);
  /* The same lens with its distortion asked for is found. */
  p.distortion = 1.0f;
  lm_lens_op.commit (&p, &context);
  g_assert_cmpint (p.profile.status, ==, LM_LENS_FOUND);
  g_assert_true (lm_lens_op.check (&p, NULL));

  /* Names that are no names: a line break, a control character, too long. */
  const LmParamSpec *lens = &lm_lens_op.params[0];
  g_assert_cmpstr (lens->name, ==, "lens");
  g_autofree char *longest = g_strnfill (LM_PARAM_TEXT_SIZE, 'x');
  const char *bad[] = { "Canon\nEF", "a\tb", longest, "\xff\xfe" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) e = NULL;
      g_assert_false (lm_op_param_parse (&lm_lens_op, lens, &p, bad[i], &e));
      g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
    }
  g_assert_true (lm_op_param_parse (&lm_lens_op, lens, &p, "auto", NULL));
  g_assert_cmpstr (p.lens.s, ==, "");
  g_assert_true (lm_op_param_parse (&lm_lens_op, lens, &p, "Canon EF 24-105mm f/4L IS USM", NULL));
  g_autofree char *text = lm_op_param_to_string (lens, &p);
  g_assert_cmpstr (text, ==, "Canon EF 24-105mm f/4L IS USM");
}

static LmImage *
lens_photo (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "data", "lens",
                                            "canon-5d3-24mm.jpg", NULL);
  g_autoptr (GError) error = NULL;
  LmImage *src = lm_io_load (path, lm_allocator_host (), &error);
  g_assert_no_error (error);
  return src;
}

/* The white balance picker's point of the photo (lm_pipeline_photo_point) through the lens
 * correction: where the correction samples that output point (its G channel's place,
 * lm_lens_source, held to lensfun's modifier in /lens/models) with the profile the photo's
 * EXIF finds, not the point itself, which the uncommitted pipeline the window edits gave. */
static void
test_photo_point (void)
{
  g_autoptr (LmImage) src = lens_photo ();
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  LmStage *stage = lm_pipeline_stage (&pipeline, LM_OP_LENS);
  stage->enabled = TRUE;
  LmLensParams p = *(const LmLensParams *) stage->params.bytes;
  LmShotInfo shot;
  lm_shot_info_from_image (src, &shot);
  LmOpContext context;
  lm_op_context_init (&context, NULL);
  context.shot = &shot;
  lm_lens_op.commit (&p, &context);
  g_assert_cmpint (p.profile.status, ==, LM_LENS_FOUND);
  LmLensMap m = lm_lens_map (&p, src->width, src->height);
  const double points[][2] = { { 12, 9 }, { src->width - 13.0, src->height - 7.0 }, { 240.5, 150 } };
  double moved = 0.0;
  for (guint k = 0; k < G_N_ELEMENTS (points); k++)
    {
      float xy[6];
      lm_lens_source (&m, (float) points[k][0], (float) points[k][1], xy);
      double sx, sy;
      g_assert_true (lm_pipeline_photo_point (&pipeline, src, points[k][0], points[k][1], &sx, &sy));
      g_assert_cmpfloat_with_epsilon (sx, xy[2], 1e-3);
      g_assert_cmpfloat_with_epsilon (sy, xy[3], 1e-3);
      moved = MAX (moved, hypot (sx - points[k][0], sy - points[k][1]));
    }
  g_test_message ("the corners' points move by up to %.2f px", moved);
  g_assert_cmpfloat (moved, >, 2.0);
}

static double
srgb_curve (const void *space, int c, double v)
{
  return lm_test_srgb_decode (v);
}

static double
gamma_curve (const void *space, int c, double v)
{
  return pow (v, 2.2);
}

/* sRGB's tables are built once a process and kept: a profile's curve is not served from
 * them (a gamma of 2.2 gives other bytes than sRGB's, run after sRGB and before it again),
 * and the same curve through a profile gives the kept tables' bytes. 16 bits, where a
 * table has 65536 levels. */
static void
test_tables_kept (void)
{
  LmShotInfo shot = { .make = "Canon", .model = "Canon EOS 5D Mark III", .focal_mm = 24, .f_number = 4 };
  LmLensParams p;
  lm_op_params_init (&lm_lens_op, &p);
  g_strlcpy (p.lens.s, "Canon EF 24-105mm f/4L IS USM", sizeof p.lens.s);
  LmOpContext context;
  lm_op_context_init (&context, NULL);
  context.shot = &shot;
  lm_lens_op.commit (&p, &context);
  g_assert_cmpint (p.profile.status, ==, LM_LENS_FOUND);
  g_autoptr (LmImage) src8 = lm_test_random_rgba (61, 37, 5, FALSE);
  g_autoptr (LmImage) src = lm_test_deepen (src8);
  static const int profile; /* any address: a profile's */
  LmLensParams gamma = p, as_profile = p;
  gamma.curve.space = &profile, gamma.curve.to_linear = gamma_curve;
  as_profile.curve.space = &profile, as_profile.curve.to_linear = srgb_curve;
  g_autoptr (LmImage) first = lm_test_run_op (&lm_lens_op, &p, src);
  g_autoptr (LmImage) g1 = lm_test_run_op (&lm_lens_op, &gamma, src);
  g_autoptr (LmImage) again = lm_test_run_op (&lm_lens_op, &p, src);
  g_autoptr (LmImage) g2 = lm_test_run_op (&lm_lens_op, &gamma, src);
  g_autoptr (LmImage) through = lm_test_run_op (&lm_lens_op, &as_profile, src);
  lm_test_assert_same_pixels (first, again);
  lm_test_assert_same_pixels (g1, g2);
  lm_test_assert_same_pixels (first, through);
  gsize differ = 0;
  for (guint y = 0; y < src->height; y++)
    differ += memcmp (lm_image_row (first, y), lm_image_row (g1, y), src->width * 8) != 0;
  g_assert_cmpuint (differ, >, src->height / 2);
}

typedef struct {
  gboolean ready, done;
  char *notice;
  GError *error;
} Preview;

static void
on_result (const LmRenderResult *r, gpointer data)
{
  Preview *seen = data;
  if (r->kind == LM_RESULT_READY)
    seen->ready = TRUE;
  if (r->kind != LM_RESULT_PREVIEW || !(r->refined || r->error))
    return;
  g_free (seen->notice);
  seen->notice = g_strdup (r->notice);
  g_clear_error (&seen->error);
  seen->error = r->error ? g_error_copy (r->error) : NULL;
  seen->done = TRUE;
}

static void
await (gboolean *flag)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!*flag && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (*flag);
}

/* The window's preview of a photo that names no lens, the correction on: the render goes on
 * (the photo as it is) and its notice, the info bar's line, says why; with the correction
 * off, no notice. */
static void
test_preview_notice (void)
{
  Preview seen = { 0 };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen.ready);
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 48, 3, FALSE);
  lm_render_worker_set_source (w, src);
  LmRenderRequest req = { 0 };
  lm_pipeline_init (&req.pipeline);
  req.backend = LM_BACKEND_CPU;
  req.view = (LmViewRect) { 0, 0, 64, 48, 64, 48 };
  for (guint64 g = 1; g <= 2; g++)
    {
      gboolean on = g == 1;
      lm_pipeline_stage (&req.pipeline, LM_OP_LENS)->enabled = on;
      req.generation = g;
      seen.done = FALSE;
      lm_render_worker_request (w, &req);
      await (&seen.done);
      g_assert_no_error (seen.error);
      if (on)
        {
          g_assert_nonnull (seen.notice);
          g_test_message ("%s", seen.notice);
          g_assert_nonnull (strstr (seen.notice, "names no lens"));
          g_assert_null (strchr (seen.notice, '\n'));
        }
      else
        g_assert_null (seen.notice);
    }
  lm_render_worker_free (w);
  g_free (seen.notice);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  db = lf_db_new ();
  g_assert_true (lf_db_load (db) == LF_NO_ERROR);
  g_test_add_func ("/lens/models", test_models);
  g_test_add_func ("/lens/photo", test_photo);
  g_test_add_func ("/lens/identity", test_identity);
  g_test_add_func ("/lens/tiles", test_tiles);
  g_test_add_func ("/lens/exif", test_exif);
  g_test_add_func ("/lens/bad-input", test_bad_input);
  g_test_add_func ("/lens/photo-point", test_photo_point);
  g_test_add_func ("/lens/preview-notice", test_preview_notice);
  g_test_add_func ("/lens/tables-kept", test_tables_kept);
  int rc = g_test_run ();
  lf_db_destroy (db);
  return rc;
}
