/* A large photo's view from its pyramid (core/render/level-view.c) on CUDA against the CPU:
 * the same worker requests on both backends, the views compared (identical without blur,
 * within 1 with it), at fit (a whole level), at 100 % (the visible region), with equalize,
 * geometry and blur σ 40 at 100 % and 50 % (regions rendered by the tiler), with the "before"
 * half, and the diff view on the level (the finest level within the bound). A photo of the corpus upscaled to 6000×4000, the thresholds lowered through the
 * environment (levels of at most 4 MP whole) so that the three paths are taken at CI's size. Exit 77 (SKIP)
 * without a usable device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/io/io.h"
#include "core/ops/blur-math.h"
#include "core/render/render.h"
#include "core/ops/view.h"

typedef struct {
  LmResultKind awaited;
  gboolean done, cuda;
  LmImage *view, *before;
  double level_factor;
  gboolean region;
  char *error;
  LmDiffStats diff;
} Seen;

static LmImage *
copy_view (const LmImage *v)
{
  LmImage *c = lm_image_new (LM_FORMAT_RGBA8, v->width, v->height, lm_allocator_host (), NULL);
  for (guint y = 0; y < v->height; y++)
    memcpy (lm_image_row (c, y), lm_image_row (v, y), v->width * 4);
  return c;
}

static void
on_result (const LmRenderResult *r, gpointer data)
{
  Seen *s = data;
  if (r->kind == LM_RESULT_READY)
    s->cuda = r->cuda_unavailable == NULL;
  if (r->kind != s->awaited || (r->kind == LM_RESULT_PREVIEW && !r->refined && !r->error))
    return;
  g_clear_pointer (&s->error, g_free);
  if (r->error)
    s->error = g_strdup (r->error->message);
  else if (r->notice)
    s->error = g_strdup (r->notice); /* a fallback to the CPU is no parity */
  g_clear_pointer (&s->view, lm_image_unref);
  g_clear_pointer (&s->before, lm_image_unref);
  if (r->view)
    s->view = copy_view (r->view);
  if (r->before_view)
    s->before = copy_view (r->before_view);
  s->level_factor = r->level_factor;
  s->region = r->region;
  s->diff = r->diff;
  s->done = TRUE;
}

