/* The CPU backend: work memory is host memory, so upload and download share the image;
 * operations run their OpenMP reference implementations. */
#include "backend.h"
#include "../io/rgbe.h"
#include "../ops/ops.h"
#include "../ops/point.h"
#include "../ops/scene-gain.h"
#include "../ops/view.h"
#include "../color/seen-histogram.h"

#include <omp.h>
#include <string.h>
#include <glib/gi18n.h>

typedef struct {
  LmBackend parent;
  /* What operations keep from one run to the next (LmOpInfo.run_cpu_kept), for as long as
   * one photo is edited: blurs on a photo (and its shrunk preview) then allocate nothing. */
  gpointer kept[LM_N_OPS];
} LmBackendCpu;

static void
cpu_release_scratch (LmBackend *self)
{
  LmBackendCpu *cpu = (LmBackendCpu *) self;
  for (int id = 0; id < LM_N_OPS; id++)
    if (cpu->kept[id] != NULL)
      {
        lm_op_info (id)->kept_free (cpu->kept[id]);
        cpu->kept[id] = NULL;
      }
}

static void
cpu_destroy (LmBackend *self)
{
  cpu_release_scratch (self);
  g_free (self);
}

static const LmAllocator *
cpu_allocator (LmBackend *self)
{
  return lm_allocator_host ();
}

static LmImage *
cpu_share (LmBackend *self, LmImage *image, GError **error)
{
  return lm_image_ref (image);
}

static gboolean
cpu_copy (LmBackend *self, const LmImage *from, LmImage *to, GError **error)
{
  if (from != to)
    memcpy (to->data, from->data, lm_image_size_bytes (from));
  to->opaque = from->opaque;
  return TRUE;
}

static gboolean
cpu_run_op (LmBackend *self, const LmOpInfo *op, const void *params, const LmImage *src,
            LmImage *dst, GError **error)
{
  if (op->run_cpu_kept != NULL && op->id < LM_N_OPS)
    return op->run_cpu_kept (params, src, dst, &((LmBackendCpu *) self)->kept[op->id], error);
  return op->run_cpu (params, src, dst, error);
}

static gboolean
cpu_run_points (LmBackend *self, const LmPointPass *pass, const LmImage *src, LmImage *dst,
                GError **error)
{
  lm_point_run_cpu (pass, src, dst);
  return TRUE;
}

static gboolean
cpu_histogram (LmBackend *self, const LmImage *image, LmHistWant want, LmHistogram *hist,
               GError **error)
{
  lm_histogram_cpu (image, want, hist);
  return TRUE;
}

static gboolean
cpu_diff (LmBackend *self, const LmImage *a, const LmImage *b, float gain, LmImage *heat,
          LmDiffStats *stats, GError **error)
{
  LmDiffSums sums;
  lm_diff_cpu (a, b, gain, heat, &sums);
  lm_diff_stats_from_sums (&sums, stats);
  return TRUE;
}

static gboolean
cpu_view (LmBackend *self, const LmImage *image, const LmViewRect *rect, LmViewTransform *xf,
          LmImage *out, GError **error)
{
  lm_view_cpu_lut (image, rect, lm_view_transform_lut (xf), out);
  return TRUE;
}

static gboolean
cpu_seen_histogram (LmBackend *self, const LmImage *image, LmViewTransform *xf, LmHistogram *hist,
                    GError **error)
{
  lm_seen_histogram_cpu (image, lm_view_transform_lut (xf), hist);
  return TRUE;
}

static gboolean
cpu_hdr_merge (LmBackend *self, const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
               GError **error)
{
  return lm_hdr_merge_cpu (params, stack, out, error);
}

static gboolean
cpu_hdr_align (LmBackend *self, const LmAlignParams *params, const LmHdrStack *stack, LmShift *shifts,
               GError **error)
{
  return lm_hdr_align_mtb_cpu (params, stack, shifts, error);
}

static gboolean
cpu_tonemap (LmBackend *self, const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
             GError **error)
{
  return lm_tonemap_cpu (params, radiance, out, error);
}

static gboolean
cpu_develop_raw (LmBackend *self, const LmRawParams *params, const LmRawInfo *info, const LmImage *src, LmImage *out,
                 GError **error)
{
  return lm_raw_develop_cpu (params, info, src, out, error);
}

