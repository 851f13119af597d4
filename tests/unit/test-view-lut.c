/* The view transform: its 3-D LUT against lcms2's exact transform on colord's profiles (the
 * accuracy docs/user-guide.md states), its sampling on known answers, the sRGB-to-sRGB shortcut,
 * profiles that cannot serve, 16-bit views and the "as seen" histogram. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>

#include "core/color/seen-histogram.h"
#include "core/error.h"
#include "core/color/view-transform.h"
#include "core/io/monitor-profile.h"
#include "core/ops/view.h"
#include "test-util.h"

#define COLORD "/usr/share/color/icc/colord/"

static GBytes *
profile (const char *name)
{
  g_autofree char *path = g_build_filename (COLORD, name, NULL);
  g_autoptr (GError) e = NULL;
  GBytes *b = lm_monitor_profile_load (path, &e);
  if (b == NULL)
    g_test_skip_printf ("%s (colord-data) is not there: %s", path, e->message);
  return b;
}

/* Reproducible pseudo-random 16-bit values. */
static guint32
next_random (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 16;
}

/* The largest distance, in 8-bit levels, between the tables (GRID nodes) and lcms2's exact
 * transform from SRC to MON, over every 8-bit input on a step of 5 and 50 000 random 16-bit
 * ones. */
static double
lut_error (const char *src_name, const char *mon_name, guint grid, gboolean *identity)
{
  g_autoptr (GBytes) src = src_name ? profile (src_name) : NULL;
  g_autoptr (GBytes) mon = mon_name ? profile (mon_name) : NULL;
  if ((src_name && !src) || (mon_name && !mon))
    return 0.0;
  g_autoptr (GError) e = NULL;
  g_autoptr (LmViewTransform) xf = lm_view_transform_new (src, mon, grid, &e);
  g_assert_no_error (e);
  const LmLut3d *lut = lm_view_transform_lut (xf);
  *identity = lut == NULL;
  if (lut == NULL)
    return 0.0;
  gsize n8 = 52 * 52 * 52, n = n8 + 50000;
  g_autofree guint16 *in = g_new (guint16, n * 3);
  gsize k = 0;
  for (guint r = 0; r < 256; r += 5)
    for (guint g = 0; g < 256; g += 5)
      for (guint b = 0; b < 256; b += 5, k += 3)
        in[k] = r * 257, in[k + 1] = g * 257, in[k + 2] = b * 257;
  guint32 state = 12345;
  for (; k < n * 3; k++)
    in[k] = (guint16) next_random (&state);
  g_autofree float *fin = g_new (float, n * 3), *fout = g_new (float, n * 3);
  for (k = 0; k < n * 3; k++)
    fin[k] = in[k] / 65535.0f;
  g_assert_true (lm_view_transform_exact (src, mon, fin, fout, n, &e));
  double worst = 0.0;
  for (k = 0; k < n * 3; k += 3)
    {
      guint16 o[3];
      lm_lut3d_sample (lut, in[k], in[k + 1], in[k + 2], o);
      for (int c = 0; c < 3; c++)
        {
          double exact = CLAMP ((double) fout[k + c], 0.0, 1.0) * 255.0;
          worst = MAX (worst, fabs (o[c] / 257.0 - exact));
        }
    }
  return worst;
}

/* The grid of LM_VIEW_LUT_GRID keeps the view within LM_VIEW_LUT_MAX_ERROR of lcms2 on wide
 * gamuts both ways; other grids are reported for comparison (the figures of docs/user-guide.md). */
