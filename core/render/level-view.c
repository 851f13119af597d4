/* The view of a large photo (render-private.h): the pipeline runs on the level of the photo's
 * pyramid just finer than the view's scale, its lengths scaled to that level (as the CPU's
 * quick pass does), so that an edit costs about a screen's pixels, not the photo's. Where
 * that level is too large to render whole (zoomed in on a panorama), only the visible region
 * of it is rendered, with the margin blur reads; the histogram then comes from a small level
 * of the whole photo. Equalize's table is that level's histogram's: the export is exact. */
#include "render-private.h"

#include <math.h>
#include <string.h>


/* A level rendered whole holds at most this many pixels: 64 MB per step in RGBA8. Above,
 * the visible region is rendered, or, for what needs the whole image (geometry, equalize,
 * blur's large-σ grid), the finest level within the bound, seen magnified. The tests lower
 * it (LUMEN_VIEW_LEVEL_MAX, pixels) to reach the region path on small photos. */
#define LEVEL_MAX_PIXELS (level_max_pixels ())
/* The level whose histogram a region's render reports. */
#define OVERVIEW_MAX_PIXELS (G_GUINT64_CONSTANT (4) << 20)
/* Pixels around a region beyond those the view reads: its resampling's reach. */
#define REGION_MARGIN 2

static guint64
level_max_pixels (void)
{
  const char *env = g_getenv ("LUMEN_VIEW_LEVEL_MAX");
  if (env != NULL && *env != '\0')
    {
      char *end = NULL;
      guint64 v = g_ascii_strtoull (env, &end, 10);
      if (end != env && *end == '\0' && v > 0)
        return v;
    }
  return G_GUINT64_CONSTANT (16) << 20;
}

gboolean
lm_render_level_wanted (LmRenderWorker *w)
{
  return lm_pyramid_wanted (w->source);
}

void
lm_render_level_slot_clear (LevelSlot *slot)
{
  g_clear_pointer (&slot->cache, lm_render_cache_free);
  g_clear_pointer (&slot->source, lm_image_unref);
  slot->index = -1;
}

static gboolean
ensure_pyramid (LmRenderWorker *w, GError **error)
{
  if (w->pyramid != NULL)
    return TRUE;
  gint64 t = g_get_monotonic_time ();
  w->pyramid = lm_pyramid_new (w->source, lm_render_fast_host (w), error);
  if (w->pyramid != NULL)
    g_debug ("pyramid of %u×%u: %u levels, %.0f MB, %.0f ms", w->source->width, w->source->height,
             lm_pyramid_n_levels (w->pyramid), lm_pyramid_bytes (w->pyramid) / 1e6, lm_ms_since (t));
  return w->pyramid != NULL;
}

/* SLOT holds level K uploaded to SIDE, with a cache of it. */
static gboolean
slot_hold (LmRenderWorker *w, Side *side, LevelSlot *slot, guint k, GError **error)
{
  if (slot->source != NULL && slot->index == (int) k)
    return TRUE;
  lm_render_level_slot_clear (slot);
  gint64 t = g_get_monotonic_time ();
  slot->source = lm_backend_upload (side->backend, lm_pyramid_level (w->pyramid, k), error);
  if (slot->source == NULL || !lm_backend_synchronize (side->backend, error))
    {
      lm_render_level_slot_clear (slot);
      return FALSE;
    }
  side->upload_ms += lm_ms_since (t);
  slot->cache = lm_render_cache_new (side->backend, slot->source);
  lm_render_cache_set_color (slot->cache, w->color);
  slot->index = (int) k;
  return TRUE;
}

/* REQUEST's pipeline as the view renders it on level K: *FULL_W × *FULL_H is what it makes
 * of the whole photo. */
static void
level_pipeline (LmRenderWorker *w, const LmRenderRequest *req, guint k, LmPipeline *p, guint *full_w,
                guint *full_h)
{
  *p = req->pipeline;
  lm_pipeline_for_view (p);
  lm_pipeline_output_size (p, w->source->width, w->source->height, full_w, full_h);
  if (k > 0)
    lm_pipeline_scale (p, lm_pyramid_factor (w->pyramid, k));
}

/* The view V (in the full render's pixels, FULL_W × FULL_H) on a render of OUT_W × OUT_H. */
static LmViewRect
level_rect (const LmViewRect *v, guint full_w, guint full_h, guint out_w, guint out_h)
{
  double fx = (double) out_w / full_w, fy = (double) out_h / full_h;
  LmViewRect r = { v->rx * fx, v->ry * fy, v->rw * fx, v->rh * fy, v->out_w, v->out_h };
  r.rw = MIN (r.rw, out_w - r.rx);
  r.rh = MIN (r.rh, out_h - r.ry);
  return r;
}

