/* A raw's mosaic turned upright (core/io/raw-orient.c): every site keeps its colour and its
 * black level under all eight EXIF orientations, for Bayer and X-Trans patterns of odd and
 * even sizes, and the maker's crop still frames the same sites. Each stored sample encodes
 * where it was, so the check needs no other implementation of the turn. */
#include "core/io/raw-orient.h"
#include "core/ops/cfa-math.h"
#include "core/raw-info.h"
#include "test-util.h"

#define XTRANS_ROW(a, b, c, d, e, f) { a, b, c, d, e, f }
static const guint8 xtrans[6][6] = {
  XTRANS_ROW (1, 1, 0, 1, 1, 2), XTRANS_ROW (1, 1, 2, 1, 1, 0), XTRANS_ROW (2, 0, 1, 0, 2, 1),
  XTRANS_ROW (1, 1, 2, 1, 1, 0), XTRANS_ROW (1, 1, 0, 1, 1, 2), XTRANS_ROW (0, 2, 1, 2, 0, 1),
};

/* A W × H mosaic whose sample at (x, y) is y·W + x, with a pattern and a black table of their
 * own periods (black 2 × 3 so that it differs from the CFA's) and a crop. */
static LmImage *
stored_mosaic (guint w, guint h, gboolean is_xtrans, int orientation)
{
  LmImage *image = lm_image_new (LM_FORMAT_CFA16, w, h, lm_allocator_host (), NULL);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      ((guint16 *) lm_image_row (image, y))[x] = (guint16) (y * w + x);
  LmRawInfo *info = lm_raw_info_new ();
  info->layout = is_xtrans ? LM_RAW_XTRANS : LM_RAW_BAYER;
  info->cfa_w = info->cfa_h = is_xtrans ? 6 : 2;
  static const guint8 bayer[2][2] = { { 0, 1 }, { 3, 2 } };
  for (int y = 0; y < info->cfa_h; y++)
    for (int x = 0; x < info->cfa_w; x++)
      info->cfa[y][x] = is_xtrans ? xtrans[y][x] : bayer[y][x];
  info->black_w = 3;
  info->black_h = 2;
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++)
      info->black[y][x] = 100 + 10 * y + x;
  info->crop_x = 1, info->crop_y = 2, info->crop_w = w - 3, info->crop_h = h - 4;
  info->orientation = orientation;
  image->raw = info;
  return image;
}

static void
check_turn (guint w, guint h, gboolean is_xtrans, int orientation)
{
  g_autoptr (LmImage) stored = stored_mosaic (w, h, is_xtrans, orientation);
  g_autoptr (LmImage) turned = lm_raw_orient (stored, NULL);
  g_assert_nonnull (turned);
  const LmRawInfo *s = stored->raw, *t = turned->raw;
  g_assert_cmpint (t->orientation, ==, 1);
  g_assert_cmpuint (turned->width, ==, orientation >= 5 ? h : w);
  LmCfa scfa = { s->cfa_w, s->cfa_h }, tcfa = { t->cfa_w, t->cfa_h };
  memcpy (scfa.color, s->cfa, sizeof scfa.color);
  memcpy (tcfa.color, t->cfa, sizeof tcfa.color);
  guint in_crop = 0;
  for (guint y = 0; y < turned->height; y++)
    for (guint x = 0; x < turned->width; x++)
      {
        guint v = ((guint16 *) lm_image_row (turned, y))[x], sx = v % w, sy = v / w;
        g_assert_cmpint (lm_cfa_site (&tcfa, x, y), ==, lm_cfa_site (&scfa, sx, sy));
        g_assert_cmpfloat (t->black[y % t->black_h][x % t->black_w], ==, s->black[sy % s->black_h][sx % s->black_w]);
        gboolean was_in = sx >= s->crop_x && sx < s->crop_x + s->crop_w && sy >= s->crop_y && sy < s->crop_y + s->crop_h;
        gboolean is_in = x >= t->crop_x && x < t->crop_x + t->crop_w && y >= t->crop_y && y < t->crop_y + t->crop_h;
        g_assert_cmpint (was_in, ==, is_in);
        in_crop += is_in;
      }
  g_assert_cmpuint (in_crop, ==, s->crop_w * s->crop_h);
}

static void
test_every_orientation (void)
{
  static const guint sizes[][2] = { { 7, 5 }, { 8, 6 }, { 13, 19 }, { 24, 18 } };
  for (int o = 1; o <= 8; o++)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      for (int xt = 0; xt < 2; xt++)
        check_turn (sizes[i][0], sizes[i][1], xt, o);
}

/* Upright already: the same image, not a copy. */
static void
test_upright_is_shared (void)
{
  g_autoptr (LmImage) stored = stored_mosaic (8, 6, FALSE, 1);
  g_autoptr (LmImage) same = lm_raw_orient (stored, NULL);
  g_assert_true (same == stored);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/raw-orient/every-orientation", test_every_orientation);
  g_test_add_func ("/raw-orient/upright-is-shared", test_upright_is_shared);
  return g_test_run ();
}
