/* The render worker: results come back in the main context with their generation (and none
 * once the worker is gone), the view holds what the CPU reference makes of the pipeline,
 * exports are written, cancelled exports and radiance of an 8-bit photo are not, and a
 * compare without a usable CUDA device says why. */
#include <glib/gstdio.h>
#include <string.h>

#include "core/error.h"
#include "core/hdr/stack.h"
#include "core/ops/blur-math.h"
#include "core/io/io.h"
#include "core/render/render.h"
#include "core/render/cache.h"
#include "core/ops/view.h"
#include "test-util.h"

typedef struct {
  GPtrArray *kinds;      /* LmResultKind of every result, in order */
  guint64 last_generation;
  gboolean refined;
  LmImage *view;          /* a copy of the last refined preview */
  LmHistogram histogram;
  gboolean cuda_usable;
  LmDiffStats diff;
  gboolean heat_transparent;
  GError *error;          /* of the last result that had one */
  gboolean done;          /* the awaited kind arrived */
  LmImage *merged;        /* MERGED: the new source */
  gboolean had_response;  /* a MERGE_PROGRESS carried the calibrated response */
  LmResultKind awaited;
} Seen;

static void
on_result (const LmRenderResult *r, gpointer data)
{
  Seen *seen = data;
  g_ptr_array_add (seen->kinds, GINT_TO_POINTER (r->kind));
  if (r->kind == LM_RESULT_READY)
    seen->cuda_usable = r->cuda_unavailable == NULL;
  if (r->error)
    {
      g_clear_error (&seen->error);
      seen->error = g_error_copy (r->error);
    }
  if (r->kind == LM_RESULT_PREVIEW && r->refined && r->view)
    {
      g_clear_pointer (&seen->view, lm_image_unref);
      seen->view = lm_test_image_new (LM_FORMAT_RGBA8, r->view->width, r->view->height, 0);
      for (guint y = 0; y < r->view->height; y++)
        memcpy (lm_image_row (seen->view, y), lm_image_row (r->view, y), r->view->width * 4);
      seen->histogram = r->histogram;
      seen->last_generation = r->generation;
    }
  if (r->kind == LM_RESULT_COMPARE && r->error == NULL)
    {
      seen->diff = r->diff;
      seen->heat_transparent = TRUE;
      for (guint y = 0; y < r->view->height; y++)
        for (guint x = 0; x < r->view->width; x++)
          seen->heat_transparent &= ((guint32 *) lm_image_row (r->view, y))[x] == 0;
    }
  if (r->kind == LM_RESULT_MERGE_PROGRESS && r->response)
    seen->had_response = TRUE;
  if (r->kind == LM_RESULT_MERGED && r->image)
    {
      g_clear_pointer (&seen->merged, lm_image_unref);
      seen->merged = lm_image_ref (r->image);
    }
  if (r->kind == seen->awaited && (r->kind != LM_RESULT_PREVIEW || r->refined || r->error))
    seen->done = TRUE;
}

static void
await (Seen *seen, LmResultKind kind)
{
  seen->done = FALSE;
  seen->awaited = kind;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!seen->done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (seen->done);
}

static LmRenderRequest
request_for (const LmImage *image, guint64 generation)
{
  LmRenderRequest req = { 0 };
  req.generation = generation;
  lm_pipeline_init (&req.pipeline);
  req.backend = LM_BACKEND_CPU;
  req.view = (LmViewRect) { 0, 0, image->width, image->height, (int) image->width / 3, (int) image->height / 3 };
  return req;
}

/* What the worker should show for REQ, made here step by step. */
static LmImage *
expected_view (LmImage *source, const LmRenderRequest *req)
{
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) out = lm_render_cache_run (cache, &req->pipeline, NULL, NULL);
  LmImage *view = lm_test_image_new (LM_FORMAT_RGBA8, req->view.out_w, req->view.out_h, 0xAB);
  lm_view_cpu (out, &req->view, view);
  return view;
}