/* Whether P, rendered on a part of an image, gives that part's pixels of the whole image's
 * render when the part has *HALO more pixels on each side: no geometry (it moves pixels
 * across the part's edge), no global operation (equalize's table is the whole image's), blur
 * only where it convolves directly (its large-σ grid is laid from the image's corner). */
static gboolean
renders_by_region (const LmPipeline *p, int *halo)
{
  *halo = 0;
  for (int i = 0; i < LM_N_OPS; i++)
    {
      const LmStage *stage = &p->stages[i];
      if (!stage->enabled)
        continue;
      LmOpKind kind = lm_op_kind (i);
      if (kind == LM_KIND_GEOMETRY || kind == LM_KIND_GLOBAL)
        return FALSE;
      if (kind == LM_KIND_AREA)
        {
          if (i != LM_OP_BLUR)
            return FALSE;
          float sigma = ((const LmBlurParams *) stage->params.bytes)->sigma;
          if (sigma > LM_BLUR_DIRECT_SIGMA_MAX)
            return FALSE;
          *halo = MAX (*halo, lm_blur_radius (sigma));
        }
    }
  return TRUE;
}

/* The level the view of REQ shows, and its pipeline P; *REGION: only its visible part is
 * to be rendered, with *HALO pixels around it. */
static guint
pick_level (LmRenderWorker *w, const LmRenderRequest *req, gboolean allow_region, LmPipeline *p,
            guint *full_w, guint *full_h, gboolean *region, int *halo)
{
  const LmViewRect *v = &req->view;
  double scale = MAX (v->out_w / v->rw, v->out_h / v->rh);
  guint k = lm_pyramid_pick (w->pyramid, scale);
  level_pipeline (w, req, k, p, full_w, full_h);
  const LmImage *level = lm_pyramid_level (w->pyramid, k);
  *region = FALSE;
  *halo = 0;
  if ((guint64) level->width * level->height <= LEVEL_MAX_PIXELS)
    return k;
  if (allow_region && renders_by_region (p, halo))
    {
      *region = TRUE;
      return k;
    }
  k = lm_pyramid_pick_within (w->pyramid, LEVEL_MAX_PIXELS);
  level_pipeline (w, req, k, p, full_w, full_h);
  return k;
}

