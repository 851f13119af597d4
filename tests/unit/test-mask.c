/* Masks (core/ops/mask.c, mask-math.h) against their definitions (docs: ISSUE-32-MASKS §2):
 * each shape's values at points worked out by hand, the combinations and inverts, the ranges
 * (hue across 0°, scene light in EV), binned segments against every segment bit for bit, the
 * guided feather against a direct O(r²) sum in double, a level 4 times smaller against the
 * full one, a tile against the whole frame, the blend, poisoned planes and bad masks. */
#include <math.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/error.h"
#include "core/ops/mask.h"
#include "test-util.h"

/* ---- strokes, as the blob store would hand them out ---- */

#define POINTS_MAX 64

typedef struct {
  LmMaskStrokeHead head;
  float points[2 * POINTS_MAX];
} Stroke;

typedef struct {
  Stroke *strokes;
  guint n;
} StrokeList;

/* Lists by key: key K is LISTS[K]; key 99 cannot be read. */
static gboolean
get_stroke (uint64_t list, guint index, const LmMaskStrokeHead **head, const float **points, gpointer user,
            GError **error)
{
  const StrokeList *lists = user;
  if (list == 99)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "stroke list 99 is missing");
      return FALSE;
    }
  *head = index < lists[list].n ? &lists[list].strokes[index].head : NULL;
  *points = index < lists[list].n ? lists[list].strokes[index].points : NULL;
  return TRUE;
}

static Stroke
stroke (gboolean erase, float size, float hardness, float opacity, guint n, const float *points)
{
  Stroke s = { .head = { .erase = erase, .size = size, .hardness = hardness, .opacity = opacity, .n = n } };
  memcpy (s.points, points, 2 * n * sizeof (float));
  return s;
}

static LmMask
empty_mask (void)
{
  LmMask m = { 0 };
  m.opacity = 1.0f;
  return m;
}

static LmMaskShape
linear (uint8_t combine, float x0, float y0, float x1, float y1)
{
  return (LmMaskShape) { .kind = LM_MASK_LINEAR, .combine = combine, .opacity = 1, .g = { x0, y0, x1, y1 } };
}

static LmMaskShape
radial (uint8_t combine, float cx, float cy, float rx, float ry, float angle, float softness)
{
  return (LmMaskShape) { .kind = LM_MASK_RADIAL, .combine = combine, .opacity = 1,
                         .g = { cx, cy, rx, ry, angle, softness } };
}

static LmMaskShape
brush (uint8_t combine, uint64_t list)
{
  return (LmMaskShape) { .kind = LM_MASK_BRUSH, .combine = combine, .opacity = 1, .strokes = list };
}

/* MASK flattened and placed on FRAME (W × H), or NULL with the test failed. */
static LmMaskFlat *
placed (const LmMask *mask, StrokeList *lists, gboolean scene, const LmMaskFrame *frame, guint w, guint h,
        gboolean binned)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LmMaskFlat) flat = lm_mask_flatten (mask, scene, get_stroke, lists, &error);
  g_assert_no_error (error);
  if (flat == NULL || !lm_mask_flat_place (flat, frame, w, h, binned, &error))
    {
      g_assert_no_error (error);
      return NULL;
    }
  return g_steal_pointer (&flat);
}

/* A frame where pixel (i, j) is at (i / 100, j / 100): points worked out by hand. */
static const LmMaskFrame hundredths = { .a = 0.01f, .e = 0.01f };

static float
drawn_at (const LmMaskFlat *flat, guint i, guint j)
{
  return lm_mask_drawn_at (lm_mask_flat_render (flat), i, j);
}

#define ASSERT_NEAR(a, b) g_assert_cmpfloat_with_epsilon ((a), (b), 2e-5)

static void
test_linear (void)
{
  LmMask m = empty_mask ();
  m.n_shapes = 1;
  m.shape[0] = linear (LM_MASK_ADD, 0.2f, 0.5f, 0.6f, 0.5f);
  g_autoptr (LmMaskFlat) f = placed (&m, NULL, FALSE, &hundredths, 101, 101, TRUE);
  g_assert_nonnull (f);
  ASSERT_NEAR (drawn_at (f, 10, 0), 1.0f);  /* before p0 */
  ASSERT_NEAR (drawn_at (f, 20, 70), 1.0f); /* on p0's line */
  ASSERT_NEAR (drawn_at (f, 30, 3), 1.0f - 0.0625f * 2.5f); /* t = ¼: 1 − t²(3 − 2t) */
  ASSERT_NEAR (drawn_at (f, 40, 50), 0.5f);
  ASSERT_NEAR (drawn_at (f, 50, 99), 0.15625f); /* t = ¾ */
  ASSERT_NEAR (drawn_at (f, 60, 50), 0.0f);
  ASSERT_NEAR (drawn_at (f, 90, 50), 0.0f);
}

