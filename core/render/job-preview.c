/* The render worker's preview job (render-private.h): the latest edit rendered at full
 * resolution on the request's backend (the CPU where the GPU runs out of memory or fails),
 * brought back as the view and the histogram; on the CPU a quick pass on the photo shrunk to
 * about the view's scale comes first, so that the first paint of a large photo comes fast.
 * A photo above the pyramid's threshold (pyramid.h) is rendered at the view's scale from
 * its pyramid instead (level-view.c). */
#include "render-private.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../raw-info.h"
#include "../ops/view.h"
#include "../ops/view-math.h"

/* The CPU's quick pass: the pipeline on the photo shrunk by FACTOR; the full-resolution render
 * follows. */
static void
quick_preview (LmRenderWorker *w, const LmRenderRequest *req, int factor)
{
  GError *e = NULL;
  LmImage *src = w->source;
  if (w->shrunk == NULL || w->shrunk->width != (src->width + factor - 1) / factor)
    {
      g_clear_pointer (&w->shrunk_cache, lm_render_cache_free);
      g_clear_pointer (&w->shrunk, lm_image_unref);
      w->shrunk = lm_image_new (src->format, (src->width + factor - 1) / factor,
                                (src->height + factor - 1) / factor, lm_allocator_host (), &e);
      if (w->shrunk == NULL)
        {
          g_error_free (e);
          return; /* the full render still comes */
        }
      lm_shrink_cpu (src, w->shrunk);
      w->shrunk_cache = lm_render_cache_new (w->sides[0].backend, w->shrunk);
      lm_render_cache_set_color (w->shrunk_cache, w->color);
      LmRenderLevel level = { factor, src->width, src->height };
      lm_render_cache_set_level (w->shrunk_cache, &level);
    }

  LmPipeline pipeline = req->pipeline;
  lm_pipeline_for_view (&pipeline);
  guint full_w, full_h;
  lm_pipeline_output_size (&pipeline, src->width, src->height, &full_w, &full_h);
  lm_pipeline_scale (&pipeline, (double) src->width / w->shrunk->width);
  g_autoptr (LmImage) out = lm_render_cache_run (w->shrunk_cache, &pipeline, NULL, &e);
  if (out == NULL)
    {
      g_clear_error (&e); /* the full render reports what went wrong */
      return;
    }
  /* The view's rectangle is in the full render's pixels; the shrunk one is about FACTOR times
   * smaller, geometry included. */
  double fx = (double) out->width / full_w, fy = (double) out->height / full_h;
  LmViewRect rect = { req->view.rx * fx, req->view.ry * fy, req->view.rw * fx, req->view.rh * fy,
                      req->view.out_w, req->view.out_h };
  rect.rw = MIN (rect.rw, out->width - rect.rx);
  rect.rh = MIN (rect.rh, out->height - rect.ry);
  LmRenderResult *r = lm_render_result_new (LM_RESULT_PREVIEW, req);
  r->backend_name = "cpu";
  r->width = full_w, r->height = full_h;
  if ((r->view = lm_render_view_buffer (w, rect.out_w, rect.out_h, &e)) != NULL
      && lm_backend_view_through (w->sides[0].backend, out, &rect, w->view_transform, r->view, &e)
      && lm_backend_histogram (w->sides[0].backend, out, LM_HIST_WANT_ALL, &r->histogram, &e)
      && (!req->seen_histogram
          || (r->has_seen_histogram = lm_backend_seen_histogram (w->sides[0].backend, out, w->view_transform,
                                                                 &r->seen_histogram, &e))))
    lm_render_post (w, r);
  else
    {
      g_clear_error (&e); /* the full render reports what went wrong */
      lm_render_result_free (r);
    }
}

LmImage *
lm_render_view_of (LmRenderWorker *w, Side *side, const LmImage *image, const LmViewRect *v, double *download_ms,
                   GError **error)
{
  g_autoptr (LmImage) view = lm_render_view_buffer (w, v->out_w, v->out_h, error);
  if (view == NULL || !lm_render_view_down (side, image, v, w->view_transform, view, download_ms, error))
    return NULL;
  return g_steal_pointer (&view);
}

