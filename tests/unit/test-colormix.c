/* The colour mixer against known answers, with Oklab written out here in double precision
 * (Ottosson's matrices, libm's cbrt and atan2): all at 0 is the identity; a colour at a band's
 * centre turns by exactly that band's hue shift; one shift on every band turns every colour by
 * it; greys stay as they are under any setting; a band leaves the hues beyond its neighbours'
 * centres bit for bit; and a sweep around the hue circle with neighbouring bands at opposite
 * extremes moves by no more than the smoothstep's slope allows at any step. 8- and 16-bit, in
 * poisoned buffers (lm_test_run_op). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "test-util.h"

static const double centre[8] = { 25, 55, 105, 145, 195, 260, 295, 330 };

/* ---- Oklab in double: the test's own definition ---- */

static double
decode (double v)
{
  double a = fabs (v), l = a <= 0.04045 ? a / 12.92 : pow ((a + 0.055) / 1.055, 2.4);
  return v < 0 ? -l : l;
}

static double
encode (double l)
{
  double a = fabs (l), v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow (a, 1 / 2.4) - 0.055;
  return l < 0 ? -v : v;
}

/* Encoded R, G, B (0..255) to L, C, h (degrees, 0..360). */
static void
to_lch (const double rgb[3], double lch[3])
{
  double r = decode (rgb[0] / 255), g = decode (rgb[1] / 255), b = decode (rgb[2] / 255);
  double l = cbrt (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  double m = cbrt (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  double s = cbrt (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  double A = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
  double B = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
  lch[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
  lch[1] = hypot (A, B);
  lch[2] = fmod (atan2 (B, A) * 180 / G_PI + 360, 360);
}

static void
from_lch (const double lch[3], double rgb[3])
{
  double A = lch[1] * cos (lch[2] * G_PI / 180), B = lch[1] * sin (lch[2] * G_PI / 180);
  double l = lch[0] + 0.3963377774 * A + 0.2158037573 * B;
  double m = lch[0] - 0.1055613458 * A - 0.0638541728 * B;
  double s = lch[0] - 0.0894841775 * A - 1.2914855480 * B;
  l = l * l * l, m = m * m * m, s = s * s * s;
  rgb[0] = 255 * encode (4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s);
  rgb[1] = 255 * encode (-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s);
  rgb[2] = 255 * encode (-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s);
}

/* The signed difference of two hues, −180..180. */
static double
hue_diff (double a, double b)
{
  double d = fmod (a - b + 540, 360) - 180;
  return d;
}

/* ---- helpers ---- */

/* Band K's (hue, saturation, lightness) parameters: the op's table lists three a band, in
 * band order, as its panel and flags do. */
static void
set_band (LmColormixParams *p, int k, float hue, float sat, float light)
{
  const float v[3] = { hue, sat, light };
  static const char *const kinds[3] = { "_hue", "_sat", "_light" };
  for (int i = 0; i < 3; i++)
    {
      const LmParamSpec *spec = &lm_colormix_op.params[3 * k + i];
      g_assert_true (g_str_has_suffix (spec->name, kinds[i]));
      G_STRUCT_MEMBER (float, p, spec->offset) = v[i];
    }
}

static LmColormixParams
params_zero (void)
{
  LmColormixParams p;
  lm_op_params_init (&lm_colormix_op, &p);
  return p;
}

/* The pixel part as the fused pass runs it, on unrounded floats. */
static void
pixel (const LmColormixParams *p, const double in[3], double out[3])
{
  LmPointPass pass;
  lm_point_pass_init (&pass);
  lm_point_pass_add (&pass, &lm_colormix_op, p);
  LmPointPixels px = lm_point_pass_pixels (&pass);
  float r = (float) in[0], g = (float) in[1], b = (float) in[2];
  lm_point_pixel (&px, &r, &g, &b);
  out[0] = r, out[1] = g, out[2] = b;
}

static gboolean
in_gamut (const double rgb[3], double margin)
{
  for (int c = 0; c < 3; c++)
    if (!(rgb[c] >= margin && rgb[c] <= 255 - margin))
      return FALSE;
  return TRUE;
}

static LmImage *
rgba16_from (guint width, guint height, const double *rgb)
{
  LmImage *img = lm_test_image_new (LM_FORMAT_RGBA16, width, height, 0x5a);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        const double *v = rgb + 3 * ((gsize) y * width + x);
        guint16 *o = (guint16 *) lm_test_pixel (img, x, y);
        for (int c = 0; c < 3; c++)
          o[c] = (guint16) lround (v[c] * 257);
        o[3] = (guint16) (1000 * x + y); /* an alpha that must come through */
      }
  return img;
}

static void
rgb16_at (const LmImage *img, guint x, guint y, double rgb[3])
{
  const guint16 *p = (const guint16 *) lm_test_pixel (img, x, y);
  for (int c = 0; c < 3; c++)
    rgb[c] = p[c] / 257.0;
}

/* ---- tests ---- */

static void
test_identity (void)
{
  LmColormixParams p = params_zero ();
  g_autoptr (LmImage) src = lm_test_random_rgba (67, 9, 3, TRUE);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_colormix_op, &p, src);
  lm_test_assert_same_pixels (src, out);
  g_autoptr (LmImage) src16 = lm_test_image_new (LM_FORMAT_RGBA16, 61, 7, 0);
  for (guint y = 0; y < 7; y++)
    for (guint x = 0; x < 61; x++)
      for (int c = 0; c < 4; c++)
        ((guint16 *) lm_test_pixel (src16, x, y))[c] = (guint16) ((x * 7919 + y * 104729 + c * 15485863) & 0xffff);
  g_autoptr (LmImage) out16 = lm_test_run_op (&lm_colormix_op, &p, src16);
  lm_test_assert_same_pixels (src16, out16);
}

/* A colour of chroma 0.1 at each band's centre (L 0.7; in sRGB's gamut at every centre),
 * its band turned by +20° and its neighbours by −25° and −15°: the hue moves by 20° to within
 * the 16-bit rounding of the input (0.02°), lightness and chroma stay. The same through the
 * op on a 16-bit image, poisoned, alpha kept. */
static void
test_band_centre (void)
{
  double rgb[8 * 3];
  for (int k = 0; k < 8; k++)
    {
      double lch[3] = { 0.7, 0.1, centre[k] };
      from_lch (lch, rgb + 3 * k);
      g_assert_true (in_gamut (rgb + 3 * k, 1));
      /* 16-bit values, so that the image below holds the same colours */
      for (int c = 0; c < 3; c++)
        rgb[3 * k + c] = round (rgb[3 * k + c] * 257) / 257;
    }
  g_autoptr (LmImage) src = rgba16_from (8, 1, rgb);
  for (int k = 0; k < 8; k++)
    {
      LmColormixParams p = params_zero ();
      set_band (&p, (k + 7) % 8, -25, 0.5f, -0.5f);
      set_band (&p, k, 20, 0, 0);
      set_band (&p, (k + 1) % 8, -15, -0.5f, 0.5f);
      double in[3], out[3], before[3], after[3];
      memcpy (in, rgb + 3 * k, sizeof in);
      pixel (&p, in, out);
      to_lch (in, before), to_lch (out, after);
      g_test_message ("band %d: hue %.4f → %.4f, C %.5f → %.5f, L %.5f → %.5f", k, before[2], after[2], before[1],
                      after[1], before[0], after[0]);
      g_assert_cmpfloat (fabs (hue_diff (after[2], before[2]) - 20), <, 0.02);
      g_assert_cmpfloat (fabs (after[1] - before[1]), <, 1e-5);
      g_assert_cmpfloat (fabs (after[0] - before[0]), <, 1e-5);

      g_autoptr (LmImage) res = lm_test_run_op (&lm_colormix_op, &p, src);
      double got[3], lch[3];
      rgb16_at (res, k, 0, got);
      to_lch (got, lch);
      g_assert_cmpfloat (fabs (hue_diff (lch[2], before[2]) - 20), <, 0.03);
      g_assert_cmpuint (((guint16 *) lm_test_pixel (res, k, 0))[3], ==, 1000 * k);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* The same edit on every band is a global one: each colour (chroma ≥ 0.05, result in gamut)
 * turns by 12°, its chroma grows by 30 % and its lightness by 10 %, whatever its hue: at 8
 * bits, within 0.51 level of the exact result (its rounding, and float's error). */
static void
test_all_bands_global (void)
{
  LmColormixParams p = params_zero ();
  for (int k = 0; k < 8; k++)
    set_band (&p, k, 12, 0.3f, 0.2f);
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 32, 17, FALSE);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_colormix_op, &p, src);
  guint checked = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *i8 = lm_test_pixel (src, x, y), *o8 = lm_test_pixel (out, x, y);
        double in[3] = { i8[0], i8[1], i8[2] }, lch[3], want[3];
        to_lch (in, lch);
        if (lch[1] < 0.05)
          continue;
        double moved[3] = { lch[0] * 1.1, lch[1] * 1.3, fmod (lch[2] + 12, 360) };
        from_lch (moved, want);
        if (!in_gamut (want, 0.5))
          continue;
        for (int c = 0; c < 3; c++)
          g_assert_cmpfloat (fabs (o8[c] - want[c]), <=, 0.5 + 0.01);
        checked++;
        LM_TEST_RETURN_IF_FAILED ();
      }
  g_test_message ("%u coloured pixels checked", checked);
  g_assert_cmpuint (checked, >, 200);
}

/* Greys, every 8-bit level and a sweep of 16-bit ones, under the strongest settings of both
 * signs, come out as they went in; so do gray images (GRAY8, GRAY16), which have no colour. */
static void
test_greys (void)
{
  const float settings[][3] = { { 30, 1, 1 }, { -30, -1, -1 }, { 17.5f, -1, 1 } };
  for (guint s = 0; s < G_N_ELEMENTS (settings); s++)
    {
      LmColormixParams p = params_zero ();
      for (int k = 0; k < 8; k++)
        set_band (&p, k, (k % 2 ? -1 : 1) * settings[s][0], settings[s][1], settings[s][2]);
      guint8 px[256 * 4];
      for (int v = 0; v < 256; v++)
        px[4 * v] = px[4 * v + 1] = px[4 * v + 2] = (guint8) v, px[4 * v + 3] = (guint8) (255 - v);
      g_autoptr (LmImage) src = lm_test_rgba_from (256, 1, px);
      g_autoptr (LmImage) out = lm_test_run_op (&lm_colormix_op, &p, src);
      lm_test_assert_same_pixels (src, out);

      g_autoptr (LmImage) src16 = lm_test_image_new (LM_FORMAT_RGBA16, 256, 32, 0);
      for (guint y = 0; y < 32; y++)
        for (guint x = 0; x < 256; x++)
          {
            guint16 *o = (guint16 *) lm_test_pixel (src16, x, y);
            o[0] = o[1] = o[2] = (guint16) (y * 2048 + x * 8 + (x + y) % 8), o[3] = 65535;
          }
      g_autoptr (LmImage) out16 = lm_test_run_op (&lm_colormix_op, &p, src16);
      lm_test_assert_same_pixels (src16, out16);

      g_autoptr (LmImage) gray = lm_test_random_gray (33, 5, 7);
      g_autoptr (LmImage) gray_out = lm_test_run_op (&lm_colormix_op, &p, gray);
      lm_test_assert_same_pixels (gray, gray_out);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* Green's band (centre 145°) reaches yellow's and aqua's centres (105°, 195°) and no further:
 * every pixel of a random image whose hue lies outside them keeps its bytes. */
static void
test_band_reach (void)
{
  LmColormixParams p = params_zero ();
  set_band (&p, 3, 30, 1, -1);
  g_autoptr (LmImage) src = lm_test_random_rgba (128, 64, 5, FALSE);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_colormix_op, &p, src);
  guint outside = 0, moved_inside = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        const guint8 *i8 = lm_test_pixel (src, x, y), *o8 = lm_test_pixel (out, x, y);
        double in[3] = { i8[0], i8[1], i8[2] }, lch[3];
        to_lch (in, lch);
        gboolean same = memcmp (i8, o8, 3) == 0;
        if (lch[2] < 104.9 || lch[2] > 195.1)
          {
            g_assert_true (same);
            outside++;
          }
        else if (lch[2] > 125 && lch[2] < 165 && lch[1] > 0.05)
          moved_inside += !same;
        LM_TEST_RETURN_IF_FAILED ();
      }
  g_test_message ("%u pixels outside the band's reach kept, %u inside moved", outside, moved_inside);
  g_assert_cmpuint (outside, >, 4000);
  g_assert_cmpuint (moved_inside, >, 100);
}

/* A sweep around the hue circle in steps of 0.05° (L 0.65, chroma 0.08), the bands at
 * alternating extremes (hue ±30°, saturation ±0.5 — at −1 the chroma would vanish and the hue
 * with it —, lightness ±1). The smoothstep's slope is at most 1.5 per band width, the
 * narrowest width 30° (red to orange), so the blended hue shift changes by at most 60° · 1.5 /
 * 30° = 3° per degree: the output's hue may move by at most (1 + 3) · 0.05° = 0.2° a step, its
 * chroma by 0.08 · 1 · 1.5 / 30 · 0.05 = 0.0002 and its lightness by 0.65 · 0.5 · 2 · 1.5 / 30
 * · 0.05 = 0.0016 (bounds below with 10 % room); hard band edges would jump by 60°. Unclipped
 * floats, through the fused pass's pixel part. */
static void
test_hue_sweep (void)
{
  LmColormixParams p = params_zero ();
  for (int k = 0; k < 8; k++)
    set_band (&p, k, k % 2 ? -30 : 30, k % 2 ? -0.5f : 0.5f, k % 2 ? 1 : -1);
  double prev[3] = { 0 }, max_dh = 0, max_dc = 0, max_dl = 0;
  for (int i = 0; i <= 7200; i++)
    {
      double lch[3] = { 0.65, 0.08, i * 0.05 }, in[3], out[3], got[3];
      from_lch (lch, in);
      pixel (&p, in, out);
      to_lch (out, got);
      if (i > 0)
        {
          max_dh = fmax (max_dh, fabs (hue_diff (got[2], prev[2])));
          max_dc = fmax (max_dc, fabs (got[1] - prev[1]));
          max_dl = fmax (max_dl, fabs (got[0] - prev[0]));
        }
      memcpy (prev, got, sizeof prev);
    }
  g_test_message ("largest step of the output: hue %.4f°, chroma %.6f, lightness %.6f", max_dh, max_dc, max_dl);
  g_assert_cmpfloat (max_dh, <=, 0.22);
  g_assert_cmpfloat (max_dc, <=, 0.00022);
  g_assert_cmpfloat (max_dl, <=, 0.00176);
}

/* Values an earlier operation pushed out of 0..255 (exposure +5, a low black point) go
 * through the pixel part as finite numbers, as the other point operations keep them: no NaN
 * for the pass's rounding to turn into black. */
static void
test_out_of_range_values (void)
{
  LmColormixParams p = params_zero ();
  for (int k = 0; k < 8; k++)
    set_band (&p, k, k % 2 ? -30 : 30, k % 2 ? -1 : 1, k % 2 ? 1 : -1);
  const double cases[][3] = { { -40, 10, 300 }, { 8000, 7000, 200 }, { 1e6, 0, 0 }, { -1e4, -2e4, -1 },
                              { 255.5, 300, -0.001 }, { 1e-30, 2e-30, 0 } };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double out[3];
      pixel (&p, cases[i], out);
      g_test_message ("(%g, %g, %g) → (%g, %g, %g)", cases[i][0], cases[i][1], cases[i][2], out[0], out[1], out[2]);
      for (int c = 0; c < 3; c++)
        g_assert_true (isfinite (out[c]));
    }
}

/* A commit with a profile mixes in its primaries. Given sRGB's own matrix (as a profile that
 * is not recognised as sRGB would give it), the result is the sRGB path's within one level
 * (Oklab's published matrix is that product, rounded); given ProPhoto's, whose white is D50,
 * greys still stay exactly as they are: its white is made Oklab's neutral. */
static void
test_profile_commit (void)
{
  static const double srgb[3][3] = { { 3.2404542, -1.5371385, -0.4985314 },
                                     { -0.9692660, 1.8760108, 0.0415560 },
                                     { 0.0556434, -0.2040259, 1.0572252 } };
  static const double prophoto[3][3] = { { 1.3459433, -0.2556075, -0.0511118 },
                                         { -0.5445989, 1.5081673, 0.0205351 },
                                         { 0.0, 0.0, 1.2118128 } };
  static const int token = 0;
  LmColormixParams plain = params_zero ();
  for (int k = 0; k < 8; k++)
    set_band (&plain, k, k % 2 ? -20 : 25, k % 3 ? 0.6f : -0.7f, k % 2 ? 0.8f : -0.5f);
  LmOpContext context = { .color = { .space = &token } };
  memcpy (context.color.xyz_to_rgb, srgb, sizeof srgb);
  LmColormixParams as_profile = plain;
  lm_colormix_op.commit (&as_profile, &context);
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 32, 23, FALSE);
  g_autoptr (LmImage) a = lm_test_run_op (&lm_colormix_op, &plain, src);
  g_autoptr (LmImage) b = lm_test_run_op (&lm_colormix_op, &as_profile, src);
  int worst = 0;
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      for (int c = 0; c < 3; c++)
        worst = MAX (worst, abs (lm_test_pixel (a, x, y)[c] - lm_test_pixel (b, x, y)[c]));
  g_test_message ("sRGB as a profile: max |Δ| %d", worst);
  g_assert_cmpint (worst, <=, 1);

  memcpy (context.color.xyz_to_rgb, prophoto, sizeof prophoto);
  LmColormixParams wide = plain;
  lm_colormix_op.commit (&wide, &context);
  guint8 px[256 * 4];
  for (int v = 0; v < 256; v++)
    px[4 * v] = px[4 * v + 1] = px[4 * v + 2] = (guint8) v, px[4 * v + 3] = 255;
  g_autoptr (LmImage) greys = lm_test_rgba_from (256, 1, px);
  g_autoptr (LmImage) out = lm_test_run_op (&lm_colormix_op, &wide, greys);
  lm_test_assert_same_pixels (greys, out);
  /* and it does mix: a colour moves */
  g_autoptr (LmImage) moved = lm_test_run_op (&lm_colormix_op, &wide, src);
  g_assert_false (memcmp (lm_image_row (moved, 0), lm_image_row (src, 0), 64 * 4) == 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/colormix/identity", test_identity);
  g_test_add_func ("/colormix/band-centre", test_band_centre);
  g_test_add_func ("/colormix/all-bands-global", test_all_bands_global);
  g_test_add_func ("/colormix/greys", test_greys);
  g_test_add_func ("/colormix/band-reach", test_band_reach);
  g_test_add_func ("/colormix/hue-sweep", test_hue_sweep);
  g_test_add_func ("/colormix/out-of-range-values", test_out_of_range_values);
  g_test_add_func ("/colormix/profile-commit", test_profile_commit);
  return g_test_run ();
}