static void
test_radial (void)
{
  LmMask m = empty_mask ();
  m.n_shapes = 1;
  m.shape[0] = radial (LM_MASK_ADD, 0.5f, 0.5f, 0.2f, 0.1f, 0.0f, 0.5f);
  g_autoptr (LmMaskFlat) f = placed (&m, NULL, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (f, 50, 50), 1.0f);
  ASSERT_NEAR (drawn_at (f, 60, 50), 1.0f);  /* ρ = ½ = 1 − softness */
  ASSERT_NEAR (drawn_at (f, 65, 50), 0.5f);  /* ρ = ¾: halfway through the falloff */
  ASSERT_NEAR (drawn_at (f, 35, 50), 0.5f);
  ASSERT_NEAR (drawn_at (f, 50, 57), 1.0f - 0.16f * 2.2f); /* ρ = 0.7: s = 0.4 */
  ASSERT_NEAR (drawn_at (f, 50, 61), 0.0f);
  ASSERT_NEAR (drawn_at (f, 71, 50), 0.0f);
  /* Turned by 90°, the long axis is vertical. */
  m.shape[0].g[4] = 90.0f;
  g_autoptr (LmMaskFlat) turned = placed (&m, NULL, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (turned, 50, 65), 0.5f);
  ASSERT_NEAR (drawn_at (turned, 57, 50), 1.0f - 0.16f * 2.2f);
  ASSERT_NEAR (drawn_at (turned, 65, 50), 0.0f);
}

static void
test_brush (void)
{
  float line[] = { 0.3f, 0.5f, 0.5f, 0.5f, 0.7f, 0.5f };
  float dab[] = { 0.5f, 0.5f };
  float loop[] = { 0.2f, 0.2f, 0.4f, 0.2f, 0.3f, 0.1f, 0.3f, 0.3f };
  Stroke s[] = { stroke (FALSE, 0.2f, 0.5f, 0.8f, 3, line), stroke (TRUE, 0.1f, 1.0f, 1.0f, 1, dab),
                 stroke (FALSE, 0.1f, 0.0f, 1.0f, 4, loop) };
  StrokeList lists[] = { { s, 1 }, { s, 2 }, { s + 2, 1 } };
  LmMask m = empty_mask ();
  m.n_shapes = 1;
  m.shape[0] = brush (LM_MASK_ADD, 0);
  g_autoptr (LmMaskFlat) f = placed (&m, lists, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (f, 50, 50), 0.8f);
  ASSERT_NEAR (drawn_at (f, 40, 55), 0.8f);        /* 2d/size = ½ = hardness */
  ASSERT_NEAR (drawn_at (f, 45, 56), 0.8f * (1.0f - 0.04f * 2.6f)); /* 2d/size = 0.6: s = 0.2 */
  ASSERT_NEAR (drawn_at (f, 50, 61), 0.0f);
  ASSERT_NEAR (drawn_at (f, 77, 50), 0.8f * (1.0f - 0.16f * 2.2f)); /* past the end: d = 0.07 */
  ASSERT_NEAR (drawn_at (f, 80, 50), 0.0f);
  /* A hard eraser dab takes a disc out of the stroke under it. */
  m.shape[0].strokes = 1;
  g_autoptr (LmMaskFlat) erased = placed (&m, lists, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (erased, 50, 50), 0.0f);
  ASSERT_NEAR (drawn_at (erased, 54, 50), 0.0f);
  ASSERT_NEAR (drawn_at (erased, 40, 50), 0.8f);
  /* A stroke that crosses itself does not build up: at most its opacity, and at the
   * crossing exactly what one pass gives. */
  m.shape[0].strokes = 2;
  g_autoptr (LmMaskFlat) crossing = placed (&m, lists, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (crossing, 30, 20), 1.0f);
  ASSERT_NEAR (drawn_at (crossing, 33, 23), 1.0f - 0.36f * 1.8f); /* 2d/size = 0.6 from two segments */
}