gboolean
lm_render_histograms (LmRenderWorker *w, Side *side, const LmRenderRequest *req, const LmImage *out,
                      LmRenderResult *r, GError **error)
{
  if (!lm_backend_histogram (side->backend, out, LM_HIST_WANT_ALL, &r->histogram, error))
    return FALSE;
  if (req->seen_histogram
      && !(r->has_seen_histogram = lm_backend_seen_histogram (side->backend, out, w->view_transform,
                                                              &r->seen_histogram, error)))
    return FALSE;
  return TRUE;
}

gboolean
lm_render_view_down (Side *side, const LmImage *image, const LmViewRect *v, LmViewTransform *xf,
                     LmImage *host, double *download_ms, GError **error)
{
  if (side->view == NULL || side->view->width != (guint) v->out_w || side->view->height != (guint) v->out_h)
    {
      g_clear_pointer (&side->view, lm_image_unref);
      side->view = lm_image_new (LM_FORMAT_RGBA8, v->out_w, v->out_h,
                                 lm_backend_work_allocator (side->backend), error);
      if (side->view == NULL)
        return FALSE;
    }
  if (!lm_backend_view_through (side->backend, image, v, xf, side->view, error)
      || !lm_backend_synchronize (side->backend, error))
    return FALSE;
  gint64 d = g_get_monotonic_time ();
  if (!lm_backend_copy (side->backend, side->view, host, error)
      || !lm_backend_synchronize (side->backend, error))
    return FALSE;
  *download_ms += lm_ms_since (d);
  return TRUE;
}

/* The overlay of MASK (GRAY_F32, 0..1, host memory, of the image V is a view of) on V's
 * rectangle: each view pixel the area average of the mask under it, as the view averages the
 * photo, red at alpha 0.5·M, premultiplied. */
static void
mask_overlay (const LmImage *mask, guint x0, guint y0, const LmViewRect *v, LmImage *out)
{
  double sx = v->rw / v->out_w, sy = v->rh / v->out_h;
#pragma omp parallel for schedule(static)
  for (int j = 0; j < v->out_h; j++)
    {
      int ya, yb;
      float wya, wyb;
      lm_view_span (v->ry - y0, sy, j, mask->height, &ya, &yb, &wya, &wyb);
      guint32 *row = (guint32 *) (void *) lm_image_row (out, j);
      for (int i = 0; i < v->out_w; i++)
        {
          int xa, xb;
          float wxa, wxb;
          lm_view_span (v->rx - x0, sx, i, mask->width, &xa, &xb, &wxa, &wxb);
          float sum = 0.0f, weight = 0.0f;
          for (int y = ya; y <= yb; y++)
            {
              const float *m = (const float *) (const void *) lm_image_row (mask, y);
              float wy = y == ya ? wya : (y == yb ? wyb : 1.0f);
              for (int x = xa; x <= xb; x++)
                {
                  float w = wy * (x == xa ? wxa : (x == xb ? wxb : 1.0f));
                  sum += w * m[x];
                  weight += w;
                }
            }
          float value = weight > 0.0f ? CLAMP (sum / weight, 0.0f, 1.0f) : 0.0f;
          guint32 alpha = (guint32) lrintf (0.5f * 255.0f * value);
          row[i] = alpha << 24 | alpha << 16;
        }
    }
}

gboolean
lm_render_mask_in_output_frame (const LmPipeline *pipeline, guint32 id, const LmImage *source)
{
  int index = lm_pipeline_find (pipeline, id);
  if (index < 0)
    return FALSE;
  if (!pipeline->inst[index].info->on_scene || !(lm_image_is_raw (source) || source->format == LM_FORMAT_RGBA_F32))
    return TRUE;
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].enabled && lm_op_kind (pipeline->inst[i].info->id) == LM_KIND_GEOMETRY)
      return FALSE;
  return TRUE;
}