static gboolean
await (Seen *s, LmResultKind kind)
{
  s->awaited = kind;
  s->done = FALSE;
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (!s->done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  return s->done;
}

static int
distance (const LmImage *a, const LmImage *b)
{
  if (a == NULL || b == NULL || a->width != b->width || a->height != b->height)
    return 999;
  int worst = 0;
  for (guint y = 0; y < a->height; y++)
    for (guint x = 0; x < a->width * 4; x++)
      if (x % 4 != 3)
        worst = MAX (worst, abs ((int) lm_image_row (a, y)[x] - (int) lm_image_row (b, y)[x]));
  return worst;
}

static int failures;

/* REQ on the CPU, then on CUDA: views within TOLERANCE; the mode as expected. */
static void
check (LmRenderWorker *w, Seen *s, LmRenderRequest *req, const char *what, int tolerance, double factor,
       gboolean region)
{
  LmImage *views[2][2] = { { NULL } };
  LmBackendKind kinds[2] = { LM_BACKEND_CPU, LM_BACKEND_CUDA };
  for (int b = 0; b < 2; b++)
    {
      req->generation++;
      req->backend = kinds[b];
      lm_render_worker_request (w, req);
      if (!await (s, LM_RESULT_PREVIEW) || s->error)
        {
          printf ("FAIL %s on %s: %s\n", what, b ? "cuda" : "cpu", s->error ? s->error : "no result");
          failures++;
          return;
        }
      if (s->level_factor != factor || s->region != region)
        {
          printf ("FAIL %s: level 1/%g%s, expected 1/%g%s\n", what, s->level_factor, s->region ? " (region)" : "",
                  factor, region ? " (region)" : "");
          failures++;
        }
      views[b][0] = g_steal_pointer (&s->view);
      views[b][1] = g_steal_pointer (&s->before);
    }
  int d = distance (views[0][0], views[1][0]);
  int db = req->with_before ? distance (views[0][1], views[1][1]) : 0;
  printf ("%s %s: cuda vs cpu max |Δ| %d, before %d (allowed %d)\n", d <= tolerance && db == 0 ? "level parity" : "FAIL",
          what, d, db, tolerance);
  failures += !(d <= tolerance && db == 0);
  for (int b = 0; b < 2; b++)
    for (int k = 0; k < 2; k++)
      g_clear_pointer (&views[b][k], lm_image_unref);
}

/* The pipelines whose region used to need the whole level (geometry, equalize, blur's
 * large-σ grid), each at 100 % (level 0) inside and at the bottom right corner, and at 50 %
 * (level 1, 3000×2000, over the 4 MP bound: a region as well), with the "before" half. */
static void
check_region_pipelines (LmRenderWorker *w, Seen *s)
{
  static const struct {
    const char *name;
    int tolerance; /* test-parity.c's: straighten and blur within 1; equalize after them
                    * may move a table entry by a little more, as in test-tiled-parity.c */
  } pipes[] = {
    { "straighten 7.5° + gray", 1 },     { "rotate 90° + flip + blur σ 3", 1 }, { "crop", 0 },
    { "resize (export only) + gray", 0 }, { "gray + equalize", 0 },             { "blur σ 40", 1 },
    { "straighten −3° + crop + equalize + blur σ 40", 3 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (pipes); i++)
    {
      LmRenderRequest req = { .with_before = TRUE };
      LmPipeline *p = &req.pipeline;
      lm_pipeline_init (p);
      LmStraightenParams *straighten = (LmStraightenParams *) lm_pipeline_stage (p, LM_OP_STRAIGHTEN)->params.bytes;
      LmCropParams *crop = (LmCropParams *) lm_pipeline_stage (p, LM_OP_CROP)->params.bytes;
      LmBlurParams *blur = (LmBlurParams *) lm_pipeline_stage (p, LM_OP_BLUR)->params.bytes;
      LmRotateParams *rotate = (LmRotateParams *) lm_pipeline_stage (p, LM_OP_ROTATE)->params.bytes;
      switch (i)
        {
        case 0:
          lm_pipeline_stage (p, LM_OP_STRAIGHTEN)->enabled = TRUE, straighten->angle = 7.5f;
          lm_pipeline_stage (p, LM_OP_GRAY)->enabled = TRUE;
          break;
        case 1:
          lm_pipeline_stage (p, LM_OP_ROTATE)->enabled = TRUE;
          rotate->angle = LM_ROTATE_90, rotate->flip = LM_FLIP_HORIZONTAL;
          lm_pipeline_stage (p, LM_OP_BLUR)->enabled = TRUE, blur->sigma = 3.0f;
          break;
        case 2:
          lm_pipeline_stage (p, LM_OP_CROP)->enabled = TRUE;
          *crop = (LmCropParams) { 301.6f, 175.0f, 4400.0f, 3100.0f, LM_CROP_FREE };
          break;
        case 3:
          lm_pipeline_stage (p, LM_OP_RESIZE)->enabled = TRUE;
          ((LmResizeParams *) lm_pipeline_stage (p, LM_OP_RESIZE)->params.bytes)->width = 1500.0f;
          lm_pipeline_stage (p, LM_OP_GRAY)->enabled = TRUE;
          break;
        case 4:
          lm_pipeline_stage (p, LM_OP_GRAY)->enabled = TRUE;
          lm_pipeline_stage (p, LM_OP_EQUALIZE)->enabled = TRUE;
          break;
        case 5:
          lm_pipeline_stage (p, LM_OP_BLUR)->enabled = TRUE, blur->sigma = 40.0f;
          break;
        default:
          lm_pipeline_stage (p, LM_OP_STRAIGHTEN)->enabled = TRUE, straighten->angle = -3.0f;
          lm_pipeline_stage (p, LM_OP_CROP)->enabled = TRUE;
          *crop = (LmCropParams) { 120.0f, 90.0f, 5200.0f, 3500.0f, LM_CROP_FREE };
          lm_pipeline_stage (p, LM_OP_EQUALIZE)->enabled = TRUE;
          lm_pipeline_stage (p, LM_OP_BLUR)->enabled = TRUE, blur->sigma = 40.0f;
          break;
        }
      LmPipeline view = *p;
      lm_pipeline_for_view (&view);
      guint fw, fh;
      lm_pipeline_output_size (&view, 6000, 4000, &fw, &fh);
      LmViewRect views[] = { { fw / 2.0 - 500.5, fh / 2.0 - 350.25, 1000, 700, 1000, 700 },
                             { fw - 1000.0, fh - 700.0, 1000, 700, 1000, 700 },
                             { fw / 2.0 - 1000, fh / 2.0 - 700, 2000, 1400, 1000, 700 } };
      const char *where[] = { "100 %, inside", "100 %, the corner", "50 %" };
      for (guint k = 0; k < G_N_ELEMENTS (views); k++)
        {
          req.view = views[k];
          g_autofree char *what = g_strdup_printf ("%s, %s", where[k], pipes[i].name);
          check (w, s, &req, what, pipes[i].tolerance, k == 2 ? 2.0 : 1.0, TRUE);
        }
    }
}

int
main (void)
{
  setenv ("LUMEN_VIEW_PYRAMID_ABOVE", "4000000", TRUE);
  setenv ("LUMEN_VIEW_LEVEL_MAX", "4000000", TRUE);
  Seen s = { 0 };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &s);
  if (!await (&s, LM_RESULT_READY) || !s.cuda)
    {
      printf ("SKIP level parity: no usable CUDA device\n");
      lm_render_worker_free (w);
      return 77;
    }
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  g_autofree char *path = g_build_filename (data ? data : "tests/data", "photos", "forest-path.jpg", NULL);
  GError *e = NULL;
  g_autoptr (LmImage) photo = lm_io_load (path, lm_allocator_host (), &e);
  if (photo == NULL)
    {
      printf ("FAIL %s\n", e->message);
      return 1;
    }
  /* Upscaled through the view's resampling, back into RGBA8. */
  LmViewRect up = { 0, 0, photo->width, photo->height, 6000, 4000 };
  g_autoptr (LmImage) rgb = lm_image_new (LM_FORMAT_RGBA8, 6000, 4000, lm_allocator_host (), NULL);
  lm_view_cpu (photo, &up, rgb);
  g_autoptr (LmImage) src = lm_image_new (LM_FORMAT_RGBA8, 6000, 4000, lm_allocator_host (), NULL);
  for (guint y = 0; y < 4000; y++)
    for (guint x = 0; x < 6000; x++)
      {
        guint32 v = ((guint32 *) lm_image_row (rgb, y))[x];
        guint8 *o = lm_image_row (src, y) + 4 * x;
        o[0] = (v >> 16) & 0xff, o[1] = (v >> 8) & 0xff, o[2] = v & 0xff, o[3] = 255;
      }
  src->opaque = TRUE;
  lm_render_worker_set_source (w, src);

  LmRenderRequest req = { 0 };
  lm_pipeline_init (&req.pipeline);
  lm_pipeline_stage (&req.pipeline, LM_OP_GRAY)->enabled = TRUE;
  req.with_before = TRUE;
  req.view = (LmViewRect) { 0, 0, 6000, 4000, 900, 600 };
  check (w, &s, &req, "fit, gray", 0, 4.0, FALSE);
  req.view = (LmViewRect) { 2500.5, 1700.25, 1000, 700, 1000, 700 };
  check (w, &s, &req, "100 %, gray", 0, 1.0, TRUE);
  LmStage *blur = lm_pipeline_stage (&req.pipeline, LM_OP_BLUR);
  blur->enabled = TRUE;
  ((LmBlurParams *) blur->params.bytes)->sigma = 12.0f;
  check (w, &s, &req, "100 %, gray + blur σ 12", 1, 1.0, TRUE);
  req.view = (LmViewRect) { 0, 0, 6000, 4000, 900, 600 };
  check (w, &s, &req, "fit, gray + blur σ 12", 1, 4.0, FALSE);
  lm_pipeline_stage (&req.pipeline, LM_OP_EQUALIZE)->enabled = TRUE;
  req.view = (LmViewRect) { 2500, 1700, 1000, 700, 1000, 700 };
  /* A region too: equalize's table from the whole level's histogram, counted in a first pass. */
  check (w, &s, &req, "100 %, gray + equalize + blur", 1, 1.0, TRUE);
  check_region_pipelines (w, &s);

  /* The diff view on the level, CUDA against the CPU. */
  lm_render_worker_compare (w, &req, LM_BACKEND_CPU, LM_BACKEND_CUDA, 8.0f);
  if (!await (&s, LM_RESULT_COMPARE) || (s.error && !s.diff.max_abs))
    {
      printf ("FAIL compare on the level: %s\n", s.error ? s.error : "no result");
      failures++;
    }
  else
    {
      printf ("%s compare on the level: max |Δ| %u\n", s.diff.max_abs <= 1 ? "level parity" : "FAIL",
              (guint) s.diff.max_abs);
      failures += s.diff.max_abs > 1;
    }
  lm_render_worker_free (w);
  g_clear_pointer (&s.view, lm_image_unref);
  g_clear_pointer (&s.before, lm_image_unref);
  g_free (s.error);
  printf ("level parity: %s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