static void
test_combine (void)
{
  /* A linear gradient across x and a disc, each with values worked out above. */
  LmMask m = empty_mask ();
  m.n_shapes = 2;
  m.shape[0] = linear (LM_MASK_ADD, 0.2f, 0.5f, 0.6f, 0.5f);
  m.shape[1] = radial (LM_MASK_ADD, 0.5f, 0.5f, 0.2f, 0.1f, 0.0f, 0.5f);
  static const struct {
    uint8_t combine, invert_second, invert_mask;
    float at30_3, at40_50, at65_50, at90_90;
  } cases[] = {
    { LM_MASK_ADD, 0, 0, 0.84375f, 1.0f, 0.5f, 0.0f },
    { LM_MASK_SUBTRACT, 0, 0, 0.84375f, 0.0f, 0.0f, 0.0f },
    { LM_MASK_INTERSECT, 0, 0, 0.0f, 0.5f, 0.0f, 0.0f },
    { LM_MASK_INTERSECT, 1, 0, 0.84375f, 0.0f, 0.0f, 0.0f },
    { LM_MASK_ADD, 1, 0, 1.0f, 0.5f, 0.5f, 1.0f },
    { LM_MASK_ADD, 0, 1, 0.15625f, 0.0f, 0.5f, 1.0f },
  };
  g_autoptr (LmImage) gray = lm_test_image_new (LM_FORMAT_GRAY8, 101, 101, 128);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      m.shape[1].combine = cases[c].combine;
      m.shape[1].invert = cases[c].invert_second;
      m.invert = cases[c].invert_mask;
      g_autoptr (LmMaskFlat) f = placed (&m, NULL, FALSE, &hundredths, 101, 101, TRUE);
      const LmMaskRender *r = lm_mask_flat_render (f);
      g_autoptr (LmImage) drawn = lm_test_image_new (LM_FORMAT_GRAY_F32, 101, 101, 0xff);
      g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_GRAY_F32, 101, 101, 0xff);
      lm_mask_drawn_cpu (r, 0, 0, drawn);
      g_assert_true (lm_mask_final_cpu (r, 0, 0, gray, drawn, out, NULL));
      const guint at[4][2] = { { 30, 3 }, { 40, 50 }, { 65, 50 }, { 90, 90 } };
      const float want[4] = { cases[c].at30_3, cases[c].at40_50, cases[c].at65_50, cases[c].at90_90 };
      for (int k = 0; k < 4; k++)
        {
          float got = ((float *) (void *) lm_image_row (out, at[k][1]))[at[k][0]];
          if (fabsf (got - want[k]) > 2e-5f)
            g_test_fail_printf ("case %u at (%u, %u): %g, want %g", c, at[k][0], at[k][1], got, want[k]);
        }
    }
  /* A first shape that subtracts starts from a full mask; no shapes at all is a full mask;
   * the opacities scale. */
  LmMask s = empty_mask ();
  s.n_shapes = 1;
  s.shape[0] = radial (LM_MASK_SUBTRACT, 0.5f, 0.5f, 0.2f, 0.1f, 0.0f, 0.5f);
  s.shape[0].opacity = 0.5f;
  g_autoptr (LmMaskFlat) f = placed (&s, NULL, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (f, 50, 50), 0.5f);
  ASSERT_NEAR (drawn_at (f, 10, 10), 1.0f);
  LmMask none = empty_mask ();
  g_autoptr (LmMaskFlat) g = placed (&none, NULL, FALSE, &hundredths, 101, 101, TRUE);
  ASSERT_NEAR (drawn_at (g, 10, 10), 1.0f);
}

/* The final mask of one row of pixels PX (RGBA_F32 when SCENE, else RGBA8 from bytes). */
static void
final_row (const LmMask *mask, gboolean scene, const float (*px)[3], guint n, float *values)
{
  LmMaskFrame frame = lm_mask_frame_source (n, 1);
  g_autoptr (LmMaskFlat) f = placed (mask, NULL, scene, &frame, n, 1, TRUE);
  g_autoptr (LmImage) in = lm_test_image_new (scene ? LM_FORMAT_RGBA_F32 : LM_FORMAT_RGBA8, n, 1, 0);
  for (guint i = 0; i < n; i++)
    for (int c = 0; c < 4; c++)
      if (scene)
        ((float *) (void *) in->data)[4 * i + c] = c < 3 ? px[i][c] : 1.0f;
      else
        in->data[4 * i + c] = c < 3 ? (guint8) px[i][c] : 255;
  g_autoptr (LmImage) drawn = lm_test_image_new (LM_FORMAT_GRAY_F32, n, 1, 0xff);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_GRAY_F32, n, 1, 0xff);
  lm_mask_drawn_cpu (lm_mask_flat_render (f), 0, 0, drawn);
  g_assert_true (lm_mask_final_cpu (lm_mask_flat_render (f), 0, 0, in, drawn, out, NULL));
  memcpy (values, out->data, n * sizeof (float));
}

