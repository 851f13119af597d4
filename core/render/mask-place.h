/* A masked instance's mask placed where the instance runs (docs/masks.md): its shapes, stored
 * in source-normalised coordinates (pixel / the photo's long side, before geometry), carried
 * through the enabled geometry before the instance, the pyramid level the render runs on and
 * the pixel grid of the instance's input. The render cache (cache.c) and the tiled render
 * (tiled.c) place masks through this one function, so that a tile's mask is the whole
 * frame's. */
#pragma once

#include <glib.h>

#include "../edit/pipeline.h"
#include "../ops/mask.h"

G_BEGIN_DECLS

/* What a render's source is of: a pyramid level FACTOR times smaller than the photo of
 * FULL_W × FULL_H (its pixel i covering the photo's [i·f, (i + 1)·f)); factor 1 and the
 * source's own size for a render of the photo itself. */
typedef struct {
  double factor;
  guint full_w, full_h;
} LmRenderLevel;

/* The level of a source of SRC_W × SRC_H: LEVEL, or (NULL or unset) the photo itself. */
LmRenderLevel lm_render_level_of (const LmRenderLevel *level, guint src_w, guint src_h);

/* Where the pixels of instance INDEX's input lie in source-normalised coordinates, for
 * PIPELINE run on a source of SRC_W × SRC_H of LEVEL. Lens correction is not affine: masks
 * are placed on its output (which keeps the photo's size), so it is left out. An instance on
 * SCENE light (a raw's, a merge's) runs before the display side's rotation, straightening and
 * crop, whatever their place in the list: its input is the photo itself. Refuses a geometry
 * that is not affine (it never is, but the four corners say so). */
gboolean lm_render_mask_frame (const LmPipeline *pipeline, guint index, gboolean scene, guint src_w, guint src_h,
                               const LmRenderLevel *level, LmMaskFrame *frame, GError **error);

/* Instance INDEX's mask flattened (SCENE: its input is scene light) and placed on FRAME (what
 * lm_render_mask_frame gives), its input of IN_W × IN_H. */
LmMaskFlat *lm_render_mask_place (const LmPipeline *pipeline, guint index, gboolean scene, const LmMaskFrame *frame,
                                  guint in_w, guint in_h, GError **error);

/* Whether instance INDEX, whose input is IN (format, size) and result OUT, can be masked: its
 * result is blended with its input pixel for pixel, so an operation that changes the format
 * (grayscale to one channel) or the size is refused in one line. */
gboolean lm_render_mask_fits (const LmPipeline *pipeline, guint index, LmFormat in, guint in_w, guint in_h,
                              LmFormat out, guint out_w, guint out_h, GError **error);

G_END_DECLS
