/* core/detect: cascades built by hand with answers worked out by hand. A one-stage Haar
 * cascade of one stump (top half brighter than the bottom) on an image whose windows are
 * counted on paper, OpenCV's skip of the window after a first-stage rejection included; an
 * LBP stump that finds a bright dot; groupRectangles' averages (rounded to even), threshold
 * and rule for a box inside a larger one; the tilted integral against its definition; the
 * bit-exact bilinear resize on values derived by hand. Then damaged model files, each refused
 * with one line that begins with the file's name. */
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/detect/cascade.h"
#include "core/detect/cascade-level.h"
#include "core/detect/cascade-math.h"
#include "core/detect/cascade-sums.h"
#include "core/detect/detect.h"
#include "core/detect/gray8.h"
#include "core/detect/group.h"
#include "core/detect/integral.h"
#include "core/detect/models.h"
#include "core/detect/resize-linear.h"
#include "core/error.h"
#include "test-util.h"

/* A Haar cascade of one stage of one stump over a W × H window; FEATURES is the <features>
 * body, STUMP the internal nodes, then the leaves and the stage threshold. */
static char *
haar_xml (int w, int h, const char *stump, const char *leaves, const char *stage_threshold, const char *features)
{
  return g_strdup_printf ("<?xml version=\"1.0\"?>\n<opencv_storage>\n<cascade type_id=\"opencv-cascade-classifier\">"
                          "<stageType>BOOST</stageType><featureType>HAAR</featureType>"
                          "<height>%d</height><width>%d</width>"
                          "<stageParams><maxWeakCount>1</maxWeakCount></stageParams>"
                          "<featureParams><maxCatCount>0</maxCatCount></featureParams>"
                          "<stageNum>1</stageNum><stages><_><maxWeakCount>1</maxWeakCount>"
                          "<stageThreshold>%s</stageThreshold><weakClassifiers><_>"
                          "<internalNodes>%s</internalNodes><leafValues>%s</leafValues></_>"
                          "</weakClassifiers></_></stages><features>%s</features></cascade>\n</opencv_storage>\n",
                          h, w, stage_threshold, stump, leaves, features);
}

/* Top half minus bottom half of a 6 × 6 window (the whole with −1, the top with 2): below 0
 * gives −1, else +1; the stage passes at 0 or more. */
#define TOP_MINUS_BOTTOM "<_><rects><_>0 0 6 6 -1.</_><_>0 0 6 3 2.</_></rects><tilted>0</tilted></_>"

