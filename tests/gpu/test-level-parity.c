/* A large photo's view from its pyramid (core/render/level-view.c) on CUDA against the CPU:
 * the same worker requests on both backends, the views compared (identical without blur,
 * within 1 with it), at fit (a whole level), at 100 % (the visible region), with equalize at
 * 100 % (the finest level within the bound), with the "before" half, and the diff view on
 * the level. A photo of the corpus upscaled to 6000×4000, the thresholds lowered through the
 * environment (levels of at most 4 MP whole) so that the three paths are taken at CI's size. Exit 77 (SKIP)
 * without a usable device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/io/io.h"
#include "core/ops/blur-math.h"
#include "core/render/render.h"
#include "core/render/view.h"

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
  check (w, &s, &req, "100 %, gray + equalize + blur", 1, 4.0, FALSE); /* 3000×2000 is over 4 MP */

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