static void
test_ranges (void)
{
  /* Luminance on grays: 0.4 to 0.6 full, ramps of 0.1. */
  LmMask m = empty_mask ();
  m.luminance = (LmMaskRange) { 1, 0.3f, 0.4f, 0.6f, 0.7f };
  const float grays[][3] = { { 51, 51, 51 }, { 89.25f, 89.25f, 89.25f }, { 128, 128, 128 }, { 178, 178, 178 } };
  float v[4];
  final_row (&m, FALSE, grays, 4, v);
  ASSERT_NEAR (v[0], 0.0f);
  g_assert_cmpfloat_with_epsilon (v[1], (89.0f / 255.0f - 0.3f) / 0.1f, 1e-4); /* bytes: 89 */
  ASSERT_NEAR (v[2], 1.0f);
  g_assert_cmpfloat_with_epsilon (v[3], (0.7f - 178.0f / 255.0f) / 0.1f, 1e-4);

  /* Hue across 0°: full from 340° to 20°, ramps of 10°. Red 0°, 350°, 25° (orange), green. */
  m = empty_mask ();
  m.hue = (LmMaskRange) { 1, 330, 340, 380, 390 };
  const float hues[][3] = { { 200, 0, 0 }, { 200, 0, 100.0f / 3 }, { 200, 250.0f / 3, 0 }, { 0, 200, 0 },
                            { 200, 0, 133 } };
  float h[5];
  final_row (&m, FALSE, hues, 5, h);
  ASSERT_NEAR (h[0], 1.0f);
  g_assert_cmpfloat_with_epsilon (h[1], 1.0f, 1e-2);  /* 350° (bytes round: ≈ 349.9°) */
  g_assert_cmpfloat_with_epsilon (h[2], 0.5f, 2e-2);  /* 25° */
  ASSERT_NEAR (h[3], 0.0f);
  g_assert_cmpfloat_with_epsilon (h[4], 0.0f, 1e-6); /* 320°: outside */
  /* The same range written below 0. */
  m.hue = (LmMaskRange) { 1, -30, -20, 20, 30 };
  float h2[5];
  final_row (&m, FALSE, hues, 5, h2);
  for (int i = 0; i < 5; i++)
    g_assert_cmpfloat_with_epsilon (h2[i], h[i], 1e-4);

  /* Saturation: gray 0, half, full. */
  m = empty_mask ();
  m.saturation = (LmMaskRange) { 1, 0.25f, 0.75f, 1.0f, 1.0f };
  const float sats[][3] = { { 100, 100, 100 }, { 200, 100, 100 }, { 0, 0, 200 } };
  float s[3];
  final_row (&m, FALSE, sats, 3, s);
  ASSERT_NEAR (s[0], 0.0f);
  ASSERT_NEAR (s[1], 0.5f);
  ASSERT_NEAR (s[2], 1.0f);

  /* Scene light, EV: full from −1 to +1 EV around 0.18, ramps to ±2 EV; linear in Y. */
  m = empty_mask ();
  m.luminance = (LmMaskRange) { 1, -2, -1, 1, 2 };
  m.opacity = 0.5f;
  float y15 = 0.18f * (float) exp2 (1.5), ym3 = 0.18f / 8.0f;
  const float scene[][3] = { { 0.18f, 0.18f, 0.18f }, { y15, y15, y15 }, { ym3, ym3, ym3 } };
  float e[3];
  final_row (&m, TRUE, scene, 3, e);
  ASSERT_NEAR (e[0], 0.5f);
  g_assert_cmpfloat_with_epsilon (e[1], 0.5f * (0.72 - 0.18 * exp2 (1.5)) / 0.36, 1e-5);
  ASSERT_NEAR (e[2], 0.0f);
}

/* Many strokes of every size on a turned, scaled frame (a rotated photo's level): the binned
 * lists give exactly the bits of testing every segment. */
static void
test_binned_equals_brute_force (void)
{
  enum { N = 40, W = 301, H = 203 };
  Stroke s[N];
  guint32 state = 7;
  for (guint k = 0; k < N; k++)
    {
      float pts[2 * 12];
      guint n = 1 + k % 12;
      for (guint i = 0; i < 2 * n; i++)
        {
          state = state * 1664525u + 1013904223u;
          pts[i] = (float) (state >> 8) / (float) (1 << 24) * 1.2f - 0.1f;
        }
      float size = k % 5 == 0 ? 0.4f : k % 3 == 0 ? 0.004f : 0.05f;
      s[k] = stroke (k % 4 == 3, size, (k % 7) / 6.0f, 1.0f - (k % 3) * 0.25f, n, pts);
    }
  StrokeList lists[] = { { s, 25 }, { s + 25, N - 25 } };
  LmMask m = empty_mask ();
  m.n_shapes = 4;
  m.shape[0] = brush (LM_MASK_ADD, 0);
  m.shape[1] = radial (LM_MASK_SUBTRACT, 0.5f, 0.4f, 0.1f, 0.2f, 30.0f, 0.3f);
  m.shape[2] = brush (LM_MASK_ADD, 1);
  m.shape[3] = brush (LM_MASK_INTERSECT, 0);
  m.shape[3].invert = 1;
  /* 20° and a scale of 1.7 source pixels a pixel (u, v of a 900-pixel long side). */
  double c = cos (20 * G_PI / 180) * 1.7 / 900, sn = sin (20 * G_PI / 180) * 1.7 / 900;
  LmMaskFrame frame = { (float) c, (float) -sn, 0.1f, (float) sn, (float) c, -0.05f };
  g_autoptr (LmMaskFlat) binned = placed (&m, lists, FALSE, &frame, W, H, TRUE);
  g_autoptr (LmMaskFlat) brute = placed (&m, lists, FALSE, &frame, W, H, FALSE);
  g_autoptr (LmImage) a = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
  g_autoptr (LmImage) b = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0x7f);
  lm_mask_drawn_cpu (lm_mask_flat_render (binned), 0, 0, a);
  lm_mask_drawn_cpu (lm_mask_flat_render (brute), 0, 0, b);
  guint differ = 0, partial = 0;
  for (guint y = 0; y < H; y++)
    {
      const float *ra = (const float *) (void *) lm_image_row (a, y), *rb = (const float *) (void *) lm_image_row (b, y);
      differ += memcmp (ra, rb, W * sizeof (float)) != 0;
      for (guint x = 0; x < W; x++)
        partial += ra[x] > 0.0f && ra[x] < 1.0f;
    }
  g_assert_cmpuint (differ, ==, 0);
  /* The strokes' edges are there to be missed: a tenth of the pixels lie on a falloff. */
  g_assert_cmpuint (partial, >, W * H / 10);
}

/* ---- the guided feather against its definition, summed directly in double ---- */

