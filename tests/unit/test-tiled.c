/* The tiled render (core/render/tiled.c) against the untiled one (the render cache) on the
 * CPU backend: bit-identical for every operation alone and all together, every geometry
 * setting, 8-bit and 16-bit sources, odd and one-pixel tiles, several lanes and parts of the
 * output. Outputs are poisoned first, so an unwritten pixel shows. */
#include <omp.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/error.h"
#include "core/edit/pipeline.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "test-util.h"

/* The photos, loaded once: chelsea (RGB), coffee-alpha (RGBA with transparency) and
 * camera-gray (gray), each also as a 16-bit twin. */
static LmImage *photos[3], *photos16[3];
static LmBackend *cpu;

/* The untiled render in host memory. */
static LmImage *
render_untiled (const LmImage *source, const LmPipeline *pipeline)
{
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, (LmImage *) source);
  g_autoptr (GError) error = NULL;
  LmImage *out = lm_render_cache_run (cache, pipeline, NULL, &error);
  g_assert_no_error (error);
  return out;
}

/* Fails unless PART equals the RECT of WHOLE, byte for byte (padding ignored). */
static void
assert_same_part (const LmImage *whole, const LmRect *rect, const LmImage *part, const char *what)
{
  g_assert_cmpint (whole->format, ==, part->format);
  g_assert_cmpuint (rect->width, ==, part->width);
  g_assert_cmpuint (rect->height, ==, part->height);
  gsize bpp = lm_format_bytes_per_pixel (whole->format);
  for (guint y = 0; y < rect->height; y++)
    {
      const guint8 *a = lm_image_row (whole, rect->y + y) + rect->x * bpp, *b = lm_image_row (part, y);
      if (memcmp (a, b, rect->width * bpp) != 0)
        {
          guint x = 0;
          while (memcmp (a + x * bpp, b + x * bpp, bpp) == 0)
            x++;
          g_test_message ("%s: first difference at (%u, %u) of the part (%u, %u)", what, x, y, rect->x + x,
                          rect->y + y);
          g_test_fail ();
          return;
        }
    }
}