static void
test_preview_and_generations (void)
{
  Seen seen = { .kinds = g_ptr_array_new () };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen, LM_RESULT_READY);
  g_autoptr (LmImage) src = lm_test_random_rgba (300, 200, 11, FALSE);
  lm_render_worker_set_source (w, src);

  /* Three changes in a row: whatever is rendered on the way, the last one is shown. */
  LmRenderRequest req = request_for (src, 1);
  for (guint64 g = 1; g <= 3; g++)
    {
      req.generation = g;
      LmStage *blur = lm_pipeline_stage (&req.pipeline, LM_OP_BLUR);
      blur->enabled = TRUE;
      ((LmBlurParams *) blur->params.bytes)->sigma = 1.0f + g;
      lm_render_worker_request (w, &req);
    }
  while (seen.last_generation != 3)
    await (&seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen.error);
  g_autoptr (LmImage) want = expected_view (src, &req);
  lm_test_assert_same_pixels (seen.view, want);
  g_assert_cmpuint (seen.histogram.total, ==, 300 * 200);

  lm_render_worker_free (w);
  g_clear_pointer (&seen.view, lm_image_unref);
  g_ptr_array_unref (seen.kinds);
}

/* REQ exported to NAME (in the test's folder) fails with DOMAIN and CODE and writes nothing. */
static void
assert_export_fails (LmRenderWorker *w, Seen *seen, const LmRenderRequest *req, const char *name,
                     GCancellable *cancellable, GQuark domain, int code)
{
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_clear_error (&seen->error);
  lm_render_worker_export (w, req, path, &options, cancellable);
  await (seen, LM_RESULT_EXPORTED);
  g_assert_error (seen->error, domain, code);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_export_and_cancel (void)
{
  Seen seen = { .kinds = g_ptr_array_new () };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  g_autoptr (LmImage) src = lm_test_random_rgba (64, 48, 5, FALSE);
  lm_render_worker_set_source (w, src);
  LmRenderRequest req = request_for (src, 1);
  lm_pipeline_stage (&req.pipeline, LM_OP_GRAY)->enabled = TRUE;
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;

  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), "export.png", NULL);
  lm_render_worker_export (w, &req, path, &options, NULL);
  await (&seen, LM_RESULT_EXPORTED);
  g_assert_no_error (seen.error);
  g_autoptr (LmImage) back = lm_io_load (path, lm_allocator_host (), NULL);
  g_assert_nonnull (back);
  g_assert_cmpint (back->format, ==, LM_FORMAT_GRAY8);
  gboolean progressed = FALSE;
  for (guint i = 0; i < seen.kinds->len; i++)
    progressed |= GPOINTER_TO_INT (g_ptr_array_index (seen.kinds, i)) == LM_RESULT_PROGRESS;
  g_assert_true (progressed);

  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_cancellable_cancel (cancel);
  assert_export_fails (w, &seen, &req, "cancelled.png", cancel, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* Radiance is written only from a merged HDR source, not from an 8-bit photo. */
  assert_export_fails (w, &seen, &req, "not-radiance.hdr", NULL, LUMEN_ERROR, LM_ERROR_INVALID);

  lm_render_worker_free (w);
  g_clear_error (&seen.error);
  g_ptr_array_unref (seen.kinds);
}

static void
count_result (const LmRenderResult *r, gpointer data)
{
  (*(guint *) data)++;
}

/* Results still on their way when the worker is freed are dropped, not delivered: READY is
 * posted before the thread looks for work, so it is in flight once the thread has been joined. */
static void
test_freed_worker_delivers_nothing (void)
{
  GMainContext *context = g_main_context_new ();
  guint delivered = 0;
  LmRenderWorker *w = lm_render_worker_new (context, count_result, &delivered);
  lm_render_worker_free (w);
  g_assert_true (g_main_context_pending (context));
  while (g_main_context_iteration (context, FALSE))
    ;
  g_assert_cmpuint (delivered, ==, 0);
  g_main_context_unref (context);
}

/* Without a usable device, comparing with CUDA fails with the reason; with one, the CPU
 * against CUDA agrees within the contract. */