static LmCascade *
parse_ok (const char *text)
{
  GError *error = NULL;
  LmCascade *c = lm_cascade_parse ("hand.xml", text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

static GArray *
candidates (const LmCascade *c, const guint8 *gray, guint w, guint h)
{
  LmCascadeParams p;
  lm_cascade_params_init (&p);
  /* One level, the window's own size, and every passing window kept. */
  p.min_neighbors = 0;
  p.max_width = c->window_width, p.max_height = c->window_height;
  GError *error = NULL;
  GArray *boxes = lm_cascade_detect (c, gray, w, w, h, &p, NULL, &error);
  g_assert_no_error (error);
  return boxes;
}

static void
assert_boxes (const GArray *boxes, const int (*want)[4], guint n)
{
  g_assert_cmpuint (boxes->len, ==, n);
  for (guint i = 0; i < MIN (boxes->len, n); i++)
    {
      const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
      g_assert_cmpint (b->x, ==, want[i][0]);
      g_assert_cmpint (b->y, ==, want[i][1]);
      g_assert_cmpint (b->width, ==, want[i][2]);
      g_assert_cmpint (b->height, ==, want[i][3]);
    }
}

/* A 16 × 12 image, P(x, y) = 255 where (x < 4) == (y ≥ 6), else 0: the left four columns
 * white below row 6, the others white above it. Windows at x = 0 … 10 and y = 0, 2, 4 step by 2:
 * OpenCV cuts the 7 rows of windows into one stripe of 7 / 2 steps of 2, so y = 6 is never
 * tried. By hand, top minus bottom over the window, and its inner 4 × 4 square:
 *   y = 0: x = 0 and 2 give 0 (passes: not below 0); x ≥ 4 have a flat inner square (refused).
 *   y = 2: x = 0 gives 6 − 10 (rejected by the first stage, so x = 2 is not tried: it would
 *          give 6 − 8 + …); x = 4 … 10 give 3·6 − 1·6 > 0.
 *   y = 4: x = 0 gives 8 − 12 (rejected, x = 2 skipped); x = 4 … 10 give 2·6 > 0. */
static void
test_haar_by_hand (void)
{
  g_autofree char *xml = haar_xml (6, 6, "0 -1 0 0.", "-1. 1.", "0.", TOP_MINUS_BOTTOM);
  g_autoptr (LmCascade) c = parse_ok (xml);
  g_assert_cmpint (c->kind, ==, LM_CASCADE_HAAR);
  g_assert_cmpfloat (c->stages[0].threshold, ==, -1e-5f);
  guint8 img[12][16];
  for (int y = 0; y < 12; y++)
    for (int x = 0; x < 16; x++)
      img[y][x] = (x < 4) == (y >= 6) ? 255 : 0;
  g_autoptr (GArray) boxes = candidates (c, &img[0][0], 16, 12);
  static const int want[][4] = { { 0, 0, 6, 6 }, { 2, 0, 6, 6 }, { 4, 2, 6, 6 }, { 6, 2, 6, 6 }, { 8, 2, 6, 6 },
                                 { 10, 2, 6, 6 }, { 4, 4, 6, 6 }, { 6, 4, 6, 6 }, { 8, 4, 6, 6 }, { 10, 4, 6, 6 } };
  assert_boxes (boxes, want, G_N_ELEMENTS (want));

  /* A uniform image: every value is 0, which would pass, but every window is flat. */
  memset (img, 77, sizeof img);
  g_autoptr (GArray) none = candidates (c, &img[0][0], 16, 12);
  g_assert_cmpuint (none->len, ==, 0);
}

/* An LBP stump whose subset holds code 0 alone (every neighbour darker than the centre): on a
 * gray 12 × 8 image, bright dots at (5, 5) and (3, 5). The window at (4, 4) is centred on the
 * first and passes; the one at (2, 4) would pass on the second, but (0, 4) was rejected just
 * before it. */
static void
test_lbp_by_hand (void)
{
  const char *xml
    = "<opencv_storage><cascade><stageType>BOOST</stageType><featureType>LBP</featureType>"
      "<height>3</height><width>3</width><featureParams><maxCatCount>256</maxCatCount></featureParams>"
      "<stages><_><stageThreshold>0</stageThreshold><weakClassifiers><_>"
      "<internalNodes>0 -1 0 1 0 0 0 0 0 0 0</internalNodes><leafValues>1 -1</leafValues></_>"
      "</weakClassifiers></_></stages><features><_><rect>0 0 1 1</rect></_></features></cascade></opencv_storage>";
  g_autoptr (LmCascade) c = parse_ok (xml);
  g_assert_cmpint (c->kind, ==, LM_CASCADE_LBP);
  guint8 img[8][12];
  memset (img, 100, sizeof img);
  img[5][5] = img[5][3] = 200;
  g_autoptr (GArray) boxes = candidates (c, &img[0][0], 12, 8);
  static const int want[][4] = { { 4, 4, 3, 3 } };
  assert_boxes (boxes, want, 1);
}

static GArray *
rects (const int (*r)[4], guint n)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (LmCascadeBox));
  for (guint i = 0; i < n; i++)
    {
      LmCascadeBox b = { r[i][0], r[i][1], r[i][2], r[i][3], 0 };
      g_array_append_val (a, b);
    }
  return a;
}

