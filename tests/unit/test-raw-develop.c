/* The raw development end to end on the CPU (core/raw/develop.c), on sensor data whose scene is
 * known: a camera that sees linear Rec. 2020 itself (its ColorMatrix is XYZ → Rec. 2020, built
 * here from BT.2020's primaries and D65), so that the developed scene must be the colours the
 * mosaic was sampled from, whatever the black, white, white balance and pattern. Flat patches,
 * where every demosaic is exact up to rounding. */
#include <math.h>

#include "core/raw-info.h"
#include "core/raw/develop.h"
#include "test-util.h"

/* XYZ → linear Rec. 2020 from the primaries and white (ITU-R BT.2020; SMPTE RP 177's method). */
static void
xyz_to_rec2020 (double m[3][3])
{
  const double xy[4][2] = { { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 }, { 0.3127, 0.3290 } };
  double p[3][3], w[3];
  for (int i = 0; i < 3; i++)
    {
      p[0][i] = xy[i][0] / xy[i][1];
      p[1][i] = 1.0;
      p[2][i] = (1.0 - xy[i][0] - xy[i][1]) / xy[i][1];
    }
  w[0] = xy[3][0] / xy[3][1], w[1] = 1.0, w[2] = (1.0 - xy[3][0] - xy[3][1]) / xy[3][1];
  /* S = P⁻¹ W; RGB → XYZ = P · diag (S); its inverse is wanted. */
  double det = p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) - p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0])
               + p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
  double inv[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        int a = (j + 1) % 3, b = (j + 2) % 3, c = (i + 1) % 3, d = (i + 2) % 3;
        inv[i][j] = (p[a][c] * p[b][d] - p[a][d] * p[b][c]) / det;
      }
  double s[3];
  for (int i = 0; i < 3; i++)
    s[i] = inv[i][0] * w[0] + inv[i][1] * w[1] + inv[i][2] * w[2];
  /* (P · diag S)⁻¹ = diag (1/S) · P⁻¹. */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      m[i][j] = inv[i][j] / s[i];
}

static LmRawInfo *
rec2020_camera (gboolean xtrans, float black, float white, const float as_shot[3])
{
  LmRawInfo *info = lm_raw_info_new ();
  static const guint8 bayer[2][2] = { { 1, 0 }, { 2, 3 } }; /* GRBG */
  static const guint8 xt[6][6] = { { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
                                   { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 } };
  info->layout = xtrans ? LM_RAW_XTRANS : LM_RAW_BAYER;
  info->cfa_w = info->cfa_h = xtrans ? 6 : 2;
  for (int y = 0; y < info->cfa_h; y++)
    for (int x = 0; x < info->cfa_w; x++)
      info->cfa[y][x] = xtrans ? xt[y][x] : bayer[y][x];
  info->black[0][0] = black;
  for (int c = 0; c < 4; c++)
    {
      info->white[c] = white;
      info->as_shot[c] = as_shot[c == 3 ? 1 : c];
    }
  info->matrix_source = LM_RAW_MATRIX_DNG;
  info->n_matrices = 1;
  info->illuminant[0] = 21;
  double m[3][3];
  xyz_to_rec2020 (m);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      info->xyz_to_cam[0][i][j] = (float) m[i][j];
  return info;
}

/* A flat patch of scene colour RGB (white-balanced camera = Rec. 2020) as the sensor records
 * it: divided by the white balance's multipliers, scaled into black..white. */
static void
check_flat (gboolean xtrans, const float rgb[3], const float as_shot[3], int method)
{
  const float black = 512, white = 16383;
  g_autoptr (LmRawInfo) info = rec2020_camera (xtrans, black, white, as_shot);
  guint w = 36, h = 30;
  g_autoptr (LmImage) cfa = lm_image_new (LM_FORMAT_CFA16, w, h, lm_allocator_host (), NULL);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        int c = info->cfa[y % info->cfa_h][x % info->cfa_w];
        c = c == 3 ? 1 : c;
        double v = black + rgb[c] / as_shot[c] * (white - black);
        ((guint16 *) lm_image_row (cfa, y))[x] = (guint16) lround (v);
      }
  /* 0xff bytes: NaN in every float, so a pixel left unwritten fails. */
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA_F32, w, h, 0xff);
  LmRawParams params;
  lm_op_params_init (lm_raw_op_info (), &params);
  params.demosaic = method;
  params.highlights = LM_RAW_HIGHLIGHTS_CLIP;
  g_assert_true (lm_raw_develop_cpu (&params, info, cfa, out, NULL));
  /* The sensor's 16-bit rounding is the error: half a level of 15871, over the smallest
   * multiplier's division, through a matrix of gain ~1. */
  double tol = 2e-4;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        const float *px = (const float *) lm_image_row (out, y) + 4 * x;
        for (int c = 0; c < 3; c++)
          if (fabs (px[c] - rgb[c]) > tol)
            g_error ("%s method %d at (%u, %u) channel %d: %.6f, expected %.6f", xtrans ? "X-Trans" : "Bayer", method,
                     x, y, c, px[c], rgb[c]);
        g_assert_cmpfloat (px[3], ==, 1.0f);
      }
}

static void
test_flat_scene_returns (void)
{
  const float colours[][3] = { { 0.18f, 0.18f, 0.18f }, { 0.5f, 0.2f, 0.05f }, { 0.02f, 0.3f, 0.6f } };
  const float balances[][3] = { { 1, 1, 1 }, { 2.1f, 1, 1.6f } };
  for (guint i = 0; i < G_N_ELEMENTS (colours); i++)
    for (guint b = 0; b < G_N_ELEMENTS (balances); b++)
      {
        check_flat (FALSE, colours[i], balances[b], LM_RAW_DEMOSAIC_RCD);
        check_flat (FALSE, colours[i], balances[b], LM_RAW_DEMOSAIC_BILINEAR);
        check_flat (TRUE, colours[i], balances[b], LM_RAW_DEMOSAIC_MARKESTEIJN3);
        check_flat (TRUE, colours[i], balances[b], LM_RAW_DEMOSAIC_MARKESTEIJN1);
      }
}

/* The exposure is a gain on the scene: +1 EV doubles it. */
static void
test_exposure_is_a_gain (void)
{
  const float one[3] = { 1, 1, 1 };
  g_autoptr (LmRawInfo) info = rec2020_camera (FALSE, 0, 65535, one);
  g_autoptr (LmImage) cfa = lm_image_new (LM_FORMAT_CFA16, 8, 8, lm_allocator_host (), NULL);
  for (guint y = 0; y < 8; y++)
    for (guint x = 0; x < 8; x++)
      ((guint16 *) lm_image_row (cfa, y))[x] = 6553;
  g_autoptr (LmImage) a = lm_image_new (LM_FORMAT_RGBA_F32, 8, 8, lm_allocator_host (), NULL);
  g_autoptr (LmImage) b = lm_image_new (LM_FORMAT_RGBA_F32, 8, 8, lm_allocator_host (), NULL);
  LmRawParams params;
  lm_op_params_init (lm_raw_op_info (), &params);
  g_assert_true (lm_raw_develop_cpu (&params, info, cfa, a, NULL));
  params.exposure = 1.0f;
  g_assert_true (lm_raw_develop_cpu (&params, info, cfa, b, NULL));
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (((float *) b->data)[c], 2.0f * ((float *) a->data)[c], 1e-6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/raw-develop/flat-scene-returns", test_flat_scene_returns);
  g_test_add_func ("/raw-develop/exposure-is-a-gain", test_exposure_is_a_gain);
  return g_test_run ();
}