static void
guided_reference (const double *guide, const double *m0, int w, int h, int r, double eps, double *out)
{
  g_autofree double *ab = g_new (double, 2 * (gsize) w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double s[4] = { 0 }, n = 0;
        for (int j = MAX (y - r, 0); j <= MIN (y + r, h - 1); j++)
          for (int i = MAX (x - r, 0); i <= MIN (x + r, w - 1); i++)
            {
              double g = guide[j * w + i], m = m0[j * w + i];
              s[0] += g, s[1] += m, s[2] += g * g, s[3] += g * m, n++;
            }
        double mi = s[0] / n, mm = s[1] / n, var = s[2] / n - mi * mi, cov = s[3] / n - mi * mm;
        double a = cov / (MAX (var, 0.0) + eps);
        ab[2 * (y * w + x)] = a, ab[2 * (y * w + x) + 1] = mm - a * mi;
      }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double sa = 0, sb = 0, n = 0;
        for (int j = MAX (y - r, 0); j <= MIN (y + r, h - 1); j++)
          for (int i = MAX (x - r, 0); i <= MIN (x + r, w - 1); i++)
            sa += ab[2 * (j * w + i)], sb += ab[2 * (j * w + i) + 1], n++;
        out[y * w + x] = CLAMP (sa / n * guide[y * w + x] + sb / n, 0.0, 1.0);
      }
}

/* An input with an edge the feather must follow: a bright disc on a darker noisy ground. */
static LmImage *
edge_photo (guint w, guint h, guint32 seed)
{
  g_autoptr (LmImage) noise = lm_test_random_rgba (w, h, seed, FALSE);
  LmImage *img = lm_test_image_new (LM_FORMAT_RGBA8, w, h, 0);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint8 *p = lm_test_pixel (img, x, y), *q = lm_test_pixel (noise, x, y);
        gboolean in = (x - w * 0.6) * (x - w * 0.6) + (y - h * 0.45) * (y - h * 0.45) < (w * 0.3) * (w * 0.3);
        for (int c = 0; c < 3; c++)
          p[c] = (guint8) ((in ? 170 : 40) + q[c] / 8 + c * 10);
        p[3] = 255;
      }
  return img;
}

