/* The render worker's object detection in a photo (render.h, lm_render_worker_detect_objects):
 * the model's file read once and kept while the next jobs ask for the same one, the boxes
 * found on the backend asked for (objects-run.h), the CPU's with a notice where CUDA is not
 * usable or its memory cannot hold the photo's pyramid. Stopped between pyramid levels (worker.c starts it again where other work stopped
 * it). */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "objects-run.h"

void
lm_render_objects_release (LmRenderWorker *w)
{
  g_clear_pointer (&w->cascade, lm_cascade_free);
  g_clear_pointer (&w->cascade_path, g_free);
}

/* The cascade in PATH, read unless it is the one kept. */
static const LmCascade *
model (LmRenderWorker *w, const char *path, GError **error)
{
  if (w->cascade && g_strcmp0 (w->cascade_path, path) == 0)
    return w->cascade;
  lm_render_objects_release (w);
  w->cascade = lm_cascade_load (path, error);
  if (w->cascade)
    w->cascade_path = g_strdup (path);
  return w->cascade;
}

/* The backend of KIND, or the CPU's with a notice saying why not CUDA. */
static LmBackend *
backend (LmRenderWorker *w, LmBackendKind kind, char **notice)
{
  g_autoptr (GError) e = NULL;
  LmBackend *b = kind == LM_BACKEND_CUDA ? lm_render_backend_for (w, LM_BACKEND_CUDA, &e) : NULL;
  if (b)
    return b;
  if (e)
    *notice = g_strdup_printf (_("Computed on the CPU: %s"), e->message);
  return lm_render_backend_for (w, LM_BACKEND_CPU, NULL);
}

gboolean
lm_render_run_objects (LmRenderWorker *w, const DataSlot *slot, GCancellable *cancellable)
{
  const LmDataRequest *request = &slot->request;
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  LmRenderResult *r = lm_render_result_new (LM_RESULT_OBJECTS, NULL);
  r->generation = request->generation;
  r->width = request->data->width;
  r->height = request->data->height;
  gint64 t0 = g_get_monotonic_time ();
  LmBackend *b = backend (w, request->backend, &r->notice);
  r->backend_name = lm_backend_name (b);
  const LmCascade *cascade = model (w, slot->model_path, &r->error);
  if (cascade)
    r->objects = lm_objects_detect_photo (b, cascade, request->data, &slot->objects, cancellable, &r->error);
  /* A photo whose pyramid the GPU cannot hold is done on the CPU, and the panel says why. */
  if (cascade && r->objects == NULL && lm_backend_cuda_device (b) >= 0
      && g_error_matches (r->error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY))
    {
      g_free (r->notice);
      r->notice = g_strdup_printf (_("Computed on the CPU: %s"), r->error->message);
      g_clear_error (&r->error);
      b = lm_render_backend_for (w, LM_BACKEND_CPU, NULL);
      r->backend_name = lm_backend_name (b);
      r->objects = lm_objects_detect_photo (b, cascade, request->data, &slot->objects, cancellable, &r->error);
    }
  if (g_error_matches (r->error, LUMEN_ERROR, LM_ERROR_CANCELLED)
      || g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      lm_render_result_free (r); /* stopped: started again, or nobody wants it */
      return FALSE;
    }
  r->render_ms = lm_ms_since (t0);
  lm_render_post_to (w, request->to, r);
  return TRUE;
}