static gboolean
cpu_scene_gain (LmBackend *self, const float gain[3], const LmImage *src, LmImage *out, GError **error)
{
  lm_scene_gain_cpu (gain, src, out);
  return TRUE;
}

static gboolean
cpu_mask_drawn (LmBackend *self, const LmMaskRender *render, gsize data_size, guint x0, guint y0, LmImage *drawn,
                GError **error)
{
  lm_mask_drawn_cpu (render, x0, y0, drawn);
  return TRUE;
}

static gboolean
cpu_mask (LmBackend *self, const LmMaskRender *render, gsize data_size, guint x0, guint y0, const LmImage *input,
          const LmImage *drawn, LmImage *out, GError **error)
{
  return lm_mask_final_cpu (render, x0, y0, input, drawn, out, error);
}

static gboolean
cpu_blend_mask (LmBackend *self, const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out,
                GError **error)
{
  lm_mask_blend_cpu (in, op, mask, out);
  return TRUE;
}

static gboolean
cpu_rgbe_encode (LmBackend *self, const LmImage *radiance, LmImage *out, GError **error)
{
  lm_rgbe_encode_cpu (radiance, out);
  return TRUE;
}

static gboolean
cpu_synchronize (LmBackend *self, GError **error)
{
  return TRUE;
}

static void
cpu_mark (LmBackend *self, LmMark *mark)
{
  mark->host_us = g_get_monotonic_time ();
  mark->event = -1;
}

static double
cpu_elapsed_ms (LmBackend *self, const LmMark *a, const LmMark *b)
{
  return (b->host_us - a->host_us) / 1000.0;
}

static gboolean
cpu_copy_rect (LmBackend *self, const LmImage *from, guint from_x, guint from_y, LmImage *to, guint to_x,
               guint to_y, guint width, guint height, GError **error)
{
  gsize bpp = lm_format_bytes_per_pixel (from->format);
#pragma omp parallel for schedule(static) if ((gsize) width * height > 65536)
  for (guint y = 0; y < height; y++)
    memmove (lm_image_row (to, to_y + y) + to_x * bpp, lm_image_row (from, from_y + y) + from_x * bpp,
             width * bpp);
  return TRUE;
}

/* Host memory: no bound the backend could tell; the tiler then renders in one piece. */
static gsize
cpu_memory_available (LmBackend *self)
{
  return G_MAXSIZE;
}

static const LmBackendClass cpu_class = {
  .name = "cpu",
  .destroy = cpu_destroy,
  .release_scratch = cpu_release_scratch,
  .host_allocator = cpu_allocator,
  .work_allocator = cpu_allocator,
  .upload = cpu_share,
  .download = cpu_share,
  .copy = cpu_copy,
  .run_op = cpu_run_op,
  .run_points = cpu_run_points,
  .histogram = cpu_histogram,
  .diff = cpu_diff,
  .view = cpu_view,
  .seen_histogram = cpu_seen_histogram,
  .hdr_merge = cpu_hdr_merge,
  .hdr_align = cpu_hdr_align,
  .tonemap = cpu_tonemap,
  .scene_gain = cpu_scene_gain,
  .mask_drawn = cpu_mask_drawn,
  .mask = cpu_mask,
  .blend_mask = cpu_blend_mask,
  .rgbe_encode = cpu_rgbe_encode,
  .develop_raw = cpu_develop_raw,
  .synchronize = cpu_synchronize,
  .mark = cpu_mark,
  .elapsed_ms = cpu_elapsed_ms,
  .copy_rect = cpu_copy_rect,
  .memory_available = cpu_memory_available,
};

LmBackend *
lm_backend_cpu_new (void)
{
  LmBackendCpu *self = g_new0 (LmBackendCpu, 1);
  self->parent.klass = &cpu_class;
  /* The OpenMP team starts here, before the photo is decoded, not in the first operation,
   * whose time the user reads (bench-first-run: 0.2 ms on an idle machine, tens of ms on a
   * busy one). */
#pragma omp parallel
  {
    (void) omp_get_thread_num ();
  }
  self->parent.description = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "CPU, %d thread", "CPU, %d threads", omp_get_max_threads ()),
    omp_get_max_threads ());
  return &self->parent;
}