/* PIPELINE on SOURCE tiled TW × TH (LANES lanes) over OUT_RECT (NULL: all) against untiled. */
static void
check_tiled (const LmImage *source, const LmPipeline *pipeline, guint tw, guint th, guint lanes,
             const LmRect *out_rect, const char *what)
{
  g_autoptr (LmImage) whole = render_untiled (source, pipeline);
  LmRect all = { 0, 0, whole->width, whole->height };
  LmRect rect = out_rect ? *out_rect : all;
  rect.width = MIN (rect.width, whole->width - MIN (rect.x, whole->width - 1));
  rect.height = MIN (rect.height, whole->height - MIN (rect.y, whole->height - 1));
  rect.x = MIN (rect.x, whole->width - 1), rect.y = MIN (rect.y, whole->height - 1);

  LmFormat format;
  guint w, h;
  lm_render_tiled_output (source, pipeline, &format, &w, &h);
  g_assert_cmpuint (w, ==, whole->width);
  g_assert_cmpuint (h, ==, whole->height);
  g_assert_cmpint (format, ==, whole->format);

  g_autoptr (LmImage) out = lm_test_image_new (format, rect.width, rect.height, 0xa5);
  LmTileOptions options = { tw, th, lanes };
  LmTimings timings;
  lm_timings_init (&timings);
  g_autoptr (GError) error = NULL;
  gboolean ok = lm_render_tiled (cpu, source, pipeline, NULL, out_rect ? &rect : NULL, out, &options, &timings, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_autofree char *label = g_strdup_printf ("%s, tiles %u×%u, %u lanes, part %u,%u %u×%u", what, tw, th, lanes,
                                            rect.x, rect.y, rect.width, rect.height);
  gboolean named = FALSE;
  for (guint i = 0; i < timings.entries->len; i++)
    named |= g_str_has_prefix (g_array_index (timings.entries, LmTiming, i).label, "tiles: ");
  g_assert_true (named);
  lm_timings_clear (&timings);
  assert_same_part (whole, &rect, out, label);
}

/* PIPELINE on every photo tiled 37 × 53, and 16-bit twins where ALSO16 (the alpha photo's and
 * the gray one's); on the first photo of each depth also 64 × 64 in two lanes, and one-pixel
 * columns and rows over a part of the output. */
static void
check_all (const LmPipeline *pipeline, gboolean also16, const char *what)
{
  for (int depth = 0; depth < (also16 ? 2 : 1); depth++)
    for (int p = depth; p < 3; p++)
      {
        const LmImage *source = depth ? photos16[p] : photos[p];
        g_autofree char *label = g_strdup_printf ("%s on photo %d (%s)", what, p, lm_format_name (source->format));
        check_tiled (source, pipeline, 37, 53, 1, NULL, label);
        if (p == depth)
          {
            check_tiled (source, pipeline, 64, 64, 2, NULL, label);
            LmRect part = { 17, 9, 12, 9 };
            check_tiled (source, pipeline, 1, 9, 1, &part, label);
            check_tiled (source, pipeline, 12, 1, 1, &part, label);
          }
        LM_TEST_RETURN_IF_FAILED ();
      }
}

static void
test_rotate (void)
{
  const char *angles[] = { "90", "180", "270", "0" }, *flips[] = { "none", "horizontal", "vertical" };
  for (guint a = 0; a < G_N_ELEMENTS (angles); a++)
    for (guint f = 0; f < G_N_ELEMENTS (flips); f++)
      {
        LmPipeline p;
        lm_pipeline_init (&p);
        lm_test_set_param (&p, "rotate", "angle", angles[a]);
        lm_test_set_param (&p, "rotate", "flip", flips[f]);
        g_autofree char *what = g_strdup_printf ("rotate %s flip %s", angles[a], flips[f]);
        check_all (&p, TRUE, what);
      }
}

static void
test_straighten (void)
{
  const char *angles[] = { "3.5", "-7", "30", "-44.5" };
  for (guint a = 0; a < G_N_ELEMENTS (angles); a++)
    {
      LmPipeline p;
      lm_pipeline_init (&p);
      lm_test_set_param (&p, "straighten", "angle", angles[a]);
      g_autofree char *what = g_strdup_printf ("straighten %s", angles[a]);
      check_all (&p, TRUE, what);
    }
}

static void
test_crop (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  lm_test_set_param (&p, "crop", "x", "13");
  lm_test_set_param (&p, "crop", "y", "7.4");
  lm_test_set_param (&p, "crop", "width", "300");
  lm_test_set_param (&p, "crop", "height", "200");
  check_all (&p, TRUE, "crop");
  lm_test_set_param (&p, "crop", "ratio", "16:9");
  check_all (&p, TRUE, "crop 16:9");
}

static void
test_resize (void)
{
  /* area down (by 3), Lanczos down (0.7) and up (1.6), exact with one axis each way */
  const char *sizes[][3] = { { "150", "0", "fit" }, { "310", "0", "fit" }, { "720", "0", "fit" },
                             { "200", "500", "exact" } };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      LmPipeline p;
      lm_pipeline_init (&p);
      lm_test_set_param (&p, "resize", "width", sizes[i][0]);
      lm_test_set_param (&p, "resize", "height", sizes[i][1]);
      lm_test_set_param (&p, "resize", "mode", sizes[i][2]);
      g_autofree char *what = g_strdup_printf ("resize %s×%s %s", sizes[i][0], sizes[i][1], sizes[i][2]);
      check_all (&p, TRUE, what);
    }
}

static void
test_blur (void)
{
  /* direct (≤ 16) and the grid method at several steps */
  const char *sigmas[] = { "0.8", "2.5", "10", "17", "40", "100" };
  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
    {
      LmPipeline p;
      lm_pipeline_init (&p);
      lm_test_set_param (&p, "blur", "sigma", sigmas[i]);
      g_autofree char *what = g_strdup_printf ("blur %s", sigmas[i]);
      check_all (&p, TRUE, what);
    }
}