LmImage *
lm_render_mask_view (LmRenderWorker *w, Side *side, LmRenderCache *cache, guint32 id, guint width, guint height,
                     const LmViewRect *v, GError **error)
{
  g_autoptr (LmImage) mask = lm_render_cache_mask (cache, id);
  if (mask == NULL || mask->width != width || mask->height != height)
    return NULL;
  LmRect area;
  area.x = (guint) CLAMP (floor (v->rx), 0.0, width - 1.0);
  area.y = (guint) CLAMP (floor (v->ry), 0.0, height - 1.0);
  area.width = (guint) CLAMP (ceil (v->rx + v->rw), area.x + 1.0, (double) width) - area.x;
  area.height = (guint) CLAMP (ceil (v->ry + v->rh), area.y + 1.0, (double) height) - area.y;
  g_autoptr (LmImage) part = NULL;
  if (area.width == width && area.height == height)
    part = lm_image_ref (mask);
  else if (!(part = lm_image_new (LM_FORMAT_GRAY_F32, area.width, area.height,
                                  lm_backend_work_allocator (side->backend), error))
           || !lm_backend_copy_rect (side->backend, mask, &area, part, 0, 0, error))
    return NULL;
  g_autoptr (LmImage) host = lm_backend_download (side->backend, part, error);
  if (host == NULL || !lm_backend_synchronize (side->backend, error))
    return NULL;
  LmImage *out = lm_render_view_buffer (w, v->out_w, v->out_h, error);
  if (out)
    mask_overlay (host, area.x, area.y, v, out);
  return out;
}

/* The pipeline at full resolution on SIDE, its view and histogram into R (and the view of
 * the unedited source, when the request asks for it). */
static gboolean
render_full (LmRenderWorker *w, Side *side, const LmRenderRequest *req, LmRenderResult *r,
             GError **error)
{
  lm_timings_init (&r->timings);
  gint64 t = g_get_monotonic_time ();
  LmPipeline pipeline = req->pipeline;
  lm_pipeline_for_view (&pipeline);
  g_autoptr (LmImage) out = lm_render_cache_run (side->cache, &pipeline, &r->timings, error);
  if (out == NULL)
    return FALSE;
  if (lm_render_cache_last_notice (side->cache))
    {
      g_free (r->notice);
      r->notice = g_strdup_printf (_("%s; tone mapped on the CPU"), lm_render_cache_last_notice (side->cache));
    }
  const LmViewRect *v = &req->view;
  if (!(r->view = lm_render_view_of (w, side, out, v, &r->download_ms, error))
      || !lm_render_histograms (w, side, req, out, r, error))
    return FALSE;
  /* Before the "before" run below: the cache's mask is the last run's. */
  if (req->mask_of)
    {
      GError *e = NULL;
      if (lm_render_mask_in_output_frame (&pipeline, req->mask_of, w->source))
        r->mask_view = lm_render_mask_view (w, side, side->cache, req->mask_of, out->width, out->height, v, &e);
      if (e)
        {
          g_propagate_error (error, e);
          return FALSE;
        }
    }
  if (req->with_before)
    {
      /* Every operation off but the geometry (crop, rotation, straightening): the "before"
       * then lies in the same pixels as the edited image, so that the two halves of the
       * split meet where the line is and V, a region of the edited image, is one of it too.
       * Without geometry the cache hands back the source, or its cached tone mapping; with
       * it, its cached geometry; it keeps the operations' outputs for the next edit. OUT is
       * not read after this run. */
      LmPipeline original = pipeline;
      lm_pipeline_geometry_only (&original);
      g_autoptr (LmImage) plain = lm_render_cache_run (side->cache, &original, NULL, error);
      if (plain == NULL)
        return FALSE;
      if (!(r->before_view = lm_render_view_of (w, side, plain, v, &r->download_ms, error)))
        return FALSE;
    }
  r->render_ms = lm_ms_since (t);
  r->upload_ms = side->upload_ms;
  side->upload_ms = 0.0;
  r->refined = TRUE;
  r->backend_name = lm_backend_name (side->backend);
  r->width = out->width, r->height = out->height;
  return TRUE;
}

