/* The view of a large photo (render-private.h): the pipeline runs on the level of the photo's
 * pyramid just finer than the view's scale, its lengths scaled to that level (as the CPU's
 * quick pass does), so that an edit costs about a screen's pixels, not the photo's. Where
 * that level is too large to render whole (zoomed in on a panorama), only the visible region
 * of its output is rendered, by the tiled renderer (tiled.h), whatever the pipeline: each
 * step's source_rect walks the region back to the part of the level it needs (blur's halo,
 * geometry's mapped rectangle), and equalize's table comes from the whole level's histogram
 * (of a coarser level above HISTOGRAM_MAX_PIXELS), counted once and kept while only later
 * steps change: the same pixels as the whole level's render. The histogram shown then comes from a small level of the whole photo. */
#include "render-private.h"
#include "tiled.h"

#include <math.h>
#include <string.h>


/* A level rendered whole holds at most this many pixels: 64 MB per step in RGBA8. Above,
 * the visible region is rendered, for the view and for the diff view alike. The tests lower it
 * (LUMEN_VIEW_LEVEL_MAX, pixels) to reach the region path on small photos. */
#define LEVEL_MAX_PIXELS (level_max_pixels ())
/* The level whose histogram a region's render reports. */
#define OVERVIEW_MAX_PIXELS (G_GUINT64_CONSTANT (4) << 20)
/* Pixels around a region beyond those the view reads: its resampling's reach. */
#define REGION_MARGIN 2
/* Equalize's table in a region's render comes from the histogram of the level shown when
 * it has at most this many pixels, else from the finest level within it: a change before
 * equalize then costs one pass over at most 128 MP (a 600 MP photo at 100 %: its level of
 * 1/4, 37.5 MP), not over the photo. Tied to the whole-level bound so that the tests, which
 * lower that, count the level shown. */
#define HISTOGRAM_MAX_PIXELS (8 * LEVEL_MAX_PIXELS)
/* A region's tiles: at most 16 MB a buffer in RGBA8 (the halos aside), however large the
 * level whose histogram equalize's first pass counts. */
#define REGION_TILE_SIDE 2048

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

/* What level K is of: masks are placed in the photo's coordinates. */
static LmRenderLevel
level_of (LmRenderWorker *w, guint k)
{
  return (LmRenderLevel) { lm_pyramid_factor (w->pyramid, k), w->source->width, w->source->height };
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
  LmRenderLevel level = level_of (w, k);
  lm_render_cache_set_level (slot->cache, &level);
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

/* The level the view of REQ shows, and its pipeline P; *REGION: only its visible part is
 * to be rendered. */
static guint
pick_level (LmRenderWorker *w, const LmRenderRequest *req, gboolean allow_region, LmPipeline *p,
            guint *full_w, guint *full_h, gboolean *region)
{
  const LmViewRect *v = &req->view;
  double scale = MAX (v->out_w / v->rw, v->out_h / v->rh);
  guint k = lm_pyramid_pick (w->pyramid, scale);
  level_pipeline (w, req, k, p, full_w, full_h);
  const LmImage *level = lm_pyramid_level (w->pyramid, k);
  *region = FALSE;
  if ((guint64) level->width * level->height <= LEVEL_MAX_PIXELS)
    return k;
  if (allow_region)
    {
      *region = TRUE;
      return k;
    }
  k = lm_pyramid_pick_within (w->pyramid, LEVEL_MAX_PIXELS);
  level_pipeline (w, req, k, p, full_w, full_h);
  return k;
}

/* The histograms of R from OUT (SIDE's work memory). */
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
  if (!(r->view = lm_render_view_of (w, side, out, &rect, &r->download_ms, error))
      || !lm_render_histograms (w, side, req, out, r, error))
    return FALSE;
  /* As render_full: the overlay before the "before" run, which is the cache's last run then. */
  if (req->mask_of && lm_render_mask_in_output_frame (p, req->mask_of, w->source))
    {
      GError *e = NULL;
      r->mask_view = lm_render_mask_view (w, side, side->shown.cache, req->mask_of, out->width, out->height, &rect, &e);
      if (e)
        {
          g_propagate_error (error, e);
          return FALSE;
        }
    }
  if (req->with_before)
    {
      /* As render_full: the geometry alone, in the same pixels; OUT is not read after. */
      LmPipeline original = *p;
      lm_pipeline_geometry_only (&original);
      g_autoptr (LmImage) plain = lm_render_cache_run (side->shown.cache, &original, NULL, error);
      if (plain == NULL)
        return FALSE;
      if (!(r->before_view = lm_render_view_of (w, side, plain, &rect, &r->download_ms, error)))
        return FALSE;
    }
  return TRUE;
}

