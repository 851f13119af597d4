/* The render worker's backends (render-private.h): one side each for the CPU and CUDA, with
 * the photo uploaded there once, its render cache and its view buffer in work memory. Only the
 * worker's thread touches them. */
#include "render-private.h"

#include <glib/gi18n.h>

#include "../color/profile.h"
#include "../error.h"

/* Host memory that uploads fastest (pinned when CUDA is usable). */
const LmAllocator *
lm_render_fast_host (LmRenderWorker *w)
{
  return w->sides[1].backend ? lm_backend_host_allocator (w->sides[1].backend) : lm_allocator_host ();
}

void
lm_render_side_reset (Side *side)
{
  g_clear_pointer (&side->cache, lm_render_cache_free);
  g_clear_pointer (&side->source, lm_image_unref);
  g_clear_pointer (&side->view, lm_image_unref);
  lm_render_level_slot_clear (&side->shown);
  lm_render_level_slot_clear (&side->overview);
}

/* The backend of KIND, or NULL and the reason. */
LmBackend *
lm_render_backend_for (LmRenderWorker *w, LmBackendKind kind, GError **error)
{
  Side *side = &w->sides[kind == LM_BACKEND_CUDA ? 1 : 0];
  if (side->backend == NULL)
    {
      if (kind == LM_BACKEND_CUDA)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, "%s",
                       w->cuda_unavailable ? w->cuda_unavailable : _("CUDA is not available"));
          return NULL;
        }
      side->backend = lm_backend_cpu_new ();
    }
  return side->backend;
}

/* A cache of SIDE's source that can tone map on the CPU where the backend cannot yet. */
LmRenderCache *
lm_render_side_cache_new (LmRenderWorker *w, Side *side)
{
  LmRenderCache *cache = lm_render_cache_new (side->backend, side->source);
  lm_render_cache_set_fallback (cache, w->sides[0].backend, w->source);
  lm_render_cache_set_color (cache, w->color);
  return cache;
}

Side *
lm_render_side_bare (LmRenderWorker *w, LmBackendKind kind, GError **error)
{
  if (lm_render_backend_for (w, kind, error) == NULL)
    return NULL;
  if (w->source == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("no photo is open"));
      return NULL;
    }
  return &w->sides[kind == LM_BACKEND_CUDA ? 1 : 0];
}

/* The backend of KIND with the photo uploaded, or NULL and an error. */
Side *
lm_render_side_for (LmRenderWorker *w, LmBackendKind kind, GError **error)
{
  Side *side = &w->sides[kind == LM_BACKEND_CUDA ? 1 : 0];
  if (lm_render_backend_for (w, kind, error) == NULL)
    return NULL;
  if (w->source == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("no photo is open"));
      return NULL;
    }
  if (side->source == NULL)
    {
      gint64 t = g_get_monotonic_time ();
      side->source = lm_backend_upload (side->backend, w->source, error);
      if (side->source == NULL || !lm_backend_synchronize (side->backend, error))
        {
          lm_render_side_reset (side);
          return NULL;
        }
      side->cache = lm_render_side_cache_new (w, side);
      side->upload_ms = lm_ms_since (t);
    }
  return side;
}

void
lm_render_adopt_source (LmRenderWorker *w, LmImage *source)
{
  for (int i = 0; i < N_SIDES; i++)
    {
      lm_render_side_reset (&w->sides[i]);
      /* Sized for the last photo: the next one's first edits size them again. */
      if (w->sides[i].backend)
        lm_backend_release_scratch (w->sides[i].backend);
    }
  g_clear_pointer (&w->shrunk_cache, lm_render_cache_free);
  g_clear_pointer (&w->shrunk, lm_image_unref);
  g_clear_pointer (&w->pyramid, lm_pyramid_free);
  g_clear_pointer (&w->source, lm_image_unref);
  g_clear_pointer (&w->color, lm_color_profile_unref);
  w->source = source;
  if (source)
    w->color = lm_color_profile_new (source->icc_profile, NULL);
}

/* Probes CUDA, makes the CPU's backend and tells the receiver (READY) whether CUDA is usable. */
void
lm_render_open_backends (LmRenderWorker *w)
{
  GError *e = NULL;
  LmRenderResult *r = lm_render_result_new (LM_RESULT_READY, NULL);
  w->sides[1].backend = lm_backend_new (LM_BACKEND_CUDA, &e);
  if (w->sides[1].backend == NULL)
    {
      w->cuda_unavailable = g_strdup (e->message);
      r->cuda_unavailable = g_strdup (e->message);
      g_error_free (e);
    }
  else
    {
      r->cuda_description = g_strdup (w->sides[1].backend->description);
      g_mutex_lock (&w->lock);
      w->host_allocator = lm_backend_host_allocator (w->sides[1].backend);
      g_mutex_unlock (&w->lock);
    }
  w->sides[0].backend = lm_backend_cpu_new ();
  lm_render_post (w, r);
}

/* The photo, every upload and cache, then the backends themselves. */
void
lm_render_close_backends (LmRenderWorker *w)
{
  lm_render_adopt_source (w, NULL);
  for (int i = 0; i < N_SIDES; i++)
    g_clear_pointer (&w->sides[i].backend, lm_backend_free);
}