static void
test_compare (void)
{
  Seen seen = { .kinds = g_ptr_array_new () };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen, LM_RESULT_READY);
  g_autoptr (LmImage) src = lm_test_random_rgba (120, 80, 9, FALSE);
  lm_render_worker_set_source (w, src);
  LmRenderRequest req = request_for (src, 1);
  lm_pipeline_stage (&req.pipeline, LM_OP_EQUALIZE)->enabled = TRUE;
  lm_render_worker_compare (w, &req, LM_BACKEND_CPU, LM_BACKEND_CUDA, 10.0f);
  await (&seen, LM_RESULT_COMPARE);
  if (seen.cuda_usable)
    {
      g_assert_no_error (seen.error);
      g_assert_cmpuint (seen.diff.max_abs, ==, 0); /* equalize is bit-identical */
    }
  else
    g_assert_error (seen.error, LUMEN_ERROR, LM_ERROR_NO_DEVICE);
  g_clear_error (&seen.error);

  /* The CPU against itself: no difference at all, and the heatmap is transparent. */
  lm_pipeline_stage (&req.pipeline, LM_OP_BLUR)->enabled = TRUE;
  lm_render_worker_compare (w, &req, LM_BACKEND_CPU, LM_BACKEND_CPU, 10.0f);
  await (&seen, LM_RESULT_COMPARE);
  g_assert_no_error (seen.error);
  g_assert_cmpuint (seen.diff.max_abs, ==, 0);
  g_assert_cmpuint (seen.diff.differing, ==, 0);
  g_assert_true (seen.heat_transparent);
  lm_render_worker_free (w);
  g_clear_error (&seen.error);
  g_ptr_array_unref (seen.kinds);
}

/* What a receiver holds of the views lent to it: every refined one so far (as references), and
 * a copy of each made on arrival. */
typedef struct {
  GPtrArray *views, *copies;
  guint64 generation;
} Lent;

static void
on_lent_view (const LmRenderResult *r, gpointer data)
{
  Lent *lent = data;
  if (r->kind != LM_RESULT_PREVIEW || !r->refined || r->view == NULL)
    return;
  g_ptr_array_add (lent->views, lm_image_ref (r->view));
  LmImage *copy = lm_test_image_new (LM_FORMAT_RGBA8, r->view->width, r->view->height, 0);
  memcpy (copy->data, r->view->data, lm_image_size_bytes (copy));
  g_ptr_array_add (lent->copies, copy);
  lent->generation = r->generation;
}

static void
render_generation (LmRenderWorker *w, Lent *lent, LmRenderRequest *req, guint64 generation)
{
  req->generation = generation;
  LmStage *blur = lm_pipeline_stage (&req->pipeline, LM_OP_BLUR);
  blur->enabled = TRUE;
  ((LmBlurParams *) blur->params.bytes)->sigma = 0.5f * (float) generation;
  lm_render_worker_request (w, req);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (lent->generation != generation && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (lent->generation, ==, generation);
}

/* The view buffers the worker lends come back to it once the receiver lets them go (the window
 * lets the one on screen go when the next arrives), and one still held is never written again.
 * The receiver first holds every view: each is new, and the worker keeps the first four (its
 * pool). Then it lets all go but one, and holds each new one until the next: each is one of the
 * pool's (alive all along, so no new buffer can have its address). Views are made at full size,
 * so that no quick preview comes between. */
static void
test_view_buffers_come_back (void)
{
  Lent lent = { g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref),
                g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref), 0 };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_lent_view, &lent);
  g_autoptr (LmImage) src = lm_test_random_rgba (90, 60, 17, FALSE);
  lm_render_worker_set_source (w, src);
  LmRenderRequest req = request_for (src, 1);
  req.view.out_w = 90, req.view.out_h = 60;
  for (guint64 g = 1; g <= 6; g++)
    render_generation (w, &lent, &req, g);
  g_assert_cmpuint (lent.views->len, ==, 6);
  LM_TEST_RETURN_IF_FAILED ();
  LmImage *pooled[4];
  for (guint i = 0; i < 4; i++)
    pooled[i] = lent.views->pdata[i];
  g_autoptr (LmImage) kept = lm_image_ref (lent.views->pdata[5]);
  g_autoptr (LmImage) kept_copy = lm_image_ref (lent.copies->pdata[5]);
  g_ptr_array_set_size (lent.views, 0);
  g_ptr_array_set_size (lent.copies, 0);

  for (guint64 g = 7; g <= 14; g++)
    {
      render_generation (w, &lent, &req, g);
      LmImage *view = g_ptr_array_index (lent.views, lent.views->len - 1);
      g_assert_true (view == pooled[0] || view == pooled[1] || view == pooled[2] || view == pooled[3]);
      g_autoptr (LmImage) want = expected_view (src, &req);
      lm_test_assert_same_pixels (view, want);
      g_ptr_array_remove_range (lent.views, 0, lent.views->len - 1); /* the previous one goes */
      LM_TEST_RETURN_IF_FAILED ();
    }
  lm_test_assert_same_pixels (kept, kept_copy);

  lm_render_worker_free (w);
  g_ptr_array_unref (lent.views);
  g_ptr_array_unref (lent.copies);
}