static void
test_group (void)
{
  /* Four similar boxes average to 10.75 → 11; the lone one has too few neighbours. */
  static const int four[][4] = { { 10, 10, 20, 20 }, { 100, 100, 20, 20 }, { 11, 10, 20, 20 },
                                 { 10, 11, 20, 20 }, { 12, 12, 20, 20 } };
  g_autoptr (GArray) a = rects (four, G_N_ELEMENTS (four));
  g_autoptr (GArray) ga = lm_cascade_group (a, 3, 0.2, 1000, 1000);
  g_assert_cmpuint (ga->len, ==, 1);
  LmCascadeBox *b = &g_array_index (ga, LmCascadeBox, 0);
  g_assert_cmpint (b->x, ==, 11);
  g_assert_cmpint (b->y, ==, 11);
  g_assert_cmpint (b->width, ==, 20);
  g_assert_cmpint (b->neighbors, ==, 4);

  /* 2.5 rounds to 2, as OpenCV's cvRound does. */
  static const int two[][4] = { { 2, 2, 20, 20 }, { 3, 3, 21, 21 } };
  g_autoptr (GArray) t = rects (two, 2);
  g_autoptr (GArray) gt = lm_cascade_group (t, 1, 0.2, 1000, 1000);
  g_assert_cmpuint (gt->len, ==, 1);
  b = &g_array_index (gt, LmCascadeBox, 0);
  g_assert_cmpint (b->x, ==, 2);
  g_assert_cmpint (b->width, ==, 20);

  /* A group of 4 inside one of 5 goes; inside one of 4 it stays. Boxes are clipped to the image. */
  int nested[9][4];
  for (int i = 0; i < 5; i++)
    memcpy (nested[i], (int[4]) { -10, 0, 100, 100 }, sizeof nested[i]);
  for (int i = 5; i < 9; i++)
    memcpy (nested[i], (int[4]) { 20, 20, 30, 30 }, sizeof nested[i]);
  g_autoptr (GArray) n = rects ((const int (*)[4]) nested, 9);
  g_autoptr (GArray) gn = lm_cascade_group (n, 3, 0.2, 80, 80);
  static const int kept[][4] = { { 0, 0, 80, 80 } };
  assert_boxes (gn, kept, 1);
  g_autoptr (GArray) m = rects ((const int (*)[4]) nested + 1, 8);
  g_autoptr (GArray) gm = lm_cascade_group (m, 3, 0.2, 80, 80);
  static const int both[][4] = { { 0, 0, 80, 80 }, { 20, 20, 30, 30 } };
  assert_boxes (gm, both, 2);

  /* At 0 neighbours nothing is grouped or removed. */
  g_autoptr (GArray) g0 = lm_cascade_group (n, 0, 0.2, 80, 80);
  g_assert_cmpuint (g0->len, ==, 9);
}

/* The integrals of a W × H image made in N_BANDS bands (1: the plain pass), every cell
 * against its definition: the sums over x < X, y < Y, and the tilted sums over the pixels
 * (x, y) with y < Y and |x − X + 1| ≤ Y − 1 − y. The step is wider than a row and the
 * padding poisoned, so a row written out of place shows. */