static void
test_lut_accuracy (void)
{
  static const char *pairs[][2] = {
    { "AdobeRGB1998.icc", NULL },       { "ProPhotoRGB.icc", NULL },
    { NULL, "AdobeRGB1998.icc" },       { "ProPhotoRGB.icc", "AdobeRGB1998.icc" },
    { "sRGB.icc", "ProPhotoRGB.icc" },  { "AdobeRGB1998.icc", "Rec709.icc" },
    { "WideGamutRGB.icc", "sRGB.icc" }, { "Rec709.icc", "sRGB.icc" },
  };
  static const guint grids[] = { 17, LM_VIEW_LUT_GRID };
  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    for (guint gi = 0; gi < G_N_ELEMENTS (grids); gi++)
      {
        gboolean identity = FALSE;
        double err = lut_error (pairs[p][0], pairs[p][1], grids[gi], &identity);
        LM_TEST_RETURN_IF_FAILED ();
        if (g_test_failed () || identity)
          continue;
        g_test_message ("%s → %s, %u³ nodes: max |LUT − lcms2| = %.3f levels",
                        pairs[p][0] ? pairs[p][0] : "sRGB", pairs[p][1] ? pairs[p][1] : "sRGB",
                        grids[gi], err);
        if (grids[gi] == LM_VIEW_LUT_GRID)
          g_assert_cmpfloat (err, <, LM_VIEW_LUT_MAX_ERROR);
      }
}

/* Tables of N nodes with identity shapers, node (r, g, b) from NODE (values in 1/65535ths). */
static gint32 *
make_tables (guint n, void (*node) (guint n, guint r, guint g, guint b, double v[3]))
{
  gint32 *data = g_new (gint32, lm_lut3d_entries (n));
  gint32 *in = data, *nodes = data + 3 * LM_LUT3D_SHAPER_IN, *out = nodes + n * n * n * 3;
  for (guint c = 0; c < 3; c++)
    {
      for (guint i = 0; i < LM_LUT3D_SHAPER_IN; i++)
        in[c * LM_LUT3D_SHAPER_IN + i] = (gint32) floor (i * (double) LM_LUT3D_ONE / 65535.0 + 0.5);
      for (guint i = 0; i < LM_LUT3D_SHAPER_OUT; i++)
        {
          double x = i < LM_LUT3D_SHAPER_FINE ? i : MIN ((i - LM_LUT3D_SHAPER_FINE) * (double) (1 << LM_LUT3D_COARSE_SHIFT), (double) LM_LUT3D_ONE);
          out[c * LM_LUT3D_SHAPER_OUT + i] = (gint32) floor (x * 65535.0 / LM_LUT3D_ONE + 0.5);
        }
    }
  for (guint r = 0, k = 0; r < n; r++)
    for (guint g = 0; g < n; g++)
      for (guint b = 0; b < n; b++, k += 3)
        {
          double v[3];
          node (n, r, g, b, v);
          for (int c = 0; c < 3; c++)
            nodes[k + c] = (gint32) floor (v[c] / 65535.0 * LM_LUT3D_ONE + 0.5);
        }
  return data;
}

static void
counting_node (guint n, guint r, guint g, guint b, double v[3])
{
  guint k = ((r * n + g) * n + b) * 3;
  for (int c = 0; c < 3; c++)
    v[c] = 1000.0 * (k + c) + 7;
}

static void
identity_node (guint n, guint r, guint g, guint b, double v[3])
{
  v[0] = r * 65535.0 / (n - 1), v[1] = g * 65535.0 / (n - 1), v[2] = b * 65535.0 / (n - 1);
}

/* Known answers: at a node its value comes back; halfway along the red axis of a 2-node
 * table, the mean of its ends; on the diagonal, the mean of black and white; a 33-node
 * identity gives back every 8-bit value and every 16-bit one within one step. */
