/* A large photo's view through its pyramid (core/render/level-view.c; the levels themselves:
 * test-pyramid-levels.c): the worker's view of a zoomed-out photo is the pipeline run on that
 * level with its lengths scaled (run here step by step), a view at 100 % of a level too
 * large to render whole is the full render's pixels of the visible region, and what needs
 * the whole image (equalize) falls back to the finest level within the bound. The
 * thresholds are lowered through the environment so that small images take those paths. */
#include <math.h>
#include <string.h>

#include "core/io/io.h"
#include "core/ops/blur-math.h"
#include "core/ops/gray-math.h"
#include "core/render/cache.h"
#include "core/render/pyramid.h"
#include "core/render/render.h"
#include "core/render/tiled.h"
#include "core/ops/view.h"
#include "test-util.h"

typedef struct {
  LmImage *view;
  double level_factor;
  gboolean region;
  guint width, height;
  guint64 total;
  GError *error;
  gboolean done;
  LmResultKind awaited;
  LmDiffStats diff;
} Seen;

static void
on_result (const LmRenderResult *r, gpointer data)
{
  Seen *seen = data;
  if (r->kind != seen->awaited || (r->kind == LM_RESULT_PREVIEW && !r->refined && !r->error))
    return;
  g_clear_error (&seen->error);
  if (r->error)
    seen->error = g_error_copy (r->error);
  g_clear_pointer (&seen->view, lm_image_unref);
  if (r->view)
    {
      seen->view = lm_test_image_new (LM_FORMAT_RGBA8, r->view->width, r->view->height, 0);
      for (guint y = 0; y < r->view->height; y++)
        memcpy (lm_image_row (seen->view, y), lm_image_row (r->view, y), r->view->width * 4);
    }
  seen->level_factor = r->level_factor;
  seen->region = r->region;
  seen->width = r->width, seen->height = r->height;
  seen->total = r->histogram.total;
  seen->diff = r->diff;
  seen->done = TRUE;
}

/* Runs the main loop until a result of KIND (a refined one for previews) comes. */
static void
await (Seen *seen, LmResultKind kind)
{
  seen->awaited = kind;
  seen->done = FALSE;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!seen->done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (seen->done);
}

/* SRC through REQ's pipeline made here: the operations' CPU references one by one. */
static LmImage *
reference_render (const LmImage *src, const LmPipeline *pipeline)
{
  LmImage *cur = lm_image_ref ((LmImage *) src);
  for (int i = 0; i < LM_N_OPS; i++)
    {
      const LmStage *stage = lm_pipeline_primary (pipeline, i);
      if (!stage->enabled)
        continue;
      LmImage *next = lm_test_run_op (stage->info, stage->params.bytes, cur);
      lm_image_unref (cur);
      cur = next;
    }
  return cur;
}

static int
max_distance (const LmImage *a, const LmImage *b)
{
  g_assert_cmpuint (a->width, ==, b->width);
  g_assert_cmpuint (a->height, ==, b->height);
  int worst = 0;
  for (guint y = 0; y < a->height; y++)
    for (guint x = 0; x < a->width * 4; x++)
      if (x % 4 != 3) /* RGB24's unused byte */
        worst = MAX (worst, abs ((int) lm_image_row (a, y)[x] - (int) lm_image_row (b, y)[x]));
  return worst;
}

/* The worker's view GOT of SRC at fit is PIPELINE, its lengths scaled by FACTOR, run on the
 * pyramid's level LEVEL and viewed whole: pixel for pixel. */