static void
test_guided_reference (void)
{
  enum { W = 64, H = 64 };
  g_autoptr (LmImage) photo = edge_photo (W, H, 3);
  LmMask m = empty_mask ();
  m.n_shapes = 1;
  m.shape[0] = linear (LM_MASK_ADD, 0.1f, 0.2f, 0.9f, 0.6f);
  m.feather = 5.0f / 64; /* r = 5 */
  m.detail = 0.1f;
  m.opacity = 0.75f;
  LmMaskFrame frame = lm_mask_frame_source (W, H);
  g_autoptr (LmMaskFlat) f = placed (&m, NULL, FALSE, &frame, W, H, TRUE);
  const LmMaskRender *r = lm_mask_flat_render (f);
  g_assert_cmpint (r->radius, ==, 5);
  g_autoptr (LmImage) drawn = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
  lm_mask_drawn_cpu (r, 0, 0, drawn);
  g_assert_true (lm_mask_final_cpu (r, 0, 0, photo, drawn, out, NULL));
  double guide[W * H], m0[W * H], want[W * H];
  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      {
        const guint8 *p = lm_test_pixel (photo, x, y);
        guide[y * W + x] = (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
        m0[y * W + x] = ((float *) (void *) lm_image_row (drawn, y))[x];
      }
  guided_reference (guide, m0, W, H, 5, 0.01, want);
  double worst = 0, moved = 0;
  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      {
        double got = ((float *) (void *) lm_image_row (out, y))[x];
        worst = MAX (worst, fabs (got - 0.75 * want[y * W + x]));
        moved = MAX (moved, fabs (want[y * W + x] - m0[y * W + x]));
      }
  g_test_message ("guided filter: max |Δ| %.3g against the direct sums; the feather moves the mask by up to %.3f",
                  worst, moved);
  g_assert_cmpfloat (worst, <, 1e-4);
  /* The filter did something: the disc's edge shows in the mask. */
  g_assert_cmpfloat (moved, >, 0.05);
}

/* A level 4 times smaller renders the mask the 4 × 4 blocks of the full level average to. */
static void
test_level (void)
{
  enum { W = 256, H = 192, F = 4 };
  float pts[] = { 0.2f, 0.6f, 0.4f, 0.5f, 0.7f, 0.62f };
  Stroke s[] = { stroke (FALSE, 0.12f, 0.3f, 1.0f, 3, pts) };
  StrokeList lists[] = { { s, 1 } };
  LmMask m = empty_mask ();
  m.n_shapes = 3;
  m.shape[0] = linear (LM_MASK_ADD, 0.5f, 0.0f, 0.5f, 0.3f);
  m.shape[1] = radial (LM_MASK_ADD, 0.75f, 0.3f, 0.15f, 0.1f, 25.0f, 0.8f);
  m.shape[2] = brush (LM_MASK_ADD, 0);
  LmMaskFrame full = lm_mask_frame_source (W, H), small = lm_mask_frame_level (&full, F);
  g_autoptr (LmMaskFlat) a = placed (&m, lists, FALSE, &full, W, H, TRUE);
  g_autoptr (LmImage) big = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
  lm_mask_drawn_cpu (lm_mask_flat_render (a), 0, 0, big);
  g_autoptr (LmMaskFlat) b = placed (&m, lists, FALSE, &small, W / F, H / F, TRUE);
  g_autoptr (LmImage) little = lm_test_image_new (LM_FORMAT_GRAY_F32, W / F, H / F, 0xff);
  lm_mask_drawn_cpu (lm_mask_flat_render (b), 0, 0, little);
  double sum = 0, worst = 0;
  for (guint y = 0; y < H / F; y++)
    for (guint x = 0; x < W / F; x++)
      {
        double block = 0;
        for (guint j = 0; j < F; j++)
          for (guint i = 0; i < F; i++)
            block += ((float *) (void *) lm_image_row (big, y * F + j))[x * F + i];
        double d = fabs (block / (F * F) - ((float *) (void *) lm_image_row (little, y))[x]);
        sum += d, worst = MAX (worst, d);
      }
  double mean = sum / ((W / F) * (H / F));
  g_test_message ("level 4 against level 0's 4 × 4 means: mean |Δ| %.2e, max %.3f", mean, worst);
  g_assert_cmpfloat (mean, <, 2e-3);
}

/* A tile's mask equals the whole frame's there: the drawn plane everywhere, the feathered mask
 * where the tile's input holds the feather's reach (lm_mask_feather_reach). */
static void
test_tile (void)
{
  enum { W = 200, H = 150, X0 = 37, Y0 = 21 };
  float pts[] = { 0.1f, 0.1f, 0.5f, 0.4f, 0.9f, 0.2f };
  Stroke s[] = { stroke (FALSE, 0.1f, 0.5f, 1.0f, 3, pts) };
  StrokeList lists[] = { { s, 1 } };
  LmMask m = empty_mask ();
  m.n_shapes = 2;
  m.shape[0] = brush (LM_MASK_ADD, 0);
  m.shape[1] = radial (LM_MASK_ADD, 0.6f, 0.35f, 0.2f, 0.15f, 10.0f, 0.6f);
  m.luminance = (LmMaskRange) { 1, 0.1f, 0.3f, 0.9f, 1.0f };
  m.feather = 0.02f;
  m.detail = 0.2f;
  LmMaskFrame frame = lm_mask_frame_source (W, H);
  g_autoptr (LmMaskFlat) f = placed (&m, lists, FALSE, &frame, W, H, TRUE);
  const LmMaskRender *r = lm_mask_flat_render (f);
  g_autoptr (LmImage) photo = edge_photo (W, H, 5);
  g_autoptr (LmImage) drawn = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
  g_autoptr (LmImage) whole = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
  lm_mask_drawn_cpu (r, 0, 0, drawn);
  g_assert_true (lm_mask_final_cpu (r, 0, 0, photo, drawn, whole, NULL));

  guint tw = W - X0, th = H - Y0, reach = lm_mask_feather_reach (r);
  g_assert_cmpuint (reach, ==, 2 * (4 + LM_MASK_BOX_SEGMENT - 1));
  g_autoptr (LmImage) tile_in = lm_test_image_new (LM_FORMAT_RGBA8, tw, th, 0);
  for (guint y = 0; y < th; y++)
    memcpy (lm_image_row (tile_in, y), lm_test_pixel (photo, X0, Y0 + y), tw * 4);
  LmTileFrame tile = { .full_w = W, .full_h = H, .in_x = X0, .in_y = Y0 };
  guint x0, y0;
  g_assert_true (lm_mask_tile_origin (r, &tile, tile_in, &x0, &y0));
  g_autoptr (LmImage) tile_drawn = lm_test_image_new (LM_FORMAT_GRAY_F32, tw, th, 0xff);
  g_autoptr (LmImage) tile_out = lm_test_image_new (LM_FORMAT_GRAY_F32, tw, th, 0xff);
  lm_mask_drawn_cpu (r, x0, y0, tile_drawn);
  g_assert_true (lm_mask_final_cpu (r, x0, y0, tile_in, tile_drawn, tile_out, NULL));
  guint drawn_differ = 0, kept_differ = 0, halo_differ = 0;
  for (guint y = 0; y < th; y++)
    for (guint x = 0; x < tw; x++)
      {
        float a = ((float *) (void *) lm_image_row (drawn, Y0 + y))[X0 + x];
        float b = ((float *) (void *) lm_image_row (tile_drawn, y))[x];
        drawn_differ += memcmp (&a, &b, sizeof a) != 0;
        a = ((float *) (void *) lm_image_row (whole, Y0 + y))[X0 + x];
        b = ((float *) (void *) lm_image_row (tile_out, y))[x];
        if (x >= reach && y >= reach)
          kept_differ += memcmp (&a, &b, sizeof a) != 0;
        else
          halo_differ += memcmp (&a, &b, sizeof a) != 0;
      }
  g_assert_cmpuint (drawn_differ, ==, 0);
  g_assert_cmpuint (kept_differ, ==, 0);
  /* The halo does differ: the comparison sees the tile's own borders. */
  g_assert_cmpuint (halo_differ, >, 0);
}

/* Planes poisoned with NaN come back whole, in [0, 1], for every input format. */
static void
test_poisoned (void)
{
  enum { W = 67, H = 45 };
  LmMask m = empty_mask ();
  m.n_shapes = 1;
  m.shape[0] = radial (LM_MASK_ADD, 0.4f, 0.3f, 0.3f, 0.2f, 0.0f, 0.7f);
  m.hue = (LmMaskRange) { 1, -10, 0, 200, 260 };
  m.feather = 0.05f;
  m.detail = 0.0f;
  g_autoptr (LmImage) rgba = lm_test_random_rgba (W, H, 11, TRUE);
  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_RGBA_F32, LM_FORMAT_GRAY8,
                               LM_FORMAT_GRAY16 };
  for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
    {
      g_autoptr (LmImage) in = lm_test_image_new (formats[k], W, H, 0);
      for (guint y = 0; y < H; y++)
        for (guint x = 0; x < W; x++)
          {
            const guint8 *p = lm_test_pixel (rgba, x, y);
            guint8 *q = lm_test_pixel (in, x, y);
            for (guint c = 0; c < lm_format_channels (formats[k]); c++)
              if (formats[k] == LM_FORMAT_RGBA_F32)
                ((float *) (void *) q)[c] = p[c] / 64.0f;
              else if (lm_format_depth (formats[k]) == 16)
                ((guint16 *) (void *) q)[c] = (guint16) (p[c] * 257);
              else
                q[c] = p[c];
          }
      /* Scene light may hold an infinity or a NaN: the mask stays a number around them. */
      if (formats[k] == LM_FORMAT_RGBA_F32)
        {
          ((float *) (void *) lm_test_pixel (in, 26, 13))[0] = INFINITY;
          ((float *) (void *) lm_test_pixel (in, 28, 13))[1] = NAN;
        }
      LmMaskFrame frame = lm_mask_frame_source (W, H);
      g_autoptr (LmMaskFlat) f = placed (&m, NULL, formats[k] == LM_FORMAT_RGBA_F32, &frame, W, H, TRUE);
      g_autoptr (LmImage) drawn = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
      g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0xff);
      lm_mask_drawn_cpu (lm_mask_flat_render (f), 0, 0, drawn);
      g_assert_true (lm_mask_final_cpu (lm_mask_flat_render (f), 0, 0, in, drawn, out, NULL));
      guint bad = 0;
      double sum = 0;
      for (guint y = 0; y < H; y++)
        for (guint x = 0; x < W; x++)
          {
            float v = ((float *) (void *) lm_image_row (out, y))[x];
            bad += !(v >= 0.0f && v <= 1.0f);
            sum += v;
          }
      if (bad != 0)
        g_test_fail_printf ("%s: %u pixels of the mask are unwritten or out of [0, 1]", lm_format_name (formats[k]), bad);
      /* Inside the disc, around those pixels, the mask is not wiped out. */
      double around = 0;
      for (guint y = 10; y <= 16; y++)
        for (guint x = 23; x <= 31; x++)
          around += ((float *) (void *) lm_image_row (out, y))[x];
      g_assert_cmpfloat (around / 63, >, 0.2);
      g_assert_cmpfloat (sum, >, 0.0);
    }
}