static void
check_integrals (int W, int H, int n_bands)
{
  gsize step = (gsize) W + 3;
  g_autofree guint8 *img = g_new (guint8, (gsize) W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      img[y * W + x] = (guint8) ((17 * x + 31 * y + x * y) % 251);
  gsize cells = step * (H + 1);
  g_autofree guint32 *sum = g_new (guint32, cells), *sq = g_new (guint32, cells), *tilted = g_new (guint32, cells);
  memset (sum, 0xa5, cells * 4), memset (sq, 0xa5, cells * 4), memset (tilted, 0xa5, cells * 4);
  lm_integral_compute_bands (img, W, W, H, sum, sq, tilted, step, n_bands);
  for (int Y = 0; Y <= H; Y++)
    {
      for (int X = 0; X <= W; X++)
        {
          guint32 s = 0, q = 0, t = 0;
          for (int y = 0; y < Y; y++)
            for (int x = 0; x < W; x++)
              {
                guint32 v = img[y * W + x];
                if (x < X)
                  s += v, q += v * v;
                if (abs (x - X + 1) <= Y - 1 - y)
                  t += v;
              }
          g_assert_cmpuint (sum[Y * step + X], ==, s);
          g_assert_cmpuint (sq[Y * step + X], ==, q);
          g_assert_cmpuint (tilted[Y * step + X], ==, t);
        }
      for (gsize X = W + 1; X < step; X++)
        g_assert_cmpuint (sum[Y * step + X], ==, 0xa5a5a5a5u);
    }
}

static void
test_integrals (void)
{
  check_integrals (7, 5, 1);
  guint8 pixel = 9;
  guint32 sum[4], sq[4];
  lm_integral_compute (&pixel, 1, 1, 1, sum, sq, NULL, 2);
  g_assert_cmpuint (sum[3], ==, 9);
  g_assert_cmpuint (sq[3], ==, 81);
}

/* Bands of uneven heights, one row each, more bands than rows, on odd sizes: the same cells. */
static void
test_integral_bands (void)
{
  const int sizes[][2] = { { 7, 5 }, { 13, 1 }, { 1, 13 }, { 31, 17 }, { 40, 64 } };
  const int bands[] = { 2, 3, 4, 5, 7, 16, 100 };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (guint b = 0; b < G_N_ELEMENTS (bands); b++)
      check_integrals (sizes[i][0], sizes[i][1], bands[b]);
}

/* The cascade laid out for a level (cascade-level.h) against cascade-math.h's window, on every
 * window of the astronaut (gray, resized to an odd size) with opencv-data's models: Haar,
 * Haar with tilted features, LBP; one at a time and four at a time. The same result
 * everywhere: passed, the stage that rejected it, or flat. Skipped where opencv-data is not
 * installed. */
static void
test_laid_out (void)
{
  const char *models[] = { "faces", "upper-bodies", "faces-lbp", "cat-faces-lbp" };
  g_autoptr (LmImage) photo = lm_test_load_photo ("astronaut.tif");
  g_autofree guint8 *gray = lm_cascade_gray8 (photo, NULL);
  enum { W = 371, H = 333 };
  g_autofree guint8 *level = g_new (guint8, W * H);
  lm_resize_linear_gray8 (gray, photo->width, photo->width, photo->height, level, W, W, H);
  gsize step = W + 1, cells = step * (H + 1);
  g_autofree guint32 *sum = g_new (guint32, 2 * cells), *sq = g_new (guint32, cells);
  lm_integral_compute (level, W, W, H, sum, sq, sum + cells, step);
  LmCascadeIntegrals in = { sum, sq, sum + cells, (ptrdiff_t) step };
  guint tried = 0;
  for (guint m = 0; m < G_N_ELEMENTS (models); m++)
    {
      g_autofree char *path = lm_cascade_model_path (models[m], NULL);
      if (path == NULL)
        continue;
      GError *error = NULL;
      g_autoptr (LmCascade) c = lm_cascade_load (path, &error);
      g_assert_no_error (error);
      g_assert_true (lm_cascade_level_fits (step, H));
      g_autoptr (LmCascadeLevel) laid_out = lm_cascade_level_new (c);
      lm_cascade_level_set (laid_out, &in);
      guint deep = 0;
      for (int y = 0; y + c->window_height <= H; y++)
        for (int x = 0; x + c->window_width <= W; x++)
          {
            int want = lm_cascade_window (c, &in, x, y);
            g_assert_cmpint (lm_cascade_level_window (laid_out, x, y), ==, want);
            deep += want == 1 || want <= -3;
          }
      g_assert_cmpuint (deep, >, 0); /* the later stages were compared too */
      /* Four at a time along each row, stepping 1 and 2, with OpenCV's skip of the window after
       * a first-stage rejection: the same results where a window is looked at. */
      for (int dx = 1; dx <= 2; dx++)
        for (int y = 0; y + c->window_height <= H; y++)
          {
            int sw = W + 1 - c->window_width;
            gboolean skip = FALSE;
            for (int x = 0; x < sw;)
              {
                int n = MIN (4, (sw - x + dx - 1) / dx), got[4];
                lm_cascade_level_windows (laid_out, x, y, dx, n, skip, got);
                for (int i = 0; i < n; i++, x += dx)
                  {
                    int want = skip ? 0 : lm_cascade_window (c, &in, x, y);
                    g_assert_cmpint (got[i], ==, want);
                    skip = !skip && want == 0;
                  }
              }
          }
      tried++;
    }
  if (tried == 0)
    g_test_skip ("opencv-data is not installed");
}

/* Two pixels to three: the first before the source's first centre copies it, the middle one
 * is half of each (128/256), the last copies the last; two rows to three the same way. Four
 * to two in both directions is the mean of each square, rounded half up. */
static void
test_resize (void)
{
  const guint8 row[2] = { 0, 255 };
  guint8 out[3];
  lm_resize_linear_gray8 (row, 2, 2, 1, out, 3, 3, 1);
  g_assert_cmpmem (out, 3, ((guint8[]) { 0, 128, 255 }), 3);

  const guint8 sq[4] = { 0, 255, 255, 0 };
  guint8 nine[9];
  lm_resize_linear_gray8 (sq, 2, 2, 2, nine, 3, 3, 3);
  g_assert_cmpmem (nine, 9, ((guint8[]) { 0, 128, 255, 128, 128, 128, 255, 128, 0 }), 9);

  const guint8 big[16] = { 10, 20, 30, 40, 50, 60, 70, 80, 1, 2, 3, 5, 7, 9, 11, 13 };
  guint8 half[4];
  lm_resize_linear_gray8 (big, 4, 4, 4, half, 2, 2, 2);
  g_assert_cmpmem (half, 4, ((guint8[]) { 35, 55, 5, 8 }), 4);
}

/* TEXT refused with a message that begins with the name and holds NEEDLE, on one line. */
static void
refused (const char *text, gssize len, const char *needle)
{
  GError *error = NULL;
  LmCascade *c = lm_cascade_parse ("bad.xml", text, len < 0 ? strlen (text) : (gsize) len, &error);
  g_assert_null (c);
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_FORMAT);
  if (error)
    {
      if (!g_str_has_prefix (error->message, "bad.xml: ") || !strstr (error->message, needle)
          || strchr (error->message, '\n'))
        g_test_message ("message: %s (wanted %s)", error->message, needle);
      g_assert_true (g_str_has_prefix (error->message, "bad.xml: "));
      g_assert_nonnull (strstr (error->message, needle));
      g_assert_null (strchr (error->message, '\n'));
      g_assert_cmpuint (strlen (error->message), <, 1024);
    }
  g_clear_error (&error);
  lm_cascade_free (c);
}