static void
check_level_view (LmImage *src, const LmPipeline *pipeline, guint level, double factor, const LmImage *got)
{
  g_autoptr (LmPyramid) p = lm_pyramid_new (src, lm_allocator_host (), NULL);
  const LmImage *lv = lm_pyramid_level (p, level);
  g_assert_cmpuint (lv->format, ==, src->format); /* the level keeps the source's depth */
  LmPipeline scaled = *pipeline;
  lm_pipeline_scale (&scaled, factor);
  g_autoptr (LmImage) out = reference_render (lv, &scaled);
  g_autoptr (LmImage) want = lm_test_image_new (LM_FORMAT_RGBA8, out->width, out->height, 0x5A);
  LmViewRect whole = { 0, 0, out->width, out->height, out->width, out->height };
  lm_view_cpu (out, &whole, want);
  g_assert_cmpint (max_distance (got, want), ==, 0);
}

/* The worker's view GOT of RECT is FULL's (the whole render's) pixels there, within TOLERANCE. */
static void
check_region_view (const LmImage *full, const LmViewRect *rect, const LmImage *got, int tolerance)
{
  g_autoptr (LmImage) want = lm_test_image_new (LM_FORMAT_RGBA8, rect->out_w, rect->out_h, 0x5A);
  lm_view_cpu (full, rect, want);
  g_assert_cmpint (max_distance (got, want), <=, tolerance);
}

/* A photo of the corpus made W × H through the view's resampling, back into opaque RGBA8:
 * a real photo large enough for the pyramid, its level 1 close to the photo itself. */
static LmImage *
upscaled_photo (guint width, guint height)
{
  g_autofree char *path = g_build_filename (lm_test_data_dir (), "photos", "chelsea.png", NULL);
  g_autoptr (LmImage) photo = lm_io_load (path, lm_allocator_host (), NULL);
  g_assert_nonnull (photo);
  LmImage *src = lm_image_new (photo->format, width, height, lm_allocator_host (), NULL);
  LmViewRect up = { 0, 0, photo->width, photo->height, width, height };
  g_autoptr (LmImage) rgb = lm_test_image_new (LM_FORMAT_RGBA8, width, height, 0);
  lm_view_cpu (photo, &up, rgb); /* bilinear-free: each output pixel samples what it covers */
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint32 v = ((guint32 *) lm_image_row (rgb, y))[x];
        guint8 *o = lm_test_pixel (src, x, y);
        o[0] = (v >> 16) & 0xff, o[1] = (v >> 8) & 0xff, o[2] = v & 0xff, o[3] = 255;
      }
  src->opaque = TRUE;
  return src;
}

/* A photo of 2400×1600 viewed through its pyramid (threshold 1 MP, whole levels of at most
 * 1 MP): at fit, at 100 % (a region), with equalize at 100 % (a whole level), and compared. */
