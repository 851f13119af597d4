/* Choosing a backend, and the checks every backend's callers rely on. */
#include "backend.h"

#include <glib/gi18n.h>

#include "config.h"
#include "../error.h"
#include "../ops/point.h"
#include "../ops/view.h"

gboolean
lm_backend_kind_parse (const char *text, LmBackendKind *kind)
{
  if (g_str_equal (text, "auto"))
    *kind = LM_BACKEND_AUTO;
  else if (g_str_equal (text, "cpu"))
    *kind = LM_BACKEND_CPU;
  else if (g_str_equal (text, "cuda") || g_str_equal (text, "gpu"))
    *kind = LM_BACKEND_CUDA;
  else
    return FALSE;
  return TRUE;
}

LmBackend *
lm_backend_new (LmBackendKind kind, GError **error)
{
  if (kind == LM_BACKEND_CPU)
    return lm_backend_cpu_new ();

  GError *cuda_error = NULL;
  LmBackend *cuda = lm_backend_cuda_new (&cuda_error);
  if (cuda != NULL)
    return cuda;
  if (kind == LM_BACKEND_CUDA)
    {
      g_propagate_error (error, cuda_error);
      return NULL;
    }
  g_debug ("CUDA backend unavailable, using the CPU: %s", cuda_error->message);
  g_error_free (cuda_error);
  return lm_backend_cpu_new ();
}

void
lm_backend_free (LmBackend *backend)
{
  if (backend == NULL)
    return;
  g_free (backend->description);
  backend->klass->destroy (backend);
}

const char *
lm_backend_name (LmBackend *backend)
{
  return backend->klass->name;
}

gboolean
lm_backend_run_op (LmBackend *b, const LmOpInfo *op, const void *params, const LmImage *src,
                   LmImage *dst, GError **error)
{
  guint width, height;
  lm_op_output_size (op, params, src->width, src->height, &width, &height);
  g_return_val_if_fail (dst->width == width && dst->height == height, FALSE);
  g_return_val_if_fail (dst->format == op->output_format (params, src->format, src->opaque), FALSE);
  if (lm_op_is_point (op->id))
    {
      LmPointPass pass;
      lm_point_pass_init (&pass);
      lm_point_pass_add (&pass, op, params);
      return lm_backend_run_points (b, &pass, src, dst, error);
    }
  if (!b->klass->run_op (b, op, params, src, dst, error))
    return FALSE;
  dst->opaque = src->opaque;
  return TRUE;
}

gboolean
lm_backend_run_points (LmBackend *b, const LmPointPass *pass, const LmImage *src, LmImage *dst,
                       GError **error)
{
  g_return_val_if_fail (src->format == LM_FORMAT_RGBA8 || src->format == LM_FORMAT_GRAY8
                          || src->format == LM_FORMAT_RGBA16 || src->format == LM_FORMAT_GRAY16,
                        FALSE);
  g_return_val_if_fail (dst->format == lm_point_output_format (NULL, src->format, src->opaque)
                          && dst->width == src->width && dst->height == src->height,
                        FALSE);
  if (!b->klass->run_points (b, pass, src, dst, error))
    return FALSE;
  dst->opaque = src->opaque || lm_format_channels (src->format) == 1;
  return TRUE;
}

gboolean
lm_backend_histogram (LmBackend *b, const LmImage *image, LmHistWant want, LmHistogram *hist,
                      GError **error)
{
  return b->klass->histogram (b, image, want, hist, error);
}

gboolean
lm_backend_diff (LmBackend *b, const LmImage *a, const LmImage *bb, float gain, LmImage *heat,
                 LmDiffStats *stats, GError **error)
{
  if (!lm_diff_check (a, bb, error))
    return FALSE;
  g_return_val_if_fail (heat == NULL || (heat->format == LM_FORMAT_RGBA8 && heat->width == a->width
                                         && heat->height == a->height), FALSE);
  return b->klass->diff (b, a, bb, gain, heat, stats, error);
}

gboolean
lm_backend_view (LmBackend *b, const LmImage *image, const LmViewRect *rect, LmImage *out,
                 GError **error)
{
  return lm_backend_view_through (b, image, rect, NULL, out, error);
}

gboolean
lm_backend_view_through (LmBackend *b, const LmImage *image, const LmViewRect *rect,
                         LmViewTransform *xf, LmImage *out, GError **error)
{
  if (!lm_view_check (image, rect, out, error))
    return FALSE;
  return b->klass->view (b, image, rect, xf, out, error);
}

