/* A pipeline rendered tile by tile (tiled.h). */
#include "tiled.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/exif-shot.h"
#include "../raw-info.h"
#include "../ops/denoise.h"
#include "../ops/histogram.h"
#include "../ops/point.h"
#include "cache.h"
#include "plan.h"

/* The largest tile side the planner tries, and the smallest it goes down to. */
#define TILE_SIDE_MAX 4096
#define TILE_SIDE_MIN 64
/* Lanes on a backend with a stream (CUDA): two keep one lane's copies under the other's
 * kernels. */
#define LANES_GPU 2
#define LANES_MAX 8

typedef struct {
  gboolean points; /* a fused pass of point operations */
  LmPointPass pass;
  const LmOpInfo *info;     /* the operation (NULL for a pass) */
  LmStage stage;            /* its parameters, with the hidden fields the tiler fills */
  LmFormat in_format, out_format;
  guint in_w, in_h, out_w, out_h; /* the whole frames around it */
  LmMaskFlat *mask;               /* a masked instance's, placed on its whole input frame */
} Step;

typedef struct {
  Step *steps; /* LM_PLAN_MAX of them */
  guint n;
  int equalize;           /* the equalize step, or -1 */
  guint32 *equalize_bins; /* its input's histogram, summed over the tiles */
  guint64 equalize_total;
  int denoise;            /* the denoise step whose σ is estimated, or -1 */
  guint32 *denoise_bins;  /* its estimate's counts, summed over the tiles */
  float denoise_sigma;    /* what they give: every tile's σ */
  LmRect denoise_own;     /* in the first pass, the tile being counted (its halo aside) */
  gboolean masked;        /* a step has a mask */
  gboolean opaque;
} Plan;

typedef struct {
  LmBackend *backend;  /* the caller's for lane 0, else one of its own */
  LmImage *buffer[2];  /* ping-pong, in work memory, reshaped for each step */
  LmImage *drawn, *mask; /* a masked step's planes */
  gboolean busy;       /* work queued since its last synchronize */
} Lane;

static void
plan_clear (Plan *plan)
{
  for (guint i = 0; plan->steps && i < plan->n; i++)
    g_clear_pointer (&plan->steps[i].mask, lm_mask_flat_free);
  g_clear_pointer (&plan->equalize_bins, g_free);
  g_clear_pointer (&plan->denoise_bins, g_free);
  g_clear_pointer (&plan->steps, g_free);
}

/* PIPELINE (with COLOR) as the steps a tile runs: plan.c's, as the render cache runs them.
 * Masks are placed for a source that is LEVEL of the photo (NULL: the photo). */
