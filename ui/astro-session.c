/* LmAstroSession (astro-session.h): the FITS data's requests to the render worker, which owns
 * the backends and runs them as jobs of its own (core/render/job-astro.c), and their results
 * handed to the window. */
#include "astro-session.h"

struct _LmAstroSession {
  LmRenderWorker *worker;
  LmImage *data;
  gboolean flip;
  LmRenderChannel *channel;  /* the worker's results come back through it */
  GCancellable *cancellable; /* cancelled with the session: its jobs stop */
  LmAstroDone done;
  gpointer user_data;
};

static void
take_result (LmRenderResult *r, gpointer data)
{
  LmAstroSession *self = data;
  LmAstroResult result = {
    .is_detect = r->kind == LM_RESULT_DETECTED,
    .generation = r->generation,
    .error = g_steal_pointer (&r->error),
    .notice = g_steal_pointer (&r->notice),
    .backend_name = r->backend_name,
    .view = g_steal_pointer (&r->view),
    .low = r->low,
    .high = r->high,
    .histogram = r->histogram,
    .ms = r->render_ms,
    .detect = g_steal_pointer (&r->detect),
  };
  self->done (&result, self->user_data);
  g_clear_error (&result.error);
  g_free (result.notice);
  g_clear_pointer (&result.view, lm_image_unref);
  g_clear_pointer (&result.detect, lm_detect_result_free);
}

LmAstroSession *
lm_astro_session_new (LmRenderWorker *worker, LmImage *data, gboolean flip, LmAstroDone done, gpointer user_data)
{
  g_return_val_if_fail (worker && data->format == LM_FORMAT_GRAY_F32, NULL);
  LmAstroSession *self = g_new0 (LmAstroSession, 1);
  self->worker = worker;
  self->data = lm_image_ref (data);
  self->flip = flip;
  self->channel = lm_render_channel_new_taking (take_result, self);
  self->cancellable = g_cancellable_new ();
  self->done = done;
  self->user_data = user_data;
  return self;
}

void
lm_astro_session_free (LmAstroSession *self)
{
  if (self == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  lm_render_channel_close (self->channel);
  g_object_unref (self->cancellable);
  lm_image_unref (self->data);
  g_free (self);
}

static LmDataRequest
request_of (LmAstroSession *self, guint64 generation, LmBackendKind backend)
{
  return (LmDataRequest) { .generation = generation, .data = self->data, .backend = backend,
                           .to = self->channel, .cancellable = self->cancellable };
}

void
lm_astro_session_stretch (LmAstroSession *self, guint64 generation, const LmStretchParams *params,
                          LmBackendKind backend)
{
  LmDataRequest request = request_of (self, generation, backend);
  lm_render_worker_stretch (self->worker, &request, params, self->flip);
}

void
lm_astro_session_detect (LmAstroSession *self, guint64 generation, const LmDetectParams *params,
                         LmBackendKind backend)
{
  LmDataRequest request = request_of (self, generation, backend);
  lm_render_worker_detect (self->worker, &request, params);
}