static void
test_worker_views (void)
{
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "1000000", TRUE);
  setenv ("LUMEN_VIEW_LEVEL_MAX", "1000000", TRUE);
  g_autoptr (LmImage) src = upscaled_photo (2400, 1600);

  Seen seen = { 0 };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen, LM_RESULT_READY);
  lm_render_worker_set_source (w, src);

  LmRenderRequest req = { .generation = 1, .backend = LM_BACKEND_CPU };
  lm_pipeline_init (&req.pipeline);
  lm_pipeline_stage (&req.pipeline, LM_OP_GRAY)->enabled = TRUE;
  LmStage *blur = lm_pipeline_stage (&req.pipeline, LM_OP_BLUR);
  blur->enabled = TRUE;
  ((LmBlurParams *) blur->params.bytes)->sigma = 6.0f;

  /* At fit (1/4): level 2 (600×400), blur σ 6/4. */
  req.view = (LmViewRect) { 0, 0, 2400, 1600, 600, 400 };
  lm_render_worker_request (w, &req);
  await (&seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen.error);
  g_assert_cmpfloat (seen.level_factor, ==, 4.0);
  g_assert_false (seen.region);
  g_assert_cmpuint (seen.width, ==, 2400);
  g_assert_cmpuint (seen.total, ==, 600 * 400); /* the level's histogram */
  {
    LmPipeline scaled = req.pipeline;
    lm_pipeline_scale (&scaled, 4.0);
    g_assert_cmpfloat (((LmBlurParams *) lm_pipeline_stage (&scaled, LM_OP_BLUR)->params.bytes)->sigma, ==, 1.5f);
  }
  check_level_view (src, &req.pipeline, 2, 4.0, seen.view);

  /* At 100 %: level 0 is too large to render whole; the visible region is rendered, and is
   * the full render's. */
  g_autoptr (LmImage) full = reference_render (src, &req.pipeline);
  LmViewRect near[] = { { 700, 500, 500, 300, 500, 300 },     /* inside */
                        { 0, 1300, 500, 300, 500, 300 },      /* at two edges */
                        { 1000.5, 200.25, 400, 300, 400, 300 } }; /* between pixels */
  for (guint i = 0; i < G_N_ELEMENTS (near); i++)
    {
      req.generation++;
      req.view = near[i];
      lm_render_worker_request (w, &req);
      await (&seen, LM_RESULT_PREVIEW);
      g_assert_no_error (seen.error);
      g_assert_true (seen.region);
      g_assert_cmpfloat (seen.level_factor, ==, 1.0);
      check_region_view (full, &near[i], seen.view, i == 2 ? 1 : 0);
    }

  /* Equalize, whose table is the whole image's: a region still, the level's histogram
   * counted in a first pass (the pipelines' own test below compares its pixels). */
  req.generation++;
  lm_pipeline_stage (&req.pipeline, LM_OP_EQUALIZE)->enabled = TRUE;
  req.view = near[0];
  lm_render_worker_request (w, &req);
  await (&seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen.error);
  g_assert_true (seen.region);
  g_assert_cmpfloat (seen.level_factor, ==, 1.0);

  /* The diff view compares what the view shows: at 100 % the visible region of level 0 (its
   * resampling's margin around it), not a whole level; the CPU twice here, no difference. */
  lm_render_worker_compare (w, &req, LM_BACKEND_CPU, LM_BACKEND_CPU, 8.0f);
  await (&seen, LM_RESULT_COMPARE);
  g_assert_no_error (seen.error);
  g_assert_cmpuint (seen.width, ==, 2400);
  g_assert_cmpint (seen.diff.max_abs, ==, 0);
  g_assert_cmpuint (seen.view->width, ==, 500);
  g_test_message ("diff view at 100 %%: %" G_GUINT64_FORMAT " pixels compared", seen.diff.pixels);
  g_assert_cmpuint (seen.diff.pixels, >=, 500 * 300);
  g_assert_cmpuint (seen.diff.pixels, <=, 520 * 320);

  /* At fit, the level shown, whole. */
  req.view = (LmViewRect) { 0, 0, 2400, 1600, 600, 400 };
  lm_render_worker_compare (w, &req, LM_BACKEND_CPU, LM_BACKEND_CPU, 8.0f);
  await (&seen, LM_RESULT_COMPARE);
  g_assert_no_error (seen.error);
  g_assert_cmpuint (seen.diff.pixels, ==, 600 * 400);

  lm_render_worker_free (w);
  g_clear_pointer (&seen.view, lm_image_unref);
  unsetenv ("LUMEN_VIEW_LEVEL_MAX");
}

/* A 16-bit photo keeps its depth in the pyramid: its view at fit (level 1/2) and at 100 %
 * (a region) are the CPU pipeline's on the 16-bit level and on the 16-bit source. */