/* Equalize's histogram of a level, kept from one edit to the next in the pyramid (one per
 * side: their backends count on their own): valid while the level, the steps before
 * equalize, its mode and the colour space are those that made it. */
typedef struct {
  LmBackend *backend;
  guint level;
  LmColorProfile *color;
  LmStage before[LM_PIPELINE_MAX]; /* the instances before equalize's */
  guint n_before;
  int mode;
  LmTileHistogram counts;
} EqualizeMemo;

typedef struct {
  EqualizeMemo sides[N_SIDES];
} LevelMemo;

static void
level_memo_free (gpointer data)
{
  LevelMemo *memo = data;
  for (guint i = 0; i < N_SIDES; i++)
    g_free (memo->sides[i].counts.bins);
  g_free (memo);
}

/* The index of P's first enabled equalize instance (the one a tiled render counts for), or
 * -1. */
static int
equalize_index (const LmPipeline *p)
{
  for (guint i = 0; i < p->n; i++)
    if (p->inst[i].info->id == LM_OP_EQUALIZE && p->inst[i].enabled)
      return (int) i;
  return -1;
}

/* Where equalize's histogram of P on level K is kept for SIDE (its counts empty when they
 * are to be counted again); NULL when P has no equalize. */
static LmTileHistogram *
equalize_memo (LmRenderWorker *w, Side *side, guint k, const LmPipeline *p)
{
  int at = equalize_index (p);
  if (at < 0)
    return NULL;
  const LmStage *eq = &p->inst[at];
  LevelMemo *memo = lm_pyramid_get_memo (w->pyramid);
  if (memo == NULL)
    {
      memo = g_new0 (LevelMemo, 1);
      lm_pyramid_set_memo (w->pyramid, memo, level_memo_free);
    }
  EqualizeMemo *m = &memo->sides[side == &w->sides[0] ? 0 : 1];
  int mode = ((const LmEqualizeParams *) eq->params.bytes)->mode;
  gboolean same = m->counts.total > 0 && m->backend == side->backend && m->level == k && m->color == w->color
                  && m->mode == mode;
  same = same && m->n_before == (guint) at;
  for (int i = 0; same && i < at; i++)
    same = m->before[i].id == p->inst[i].id && lm_stage_equal (&m->before[i], &p->inst[i]);
  if (!same)
    {
      g_clear_pointer (&m->counts.bins, g_free);
      m->counts.total = 0;
      m->backend = side->backend, m->level = k, m->color = w->color, m->mode = mode;
      m->n_before = (guint) at;
      memcpy (m->before, p->inst, at * sizeof (LmStage));
    }
  return &m->counts;
}

/* The part of an output of OUT_W × OUT_H that the view RECT reads, with the margin of its
 * resampling, clipped to the output. */
static LmRect
visible_area (const LmViewRect *rect, guint out_w, guint out_h)
{
  guint x0 = (guint) MIN ((double) out_w - 1, MAX (0.0, floor (rect->rx) - REGION_MARGIN));
  guint y0 = (guint) MIN ((double) out_h - 1, MAX (0.0, floor (rect->ry) - REGION_MARGIN));
  guint x1 = (guint) MIN ((double) out_w, ceil (rect->rx + rect->rw) + REGION_MARGIN);
  guint y1 = (guint) MIN ((double) out_h, ceil (rect->ry + rect->rh) + REGION_MARGIN);
  return (LmRect) { x0, y0, MAX (x1, x0 + 1) - x0, MAX (y1, y0 + 1) - y0 };
}

/* AREA of P's output on level K, rendered tile by tile into SIDE's work memory. */
static LmImage *
render_area (LmRenderWorker *w, Side *side, guint k, const LmPipeline *p, const LmRect *area,
             LmTileHistogram *equalize, LmTimings *timings, GError **error)
{
  const LmImage *level = lm_pyramid_level (w->pyramid, k);
  LmFormat format;
  guint out_w, out_h;
  lm_render_tiled_output (level, p, &format, &out_w, &out_h);
  g_autoptr (LmImage) out = lm_image_new (format, area->width, area->height,
                                          lm_backend_work_allocator (side->backend), error);
  /* One lane: a view's region is a few tiles, not worth a second stream and its buffers. */
  LmRenderLevel of = level_of (w, k);
  LmTileOptions options = { REGION_TILE_SIDE, REGION_TILE_SIDE, 1, equalize, &of };
  if (out == NULL
      || !lm_render_tiled (side->backend, level, p, w->color, area, out, &options, timings, error))
    return NULL;
  g_debug ("level view: %u×%u of %u×%u (level %u, 1/%g)", area->width, area->height, out_w, out_h, k,
           lm_pyramid_factor (w->pyramid, k));
  return g_steal_pointer (&out);
}