/* A merge job: the courtyard bracket merged (Debevec) becomes the source; the preview then is
 * its tone mapping followed by the operations, as the cache makes them from that radiance. */
static void
test_merge (void)
{
  Seen seen = { .kinds = g_ptr_array_new () };
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_result, &seen);
  await (&seen, LM_RESULT_READY);
  g_autofree char *list = g_build_filename (lm_test_data_dir (), "hdr", "courtyard", "exposures.txt", NULL);
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GArray) times = NULL;
  g_assert_true (lm_hdr_read_exposures (list, &files, &times, NULL));
  LmMergeSpec spec = { (const char *const *) files->pdata, (const double *) times->data, files->len,
                       LM_HDR_DEBEVEC, FALSE };
  LmRenderRequest req = { .backend = LM_BACKEND_CPU };
  lm_render_worker_merge (w, &req, &spec, NULL);
  await (&seen, LM_RESULT_MERGED);
  g_assert_no_error (seen.error);
  g_assert_true (seen.had_response);
  g_assert_nonnull (seen.merged);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpint (seen.merged->format, ==, LM_FORMAT_RGBA_F32);
  g_assert_cmpuint (seen.merged->width, ==, 1024);

  req = request_for (seen.merged, 1);
  lm_pipeline_stage (&req.pipeline, LM_OP_EQUALIZE)->enabled = TRUE;
  lm_render_worker_request (w, &req);
  await (&seen, LM_RESULT_PREVIEW);
  g_assert_no_error (seen.error);
  g_autoptr (LmImage) want = expected_view (seen.merged, &req);
  lm_test_assert_same_pixels (seen.view, want);
  g_assert_cmpuint (seen.histogram.total, ==, 1024 * 512);

  /* A cancelled merge leaves the source alone. */
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_cancellable_cancel (cancel);
  lm_render_worker_merge (w, &req, &spec, cancel);
  await (&seen, LM_RESULT_MERGED);
  g_assert_error (seen.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  lm_render_worker_free (w);
  g_clear_error (&seen.error);
  g_clear_pointer (&seen.view, lm_image_unref);
  g_clear_pointer (&seen.merged, lm_image_unref);
  g_ptr_array_unref (seen.kinds);
}

/* The step of TIMINGS labelled LABEL came from the cache. */
static gboolean
was_cached (const LmTimings *timings, const char *label)
{
  const LmTiming *t = lm_timings_find (timings, label);
  g_assert_nonnull (t);
  return t->cached;
}

static LmImage *
run_cache (LmRenderCache *cache, const LmPipeline *p, LmTimings *timings)
{
  GError *error = NULL;
  if (timings)
    lm_timings_truncate (timings, 0);
  LmImage *out = lm_render_cache_run (cache, p, timings, &error);
  g_assert_no_error (error);
  return out;
}