static gboolean
plan_build (Plan *plan, const LmImage *source, const LmPipeline *pipeline, LmColorProfile *color,
            const LmRenderLevel *level, GError **error)
{
  memset (plan, 0, sizeof *plan);
  plan->equalize = -1;
  plan->denoise = -1;
  if (source->format == LM_FORMAT_RGBA_F32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                   _("Radiance images are not rendered in tiles: tone mapping needs the whole image"));
      return FALSE;
    }
  if (lm_image_is_raw (source))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                   _("Camera raws are not rendered in tiles in this version of Lumen: their development runs on "
                     "the whole image"));
      return FALSE;
    }
  g_autofree LmPipeline *colored = g_memdup2 (pipeline, sizeof *pipeline);
  LmShotInfo shot;
  lm_shot_info_from_image (source, &shot);
  lm_pipeline_commit (colored, color, &shot);
  if (!lm_pipeline_check_ops (colored, error))
    return FALSE;
  g_autofree LmPlan *steps = lm_render_plan (colored, FALSE, FALSE, error);
  if (steps == NULL)
    return FALSE;
  plan->steps = g_new0 (Step, LM_PLAN_MAX);

  LmFormat format = source->format;
  guint w = source->width, h = source->height;
  gboolean opaque = source->opaque;
  for (guint i = 0; i < steps->n; i++)
    {
      const LmPlanStep *from = &steps->steps[i];
      const LmStage *stage = &from->stage;
      Step *step = &plan->steps[plan->n];
      if (from->kind == LM_PLAN_POINTS)
        {
          step->points = TRUE;
          step->pass = from->pass;
          step->out_format = lm_point_output_format (NULL, format, opaque);
          step->out_w = w, step->out_h = h;
        }
      else
        {
          step->info = stage->info;
          step->stage = *stage;
          step->out_format = stage->info->output_format (stage->params.bytes, format, opaque);
          lm_op_output_size (stage->info, stage->params.bytes, w, h, &step->out_w, &step->out_h);
          if (stage->info->id == LM_OP_EQUALIZE)
            {
              /* One histogram pass a render: a second equalize would need its own. */
              if (plan->equalize >= 0)
                {
                  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                               _("Two equalize instances are not rendered in tiles in this version of Lumen"));
                  plan_clear (plan);
                  return FALSE;
                }
              plan->equalize = (int) plan->n;
            }
          /* σ estimated on the input is the whole input's: a first pass counts it by tiles */
          if (stage->info->id == LM_OP_DENOISE
              && lm_denoise_fixed_sigma ((const LmDenoiseParams *) stage->params.bytes) < 0.0f)
            {
              if (plan->denoise >= 0)
                {
                  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                               _("Two noise reduction instances that measure the noise are not rendered in tiles "
                                 "in this version of Lumen: set the noise level of one"));
                  plan_clear (plan);
                  return FALSE;
                }
              plan->denoise = (int) plan->n;
            }
        }
      /* As the cache: a 16-bit source is not cut to 8 bits on the way. */
      if (lm_format_depth (format) == 16 && lm_format_depth (step->out_format) != 16)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                       _("%s does not work on 16-bit images in this version of Lumen"), from->label);
          plan_clear (plan);
          return FALSE;
        }
      step->in_format = format;
      step->in_w = w, step->in_h = h;
      if (from->masked)
        {
          LmMaskFrame frame;
          if (lm_render_mask_fits (colored, from->index, format, w, h, step->out_format, step->out_w, step->out_h,
                                   error)
              && lm_render_mask_frame (colored, from->index, FALSE, source->width, source->height, level, &frame,
                                       error))
            step->mask = lm_render_mask_place (colored, from->index, FALSE, &frame, w, h, error);
          if (step->mask == NULL)
            {
              plan_clear (plan);
              return FALSE;
            }
          plan->masked = TRUE;
        }
      opaque = opaque || lm_format_channels (format) == 1;
      format = step->out_format;
      w = step->out_w, h = step->out_h;
      plan->n++;
    }
  plan->opaque = source->opaque;
  return TRUE;
}

static void
plan_output (const Plan *plan, const LmImage *source, LmFormat *format, guint *w, guint *h)
{
  if (plan->n == 0)
    {
      *format = source->format, *w = source->width, *h = source->height;
      return;
    }
  const Step *last = &plan->steps[plan->n - 1];
  *format = last->out_format, *w = last->out_w, *h = last->out_h;
}

/* RECTS[0..END]: the rectangle of each frame that the output rectangle OUT of frame END needs,
 * from the last step back to the source. */
static void
walk_back (const Plan *plan, guint end, const LmRect *out, LmRect *rects)
{
  rects[end] = *out;
  for (guint i = end; i-- > 0;)
    {
      const Step *step = &plan->steps[i];
      if (step->info && step->info->source_rect)
        step->info->source_rect (step->stage.params.bytes, step->in_w, step->in_h, &rects[i + 1], &rects[i]);
      else
        rects[i] = rects[i + 1];
      if (step->mask)
        {
          /* The feather's box filters read this far beyond what they keep. */
          guint reach = lm_mask_feather_reach (lm_mask_flat_render (step->mask));
          LmRect *r = &rects[i];
          guint x1 = MIN ((guint64) r->x + r->width + reach, step->in_w);
          guint y1 = MIN ((guint64) r->y + r->height + reach, step->in_h);
          r->x = r->x > reach ? r->x - reach : 0, r->y = r->y > reach ? r->y - reach : 0;
          r->width = x1 - r->x, r->height = y1 - r->y;
        }
    }
}

/* The size in bytes of the largest image a tile of output rectangle OUT (frame END) holds. */
static gsize
tile_bytes (const Plan *plan, const LmImage *source, guint end, const LmRect *out)
{
  LmRect rects[LM_PLAN_MAX + 1];
  walk_back (plan, end, out, rects);
  gsize most = 0, stride, size;
  LmFormat format = source->format;
  for (guint i = 0; i <= end; i++)
    {
      if (i > 0)
        format = plan->steps[i - 1].out_format;
      /* A step whose output keeps its input's size (blur) writes its whole input rectangle. */
      guint w = rects[i].width, h = rects[i].height;
      if (i > 0 && plan->steps[i - 1].info && plan->steps[i - 1].info->output_size == NULL)
        w = MAX (w, rects[i - 1].width), h = MAX (h, rects[i - 1].height);
      if (lm_image_layout (format, w, h, &stride, &size, NULL))
        most = MAX (most, size);
    }
  return most;
}