static void
test_worker_views_16 (void)
{
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "1000000", TRUE);
  setenv ("LUMEN_VIEW_LEVEL_MAX", "1000000", TRUE);
  g_autoptr (LmImage) src = lm_test_image_new (LM_FORMAT_RGBA16, 1600, 1200, 0);
  for (guint y = 0; y < src->height; y++)
    for (guint x = 0; x < src->width; x++)
      {
        guint16 *px = (guint16 *) lm_test_pixel (src, x, y);
        px[0] = (guint16) (x * 40 + y), px[1] = (guint16) (y * 54), px[2] = (guint16) ((x ^ y) * 97), px[3] = 65535;
      }
  src->opaque = TRUE;
  Seen seen = { 0 };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen, LM_RESULT_READY);
  lm_render_worker_set_source (w, src);
  LmRenderRequest req = { .generation = 1, .backend = LM_BACKEND_CPU };
  lm_pipeline_init (&req.pipeline);
  LmStage *blur = lm_pipeline_stage (&req.pipeline, LM_OP_BLUR);
  blur->enabled = TRUE;
  ((LmBlurParams *) blur->params.bytes)->sigma = 4.0f;

  req.view = (LmViewRect) { 0, 0, 1600, 1200, 800, 600 };
  lm_render_worker_request (w, &req);
  await (&seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen.error);
  g_assert_cmpfloat (seen.level_factor, ==, 2.0);
  check_level_view (src, &req.pipeline, 1, 2.0, seen.view);
  req.generation++;
  req.view = (LmViewRect) { 300, 200, 640, 480, 640, 480 };
  lm_render_worker_request (w, &req);
  await (&seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen.error);
  g_assert_true (seen.region);
  g_autoptr (LmImage) full = reference_render (src, &req.pipeline);
  check_region_view (full, &req.view, seen.view, 0);
  lm_render_worker_free (w);
  g_clear_pointer (&seen.view, lm_image_unref);
  unsetenv ("LUMEN_VIEW_LEVEL_MAX");
}

/* The pipelines whose view of a region used to need the whole image. */
typedef enum {
  PIPE_STRAIGHTEN,
  PIPE_ROTATE,
  PIPE_CROP,
  PIPE_RESIZE,
  PIPE_EQUALIZE,
  PIPE_BLUR_40,
  PIPE_ALL,
  N_PIPES
} Pipe;

static const char *const pipe_names[N_PIPES] = { "straighten 7.5° + gray", "rotate 90° + flip + blur σ 3",
                                                 "crop", "resize (export only) + gray",
                                                 "gray + equalize", "blur σ 40",
                                                 "straighten −3° + crop + equalize + blur σ 40" };