/* The histograms of R from OUT (SIDE's work memory). */
static gboolean
histograms (LmRenderWorker *w, Side *side, const LmRenderRequest *req, const LmImage *out,
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

/* Level K rendered whole (its cache kept for the next edit and for panning), viewed. */
static gboolean
render_level (LmRenderWorker *w, Side *side, const LmRenderRequest *req, guint k, const LmPipeline *p,
              guint full_w, guint full_h, LmRenderResult *r, GError **error)
{
  if (!slot_hold (w, side, &side->shown, k, error))
    return FALSE;
  g_autoptr (LmImage) out = lm_render_cache_run (side->shown.cache, p, &r->timings, error);
  if (out == NULL)
    return FALSE;
  LmViewRect rect = level_rect (&req->view, full_w, full_h, out->width, out->height);
  r->view = lm_render_view_buffer (w, rect.out_w, rect.out_h, error);
  if (r->view == NULL || !lm_render_view_down (side, out, &rect, w->view_transform, r->view, &r->download_ms, error)
      || !histograms (w, side, req, out, r, error))
    return FALSE;
  if (req->with_before)
    {
      /* As render_full: the geometry alone, in the same pixels; OUT is not read after. */
      LmPipeline original = *p;
      lm_pipeline_geometry_only (&original);
      g_autoptr (LmImage) plain = lm_render_cache_run (side->shown.cache, &original, NULL, error);
      if (plain == NULL)
        return FALSE;
      r->before_view = lm_render_view_buffer (w, rect.out_w, rect.out_h, error);
      if (r->before_view == NULL
          || !lm_render_view_down (side, plain, &rect, w->view_transform, r->before_view, &r->download_ms, error))
        return FALSE;
    }
  return TRUE;
}

/* The part X, Y, WIDTH × HEIGHT of LEVEL, copied into host memory that uploads fast. */
static LmImage *
crop_level (LmRenderWorker *w, const LmImage *level, guint x, guint y, guint width, guint height,
            GError **error)
{
  LmImage *part = lm_image_new (level->format, width, height, lm_render_fast_host (w), error);
  if (part == NULL)
    return NULL;
  gsize bpp = lm_format_bytes_per_pixel (level->format);
  for (guint j = 0; j < height; j++)
    memcpy (lm_image_row (part, j), lm_image_row (level, y + j) + x * bpp, width * bpp);
  part->opaque = level->opaque;
  return part;
}

/* Only the visible part of level K (with HALO pixels around it, clipped to the level)
 * rendered and viewed; the histogram from the overview level, rendered whole. */
static gboolean
render_region (LmRenderWorker *w, Side *side, const LmRenderRequest *req, guint k, const LmPipeline *p,
               guint full_w, guint full_h, int halo, LmRenderResult *r, GError **error)
{
  const LmImage *level = lm_pyramid_level (w->pyramid, k);
  LmViewRect rect = level_rect (&req->view, full_w, full_h, level->width, level->height);
  int reach = REGION_MARGIN + halo;
  guint x0 = (guint) MAX (0.0, floor (rect.rx) - reach);
  guint y0 = (guint) MAX (0.0, floor (rect.ry) - reach);
  guint x1 = (guint) MIN ((double) level->width, ceil (rect.rx + rect.rw) + reach);
  guint y1 = (guint) MIN ((double) level->height, ceil (rect.ry + rect.rh) + reach);
  g_autoptr (LmImage) part = crop_level (w, level, x0, y0, x1 - x0, y1 - y0, error);
  if (part == NULL)
    return FALSE;
  g_autoptr (LmImage) work = lm_backend_upload (side->backend, part, error);
  if (work == NULL)
    return FALSE;
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (side->backend, work);
  lm_render_cache_set_color (cache, w->color);
  g_autoptr (LmImage) out = lm_render_cache_run (cache, p, &r->timings, error);
  if (out == NULL)
    return FALSE;
  rect.rx -= x0;
  rect.ry -= y0;
  r->view = lm_render_view_buffer (w, rect.out_w, rect.out_h, error);
  if (r->view == NULL || !lm_render_view_down (side, out, &rect, w->view_transform, r->view, &r->download_ms, error))
    return FALSE;
  if (req->with_before)
    {
      /* No geometry here: the "before" is the part as it is. */
      r->before_view = lm_render_view_buffer (w, rect.out_w, rect.out_h, error);
      if (r->before_view == NULL
          || !lm_render_view_down (side, work, &rect, w->view_transform, r->before_view, &r->download_ms, error))
        return FALSE;
    }
  g_clear_pointer (&out, lm_image_unref);
  g_clear_pointer (&cache, lm_render_cache_free);

  guint o = lm_pyramid_pick_within (w->pyramid, MIN (OVERVIEW_MAX_PIXELS, LEVEL_MAX_PIXELS));
  LmPipeline po;
  guint fw, fh;
  level_pipeline (w, req, o, &po, &fw, &fh);
  if (!slot_hold (w, side, &side->overview, o, error))
    return FALSE;
  g_autoptr (LmImage) whole = lm_render_cache_run (side->overview.cache, &po, NULL, error);
  return whole != NULL && histograms (w, side, req, whole, r, error);
}

gboolean
lm_render_level_preview (LmRenderWorker *w, Side *side, const LmRenderRequest *req, LmRenderResult *r,
                         GError **error)
{
  lm_timings_init (&r->timings);
  gint64 t = g_get_monotonic_time ();
  /* An export leaves the photo's full-resolution upload and its steps' outputs here: of no
   * use to the view, and gigabytes of memory (the next export makes them again). */
  g_clear_pointer (&side->cache, lm_render_cache_free);
  g_clear_pointer (&side->source, lm_image_unref);
  if (!ensure_pyramid (w, error))
    return FALSE;
  LmPipeline p;
  guint full_w, full_h;
  gboolean region;
  int halo;
  guint k = pick_level (w, req, TRUE, &p, &full_w, &full_h, &region, &halo);
  gboolean ok = region ? render_region (w, side, req, k, &p, full_w, full_h, halo, r, error)
                       : render_level (w, side, req, k, &p, full_w, full_h, r, error);
  if (!ok)
    return FALSE;
  /* Of no use until the view changes mode again: memory stays a level's, not two. */
  lm_render_level_slot_clear (region ? &side->shown : &side->overview);
  r->render_ms = lm_ms_since (t);
  r->upload_ms = side->upload_ms;
  side->upload_ms = 0.0;
  r->refined = TRUE;
  r->level_factor = lm_pyramid_factor (w->pyramid, k);
  r->region = region;
  r->backend_name = lm_backend_name (side->backend);
  r->width = full_w, r->height = full_h;
  return TRUE;
}

LmImage *
lm_render_level_compare (LmRenderWorker *w, Side *side, const LmRenderRequest *req, LmTimings *timings,
                         LmViewRect *rect, GError **error)
{
  if (!ensure_pyramid (w, error))
    return NULL;
  LmPipeline p;
  guint full_w, full_h;
  gboolean region;
  int halo;
  guint k = pick_level (w, req, FALSE, &p, &full_w, &full_h, &region, &halo);
  if (!slot_hold (w, side, &side->shown, k, error))
    return NULL;
  g_autoptr (LmRenderCache) fresh = lm_render_cache_new (side->backend, side->shown.source);
  lm_render_cache_set_color (fresh, w->color);
  LmImage *out = lm_render_cache_run (fresh, &p, timings, error);
  if (out != NULL)
    *rect = level_rect (&req->view, full_w, full_h, out->width, out->height);
  return out;
}