static void
test_lut_sampling (void)
{
  g_autofree gint32 *table = make_tables (2, counting_node);
  LmLut3d lut = { table, 2 };
  guint16 o[3];
  lm_lut3d_sample (&lut, 0, 0, 0, o);
  g_assert_cmpuint (o[0], ==, 7);
  g_assert_cmpuint (o[2], ==, 2007);
  lm_lut3d_sample (&lut, 65535, 65535, 65535, o);
  g_assert_cmpuint (o[0], ==, 21007);
  lm_lut3d_sample (&lut, 65535, 0, 65535, o); /* node (1, 0, 1): entry 15 */
  g_assert_cmpuint (o[1], ==, 16007);
  lm_lut3d_sample (&lut, 32768, 0, 0, o);
  g_assert_cmpint (abs ((int) o[0] - 6007), <=, 1);
  lm_lut3d_sample (&lut, 32768, 32768, 32768, o);
  g_assert_cmpint (abs ((int) o[0] - (7 + 21007) / 2), <=, 1);

  guint n = 33;
  g_autofree gint32 *id = make_tables (n, identity_node);
  LmLut3d idl = { id, n };
  for (guint v = 0; v < 256; v++)
    {
      lm_lut3d_sample (&idl, v * 257, (255 - v) * 257, (v * 7 % 256) * 257, o);
      g_assert_cmpuint (lm_u16_to_u8 (o[0]), ==, v);
      g_assert_cmpuint (lm_u16_to_u8 (o[1]), ==, 255 - v);
      g_assert_cmpuint (lm_u16_to_u8 (o[2]), ==, v * 7 % 256);
    }
  for (guint v = 0; v < 65536; v += 37)
    {
      lm_lut3d_sample (&idl, v, 65535 - v, v, o);
      g_assert_cmpint (abs ((int) o[0] - (int) v), <=, 1);
      g_assert_cmpint (abs ((int) o[1] - (int) (65535 - v)), <=, 1);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

/* sRGB to sRGB, whichever file says so, needs no LUT; Adobe RGB to sRGB does. */
static void
test_srgb_shortcut (void)
{
  g_autoptr (GBytes) srgb = profile ("sRGB.icc");
  g_autoptr (GBytes) adobe = profile ("AdobeRGB1998.icc");
  if (!srgb || !adobe)
    return;
  g_autoptr (LmViewTransform) a = lm_view_transform_new (NULL, NULL, LM_VIEW_LUT_GRID, NULL);
  g_autoptr (LmViewTransform) b = lm_view_transform_new (srgb, NULL, LM_VIEW_LUT_GRID, NULL);
  g_autoptr (LmViewTransform) c = lm_view_transform_new (NULL, srgb, LM_VIEW_LUT_GRID, NULL);
  g_autoptr (LmViewTransform) d = lm_view_transform_new (adobe, srgb, LM_VIEW_LUT_GRID, NULL);
  g_assert_null (lm_view_transform_lut (a));
  g_assert_null (lm_view_transform_lut (b));
  g_assert_null (lm_view_transform_lut (c));
  g_assert_nonnull (lm_view_transform_lut (d));
  g_assert_cmpuint (lm_view_transform_id (a), !=, lm_view_transform_id (b));
  g_assert_null (lm_view_transform_note (d));
}

static GBytes *
gray_profile (void)
{
  cmsToneCurve *gamma = cmsBuildGamma (NULL, 2.2);
  cmsHPROFILE p = cmsCreateGrayProfile (cmsD50_xyY (), gamma);
  cmsUInt32Number size = 0;
  cmsSaveProfileToMem (p, NULL, &size);
  void *mem = g_malloc (size);
  cmsSaveProfileToMem (p, mem, &size);
  cmsCloseProfile (p);
  cmsFreeToneCurve (gamma);
  return g_bytes_new_take (mem, size);
}

/* A damaged or gray source profile: sRGB and a note; a damaged monitor profile: an error
 * that says why; a monitor profile file that is not there: an error naming it. */
static void
test_bad_profiles (void)
{
  g_autoptr (GBytes) junk = g_bytes_new_static ("not a profile at all, really", 28);
  g_autoptr (GBytes) gray = gray_profile ();
  g_autoptr (GError) e = NULL;
  g_autoptr (LmViewTransform) a = lm_view_transform_new (junk, NULL, LM_VIEW_LUT_GRID, &e);
  g_assert_no_error (e);
  g_assert_nonnull (lm_view_transform_note (a));
  g_assert_null (lm_view_transform_lut (a)); /* shown as sRGB on sRGB */
  g_autoptr (LmViewTransform) b = lm_view_transform_new (gray, NULL, LM_VIEW_LUT_GRID, &e);
  g_assert_no_error (e);
  g_assert_nonnull (strstr (lm_view_transform_note (b), "RGB"));
  g_autoptr (LmViewTransform) c = lm_view_transform_new (NULL, junk, LM_VIEW_LUT_GRID, &e);
  g_assert_null (c);
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&e);
  g_autofree char *bad = lm_test_write_tmp ("bad.icc", "nonsense", 8);
  g_autoptr (GBytes) d = lm_monitor_profile_load (bad, &e);
  g_assert_null (d);
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_FORMAT);
  g_assert_nonnull (strstr (e->message, bad));
  g_clear_error (&e);
  g_autofree char *absent = g_build_filename (lm_test_tmp_dir (), "absent.icc", NULL);
  g_assert_null (lm_monitor_profile_load (absent, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_IO);
  g_assert_nonnull (strstr (e->message, absent));
}

/* A 16-bit source at 100 %: each view pixel is its source pixel through the LUT with all 16
 * bits (two values one 8-bit level apart apart and in between differ on screen); without
 * a LUT, v/257 rounded. A gray one shows its value in R, G and B. */
static void
test_view_16bit (void)
{
  g_autoptr (GBytes) adobe = profile ("AdobeRGB1998.icc");
  if (!adobe)
    return;
  g_autoptr (LmViewTransform) xf = lm_view_transform_new (adobe, NULL, LM_VIEW_LUT_GRID, NULL);
  const LmLut3d *lut = lm_view_transform_lut (xf);
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA16, 64, 3, 0x5A);
  g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY16, 64, 3, 0x5A);
  guint32 state = 99;
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint16 *p = (guint16 *) lm_test_pixel (src, x, y);
        for (int c = 0; c < 4; c++)
          p[c] = (guint16) next_random (&state);
        *(guint16 *) lm_test_pixel (gray, x, y) = (guint16) next_random (&state);
      }
  LmViewRect rect = { 0, 0, 64, 3, 64, 3 };
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA8, 64, 3, 0xC3);
  g_autoptr (LmImage) plain = lm_test_image_new (LM_FORMAT_RGBA8, 64, 3, 0xC3);
  g_autoptr (LmImage) gout = lm_test_image_new (LM_FORMAT_RGBA8, 64, 3, 0xC3);
  g_assert_true (lm_view_check (src, &rect, out, NULL));
  lm_view_cpu_lut (src, &rect, lut, out);
  lm_view_cpu (src, &rect, plain);
  lm_view_cpu_lut (gray, &rect, lut, gout);
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 64; x++)
      {
        const guint16 *p = (const guint16 *) lm_test_pixel (src, x, y);
        guint16 o[3];
        lm_lut3d_sample (lut, p[0], p[1], p[2], o);
        guint32 want = (guint32) lm_u16_to_u8 (o[0]) << 16 | (guint32) lm_u16_to_u8 (o[1]) << 8 | lm_u16_to_u8 (o[2]);
        g_assert_cmphex (*(guint32 *) lm_test_pixel (out, x, y), ==, want);
        guint32 want_plain = (guint32) floor (p[0] / 257.0 + 0.5) << 16
                             | (guint32) floor (p[1] / 257.0 + 0.5) << 8 | (guint32) floor (p[2] / 257.0 + 0.5);
        g_assert_cmphex (*(guint32 *) lm_test_pixel (plain, x, y), ==, want_plain);
        guint16 v = *(const guint16 *) lm_test_pixel (gray, x, y);
        lm_lut3d_sample (lut, v, v, v, o);
        want = (guint32) lm_u16_to_u8 (o[0]) << 16 | (guint32) lm_u16_to_u8 (o[1]) << 8 | lm_u16_to_u8 (o[2]);
        g_assert_cmphex (*(guint32 *) lm_test_pixel (gout, x, y), ==, want);
        LM_TEST_RETURN_IF_FAILED ();
      }
  /* The extra bits are used: 8-bit level 20 and 20.5 on 16 bits are shown differently
   * somewhere along the dark ramp. */
  gboolean differ = FALSE;
  for (guint v = 10; v < 40; v++)
    {
      guint16 a[3], b[3];
      lm_lut3d_sample (lut, v * 257, v * 257, v * 257, a);
      lm_lut3d_sample (lut, v * 257 + 128, v * 257 + 128, v * 257 + 128, b);
      differ |= lm_u16_to_u8 (a[1]) != lm_u16_to_u8 (b[1]);
    }
  g_assert_true (differ);
}