/* An exposure and a blur; an equalize instance inserted between them, then removed. */
static void
edited_pipeline (LmPipeline *p)
{
  lm_pipeline_init (p);
  LmStage *exposure = lm_pipeline_stage (p, LM_OP_EXPOSURE);
  exposure->enabled = TRUE;
  exposure->params.exposure.ev = 0.5f;
  LmStage *blur = lm_pipeline_stage (p, LM_OP_BLUR);
  blur->enabled = TRUE;
  blur->params.blur.sigma = 1.5f;
}

/* The cache keys its entries by instance: an instance inserted before blur leaves the steps
 * before it cached and blur's buffer rewritten in place; a removed instance's output is freed
 * once a second run has gone without it (the window's "before" runs in between). */
static void
test_cache_instances (void)
{
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) source = lm_test_random_rgba (64, 48, 5, FALSE);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (cpu, source);
  LmTimings timings;
  lm_timings_init (&timings);
  LmPipeline p;
  edited_pipeline (&p);
  g_autoptr (LmImage) first = run_cache (cache, &p, &timings);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 2);
  g_assert_cmpuint (lm_render_cache_n_outputs (cache), ==, 2);

  int at;
  g_assert_true (lm_pipeline_add (&p, LM_OP_EQUALIZE, &at, NULL));
  g_assert_cmpint (at, <, (int) (lm_pipeline_stage (&p, LM_OP_BLUR) - p.inst));
  p.inst[at].enabled = TRUE;
  g_autoptr (LmImage) second = run_cache (cache, &p, &timings);
  g_assert_true (was_cached (&timings, "exposure"));
  g_assert_false (was_cached (&timings, "equalize"));
  g_assert_false (was_cached (&timings, "blur"));
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 2);
  g_assert_true (second == first); /* blur's entry, its buffer rewritten */
  g_assert_cmpuint (lm_render_cache_n_outputs (cache), ==, 3);

  /* The same pixels as the equalize primary in that place, on a cache of its own. */
  LmPipeline primary;
  edited_pipeline (&primary);
  lm_pipeline_stage (&primary, LM_OP_EQUALIZE)->enabled = TRUE;
  lm_pipeline_stage (&primary, LM_OP_EQUALIZE)->params = p.inst[at].params;
  g_autoptr (LmRenderCache) fresh = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) want = run_cache (fresh, &primary, NULL);
  lm_test_assert_same_pixels (second, want);

  /* A disabled instance keeps its output; "before" and the edit alternate on one cache. */
  LmPipeline before = p;
  lm_pipeline_geometry_only (&before);
  g_autoptr (LmImage) b1 = run_cache (cache, &before, NULL);
  g_autoptr (LmImage) again = run_cache (cache, &p, &timings);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 0);
  g_assert_cmpuint (lm_render_cache_n_outputs (cache), ==, 3);

  /* Removed: kept through one run (the next may be the "before"), freed by the second. */
  lm_pipeline_remove (&p, at);
  g_autoptr (LmImage) r1 = run_cache (cache, &p, &timings);
  g_assert_true (was_cached (&timings, "exposure"));
  g_assert_cmpuint (lm_render_cache_n_outputs (cache), ==, 3);
  g_autoptr (LmImage) r2 = run_cache (cache, &p, &timings);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 0);
  g_assert_cmpuint (lm_render_cache_n_outputs (cache), ==, 2);
  lm_test_assert_same_pixels (r2, first);
  lm_timings_clear (&timings);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/render/preview-and-generations", test_preview_and_generations);
  g_test_add_func ("/render/export-and-cancel", test_export_and_cancel);
  g_test_add_func ("/render/freed-worker-delivers-nothing", test_freed_worker_delivers_nothing);
  g_test_add_func ("/render/compare", test_compare);
  g_test_add_func ("/render/merge", test_merge);
  g_test_add_func ("/render/view-buffers-come-back", test_view_buffers_come_back);
  g_test_add_func ("/render/cache-instances", test_cache_instances);
  return g_test_run ();
}