static void
pipe_init (LmPipeline *p, Pipe which)
{
  lm_pipeline_init (p);
  LmStraightenParams *straighten = (LmStraightenParams *) lm_pipeline_stage (p, LM_OP_STRAIGHTEN)->params.bytes;
  LmCropParams *crop = (LmCropParams *) lm_pipeline_stage (p, LM_OP_CROP)->params.bytes;
  LmBlurParams *blur = (LmBlurParams *) lm_pipeline_stage (p, LM_OP_BLUR)->params.bytes;
  switch (which)
    {
    case PIPE_STRAIGHTEN:
      lm_pipeline_stage (p, LM_OP_STRAIGHTEN)->enabled = TRUE;
      straighten->angle = 7.5f;
      lm_pipeline_stage (p, LM_OP_GRAY)->enabled = TRUE;
      break;
    case PIPE_ROTATE:
      lm_pipeline_stage (p, LM_OP_ROTATE)->enabled = TRUE;
      ((LmRotateParams *) lm_pipeline_stage (p, LM_OP_ROTATE)->params.bytes)->angle = LM_ROTATE_90;
      ((LmRotateParams *) lm_pipeline_stage (p, LM_OP_ROTATE)->params.bytes)->flip = LM_FLIP_HORIZONTAL;
      lm_pipeline_stage (p, LM_OP_BLUR)->enabled = TRUE;
      blur->sigma = 3.0f;
      break;
    case PIPE_CROP:
      lm_pipeline_stage (p, LM_OP_CROP)->enabled = TRUE;
      *crop = (LmCropParams) { 130.6f, 75.0f, 800.0f, 600.0f, LM_CROP_FREE };
      break;
    case PIPE_RESIZE:
      lm_pipeline_stage (p, LM_OP_RESIZE)->enabled = TRUE;
      ((LmResizeParams *) lm_pipeline_stage (p, LM_OP_RESIZE)->params.bytes)->width = 640.0f;
      lm_pipeline_stage (p, LM_OP_GRAY)->enabled = TRUE;
      break;
    case PIPE_EQUALIZE:
      lm_pipeline_stage (p, LM_OP_GRAY)->enabled = TRUE;
      lm_pipeline_stage (p, LM_OP_EQUALIZE)->enabled = TRUE;
      break;
    case PIPE_BLUR_40:
      lm_pipeline_stage (p, LM_OP_BLUR)->enabled = TRUE;
      blur->sigma = 40.0f;
      break;
    case PIPE_ALL:
      lm_pipeline_stage (p, LM_OP_STRAIGHTEN)->enabled = TRUE;
      straighten->angle = -3.0f;
      lm_pipeline_stage (p, LM_OP_CROP)->enabled = TRUE;
      *crop = (LmCropParams) { 41.0f, 33.0f, 1050.0f, 760.0f, LM_CROP_FREE };
      lm_pipeline_stage (p, LM_OP_EQUALIZE)->enabled = TRUE;
      lm_pipeline_stage (p, LM_OP_BLUR)->enabled = TRUE;
      blur->sigma = 40.0f;
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The whole render of PIPELINE (as the view runs it, its lengths scaled FACTOR times) on
 * LEVEL, by the CPU's render cache: what the view of a level rendered whole shows. */
static LmImage *
whole_level_render (LmBackend *cpu, const LmImage *level, const LmPipeline *pipeline, double factor)
{
  LmPipeline p = *pipeline;
  lm_pipeline_for_view (&p);
  if (factor != 1.0)
    lm_pipeline_scale (&p, factor);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, (LmImage *) level);
  g_autoptr (GError) error = NULL;
  LmImage *out = lm_render_cache_run (cache, &p, NULL, &error);
  g_assert_no_error (error);
  return out;
}

/* REQ's view of WHOLE (the level's whole render) as the worker maps it: the view V is in the
 * full-resolution render's pixels, FULL_W × FULL_H. Into a poisoned buffer. */
static LmImage *
view_of_whole (const LmImage *whole, const LmViewRect *v, guint full_w, guint full_h)
{
  double fx = (double) whole->width / full_w, fy = (double) whole->height / full_h;
  LmViewRect r = { v->rx * fx, v->ry * fy, v->rw * fx, v->rh * fy, v->out_w, v->out_h };
  r.rw = MIN (r.rw, whole->width - r.rx);
  r.rh = MIN (r.rh, whole->height - r.ry);
  LmImage *want = lm_test_image_new (LM_FORMAT_RGBA8, v->out_w, v->out_h, 0x5A);
  lm_view_cpu (whole, &r, want);
  return want;
}

/* REQ through the worker: a region of the level of FACTOR, equal byte for byte to the same
 * part of the level's whole render WHOLE. */
static void
check_region (LmRenderWorker *w, Seen *seen, LmRenderRequest *req, const LmImage *whole, guint full_w,
              guint full_h, double factor, const char *what)
{
  req->generation++;
  lm_render_worker_request (w, req);
  await (seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen->error);
  g_assert_true (seen->region);
  g_assert_cmpfloat (seen->level_factor, ==, factor);
  g_assert_cmpuint (seen->width, ==, full_w);
  g_assert_cmpuint (seen->height, ==, full_h);
  g_autoptr (LmImage) want = view_of_whole (whole, &req->view, full_w, full_h);
  int d = seen->view ? max_distance (seen->view, want) : 999;
  if (d != 0)
    {
      g_test_message ("%s, view %g,%g %g×%g at %d×%d (level 1/%g): max |Δ| %d against the whole level's render",
                      what, req->view.rx, req->view.ry, req->view.rw, req->view.rh, req->view.out_w,
                      req->view.out_h, factor, d);
      g_test_fail ();
    }
}

/* Every pipeline that used to need the whole level (geometry, equalize, blur's large-σ
 * grid) viewed by region on a 1200×900 photo (pyramid above 1 MP, whole levels of at most
 * 0.2 MP: levels 0 and 1 are rendered by region), at 100 % (level 0) at the corners, along
 * an edge and inside, and at 50 % (level 1, the lengths halved): each view the same bytes as
 * the level rendered whole and viewed. */
static void
test_region_pipelines (void)
{
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "1000000", TRUE);
  setenv ("LUMEN_VIEW_LEVEL_MAX", "200000", TRUE);
  g_autoptr (LmImage) src = upscaled_photo (1200, 900);
  g_autoptr (LmPyramid) pyramid = lm_pyramid_new (src, lm_allocator_host (), NULL);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  Seen seen = { 0 };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen, LM_RESULT_READY);
  lm_render_worker_set_source (w, src);

  for (Pipe which = 0; which < N_PIPES; which++)
    {
      LmRenderRequest req = { .generation = 100 * which, .backend = LM_BACKEND_CPU };
      pipe_init (&req.pipeline, which);
      LmPipeline view = req.pipeline;
      lm_pipeline_for_view (&view);
      guint fw, fh;
      lm_pipeline_output_size (&view, src->width, src->height, &fw, &fh);
      g_autoptr (LmImage) whole0 = whole_level_render (cpu, src, &req.pipeline, 1.0);
      g_assert_cmpuint (whole0->width, ==, fw);
      double rw = MIN (400.0, fw), rh = MIN (240.0, fh);
      LmViewRect at_100[] = {
        { 0, 0, rw, rh, (int) rw, (int) rh },                                 /* the top left corner */
        { fw - rw, fh - rh, rw, rh, (int) rw, (int) rh },                     /* the bottom right corner */
        { 0, (fh - rh) / 2 + 0.5, rw, rh, (int) rw, (int) rh },               /* the left edge, between rows */
        { (fw - rw) / 2 + 0.25, (fh - rh) / 2, rw, rh, (int) rw, (int) rh }, /* inside, between columns */
      };
      for (guint i = 0; i < G_N_ELEMENTS (at_100); i++)
        {
          req.view = at_100[i];
          check_region (w, &seen, &req, whole0, fw, fh, 1.0, pipe_names[which]);
        }
      /* At 50 %: level 1 (600×450), rendered by region, its lengths halved. */
      g_autoptr (LmImage) whole1 = whole_level_render (cpu, lm_pyramid_level (pyramid, 1), &req.pipeline, 2.0);
      LmViewRect at_50[] = {
        { fw - 600, fh - 400, 600, 400, 300, 200 }, /* the bottom right corner */
      };
      for (guint i = 0; i < G_N_ELEMENTS (at_50); i++)
        {
          req.view = at_50[i];
          check_region (w, &seen, &req, whole1, fw, fh, 2.0, pipe_names[which]);
        }
      LM_TEST_RETURN_IF_FAILED ();
    }

  /* Equalize's histogram is counted once per level and kept while only later steps change:
   * a new σ keeps it, a new angle (before equalize) counts it again. A kept histogram that
   * should not be shows as a difference. */
  LmRenderRequest req = { .generation = 1000, .backend = LM_BACKEND_CPU };
  pipe_init (&req.pipeline, PIPE_ALL);
  LmStage *blur = lm_pipeline_stage (&req.pipeline, LM_OP_BLUR);
  LmStage *straighten = lm_pipeline_stage (&req.pipeline, LM_OP_STRAIGHTEN);
  float sigmas[] = { 40.0f, 5.0f, 5.0f }, angles[] = { -3.0f, -3.0f, 11.0f };
  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
    {
      ((LmBlurParams *) blur->params.bytes)->sigma = sigmas[i];
      ((LmStraightenParams *) straighten->params.bytes)->angle = angles[i];
      guint fw, fh;
      lm_pipeline_output_size (&req.pipeline, src->width, src->height, &fw, &fh);
      g_autoptr (LmImage) whole0 = whole_level_render (cpu, src, &req.pipeline, 1.0);
      req.view = (LmViewRect) { 300, 200, 400, 240, 400, 240 };
      g_autofree char *what = g_strdup_printf ("kept histogram, σ %g, angle %g", sigmas[i], angles[i]);
      check_region (w, &seen, &req, whole0, fw, fh, 1.0, what);
    }

  /* A level above 8 times the whole-level bound (1.08 MP over 8 × 0.1 MP) takes equalize's
   * histogram from the finest level within that (level 1): the view is level 0 rendered whole
   * with level 1's table. */
  setenv ("LUMEN_VIEW_LEVEL_MAX", "100000", TRUE);
  {
    LmRenderRequest eq = { .generation = 2000, .backend = LM_BACKEND_CPU };
    pipe_init (&eq.pipeline, PIPE_ALL);
    LmPipeline half = eq.pipeline;
    lm_pipeline_scale (&half, 2.0);
    LmTileHistogram counts = { 0 };
    LmTileOptions options = { 0, 0, 1, &counts };
    g_autoptr (LmImage) one = lm_test_image_new (LM_FORMAT_RGBA8, 1, 1, 0);
    g_assert_true (lm_render_tiled (cpu, lm_pyramid_level (pyramid, 1), &half, NULL, &(LmRect) { 0, 0, 1, 1 }, one,
                                    &options, NULL, NULL));
    guint fw, fh;
    lm_pipeline_output_size (&eq.pipeline, src->width, src->height, &fw, &fh);
    g_autoptr (LmImage) whole0 = lm_test_image_new (LM_FORMAT_RGBA8, fw, fh, 0xa5);
    g_assert_true (lm_render_tiled (cpu, src, &eq.pipeline, NULL, NULL, whole0, &options, NULL, NULL));
    g_free (counts.bins);
    eq.view = (LmViewRect) { 300, 200, 400, 240, 400, 240 };
    check_region (w, &seen, &eq, whole0, fw, fh, 1.0, "equalize's table from level 1");
  }

  lm_render_worker_free (w);
  g_clear_pointer (&seen.view, lm_image_unref);
  unsetenv ("LUMEN_VIEW_LEVEL_MAX");
}