static gboolean
rect_equal (const LmRect *a, const LmRect *b)
{
  return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height;
}

/* LANE's buffer K as a FORMAT image of W × H, (re)allocated when its bytes do not suffice. */
static LmImage *
lane_image (Lane *lane, int k, LmFormat format, guint w, guint h, GError **error)
{
  if (lane->buffer[k] && lm_image_reshape (lane->buffer[k], format, w, h))
    return lane->buffer[k];
  g_clear_pointer (&lane->buffer[k], lm_image_unref);
  lane->buffer[k] = lm_image_new (format, w, h, lm_backend_work_allocator (lane->backend), error);
  return lane->buffer[k];
}

/* What a tile's result goes to: the output (copied into HOST_OUT at the place of its rectangle
 * in OUT_RECT) or equalize's first pass (its histogram added to the plan's). */
typedef struct {
  LmImage *host_out;
  LmRect out_rect;
  Plan *histogram_of; /* set for the first pass */
  Plan *noise_of;     /* set for denoise's first pass */
} Sink;

static gboolean
add_histogram (Plan *plan, Lane *lane, LmImage *image, GError **error)
{
  const Step *eq = &plan->steps[plan->equalize];
  const LmEqualizeParams *p = (const LmEqualizeParams *) eq->stage.params.bytes;
  gboolean luma = p->mode == LM_EQUALIZE_LUMA || lm_format_channels (image->format) == 1;
  LmHistWant want = luma ? LM_HIST_WANT_LUMA : LM_HIST_WANT_RGB;
  if (lm_format_depth (image->format) == 16)
    {
      /* 65536 bins a channel: counted on the host, the tile brought back first. */
      g_autoptr (LmImage) host = lm_image_new (image->format, image->width, image->height,
                                               lm_backend_host_allocator (lane->backend), error);
      LmRect all = { 0, 0, image->width, image->height };
      if (host == NULL || !lm_backend_copy_rect (lane->backend, image, &all, host, 0, 0, error)
          || !lm_backend_synchronize (lane->backend, error))
        return FALSE;
      g_autofree guint32 *bins = g_new (guint32, LM_HIST_N_CHANNELS * LM_HIST16_BINS);
      lm_histogram16_cpu (host, want, bins);
      for (gsize i = 0; i < LM_HIST_N_CHANNELS * LM_HIST16_BINS; i++)
        plan->equalize_bins[i] += bins[i];
    }
  else
    {
      LmHistogram hist;
      if (!lm_backend_histogram (lane->backend, image, want, &hist, error))
        return FALSE;
      for (int c = 0; c < LM_HIST_N_CHANNELS; c++)
        for (int i = 0; i < LM_HIST_BINS; i++)
          plan->equalize_bins[c * LM_HIST_BINS + i] += hist.bins[c][i];
    }
  plan->equalize_total += (guint64) image->width * image->height;
  return TRUE;
}

/* Denoise's first pass: the counts of IMAGE, the rectangle GROWN of its input frame (the
 * tile plan->denoise_own with LM_DENOISE_EST_HALO pixels around it, clamped to the frame), of
 * the tile's own pixels alone. */
static gboolean
add_noise_counts (Plan *plan, Lane *lane, LmImage *image, const LmRect *grown, GError **error)
{
  LmRect own = { plan->denoise_own.x - grown->x, plan->denoise_own.y - grown->y, plan->denoise_own.width,
                 plan->denoise_own.height };
  g_autoptr (LmImage) host = lm_image_new (image->format, image->width, image->height,
                                           lm_backend_host_allocator (lane->backend), error);
  LmRect all = { 0, 0, image->width, image->height };
  if (host == NULL || !lm_backend_copy_rect (lane->backend, image, &all, host, 0, 0, error)
      || !lm_backend_synchronize (lane->backend, error))
    return FALSE;
  return lm_denoise_histogram_cpu (host, &own, plan->denoise_bins, error);
}

/* A masked step's result DST moved back towards its input CUR (the rectangle AT of its input
 * frame) by its mask there. */