static void
test_equalize (void)
{
  const char *modes[] = { "luma", "rgb" }, *amounts[] = { "1", "0.6" };
  for (guint m = 0; m < 2; m++)
    for (guint a = 0; a < 2; a++)
      {
        LmPipeline p;
        lm_pipeline_init (&p);
        lm_test_set_param (&p, "equalize", "mode", modes[m]);
        lm_test_set_param (&p, "equalize", "amount", amounts[a]);
        g_autofree char *what = g_strdup_printf ("equalize %s %s", modes[m], amounts[a]);
        check_all (&p, TRUE, what);
        /* after a geometry and point operations: the first pass renders them too */
        lm_test_set_param (&p, "straighten", "angle", "4");
        lm_test_set_param (&p, "exposure", "ev", "0.4");
        check_tiled (photos[0], &p, 37, 53, 2, NULL, what);
        check_tiled (photos16[1], &p, 37, 53, 2, NULL, what);
      }
}

static void
test_points (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  lm_test_set_param (&p, "wb", "temperature", "4800");
  lm_test_set_param (&p, "exposure", "ev", "-0.3");
  lm_test_set_param (&p, "contrast", "contrast", "0.3");
  lm_test_set_param (&p, "saturation", "saturation", "0.4");
  check_all (&p, TRUE, "point operations");
  LmPipeline g;
  lm_pipeline_init (&g);
  lm_test_set_param (&g, "gray", "mode", "bt601");
  check_all (&g, TRUE, "gray");
  lm_test_set_param (&g, "gray", "amount", "0.5");
  check_all (&g, TRUE, "gray 0.5");
}

/* Two exposure instances, a contrast between them (three fused passes), tiled = whole; the
 * second instance is applied (the render differs from the first's alone). */
static void
test_instances (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  lm_test_set_param (&p, "exposure", "ev", "0.6");
  int at;
  g_assert_true (lm_pipeline_add (&p, LM_OP_EXPOSURE, &at, NULL));
  LmPipeline one = p;
  p.inst[at].enabled = TRUE;
  p.inst[at].params.exposure.ev = -1.1f;
  check_tiled (photos[0], &p, 37, 53, 1, NULL, "two exposures");
  check_tiled (photos[0], &p, 64, 64, 2, NULL, "two exposures");
  g_assert_true (lm_pipeline_add (&p, LM_OP_CURVE, &at, NULL));
  lm_test_set_param (&p, "curve", "mode", "luma");
  lm_test_set_param (&p, "curve", "points", "0:0,96:140,255:255");
  p.inst[at].enabled = TRUE;
  p.inst[at].params.curve = lm_pipeline_stage (&p, LM_OP_CURVE)->params.curve;
  check_tiled (photos16[0], &p, 37, 53, 1, NULL, "two exposures, two curves");
  g_autoptr (LmImage) a = render_untiled (photos[0], &p), b = render_untiled (photos[0], &one);
  g_assert_cmpint (memcmp (lm_image_row (a, 0), lm_image_row (b, 0), a->width * 4), !=, 0);
}