/* The tiler's kept histogram (LmTileHistogram, what the view keeps between edits): the
 * first render counts it, the next uses it without a first pass; both write every pixel of
 * a poisoned output, the same as the same part of the untiled render; a 16-bit source's
 * 65536 bins a channel too. */
static void
test_kept_histogram (void)
{
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  for (int deep = 0; deep < 2; deep++)
    {
      g_autoptr (LmImage) src = NULL;
      if (deep)
        {
          src = lm_test_image_new (LM_FORMAT_RGBA16, 300, 200, 0);
          for (guint y = 0; y < src->height; y++)
            for (guint x = 0; x < src->width; x++)
              {
                guint16 *px = (guint16 *) lm_test_pixel (src, x, y);
                px[0] = (guint16) (x * 211 + y), px[1] = (guint16) (y * 300), px[2] = (guint16) ((x ^ y) * 97);
                px[3] = 65535;
              }
          src->opaque = TRUE;
        }
      else
        src = upscaled_photo (300, 200);
      LmPipeline p;
      pipe_init (&p, PIPE_ALL);
      ((LmCropParams *) lm_pipeline_stage (&p, LM_OP_CROP)->params.bytes)->width = 250.0f;
      ((LmCropParams *) lm_pipeline_stage (&p, LM_OP_CROP)->params.bytes)->height = 160.0f;
      g_autoptr (LmImage) whole = whole_level_render (cpu, src, &p, 1.0);
      LmTileHistogram kept = { 0 };
      LmRect parts[] = { { 0, 0, 120, 90 }, { whole->width - 100, whole->height - 70, 100, 70 } };
      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        {
          LmTileOptions options = { 64, 64, 1, &kept };
          g_autoptr (LmImage) out = lm_test_image_new (whole->format, parts[i].width, parts[i].height, 0xa5);
          LmTimings timings;
          lm_timings_init (&timings);
          g_autoptr (GError) error = NULL;
          g_assert_true (lm_render_tiled (cpu, src, &p, NULL, &parts[i], out, &options, &timings, &error));
          g_assert_no_error (error);
          gboolean counted = FALSE;
          for (guint t = 0; t < timings.entries->len; t++)
            counted |= g_str_equal (g_array_index (timings.entries, LmTiming, t).label, "equalize histogram");
          g_assert_true (counted == (i == 0)); /* counted by the first render only */
          g_assert_nonnull (kept.bins);
          g_assert_cmpuint (kept.total, >, 0);
          gsize bpp = lm_format_bytes_per_pixel (whole->format);
          for (guint y = 0; y < parts[i].height; y++)
            if (memcmp (lm_image_row (out, y), lm_image_row (whole, parts[i].y + y) + parts[i].x * bpp,
                        parts[i].width * bpp) != 0)
              {
                g_test_message ("%s part %u: row %u differs from the untiled render", deep ? "16-bit" : "8-bit", i, y);
                g_test_fail ();
                break;
              }
          lm_timings_clear (&timings);
        }
      g_free (kept.bins);
    }
}