gboolean
lm_backend_seen_histogram (LmBackend *b, const LmImage *image, LmViewTransform *xf,
                           LmHistogram *hist, GError **error)
{
  g_return_val_if_fail (image->format != LM_FORMAT_RGBA_F32 && image->format != LM_FORMAT_RGBE8, FALSE);
  return b->klass->seen_histogram (b, image, xf, hist, error);
}

static gboolean
check_stack (const LmHdrStack *stack, GError **error)
{
  g_return_val_if_fail (stack->n >= 2, FALSE);
  for (guint i = 1; i < stack->n; i++)
    if (!lm_image_same_shape (stack->images[i], stack->images[0]))
      {
        g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s is %u×%u, but %s is %u×%u"),
                     stack->paths[i], stack->images[i]->width, stack->images[i]->height,
                     stack->paths[0], stack->images[0]->width, stack->images[0]->height);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_available (LmBackend *b, gconstpointer entry, const char *what, GError **error)
{
  if (entry != NULL)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, _("%s is not available on the %s backend"), what,
               b->klass->name);
  return FALSE;
}

gboolean
lm_backend_hdr_merge (LmBackend *b, const LmHdrMergeParams *params, const LmHdrStack *stack,
                      LmImage *out, GError **error)
{
  if (!check_stack (stack, error) || !check_available (b, b->klass->hdr_merge, _("the HDR merge"), error))
    return FALSE;
  g_return_val_if_fail (out->format == LM_FORMAT_RGBA_F32 && out->width == stack->images[0]->width
                        && out->height == stack->images[0]->height, FALSE);
  return b->klass->hdr_merge (b, params, stack, out, error);
}

gboolean
lm_backend_hdr_align (LmBackend *b, const LmAlignParams *params, const LmHdrStack *stack,
                      LmShift *shifts, GError **error)
{
  if (!check_stack (stack, error) || !check_available (b, b->klass->hdr_align, _("the alignment"), error))
    return FALSE;
  return b->klass->hdr_align (b, params, stack, shifts, error);
}

gboolean
lm_backend_develop_raw (LmBackend *b, const LmRawParams *params, const LmRawInfo *info, const LmImage *src,
                        LmImage *out, GError **error)
{
  if (!check_available (b, b->klass->develop_raw, _("the raw development"), error))
    return FALSE;
  g_return_val_if_fail (info != NULL && out->format == LM_FORMAT_RGBA_F32 && src->width == out->width
                          && src->height == out->height,
                        FALSE);
  if (!b->klass->develop_raw (b, params, info, src, out, error))
    return FALSE;
  out->opaque = TRUE;
  return TRUE;
}

gboolean
lm_backend_scene_gain (LmBackend *b, const float gain[3], const LmImage *src, LmImage *out, GError **error)
{
  if (!check_available (b, b->klass->scene_gain, _("scene-referred edits"), error))
    return FALSE;
  g_return_val_if_fail (src->format == LM_FORMAT_RGBA_F32 && out->format == LM_FORMAT_RGBA_F32
                          && src->width == out->width && src->height == out->height,
                        FALSE);
  if (!b->klass->scene_gain (b, gain, src, out, error))
    return FALSE;
  out->opaque = src->opaque;
  return TRUE;
}

gboolean
lm_backend_tonemap (LmBackend *b, const LmTonemapParams *params, const LmImage *radiance,
                    LmImage *out, GError **error)
{
  if (!check_available (b, b->klass->tonemap, _("tone mapping"), error))
    return FALSE;
  g_return_val_if_fail (radiance->format == LM_FORMAT_RGBA_F32
                        && (out->format == LM_FORMAT_RGBA8 || out->format == LM_FORMAT_RGBA16)
                        && radiance->width == out->width && radiance->height == out->height, FALSE);
  if (!b->klass->tonemap (b, params, radiance, out, error))
    return FALSE;
  out->opaque = TRUE;
  return TRUE;
}

gboolean
lm_backend_rgbe_encode (LmBackend *b, const LmImage *radiance, LmImage *out, GError **error)
{
  if (!check_available (b, b->klass->rgbe_encode, _("the Radiance encoding"), error))
    return FALSE;
  g_return_val_if_fail (radiance->format == LM_FORMAT_RGBA_F32 && out->format == LM_FORMAT_RGBE8
                        && radiance->width == out->width && radiance->height == out->height, FALSE);
  return b->klass->rgbe_encode (b, radiance, out, error);
}

#if !LUMEN_HAVE_CUDA
char *
lm_backend_cuda_unavailable_reason (void)
{
  return g_strdup (_("this build of Lumen has no CUDA support (built without nvcc)"));
}