static char *
replace (const char *text, const char *from, const char *to)
{
  g_auto (GStrv) parts = g_strsplit (text, from, 2);
  g_assert_nonnull (parts[1]);
  return g_strconcat (parts[0], to, parts[1], NULL);
}

static void
test_bad_files (void)
{
  g_autofree char *good = haar_xml (6, 6, "0 -1 0 0.", "-1. 1.", "0.", TOP_MINUS_BOTTOM);
  lm_cascade_free (parse_ok (good));
  refused ("", 0, "empty");
  refused (good, (gssize) strlen (good) / 2, "bad.xml");
  refused ("<html/>", -1, "not an OpenCV file");
  refused ("<opencv_storage></opencv_storage>", -1, "no model");
  g_autofree char *count = replace (good, "<stageNum>1<", "<stageNum>2147483647<");
  refused (count, -1, "stageNum");
  g_autofree char *weak = replace (good, "<_><maxWeakCount>1<", "<_><maxWeakCount>1000000000<");
  refused (weak, -1, "declares");
  g_autofree char *index = replace (good, "0 -1 0 0.", "0 -1 7 0.");
  refused (index, -1, "feature 7");
  g_autofree char *outside = replace (good, "0 0 6 3 2.", "0 4 6 3 2.");
  refused (outside, -1, "outside");
  g_autofree char *small = replace (good, "0 0 6 3 2.", "1 0 2 2 2.");
  g_autofree char *tilted = replace (small, "<tilted>0<", "<tilted>1<");
  refused (tilted, -1, "outside");
  g_autofree char *nan = replace (good, "-1. 1.", "nan 1.");
  refused (nan, -1, "not finite");
  g_autofree char *huge = replace (good, "-1. 1.", "1e999 1.");
  refused (huge, -1, "not finite");
  g_autofree char *big_float = replace (good, "-1. 1.", "1e300 1.");
  refused (big_float, -1, "float");
  g_autofree char *word = replace (good, "-1. 1.", "-1. one");
  refused (word, -1, "not a number");
  g_autofree char *deep = replace (good, "0 -1 0 0.", "1 -1 0 0. 0 -2 0 0.");
  refused (deep, -1, "deeper");
  g_autofree char *depth = replace (good, "<maxWeakCount>1</maxWeakCount></stageParams>",
                                    "<maxDepth>2</maxDepth></stageParams>");
  refused (depth, -1, "depth 2");
  g_autofree char *hog = replace (good, ">HAAR<", ">HOG<");
  refused (hog, -1, "HOG");
  g_autofree char *cats = replace (good, "<maxCatCount>0<", "<maxCatCount>256<");
  refused (cats, -1, "bad.xml");
  g_autofree char *window = replace (good, "<width>6<", "<width>100000<");
  refused (window, -1, "width");
  g_autofree char *four = replace (good, "</rects>", "<_>0 0 1 1 1.</_><_>0 0 1 1 1.</_></rects>");
  refused (four, -1, "more than 3");
  g_autofree char *nested = g_strnfill (4000, '<');
  refused (nested, -1, "bad.xml");
  GString *deep_tags = g_string_new ("<opencv_storage><cascade>");
  for (int i = 0; i < 100; i++)
    g_string_append (deep_tags, "<_>");
  refused (deep_tags->str, -1, "nested");
  g_string_free (deep_tags, TRUE);
}