static void
test_all_together (void)
{
  const char *sigmas[] = { "3", "30" };
  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
    {
      LmPipeline p;
      lm_pipeline_init (&p);
      lm_test_set_param (&p, "rotate", "angle", "90");
      lm_test_set_param (&p, "rotate", "flip", "horizontal");
      lm_test_set_param (&p, "straighten", "angle", "-2.5");
      lm_test_set_param (&p, "crop", "x", "20");
      lm_test_set_param (&p, "crop", "y", "11");
      lm_test_set_param (&p, "crop", "width", "250");
      lm_test_set_param (&p, "wb", "temperature", "6000");
      lm_test_set_param (&p, "exposure", "ev", "0.2");
      lm_test_set_param (&p, "contrast", "contrast", "0.2");
      lm_test_set_param (&p, "saturation", "saturation", "-0.3");
      lm_test_set_param (&p, "gray", "mode", "bt601");
      lm_test_set_param (&p, "gray", "amount", "0.7");
      lm_test_set_param (&p, "equalize", "amount", "0.8");
      lm_test_set_param (&p, "blur", "sigma", sigmas[i]);
      lm_test_set_param (&p, "resize", "width", "170");
      g_autofree char *what = g_strdup_printf ("all operations, blur %s", sigmas[i]);
      check_all (&p, TRUE, what);
      /* without the resize: the output at full scale, a part of it */
      lm_pipeline_stage (&p, LM_OP_RESIZE)->enabled = FALSE;
      LmRect part = { 31, 47, 101, 77 };
      check_tiled (photos[0], &p, 29, 31, 3, &part, what);
      check_tiled (photos16[1], &p, 29, 31, 2, &part, what);
    }
}

/* Nothing enabled: the source itself comes back, tile by tile. */
static void
test_identity (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  check_all (&p, TRUE, "no operation");
}

/* A radiance source is not tiled, and says so. */
static void
test_radiance_refused (void)
{
  g_autoptr (LmImage) hdr = lm_image_new (LM_FORMAT_RGBA_F32, 8, 8, lm_allocator_host (), NULL);
  g_autoptr (LmImage) out = lm_test_image_new (LM_FORMAT_RGBA8, 8, 8, 0);
  LmPipeline p;
  lm_pipeline_init (&p);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_render_tiled (cpu, hdr, &p, NULL, NULL, out, NULL, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
}

/* The CPU has no memory bound it knows of: every render fits untiled. */
static void
test_fits (void)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  lm_test_set_param (&p, "blur", "sigma", "5");
  g_assert_true (lm_render_fits (cpu, photos[0], &p));
  g_assert_cmpuint (lm_backend_memory_available (cpu), ==, G_MAXSIZE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  /* Thousands of tiny tiles, each a few OpenMP regions: on a busy machine two threads spend
   * most of it waiting at barriers. Tiles against one piece does not depend on the threads
   * (each operation's own tests run them on two). */
  omp_set_num_threads (1);
  cpu = lm_backend_cpu_new ();
  const char *names[] = { "chelsea.png", "coffee-alpha.png", "camera-gray.png" };
  for (int i = 0; i < 3; i++)
    {
      g_autoptr (LmImage) full = lm_test_load_photo (names[i]);
      /* a part, so that one-pixel tiles stay quick: odd sides */
      guint w = MIN (full->width, 181u), h = MIN (full->height, 127u);
      photos[i] = lm_test_crop (full, (full->width - w) / 2, (full->height - h) / 2, w, h);
      photos16[i] = lm_test_deepen (photos[i]);
    }
  g_assert_false (photos[1]->opaque); /* the alpha photo keeps its transparency */
  g_test_add_func ("/tiled/identity", test_identity);
  g_test_add_func ("/tiled/instances", test_instances);
  g_test_add_func ("/tiled/rotate", test_rotate);
  g_test_add_func ("/tiled/straighten", test_straighten);
  g_test_add_func ("/tiled/crop", test_crop);
  g_test_add_func ("/tiled/resize", test_resize);
  g_test_add_func ("/tiled/blur", test_blur);
  g_test_add_func ("/tiled/equalize", test_equalize);
  g_test_add_func ("/tiled/points", test_points);
  g_test_add_func ("/tiled/all-together", test_all_together);
  g_test_add_func ("/tiled/radiance-refused", test_radiance_refused);
  g_test_add_func ("/tiled/fits", test_fits);
  int status = g_test_run ();
  for (int i = 0; i < 3; i++)
    {
      lm_image_unref (photos[i]);
      lm_image_unref (photos16[i]);
    }
  lm_backend_free (cpu);
  return status;
}