LmBackend *
lm_backend_cuda_new (GError **error)
{
  g_autofree char *reason = lm_backend_cuda_unavailable_reason ();
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("CUDA backend unavailable: %s"), reason);
  return NULL;
}

int
lm_backend_cuda_device_count (void)
{
  return 0;
}

LmBackend *
lm_backend_cuda_new_on_device (int device, GError **error)
{
  return lm_backend_cuda_new (error);
}

int
lm_backend_cuda_device (LmBackend *backend)
{
  return -1;
}

void
lm_backend_cuda_sleep_on_sync (int device)
{
}

void
lm_backend_cuda_set_memory_limit (gsize bytes)
{
}
#endif

gboolean
lm_backend_copy_rect (LmBackend *b, const LmImage *from, const LmRect *rect, LmImage *to, guint to_x, guint to_y,
                      GError **error)
{
  g_return_val_if_fail (from->format == to->format, FALSE);
  g_return_val_if_fail ((guint64) rect->x + rect->width <= from->width
                          && (guint64) rect->y + rect->height <= from->height, FALSE);
  g_return_val_if_fail ((guint64) to_x + rect->width <= to->width && (guint64) to_y + rect->height <= to->height,
                        FALSE);
  if (rect->width == 0 || rect->height == 0)
    return TRUE;
  return b->klass->copy_rect (b, from, rect->x, rect->y, to, to_x, to_y, rect->width, rect->height, error);
}

LmImage *
lm_backend_download_to (LmBackend *b, LmImage *work, const LmAllocator *allocator, GError **error)
{
  g_autoptr (LmImage) host = lm_image_new (work->format, work->width, work->height, allocator, error);
  if (host == NULL || !lm_backend_copy (b, work, host, error))
    return NULL;
  return g_steal_pointer (&host);
}

gsize
lm_backend_memory_available (LmBackend *b)
{
  return b->klass->memory_available ? b->klass->memory_available (b) : G_MAXSIZE;
}

/* Where the planes of a mask lie in its frame, checked: a plane that is not the tile's or the
 * frame's is the caller's mistake. */
static gboolean
mask_origin (const LmMaskFlat *flat, const LmTileFrame *tile, const LmImage *plane, guint *x0, guint *y0,
             GError **error)
{
  if (plane->format == LM_FORMAT_GRAY_F32 && lm_mask_tile_origin (lm_mask_flat_render (flat), tile, plane, x0, y0))
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("A mask's plane does not fit in the frame it was placed on"));
  return FALSE;
}

gboolean
lm_backend_mask_drawn (LmBackend *b, const LmMaskFlat *flat, const LmTileFrame *tile, LmImage *drawn,
                       GError **error)
{
  guint x0, y0;
  if (!check_available (b, b->klass->mask_drawn, _("masks"), error)
      || !mask_origin (flat, tile, drawn, &x0, &y0, error))
    return FALSE;
  return b->klass->mask_drawn (b, lm_mask_flat_render (flat), lm_mask_flat_data_size (flat), x0, y0, drawn, error);
}

gboolean
lm_backend_mask (LmBackend *b, const LmMaskFlat *flat, const LmTileFrame *tile, const LmImage *input,
                 const LmImage *drawn, LmImage *out, GError **error)
{
  guint x0, y0;
  if (!check_available (b, b->klass->mask, _("masks"), error) || !mask_origin (flat, tile, out, &x0, &y0, error))
    return FALSE;
  if (!lm_mask_format_supported (input->format) || drawn->format != LM_FORMAT_GRAY_F32
      || input->width != out->width || input->height != out->height || drawn->width != out->width
      || drawn->height != out->height)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("A mask's input of format %s does not fit its planes"),
                   lm_format_name (input->format));
      return FALSE;
    }
  return b->klass->mask (b, lm_mask_flat_render (flat), lm_mask_flat_data_size (flat), x0, y0, input, drawn, out,
                         error);
}

gboolean
lm_backend_blend_mask (LmBackend *b, const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out,
                       GError **error)
{
  if (!check_available (b, b->klass->blend_mask, _("masks"), error))
    return FALSE;
  if (!lm_image_same_shape (in, op) || !lm_image_same_shape (in, out) || !lm_mask_format_supported (in->format)
      || mask->format != LM_FORMAT_GRAY_F32 || mask->width != in->width || mask->height != in->height)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("A masked operation's result of format %s does not fit its input or mask"),
                   lm_format_name (op->format));
      return FALSE;
    }
  if (!b->klass->blend_mask (b, in, op, mask, out, error))
    return FALSE;
  out->opaque = in->opaque;
  return TRUE;
}
