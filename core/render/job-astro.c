/* The render worker's jobs on FITS data (render-private.h): its display stretch into the
 * 8-bit view that previews then show as they show a photo, and source detection in it, on the
 * backend asked for (the CPU, with a notice, where the data cannot be on CUDA). The data goes
 * up to CUDA once, when a job first asks for it there, and stays until other data comes or
 * nothing more can come for it. */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "astro-run.h"

void
lm_render_data_slot_clear (DataSlot *slot)
{
  g_clear_pointer (&slot->request.data, lm_image_unref);
  g_clear_pointer (&slot->request.to, lm_render_channel_unref);
  g_clear_object (&slot->request.cancellable);
  g_clear_pointer (&slot->model_path, g_free);
  slot->pending = FALSE;
}

static void
drop_held (DataHeld *h)
{
  g_clear_pointer (&h->on_cuda, lm_image_unref);
  g_clear_pointer (&h->cuda_failed, g_free);
  g_clear_pointer (&h->data, lm_image_unref);
  g_clear_object (&h->owner);
}

void
lm_render_data_release (LmRenderWorker *w, gboolean at_end)
{
  DataHeld *h = &w->held;
  if (at_end || g_cancellable_is_cancelled (h->owner))
    drop_held (h);
  if (at_end)
    g_clear_pointer (&h->table, g_free);
}

/* The backend of KIND for REQUEST's data and the data in its memory; the CPU's, with a
 * notice, where the data cannot be on CUDA. */
static LmBackend *
backend_for (LmRenderWorker *w, const LmDataRequest *request, LmImage **image, char **notice)
{
  DataHeld *h = &w->held;
  if (h->data != request->data)
    {
      drop_held (h);
      h->data = lm_image_ref (request->data);
    }
  g_set_object (&h->owner, request->cancellable);
  if (request->backend == LM_BACKEND_CUDA && h->on_cuda == NULL && h->cuda_failed == NULL)
    {
      GError *e = NULL;
      LmBackend *cuda = lm_render_backend_for (w, LM_BACKEND_CUDA, &e);
      if (cuda)
        h->on_cuda = lm_backend_upload (cuda, h->data, &e);
      if (e)
        {
          h->cuda_failed = g_strdup (e->message);
          g_clear_pointer (&h->on_cuda, lm_image_unref);
          g_error_free (e);
        }
    }
  if (request->backend == LM_BACKEND_CUDA && h->on_cuda)
    {
      *image = h->on_cuda;
      return lm_render_backend_for (w, LM_BACKEND_CUDA, NULL);
    }
  if (request->backend == LM_BACKEND_CUDA)
    *notice = g_strdup_printf (_("Computed on the CPU: %s"), h->cuda_failed);
  *image = h->data;
  return lm_render_backend_for (w, LM_BACKEND_CPU, NULL);
}

static LmRenderResult *
result_new (LmResultKind kind, const LmDataRequest *request)
{
  LmRenderResult *r = lm_render_result_new (kind, NULL);
  r->generation = request->generation;
  return r;
}

void
lm_render_run_stretch (LmRenderWorker *w, const DataSlot *slot)
{
  const LmDataRequest *request = &slot->request;
  if (g_cancellable_is_cancelled (request->cancellable))
    return;
  DataHeld *h = &w->held;
  LmRenderResult *r = result_new (LM_RESULT_STRETCHED, request);
  gint64 t0 = g_get_monotonic_time ();
  LmImage *image;
  LmBackend *b = backend_for (w, request, &image, &r->notice);
  r->backend_name = lm_backend_name (b);
  if (h->table == NULL || h->table_kind != slot->stretch.kind)
    {
      if (h->table == NULL)
        h->table = g_malloc (LM_STRETCH_LEVELS);
      lm_stretch_table (slot->stretch.kind, h->table);
      h->table_kind = slot->stretch.kind;
    }
  g_autoptr (LmImage) out = NULL;
  if (lm_stretch_limits (h->data, &slot->stretch, &r->low, &r->high, &r->error)
      && (out = lm_image_new (LM_FORMAT_RGBA8, image->width, image->height, lm_backend_work_allocator (b),
                              &r->error))
      && lm_stretch_run (b, image, r->low, r->high, h->table, slot->flip, out, &r->error))
    {
      r->view = lm_backend_download (b, out, &r->error);
      lm_stretch_histogram (h->data, r->low, r->high, &r->histogram);
    }
  r->render_ms = lm_ms_since (t0);
  lm_render_post_to (w, request->to, r);
}

gboolean
lm_render_run_detect (LmRenderWorker *w, const DataSlot *slot, GCancellable *cancellable)
{
  const LmDataRequest *request = &slot->request;
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  LmRenderResult *r = result_new (LM_RESULT_DETECTED, request);
  LmImage *image;
  LmBackend *b = backend_for (w, request, &image, &r->notice);
  r->backend_name = lm_backend_name (b);
  r->detect = lm_detect (b, image, &slot->detect, cancellable, &r->error);
  if (g_error_matches (r->error, LUMEN_ERROR, LM_ERROR_CANCELLED)
      || g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      lm_render_result_free (r); /* stopped: started again, or nobody wants it */
      return FALSE;
    }
  lm_render_post_to (w, request->to, r);
  return TRUE;
}