static gboolean
blend_masked (const Step *step, Lane *lane, const LmRect *at, const LmImage *cur, LmImage *dst, GError **error)
{
  const LmAllocator *work = lm_backend_work_allocator (lane->backend);
  LmImage **planes[2] = { &lane->drawn, &lane->mask };
  for (int p = 0; p < 2; p++)
    if (*planes[p] == NULL || !lm_image_reshape (*planes[p], LM_FORMAT_GRAY_F32, cur->width, cur->height))
      {
        g_clear_pointer (planes[p], lm_image_unref);
        if ((*planes[p] = lm_image_new (LM_FORMAT_GRAY_F32, cur->width, cur->height, work, error)) == NULL)
          return FALSE;
      }
  LmTileFrame frame = { step->in_w, step->in_h, at->x, at->y, at->x, at->y, at->width, at->height };
  return lm_backend_mask_drawn (lane->backend, step->mask, &frame, lane->drawn, error)
         && lm_backend_mask (lane->backend, step->mask, &frame, cur, lane->drawn, lane->mask, error)
         && lm_backend_blend_mask (lane->backend, cur, dst, lane->mask, dst, error);
}

/* One tile: the steps before END on the rectangle OUT of frame END, queued on LANE. */
static gboolean
render_tile (Plan *plan, Lane *lane, const LmImage *host_source, guint end, const LmRect *out, const Sink *sink,
             GError **error)
{
  LmRect rects[LM_PLAN_MAX + 1];
  walk_back (plan, end, out, rects);

  int k = 0;
  LmImage *cur = lane_image (lane, k, host_source->format, rects[0].width, rects[0].height, error);
  if (cur == NULL || !lm_backend_copy_rect (lane->backend, host_source, &rects[0], cur, 0, 0, error))
    return FALSE;
  cur->opaque = host_source->opaque;
  LmRect cur_rect = rects[0]; /* where CUR lies in the frame of the step it feeds */

  for (guint i = 0; i <= end; i++)
    {
      /* CUR may hold more than the step needs (a blur's halo): its part is cut out first. */
      if (!rect_equal (&cur_rect, &rects[i]))
        {
          LmImage *part = lane_image (lane, 1 - k, cur->format, rects[i].width, rects[i].height, error);
          LmRect from = { rects[i].x - cur_rect.x, rects[i].y - cur_rect.y, rects[i].width, rects[i].height };
          if (part == NULL || !lm_backend_copy_rect (lane->backend, cur, &from, part, 0, 0, error))
            return FALSE;
          part->opaque = cur->opaque;
          cur = part, k = 1 - k, cur_rect = rects[i];
        }
      if (i == end)
        break;

      Step *step = &plan->steps[i];
      LmStage stage = step->stage;
      LmRect covers = rects[i + 1];
      guint w = rects[i].width, h = rects[i].height;
      if (step->info)
        {
          LmTileFrame *frame = step->info->tile_frame ? step->info->tile_frame (stage.params.bytes) : NULL;
          if (frame)
            *frame = (LmTileFrame) { step->in_w, step->in_h, rects[i].x, rects[i].y,
                                     rects[i + 1].x, rects[i + 1].y, rects[i + 1].width, rects[i + 1].height };
          if (step->info->id == LM_OP_DENOISE && (int) i == plan->denoise)
            {
              LmDenoiseParams *dp = (LmDenoiseParams *) stage.params.bytes;
              dp->sigma_est = plan->denoise_sigma, dp->sigma_known = 1;
            }
          if (step->info->id == LM_OP_EQUALIZE)
            {
              stage.params.equalize.bins = plan->equalize_bins;
              stage.params.equalize.total = plan->equalize_total;
            }
          lm_op_output_size (step->info, stage.params.bytes, rects[i].width, rects[i].height, &w, &h);
          /* A step that keeps the size (blur) covers its input's rectangle. */
          if (step->info->output_size == NULL)
            covers = (LmRect) { rects[i].x, rects[i].y, w, h };
          else
            g_return_val_if_fail (w == covers.width && h == covers.height, FALSE);
        }
      LmImage *dst = lane_image (lane, 1 - k, step->out_format, w, h, error);
      if (dst == NULL)
        return FALSE;
      gboolean ok = step->points ? lm_backend_run_points (lane->backend, &step->pass, cur, dst, error)
                                 : lm_backend_run_op (lane->backend, step->info, stage.params.bytes, cur, dst,
                                                      error);
      if (!ok || (step->mask && !blend_masked (step, lane, &rects[i], cur, dst, error)))
        return FALSE;
      if (step->mask)
        covers = rects[i];
      cur = dst, k = 1 - k, cur_rect = covers;
    }

  lane->busy = TRUE;
  if (sink->histogram_of)
    return add_histogram (sink->histogram_of, lane, cur, error);
  if (sink->noise_of)
    return add_noise_counts (sink->noise_of, lane, cur, out, error);
  return lm_backend_copy_rect (lane->backend, cur, &(LmRect) { 0, 0, out->width, out->height }, sink->host_out,
                               out->x - sink->out_rect.x, out->y - sink->out_rect.y, error);
}