/* The visible part of the output of level K for the view of REQ (*RECT: the view on it),
 * rendered tile by tile into SIDE's work memory. */
static LmImage *
visible_region (LmRenderWorker *w, Side *side, const LmRenderRequest *req, guint k, const LmPipeline *p,
                guint full_w, guint full_h, LmTimings *timings, LmViewRect *rect, LmRect *area, GError **error)
{
  const LmImage *level = lm_pyramid_level (w->pyramid, k);
  LmFormat format;
  guint out_w, out_h;
  lm_render_tiled_output (level, p, &format, &out_w, &out_h);
  *rect = level_rect (&req->view, full_w, full_h, out_w, out_h);
  *area = visible_area (rect, out_w, out_h);
  LmTileHistogram *equalize = NULL;
  if (equalize_index (p) >= 0)
    {
      guint h = (guint64) level->width * level->height <= HISTOGRAM_MAX_PIXELS
                  ? k
                  : MAX (k, lm_pyramid_pick_within (w->pyramid, HISTOGRAM_MAX_PIXELS));
      LmPipeline ph;
      guint fw, fh;
      level_pipeline (w, req, h, &ph, &fw, &fh);
      equalize = equalize_memo (w, side, h, &ph);
      /* Counted on the coarser level by the first pass of a render of one of its pixels. */
      g_autoptr (LmImage) counted = NULL;
      if (h != k && equalize->total == 0
          && (counted = render_area (w, side, h, &ph, &(LmRect) { 0, 0, 1, 1 }, equalize, timings, error)) == NULL)
        return NULL;
    }
  LmImage *out = render_area (w, side, k, p, area, equalize, timings, error);
  rect->rx -= area->x;
  rect->ry -= area->y;
  return out;
}

/* Only the visible part of the output of level K rendered and viewed; the histogram from
 * the overview level, rendered whole. */
static gboolean
render_region (LmRenderWorker *w, Side *side, const LmRenderRequest *req, guint k, const LmPipeline *p,
               guint full_w, guint full_h, LmRenderResult *r, GError **error)
{
  LmViewRect rect;
  LmRect area;
  g_autoptr (LmImage) out = visible_region (w, side, req, k, p, full_w, full_h, &r->timings, &rect, &area, error);
  if (out == NULL)
    return FALSE;
  if (!(r->view = lm_render_view_of (w, side, out, &rect, &r->download_ms, error)))
    return FALSE;
  g_clear_pointer (&out, lm_image_unref);
  if (req->with_before)
    {
      /* As render_level: the geometry alone, in the same pixels of the same region. */
      LmPipeline original = *p;
      lm_pipeline_geometry_only (&original);
      g_autoptr (LmImage) plain = render_area (w, side, k, &original, &area, NULL, NULL, error);
      if (plain == NULL)
        return FALSE;
      if (!(r->before_view = lm_render_view_of (w, side, plain, &rect, &r->download_ms, error)))
        return FALSE;
    }

  guint o = lm_pyramid_pick_within (w->pyramid, MIN (OVERVIEW_MAX_PIXELS, LEVEL_MAX_PIXELS));
  LmPipeline po;
  guint fw, fh;
  level_pipeline (w, req, o, &po, &fw, &fh);
  if (!slot_hold (w, side, &side->overview, o, error))
    return FALSE;
  g_autoptr (LmImage) whole = lm_render_cache_run (side->overview.cache, &po, NULL, error);
  return whole != NULL && lm_render_histograms (w, side, req, whole, r, error);
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
  guint k = pick_level (w, req, TRUE, &p, &full_w, &full_h, &region);
  gboolean ok = region ? render_region (w, side, req, k, &p, full_w, full_h, r, error)
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
  guint k = pick_level (w, req, TRUE, &p, &full_w, &full_h, &region);
  if (region) /* zoomed in on a large photo: the two backends' visible region */
    {
      LmRect area;
      return visible_region (w, side, req, k, &p, full_w, full_h, timings, rect, &area, error);
    }
  if (!slot_hold (w, side, &side->shown, k, error))
    return NULL;
  g_autoptr (LmRenderCache) fresh = lm_render_cache_new (side->backend, side->shown.source);
  lm_render_cache_set_color (fresh, w->color);
  LmRenderLevel level = level_of (w, k);
  lm_render_cache_set_level (fresh, &level);
  LmImage *out = lm_render_cache_run (fresh, &p, timings, error);
  if (out != NULL)
    *rect = level_rect (&req->view, full_w, full_h, out->width, out->height);
  return out;
}