/* out = in + M·(op − in) for every channel, alpha included, rounded once: worked out per pixel in
 * double. */
static void
test_blend (void)
{
  enum { W = 33, H = 17 };
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) a8 = lm_test_random_rgba (W, H, 1, TRUE);
  g_autoptr (LmImage) b8 = lm_test_random_rgba (W, H, 2, TRUE);
  g_autoptr (LmImage) mask = lm_test_image_new (LM_FORMAT_GRAY_F32, W, H, 0);
  const float levels[] = { 0.0f, 1.0f, 0.25f, 0.5f, 0.75f };
  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      ((float *) (void *) lm_image_row (mask, y))[x] = levels[(x + 3 * y) % 5];
  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_RGBA_F32 };
  for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
    {
      LmFormat fmt = formats[k];
      g_autoptr (LmImage) in = lm_test_image_new (fmt, W, H, 0);
      g_autoptr (LmImage) op = lm_test_image_new (fmt, W, H, 0);
      g_autoptr (LmImage) out = lm_test_image_new (fmt, W, H, 0xA5);
      for (guint y = 0; y < H; y++)
        for (guint x = 0; x < W; x++)
          for (int c = 0; c < 4; c++)
            {
              guint8 va = lm_test_pixel (a8, x, y)[c], vb = lm_test_pixel (b8, x, y)[c];
              if (fmt == LM_FORMAT_RGBA8)
                lm_test_pixel (in, x, y)[c] = va, lm_test_pixel (op, x, y)[c] = vb;
              else if (fmt == LM_FORMAT_RGBA16)
                ((guint16 *) (void *) lm_test_pixel (in, x, y))[c] = (guint16) (va * 257 + x),
                ((guint16 *) (void *) lm_test_pixel (op, x, y))[c] = (guint16) (vb * 257 + y);
              else
                ((float *) (void *) lm_test_pixel (in, x, y))[c] = va / 100.0f,
                ((float *) (void *) lm_test_pixel (op, x, y))[c] = vb / 100.0f;
            }
      g_autoptr (GError) error = NULL;
      g_assert_true (lm_backend_blend_mask (cpu, in, op, mask, out, &error));
      g_assert_no_error (error);
      guint wrong = 0;
      for (guint y = 0; y < H; y++)
        for (guint x = 0; x < W; x++)
          {
            double m = levels[(x + 3 * y) % 5];
            for (int c = 0; c < 4; c++)
              {
                double a, b, got, want, tolerance;
                if (fmt == LM_FORMAT_RGBA8)
                  a = lm_test_pixel (in, x, y)[c], b = lm_test_pixel (op, x, y)[c], got = lm_test_pixel (out, x, y)[c],
                  tolerance = 0;
                else if (fmt == LM_FORMAT_RGBA16)
                  a = ((guint16 *) (void *) lm_test_pixel (in, x, y))[c],
                  b = ((guint16 *) (void *) lm_test_pixel (op, x, y))[c],
                  got = ((guint16 *) (void *) lm_test_pixel (out, x, y))[c], tolerance = 0;
                else
                  a = ((float *) (void *) lm_test_pixel (in, x, y))[c], b = ((float *) (void *) lm_test_pixel (op, x, y))[c],
                  got = ((float *) (void *) lm_test_pixel (out, x, y))[c], tolerance = 1e-6;
                want = a + m * (b - a);
                if (fmt != LM_FORMAT_RGBA_F32)
                  want = floor (want + 0.5);
                /* 16 bits pass through the 0..255 scale: one level either way at halves. */
                if (fmt == LM_FORMAT_RGBA16 && m != 0.0 && m != 1.0)
                  tolerance = 1;
                wrong += fabs (got - want) > tolerance;
              }
          }
      if (wrong != 0)
        g_test_fail_printf ("%s: %u channels differ from in + M·(op − in)", lm_format_name (fmt), wrong);
    }
}