/* The preview on the backend of KIND: from the pyramid (LEVEL, level-view.c: a large photo)
 * or at full resolution. */
static gboolean
render_on (LmRenderWorker *w, LmBackendKind kind, gboolean level, const LmRenderRequest *req, LmRenderResult *r,
           GError **error)
{
  Side *side = level ? lm_render_side_bare (w, kind, error) : lm_render_side_for (w, kind, error);
  if (side == NULL)
    return FALSE;
  return level ? lm_render_level_preview (w, side, req, r, error) : render_full (w, side, req, r, error);
}

/* The preview rendered and posted: on the request's backend, or on the CPU, with a notice,
 * where the photo does not fit the GPU or the GPU failed. */
static void
render_and_post (LmRenderWorker *w, const LmRenderRequest *req, gboolean level)
{
  GError *e = NULL;
  gint64 started = g_get_monotonic_time ();
  LmRenderResult *r = lm_render_result_new (LM_RESULT_PREVIEW, req);
  gboolean ok = render_on (w, req->backend, level, req, r, &e);
  if (!ok && req->backend == LM_BACKEND_CUDA
      && (g_error_matches (e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY) || g_error_matches (e, LUMEN_ERROR, LM_ERROR_DEVICE)))
    {
      g_free (r->notice);
      r->notice = g_strdup_printf (_("%s; rendered on the CPU"), e->message);
      g_clear_error (&e);
      g_clear_pointer (&r->view, lm_image_unref);
      g_clear_pointer (&r->before_view, lm_image_unref);
      g_clear_pointer (&r->mask_view, lm_image_unref);
      r->download_ms = 0.0;
      if (r->timings.entries)
        lm_timings_clear (&r->timings);
      lm_render_side_reset (&w->sides[1]);
      ok = render_on (w, LM_BACKEND_CPU, level, req, r, &e);
    }
  if (!ok)
    {
      g_clear_pointer (&r->view, lm_image_unref);
      g_clear_pointer (&r->before_view, lm_image_unref);
      g_clear_pointer (&r->mask_view, lm_image_unref);
      r->error = e;
    }
  else if (r->notice == NULL)
    {
      /* A photo that names no lens renders uncorrected; the info bar says why, as lumen-cli
       * refuses it. */
      g_autofree char *note = lm_pipeline_lens_note (&req->pipeline, w->color, w->source);
      if (note)
        r->notice = g_strdup_printf (_("Lens correction: %s"), note);
    }
  /* Where a change's latency goes: waiting for the worker, or the render (G_MESSAGES_DEBUG). */
  g_debug ("preview %" G_GUINT64_FORMAT ": started %.1f ms after its change, posted %.1f ms after", req->generation,
           (started - req->changed_us) / 1000.0, (g_get_monotonic_time () - req->changed_us) / 1000.0);
  lm_render_post (w, r);
}

void
lm_render_run_preview (LmRenderWorker *w, const LmRenderRequest *req)
{
  if (w->source == NULL)
    return;
  /* A large photo's preview comes from its pyramid: no quick pass, the level is already
   * about the view's size. */
  if (lm_render_level_wanted (w))
    {
      render_and_post (w, req, TRUE);
      return;
    }
  /* The quick pass shrinks 8-bit sources; a radiance source's tone mapping needs the whole
   * image's statistics and is cached anyway, and a raw's mosaic is no image to shrink. */
  if (req->backend == LM_BACKEND_CPU && w->source->format != LM_FORMAT_RGBA_F32 && !lm_image_is_raw (w->source)
      && lm_render_side_for (w, LM_BACKEND_CPU, NULL) != NULL)
    {
      int factor = (int) floor (req->view.rw / req->view.out_w);
      if (factor >= 2)
        {
          quick_preview (w, req, factor);
          if (lm_render_superseded (w))
            return;
        }
    }
  render_and_post (w, req, FALSE);
}