/* Files that are no regular file are refused by name before a byte is read. */
static void
test_not_files (void)
{
  const char *dir = lm_test_tmp_dir ();
  GError *error = NULL;
  g_assert_null (lm_cascade_load (dir, &error));
  g_assert_nonnull (error);
  if (error)
    g_assert_true (g_str_has_prefix (error->message, dir));
  g_clear_error (&error);
  g_autofree char *fifo = g_build_filename (dir, "model.xml", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_null (lm_cascade_load (fifo, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_autofree char *missing = g_build_filename (dir, "missing.xml", NULL);
  g_assert_null (lm_cascade_load (missing, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_autofree char *empty = lm_test_write_tmp ("empty.xml", "", 0);
  g_assert_null (lm_cascade_load (empty, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_FORMAT);
  g_clear_error (&error);
}

/* Parameters out of range are an error, not a hang or a crash: a scale factor of 1 or less,
 * not a number, infinite, or so close to 1 that the levels would be millions. */
static void
test_bad_parameters (void)
{
  g_autofree char *xml = haar_xml (6, 6, "0 -1 0 0.", "-1. 1.", "0.", TOP_MINUS_BOTTOM);
  g_autoptr (LmCascade) c = parse_ok (xml);
  guint8 img[64] = { 0 };
  const double factors[] = { 1.0, 0.5, -2.0, NAN, INFINITY, 1.0 + 1e-6 };
  for (guint i = 0; i < G_N_ELEMENTS (factors); i++)
    {
      LmCascadeParams p;
      lm_cascade_params_init (&p);
      p.scale_factor = factors[i];
      GError *error = NULL;
      g_autoptr (GArray) boxes = lm_cascade_detect (c, img, 8, 8, 8, &p, NULL, &error);
      g_assert_null (boxes);
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
      g_clear_error (&error);
    }
  LmCascadeParams p;
  lm_cascade_params_init (&p);
  p.min_width = -1;
  GError *error = NULL;
  g_assert_null (lm_cascade_detect (c, img, 8, 8, 8, &p, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_clear_error (&error);
}

/* The GPU's late stages add a stage's leaves in another order: allowed where every partial
 * sum is exact. A stage whose leaves span more than 2⁵³ of its smallest one's ulps is not. */
static void
test_sums_exact (void)
{
  LmCascadeStump stumps[3] = { { 0, 0.0f, 0.5f, -0.25f }, { 0, 0.0f, 1.0f, 0.0f }, { 0, 0.0f, 0.75f, 0.125f } };
  LmCascadeStage stage = { 0, 3, 0.5f };
  LmCascade c = { .kind = LM_CASCADE_HAAR, .n_stages = 1, .n_stumps = 3, .stages = &stage, .stumps = stumps };
  g_assert_true (lm_cascade_sums_exact (&c));
  /* 2⁻⁴⁰ has an ulp of 2⁻⁶³; 1 + 1 + 2⁻⁴⁰ needs 64 bits of them. */
  stumps[2].right = ldexpf (1.0f, -40);
  g_assert_false (lm_cascade_sums_exact (&c));
  stumps[2].right = ldexpf (1.0f, -20); /* 2⁻²⁰'s ulp is 2⁻⁴³: 2.75 is 2⁴⁵ of them */
  g_assert_true (lm_cascade_sums_exact (&c));
  /* Every model that Lumen names. */
  for (const LmCascadeModel *m = lm_cascade_models (); m->name; m++)
    {
      GError *error = NULL;
      g_autofree char *path = lm_cascade_model_path (m->name, &error);
      g_autoptr (LmCascade) cascade = path ? lm_cascade_load (path, &error) : NULL;
      g_assert_no_error (error);
      g_assert_true (lm_cascade_sums_exact (cascade));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/cascade/haar-by-hand", test_haar_by_hand);
  g_test_add_func ("/cascade/lbp-by-hand", test_lbp_by_hand);
  g_test_add_func ("/cascade/group", test_group);
  g_test_add_func ("/cascade/integrals", test_integrals);
  g_test_add_func ("/cascade/integral-bands", test_integral_bands);
  g_test_add_func ("/cascade/laid-out", test_laid_out);
  g_test_add_func ("/cascade/resize", test_resize);
  g_test_add_func ("/cascade/bad-files", test_bad_files);
  g_test_add_func ("/cascade/not-files", test_not_files);
  g_test_add_func ("/cascade/bad-parameters", test_bad_parameters);
  g_test_add_func ("/cascade/sums-exact", test_sums_exact);
  return g_test_run ();
}