/* The tile size: OPTIONS', LUMEN_TILE's, or the largest square (halved from TILE_SIDE_MAX) whose
 * buffers, two a lane, take at most half the memory available. */
static void
choose_tile (const Plan *plan, const LmImage *source, guint end, guint out_w, guint out_h, guint lanes,
             gsize available, const LmTileOptions *options, guint *tw, guint *th)
{
  if (options && options->tile_width && options->tile_height)
    {
      *tw = MIN (options->tile_width, out_w), *th = MIN (options->tile_height, out_h);
      return;
    }
  const char *env = g_getenv ("LUMEN_TILE");
  guint ew = 0, eh = 0;
  if (env && sscanf (env, "%ux%u", &ew, &eh) == 2 && ew && eh)
    {
      *tw = MIN (ew, out_w), *th = MIN (eh, out_h);
      return;
    }
  if (available == G_MAXSIZE)
    {
      *tw = out_w, *th = out_h;
      return;
    }
  guint side = TILE_SIDE_MAX;
  for (; side > TILE_SIDE_MIN; side /= 2)
    {
      /* A tile in the middle: its halos are not clamped by the edges. */
      guint x = out_w > side ? (out_w - side) / 2 : 0, y = out_h > side ? (out_h - side) / 2 : 0;
      LmRect r = { x, y, MIN (side, out_w), MIN (side, out_h) };
      /* two buffers, and as much again for the operations' scratch (blur's intermediate); a
       * masked step's two float planes are twice an RGBA8 buffer more */
      if ((guint64) lanes * (plan->masked ? 6 : 4) * tile_bytes (plan, source, end, &r) <= available / 2)
        break;
    }
  *tw = MIN (side, out_w), *th = MIN (side, out_h);
}

/* Every tile of AREA (frame END) cut TW × TH, through the lanes, to SINK. */
static gboolean
run_tiles (Plan *plan, Lane *lanes, guint n_lanes, const LmImage *host_source, guint end, const LmRect *area,
           guint tw, guint th, const Sink *sink, guint *n_tiles, GError **error)
{
  guint t = 0;
  for (guint y = area->y; y < area->y + area->height; y += th)
    for (guint x = area->x; x < area->x + area->width; x += tw, t++)
      {
        Lane *lane = &lanes[t % n_lanes];
        /* The lane's buffers are reused: what it queued before must be done with them. */
        if (lane->busy && !lm_backend_synchronize (lane->backend, error))
          return FALSE;
        lane->busy = FALSE;
        LmRect r = { x, y, MIN (tw, area->x + area->width - x), MIN (th, area->y + area->height - y) };
        if (sink->noise_of)
          {
            /* denoise's first pass: the tile with the halo its counts read */
            const Step *dn = &plan->steps[end];
            guint h = LM_DENOISE_EST_HALO, gx = x > h ? x - h : 0, gy = y > h ? y - h : 0;
            plan->denoise_own = r;
            r = (LmRect) { gx, gy, MIN (dn->in_w, r.x + r.width + h) - gx, MIN (dn->in_h, r.y + r.height + h) - gy };
          }
        if (!render_tile (plan, lane, host_source, end, &r, sink, error))
          return FALSE;
      }
  for (guint i = 0; i < n_lanes; i++)
    if (lanes[i].busy && !lm_backend_synchronize (lanes[i].backend, error))
      return FALSE;
    else
      lanes[i].busy = FALSE;
  *n_tiles = t;
  return TRUE;
}

static guint
lanes_wanted (LmBackend *backend, const LmTileOptions *options)
{
  if (options && options->lanes)
    return MIN (options->lanes, LANES_MAX);
  return lm_backend_cuda_device (backend) >= 0 ? LANES_GPU : 1;
}