/* "As seen" without a LUT is the stored histogram of an 8-bit image; with one, each count
 * lands on the LUT's output; a 16-bit gray image counts v/257 rounded in all four. */
static void
test_seen_histogram (void)
{
  g_autoptr (LmImage) img = lm_test_random_rgba (101, 37, 5, FALSE);
  LmHistogram stored, seen;
  lm_histogram_cpu (img, LM_HIST_WANT_ALL, &stored);
  lm_seen_histogram_cpu (img, NULL, &seen);
  g_assert_true (lm_histogram_equal (&stored, &seen));

  g_autoptr (GBytes) pro = profile ("ProPhotoRGB.icc");
  if (!pro)
    return;
  g_autoptr (LmViewTransform) xf = lm_view_transform_new (pro, NULL, LM_VIEW_LUT_GRID, NULL);
  const LmLut3d *lut = lm_view_transform_lut (xf);
  lm_seen_histogram_cpu (img, lut, &seen);
  guint32 want[LM_HIST_N_CHANNELS][LM_HIST_BINS] = { { 0 } };
  for (guint y = 0; y < img->height; y++)
    for (guint x = 0; x < img->width; x++)
      {
        const guint8 *p = lm_test_pixel (img, x, y);
        guint16 o[3];
        lm_lut3d_sample (lut, p[0] * 257u, p[1] * 257u, p[2] * 257u, o);
        guint8 r = lm_u16_to_u8 (o[0]), g = lm_u16_to_u8 (o[1]), b = lm_u16_to_u8 (o[2]);
        want[0][r]++, want[1][g]++, want[2][b]++, want[3][lm_test_luma601 (r, g, b)]++;
      }
  g_assert_cmpint (memcmp (want, seen.bins, sizeof want), ==, 0);
  g_assert_cmpuint (seen.total, ==, 101 * 37);
  g_assert_false (lm_histogram_equal (&stored, &seen));

  g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY16, 3, 1, 0);
  guint16 *g = (guint16 *) lm_image_row (gray, 0);
  g[0] = 0, g[1] = 128 /* 0.498 → 0 */, g[2] = 257 * 200 + 129 /* 200.502 → 201 */;
  lm_seen_histogram_cpu (gray, NULL, &seen);
  for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
    {
      g_assert_cmpuint (seen.bins[c][0], ==, 2);
      g_assert_cmpuint (seen.bins[c][201], ==, 1);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/view-lut/sampling", test_lut_sampling);
  g_test_add_func ("/view-lut/accuracy", test_lut_accuracy);
  g_test_add_func ("/view-lut/srgb-shortcut", test_srgb_shortcut);
  g_test_add_func ("/view-lut/bad-profiles", test_bad_profiles);
  g_test_add_func ("/view-lut/view-16bit", test_view_16bit);
  g_test_add_func ("/view-lut/seen-histogram", test_seen_histogram);
  return g_test_run ();
}