/* Masks out of their bounds are refused with a message; nothing crashes. */
static void
test_refused (void)
{
  float pts[] = { 0.1f, 0.1f, NAN, 0.2f };
  Stroke bad_size[] = { stroke (FALSE, 0.0f, 0.5f, 1.0f, 1, pts) };
  Stroke bad_point[] = { stroke (FALSE, 0.1f, 0.5f, 1.0f, 2, pts) };
  Stroke many[LM_MASK_STROKES_MAX + 1];
  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    many[i] = stroke (FALSE, 0.1f, 0.5f, 1.0f, 1, pts);
  StrokeList lists[] = { { bad_size, 1 }, { bad_point, 1 }, { many, G_N_ELEMENTS (many) } };
  LmMask cases[8];
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      cases[i] = empty_mask ();
      cases[i].n_shapes = 1;
    }
  cases[0].shape[0] = linear (LM_MASK_ADD, 0.3f, 0.3f, 0.3f, 0.3f);
  cases[1].shape[0] = radial (LM_MASK_ADD, 0.3f, 0.3f, 0.0f, 0.1f, 0.0f, 0.5f);
  cases[2].shape[0] = brush (LM_MASK_ADD, 0);
  cases[3].shape[0] = brush (LM_MASK_ADD, 1);
  cases[4].shape[0] = brush (LM_MASK_ADD, 2);
  cases[5].shape[0] = brush (LM_MASK_ADD, 99);
  cases[6].n_shapes = 0;
  cases[6].luminance = (LmMaskRange) { 1, 0.5f, 0.4f, 0.6f, 0.7f };
  cases[7].n_shapes = 17;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LmMaskFlat) f = lm_mask_flatten (&cases[i], FALSE, get_stroke, lists, &error);
      g_assert_null (f);
      g_assert_nonnull (error);
      if (error != NULL)
        {
          g_test_message ("case %u: %s", i, error->message);
          g_assert_null (strchr (error->message, '\n'));
        }
    }
  LmMask ok = empty_mask ();
  g_autoptr (LmMaskFlat) f = lm_mask_flatten (&ok, FALSE, get_stroke, lists, NULL);
  LmMaskFrame folded = { 0.01f, 0.02f, 0, 0.005f, 0.01f, 0 };
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_mask_flat_place (f, &folded, 10, 10, TRUE, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  /* A plane larger than the frame, on the backend's entry. */
  g_clear_error (&error);
  g_assert_true (lm_mask_flat_place (f, &hundredths, 10, 10, TRUE, NULL));
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) plane = lm_test_image_new (LM_FORMAT_GRAY_F32, 11, 10, 0xff);
  g_assert_false (lm_backend_mask_drawn (cpu, f, NULL, plane, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/mask/linear", test_linear);
  g_test_add_func ("/mask/radial", test_radial);
  g_test_add_func ("/mask/brush", test_brush);
  g_test_add_func ("/mask/combine", test_combine);
  g_test_add_func ("/mask/ranges", test_ranges);
  g_test_add_func ("/mask/binned-equals-brute-force", test_binned_equals_brute_force);
  g_test_add_func ("/mask/guided-reference", test_guided_reference);
  g_test_add_func ("/mask/level", test_level);
  g_test_add_func ("/mask/tile", test_tile);
  g_test_add_func ("/mask/poisoned", test_poisoned);
  g_test_add_func ("/mask/blend", test_blend);
  g_test_add_func ("/mask/refused", test_refused);
  return g_test_run ();
}