/* Lanes beyond the first: backends of their own on the same device (their own stream,
 * scratch and buffers). */
static LmBackend *
lane_backend_new (LmBackend *backend, GError **error)
{
  int device = lm_backend_cuda_device (backend);
  if (device >= 0)
    return lm_backend_cuda_new_on_device (device, error);
  return lm_backend_cpu_new ();
}

gboolean
lm_render_tiled (LmBackend *backend, const LmImage *host_source, const LmPipeline *pipeline, LmColorProfile *color,
                 const LmRect *out_rect, LmImage *host_out, const LmTileOptions *options, LmTimings *timings,
                 GError **error)
{
  Plan plan;
  if (!plan_build (&plan, host_source, pipeline, color, options ? options->level : NULL, error))
    return FALSE;
  LmFormat format;
  guint out_w, out_h;
  plan_output (&plan, host_source, &format, &out_w, &out_h);
  LmRect whole = { 0, 0, out_w, out_h };
  LmRect area = out_rect ? *out_rect : whole;
  g_return_val_if_fail ((guint64) area.x + area.width <= out_w && (guint64) area.y + area.height <= out_h
                          && area.width > 0 && area.height > 0, FALSE);
  g_return_val_if_fail (host_out->format == format && host_out->width == area.width
                          && host_out->height == area.height, FALSE);

  gint64 start = g_get_monotonic_time ();
  guint n_lanes = lanes_wanted (backend, options);
  Lane lanes[LANES_MAX] = { { 0 } };
  lanes[0].backend = backend;
  gboolean ok = TRUE;
  for (guint i = 1; i < n_lanes; i++)
    if ((lanes[i].backend = lane_backend_new (backend, NULL)) == NULL)
      {
        /* A device too full for another lane's stream and workspace: the lanes there are
         * render alone, their copies then not hidden under another lane's work. */
        n_lanes = i;
        break;
      }
  gsize available = lm_backend_memory_available (backend);

  guint n_tiles = 0, tw = 0, th = 0;
  double histogram_ms = 0.0;
  if (ok && plan.denoise >= 0)
    {
      /* Denoise's σ is its whole input's: one piece estimates it itself; tiles get it from a
       * first pass over the tiles of its input frame, whose integer counts add up to the
       * whole frame's (the same σ as one piece). */
      choose_tile (&plan, host_source, plan.n, out_w, out_h, n_lanes, available, options, &tw, &th);
      if (tw < out_w || th < out_h || area.width < out_w || area.height < out_h)
        {
          const Step *dn = &plan.steps[plan.denoise];
          LmRect dn_area = { 0, 0, dn->in_w, dn->in_h };
          Sink sink = { .noise_of = &plan };
          guint n;
          plan.denoise_bins = g_new0 (guint32, LM_DENOISE_HIST_SIZE);
          choose_tile (&plan, host_source, plan.denoise, dn->in_w, dn->in_h, n_lanes, available, options, &tw, &th);
          tw = MAX (tw, MIN (64u, dn->in_w)), th = MAX (th, MIN (64u, dn->in_h));
          ok = run_tiles (&plan, lanes, n_lanes, host_source, plan.denoise, &dn_area, tw, th, &sink, &n, error);
          if (ok)
            plan.denoise_sigma = (float) lm_denoise_sigma_from_histogram (plan.denoise_bins);
        }
      else
        plan.denoise = -1;
    }
  if (ok && plan.equalize >= 0)
    {
      /* Equalize's table needs its whole input: a first pass over the tiles of its input
       * frame, each tile's histogram added up in integers (the same counts as one piece). */
      gint64 first = g_get_monotonic_time ();
      const Step *eq = &plan.steps[plan.equalize];
      gsize bins = lm_format_depth (eq->in_format) == 16 ? LM_HIST16_BINS : LM_HIST_BINS;
      gsize bytes = LM_HIST_N_CHANNELS * bins * sizeof (guint32);
      LmTileHistogram *known = options ? options->equalize : NULL;
      if (known && known->total > 0 && known->bins)
        {
          plan.equalize_bins = g_memdup2 (known->bins, bytes);
          plan.equalize_total = known->total;
        }
      else
        {
          plan.equalize_bins = g_new0 (guint32, LM_HIST_N_CHANNELS * bins);
          LmRect eq_area = { 0, 0, eq->in_w, eq->in_h };
          Sink sink = { .histogram_of = &plan };
          guint n;
          choose_tile (&plan, host_source, plan.equalize, eq->in_w, eq->in_h, n_lanes, available, options, &tw,
                       &th);
          /* Forced tiny tiles (tests) cover the output asked for; this pass covers the whole
           * input, in tiles of at least 64 × 64. */
          tw = MAX (tw, MIN (64u, eq->in_w)), th = MAX (th, MIN (64u, eq->in_h));
          ok = run_tiles (&plan, lanes, n_lanes, host_source, plan.equalize, &eq_area, tw, th, &sink, &n, error);
          histogram_ms = (g_get_monotonic_time () - first) / 1000.0;
          if (ok && known)
            {
              g_free (known->bins);
              known->bins = g_memdup2 (plan.equalize_bins, bytes);
              known->total = plan.equalize_total;
            }
        }
    }
  if (ok)
    {
      Sink sink = { .host_out = host_out, .out_rect = area };
      choose_tile (&plan, host_source, plan.n, out_w, out_h, n_lanes, available, options, &tw, &th);
      ok = run_tiles (&plan, lanes, n_lanes, host_source, plan.n, &area, tw, th, &sink, &n_tiles, error);
    }
  if (ok)
    host_out->opaque = host_source->opaque || lm_format_channels (format) == 1;

  for (guint i = 0; i < n_lanes; i++)
    {
      g_clear_pointer (&lanes[i].buffer[0], lm_image_unref);
      g_clear_pointer (&lanes[i].buffer[1], lm_image_unref);
      g_clear_pointer (&lanes[i].drawn, lm_image_unref);
      g_clear_pointer (&lanes[i].mask, lm_image_unref);
      if (i > 0)
        g_clear_pointer (&lanes[i].backend, lm_backend_free);
    }
  plan_clear (&plan);
  if (ok && timings)
    {
      if (histogram_ms > 0.0)
        lm_timings_add (timings, _("equalize histogram"), histogram_ms);
      g_autofree char *label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "tiles: %u of %u×%u, %u lane",
                                                             "tiles: %u of %u×%u, %u lanes", n_lanes),
                                                n_tiles, tw, th, n_lanes);
      lm_timings_add (timings, label, (g_get_monotonic_time () - start) / 1000.0 - histogram_ms);
    }
  return ok;
}