/* The pixels a frame renders at 100 % on a 30000×20000 photo (600 MP) seen in a 2560×1440
 * window, before (the finest level of at most 16 MP, rendered whole) and now (the part of
 * level 0 that the visible region needs: its source rectangle through each step), printed
 * for the record: sizes only, no pixels are made. */
static void
test_pixels_per_frame (void)
{
  LmImage source = { .width = 30000, .height = 20000, .format = LM_FORMAT_RGBA8, .opaque = TRUE };
  guint lw = 30000, lh = 20000;
  while ((guint64) lw * lh > (G_GUINT64_CONSTANT (16) << 20))
    lw = (lw + 1) / 2, lh = (lh + 1) / 2;
  for (Pipe which = 0; which < N_PIPES; which++)
    {
      LmPipeline p;
      pipe_init (&p, which);
      lm_pipeline_for_view (&p);
      /* The crop made for the tests' 1200×900 photo, on the large one. */
      LmCropParams *crop = (LmCropParams *) lm_pipeline_stage (&p, LM_OP_CROP)->params.bytes;
      crop->x *= 25.0f, crop->y *= 25.0f, crop->width *= 25.0f, crop->height *= 25.0f;
      guint fw, fh;
      lm_pipeline_output_size (&p, source.width, source.height, &fw, &fh);
      LmRect visible = { fw / 3, fh / 3, MIN (2560u + 4, fw - fw / 3), MIN (1440u + 4, fh - fh / 3) };
      LmRect in;
      g_assert_true (lm_render_tiled_source_rect (&source, &p, &visible, &in));
      g_assert_cmpuint ((guint64) in.width * in.height, >=, (guint64) visible.width * visible.height / 2);
      g_test_message ("pixels per frame, %s: before %u×%u = %.1f MP (level 1/%u whole), now %u×%u = %.1f MP "
                      "(the region's source)%s",
                      pipe_names[which], lw, lh, (double) lw * lh / 1e6, 30000 / lw, in.width, in.height,
                      (double) in.width * in.height / 1e6,
                      lm_pipeline_stage (&p, LM_OP_EQUALIZE)->enabled ? ", and a histogram pass over level 0 when a step before "
                                                         "equalize changes"
                                                       : "");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/view-pyramid/worker-views", test_worker_views);
  g_test_add_func ("/view-pyramid/worker-views-16", test_worker_views_16);
  g_test_add_func ("/view-pyramid/region-pipelines", test_region_pipelines);
  g_test_add_func ("/view-pyramid/kept-histogram", test_kept_histogram);
  g_test_add_func ("/view-pyramid/pixels-per-frame", test_pixels_per_frame);
  return g_test_run ();
}