void
lm_render_tiled_output (const LmImage *source, const LmPipeline *pipeline, LmFormat *format, guint *width,
                        guint *height)
{
  Plan plan;
  if (!plan_build (&plan, source, pipeline, NULL, NULL, NULL))
    {
      *format = source->format, *width = source->width, *height = source->height;
      return;
    }
  plan_output (&plan, source, format, width, height);
  plan_clear (&plan);
}

gboolean
lm_render_tiled_source_rect (const LmImage *source, const LmPipeline *pipeline, const LmRect *out_rect,
                             LmRect *in_rect)
{
  Plan plan;
  if (!plan_build (&plan, source, pipeline, NULL, NULL, NULL))
    return FALSE;
  LmRect rects[LM_PLAN_MAX + 1];
  walk_back (&plan, plan.n, out_rect, rects);
  *in_rect = rects[0];
  plan_clear (&plan);
  return TRUE;
}

gboolean
lm_render_fits (LmBackend *backend, const LmImage *source, const LmPipeline *pipeline)
{
  gsize available = lm_backend_memory_available (backend);
  if (available == G_MAXSIZE)
    return TRUE;
  Plan plan;
  if (!plan_build (&plan, source, pipeline, NULL, NULL, NULL))
    return TRUE; /* not tiled: the untiled render says what is wrong */
  gsize stride, size, need = lm_image_size_bytes (source);
  for (guint i = 0; i < plan.n; i++)
    {
      const Step *step = &plan.steps[i];
      if (lm_image_layout (step->out_format, step->out_w, step->out_h, &stride, &size, NULL))
        need += size;
      /* Scratch: blur's and resize's float intermediates, 16-bit equalize's tables. */
      if (step->info && (step->info->id == LM_OP_BLUR || step->info->id == LM_OP_RESIZE))
        need += (gsize) MAX (step->in_w, step->out_w) * MAX (step->in_h, step->out_h)
                * lm_format_channels (step->in_format) * sizeof (float);
    }
  plan_clear (&plan);
  return need <= available;
}
